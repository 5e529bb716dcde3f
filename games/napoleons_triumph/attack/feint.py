"""Step (3), the feint (NT-76..NT-78): the attacker declares a feint, which a road attack must be
(NT-76, NT-68) and a Guard attack cannot be (NT-125), or none; the feint's pieces end in the
attack locale (NT-77, NT-24, NT-144) and the defender's reserve blocks (NT-78, in `blocking`).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import road_attack
from games.napoleons_triumph.attack.attackers import (
    attack_options,
    check_batteries_lead,
    plan_attack_commands,
    spend_all,
)
from games.napoleons_triumph.attack.blocking import finish_feint, hold_or_ask
from games.napoleons_triumph.attack.common import current, names
from games.napoleons_triumph.attack.defense import reveal_defense
from games.napoleons_triumph.context import Ctx, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.state import Attack


def no_feint(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    require(
        atk.guard_attack or bool(attack_options(ctx, side, atk.att_locale, atk.approach)),
        "NT-76",
        T(
            "only a road attack could carry out this attack from locale {locale}, and a "
            "road attack must be declared a feint",
            locale=atk.att_locale,
        ),
    )
    ctx.log(T("Attack {attack}: no feint.", attack=atk.id))
    reveal_defense(ctx, atk)


def declare_feint(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-76..NT-78: the attackers stay in the attack locale; the defender holds the approach."""
    atk = current(ctx)
    require(not atk.guard_attack, "NT-125", T("a Guard attack cannot be a feint"))
    raw = P.objects(p, "commands", required=True)
    if road_attack.is_road(raw):  # NT-68, NT-76: the road is named only now (NT-70)
        road_attack.declare(ctx, atk, p, feint=True)
        after_feint_declared(ctx, atk)
        return
    road_attack.close_ride(ctx)  # NT-143: another command ends an open ride-on
    plans = plan_attack_commands(ctx, atk, raw)
    check_batteries_lead(
        plans,
        [],
        T(
            "two artillery Unit Moves combine only when both batteries lead the attack (a feint "
            "has no leading units)"
        ),
        "/commands",
    )
    end = P.req_str(p, "end")
    require(end in ("block", "reserve"), "NT-77", T("end is 'block' or 'reserve'"), "/end")
    started_blocking = any(pl.app is not None for pl in plans)
    for uid in (u for pl in plans for u in pl.units):
        fixed = ctx.state.units[uid]
        require(
            not fixed.fixed or (fixed.app is not None) == (end == "block"),
            "NT-24",
            T("the fixed battery never moves: the feint must end where it stands"),
            "/end",
        )
    if started_blocking:
        require(
            end == "block",
            "NT-77",
            T("pieces that started blocking end blocking the attack approach"),
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
    template = (
        T("Attack {attack} is a feint by {units}, who end blocking {approach}.")
        if app
        else T("Attack {attack} is a feint by {units}, who end in reserve.")
    )
    ctx.log(*line(template, attack=atk.id, units=names(atk.attackers), approach=atk.approach))
    if atk.def_blocking:
        finish_feint(ctx, atk)
        return
    hold_or_ask(ctx, atk, "feint_hold")
