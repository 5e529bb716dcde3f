"""What the tests of the C&C Ruleset share: the example scenario, actions with plain payloads,
the view, the combat and the last roll of a state, pieces put on hexes, and an action applied
with scripted dice (every die used)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.dice import ScriptedDice
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.core.protocol import Action, GameConfig
from games.core.rng import Rng

EXAMPLE = "example-ford-of-santa-clara"


def act_of(role: str, kind: str, payload: Any = None) -> Action:
    """An action with any payload (the tests write payloads as plain dicts)."""
    return Action(role, kind, payload)


def view_of(state: GameState, role: str) -> Any:
    return R.view(state, role)


def combat_of(state: GameState) -> Any:
    return state.combat


def rolls(state: GameState) -> Any:
    return state.last_roll


def put(state: GameState, pid: str, row: int, col: int, blocks: int | None = None) -> None:
    """Move a unit or leader to (row, col), a unit with `blocks` blocks when given."""
    if pid in state.units:
        state.units[pid].hex = Hex(row, col)
        if blocks is not None:
            state.units[pid].blocks = blocks
    else:
        state.leaders[pid].hex = Hex(row, col)


def act(
    state: GameState, role: str, kind: str, payload: Any, dice: Iterable[str] = ()
) -> GameState:
    """Apply a legal action with the scripted dice, every one of them used."""
    action = act_of(role, kind, payload)
    assert not R.validate(state, action), R.validate(state, action)
    script = ScriptedDice(dice)
    new = R.apply_with(state, action, Rng(1), script).state
    assert script.left == 0, "every scripted die is used"
    return new


def fresh(active: str = "top", answer: bool = False) -> GameState:
    """The example set up; unless `answer`, both sides answer every melee with "none" (the
    standing choice of 4.4), so the tests go straight to the roll."""
    state = R.setup(GameConfig(EXAMPLE, {}), Rng(5))
    state.active = active
    if not answer:
        state.policies = {side: {"melee_response": "none"} for side in ("top", "bottom")}
    return state


def only(state: GameState, keep: Iterable[str]) -> GameState:
    """Take every other piece off the board (as if eliminated earlier)."""
    keep = set(keep)
    for uid in [u for u in state.units if u not in keep]:
        del state.units[uid]
        state.gone.append(uid)
    for lid in [ld for ld in state.leaders if ld not in keep]:
        del state.leaders[lid]
        state.gone.append(lid)
    return state
