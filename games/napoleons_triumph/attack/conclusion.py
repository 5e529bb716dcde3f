"""Step (11), the conclusion (NT-93..NT-96): morale for the loser (NT-111, NT-114, and the elite
extra of a retreat, NT-120, NT-122); after an artillery attack nobody moves (NT-93); if the
attacker won, the defenders retreat (NT-94, NT-103) and the attackers advance, locking the
locale for the rest of the turn (NT-101); if the defender won, the attackers fall back, every
attacking corps keeps one unit (NT-95) and the defender's reserve blocks (NT-95, as NT-78).
The retreat before combat of a vacate (NT-71, NT-75) is carried out here too.
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.attack.blocking import hold_or_ask
from games.napoleons_triumph.attack.common import ask, close, current, end_attack
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.losses import alive
from games.napoleons_triumph.morale import commit_elite, lose_morale
from games.napoleons_triumph.pieces import commanders_in, corps_units, elite_kind, units_in
from games.napoleons_triumph.retreat import retreat
from games.napoleons_triumph.state import MAP, Attack, other


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
        commit_elite(ctx, fresh, T("retreats"))
    lose_morale(
        ctx,
        loser,
        atk.lost.get(loser, 0),
        T("lost attack {attack}", attack=atk.id),
        floor=1 if atk.artillery else 0,
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
            T("name the unit that stays with {commander}", commander=cid),
            f"/anchors/{cid}",
        )
    for cid in need:
        keep = anchors[cid]
        for u in corps_units(state, cid):
            if u.where == MAP and u.id != keep:
                u.corps = None
    ctx.log(T("Attack {attack}: the attacking corps keep one unit each.", attack=atk.id))
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
    ctx.log(
        T(
            "Attack {attack}: the attackers advance into locale {locale}.",
            attack=atk.id,
            locale=atk.def_locale,
        )
    )
    if atk.def_locale not in state.turn.conquered:
        state.turn.conquered.append(atk.def_locale)
    if atk.def_locale not in state.turn.reserve_entered:
        state.turn.reserve_entered.append(atk.def_locale)
    end_attack(ctx, atk)


def answer_retreat(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    atk = current(ctx)
    do_retreat(ctx, atk, p)


def do_retreat(ctx: Ctx, atk: Attack, plan: dict[str, JSON]) -> None:
    retreat(ctx, atk, plan, after_combat=not atk.vacated)
    if atk.vacated:
        atk.step = "after_vacate"
        ask(ctx, atk.attacker, "after_vacate", {"attack": atk.id})
    else:
        advance(ctx, atk)
