"""Questions about pieces: who stands where, corps membership, capacity (NT-10, NT-13)."""

from __future__ import annotations

from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import MAP, Commander, GameState, Unit

INFANTRY = ("INF", "GUARD")  # Guard is infantry unless a rule says otherwise (NT-121)


def is_infantry(u: Unit) -> bool:
    return u.type in INFANTRY


def is_heavy_cav(u: Unit) -> bool:
    return u.type == "CAV" and u.strength == 3  # NT-119


def elite_kind(u: Unit) -> str | None:
    if is_heavy_cav(u):
        return "heavy_cav"
    if u.type == "GUARD":
        return "guard"
    return None


def units_on_map(state: GameState, side: str | None = None) -> list[Unit]:
    return [u for u in state.units.values() if u.where == MAP and (side is None or u.side == side)]


def units_in(state: GameState, loc: int, side: str | None = None) -> list[Unit]:
    return [u for u in units_on_map(state, side) if u.loc == loc]


def units_at(state: GameState, loc: int, app: str | None, side: str | None = None) -> list[Unit]:
    return [u for u in units_in(state, loc, side) if u.app == app]


def commanders_in(state: GameState, loc: int, side: str | None = None) -> list[Commander]:
    return [
        c
        for c in state.commanders.values()
        if c.where == MAP and c.loc == loc and (side is None or c.side == side)
    ]


def occupant(state: GameState, loc: int) -> str | None:
    """The side holding a locale (INV-4: never both)."""
    for u in state.units.values():
        if u.where == MAP and u.loc == loc:
            return u.side
    for c in state.commanders.values():
        if c.where == MAP and c.loc == loc:
            return c.side
    return None


def corps_units(state: GameState, commander: str) -> list[Unit]:
    return [u for u in state.units.values() if u.corps == commander and u.where != "dead"]


def enemy_corps_adjacent(board: Board, state: GameState, loc: int, side: str) -> bool:
    """Adjacent (also across an impassable approach, NT-14) to an enemy corps of 2+ units?"""
    enemy = "AL" if side == "F" else "F"
    for n in board.neighbours(loc):
        for c in commanders_in(state, n, enemy):
            if len([u for u in corps_units(state, c.id) if u.where == MAP]) >= 2:
                return True
    return False


def sync_commander(state: GameState, cmd: Commander) -> None:
    """A commander stands with his units (NT-33); with none left he is eliminated (NT-32)."""
    units = corps_units(state, cmd.id)
    on_map = [u for u in units if u.where == MAP]
    if not units:
        cmd.where, cmd.loc, cmd.app = "dead", None, None
    elif on_map and cmd.where == MAP:
        cmd.loc, cmd.app = on_map[0].loc, on_map[0].app
