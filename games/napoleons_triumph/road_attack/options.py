"""The road attacks a side could make now, for the threat (step (1): a threat must be backed by a
legal attack, AMB-17) and for the lists of legal choices: the roads along which its cavalry could
reach an enemy locale (NT-68, NT-145), each checked as the announcement would check it (NT-51..
NT-55, NT-101, NT-141), on the side's own knowledge only.
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.napoleons_triumph.board import Entry, RoadStep
from games.napoleons_triumph.commands import MovePlan, plan_move
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.movement import (
    LOCAL_ROAD_REACH,
    MAIN_ROAD_REACH,
    entry_barred,
    pieces_of,
    road_move,
)
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import enemy_corps_adjacent, occupant, units_at
from games.napoleons_triumph.reinforcements import entering_plan
from games.napoleons_triumph.road_attack.declaration import check_road, declare
from games.napoleons_triumph.road_attack.ride import ride_group, start_nodes
from games.napoleons_triumph.state import MAP, OFFMAP, Attack, clone, other


def road_attacks(
    ctx: Ctx, side: str, att_loc: int, app: str, enter: bool = False
) -> list[dict[str, JSON]]:
    """The road-attack commands the side could announce across `app` from `att_loc` now, each a
    command spec with `"road": true` and its `path` (NT-68): cavalry whose road crosses the
    approach within the road distance, able to march it now (NT-51..NT-55) and to fit into the
    defense locale; with `enter`, only if they may enter it this turn (NT-54, NT-101), as after a
    vacate. Computed from the side's own knowledge only."""
    def_loc = ctx.board.other_locale(app, att_loc)
    probe = Attack(0, side, att_loc, def_loc, app, "")
    ride = ride_group(ctx)
    out: list[dict[str, JSON]] = []
    for r in road_threats(ctx, side, target=def_loc):
        if r["attack_locale"] != att_loc or r["approach"] != app or "entry" in r:
            continue
        src, raw_path = r["road_from"], r["road_path"]
        assert isinstance(src, int)
        assert isinstance(raw_path, list)
        path = [int(str(x)) for x in raw_path]
        continuing = ride is not None and ride.loc == src
        try:
            check_road(ctx, side, probe, src, path, "")
        except Illegal:
            continue
        for spec in road_options(ctx, side, src, att_loc, continuing, path, def_loc):
            if enter and _kept_out(ctx, side, def_loc, spec, ride if continuing else None):
                continue
            full: dict[str, JSON] = {**spec, "path": jlist(path)}
            if full not in out:
                out.append(full)
    for entry, path, step in _entry_roads(ctx, side, target=def_loc):
        if path[-1] != att_loc or step.approach != app:
            continue
        for spec in _entering_specs(ctx, side):
            full = {**spec, "entry": entry.id, "path": jlist(path)}
            if full not in out and _can_enter_attacking(ctx, probe, full, enter):
                out.append(full)
    return out


def _entering_specs(ctx: Ctx, side: str) -> list[dict[str, JSON]]:
    """Commands that could bring cavalry reinforcements on by road attack (NT-145, NT-61): a Unit
    Move of an off-map cavalry unit, a Corps Move of an off-map corps of cavalry only."""
    state = ctx.state
    out: list[dict[str, JSON]] = []
    waiting = [u for u in state.units.values() if u.side == side and u.where == OFFMAP]
    for u in sorted(waiting, key=lambda x: x.id):
        if u.type == "CAV":
            out.append({"kind": "unit_move", "unit": u.id, "road": True})
    for c in sorted(state.commanders.values(), key=lambda c: c.id):
        corps = [u for u in waiting if u.corps == c.id]
        if c.side == side and c.where == OFFMAP and corps and all(u.type == "CAV" for u in corps):
            out.append({"kind": "corps_move", "commander": c.id, "detach": [], "road": True})
    return out


