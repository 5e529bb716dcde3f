"""Attacks (rulebook chapter 11): threat, defender's answer, feint, combat steps (1)-(11).

Each step that needs a player's decision opens a Pending for that side (digest 4.3); the server
steps (6), (8) and the automatic parts of (9)-(11) run on as soon as their input is there.
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import road_attack
from games.napoleons_triumph.board import ApproachSide
from games.napoleons_triumph.commands import (
    ALLIED_CORPS_LIMIT,
    INDEPENDENT_LIMIT,
    MovePlan,
    plan_move,
    spend,
)
from games.napoleons_triumph.context import Ctx, U, Us, public_key, resolve, shown_as
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.losses import (
    alive,
    answer_assign,
    answer_odd,
    job,
    run_queue,
    take_loss,
    tier,
)
from games.napoleons_triumph.morale import commit_elite, lose_morale
from games.napoleons_triumph.movement import entry_barred, kept_out, pieces_of, record
from games.napoleons_triumph.pieces import (
    commanders_in,
    corps_units,
    elite_kind,
    is_infantry,
    occupant,
    units_in,
)
from games.napoleons_triumph.retreat import retreat
from games.napoleons_triumph.state import MAP, Attack, Pending, Unit, other
from games.napoleons_triumph.turns import hide_all, is_night

GUARD_FAIL_MORALE = 3  # NT-127


# ----------------------------------------------------------------------------- helpers


def current(ctx: Ctx) -> Attack:
    atk = ctx.state.attack
    require(atk is not None, "NT-64", "no attack is in progress")
    assert atk is not None
    return atk


def ask(ctx: Ctx, side: str, kind: str, data: dict[str, JSON] | None = None) -> None:
    ctx.state.pending = Pending(side, kind, data or {})


def def_side_of(ctx: Ctx, atk: Attack) -> ApproachSide:
    return ctx.board.side(atk.approach, atk.def_locale)


def att_side_of(ctx: Ctx, atk: Attack) -> ApproachSide:
    return ctx.board.side(atk.approach, atk.att_locale)


def names(ids: list[str], face: bool = False) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=face)]


def same_type(a: Unit, b: Unit, guard_with_inf: bool) -> bool:
    if a.type == b.type:
        return True
    return guard_with_inf and is_infantry(a) and is_infantry(b)


def santon_battery(ctx: Ctx, u: Unit) -> bool:
    """NT-138: the fixed battery standing on the Santon (option)."""
    return bool(ctx.state.options.get("santon")) and u.fixed and u.loc == ctx.board.santon


# ----------------------------------------------------------------------------- attack commands


def plan_attack_commands(ctx: Ctx, atk: Attack, raw: list[dict[str, JSON]]) -> list[MovePlan]:
    """NT-65, NT-66, NT-81: the command(s) that carry out an attack, checked but not yet spent."""
    require(bool(raw), "NT-81", "declare at least one command", "/commands")
    plans: list[MovePlan] = []
    used: set[str] = set()
    for i, spec in enumerate(raw):
        path = f"/commands/{i}"
        kind = P.req_str(spec, "kind", path)
        require(
            kind in ("corps_move", "detach_move", "unit_move"),
            "NT-81",
            f"{kind!r} cannot carry out an attack",
            f"{path}/kind",
        )
        require(
            not P.boolean(spec, "road", path),
            "NT-76",
            "a road attack must be declared a feint in step (3); it moves in only when the "
            "defender vacates (NT-75)",
            f"{path}/road",
        )
        require(
            spec.get("path") is None,
            "NT-68",
            "a path is named only by the command of a road attack (road: true)",
            f"{path}/path",
        )
        plan = plan_move(ctx, atk.attacker, kind, spec, path, allow_fixed=True)
        require(
            plan.commander is None or plan.commander not in used,
            "NT-37",
            f"{plan.commander} gives only one command here",
            path,
        )
        if plan.commander:
            used.add(plan.commander)
        ok = plan.loc == atk.att_locale and plan.app in (None, atk.approach)
        require(
            ok,
            "NT-65",
            "attacking pieces stand in the attack reserve or block the attack approach",
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
            "only Corps Moves from one position, or two blocking artillery Unit Moves, combine",
            "/commands",
        )
    # Each command counts against the limits (NT-66): check the totals together.
    side = atk.attacker
    indep = sum(1 for p in plans if p.kind == "unit_move")
    require(
        ctx.state.turn.independent_used + indep <= INDEPENDENT_LIMIT[side],
        "NT-38",
        "not enough independent commands left for this attack",
        "/commands",
    )
    if side == "AL":
        corps = sum(1 for p in plans if p.kind != "unit_move")
        require(
            ctx.state.turn.corps_used + corps <= ALLIED_CORPS_LIMIT,
            "NT-37",
            "not enough Allied corps commands left for this attack",
            "/commands",
        )
    units = [u for p in plans for u in p.units]
    require(len(set(units)) == len(units), "NT-43", "a unit receives one move command", "/commands")
    return plans


def check_batteries_lead(plans: list[MovePlan], leading: list[str], why: str, path: str) -> None:
    """NT-66 with the designer's erratum (digest PUB-8): two artillery Unit Moves combine only
    when both batteries are attack leading units, so never in a feint or a move-in."""
    if len(plans) == 2 and all(p.kind == "unit_move" for p in plans):
        require(
            all(p.units[0] in leading for p in plans),
            "NT-66",
            f"two artillery Unit Moves combine only when both batteries lead the attack{why}",
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


# ----------------------------------------------------------------------------- step (1)


def threaten(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """Step (1), NT-70: the attacker names the approach (and may announce a Guard attack)."""
    state, board = ctx.state, ctx.board
    require(not is_night(ctx), "NT-117", "no attacks take place in the night round")
    att_loc = P.req_int(p, "attack_locale")
    app = P.req_str(p, "approach")
    require(att_loc in board.locales, "NT-64", f"locale {att_loc} does not exist", "/attack_locale")
    require(
        app in board.approaches_of(att_loc),
        "NT-64",
        f"{app} is not an approach of locale {att_loc}",
        "/approach",
    )
    require(not board.approaches[app].impassable, "NT-46", f"{app} is impassable", "/approach")
    def_loc = board.other_locale(app, att_loc)
    require(
        occupant(state, def_loc) == other(side),
        "NT-64",
        f"locale {def_loc} holds no enemy pieces",
        "/approach",
    )
    require(
        app not in state.turn.closed,
        "NT-100",
        f"after a feint or a failed attack no further attack crosses {app} this turn",
        "/approach",
    )
    guard = P.boolean(p, "guard_attack")
    shown = P.string(p, "show_guard", required=False)
    if guard:
        require(
            not state.guard_banned[side],
            "NT-127",
            "after a failed Guard attack no more Guard attacks",
            "/guard_attack",
        )
        require(
            not board.side(app, att_loc).obstructed,
            "NT-125",
            "a Guard attack cannot be made across an obstructed attack approach",
            "/guard_attack",
        )
        g = state.units.get(shown or "")
        require(
            g is not None
            and g.side == side
            and g.type == "GUARD"
            and g.where == MAP
            and g.loc == att_loc
            and g.app in (None, app)
            and not g.fixed
            and g.moves < (2 if g.arrived and side == "F" else 1),
            "NT-124",
            "show one Guard unit that can attack across this approach",
            "/show_guard",
        )
        require(
            bool(options_moving(ctx, side, att_loc, app, str(shown))),
            "NT-124",
            f"no command left could carry {shown} into this attack (AMB-31)",
            "/show_guard",
        )
        require(
            any(
                not spec_barred(ctx, side, def_loc, spec)
                for spec in options_moving(ctx, side, att_loc, app, str(shown))
            ),
            "NT-54" if def_loc not in state.turn.conquered else "NT-101",
            f"a Guard attack is never a feint (NT-125) and, if it won, would have to advance into "
            f"locale {def_loc}, which no piece of yours may enter this turn",
            "/guard_attack",
        )
    else:
        require(shown is None, "NT-124", "a Guard is shown only for a Guard attack", "/show_guard")

    # AMB-17: the threat must be backed by a legal attack command (on A's own knowledge),
    # whether the defender stands or vacates: an attack from the attack locale, or a road attack
    # of cavalry (NT-68), a feint if he stands. Which one is told only at the announcement
    # (NT-70, L335): nothing here depends on it. (AMB-31 for the Guard shown: checked above.)
    def by_road() -> bool:
        return not guard and bool(road_attack.road_attacks(ctx, side, att_loc, app, enter=True))

    if occupant(state, att_loc) != side:
        require(
            by_road(),
            "NT-64",
            f"you have no pieces in locale {att_loc}, and no cavalry of yours could attack "
            f"across {app} from it by road (NT-68)",
            "/attack_locale",
        )
    elif (
        not (attack_options(ctx, side, att_loc, app) and vacate_options(ctx, side, att_loc, app))
        and not by_road()
    ):
        require(
            bool(attack_options(ctx, side, att_loc, app)),
            "NT-70",
            "no piece of yours could carry out an attack across this approach (AMB-17)",
            "/approach",
        )
        raise Illegal(
            "NT-70",
            f"if the defender vacated, no piece of yours could enter locale {def_loc} this turn "
            "(NT-54, NT-101) and no artillery attack is possible (AMB-17)",
            "/approach",
        )
    atk = Attack(
        id=state.next_attack_id,
        attacker=side,
        att_locale=att_loc,
        def_locale=def_loc,
        approach=app,
        step="defense",
        guard_attack=guard,
        guard_shown=shown,
    )
    state.next_attack_id += 1
    state.attack = atk
    state.turn.commands.append(
        {"kind": "threaten", "attack": atk.id, "approach": app, "from": att_loc}
    )
    ctx.log(
        f"Attack {atk.id}: {'French' if side == 'F' else 'Allied'} threat from locale {att_loc} "
        f"against locale {def_loc} across {app}{' (Guard attack)' if guard else ''}."
    )
    if guard and shown:
        state.units[shown].revealed = True
        ctx.log("Guard shown: ", U(shown, face=True), ".")
    ask(ctx, other(side), "defend", {"attack": atk.id})


# ----------------------------------------------------------------------------- step (2)


def barred(u: Unit, atk: Attack) -> bool:
    """NT-72: named against another approach this turn, or retreated after combat this turn."""
    return u.retreated or any(a != atk.approach for a in u.named_via)


def nameable(ctx: Ctx, atk: Attack) -> tuple[list[str], list[str], list[str]]:
    """(must-name blockers, may-name reserve units, may-name reserve commanders)."""
    state = ctx.state
    d = other(atk.attacker)
    blockers = [u for u in units_in(state, atk.def_locale, d) if u.app == atk.approach]
    must = sorted(u.id for u in blockers if not barred(u, atk))
    must += sorted(c.id for c in commanders_in(state, atk.def_locale, d) if c.app == atk.approach)
    if blockers:
        return must, [], []
    reserve = sorted(
        u.id for u in units_in(state, atk.def_locale, d) if u.app is None and not barred(u, atk)
    )
    cmds = sorted(c.id for c in commanders_in(state, atk.def_locale, d) if c.app is None)
    return [], reserve, cmds


def check_named(ctx: Ctx, atk: Attack, named: list[str]) -> None:
    """NT-72 naming rules."""
    state = ctx.state
    must, reserve, cmds = nameable(ctx, atk)
    if must:
        require(
            sorted(named) == sorted(must),
            "NT-72",
            "name exactly the pieces blocking the defense approach (all of them)",
            "/named",
        )
        return
    for pid in named:
        require(
            pid in reserve or pid in cmds,
            "NT-72",
            f"{pid} cannot be named against this attack",
            "/named",
        )
    units = [state.units[x] for x in named if x in state.units]
    require(bool(units), "NT-71", "name at least one defending unit, or vacate", "/named")
    require(
        sum(1 for u in units if u.corps is None) <= 1,
        "NT-72",
        "at most one detached unit may be named",
        "/named",
    )
    for cid in (x for x in named if x in state.commanders):
        require(
            any(u.corps == cid for u in units),
            "NT-72",
            f"{cid} cannot be named without a unit of his corps (AMB-18)",
            "/named",
        )


def check_def_leading(ctx: Ctx, atk: Attack, named: list[str], leading: list[str]) -> None:
    """NT-79: 0-2 (wide) or 0-1 (narrow) named units; reserve pairs same type and corps."""
    state = ctx.state
    dside = def_side_of(ctx, atk)
    require(
        len(leading) <= dside.width,
        "NT-79",
        f"at most {dside.width} defense leading unit(s) across this approach",
        "/leading",
    )
    for uid in leading:
        require(
            uid in named and uid in state.units, "NT-79", f"{uid} is not a named unit", "/leading"
        )
        u = state.units[uid]
        reserve = u.app is None
        if santon_battery(ctx, u):
            continue
        require(
            not (reserve and u.strength == 1),
            "NT-79",
            f"{uid} has strength 1 and stands in reserve: it cannot lead",
            "/leading",
        )
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            "cavalry cannot lead across an obstructed defense approach",
            "/leading",
        )
        require(
            not (u.type == "ART" and state.options.get("santon") and u.loc == ctx.board.santon),
            "NT-137",
            "artillery on the Santon cannot lead (except the fixed battery)",
            "/leading",
        )
    if len(leading) == 2:
        a, b = (state.units[x] for x in leading)
        if a.app is None and b.app is None:
            require(
                same_type(a, b, guard_with_inf=True) and a.corps is not None and a.corps == b.corps,
                "NT-79",
                "two reserve leading units must be of the same type and corps",
                "/leading",
            )


def defend(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:  # NT-67: uses no command
    atk = current(ctx)
    named = P.strings(p, "named", required=True)
    leading = P.strings(p, "leading")
    check_named(ctx, atk, named)
    check_def_leading(ctx, atk, named, leading)
    state = ctx.state
    must, _, _ = nameable(ctx, atk)
    atk.named = sorted(named)
    atk.def_blocking = bool(must)
    atk.committed_leading = sorted(leading)
    for uid in named:
        if uid in state.units and atk.approach not in state.units[uid].named_via:
            state.units[uid].named_via.append(atk.approach)
    units = [x for x in atk.named if x in state.units]
    cmds = [x for x in atk.named if x in state.commanders]
    ctx.log(
        f"Attack {atk.id}: the defender stands with ",
        *names(units),
        f"{' and ' + ', '.join(cmds) if cmds else ''}.",
    )
    ctx.private(
        side,
        f"Attack {atk.id}: defense leading units committed: ",
        *names(atk.committed_leading),
        ".",
    )
    if atk.guard_attack:
        reveal_defense(ctx, atk)  # NT-125: a Guard attack cannot be a feint
        return
    atk.step = "feint"
    ask(ctx, atk.attacker, "feint", {"attack": atk.id})


def vacate(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-71, NT-73, NT-75: the defender leaves the locale; a retreat, then A declares."""
    atk = current(ctx)
    must, _, _ = nameable(ctx, atk)
    require(not must, "NT-73", "pieces block the defense approach: the defender must defend")
    atk.vacated = True
    ctx.log(f"Attack {atk.id}: the defender vacates locale {atk.def_locale}.")
    plan = p.get("retreat")
    if plan is None:
        atk.step = "retreat"
        ask(ctx, side, "retreat", {"attack": atk.id})
        return
    do_retreat(ctx, atk, P.obj(plan, "/retreat"))


