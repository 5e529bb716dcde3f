"""Road attacks (NT-68, NT-76, NT-77, NT-98, NT-141, NT-143): cavalry attacking out of a road move.

A road attack is threatened with the road the cavalry will take: `road_from` (the locale in whose
reserve they start) and `road_path` (the locales they enter before the defense locale, ending with
the attack locale; empty when they start in the attack locale). It must be a feint unless the
defender vacates (NT-76); after a vacate the cavalry enter the defense locale and MAY ride on
within the road distance left, also into further road attacks (NT-98). Any other command ends
the ride-on (NT-143).
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.commands import MovePlan, plan_move, spend
from games.napoleons_triumph.context import Ctx, U, Us
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.movement import (
    LOCAL_ROAD_REACH,
    MAIN_ROAD_REACH,
    RoadEnd,
    record,
    road_move,
    routes,
)
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import enemy_corps_adjacent, occupant, units_at
from games.napoleons_triumph.state import MAP, Attack, clone, other


def parse(p: dict[str, JSON]) -> tuple[int, list[int]] | None:
    src = P.integer(p, "road_from", required=False)
    if src is None:
        require(
            p.get("road_path") is None,
            "NT-68",
            "a road attack names road_from, the locale where the cavalry start, with road_path",
            "/road_from",
        )
        return None
    return src, P.ints(p, "road_path")


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


def check_threat(
    ctx: Ctx, side: str, att_loc: int, app: str, def_loc: int, road: tuple[int, list[int]]
) -> bool:
    """Step (1) of a road attack; returns whether it continues a ride-on."""
    state, board = ctx.state, ctx.board
    src, path = road
    require(src in board.locales, "NT-68", f"locale {src} does not exist", "/road_from")
    require(
        (path[-1] if path else src) == att_loc,
        "NT-68",
        "road_path ends with the attack locale (or is empty when the cavalry start there)",
        "/road_path",
    )
    starts, before, main = _start(ctx, src)
    ride = ride_group(ctx)
    continuing = ride is not None and ride.loc == src
    if not continuing:
        cav = [u for u in units_at(state, src, None, side) if u.type == "CAV"]
        require(
            bool(cav),
            "NT-68",
            f"no cavalry of yours stands in the reserve of locale {src}",
            "/road_from",
        )
    require(
        def_loc not in state.turn.road_locked and def_loc not in state.turn.conquered,
        "NT-70",
        f"if the defender vacated, no piece of yours could enter locale {def_loc} this turn "
        "(NT-54, NT-101) (AMB-17)",
        "/approach",
    )
    require(
        bool(road_options(ctx, side, src, att_loc, continuing, path, def_loc)),
        "NT-70",
        f"no command is left that could carry cavalry from locale {src} into this attack (AMB-17)",
        "/road_from",
    )
    found = routes(ctx, starts, [*path, def_loc], None)
    n = before + len(path) + 1
    require(
        any(n <= (MAIN_ROAD_REACH if r.main_only and main else LOCAL_ROAD_REACH) for r in found),
        "NT-68",
        f"no road from locale {src} through {path} crosses {app} within the road distance",
        "/road_path",
    )
    for i, loc in enumerate(path):
        require(
            occupant(state, loc) != other(side),
            "NT-47",
            f"locale {loc} on the road is held by the enemy",
            f"/road_path/{i}",
        )
    return continuing


def declare(ctx: Ctx, atk: Attack, p: dict[str, JSON], feint: bool) -> None:
    """The road attack's command, in step (3) (a feint) or after a vacate (NT-68, NT-75, NT-77)."""
    state = ctx.state
    assert atk.road_from is not None
    raw = P.objects(p, "commands", required=True)
    if not raw and not feint:
        # The defender's retreat may have closed the road (a retreat into a locale on the
        # cavalry's path is legal, AMB-13): then no command can carry the attack in, and the
        # attacker declares none; nothing moves and no command is spent.
        open_cmds = road_options(
            ctx,
            atk.attacker,
            atk.road_from,
            atk.att_locale,
            atk.ride,
            list(atk.road_path),
            atk.def_locale,
        )
        require(
            not open_cmds,
            "NT-68",
            "the road is open: declare the command that moves in",
            "/commands",
        )
        ctx.log(f"Attack {atk.id}: the road is now blocked; the cavalry cannot move in.")
        state.ride_on = None
        return
    require(len(raw) == 1, "NT-68", "a road attack is made by one command (AMB-37)", "/commands")
    spec = raw[0]
    kind = P.req_str(spec, "kind", "/commands/0")
    require(
        kind in ("unit_move", "corps_move"),
        "NT-68",
        "a road attack is a Unit Move or a Corps Move",
        "/commands/0/kind",
    )
    ride = ride_group(ctx)
    if atk.ride:
        assert ride is not None
        named = spec.get("unit") if kind == "unit_move" else spec.get("commander")
        require(
            kind == ride.kind and named in (*ride.units, ride.commander),
            "NT-98",
            "a ride-on continues the same command with the same pieces",
            "/commands/0",
        )
        plan = ride
    else:
        plan = plan_move(ctx, atk.attacker, kind, spec, "/commands/0")
        require(
            plan.loc == atk.road_from and plan.app is None,
            "NT-68",
            f"the road attack starts in the reserve of locale {atk.road_from}",
            "/commands/0",
        )
    units = [state.units[u] for u in plan.units]
    require(
        all(u.type == "CAV" for u in units),
        "NT-68",
        "a road attack is made by cavalry only (with commanders)",
        "/commands/0",
    )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    require(
        not (
            multi
            and atk.road_path
            and enemy_corps_adjacent(ctx.board, state, atk.att_locale, atk.attacker)
        ),
        "NT-141",
        "a corps of 2+ units must halt on entering the attack locale, so it cannot attack by road",
        "/commands/0",
    )
    for u in units:
        u.revealed = True
    ctx.log(f"Attack {atk.id}: road attack by cavalry ", *_faces(plan.units), ".")
    starts, before, main = _start(ctx, atk.road_from)
    if feint:
        end = P.req_str(p, "end")
        require(end in ("block", "reserve"), "NT-77", "end is 'block' or 'reserve'", "/end")
        end_app = atk.approach if end == "block" else None
        if atk.road_path:
            road_move(
                ctx,
                plan,
                list(atk.road_path),
                end_app,
                "",
                start=starts[0] if atk.ride else None,
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
            [*atk.road_path, atk.def_locale],
            None,
            "",
            start=starts[0] if atk.ride else None,
            before=before,
            main_before=main,
        )
        open_ride(ctx, plan, atk.def_locale, end_at)
    if not atk.ride:
        spend(ctx, plan, record(plan, {"attack": atk.id, "road": True}))
    atk.attackers = sorted(plan.units)
    atk.att_commanders = [plan.commander] if plan.kind == "corps_move" and plan.commander else []
    atk.feint = feint


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
    starts, before, main = _start(ctx, int(str(ride["locale"])))
    start = plan.loc
    road_move(ctx, plan, path, end_app, "", start=starts[0], before=before, main_before=main)
    ctx.state.ride_on = None
    last = ctx.state.units[plan.units[0]]
    ctx.log(f"Ride-on from locale {start} to locale {last.loc}.")


def close_ride(ctx: Ctx) -> None:
    """NT-143: any other command ends an open ride-on."""
    ctx.state.ride_on = None


def _faces(ids: list[str]) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=True, empty="")]


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


def road_threats(ctx: Ctx, side: str) -> list[dict[str, JSON]]:
    """Road-attack threats the side could announce now (for random play and clients' hints)."""
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
                if holder == enemy:
                    att = path[-1] if path else src
                    out.append(
                        {
                            "attack_locale": att,
                            "approach": step.approach,
                            "road_from": src,
                            "road_path": jlist(path),
                        }
                    )
                elif step.to_locale not in path and step.to_locale != src:
                    stack.append(((step.to_locale, step.to_strand), [*path, step.to_locale], only))
    return out
