"""Commands (rulebook chapter 9): corps and independent commands and their limits (NT-35..NT-44)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.context import Ctx, U, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.state import AL, MAP, Commander, F, Unit

ALLIED_CORPS_LIMIT = 5  # NT-37
INDEPENDENT_LIMIT = {AL: 3, F: 4}  # NT-38


@dataclass(slots=True)
class MovePlan:
    """Who a move command moves, before the destination is checked."""

    kind: str  # corps_move | detach_move | unit_move
    side: str
    commander: str | None
    units: list[str]
    detach: list[str] = field(default_factory=list)  # detached by this command and left behind
    loc: int | None = None
    app: str | None = None


def moves_allowed(u: Unit) -> int:
    return 2 if u.arrived and u.side == F else 1  # NT-43, NT-62(a)


def corps_commands_allowed(c: Commander) -> int:
    return 2 if c.arrived and c.side == F else 1  # NT-37, NT-62(b)


def check_corps_budget(ctx: Ctx, c: Commander, path: str) -> None:
    state = ctx.state
    require(
        c.commands < corps_commands_allowed(c),
        "NT-37",
        T("{commander} has already given his corps command this turn", commander=c.id),
        path,
    )
    if c.side == AL:
        require(
            state.turn.corps_used < ALLIED_CORPS_LIMIT,
            "NT-37",
            T("the Allies have used all 5 corps commands this turn"),
            path,
        )


def check_independent_budget(ctx: Ctx, side: str, path: str) -> None:
    limit = INDEPENDENT_LIMIT[side]
    require(
        ctx.state.turn.independent_used < limit,
        "NT-38",
        T("all {n} independent commands of this turn are used", n=limit),
        path,
    )


def own_commander(ctx: Ctx, side: str, cid: str, path: str) -> Commander:
    c = ctx.state.commanders.get(cid)
    require(
        c is not None and c.side == side,
        "NT-37",
        T("{commander} is not one of your commanders", commander=repr(cid)),
        path,
    )
    assert c is not None
    require(c.where == MAP, "NT-37", T("{piece} is not on the map", piece=cid), path)
    return c


def own_unit(ctx: Ctx, side: str, uid: str, path: str) -> Unit:
    u = ctx.state.units.get(uid)
    require(
        u is not None and u.side == side,
        "NT-42",
        T("{unit} is not one of your units", unit=repr(uid)),
        path,
    )
    assert u is not None
    require(u.where == MAP, "NT-42", T("{piece} is not on the map", piece=uid), path)
    return u


def check_can_move(u: Unit, rule: str, path: str, allow_fixed: bool = False) -> None:
    """`allow_fixed`: the fixed battery may receive an attack command that does not move it
    (NT-24: it may lead an artillery attack; the attack code checks that it stays put)."""
    require(
        allow_fixed or not u.fixed,
        "NT-24",
        T("{unit} is the fixed battery and never moves", unit=u.id),
        path,
    )
    require(
        u.moves < moves_allowed(u), rule, T("{unit} has already moved this turn", unit=u.id), path
    )


def plan_move(
    ctx: Ctx, side: str, kind: str, p: dict[str, JSON], path: str = "", allow_fixed: bool = False
) -> MovePlan:
    """Check a move command's pieces and limits (NT-39, NT-40, NT-42, NT-43); moves nothing."""
    state = ctx.state
    if kind == "unit_move":
        u = own_unit(ctx, side, P.req_str(p, "unit", path), f"{path}/unit")
        check_can_move(u, "NT-43", f"{path}/unit", allow_fixed)
        check_independent_budget(ctx, side, path)
        if u.corps is not None:
            mates = [x for x in state.units.values() if x.corps == u.corps and x.where == MAP]
            require(
                len(mates) > 1,
                "NT-42",
                T(
                    "{unit} is the last unit of {commander}; a commander is never left alone",
                    unit=u.id,
                    commander=u.corps,
                ),
                f"{path}/unit",
            )
        return MovePlan(kind, side, None, [u.id], loc=u.loc, app=u.app)
    require(
        kind in ("corps_move", "detach_move"),
        "NT-35",
        T("{kind} is not a move command", kind=repr(kind)),
        path,
    )
    c = own_commander(ctx, side, P.req_str(p, "commander", path), f"{path}/commander")
    check_corps_budget(ctx, c, f"{path}/commander")
    members = [u for u in state.units.values() if u.corps == c.id and u.where == MAP]
    ids = {u.id for u in members}
    if kind == "detach_move":
        movers = P.strings(p, "units", path, required=True)
        require(
            bool(movers), "NT-40", T("a detachment move moves at least one unit"), f"{path}/units"
        )
        for uid in movers:
            require(
                uid in ids,
                "NT-40",
                T("{unit} is not in {commander}'s corps", unit=uid, commander=c.id),
                f"{path}/units",
            )
            check_can_move(state.units[uid], "NT-43", f"{path}/units")
        require(
            len(movers) < len(members),
            "NT-40",
            T("at least one unit stays with the commander"),
            f"{path}/units",
        )
        return MovePlan(kind, side, c.id, movers, loc=c.loc, app=c.app)
    detach = P.strings(p, "detach", path)
    for uid in detach:
        require(
            uid in ids,
            "NT-39",
            T("{unit} is not in {commander}'s corps", unit=uid, commander=c.id),
            f"{path}/detach",
        )
    movers = sorted(ids - set(detach))
    require(
        bool(movers),
        "NT-39",
        T("at least one unit must stay with the commander"),
        f"{path}/detach",
    )
    for uid in movers:
        u = state.units[uid]
        require(
            not u.fixed,
            "NT-39",
            T("{unit} is the fixed battery: detach it before the move", unit=uid),
            f"{path}/detach",
        )
        require(
            u.moves < moves_allowed(u),
            "NT-39",
            T(
                "{unit} has already moved this turn and must be detached before the move (AMB-11)",
                unit=uid,
            ),
            f"{path}/detach",
        )
    return MovePlan(kind, side, c.id, movers, detach=detach, loc=c.loc, app=c.app)


