"""The umpire seat, for every ruleset: `Umpired(ruleset)` is the ruleset with an umpire.

An umpire (role `UMPIRE`) sees what the omniscient view shows, answers the engine's umpire
prompts (an engine prompts the role `UMPIRE` for what only a person can judge), and records:
- a **ruling** (`RULING_KIND`): free text and the rule it concerns, for the roles it names
  (`audience`; null: everyone). The state does not change; the ruling is one log line for its
  audience, and the kind is private, so a role it does not name never learns that it exists;
- a **correction** (`CORRECTION_KIND`): an override of a fact the engine proposed, with a
  reason. Only an engine that proposes facts can take one: it lists `CORRECTION_KIND` in
  `umpire_kinds()` and validates and applies it itself. Any other ruleset refuses it (UMP-3).
Both are ordinary events: validated, applied, logged, hashed and replayed like any action.

What an umpire may not do (UMP-4): send a player's order. It acts only as `UMPIRE`, and only with
a ruling, a correction or a kind its own prompt offers. A player may not rule (UMP-2).

Rule ids (the platform's own, not a rulebook's): UMP-1 the ruling's form, UMP-2 only the umpire
rules or corrects, UMP-3 no correction without a proposed fact, UMP-4 the umpire sends no
player's order, UMP-5 (the platform's) the umpire plays no seat of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic

from games.core.protocol import (
    JSON,
    OMNISCIENT,
    Action,
    ActionSpec,
    GameConfig,
    LogEntry,
    Prompt,
    Rejection,
    Result,
    Role,
    RoleInfo,
    Ruleset,
    S,
    Step,
)
from games.core.rng import Rng

UMPIRE: Role = "@umpire"
RULING_KIND = ".ruling"
CORRECTION_KIND = ".correction"
UMPIRE_KINDS = frozenset({RULING_KIND, CORRECTION_KIND})
TEXT_MAX = 4000  # characters of a ruling: a product limit, like the team chat's
RULE_MAX = 40
AUDIENCE_MAX = 16

RULING_SCHEMA: JSON = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "minLength": 1, "maxLength": TEXT_MAX},
        "rule": {"type": "string", "maxLength": RULE_MAX},
        "audience": {
            "type": ["array", "null"],
            "items": {"type": "string", "maxLength": 60},
            "maxItems": AUDIENCE_MAX,
        },
    },
    "required": ["text"],
    "additionalProperties": False,
}
RULING_DESCRIPTION = (
    "record a ruling: text, the rule it concerns, and the roles it is for (null: everyone)"
)


def ruling_problems(payload: JSON, roles: Sequence[Role] | None = None) -> list[Rejection]:
    """The ruling's form (UMP-1), without jsonschema: the keys, types and bounds of the schema;
    with `roles` (the game's, which the platform knows and a state need not), also that the
    audience names only them (an umpire may name itself)."""
    if not isinstance(payload, dict):
        return [Rejection("UMP-1", "a ruling is an object with text, rule, audience", "")]
    out = [
        Rejection("UMP-1", f"unknown field {k!r} (allowed: text, rule, audience)", f"/{k}")
        for k in sorted(set(payload) - {"text", "rule", "audience"})
    ]
    text = payload.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > TEXT_MAX:
        out.append(Rejection("UMP-1", f"the text is 1 to {TEXT_MAX} characters", "/text"))
    rule = payload.get("rule", "")
    if not isinstance(rule, str) or len(rule) > RULE_MAX:
        out.append(Rejection("UMP-1", f"the rule is an id of at most {RULE_MAX} chars", "/rule"))
    audience = payload.get("audience")
    if audience is not None:
        if not isinstance(audience, list) or not audience or len(audience) > AUDIENCE_MAX:
            message = f"the audience is null (everyone) or 1 to {AUDIENCE_MAX} roles"
            out.append(Rejection("UMP-1", message, "/audience"))
        else:
            for i, role in enumerate(audience):
                if not isinstance(role, str) or not role or len(role) > 60:
                    out.append(Rejection("UMP-1", "a role is a name", f"/audience/{i}"))
                elif roles is not None and role not in (*roles, UMPIRE):
                    message = f"{role!r} is not a role of this game (roles: {', '.join(roles)})"
                    out.append(Rejection("UMP-1", message, f"/audience/{i}"))
    return out


class Umpired(Generic[S]):
    """`ruleset` with the umpire seat of the module's text; everything else is the ruleset's."""

    def __init__(self, inner: Ruleset[S]) -> None:
        self.inner = inner
        self.id = inner.id
        self.version = inner.version
        self.title = inner.title

    def __getattr__(self, name: str) -> object:  # the ruleset's optional hooks (report_text, ...)
        return getattr(self.inner, name)

    # --- what the umpire adds ---

    def _corrects(self) -> bool:
        kinds = getattr(self.inner, "umpire_kinds", None)
        return callable(kinds) and CORRECTION_KIND in kinds()

    def _umpire_refusal(self, state: S, action: Action) -> Rejection | None:
        """Why this action is not the umpire's to send, or the umpire's not a player's; None
        when it is the inner ruleset's to judge."""
        if action.kind in UMPIRE_KINDS and action.role != UMPIRE:
            return Rejection("UMP-2", f"only the umpire sends {action.kind}", "/kind")
        if action.role == UMPIRE and action.kind not in UMPIRE_KINDS:
            prompt = self.inner.prompts(state).get(UMPIRE)
            if prompt is None or action.kind not in prompt.kinds:
                message = f"the umpire sends no player's order ({action.kind})"
                return Rejection("UMP-4", message, "/kind")
        if action.kind == CORRECTION_KIND and not self._corrects():
            message = f"{self.inner.title} proposes no facts an umpire could correct"
            return Rejection("UMP-3", message, "/kind")
        return None

    # --- the protocol ---

    def scenarios(self) -> Sequence[str]:
        return self.inner.scenarios()

    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]:
        return self.inner.roles(scenario, options)

    def setup(self, config: GameConfig, rng: Rng) -> S:
        return self.inner.setup(config, rng)

    def prompts(self, state: S) -> Mapping[Role, Prompt]:
        return self.inner.prompts(state)

    def validate(self, state: S, action: Action) -> Sequence[Rejection]:
        refused = self._umpire_refusal(state, action)
        if refused is not None:
            return (refused,)
        if action.kind == RULING_KIND:
            return tuple(ruling_problems(action.payload))  # the audience's roles: the platform
        return self.inner.validate(state, action)

    def validate_owned(self, state: S, action: Action) -> Sequence[Rejection]:
        refused = self._umpire_refusal(state, action)
        if refused is not None or action.kind == RULING_KIND:
            return self.validate(state, action)
        owned = getattr(self.inner, "validate_owned", None)
        if callable(owned):
            rejections: Sequence[Rejection] = owned(state, action)
            return rejections
        return self.inner.validate(state, action)

    def apply(self, state: S, action: Action, rng: Rng) -> Step[S]:
        if action.kind != RULING_KIND:
            return self.inner.apply(state, action, rng)
        problems = self.validate(state, action)
        if problems:
            raise ValueError(f"not a valid ruling: {problems[0].message}")
        payload = action.payload
        assert isinstance(payload, dict)
        rule = str(payload.get("rule") or "")
        audience = payload.get("audience")
        names = [str(r) for r in audience] if isinstance(audience, list) else None
        readers = None if names is None else frozenset([UMPIRE, *names])
        text = f"Umpire's ruling{f' on {rule}' if rule else ''}: {payload['text']}"
        data: JSON = {"ruling": {"rule": rule, "text": str(payload["text"])}}
        return Step(state, (LogEntry(text, readers, data),), False)

    def view(self, state: S, role: Role) -> JSON:
        return self.inner.view(state, OMNISCIENT if role == UMPIRE else role)

    def result(self, state: S) -> Result | None:
        return self.inner.result(state)

    def dump(self, state: S) -> JSON:
        return self.inner.dump(state)

    def load(self, data: JSON) -> S:
        return self.inner.load(data)

    def parse_text(self, state: S, role: Role, text: str) -> Sequence[Action] | Rejection:
        return self.inner.parse_text(state, role, text)

    def random_action(self, state: S, role: Role, rng: Rng) -> Action | None:
        return self.inner.random_action(state, role, rng)

    def actions(self, state: S, role: Role) -> Sequence[ActionSpec]:
        found = list(self.inner.actions(state, role))
        if role == UMPIRE:
            found.append(ActionSpec(RULING_KIND, RULING_DESCRIPTION, RULING_SCHEMA, None, True))
        return found

    def payload_schemas(self) -> Mapping[str, JSON]:
        return {**self.inner.payload_schemas(), RULING_KIND: RULING_SCHEMA}

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        if kind == RULING_KIND:
            return ruling_problems(payload)
        if kind == CORRECTION_KIND and not self._corrects():
            return ()  # refused by validate with UMP-3, whoever sends it
        return self.inner.payload_errors(kind, payload)

    def private_kinds(self) -> frozenset[str]:
        return frozenset(self.inner.private_kinds()) | {RULING_KIND}

    def report_text(self, state: S, role: Role) -> str:
        report = getattr(self.inner, "report_text", None)
        if not callable(report):
            return ""
        text: str = report(state, OMNISCIENT if role == UMPIRE else role)
        return text
