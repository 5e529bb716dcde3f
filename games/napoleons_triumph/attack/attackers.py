"""The commands that carry out an attack and the pieces they move (NT-65, NT-66, NT-81, PUB-8),
spent when declared (NT-97); what could back a threat on the attacker's own knowledge (AMB-17,
AMB-31); the artillery attack's conditions (NT-24, NT-83, NT-84, NT-99, NT-138).

Used by the threat (step 1), the declarations of steps (3) and (5) and the declaration after a
vacate (NT-75).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.attack.common import santon_battery
from games.napoleons_triumph.commands import (
    ALLIED_CORPS_LIMIT,
    INDEPENDENT_LIMIT,
    MovePlan,
    plan_move,
    spend,
)
from games.napoleons_triumph.context import Ctx, public_key
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.movement import entry_barred, pieces_of, record
from games.napoleons_triumph.pieces import commanders_in, corps_units, units_in
from games.napoleons_triumph.state import Attack, Unit


def plan_attack_commands(ctx: Ctx, atk: Attack, raw: list[dict[str, JSON]]) -> list[MovePlan]:
    """NT-65, NT-66, NT-81: the command(s) that carry out an attack, checked but not yet spent."""
    require(bool(raw), "NT-81", T("declare at least one command"), "/commands")
    plans: list[MovePlan] = []
    used: set[str] = set()
    for i, spec in enumerate(raw):
        path = f"/commands/{i}"
        kind = P.req_str(spec, "kind", path)
        require(
            kind in ("corps_move", "detach_move", "unit_move"),
            "NT-81",
            T("{kind} cannot carry out an attack", kind=repr(kind)),
            f"{path}/kind",
        )
        require(
            not P.boolean(spec, "road", path),
            "NT-76",
            T(
                "a road attack must be declared a feint in step (3); it moves in only when the "
                "defender vacates (NT-75)"
            ),
            f"{path}/road",
        )
        require(
            spec.get("path") is None,
            "NT-68",
            T("a path is named only by the command of a road attack (road: true)"),
            f"{path}/path",
        )
        plan = plan_move(ctx, atk.attacker, kind, spec, path, allow_fixed=True)
        require(
            plan.commander is None or plan.commander not in used,
            "NT-37",
            T("{commander} gives only one command here", commander=plan.commander),
            path,
        )
        if plan.commander:
            used.add(plan.commander)
        ok = plan.loc == atk.att_locale and plan.app in (None, atk.approach)
        require(
            ok,
            "NT-65",
            T("attacking pieces stand in the attack reserve or block the attack approach"),
            path,
        )
        plans.append(plan)
    if len(plans) > 1:  # NT-66: the only combinations
        kinds = {p.kind for p in plans}
        corps_ok = kinds == {"corps_move"} and len({(p.loc, p.app) for p in plans}) == 1
        art_ok = (
            kinds == {"unit_move"}
            and len(plans) == 2
            and all(
                ctx.state.units[p.units[0]].type == "ART"
                and ctx.state.units[p.units[0]].app == atk.approach
                for p in plans
            )
        )
        require(
            corps_ok or art_ok,
            "NT-66",
            T("only Corps Moves from one position, or two blocking artillery Unit Moves, combine"),
            "/commands",
        )
    # Each command counts against the limits (NT-66): check the totals together.
    side = atk.attacker
    indep = sum(1 for p in plans if p.kind == "unit_move")
    require(
        ctx.state.turn.independent_used + indep <= INDEPENDENT_LIMIT[side],
        "NT-38",
        T("not enough independent commands left for this attack"),
        "/commands",
    )
    if side == "AL":
        corps = sum(1 for p in plans if p.kind != "unit_move")
        require(
            ctx.state.turn.corps_used + corps <= ALLIED_CORPS_LIMIT,
            "NT-37",
            T("not enough Allied corps commands left for this attack"),
            "/commands",
        )
    units = [u for p in plans for u in p.units]
    require(
        len(set(units)) == len(units), "NT-43", T("a unit receives one move command"), "/commands"
    )
    return plans


def check_batteries_lead(
    plans: list[MovePlan], leading: list[str], message: str, path: str
) -> None:
    """NT-66 with the designer's erratum (digest PUB-8): two artillery Unit Moves combine only
    when both batteries are attack leading units, so never in a feint or a move-in. `message`:
    the refusal, which says why in a feint or a move-in."""
    if len(plans) == 2 and all(p.kind == "unit_move" for p in plans):
        require(
            all(p.units[0] in leading for p in plans),
            "NT-66",
            message,
            path,
        )


def spend_all(ctx: Ctx, atk: Attack, plans: list[MovePlan]) -> None:  # NT-97: spent, moved
    for plan in plans:
        spend(ctx, plan, record(plan, {"attack": atk.id}))
    atk.commands = [record(p) for p in plans]
    atk.attackers = sorted({u for p in plans for u in p.units})
    atk.att_commanders = sorted(
        {p.commander for p in plans if p.kind == "corps_move" and p.commander}
    )
    atk.started_blocking = any(p.app is not None for p in plans)


def attack_options(ctx: Ctx, side: str, att_locale: int, approach: str) -> list[dict[str, JSON]]:
    """Single commands that could carry out an attack across `approach` (A's own knowledge only)."""
    state = ctx.state
    def_loc = ctx.board.other_locale(approach, att_locale)
    cap = ctx.board.locales[def_loc].capacity
    out: list[dict[str, JSON]] = []
    batteries: list[dict[str, JSON]] = []
    for u in sorted(units_in(state, att_locale, side), key=lambda u: public_key(state, u.id)):
        if u.app not in (None, approach):
            continue
        spec: dict[str, JSON] = {"kind": "unit_move", "unit": u.id}
        if u.fixed:  # NT-24: the fixed battery attacks only by leading an artillery attack
            if battery_can_fire(ctx, side, att_locale, approach, u):
                batteries.append(spec)
        elif _plans_ok(ctx, side, spec):
            out.append(spec)
    for c in sorted(commanders_in(state, att_locale, side), key=lambda c: c.id):
        if c.app not in (None, approach):
            continue
        members = corps_units(state, c.id)
        stuck = [
            u.id for u in members if u.fixed or u.moves >= (2 if u.arrived and u.side == "F" else 1)
        ]
        movers = [u.id for u in members if u.id not in stuck]
        extra = movers[cap:] if len(movers) > cap else []
        spec = {"kind": "corps_move", "commander": c.id, "detach": P.jlist(sorted(stuck + extra))}
        if movers and _plans_ok(ctx, side, spec):
            out.append(spec)
    return out + batteries


def vacate_options(
    ctx: Ctx, side: str, att_locale: int, approach: str
) -> list[tuple[dict[str, JSON], bool]]:
    """Declarations possible if the defender vacates (AMB-17): (command, artillery attack?).
    Moving in is impossible into a locale locked by a road march or a conquest this turn
    (NT-54, NT-101); then only an artillery attack, whose guns stay, can back the threat."""
    state = ctx.state
    def_loc = ctx.board.other_locale(approach, att_locale)
    out: list[tuple[dict[str, JSON], bool]] = []
    for spec in attack_options(ctx, side, att_locale, approach):
        locked = spec_barred(ctx, side, def_loc, spec)
        u = state.units.get(str(spec.get("unit", "")))
        guns = u is not None and u.type == "ART" and spec["kind"] == "unit_move"
        if guns and u is not None and battery_can_fire(ctx, side, att_locale, approach, u):
            out.append((spec, locked or u.fixed))
        elif not locked and not (u is not None and u.fixed):
            out.append((spec, False))
    return out


def spec_barred(ctx: Ctx, side: str, def_loc: int, spec: dict[str, JSON]) -> bool:
    """May the pieces of this attack command not move into `def_loc` this turn (NT-54(b): not
    the corps that locked it, L287; NT-101)?"""
    try:
        plan = plan_move(ctx, side, str(spec["kind"]), spec, allow_fixed=True)
    except Illegal:
        return True
    return entry_barred(ctx.state, def_loc, pieces_of(plan)) is not None


def battery_can_fire(ctx: Ctx, side: str, att_locale: int, approach: str, u: Unit) -> bool:
    """NT-24, NT-83, NT-84, NT-99, NT-138: may the fixed battery lead an artillery attack now?"""
    probe = Attack(0, side, att_locale, ctx.board.other_locale(approach, att_locale), approach, "")
    try:
        plan = plan_move(ctx, side, "unit_move", {"unit": u.id}, allow_fixed=True)
        check_artillery_attack(ctx, probe, [plan], [u])
    except Illegal:
        return False
    return True


def options_moving(
    ctx: Ctx, side: str, att_locale: int, approach: str, unit: str
) -> list[dict[str, JSON]]:
    """The attack options whose command moves `unit` (the Guard shown, AMB-31)."""
    out = []
    for spec in attack_options(ctx, side, att_locale, approach):
        if spec["kind"] == "unit_move":
            if spec["unit"] == unit:
                out.append(spec)
            continue
        detach = spec.get("detach")
        u = ctx.state.units[unit]
        if u.corps == spec["commander"] and not (isinstance(detach, list) and unit in detach):
            out.append(spec)
    return out


def _plans_ok(ctx: Ctx, side: str, spec: dict[str, JSON]) -> bool:
    try:
        plan_move(ctx, side, str(spec["kind"]), spec)
    except Illegal:
        return False
    return True


def check_artillery_attack(
    ctx: Ctx, atk: Attack, plans: list[MovePlan], leaders: list[Unit]
) -> None:
    """NT-83 (artillery leads only blocking, never by Corps Move), NT-84, NT-99."""
    state, board = ctx.state, ctx.board
    for u in leaders:
        require(
            u.type == "ART", "NT-83", T("an artillery attack is led by artillery only"), "/leading"
        )
        require(
            u.app == atk.approach or santon_battery(ctx, u),
            "NT-83",
            T("{unit} must block the attack approach to lead", unit=u.id),
            "/leading",
        )
        require(
            not (state.options.get("santon") and u.loc == board.santon and not u.fixed),
            "NT-137",
            T("artillery on the Santon cannot lead (except the fixed battery)"),
            "/leading",
        )
    require(
        all(p.kind != "corps_move" for p in plans),
        "NT-83",
        T("artillery cannot lead an attack made by a Corps Move"),
        "/commands",
    )
    require(
        atk.approach not in state.turn.artillery_attacked,
        "NT-99",
        T("the second attack across this approach this turn cannot be an artillery attack"),
        "/leading",
    )
    last = state.last_artillery.get(art_key(atk))
    hill_ok = board.locales[atk.att_locale].hill and not board.locales[atk.def_locale].hill  # NT-11
    require(
        last != state.round - 1 or hill_ok,
        "NT-84",
        T("no artillery attack from the same approach in two consecutive turns"),
        "/leading",
    )


def art_key(atk: Attack) -> str:
    return f"{atk.attacker}|{atk.approach}|{atk.att_locale}"