def spend(ctx: Ctx, plan: MovePlan, record: dict[str, JSON]) -> None:
    """Use the command: limits, detachments, once-per-turn marks, the public record (NT-44)."""
    state = ctx.state
    if plan.kind == "unit_move":
        state.turn.independent_used += 1
    else:
        assert plan.commander is not None
        state.commanders[plan.commander].commands += 1
        if plan.side == AL:
            state.turn.corps_used += 1
    for uid in plan.detach:
        state.units[uid].corps = None
    for uid in plan.units:
        u = state.units[uid]
        u.moves += 1
        if plan.kind in ("unit_move", "detach_move"):
            u.corps = None
    state.turn.commands.append(record)


def attach(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-41: a commander attaches one unit in his position; it is no move."""
    state = ctx.state
    c = own_commander(ctx, side, P.req_str(p, "commander"), "/commander")
    check_corps_budget(ctx, c, "/commander")
    u = own_unit(ctx, side, P.req_str(p, "unit"), "/unit")
    require(
        u.corps != c.id,
        "NT-41",
        T("{unit} is already in {commander}'s corps", unit=u.id, commander=c.id),
        "/unit",
    )
    require(
        (u.loc, u.app) == (c.loc, c.app),
        "NT-41",
        T("{unit} and {commander} are not in the same position", unit=u.id, commander=c.id),
        "/unit",
    )
    size = len([x for x in state.units.values() if x.corps == c.id and x.where == MAP])
    require(
        size < 8, "NT-29", T("{commander}'s corps already has 8 units", commander=c.id), "/unit"
    )
    if u.corps is not None:
        rest = [x for x in state.units.values() if x.corps == u.corps and x.where == MAP]
        require(
            len(rest) > 1,
            "NT-32",
            T("{unit} is the last unit of {commander}", unit=u.id, commander=u.corps),
            "/unit",
        )
    c.commands += 1
    if side == AL:
        state.turn.corps_used += 1
    u.corps = c.id
    state.turn.commands.append({"kind": "attach", "commander": c.id, "unit": u.id})
    ctx.log(*line(T("Attach: {commander} attaches {unit}."), commander=c.id, unit=U(u.id)))
