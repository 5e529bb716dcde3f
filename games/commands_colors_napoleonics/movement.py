"""Phase 3: movement (CCN-23..40, terrain 3.20): one ordered unit or leader at a time, along a
path of adjacent hexes; terrain stops, impassable terrain, no moving through units, leaders
attaching and detaching; and the example scenario's exit (objective kind `exit`, SR-1)."""

from __future__ import annotations

from collections.abc import Iterator

from games.commands_colors_napoleonics.hexes import Hex, distance, side_towards
from games.commands_colors_napoleonics.illegal import Illegal, require
from games.commands_colors_napoleonics.orders import allowance
from games.commands_colors_napoleonics.scenario_model import Objective
from games.commands_colors_napoleonics.state import GameState, Leader, Unit
from games.commands_colors_napoleonics.terrain import BattleOnEntry
from games.commands_colors_napoleonics.units import UNIT_TYPES
from games.commands_colors_napoleonics.victory import gain, refresh
from games.commands_colors_napoleonics.world import attached, leader_at, scen, unit_at, unit_class
from games.core.i18n import T


def _step_problem(state: GameState, mover: Unit | Leader, frm: Hex, to: Hex) -> str | None:
    """Why `mover` may not enter `to` from `frm` (a rule id), or None."""
    s = scen(state)
    if not s.board.contains(to):
        return "CCN-28"
    if distance(frm, to) != 1:
        return "CCN-39"
    cls = unit_class(mover) if isinstance(mover, Unit) else None
    if not s.terrain_at(to).may_enter(cls):
        return "CCN-29"
    u, ld = unit_at(state, to), leader_at(state, to)
    if isinstance(mover, Unit):
        if u is not None:
            return "CCN-25"
        if ld is not None and ld.side != mover.side:
            return "CCN-25"
    else:
        if (u is not None and u.side != mover.side) or (ld is not None and ld.side != mover.side):
            return "CCN-36"
    return None


def _stops(state: GameState, frm: Hex, to: Hex) -> bool:
    return scen(state).terrain_at(to).stops_on_entry(side_towards(to, frm))  # CCN-30


def check_path(state: GameState, pid: str, path: list[Hex]) -> None:
    """Every step legal (CCN-25..39); raises Illegal naming the rule."""
    mover: Unit | Leader = state.units[pid] if pid in state.units else state.leaders[pid]
    own_leader = attached(state, mover) if isinstance(mover, Unit) else None
    if own_leader is not None and own_leader.id in state.turn.orders:
        own_leader = None  # CCN-18: a leader with its own order stays behind
    require(
        len(path) <= allowance(state, pid),
        "CCN-31",
        T("{id} may move {n} hexes at most", id=pid, n=allowance(state, pid)),
        "/path",
    )
    here = mover.hex
    for i, to in enumerate(path):
        problem = _step_problem(state, mover, here, to)
        if problem is not None:
            raise Illegal(problem, T("{id} cannot enter {hex}", id=pid, hex=str(to)), f"/path/{i}")
        last = i == len(path) - 1
        if not last:
            require(
                not _stops(state, here, to),
                "CCN-30",
                T("{id} must stop on entering {hex}", id=pid, hex=str(to)),
                f"/path/{i}",
            )
        ld = leader_at(state, to)
        if isinstance(mover, Unit) and ld is not None:  # a lone friendly leader (CCN-26)
            require(last, "CCN-26", T("a unit stops where it joins a leader"), f"/path/{i}")
            require(
                own_leader is None, "CCN-35", T("two leaders may not share a hex"), f"/path/{i}"
            )
        here = to
    if isinstance(mover, Leader) and path:
        end = path[-1]
        other = leader_at(state, end)
        require(
            other is None, "CCN-35", T("a leader may not end its move with another leader"), "/path"
        )
    require(
        len(set(path)) == len(path) and mover.hex not in path,
        "CCN-39",
        T("a path does not come back on itself"),
        "/path",
    )


