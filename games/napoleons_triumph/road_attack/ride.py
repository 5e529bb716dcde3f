"""The ride-on after a vacated road attack (NT-98): the cavalry continue their road move within the
road distance left (NT-47, NT-51..NT-54), also into further road attacks; any other command ends
an open ride-on (NT-143).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.commands import MovePlan
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.movement import (
    LOCAL_ROAD_REACH,
    MAIN_ROAD_REACH,
    RoadEnd,
    road_move,
)
from games.napoleons_triumph.pieces import enemy_corps_adjacent


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


def start_nodes(ctx: Ctx, road_from: int) -> tuple[list[tuple[int, int]], int, bool]:
    """Road nodes to start from, locales entered before, whether only main roads so far."""
    ride = ctx.state.ride_on
    if ride is not None and ride["locale"] == road_from:
        strand, entered, main = ride["strand"], ride["entered"], ride["main_only"]
        assert isinstance(strand, int)
        assert isinstance(entered, int)
        return [(road_from, strand)], entered, bool(main)
    return [(road_from, s) for s in ctx.board.strands(road_from)], 0, True


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
    ctx.log(
        T(
            "The cavalry may ride on ({n} locale(s) of road left, NT-98).",
            n=reach - end.entered,
        )
    )


def ride_on(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-98: continue the road move of a vacated road attack."""
    plan = ride_group(ctx)
    require(plan is not None and plan.side == side, "NT-98", T("no ride-on is open"))
    assert plan is not None
    ride = ctx.state.ride_on
    assert ride is not None
    path = P.ints(p, "path", required=True)
    end_app = P.string(p, "end_approach", required=False)
    here = int(str(ride["locale"]))
    require(
        bool(path) or end_app is not None,
        "NT-98",
        T(
            "a ride-on enters at least one locale, or ends where the cavalry stand, blocking an "
            "approach that a road connected to theirs crosses (NT-53)"
        ),
        "/path",
    )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    require(
        not (path and multi and enemy_corps_adjacent(ctx.board, ctx.state, here, side)),
        "NT-54",
        T(
            "locale {locale} is next to an enemy corps of 2+ units: the march stopped there "
            "(it may still end there blocking, with an empty path)",
            locale=here,
        ),
        "/path",
    )
    starts, before, main = start_nodes(ctx, here)
    start = plan.loc
    road_move(ctx, plan, path, end_app, "", start=starts[0], before=before, main_before=main)
    ctx.state.ride_on = None
    last = ctx.state.units[plan.units[0]]
    ctx.log(
        T(
            "Ride-on from locale {start} to locale {end} blocking {approach}.",
            start=start,
            end=last.loc,
            approach=last.app,
        )
        if last.app
        else T("Ride-on from locale {start} to locale {end}.", start=start, end=last.loc)
    )


def close_ride(ctx: Ctx) -> None:
    """NT-143: any other command ends an open ride-on."""
    ctx.state.ride_on = None
