"""Helpers for the Valour & Fortitude turn tests: scripted dice, the starter match, a resolution
context whose facts are given, and playing a match with the automatic umpire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.valour_fortitude import match as m
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.state import GameState, Unit


class ScriptedDice(Rng):
    """An Rng whose D6 are given in order (digest 6: `dice => [..]`); anything else it is asked
    is the seeded generator's."""

    def __init__(self, faces: Sequence[int], seed: int = 7) -> None:
        super().__init__(seed)
        self.faces = list(faces)

    def d6(self) -> int:
        assert self.faces, "the test scripted fewer dice than the engine rolled"
        return self.faces.pop(0)


def starter(**options: JSON) -> m.Match:
    return RULESET.setup(GameConfig("starter", dict(options)), Rng(11))


def game() -> GameState:
    return starter().game


def ctx(
    state: GameState,
    dice: Sequence[int] = (),
    facts: Mapping[str, JSON] | None = None,
    auto: bool = False,
) -> Ctx:
    flow: dict[str, JSON] = {
        "auto_geometry": auto,
        "facts": dict(facts or {}),
        "stage": "resolving",
    }
    return Ctx(state, flow, ScriptedDice(dice))


def set_unit(state: GameState, unit_id: str, **changes: object) -> GameState:
    return m.with_unit(state, replace(state.unit(unit_id), **changes))  # type: ignore[arg-type]


def unit(state: GameState, unit_id: str) -> Unit:
    return state.unit(unit_id)


def play_to_end(match: m.Match, chooser: int, limit: int = 4000) -> tuple[m.Match, list[Action]]:
    """Random play (the automatic umpire confirms) until nobody is prompted."""
    rng = Rng(chooser)
    log: list[Action] = []
    for i in range(limit):
        prompts = RULESET.prompts(match)
        if not prompts:
            return match, log
        role = sorted(prompts)[rng.below(len(prompts))]
        action = RULESET.random_action(match, role, rng)
        assert action is not None
        assert not RULESET.validate(match, action), RULESET.validate(match, action)
        match = RULESET.apply(match, action, Rng.for_event(b"vf-test", i)).state
        log.append(action)
    raise AssertionError("no result")


# The facts of the starter's fight U-A2 against U-B2, all proposals accepted: both see each
# other, no cover, no hill, no rough ground, no Napoleon or Wellington near, and no brigade
# supporter within 3 in (U-A1 and U-A3 stand 2.56 in away: a test that wants them sets True).
FIGHT_FACTS: dict[str, JSON] = {
    "a_sees": True,
    "t_sees": True,
    "cover:a": "none",
    "cover:t": "none",
    "hill:a": False,
    "hill:t": False,
    "rough:U-A2": False,
    "rough:U-B2": False,
    "napoleon:U-A2": False,
    "wellington:U-B2": False,
    "brigade:U-A1": False,
    "brigade:U-A3": False,
}
