"""Step (5), the attack declaration (NT-81..NT-85): the command(s) and attacking pieces (NT-65,
NT-66, NT-81), the width and the target of a narrow front (NT-82, AMB-20), the attack leading
units (NT-83, NT-69, NT-123, NT-125; the artillery attack, NT-84, NT-99), revealed (NT-85); an
attack that must advance if it wins must be allowed to enter (NT-94, NT-54, NT-101). The elite
units commit at its end (NT-120, NT-122); the combat follows (`resolution`).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import road_attack
from games.napoleons_triumph.attack.attackers import (
    art_key,
    check_artillery_attack,
    check_batteries_lead,
    plan_attack_commands,
    spend_all,
)
from games.napoleons_triumph.attack.common import (
    att_side_of,
    current,
    def_side_of,
    names,
    same_type,
)
from games.napoleons_triumph.attack.resolution import preliminary
from games.napoleons_triumph.commands import MovePlan
from games.napoleons_triumph.context import Ctx, U, line, resolve
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.morale import commit_elite
from games.napoleons_triumph.movement import entry_barred, pieces_of
from games.napoleons_triumph.state import Attack


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
        T(
            "the attacking units could not advance: locale {locale} holds at most {capacity}",
            locale=atk.def_locale,
            capacity=cap,
        ),
        "/commands",
    )
    if atk.guard_attack:
        require(
            atk.guard_shown in attackers,
            "NT-124",
            T("the Guard shown must attack (AMB-31)"),
            "/commands",
        )
    aside = att_side_of(ctx, atk)
    width_s = P.string(p, "width", required=False) or "narrow"
    require(width_s in ("narrow", "wide"), "NT-82", T("width is 'narrow' or 'wide'"), "/width")
    width = 2 if width_s == "wide" else 1
    require(
        width <= aside.width,
        "NT-82",
        T("across a narrow attack approach the front is narrow"),
        "/width",
    )
    target_ref = P.string(p, "target", required=False)  # the attacker names it by its alias
    target = None if target_ref is None else resolve(state, atk.attacker, target_ref) or "?"
    if width == 1 and len(atk.def_leading) == 2:
        require(
            target in atk.def_leading,
            "NT-82",
            T("with a narrow front against two leading units, pick one as the target (its alias)"),
            "/target",
        )
    else:
        require(
            target is None,
            "NT-82",
            T("a target is picked only with a narrow front against two"),
            "/target",
        )
    leading = P.strings(p, "leading")
    check_batteries_lead(
        plans,
        leading,
        T("two artillery Unit Moves combine only when both batteries lead the attack"),
        "/leading",
    )
    check_att_leading(ctx, atk, plans, attackers, leading, width)
    for uid in attackers:
        require(
            not state.units[uid].fixed or uid in leading,
            "NT-24",
            T(
                "{unit} is the fixed battery: it never moves, so it attacks only leading an "
                "artillery attack",
                unit=uid,
            ),
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
    if target and atk.artillery:
        template = T(
            "Attack {attack}: declared by {units}; {width} front; leading {leading} against "
            "{target} (artillery attack)."
        )
    elif target:
        template = T(
            "Attack {attack}: declared by {units}; {width} front; leading {leading} against "
            "{target}."
        )
    elif atk.artillery:
        template = T(
            "Attack {attack}: declared by {units}; {width} front; leading {leading} "
            "(artillery attack)."
        )
    else:
        template = T("Attack {attack}: declared by {units}; {width} front; leading {leading}.")
    ctx.log(
        *line(
            template,
            attack=atk.id,
            units=names(atk.attackers),
            width=width_s,
            leading=names(atk.att_leading, face=True),
            target=U(target, face=True) if target else "",
        )
    )
    if atk.artillery:
        state.last_artillery[art_key(atk)] = state.round
        state.turn.artillery_attacked.append(atk.approach)
    # Elite commitment at the end of step (5): attack leaders and the defense leaders left.
    commit_elite(ctx, [state.units[u] for u in atk.att_leading], T("leads the attack"))
    commit_elite(ctx, [state.units[u] for u in atk.def_leading], T("leads the defense"))
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
        T(
            "if it won, this attack would have to advance into locale {locale}, which a corps "
            "marched through by road this turn: no other piece may enter it; only an artillery "
            "attack (the guns stay) can be made",
            locale=atk.def_locale,
        )
        if rule == "NT-54"
        else T(
            "if it won, this attack would have to advance into locale {locale}, which was won by "
            "attack this turn: no other piece may enter it; only an artillery attack (the guns "
            "stay) can be made",
            locale=atk.def_locale,
        ),
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
        T("at most {n} attack leading unit(s) with this front", n=width),
        "/leading",
    )
    for uid in leading:
        require(
            uid in attackers, "NT-83", T("{unit} is not an attacking unit", unit=uid), "/leading"
        )
        u = state.units[uid]
        require(
            not (u.type in ("INF", "GUARD", "CAV") and u.strength == 1),
            "NT-83",
            T("{unit} has strength 1 and cannot lead", unit=uid),
            "/leading",
        )
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            T("cavalry cannot lead across an obstructed defense approach"),
            "/leading",
        )
    units = [state.units[u] for u in leading]
    if len(units) == 2:
        require(
            same_type(units[0], units[1], guard_with_inf=False),
            "NT-83",
            T("two leading units must be of the same type (Guard and infantry do not mix, NT-123)"),
            "/leading",
        )
    if any(u.type == "ART" for u in units):
        check_artillery_attack(ctx, atk, plans, units)
    if atk.guard_attack:
        require(
            any(u.type == "GUARD" for u in units),
            "NT-125",
            T("a Guard attack is led by Guard"),
            "/leading",
        )