def _can_enter_attacking(ctx: Ctx, probe: Attack, spec: dict[str, JSON], enter: bool) -> bool:
    """Whether this entering road attack could be declared now (a feint, or with `enter` after a
    vacate), tried on a copy of the state."""
    trial = Ctx(ctx.board, clone(ctx.state))
    atk = Attack(0, probe.attacker, probe.att_locale, probe.def_locale, probe.approach, "")
    try:
        plan, _ = entering_plan(ctx, probe.attacker, str(spec["kind"]), spec)
        declare(trial, atk, {"commands": [spec], "end": "reserve"}, feint=True)
    except Illegal:
        return False
    return not enter or (
        len(plan.units) <= ctx.board.locales[probe.def_locale].capacity
        and entry_barred(ctx.state, probe.def_locale, pieces_of(plan)) is None
    )


def _entry_roads(
    ctx: Ctx, side: str, target: int | None = None
) -> list[tuple[Entry, list[int], RoadStep]]:
    """Roads from the side's free entry areas, while cavalry of its wait off the map (NT-145):
    each (entry, path from the entry locale to the attack locale, the step across the approach
    into an enemy locale, or into `target`), within the road distance (AMB-15)."""
    state, board = ctx.state, ctx.board
    enemy = other(side)
    if not any(
        u.side == side and u.where == OFFMAP and u.type == "CAV" for u in state.units.values()
    ):
        return []
    out: list[tuple[Entry, list[int], RoadStep]] = []
    for e in board.entries:
        if e.side != side or occupant(state, e.locale) == enemy:
            continue
        stack = [((e.locale, e.strand), [e.locale], e.road_class == "main")]
        while stack:
            node, path, main_only = stack.pop()
            for step in board.road_steps(*node):
                only = main_only and step.road_class == "main"
                if len(path) + 1 > (MAIN_ROAD_REACH if only else LOCAL_ROAD_REACH):
                    continue
                holder = occupant(state, step.to_locale)
                if step.to_locale == target or (target is None and holder == enemy):
                    out.append((e, path, step))
                elif holder != enemy and step.to_locale not in path:
                    stack.append(((step.to_locale, step.to_strand), [*path, step.to_locale], only))
    return out


def _kept_out(
    ctx: Ctx, side: str, def_loc: int, spec: dict[str, JSON], ride: MovePlan | None
) -> bool:
    """May these pieces not enter `def_loc` this turn (NT-54(b) but for the corps that locked it,
    L287; NT-101)?"""
    try:
        plan = ride if ride is not None else plan_move(ctx, side, str(spec["kind"]), spec)
    except Illegal:
        return True
    return entry_barred(ctx.state, def_loc, pieces_of(plan)) is not None


def road_options(
    ctx: Ctx,
    side: str,
    road_from: int,
    att_loc: int,
    continuing: bool,
    path: list[int],
    def_loc: int,
) -> list[dict[str, JSON]]:
    """Commands that could make this road attack (cavalry only, NT-68; NT-141), cheapest first:
    each must be able to march along `path` now (NT-51..NT-55) and fit into `def_loc`."""
    return [
        spec
        for spec in _candidates(ctx, side, road_from, att_loc, continuing)
        if _can_march(ctx, side, spec, continuing, road_from, path, def_loc)
    ]


def _can_march(
    ctx: Ctx,
    side: str,
    spec: dict[str, JSON],
    continuing: bool,
    road_from: int,
    path: list[int],
    def_loc: int,
) -> bool:
    trial = Ctx(ctx.board, clone(ctx.state))
    try:
        ride = ride_group(trial)
        plan = (
            ride
            if continuing and ride is not None
            else plan_move(trial, side, str(spec["kind"]), spec)
        )
        if len(plan.units) > ctx.board.locales[def_loc].capacity:
            return False
        if path:
            starts, before, main = start_nodes(trial, road_from)
            road_move(
                trial,
                plan,
                path,
                None,
                "",
                start=starts[0] if continuing else None,
                before=before,
                main_before=main,
            )
    except Illegal:
        return False
    return True