def do_retreat(ctx: Ctx, atk: Attack, plan: dict[str, JSON]) -> None:
    retreat(ctx, atk, plan, after_combat=not atk.vacated)
    if atk.vacated:
        atk.step = "after_vacate"
        ask(ctx, atk.attacker, "after_vacate", {"attack": atk.id})
    else:
        advance(ctx, atk)


def declare_after_vacate(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-75: after a vacate the attacker declares and moves in (an artillery attack may stay)."""
    atk = current(ctx)
    raw = P.objects(p, "commands", required=True)
    if road_attack.is_road(raw):  # NT-68: the road is named only now (NT-70)
        road_attack.declare(ctx, atk, p, feint=False)
        end_attack(ctx, atk)  # NT-101: no conquest lock after a vacate
        return
    if not raw:
        # The defender's retreat may have closed the only road (AMB-13): with no command left
        # that could move in, the attacker declares none.
        require(
            not vacate_options(ctx, side, atk.att_locale, atk.approach)
            and not road_attack.road_attacks(ctx, side, atk.att_locale, atk.approach, enter=True),
            "NT-81",
            "declare the command that moves in: one still can (NT-75)",
            "/commands",
        )
        road_attack.road_blocked(ctx, atk)
        end_attack(ctx, atk)
        return
    road_attack.close_ride(ctx)  # NT-143: another command ends an open ride-on
    plans = plan_attack_commands(ctx, atk, raw)
    artillery = P.boolean(p, "artillery")
    units = [ctx.state.units[u] for pl in plans for u in pl.units]
    check_batteries_lead(
        plans,
        [u.id for u in units] if artillery else [],
        " (units that move in after a vacate do not lead)",
        "/commands",
    )
    if atk.guard_attack:
        require(
            atk.guard_shown in {u.id for u in units},
            "NT-124",
            "the Guard shown must be among the attacking pieces (AMB-31)",
            "/commands",
        )
    cap = ctx.board.locales[atk.def_locale].capacity
    require(
        artillery or not any(u.fixed for u in units),
        "NT-24",
        "the fixed battery never moves: it attacks only in an artillery attack",
        "/commands",
    )
    if artillery:
        check_artillery_attack(ctx, atk, plans, units)
    else:
        require(
            len(units) <= cap,
            "NT-10",
            f"locale {atk.def_locale} holds at most {cap} units",
            "/commands",
        )
        require(
            not kept_out(ctx.state, atk.def_locale, [x for pl in plans for x in pieces_of(pl)]),
            "NT-54",
            f"a corps marched by road through locale {atk.def_locale}; no other piece may enter",
            "/commands",
        )
        require(
            atk.def_locale not in ctx.state.turn.conquered,
            "NT-101",
            f"locale {atk.def_locale} was won by attack this turn; no other piece may enter",
            "/commands",
        )
    spend_all(ctx, atk, plans)
    ctx.log(
        f"Attack {atk.id}: declared ",
        *names(atk.attackers),
        " (artillery attack: the guns stay)." if artillery else ", who move in.",
    )
    if not artillery:
        for u in units:
            u.loc, u.app = atk.def_locale, None
        for cid in atk.att_commanders:
            c = ctx.state.commanders[cid]
            c.loc, c.app = atk.def_locale, None
        if atk.def_locale not in ctx.state.turn.reserve_entered:
            ctx.state.turn.reserve_entered.append(atk.def_locale)
    end_attack(ctx, atk)  # NT-101: no conquest lock after a vacate


def check_artillery_attack(
    ctx: Ctx, atk: Attack, plans: list[MovePlan], leaders: list[Unit]
) -> None:
    """NT-83 (artillery leads only blocking, never by Corps Move), NT-84, NT-99."""
    state, board = ctx.state, ctx.board
    for u in leaders:
        require(
            u.type == "ART", "NT-83", "an artillery attack is led by artillery only", "/leading"
        )
        require(
            u.app == atk.approach or santon_battery(ctx, u),
            "NT-83",
            f"{u.id} must block the attack approach to lead",
            "/leading",
        )
        require(
            not (state.options.get("santon") and u.loc == board.santon and not u.fixed),
            "NT-137",
            "artillery on the Santon cannot lead (except the fixed battery)",
            "/leading",
        )
    require(
        all(p.kind != "corps_move" for p in plans),
        "NT-83",
        "artillery cannot lead an attack made by a Corps Move",
        "/commands",
    )
    require(
        atk.approach not in state.turn.artillery_attacked,
        "NT-99",
        "the second attack across this approach this turn cannot be an artillery attack",
        "/leading",
    )
    last = state.last_artillery.get(_art_key(atk))
    hill_ok = board.locales[atk.att_locale].hill and not board.locales[atk.def_locale].hill  # NT-11
    require(
        last != state.round - 1 or hill_ok,
        "NT-84",
        "no artillery attack from the same approach in two consecutive turns",
        "/leading",
    )


def _art_key(atk: Attack) -> str:
    return f"{atk.attacker}|{atk.approach}|{atk.att_locale}"


# ----------------------------------------------------------------------------- step (3)


def no_feint(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    require(
        atk.guard_attack or bool(attack_options(ctx, side, atk.att_locale, atk.approach)),
        "NT-76",
        f"only a road attack could carry out this attack from locale {atk.att_locale}, and a "
        "road attack must be declared a feint",
    )
    ctx.log(f"Attack {atk.id}: no feint.")
    reveal_defense(ctx, atk)


def declare_feint(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-76..NT-78: the attackers stay in the attack locale; the defender holds the approach."""
    atk = current(ctx)
    require(not atk.guard_attack, "NT-125", "a Guard attack cannot be a feint")
    raw = P.objects(p, "commands", required=True)
    if road_attack.is_road(raw):  # NT-68, NT-76: the road is named only now (NT-70)
        road_attack.declare(ctx, atk, p, feint=True)
        after_feint_declared(ctx, atk)
        return
    road_attack.close_ride(ctx)  # NT-143: another command ends an open ride-on
    plans = plan_attack_commands(ctx, atk, raw)
    check_batteries_lead(plans, [], " (a feint has no leading units)", "/commands")
    end = P.req_str(p, "end")
    require(end in ("block", "reserve"), "NT-77", "end is 'block' or 'reserve'", "/end")
    started_blocking = any(pl.app is not None for pl in plans)
    for uid in (u for pl in plans for u in pl.units):
        fixed = ctx.state.units[uid]
        require(
            not fixed.fixed or (fixed.app is not None) == (end == "block"),
            "NT-24",
            "the fixed battery never moves: the feint must end where it stands",
            "/end",
        )
    if started_blocking:
        require(
            end == "block",
            "NT-77",
            "pieces that started blocking end blocking the attack approach",
            "/end",
        )
    spend_all(ctx, atk, plans)
    atk.feint = True  # NT-144: ending in the starting reserve is no move into it
    app = atk.approach if end == "block" else None
    for uid in atk.attackers:
        ctx.state.units[uid].app = app
    for cid in atk.att_commanders:
        ctx.state.commanders[cid].app = app
    after_feint_declared(ctx, atk)


def after_feint_declared(ctx: Ctx, atk: Attack) -> None:
    app = ctx.state.units[atk.attackers[0]].app
    ctx.log(
        f"Attack {atk.id} is a feint by ",
        *names(atk.attackers),
        f", who end {'blocking ' + atk.approach if app else 'in reserve'}.",
    )
    if atk.def_blocking:
        finish_feint(ctx, atk)
        return
    hold_or_ask(ctx, atk, "feint_hold")


def hold_candidates(ctx: Ctx, atk: Attack) -> tuple[list[str], list[str]]:
    """Named units still in the defense reserve that may move, and named commanders there."""
    state = ctx.state
    units = [
        x
        for x in atk.named
        if x in state.units
        and state.units[x].where == MAP
        and state.units[x].loc == atk.def_locale
        and state.units[x].app is None
        and not state.units[x].fixed
        and not _last_of_unnamed(ctx, atk, x)
    ]
    cmds = [
        x
        for x in atk.named
        if x in state.commanders
        and state.commanders[x].where == MAP
        and state.commanders[x].app is None
    ]
    return units, cmds


def _last_of_unnamed(ctx: Ctx, atk: Attack, uid: str) -> bool:
    """AMB-18 (option commander_follow_requires_named, the default): a commander who was not
    named stays in reserve, and a commander never stays without a unit of his corps (NT-32), so
    the last unit of an unnamed commander's corps cannot block."""
    cid = ctx.state.units[uid].corps
    if cid is None or cid in atk.named:
        return False
    return [u.id for u in corps_units(ctx.state, cid) if u.where == MAP] == [uid]


def default_hold(ctx: Ctx, atk: Attack) -> list[str]:
    """The default answer (digest 4.7): every named reserve unit that may block, and the named
    commanders; one unit stays with each unnamed commander whose units would all go (AMB-18):
    the one first in the attacker's names, so the choice follows no hidden id."""
    state = ctx.state
    units, cmds = hold_candidates(ctx, atk)
    stay: set[str] = set()
    for c in commanders_in(state, atk.def_locale, other(atk.attacker)):
        members = [u.id for u in corps_units(state, c.id) if u.where == MAP]
        if c.app is None and c.id not in atk.named and members and set(members) <= set(units):
            stay.add(min(members, key=lambda x: shown_as(state, atk.attacker, x)))
    return [*(u for u in units if u not in stay), *cmds]


def hold_or_ask(ctx: Ctx, atk: Attack, kind: str) -> None:
    units, cmds = hold_candidates(ctx, atk)
    if not units:  # NT-142: nothing that may move; the duty lapses
        after_hold(ctx, atk, kind)
        return
    if len(units) == 1 and not cmds:  # forced by public facts (who was named is public)
        do_hold(ctx, atk, units)
        after_hold(ctx, atk, kind)
        return
    atk.step = kind
    ask(ctx, other(atk.attacker), kind, {"attack": atk.id})


def hold(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """feint_hold / hold: named reserve pieces that block the defense approach (NT-78, NT-95)."""
    atk = current(ctx)
    units, cmds = hold_candidates(ctx, atk)
    pieces = P.strings(p, "pieces", required=True)
    for x in pieces:
        require(
            x in units or x in cmds,
            "NT-78",
            f"{x} is not a named piece in the defense reserve",
            "/pieces",
        )
    moving = [x for x in pieces if x in units]
    require(
        bool(moving), "NT-78", "block the defense approach with at least one named unit", "/pieces"
    )
    kind = atk.step
    do_hold(ctx, atk, pieces)
    after_hold(ctx, atk, kind)


def do_hold(ctx: Ctx, atk: Attack, pieces: list[str]) -> None:
    """Move named reserve pieces to block; a split corps detaches the units not with their
    commander, and a commander never stays behind alone (NT-32)."""
    state = ctx.state
    moving_units = {x for x in pieces if x in state.units}
    moving_cmds = {x for x in pieces if x in state.commanders}
    for c in commanders_in(state, atk.def_locale, other(atk.attacker)):
        if c.app is not None:
            continue
        members = {u.id for u in corps_units(state, c.id) if u.where == MAP}
        if members and members <= moving_units:
            require(
                c.id in atk.named,
                "NT-32",
                f"{c.id} was not named, so he stays in reserve (AMB-18), and a commander is "
                "never left without a unit of his corps: keep one of his units with him",
                "/pieces",
            )
            moving_cmds.add(c.id)  # all his units go: the named commander goes with them
        require(
            c.id not in moving_cmds or bool(members & moving_units),
            "NT-32",
            f"{c.id} cannot block without a unit of his corps",
            "/pieces",
        )
    for uid in sorted(moving_units):
        u = state.units[uid]
        u.app = atk.approach
        if u.corps is not None and u.corps not in moving_cmds:
            u.corps = None
    for cid in sorted(moving_cmds):
        c = state.commanders[cid]
        c.app = atk.approach
        for u in corps_units(state, cid):
            if u.where == MAP and u.app is None and u.loc == atk.def_locale:
                u.corps = None
    ctx.log(
        f"Attack {atk.id}: the defender blocks {atk.approach} with ",
        *names(sorted(moving_units)),
        ".",
    )


def after_hold(ctx: Ctx, atk: Attack, kind: str) -> None:
    if kind == "feint_hold":
        finish_feint(ctx, atk)
    else:
        end_attack(ctx, atk)


def finish_feint(ctx: Ctx, atk: Attack) -> None:
    close(ctx, atk)  # NT-100
    end_attack(ctx, atk)


def close(ctx: Ctx, atk: Attack) -> None:
    if atk.approach not in ctx.state.turn.closed:
        ctx.state.turn.closed.append(atk.approach)


# ----------------------------------------------------------------------------- steps (4) to (8)


def reveal_defense(ctx: Ctx, atk: Attack) -> None:
    """Step (4), NT-80: the committed defense leading units are revealed."""
    atk.def_leading = list(atk.committed_leading)
    for uid in atk.def_leading:
        ctx.state.units[uid].revealed = True
    ctx.log(f"Attack {atk.id}: defense leading units ", *names(atk.def_leading, face=True), ".")
    atk.step = "declare"
    ask(ctx, atk.attacker, "declare", {"attack": atk.id})


def declare_attack(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """Step (5), NT-81..NT-85."""
    state, board = ctx.state, ctx.board
    atk = current(ctx)
    road_attack.close_ride(ctx)  # NT-143: another command ends an open ride-on
    plans = plan_attack_commands(ctx, atk, P.objects(p, "commands", required=True))
    attackers = sorted({u for pl in plans for u in pl.units})
    cap = board.locales[atk.def_locale].capacity
    require(
        len(attackers) <= cap,
        "NT-81",
        f"the attacking units could not advance: locale {atk.def_locale} holds at most {cap}",
        "/commands",
    )
    if atk.guard_attack:
        require(
            atk.guard_shown in attackers,
            "NT-124",
            "the Guard shown must attack (AMB-31)",
            "/commands",
        )
    aside = att_side_of(ctx, atk)
    width_s = P.string(p, "width", required=False) or "narrow"
    require(width_s in ("narrow", "wide"), "NT-82", "width is 'narrow' or 'wide'", "/width")
    width = 2 if width_s == "wide" else 1
    require(
        width <= aside.width,
        "NT-82",
        "across a narrow attack approach the front is narrow",
        "/width",
    )
    target_ref = P.string(p, "target", required=False)  # the attacker names it by its alias
    target = None if target_ref is None else resolve(state, atk.attacker, target_ref) or "?"
    if width == 1 and len(atk.def_leading) == 2:
        require(
            target in atk.def_leading,
            "NT-82",
            "with a narrow front against two leading units, pick one as the target (its alias)",
            "/target",
        )
    else:
        require(
            target is None,
            "NT-82",
            "a target is picked only with a narrow front against two",
            "/target",
        )
    leading = P.strings(p, "leading")
    check_batteries_lead(plans, leading, "", "/leading")
    check_att_leading(ctx, atk, plans, attackers, leading, width)
    for uid in attackers:
        require(
            not state.units[uid].fixed or uid in leading,
            "NT-24",
            f"{uid} is the fixed battery: it never moves, so it attacks only leading an "
            "artillery attack",
            "/leading",
        )
    check_move_in(ctx, atk, plans, leading)
    spend_all(ctx, atk, plans)
    atk.width = width
    atk.att_leading = sorted(leading)
    if target is not None:
        atk.target = target
        for uid in atk.def_leading:
            if uid != target:
                state.units[uid].revealed = False  # NT-82 / AMB-20: no longer leading, hidden again
        atk.def_leading = [target]
    atk.artillery = bool(leading) and all(state.units[u].type == "ART" for u in leading)
    for uid in atk.att_leading:
        state.units[uid].revealed = True  # NT-85
    ctx.log(
        f"Attack {atk.id}: declared by ",
        *names(atk.attackers),
        f"; {width_s} front; leading ",
        *names(atk.att_leading, face=True),
        *((" against ", U(target, face=True)) if target else ()),
        " (artillery attack)." if atk.artillery else ".",
    )
    if atk.artillery:
        state.last_artillery[_art_key(atk)] = state.round
        state.turn.artillery_attacked.append(atk.approach)
    # Elite commitment at the end of step (5): attack leaders and the defense leaders left.
    commit_elite(ctx, [state.units[u] for u in atk.att_leading], "leads the attack")
    commit_elite(ctx, [state.units[u] for u in atk.def_leading], "leads the defense")
    preliminary(ctx, atk)


def check_move_in(ctx: Ctx, atk: Attack, plans: list[MovePlan], leading: list[str]) -> None:
    """NT-94 (L439): if it wins, an attack that is no artillery attack MUST advance into the
    defense locale, so its pieces must be allowed to enter it: not road-locked against them
    (NT-54(b), L287) nor won by attack this turn (NT-101, L459). An artillery attack moves nobody
    (NT-93) and a feint never moves in."""
    state = ctx.state
    if leading and all(state.units[u].type == "ART" for u in leading):
        return
    rule = entry_barred(state, atk.def_locale, [x for pl in plans for x in pieces_of(pl)])
    require(
        rule is None,
        rule or "NT-54",
        f"if it won, this attack would have to advance into locale {atk.def_locale}, which "
        + (
            "a corps marched through by road this turn: no other piece may enter it"
            if rule == "NT-54"
            else "was won by attack this turn: no other piece may enter it"
        )
        + "; only an artillery attack (the guns stay) can be made",
        "/commands",
    )


def check_att_leading(
    ctx: Ctx,
    atk: Attack,
    plans: list[MovePlan],
    attackers: list[str],
    leading: list[str],
    width: int,
) -> None:
    state = ctx.state
    dside = def_side_of(ctx, atk)
    require(
        len(leading) <= width,
        "NT-83",
        f"at most {width} attack leading unit(s) with this front",
        "/leading",
    )
    for uid in leading:
        require(uid in attackers, "NT-83", f"{uid} is not an attacking unit", "/leading")
        u = state.units[uid]
        require(
            not (u.type in ("INF", "GUARD", "CAV") and u.strength == 1),
            "NT-83",
            f"{uid} has strength 1 and cannot lead",
            "/leading",
        )
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            "cavalry cannot lead across an obstructed defense approach",
            "/leading",
        )
    units = [state.units[u] for u in leading]
    if len(units) == 2:
        require(
            same_type(units[0], units[1], guard_with_inf=False),
            "NT-83",
            "two leading units must be of the same type (Guard and infantry do not mix, NT-123)",
            "/leading",
        )
    if any(u.type == "ART" for u in units):
        check_artillery_attack(ctx, atk, plans, units)
    if atk.guard_attack:
        require(
            any(u.type == "GUARD" for u in units),
            "NT-125",
            "a Guard attack is led by Guard",
            "/leading",
        )


def santon_reserve_front(ctx: Ctx, atk: Attack) -> bool:
    """NT-139 (L654): while the fixed battery stands on the Santon, the Santon's printed attack
    penalties apply also when the defense leading units stand in its reserve, whoever they are
    (AMB-36: only the printed symbols; the infantry -1 and the tie rule still need blockers)."""
    state = ctx.state
    if atk.def_locale != ctx.board.santon or not atk.def_leading:
        return False
    battery = any(santon_battery(ctx, u) and u.where == MAP for u in state.units.values())
    return battery and all(state.units[u].app is None for u in atk.def_leading)


def preliminary(ctx: Ctx, atk: Attack) -> None:
    """Step (6), NT-86, NT-87."""
    state = ctx.state
    dside = def_side_of(ctx, atk)
    lead = [state.units[u] for u in atk.att_leading]
    r = sum(u.strength for u in lead)
    santon_special = santon_reserve_front(ctx, atk)
    if lead:
        kind = lead[0].type
        if is_infantry(lead[0]) and atk.def_blocking:
            r -= 1
        sym = {"INF": "I", "GUARD": "I", "CAV": "C", "ART": "A"}[kind]
        if sym in dside.penalties and (atk.def_blocking or santon_special):  # NT-139
            r -= 1
    if not atk.artillery:
        for uid in atk.def_leading:
            s = state.units[uid].strength
            r -= s - 1 if atk.guard_attack and s <= 2 else s  # NT-126
    atk.prelim = r
    atk.prelim_winner = winner(ctx, atk, r)
    ctx.log(
        f"Attack {atk.id}: preliminary result {r:+d}; "
        f"{'the attacker' if atk.prelim_winner == atk.attacker else 'the defender'} leads."
    )
    if atk.artillery or not counter_candidates(ctx, atk):
        final(ctx, atk)  # step (7) is skipped only on public facts (digest 4.6)
        return
    atk.step = "counter"
    ask(ctx, other(atk.attacker), "counter", {"attack": atk.id})


def winner(ctx: Ctx, atk: Attack, r: int) -> str:
    """NT-87 (AMB-24: named units against declared attacking units; ties to the French)."""
    if r > 0:
        return atk.attacker
    if r < 0 or atk.def_blocking:
        return other(atk.attacker)
    n_att = len(atk.attackers)
    n_def = len([x for x in atk.named if x in ctx.state.units])
    if n_att != n_def:
        return atk.attacker if n_att > n_def else other(atk.attacker)
    return "F"


def counter_candidates(ctx: Ctx, atk: Attack) -> list[str]:
    """Named units that are not current leading units and are still in the locale (public)."""
    return [
        x
        for x in atk.named
        if x in ctx.state.units and x not in atk.def_leading and ctx.state.units[x].where == MAP
    ]


def counter(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """Step (7), NT-88."""
    state = ctx.state
    atk = current(ctx)
    units = P.strings(p, "units")
    require(len(units) <= 2, "NT-88", "1 or 2 units counter-attack", "/units")
    cands = counter_candidates(ctx, atk)
    dside = def_side_of(ctx, atk)
    for uid in units:
        require(uid in cands, "NT-88", f"{uid} was not named, or is a leading unit", "/units")
        u = state.units[uid]
        require(u.type != "ART", "NT-88", "artillery never counter-attacks", "/units")
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            "cavalry cannot counter-attack across an obstructed defense approach",
            "/units",
        )
        require(
            not (is_infantry(u) and atk.prelim_winner != atk.attacker),
            "NT-88",
            "infantry counter-attacks only when the attacker is the preliminary winner",
            "/units",
        )
    if len(units) == 2:
        a, b = (state.units[x] for x in units)
        require(
            a.type == b.type and a.corps is not None and a.corps == b.corps,
            "NT-88",
            "two counter-attacking units are of the same type and corps (AMB-25, NT-123)",
            "/units",
        )
    atk.counter = list(units)
    if units:
        for uid in units:
            state.units[uid].revealed = True
        ctx.log(f"Attack {atk.id}: counter-attack by ", *names(units, face=True), ".")
        commit_elite(ctx, [state.units[u] for u in units], "counter-attacks")
        for uid in units:
            lost = take_loss(ctx, state.units[uid], 1, "counter-attack")
            atk.lost[side] = atk.lost.get(side, 0) + lost
    else:
        ctx.log(f"Attack {atk.id}: no counter-attack.")
    final(ctx, atk)


def final(ctx: Ctx, atk: Attack) -> None:
    """Step (8), NT-89; NT-127 for a failed Guard attack."""
    state = ctx.state
    assert atk.prelim is not None
    reduced = sum(state.units[u].strength for u in atk.counter if state.units[u].where == MAP)
    f = atk.prelim - reduced
    atk.final = f
    atk.winner = winner(ctx, atk, f)
    ctx.log(
        f"Attack {atk.id}: final result {f:+d}; "
        f"{'the attacker' if atk.winner == atk.attacker else 'the defender'} wins."
    )
    if atk.guard_attack and atk.winner != atk.attacker:
        state.guard_banned[atk.attacker] = True
        lose_morale(ctx, atk.attacker, GUARD_FAIL_MORALE, "failed Guard attack")
    start_losses(ctx, atk)


# ----------------------------------------------------------------------------- steps (9), (10)


def start_losses(ctx: Ctx, atk: Attack) -> None:
    state = ctx.state
    a, d = atk.attacker, other(atk.attacker)
    assert atk.final is not None
    f = atk.final
    queue: list[JSON] = []
    if not atk.artillery:  # NT-90
        la = len(atk.def_leading) + max(0, -f)
        queue.append(
            job(
                a,
                la,
                [
                    tier(atk.att_leading, "even", d, "attacker loss"),
                    tier(atk.attackers, "free", a, "attacker loss"),
                ],
            )
        )
    lead = [state.units[u] for u in atk.att_leading]
    a_pts = sum(1 for u in lead if u.type in ("INF", "GUARD", "CAV"))
    c_pts = 0 if atk.artillery else sum(1 for u in atk.def_leading if state.units[u].type == "ART")
    ld = max(0, a_pts + max(0, f) - c_pts)  # NT-91
    def_lead_ic = [u for u in atk.def_leading if state.units[u].type != "ART"]
    named_units = [x for x in atk.named if x in state.units]
    third = [x for x in named_units if not (state.units[x].type == "ART" and x in atk.def_leading)]
    third_tiers = [tier(third, "free", d, "defender loss")]
    third_tiers.append(tier(named_units, "free", d, "defender loss"))  # AMB-26: then the artillery
    queue.append(
        job(
            d,
            ld,
            [
                tier(def_lead_ic, "even", a, "defender loss"),
                tier(atk.counter, "even", a, "defender loss"),
                *third_tiers,
            ],
        )
    )
    atk.losses = {"queue": queue}
    atk.step = "losses"
    continue_losses(ctx, atk)


def _queue(atk: Attack) -> list[JSON]:
    assert atk.losses is not None
    q = atk.losses["queue"]
    assert isinstance(q, list)
    return q


def continue_losses(ctx: Ctx, atk: Attack) -> None:
    pending = run_queue(ctx, _queue(atk), atk.lost)
    if pending is not None:
        pending.data["attack"] = atk.id
        ctx.state.pending = pending
        return
    conclude(ctx, atk)


def place_odd_loss(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    pending = ctx.state.pending
    assert pending is not None
    answer_odd(ctx, _queue(atk), pending, p, atk.lost)
    continue_losses(ctx, atk)


def assign_losses(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    pending = ctx.state.pending
    assert pending is not None
    answer_assign(ctx, _queue(atk), pending, p, atk.lost)
    continue_losses(ctx, atk)


# ----------------------------------------------------------------------------- step (11)


def conclude(ctx: Ctx, atk: Attack) -> None:
    """Morale for the loser (NT-111, NT-114), then step (11) (NT-93..NT-96)."""
    state = ctx.state
    loser = other(atk.winner or atk.attacker)
    if not atk.artillery and atk.winner == atk.attacker:
        # NT-120(c), NT-122(c), L582/L588: every defending unit must now retreat (NT-103), and
        # the elite extra comes "vor und zusätzlich zu allen anderen Moralverlusten": before the
        # combat loss below, not when the retreat plan is carried out (there it is then free).
        fresh = [
            u
            for u in units_in(state, atk.def_locale, loser)
            if (kind := elite_kind(u)) is not None and kind not in state.elite_committed[loser]
        ]
        for u in fresh:
            u.revealed = True  # a moment early: every retreating unit is revealed (NT-104)
        commit_elite(ctx, fresh, "retreats")
    lose_morale(
        ctx, loser, atk.lost.get(loser, 0), f"lost attack {atk.id}", floor=1 if atk.artillery else 0
    )
    if atk.artillery:  # NT-93: nobody moves
        end_attack(ctx, atk)
        return
    if atk.winner == atk.attacker:  # NT-94: the defenders retreat, then the attackers advance
        d = other(atk.attacker)
        if units_in(state, atk.def_locale, d) or commanders_in(state, atk.def_locale, d):
            atk.step = "retreat"
            ask(ctx, d, "retreat", {"attack": atk.id})
            return
        advance(ctx, atk)
        return
    # NT-95: the defender won.
    close(ctx, atk)  # NT-100
    for uid in alive(ctx, atk.attackers):
        state.units[uid].app = None  # fall back into the attack reserve
    for cid in atk.att_commanders:
        if state.commanders[cid].where == MAP:
            state.commanders[cid].app = None
    need = [
        cid
        for cid in atk.att_commanders
        if len([u for u in corps_units(state, cid) if u.where == MAP]) > 1
    ]
    if need:
        atk.step = "anchor"
        ask(ctx, atk.attacker, "anchor", {"attack": atk.id, "corps": list(need)})
        return
    after_anchor(ctx, atk)


def choose_anchor(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-95: every attacking corps detaches all units but one; the attacker picks which stays."""
    state = ctx.state
    atk = current(ctx)
    anchors = P.mapping(p, "anchors")
    need = [
        cid
        for cid in atk.att_commanders
        if len([u for u in corps_units(state, cid) if u.where == MAP]) > 1
    ]
    for cid in need:
        members = [u.id for u in corps_units(state, cid) if u.where == MAP]
        raw = anchors.get(cid)
        require(
            isinstance(raw, str) and raw in members,
            "NT-95",
            f"name the unit that stays with {cid}",
            f"/anchors/{cid}",
        )
    for cid in need:
        keep = anchors[cid]
        for u in corps_units(state, cid):
            if u.where == MAP and u.id != keep:
                u.corps = None
    ctx.log(f"Attack {atk.id}: the attacking corps keep one unit each.")
    after_anchor(ctx, atk)


def after_anchor(ctx: Ctx, atk: Attack) -> None:
    if atk.def_blocking:
        end_attack(ctx, atk)
        return
    hold_or_ask(ctx, atk, "hold")


def advance(ctx: Ctx, atk: Attack) -> None:
    """NT-94: the attackers enter the defense reserve; NT-101: nobody else may enter this turn."""
    state = ctx.state
    for uid in alive(ctx, atk.attackers):
        u = state.units[uid]
        u.loc, u.app = atk.def_locale, None
    for cid in atk.att_commanders:
        c = state.commanders[cid]
        if c.where == MAP:
            c.loc, c.app = atk.def_locale, None
    ctx.log(f"Attack {atk.id}: the attackers advance into locale {atk.def_locale}.")
    if atk.def_locale not in state.turn.conquered:
        state.turn.conquered.append(atk.def_locale)
    if atk.def_locale not in state.turn.reserve_entered:
        state.turn.reserve_entered.append(atk.def_locale)
    end_attack(ctx, atk)


def end_attack(ctx: Ctx, atk: Attack) -> None:
    """NT-96: all units are hidden again; the attack is over."""
    hide_all(ctx)
    ctx.state.attack = None
    ctx.state.pending = None
    ctx.log(f"Attack {atk.id} is over.")


def answer_retreat(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    do_retreat(ctx, atk, p)
