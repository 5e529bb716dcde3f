"""Reinforcements (rulebook chapter 10, L296-310): entry areas, arrival rounds, surprise bonus."""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.board import Entry
from games.napoleons_triumph.commands import (
    MovePlan,
    check_corps_budget,
    check_independent_budget,
    spend,
)
from games.napoleons_triumph.context import Ctx, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.morale import gain_morale
from games.napoleons_triumph.movement import describe, record, road_move
from games.napoleons_triumph.pieces import occupant
from games.napoleons_triumph.state import MAP, OFFMAP, F, other

SURPRISE_MORALE = 4  # NT-63, NT-115


def first_round(ctx: Ctx, commander: str) -> int:
    """NT-57: French from the round on the time track; Allied (1 December) from the first round."""
    rounds = ctx.board.scenarios[ctx.state.scenario].reinforcement_rounds
    return rounds.get(commander, 1)


def entering_plan(
    ctx: Ctx, side: str, kind: str, p: dict[str, JSON], where: str = ""
) -> tuple[MovePlan, Entry]:
    """NT-56, NT-57, NT-59, NT-61, NT-42 and the command budget: the pieces a Corps Move or Unit
    Move `kind` would bring on from the entry area `p["entry"]` (also for a road attack as they
    enter, NT-145)."""
    state, board = ctx.state, ctx.board
    require(
        kind in ("corps_move", "unit_move"),
        "NT-61",
        T("reinforcements enter by a Corps Move or a Unit Move"),
        f"{where}/command" if not where else f"{where}/kind",
    )
    require(
        not P.strings(p, "detach", where),
        "NT-61",
        T(
            "reinforcements entering by Corps Move come in together as a corps (L308): none can "
            "be detached off the map; bring single units in by Unit Move instead"
        ),
        f"{where}/detach",
    )
    other_field = "unit" if kind == "corps_move" else "commander"
    require(
        p.get(other_field) is None,
        "NT-61",
        T("an entering {kind} names a commander, not a {field}", kind=kind, field=other_field)
        if kind == "corps_move"
        else T("an entering {kind} names a unit, not a {field}", kind=kind, field=other_field),
        f"{where}/{other_field}",
    )
    entry_id = P.req_str(p, "entry", where)
    entries = {e.id: e for e in board.entries}
    require(
        entry_id in entries and entries[entry_id].side == side,
        "NT-59",
        T("{entry} is not one of your entry areas", entry=repr(entry_id)),
        f"{where}/entry",
    )
    entry = entries[entry_id]
    require(
        occupant(state, entry.locale) != other(side),
        "NT-59",
        T("entry area {entry} is occupied by the enemy", entry=entry_id),
        f"{where}/entry",
    )
    if kind == "corps_move":
        cid = P.req_str(p, "commander", where)
        c = state.commanders.get(cid)
        require(
            c is not None and c.side == side and c.where == OFFMAP,
            "NT-56",
            T(
                "{commander} is not one of your reinforcements waiting off the map",
                commander=repr(cid),
            ),
            f"{where}/commander",
        )
        assert c is not None
        check_corps_budget(ctx, c, f"{where}/commander")
        units = sorted(u.id for u in state.units.values() if u.corps == cid and u.where == OFFMAP)
        plan = MovePlan("corps_move", side, cid, units)
    else:
        uid = P.req_str(p, "unit", where)
        u = state.units.get(uid)
        require(
            u is not None and u.side == side and u.where == OFFMAP,
            "NT-56",
            T("{unit} is not one of your reinforcement units off the map", unit=repr(uid)),
            f"{where}/unit",
        )
        assert u is not None
        assert u.corps is not None
        check_independent_budget(ctx, side, f"{where}/unit")
        mates = [x for x in state.units.values() if x.corps == u.corps and x.where == OFFMAP]
        require(
            len(mates) > 1,
            "NT-42",
            T(
                "{unit} is the last unit of {commander}; bring the corps in by Corps Move",
                unit=uid,
                commander=u.corps,
            ),
            f"{where}/unit",
        )
        cid = u.corps
        plan = MovePlan("unit_move", side, None, [uid])
    require(
        state.round >= first_round(ctx, cid),
        "NT-57",
        T(
            "{commander}'s reinforcements may enter from round {round}",
            commander=cid,
            round=first_round(ctx, cid),
        ),
        where or "/",
    )
    return plan, entry


def arrive(ctx: Ctx, plan: MovePlan, entry: Entry, extra: dict[str, JSON]) -> None:
    """NT-62, NT-63: the arrival steps of an entering command (instead of the plain spend)."""
    state, side = ctx.state, plan.side
    for uid in plan.units:
        state.units[uid].arrived = side == F  # NT-62(a): a second move command in the arrival turn
    if plan.kind == "corps_move" and plan.commander is not None:
        state.commanders[plan.commander].arrived = side == F  # NT-62(b)
    spend(ctx, plan, record(plan, {"entry": entry.id, **extra}))
    if side == F and not state.reinforcements_entered:
        state.reinforcements_entered = True  # NT-63: the victory conditions change for good
        gain_morale(ctx, F, SURPRISE_MORALE, T("first French reinforcements"))


def enter(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-59..NT-63: a Corps Move or Unit Move that brings pieces on by road from an entry area."""
    state = ctx.state
    command = P.req_str(p, "command")
    plan, entry = entering_plan(ctx, side, command, p)
    path_locs = P.ints(p, "path", required=True)
    for i, loc in enumerate(path_locs[1:], start=1):
        require(
            occupant(state, loc) != other(side),
            "NT-47",
            T(
                "locale {locale} is held by the enemy: moving into it is an attack; a cavalry "
                "reinforcement attacks by road as it enters with a threat and a road attack naming "
                "`entry` (NT-145)",
                locale=loc,
            ),
            f"/path/{i}",
        )
    end_app = P.string(p, "end_approach", required=False)
    road_move(ctx, plan, path_locs, end_app, "", entry=entry)  # NT-60: always by road
    first_u = state.units[plan.units[0]]
    ctx.log(
        *line(
            T("Unit Move: {unit} enters at {entry} and reaches locale {locale}.")
            if plan.kind == "unit_move"
            else T(
                "Corps Move: {commander} with {units} enters at {entry} and reaches locale "
                "{locale}."
            ),
            **describe(ctx, plan),
            entry=entry.id,
            locale=first_u.loc,
        )
    )
    arrive(ctx, plan, entry, {})
    assert first_u.where == MAP
