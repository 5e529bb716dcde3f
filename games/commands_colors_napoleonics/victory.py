"""Banners and victory (digest 3.24, CCN-207..209): banners for eliminated units and leaders,
the scenario's objective banners, and the end of the game the moment a side reaches its
target."""

from __future__ import annotations

from games.commands_colors_napoleonics.board import Side
from games.commands_colors_napoleonics.scenario_model import Objective
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.world import scen, unit_at, unit_class
from games.core.i18n import T

START_TURN = ("start_turn_temporary", "start_turn_temporary_majority", "start_turn_permanent")
KEEP = ("permanent", "start_turn_permanent")
CONTINUOUS = ("temporary", "clear_section")  # held exactly while the condition holds (PUB-9)


class GameOver(Exception):
    """A side reached its banners (CCN-207): the state machine stops at once."""


def _holding(state: GameState, o: Objective) -> int:
    """Banners `o` gives its side now: the hexes it holds with a unit (of the listed classes);
    for `clear_section` its banners while no enemy unit stands in the section (8.2, PUB-9), the
    section as `for_side` names it (like a section card, CCN-14; a dual hex is in both)."""
    if o.kind == "clear_section":
        assert o.section is not None  # checked at load time (8.2)
        board = scen(state).board
        for enemy in state.units.values():
            side = enemy.side
            if side != o.for_side.value and o.section in board.sections_of(enemy.hex, o.for_side):
                return 0
        return o.banners
    held = 0
    for h in o.hexes:
        u = unit_at(state, h)
        if (
            u is not None
            and u.side == o.for_side.value
            and (not o.unit_classes or unit_class(u) in o.unit_classes)
        ):
            held += 1
    if o.kind.endswith("majority") or o.count_mode == "majority":
        return o.banners if held * 2 > len(o.hexes) else 0
    if o.count_mode == "each":
        return o.banners * held
    return o.banners if held else 0


def total(state: GameState, side: str) -> int:
    return state.banners[side] + sum(
        state.held.get(o.id, 0) for o in scen(state).objectives if o.for_side.value == side
    )


def check(state: GameState) -> None:
    """CCN-207: a side with its target wins at once."""
    s = scen(state)
    for side in (state.active, "bottom" if state.active == "top" else "top"):
        if total(state, side) >= s.sides[Side(side)].victory_banners:
            state.phase = "over"
            state.pending = None
            state.combat = None
            army = s.sides[Side(side)].army
            state.result = {
                "winner": side,
                "summary": T("{army} reach {n} banners and win.", army=army, n=total(state, side)),
            }
            raise GameOver


def gain(state: GameState, side: str, n: int = 1) -> None:
    """A banner for an eliminated unit or leader (CCN-73, CCN-80), checked at once."""
    state.banners[side] += n
    check(state)


def refresh(state: GameState, *, check_now: bool = True) -> None:
    """Temporary objective banners go as soon as the condition fails; `temporary` and
    `clear_section` ones come as soon as it holds, permanent ones stay once gained (CCN-208,
    PUB-9). Then victory (CCN-207), unless the caller checks it itself."""
    for o in scen(state).objectives:
        now = _holding(state, o)
        if o.kind in CONTINUOUS:
            state.held[o.id] = now
        elif o.kind == "permanent" and now:
            state.held[o.id] = max(state.held.get(o.id, 0), now)
        elif o.kind in ("start_turn_temporary", "start_turn_temporary_majority"):
            state.held[o.id] = min(state.held.get(o.id, 0), now)
    if check_now:
        check(state)


def start_of_turn(state: GameState) -> None:
    """Start-of-turn objectives of the side whose turn begins (CCN-208), then victory."""
    for o in scen(state).objectives:
        if o.for_side.value != state.active or o.kind not in START_TURN:
            continue
        now = _holding(state, o)
        if o.kind in KEEP:
            state.held[o.id] = max(state.held.get(o.id, 0), now)
        else:
            state.held[o.id] = now
    refresh(state)
