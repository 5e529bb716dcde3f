"""The dice of the action being applied: every roll comes from the Rng handed to `apply` (or
from `ScriptedDice` in tests) through `dice_from`, and is logged in `state.last_roll` (public:
dice results are seen by both players, 2.12)."""

from __future__ import annotations

from games.commands_colors_napoleonics.dice import DiceSource, Face, RngDice, faces_to_json
from games.commands_colors_napoleonics.state import GameState
from games.core.protocol import JSON
from games.core.rng import Rng

_DICE: list[tuple[DiceSource, Rng]] = []  # the action's dice and Rng (rules.py sets them)


class dice_from:
    """`with dice_from(rng, dice):` every roll of the action comes from `dice` (default: an
    `RngDice` over the event's Rng; `ScriptedDice` in tests), shuffles and draws from `rng`."""

    def __init__(self, rng: Rng, dice: DiceSource | None = None) -> None:
        self.pair = (RngDice(rng) if dice is None else dice, rng)

    def __enter__(self) -> DiceSource:
        _DICE.append(self.pair)
        return self.pair[0]

    def __exit__(self, *exc: object) -> None:
        _DICE.pop()


def current_rng() -> Rng:
    return _DICE[-1][1]


def roll_for(state: GameState, who: str, purpose: str, n: int) -> tuple[Face, ...]:
    faces = _DICE[-1][0].roll(n) if n > 0 else ()
    _log_roll(state, who, purpose, faces)
    return faces


def _log_roll(state: GameState, who: str, purpose: str, faces: tuple[Face, ...]) -> None:
    state.last_roll.append(
        {"by": who, "purpose": purpose, "faces": list[JSON](faces_to_json(faces))}
    )
