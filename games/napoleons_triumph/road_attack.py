"""Road attacks (NT-68, NT-76, NT-77, NT-98, NT-141, NT-143): cavalry attacking out of a road move.

The threat names only the approach (step 1, NT-70, L335): which pieces attack, and so whether it is
a road attack, is told at the announcement, in step (3) (it must then be a feint, NT-76) or after
a vacate. The road attack's command carries `"road": true` and `path` (the locales it enters before
the defense locale, ending with the attack locale; empty when the cavalry start there); the road
starts where its pieces stand, in reserve. After a vacate the cavalry enter the defense locale and
MAY ride on within the road distance left, also into further road attacks (NT-98). Any other
command ends the ride-on (NT-143).
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.board import Entry, RoadStep
from games.napoleons_triumph.commands import MovePlan, plan_move, spend
from games.napoleons_triumph.context import Ctx, U, Us
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.movement import (
    LOCAL_ROAD_REACH,
    MAIN_ROAD_REACH,
    RoadEnd,
    entry_barred,
    pieces_of,
    record,
    road_move,
    routes,
)
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import enemy_corps_adjacent, occupant, units_at
from games.napoleons_triumph.reinforcements import arrive, entering_plan
from games.napoleons_triumph.state import MAP, OFFMAP, Attack, clone, other


def is_road(raw: list[dict[str, JSON]]) -> bool:
    """Whether an announcement names a road attack (a command with `"road": true`)."""
    return any(spec.get("road") is True for spec in raw)


def ride_group(ctx: Ctx) -> MovePlan | None:
    """The pieces of an open ride-on, as the command that moves them (NT-98)."""
    ride = ctx.state.ride_on
    if ride is None:
        return None
    units = ride["units"]
    assert isinstance(units, list)
    cmd = ride["commander"]
    return MovePlan(
        str(ride["kind"]),
        str(ride["side"]),
        cmd if isinstance(cmd, str) else None,
        [str(u) for u in units],
        loc=ctx.state.units[str(units[0])].loc,
        app=None,
    )


def _start(ctx: Ctx, road_from: int) -> tuple[list[tuple[int, int]], int, bool]:
    """Road nodes to start from, locales entered before, whether only main roads so far."""
    ride = ctx.state.ride_on
    if ride is not None and ride["locale"] == road_from:
        strand, entered, main = ride["strand"], ride["entered"], ride["main_only"]
        assert isinstance(strand, int)
        assert isinstance(entered, int)
        return [(road_from, strand)], entered, bool(main)
    return [(road_from, s) for s in ctx.board.strands(road_from)], 0, True


def check_road(ctx: Ctx, side: str, atk: Attack, src: int, path: list[int], where: str) -> None:
    """The road of a road attack (NT-68, NT-47, NT-51, NT-52): from the reserve of `src` along
    `path` (ending with the attack locale) across the attack approach within the road distance.
    Checked when the road is named: at the announcement (the threat names only the approach)."""
    state = ctx.state
    att_loc, app, def_loc = atk.att_locale, atk.approach, atk.def_locale
    require(
        (path[-1] if path else src) == att_loc,
        "NT-68",
        f"the road ends in the attack locale {att_loc}: path lists the locales entered up to it "
        "(empty when the cavalry start there)",
        f"{where}/path",
    )
    for i, loc in enumerate(path):
        require(
            occupant(state, loc) != other(side),
            "NT-47",
            f"locale {loc} on the road is held by the enemy",
            f"{where}/path/{i}",
        )
    starts, before, main = _start(ctx, src)
    found = routes(ctx, starts, [*path, def_loc], None)
    n = before + len(path) + 1
    require(
        any(n <= (MAIN_ROAD_REACH if r.main_only and main else LOCAL_ROAD_REACH) for r in found),
        "NT-68",
        f"no road from locale {src} through {path} crosses {app} within the road distance",
        f"{where}/path",
    )


def check_entry_road(
    ctx: Ctx, side: str, atk: Attack, entry: Entry, path: list[int], where: str
) -> None:
    """The road of a road attack made as the cavalry enter (NT-145, NT-60, AMB-15): from the
    entry area along `path` (the entry locale first, ending with the attack locale) across the
    attack approach within the road distance; the entry locale counts as the first locale."""
    require(
        bool(path) and path[0] == entry.locale,
        "NT-60",
        f"the path must begin with the entry locale {entry.locale}",
        f"{where}/path",
    )
    require(
        path[-1] == atk.att_locale,
        "NT-68",
        f"the road ends in the attack locale {atk.att_locale}",
        f"{where}/path",
    )
    for i, loc in enumerate(path):
        require(
            occupant(ctx.state, loc) != other(side),
            "NT-47",
            f"locale {loc} on the road is held by the enemy",
            f"{where}/path/{i}",
        )
    found = routes(
        ctx, [(entry.locale, entry.strand)], [*path[1:], atk.def_locale], entry.road_class
    )
    n = len(path) + 1
    require(
        any(n <= (MAIN_ROAD_REACH if r.main_only else LOCAL_ROAD_REACH) for r in found),
        "NT-68",
        f"no road from entry area {entry.id} through {path} crosses {atk.approach} within the "
        "road distance",
        f"{where}/path",
    )


def declare(ctx: Ctx, atk: Attack, p: dict[str, JSON], feint: bool) -> None:
    """The road attack's command, announced in step (3) (a feint) or after a vacate (NT-68, NT-75,
    NT-77): only now does the attacker name the pieces and the road (NT-70, L335)."""
    state = ctx.state
    raw = P.objects(p, "commands", required=True)
    require(len(raw) == 1, "NT-68", "a road attack is made by one command (AMB-37)", "/commands")
    require(
        not atk.guard_attack,
        "NT-124",
        "the Guard shown must attack (AMB-31); a road attack is made by cavalry (NT-68)",
        "/commands/0",
    )
    spec = raw[0]
    kind = P.req_str(spec, "kind", "/commands/0")
    require(
        kind in ("unit_move", "corps_move"),
        "NT-68",
        "a road attack is a Unit Move or a Corps Move",
        "/commands/0/kind",
    )
    path = P.ints(spec, "path", "/commands/0", required=True)
    ride = ride_group(ctx)
    entry: Entry | None = None
    if spec.get("entry") is not None:  # NT-145: cavalry reinforcements attack as they enter
        plan, entry = entering_plan(ctx, atk.attacker, kind, spec, "/commands/0")
        src, continuing = entry.locale, False
    elif ride is not None and ride.side == atk.attacker:
        named = spec.get("unit") if kind == "unit_move" else spec.get("commander")
        continuing = kind == ride.kind and named in (*ride.units, ride.commander)
    else:
        continuing = False
    if entry is not None:
        pass
    elif continuing:
        assert ride is not None
        plan = ride
        src = int(str(ride.loc))
    else:
        plan = plan_move(ctx, atk.attacker, kind, spec, "/commands/0")
        require(
            plan.loc is not None and plan.app is None,
            "NT-68",
            "a road attack starts in a reserve area, not blocking an approach",
            "/commands/0",
        )
        assert plan.loc is not None
        src = plan.loc
        require(
            ride is None or ride.loc != src,
            "NT-98",
            "a ride-on continues the same command with the same pieces",
            "/commands/0",
        )
    units = [state.units[u] for u in plan.units]
    require(
        all(u.type == "CAV" for u in units),
        "NT-68",
        "a road attack is made by cavalry only (with commanders)",
        "/commands/0",
    )
    if entry is not None:
        check_entry_road(ctx, atk.attacker, atk, entry, path, "/commands/0")
    else:
        check_road(ctx, atk.attacker, atk, src, path, "/commands/0")
    if not feint:
        barred = entry_barred(state, atk.def_locale, pieces_of(plan))
        require(
            barred is None,
            barred or "NT-54",
            f"these pieces may not enter locale {atk.def_locale} this turn (NT-54: another "
            "corps marched through it by road; NT-101: it was won by attack)",
            "/commands/0",
        )
        cap = ctx.board.locales[atk.def_locale].capacity
        require(
            len(plan.units) <= cap,
            "NT-10",
            f"locale {atk.def_locale} holds at most {cap} units",
            "/commands/0",
        )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    require(
        not (
            multi and path and enemy_corps_adjacent(ctx.board, state, atk.att_locale, atk.attacker)
        ),
        "NT-141",
        "a corps of 2+ units must halt on entering the attack locale, so it cannot attack by road",
        "/commands/0",
    )
    if not continuing:
        close_ride(ctx)  # NT-143: another command ends an open ride-on
    atk.road_from, atk.road_path, atk.ride = src, list(path), continuing
    for u in units:
        u.revealed = True
    ctx.log(
        f"Attack {atk.id}: road attack "
        f"{f'entering at {entry.id}' if entry is not None else f'from locale {src}'}"
        f"{' via ' + ', '.join(map(str, path)) if path else ''} by cavalry ",
        *_faces(plan.units),
        ".",
    )
    starts, before, main = _start(ctx, src) if entry is None else ([], 0, True)
    if feint:
        end = P.req_str(p, "end")
        require(end in ("block", "reserve"), "NT-77", "end is 'block' or 'reserve'", "/end")
        end_app = atk.approach if end == "block" else None
        if entry is not None:
            road_move(ctx, plan, list(path), end_app, "", entry=entry)
        elif path:
            road_move(
                ctx,
                plan,
                list(path),
                end_app,
                "",
                start=starts[0] if continuing else None,
                before=before,
                main_before=main,
            )
        else:  # the cavalry start in the attack locale: they stay, blocking or in reserve
            for u in units:
                u.app = end_app
            if plan.kind == "corps_move" and plan.commander:
                state.commanders[plan.commander].app = end_app
        state.ride_on = None
    else:
        end_at = road_move(
            ctx,
            plan,
            [*path, atk.def_locale],
            None,
            "",
            entry=entry,
            start=starts[0] if continuing else None,
            before=before,
            main_before=main,
        )
        open_ride(ctx, plan, atk.def_locale, end_at)
    if entry is not None:  # NT-62, NT-63: the arrival steps
        arrive(ctx, plan, entry, {"attack": atk.id, "road": True})
    elif not continuing:
        spend(ctx, plan, record(plan, {"attack": atk.id, "road": True}))
    atk.attackers = sorted(plan.units)
    atk.att_commanders = [plan.commander] if plan.kind == "corps_move" and plan.commander else []
    atk.feint = feint


def road_blocked(ctx: Ctx, atk: Attack) -> None:
    """After a vacate, the defender's retreat may have closed every road (a retreat into a locale
    on the cavalry's path is legal, AMB-13) and no other command can move in: the attacker then
    declares none; nothing moves and no command is spent."""
    ctx.log(f"Attack {atk.id}: no command can move in; nothing moves.")
    close_ride(ctx)


def open_ride(ctx: Ctx, plan: MovePlan, loc: int, end: RoadEnd) -> None:
    reach = MAIN_ROAD_REACH if end.main_only else LOCAL_ROAD_REACH
    if end.entered >= reach:
        ctx.state.ride_on = None
        return
    ctx.state.ride_on = {
        "side": plan.side,
        "kind": plan.kind,
        "commander": plan.commander,
        "units": list(plan.units),
        "locale": loc,
        "strand": end.strand,
        "entered": end.entered,
        "main_only": end.main_only,
    }
    ctx.log(f"The cavalry may ride on ({reach - end.entered} locale(s) of road left, NT-98).")


def ride_on(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-98: continue the road move of a vacated road attack."""
    plan = ride_group(ctx)
    require(plan is not None and plan.side == side, "NT-98", "no ride-on is open")
    assert plan is not None
    ride = ctx.state.ride_on
    assert ride is not None
    path = P.ints(p, "path", required=True)
    end_app = P.string(p, "end_approach", required=False)
    here = int(str(ride["locale"]))
    require(
        bool(path) or end_app is not None,
        "NT-98",
        "a ride-on enters at least one locale, or ends where the cavalry stand, blocking an "
        "approach that a road connected to theirs crosses (NT-53)",
        "/path",
    )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    require(
        not (path and multi and enemy_corps_adjacent(ctx.board, ctx.state, here, side)),
        "NT-54",
        f"locale {here} is next to an enemy corps of 2+ units: the march stopped there "
        "(it may still end there blocking, with an empty path)",
        "/path",
    )
    starts, before, main = _start(ctx, here)
    start = plan.loc
    road_move(ctx, plan, path, end_app, "", start=starts[0], before=before, main_before=main)
    ctx.state.ride_on = None
    last = ctx.state.units[plan.units[0]]
    ctx.log(
        f"Ride-on from locale {start} to locale {last.loc}",
        f" blocking {last.app}." if last.app else ".",
    )


def close_ride(ctx: Ctx) -> None:
    """NT-143: any other command ends an open ride-on."""
    ctx.state.ride_on = None


def _faces(ids: list[str]) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=True, empty="")]


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
            starts, before, main = _start(trial, road_from)
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
        starts, before, main = _start(ctx, src)
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
