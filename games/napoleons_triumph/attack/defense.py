"""Step (2), the defender's answer (NT-71..NT-75), and step (4), the defense leading units (NT-79,
NT-80). The defender names his defending pieces (NT-72, NT-73, NT-74, AMB-18) and commits his
leading units with them (NT-79, NT-69, NT-137, AMB-19; revealed in step (4), NT-80), or vacates
by a retreat (NT-71, NT-75); after a vacate the attacker declares and moves in, or makes an
artillery attack whose guns stay (NT-75), or a road attack that may ride on (NT-68, NT-98).

Team play (digest napoleons-triumph-team.md 2.8): the bundled leading units stand only if the
decision authority stays with the seat that named (NT-TEAM-41..43); otherwise the bundle is
discarded unopened and step (4) opens the `defense_leading` decision for the seat that now holds
the authority (answered by `lead_defense`). Two-player games always keep the bundle.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core.i18n import T
from games.core.protocol import JSON, OMNISCIENT, LogEntry
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import road_attack
from games.napoleons_triumph.attack.attackers import (
    check_artillery_attack,
    check_batteries_lead,
    plan_attack_commands,
    spend_all,
    vacate_options,
)
from games.napoleons_triumph.attack.common import (
    ask,
    current,
    def_side_of,
    end_attack,
    names,
    same_type,
    santon_battery,
)
from games.napoleons_triumph.attack.conclusion import do_retreat
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.context import Ctx, line, render
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.movement import kept_out, pieces_of
from games.napoleons_triumph.pieces import commanders_in, units_in
from games.napoleons_triumph.state import Attack, GameState, Unit, other


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
            T("name exactly the pieces blocking the defense approach (all of them)"),
            "/named",
        )
        return
    for pid in named:
        require(
            pid in reserve or pid in cmds,
            "NT-72",
            T("{piece} cannot be named against this attack", piece=pid),
            "/named",
        )
    units = [state.units[x] for x in named if x in state.units]
    require(bool(units), "NT-71", T("name at least one defending unit, or vacate"), "/named")
    require(
        sum(1 for u in units if u.corps is None) <= 1,
        "NT-72",
        T("at most one detached unit may be named"),
        "/named",
    )
    for cid in (x for x in named if x in state.commanders):
        require(
            any(u.corps == cid for u in units),
            "NT-72",
            T("{commander} cannot be named without a unit of his corps (AMB-18)", commander=cid),
            "/named",
        )


def check_def_leading(ctx: Ctx, atk: Attack, named: list[str], leading: list[str]) -> None:
    """NT-79: 0-2 (wide) or 0-1 (narrow) named units; reserve pairs same type and corps."""
    state = ctx.state
    dside = def_side_of(ctx, atk)
    require(
        len(leading) <= dside.width,
        "NT-79",
        T("at most {n} defense leading unit(s) across this approach", n=dside.width),
        "/leading",
    )
    for uid in leading:
        require(
            uid in named and uid in state.units,
            "NT-79",
            T("{unit} is not a named unit", unit=uid),
            "/leading",
        )
        u = state.units[uid]
        reserve = u.app is None
        if santon_battery(ctx, u):
            continue
        require(
            not (reserve and u.strength == 1),
            "NT-79",
            T("{unit} has strength 1 and stands in reserve: it cannot lead", unit=uid),
            "/leading",
        )
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            T("cavalry cannot lead across an obstructed defense approach"),
            "/leading",
        )
        require(
            not (u.type == "ART" and state.options.get("santon") and u.loc == ctx.board.santon),
            "NT-137",
            T("artillery on the Santon cannot lead (except the fixed battery)"),
            "/leading",
        )
    if len(leading) == 2:
        a, b = (state.units[x] for x in leading)
        if a.app is None and b.app is None:
            require(
                same_type(a, b, guard_with_inf=True) and a.corps is not None and a.corps == b.corps,
                "NT-79",
                T("two reserve leading units must be of the same type and corps"),
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
        *line(
            T("Attack {attack}: the defender stands with {units} and {commanders}.")
            if cmds
            else T("Attack {attack}: the defender stands with {units}."),
            attack=atk.id,
            units=names(units),
            commanders=", ".join(cmds),
        )
    )
    if bundle_stands(ctx):
        ctx.private(
            side,
            *line(
                T("Attack {attack}: defense leading units committed: {units}."),
                attack=atk.id,
                units=names(atk.committed_leading),
            ),
        )
    else:  # NT-TEAM-41, -43: discarded unopened; only the audit (omniscient) reads it
        parts = line(
            T("Attack {attack}: defense leading units bundle discarded (NT-TEAM-41): {units}."),
            attack=atk.id,
            units=names(atk.committed_leading),
        )
        ctx.entries.append(LogEntry(render(ctx.state, None, parts), frozenset({OMNISCIENT})))
        atk.committed_leading = []
    if atk.guard_attack:
        reveal_defense(ctx, atk)  # NT-125: a Guard attack cannot be a feint
        return
    atk.step = "feint"
    ask(ctx, atk.attacker, "feint", {"attack": atk.id})


def vacate(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-71, NT-73, NT-75: the defender leaves the locale; a retreat, then A declares."""
    atk = current(ctx)
    must, _, _ = nameable(ctx, atk)
    require(not must, "NT-73", T("pieces block the defense approach: the defender must defend"))
    atk.vacated = True
    ctx.log(
        T(
            "Attack {attack}: the defender vacates locale {locale}.",
            attack=atk.id,
            locale=atk.def_locale,
        )
    )
    plan = p.get("retreat")
    if plan is None:
        atk.step = "retreat"
        ask(ctx, side, "retreat", {"attack": atk.id})
        return
    do_retreat(ctx, atk, P.obj(plan, "/retreat"))


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
            T("declare the command that moves in: one still can (NT-75)"),
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
        T(
            "two artillery Unit Moves combine only when both batteries lead the attack (units "
            "that move in after a vacate do not lead)"
        ),
        "/commands",
    )
    if atk.guard_attack:
        require(
            atk.guard_shown in {u.id for u in units},
            "NT-124",
            T("the Guard shown must be among the attacking pieces (AMB-31)"),
            "/commands",
        )
    cap = ctx.board.locales[atk.def_locale].capacity
    require(
        artillery or not any(u.fixed for u in units),
        "NT-24",
        T("the fixed battery never moves: it attacks only in an artillery attack"),
        "/commands",
    )
    if artillery:
        check_artillery_attack(ctx, atk, plans, units)
    else:
        require(
            len(units) <= cap,
            "NT-10",
            T(
                "locale {locale} holds at most {capacity} units",
                locale=atk.def_locale,
                capacity=cap,
            ),
            "/commands",
        )
        require(
            not kept_out(ctx.state, atk.def_locale, [x for pl in plans for x in pieces_of(pl)]),
            "NT-54",
            T(
                "a corps marched by road through locale {locale}; no other piece may enter",
                locale=atk.def_locale,
            ),
            "/commands",
        )
        require(
            atk.def_locale not in ctx.state.turn.conquered,
            "NT-101",
            T(
                "locale {locale} was won by attack this turn; no other piece may enter",
                locale=atk.def_locale,
            ),
            "/commands",
        )
    spend_all(ctx, atk, plans)
    ctx.log(
        *line(
            T("Attack {attack}: declared {units} (artillery attack: the guns stay).")
            if artillery
            else T("Attack {attack}: declared {units}, who move in."),
            attack=atk.id,
            units=names(atk.attackers),
        )
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


# NT-TEAM-41: in a team game the team layer (team/engine.py, above the engine, which may not
# import it) judges whether the S2 bundle stands; it registers its judge when it is imported.
BundleJudge = Callable[[GameState, Board], bool]
_JUDGE: list[BundleJudge] = []


def judge_bundles_with(judge: BundleJudge) -> None:
    """Registers the team layer's judge of NT-TEAM-41 (one; a new one replaces it)."""
    _JUDGE[:] = [judge]


def bundle_stands(ctx: Ctx) -> bool:
    """NT-TEAM-41: whether the leading units bundled with the step-(2) answer stand (always in
    a two-player game; in team play only if the authority stayed with the seat that named,
    NT-TEAM-42/43). Derived from public facts only (who was named), so it is the same at step
    (2) and at step (4)."""
    if ctx.state.team is None:
        return True
    if not _JUDGE:
        raise RuntimeError("a team game needs the team layer (team/engine.py) to judge bundles")
    return _JUDGE[0](ctx.state, ctx.board)


def reveal_defense(ctx: Ctx, atk: Attack) -> None:
    """Step (4), NT-80: the committed defense leading units are revealed; in team play, after
    the bundle was discarded (NT-TEAM-41), the seat now holding the authority chooses them
    first (NT-TEAM-43)."""
    if not bundle_stands(ctx):
        atk.step = "defense_leading"
        ask(ctx, other(atk.attacker), "defense_leading", {"attack": atk.id})
        return
    open_defense(ctx, atk)


def lead_defense(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-TEAM-41, NT-TEAM-43: the step-(4) leading units chosen by the seat that now holds the
    authority, under the same rules as the bundle (NT-79, NT-69, NT-137); revealed at once."""
    atk = current(ctx)
    leading = P.strings(p, "leading")
    check_def_leading(ctx, atk, atk.named, leading)
    atk.committed_leading = sorted(leading)
    open_defense(ctx, atk)


def open_defense(ctx: Ctx, atk: Attack) -> None:
    """NT-80: the committed defense leading units are revealed; the attacker declares."""
    atk.def_leading = list(atk.committed_leading)
    for uid in atk.def_leading:
        ctx.state.units[uid].revealed = True
    ctx.log(
        *line(
            T("Attack {attack}: defense leading units {units}."),
            attack=atk.id,
            units=names(atk.def_leading, face=True),
        )
    )
    atk.step = "declare"
    ask(ctx, atk.attacker, "declare", {"attack": atk.id})
