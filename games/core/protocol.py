"""The Ruleset protocol: the one interface between the platform and every rules engine.

The platform stores only JSON and calls only these methods (architecture 8.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeAlias, TypeVar

from games.core.rng import Rng

JSON: TypeAlias = "bool | int | str | list[JSON] | dict[str, JSON] | None"
Role: TypeAlias = str

SYSTEM: Role = "@system"  # platform-issued actions: .deadline, .resign
OMNISCIENT: Role = "@omniscient"  # umpire tools, post-game review
OBSERVER: Role = "@observer"  # spectators: public information only

# The platform's pseudo-kinds, sent as SYSTEM: event 1 of every game (its payload is the scenario
# and options, never the seed), and a missed deadline, which the engine resolves by its defaults.
SETUP_KIND = ".setup"
DEADLINE_KIND = ".deadline"

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RoleInfo:
    id: Role
    name: str
    team: str | None = None


# The option through which a ruleset that takes scenario documents (C&C's `ccn-scenario/1`) gets
# a whole document instead of a shipped scenario's name; the game's scenario is then the
# document's id, and the set-up event, which records the options, holds the document itself.
SCENARIO_DOCUMENT = "scenario_document"


@dataclass(frozen=True, slots=True)
class GameConfig:
    scenario: str
    options: Mapping[str, JSON]
    roles: tuple[Role, ...] = ()


@dataclass(frozen=True, slots=True)
class Action:
    role: Role
    kind: str
    payload: JSON = None


@dataclass(frozen=True, slots=True)
class Rejection:
    rule: str  # digest rule id, e.g. "NT-72"
    message: str  # one sentence a player understands
    path: str = ""  # JSON pointer into the payload

    def to_json(self) -> dict[str, JSON]:
        return {"rule": self.rule, "message": self.message, "path": self.path}


class SetupError(ValueError):
    """A ruleset refusing to set a game up (an unknown scenario, an option it does not offer):
    the one exception `roles` and `setup` raise for bad input. It carries the rejections, each
    naming the rule that refuses, so the platform answers a 400 naming them. Engines raise it
    (or a subclass) and never let their own exceptions out of set-up."""

    def __init__(self, rejections: Rejection | Sequence[Rejection]) -> None:
        found = (rejections,) if isinstance(rejections, Rejection) else tuple(rejections)
        if not found:
            raise ValueError("a SetupError names at least one rejection")
        super().__init__("; ".join(f"{r.rule}: {r.message}" for r in found))
        self.rejections: tuple[Rejection, ...] = found
        self.rejection: Rejection = found[0]  # the one a one-line answer names

    @classmethod
    def of(cls, rule: str, message: str, path: str = "") -> SetupError:
        """One rejection: the rule id, a sentence a player understands, a JSON pointer."""
        return cls(Rejection(rule, message, path))


@dataclass(frozen=True, slots=True)
class Prompt:
    role: Role
    kinds: Mapping[str, JSON]  # action kind -> description of what it takes
    text: str
    sealed: bool = False


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a role may take now, as a client needs it to compose the order: the payload's
    JSON Schema and, where the engine can list them, the legal choices (computed only from what
    the role may know)."""

    kind: str
    description: str
    schema: JSON  # JSON Schema (draft 2020-12) of the payload; objects refuse unknown keys
    choices: JSON = None  # {"payloads": [complete legal payloads], "complete": bool, ...} or None
    any_time: bool = False  # allowed whether or not the role is prompted (e.g. set_defense_plan)

    def to_json(self) -> dict[str, JSON]:
        return {
            "kind": self.kind,
            "description": self.description,
            "schema": self.schema,
            "choices": self.choices,
            "any_time": self.any_time,
        }


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One log line for `audience` (None: everyone).

    Notice convention (pbem.notify): the `data` of a PUBLIC line (audience None) may carry
    `{"notice": {"roles": [role, ...], "title": str}}`. Every listed role gets ONE notification
    of kind `turn_begins` for the event (the acting role too), all with the same subject built
    from `title` (team play L5: "Round 4, Allied turn begins"); its body is rendered from the
    recipient's own view only. A notice on a line with an audience is ignored."""

    text: str
    audience: frozenset[Role] | None = None  # None = everyone
    data: JSON = None


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    state: S
    log: tuple[LogEntry, ...] = ()
    turn_ended: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[Role, ...]
    summary: str
    data: JSON = field(default=None)


