"""Retreats (digest 3.12, CCN-82..95) and leader retreats with escape (3.13, CCN-96..100): the
flag allowance, every legal retreat path, and the leader's retreat options.

A retreat path is the list of hexes the unit enters, each one row closer to its baseline
(`board.home_neighbours`, CCN-84). AMB-8 default: any step-legal path; a hex it cannot make
costs 1 block only when no legal next step exists (CCN-86)."""

from __future__ import annotations

from collections.abc import Iterator

from games.commands_colors_napoleonics.board import Side
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState, Unit
from games.commands_colors_napoleonics.terrain import FIELD_WORKS
from games.commands_colors_napoleonics.world import (
    attached,
    ignore_flags,
    leader_at,
    scen,
    unit_at,
    unit_class,
)

MAX_PATHS = 400  # retreat choices listed at most (paths branch 2 ways a step)


def support(state: GameState, unit: Unit) -> bool:
    """CCN-92: two or more adjacent hexes with friendly units or lone friendly leaders."""
    n = 0
    for h in scen(state).board.grid.neighbours(unit.hex):
        u, ld = unit_at(state, h), leader_at(state, h)
        if (u is not None and u.side == unit.side) or (ld is not None and ld.side == unit.side):
            n += 1
    return n >= 2


def flag_allowance(state: GameState, unit: Unit, leader_ok: bool, across_works: bool) -> int:
    """Flags the unit may ignore (CCN-90..94): its leader (if it survived a check), support,
    field works across a protected side (infantry and artillery), its type."""
    n = ignore_flags(state, unit)
    if leader_ok and attached(state, unit) is not None:
        n += 1  # CCN-91
    if unit.in_square is None and support(state, unit):
        n += 1  # CCN-92: a square gives support but receives none
    if across_works:
        n += FIELD_WORKS.flag_ignore[unit_class(unit)]  # CCN-93, CCN-169
    return n


def _next_steps(state: GameState, unit: Unit, here: Hex, has_leader: bool) -> list[Hex]:
    s = scen(state)
    out = []
    for h in s.board.home_neighbours(here, Side(unit.side)):
        if not s.terrain_at(h).may_enter(unit_class(unit)):
            continue
        if unit_at(state, h) is not None:
            continue
        ld = leader_at(state, h)
        if ld is not None and (ld.side != unit.side or has_leader):  # CCN-84, AMB-7
            continue
        out.append(h)
    return out


def unit_paths(state: GameState, unit: Unit, steps: int) -> Iterator[list[Hex]]:
    """Every legal retreat of `steps` hexes: full paths, paths stopped by a lone friendly leader
    (CCN-85), and paths that end where no step is left (CCN-86)."""
    has_leader = attached(state, unit) is not None
    count = 0
    if unit.in_square is not None:  # CCN-130: a square cannot move; every hex is a block
        yield []
        return

    def walk(here: Hex, sofar: list[Hex]) -> Iterator[list[Hex]]:
        nonlocal count
        if len(sofar) == steps or (sofar and leader_at(state, here) is not None):
            count += 1
            yield sofar
            return
        nxt = _next_steps(state, unit, here, has_leader)
        if not nxt:
            count += 1
            yield sofar
            return
        for h in nxt:
            if count >= MAX_PATHS:
                return
            yield from walk(h, [*sofar, h])

    yield from walk(unit.hex, [])


def losses_of(state: GameState, unit: Unit, steps: int, path: list[Hex]) -> int:
    """Blocks lost for the hexes the retreat could not make (CCN-86); none when a leader
    stopped it (CCN-85)."""
    if path and leader_at(state, path[-1]) is not None:
        return 0
    return steps - len(path)


# --- leaders (CCN-96..100) ------------------------------------------------------------------


def leader_options(state: GameState, lid: str) -> list[tuple[list[Hex], bool]]:
    """Every retreat of 1-3 hexes of a leader towards its side: (path, off the baseline). A
    path may enter enemy-unit hexes (escape, CCN-100) but not end there, nor in a hex with
    another friendly leader, nor pass an enemy leader (AMB-11); the third hex may not be enemy
    held unless the owner accepts the elimination (not offered)."""
    ld = state.leaders[lid]
    s = scen(state)
    side = Side(ld.side)
    out: list[tuple[list[Hex], bool]] = []

    def ok_end(h: Hex) -> bool:
        u, other = unit_at(state, h), leader_at(state, h)
        return (u is None or u.side == ld.side) and (other is None or other.id == lid)

    def walk(here: Hex, sofar: list[Hex]) -> None:
        if sofar and ok_end(here):
            out.append((list(sofar), False))
        if s.board.baselines[side] == here.row and ok_end(here):
            out.append((list(sofar), True))  # CCN-96: off its own baseline, withdrawn
        if len(sofar) == 3:
            return
        for h in s.board.home_neighbours(here, side):
            if not s.terrain_at(h).may_enter(None):
                continue
            other = leader_at(state, h)
            if other is not None and other.side != ld.side:
                continue
            u = unit_at(state, h)
            if u is not None and u.side != ld.side and len(sofar) == 2:
                continue  # a third enemy hex eliminates the leader (CCN-100): not offered
            walk(h, [*sofar, h])

    walk(ld.hex, [])
    return out