def move(state: GameState, side: str, pid: str, path: list[Hex], exit_: bool = False) -> None:
    require(state.phase == "move", "CCN-23", T("moves are made in phase 3"))
    require(pid in state.turn.orders, "CCN-12", T("{id} has no order", id=pid[:40]), "/piece")
    require(pid not in state.turn.done, "CCN-24", T("{id} has moved already", id=pid), "/piece")
    require(
        pid not in state.turn.joined,
        "CCN-37",
        T("a leader joined {id} this turn: it moves no further", id=pid),
        "/piece",
    )
    check_path(state, pid, path)
    if exit_:
        _exit(state, side, pid, path)
        return
    state.turn.done.append(pid)
    state.turn.moved[pid] = len(path)
    if not path:
        return
    if pid in state.leaders:
        mover = state.leaders[pid]
        mover.hex = path[-1]
        host = unit_at(state, mover.hex)
        if host is not None and host.side == mover.side:
            state.turn.joined.append(host.id)  # CCN-34, CCN-37
        return
    u = state.units[pid]
    ld = attached(state, u)
    start = u.hex
    u.hex = path[-1]
    if ld is not None and ld.hex == start and ld.id not in state.turn.orders:
        ld.hex = u.hex  # CCN-16: the attached leader goes with it
    _entered(state, u, path[-1])
    refresh(state)  # a temporary objective banner goes at once (CCN-208)


def _entered(state: GameState, u: Unit, h: Hex) -> None:
    """No battle this turn after entering a forest (not light infantry) or a building
    (CCN-152, CCN-163)."""
    rule = scen(state).terrain_at(h).kind.battle_on_entry
    light = UNIT_TYPES[u.type].light_infantry
    stops = rule is BattleOnEntry.NONE or (rule is BattleOnEntry.LIGHT_INFANTRY_ONLY and not light)
    if stops and u.id not in state.turn.no_battle:
        state.turn.no_battle.append(u.id)


def exit_objective(state: GameState, u: Unit) -> Objective | None:
    for o in scen(state).objectives:
        if (
            o.kind == "exit"
            and o.for_side.value == u.side
            and (not o.unit_classes or unit_class(u) in o.unit_classes)
        ):
            return o
    return None


def exit_check(state: GameState, pid: str, path: list[Hex]) -> Objective:
    """SR-1 of the example (objective kind `exit`): a unit of the listed classes on a listed
    hex leaves the board as 1 hex of its move."""
    require(pid in state.units, "CCN-28", T("only units exit"), "/piece")
    u = state.units[pid]
    o = exit_objective(state, u)
    require(o is not None, "CCN-28", T("nothing may leave the board here"), "/exit")
    assert o is not None
    end = path[-1] if path else u.hex
    require(end in o.hexes, "CCN-28", T("{hex} is not an exit hex", hex=str(end)), "/path")
    require(
        len(path) + 1 <= allowance(state, pid),
        "CCN-31",
        T("leaving the board costs 1 hex"),
        "/path",
    )
    if path:
        frm = path[-2] if len(path) > 1 else u.hex
        require(
            not _stops(state, frm, end),
            "CCN-30",
            T("{id} must stop on entering {hex}", id=pid, hex=str(end)),
            "/path",
        )
    return o


def _exit(state: GameState, side: str, pid: str, path: list[Hex]) -> None:
    """The unit leaves and gains its side the objective's banners; it is removed, no banner to
    the opponent. An attached leader leaves with it (withdrawn, no banner)."""
    o = exit_check(state, pid, path)
    u = state.units[pid]
    ld = attached(state, u)
    del state.units[pid]
    state.gone.append(pid)
    if ld is not None and ld.id not in state.turn.orders:
        del state.leaders[ld.id]
        state.gone.append(ld.id)
    state.turn.done.append(pid)
    gain(state, side, o.banners)


def paths(state: GameState, pid: str) -> Iterator[list[Hex]]:
    """Every legal path of an ordered piece (the empty one first)."""
    limit = allowance(state, pid)
    mover: Unit | Leader = state.units[pid] if pid in state.units else state.leaders[pid]
    seen: set[tuple[Hex, ...]] = set()

    own_leader = attached(state, mover) if isinstance(mover, Unit) else None
    if own_leader is not None and own_leader.id in state.turn.orders:
        own_leader = None  # CCN-18

    def walk(here: Hex, sofar: list[Hex]) -> Iterator[list[Hex]]:
        key = tuple(sofar)
        if key in seen:
            return
        seen.add(key)
        if not (isinstance(mover, Leader) and sofar and leader_at(state, here) is not None):
            yield list(sofar)  # CCN-35: a leader does not end with another leader
        if len(sofar) >= limit or (
            sofar and _stops(state, sofar[-2] if len(sofar) > 1 else mover.hex, here)
        ):
            return
        if sofar and isinstance(mover, Unit) and leader_at(state, here) is not None:
            return
        for to in scen(state).board.grid.neighbours(here):
            if to in sofar or to == mover.hex:
                continue
            if _step_problem(state, mover, here, to) is not None:
                continue
            if own_leader is not None and leader_at(state, to) is not None:
                continue  # CCN-35: its leader would meet another
            yield from walk(to, [*sofar, to])

    yield from walk(mover.hex, [])