class Ruleset(Protocol[S]):
    id: str
    version: int
    title: str

    def scenarios(self) -> Sequence[str]: ...
    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]: ...
    def setup(self, config: GameConfig, rng: Rng) -> S: ...
    def prompts(self, state: S) -> Mapping[Role, Prompt]: ...
    def validate(self, state: S, action: Action) -> Sequence[Rejection]: ...
    def apply(self, state: S, action: Action, rng: Rng) -> Step[S]: ...
    def view(self, state: S, role: Role) -> JSON: ...
    def result(self, state: S) -> Result | None: ...
    def dump(self, state: S) -> JSON: ...
    def load(self, data: JSON) -> S: ...
    def parse_text(self, state: S, role: Role, text: str) -> Sequence[Action] | Rejection: ...
    def random_action(self, state: S, role: Role, rng: Rng) -> Action | None: ...
    # --- what a client needs to play from the API alone ---
    def actions(self, state: S, role: Role) -> Sequence[ActionSpec]:
        """Every action `role` may take now (prompted ones and any-time ones), with schemas and
        enumerated choices; computed only from what `role` may know."""
        ...

    def payload_schemas(self) -> Mapping[str, JSON]:
        """Every action kind a player may send -> the JSON Schema of its payload."""
        ...

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        """Whether the order is well formed, independent of the state: an unknown kind, or a
        payload that does not match the kind's schema (unknown keys named). Empty when fine.
        Rule ids: "unknown_kind" for an unknown kind, "schema" for a malformed payload."""
        ...

    def private_kinds(self) -> frozenset[str]:
        """Action kinds whose events only their own role may know exist (standing instructions):
        other roles never see them in events, counts or notifications."""
        ...

    # --- what a turn-report email needs (optional: the default renders nothing) ---
    def report_text(self, state: S, role: Role) -> str:
        """The role's view in words, plain text lines, built ONLY from `self.view(state, role)`
        and `self.prompts(state)[role]` (never from hidden state), for the body of a turn-report
        email. The default renders nothing (""): the platform then sends its generic body."""
        return ""

    # --- the order path's pre-check (optional: the default is `validate`) ---
    def validate_owned(self, state: S, action: Action) -> Sequence[Rejection]:
        """`validate` on a state the caller owns and never uses again (a state it has just
        loaded): the engine may change it instead of working on a copy. The same answer as
        `validate` always (tests hold them equal over random games); callers reach it through
        `validate_owned` below, which falls back to `validate`."""
        return self.validate(state, action)


def validate_owned(ruleset: Ruleset[S], state: S, action: Action) -> Sequence[Rejection]:
    """The ruleset's `validate_owned` when it has one, else `validate` (see the method)."""
    owned = getattr(ruleset, "validate_owned", None)
    if callable(owned):
        rejections: Sequence[Rejection] = owned(state, action)
        return rejections
    return ruleset.validate(state, action)


def random_legal_action(
    ruleset: Ruleset[S], state: S, role: Role, rng: Rng, tries: int = 20
) -> Action | None:
    """A random legal action for `role`, drawing up to `tries` times (an engine's random_action
    may give up on one draw): each draw gets its own generator `Rng(rng.next64())`. None when
    every draw gave up (the role has nothing to do, or the game is over)."""
    for _ in range(tries):
        action = ruleset.random_action(state, role, Rng(rng.next64()))
        if action is not None:
            return action
    return None