def _candidates(
    ctx: Ctx, side: str, road_from: int, att_loc: int, continuing: bool
) -> list[dict[str, JSON]]:
    state = ctx.state
    ride = ride_group(ctx)
    if continuing and ride is not None:
        if ride.kind == "unit_move":
            return [{"kind": "unit_move", "unit": ride.units[0], "road": True}]
        return [{"kind": ride.kind, "commander": ride.commander, "road": True}]
    out: list[dict[str, JSON]] = []
    for u in sorted(units_at(state, road_from, None, side), key=lambda u: u.id):
        spec: dict[str, JSON] = {"kind": "unit_move", "unit": u.id, "road": True}
        if u.type == "CAV" and _ok(ctx, side, spec):
            out.append(spec)
    for c in sorted(state.commanders.values(), key=lambda c: c.id):
        if c.side != side or c.where != MAP or (c.loc, c.app) != (road_from, None):
            continue
        members = [u for u in state.units.values() if u.corps == c.id and u.where == MAP]
        stay = [u.id for u in members if u.type != "CAV" or u.fixed or u.moves > 0]
        movers = [u for u in members if u.id not in stay]
        halts = (
            len(movers) >= 2
            and road_from != att_loc
            and enemy_corps_adjacent(ctx.board, state, att_loc, side)
        )
        spec = {"kind": "corps_move", "commander": c.id, "detach": jlist(stay), "road": True}
        if movers and not halts and _ok(ctx, side, spec):
            out.append(spec)
    return out


def _ok(ctx: Ctx, side: str, spec: dict[str, JSON]) -> bool:
    try:
        plan_move(ctx, side, str(spec["kind"]), spec)
    except Illegal:
        return False
    return True


def road_threats(ctx: Ctx, side: str, target: int | None = None) -> list[dict[str, JSON]]:
    """The roads along which the side's cavalry could reach an enemy locale now (or the locale
    `target`, held or not, as the defense locale after a vacate): each {attack_locale, approach,
    road_from, road_path} (candidates; `road_attacks` checks them)."""
    state, board = ctx.state, ctx.board
    enemy = other(side)
    out: list[dict[str, JSON]] = []
    ride = ride_group(ctx)
    sources = sorted(
        {
            u.loc
            for u in state.units.values()
            if u.side == side
            and u.where == MAP
            and u.app is None
            and u.type == "CAV"
            and u.loc is not None
        }
    )
    if ride is not None and ride.loc is not None and ride.loc not in sources:
        sources.append(ride.loc)
    for src in sources:
        starts, before, main = start_nodes(ctx, src)
        stack: list[tuple[tuple[int, int], list[int], bool]] = [(n, [], main) for n in starts]
        while stack:
            node, path, main_only = stack.pop()
            for step in board.road_steps(*node):
                entered = before + len(path) + 1
                only = main_only and step.road_class == "main"
                if entered > (MAIN_ROAD_REACH if only else LOCAL_ROAD_REACH):
                    continue
                holder = occupant(state, step.to_locale)
                if step.to_locale == target or (target is None and holder == enemy):
                    att = path[-1] if path else src
                    out.append(
                        {
                            "attack_locale": att,
                            "approach": step.approach,
                            "road_from": src,
                            "road_path": jlist(path),
                        }
                    )
                elif holder != enemy and step.to_locale not in path and step.to_locale != src:
                    stack.append(((step.to_locale, step.to_strand), [*path, step.to_locale], only))
    for entry, epath, step in _entry_roads(ctx, side, target):  # NT-145: cavalry entering
        out.append(
            {
                "attack_locale": epath[-1],
                "approach": step.approach,
                "road_from": entry.locale,
                "road_path": jlist(epath),
                "entry": entry.id,
            }
        )
    return out
