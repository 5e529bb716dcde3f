"""The test oracle of the browser game: Napoleon's Triumph's engine, run on the state read from
the database, says which seat is prompted and chooses an order it can write as text (as
tests/integration/email_player.py does for the player by mail). The players type that text; the
pages never learn anything from here.

`Steering` aims the random play at what the test must see: an attack with the defender's
decisions. Until an attack was declared it takes, when they are legal, a threat, then a
defence, then no feint, then the attack itself; after it, any order with a text form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.protocol import Action
from games.core.rng import Rng
from games.napoleons_triumph.state import GameState
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.support.nt_text import action_text

ATTACK_PATH = ("threaten", "defend", "no_feint", "declare_attack")
DEFENDER_KINDS = frozenset({"defend", "vacate", "counter", "hold", "feint_hold", "retreat_plan"})
SAMPLES = 60  # random orders drawn per choice


def head_state(game_id: str) -> tuple[Game, GameState]:
    game = Game.objects.get(pk=game_id)
    state = state_at(game, game.head_seq, verify=False)
    assert isinstance(state, GameState)
    return game, state


def prompted(game_id: str) -> list[str]:
    """The roles the engine prompts at the head, sorted."""
    game, state = head_state(game_id)
    return sorted(ruleset_get(game.ruleset_id).prompts(state))


@dataclass(frozen=True, slots=True)
class Order:
    role: str
    kind: str
    text: str


@dataclass
class Steering:
    """Chooses each order (see the module's docstring) and remembers what was played."""

    game_id: str
    rng: Rng
    played: list[Order] = field(default_factory=list)

    @property
    def attacked(self) -> bool:
        return any(o.kind == "declare_attack" for o in self.played)

    def _candidates(self, state: GameState, role: str) -> dict[str, Action]:
        ruleset = ruleset_get("napoleons_triumph")
        found: dict[str, Action] = {}
        for _ in range(SAMPLES):
            action = ruleset.random_action(state, role, self.rng)
            if action is not None and action_text(state, role, action) is not None:
                found.setdefault(action.kind, action)
        no_feint = Action(role, "no_feint", None)
        prompt = ruleset.prompts(state).get(role)
        offered = prompt is not None and "no_feint" in prompt.kinds
        if offered and not ruleset.validate(state, no_feint):  # random play never declines
            found["no_feint"] = no_feint
        return found

    def choose(self, role: str) -> Order:
        _game, state = head_state(self.game_id)
        found = self._candidates(state, role)
        assert found, f"no order of {role} has a text form"
        wanted = [] if self.attacked else [k for k in ATTACK_PATH if k in found]
        action = found[wanted[0]] if wanted else next(iter(found.values()))
        text = action_text(state, role, action)
        assert text is not None
        return Order(role, action.kind, text)

    def record(self, order: Order) -> None:
        self.played.append(order)


def broken_setup(game_id: str, role: str, text: str) -> tuple[str, set[str]]:
    """The set-up `text` without its first corps line, and the rule ids the engine refuses it
    with (a commander left without a corps)."""
    game, state = head_state(game_id)
    ruleset = ruleset_get(game.ruleset_id)
    broken = "\n".join(text.splitlines()[1:])
    parsed = ruleset.parse_text(state, role, broken)
    assert isinstance(parsed, list | tuple), parsed
    rules = {r.rule for action in parsed for r in ruleset.validate(state, action)}
    assert rules, "the broken set-up was accepted by the engine"
    return broken, rules
