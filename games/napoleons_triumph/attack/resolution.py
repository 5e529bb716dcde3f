"""Steps (6) to (10), the combat (NT-86..NT-92): the preliminary result and its winner (NT-86,
NT-87, AMB-24; the Guard attack, NT-126; the Santon, NT-139), the counter-attack (NT-88), the
final result (NT-89; a failed Guard attack, NT-127), then the attacker's and the defender's
losses (NT-90, NT-91, AMB-26), placed by `losses.py`.
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.attack.common import ask, current, def_side_of, names, santon_battery
from games.napoleons_triumph.attack.conclusion import conclude
from games.napoleons_triumph.context import Ctx, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.losses import (
    answer_assign,
    answer_odd,
    job,
    run_queue,
    take_loss,
    tier,
)
from games.napoleons_triumph.morale import commit_elite, lose_morale
from games.napoleons_triumph.pieces import is_infantry
from games.napoleons_triumph.state import MAP, Attack, other

GUARD_FAIL_MORALE = 3  # NT-127


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
    result = {"attack": atk.id, "result": f"{r:+d}"}
    atk.prelim_winner = winner(ctx, atk, r)
    ctx.log(
        T("Attack {attack}: preliminary result {result}; the attacker leads.", **result)
        if atk.prelim_winner == atk.attacker
        else T("Attack {attack}: preliminary result {result}; the defender leads.", **result)
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
    require(len(units) <= 2, "NT-88", T("1 or 2 units counter-attack"), "/units")
    cands = counter_candidates(ctx, atk)
    dside = def_side_of(ctx, atk)
    for uid in units:
        require(
            uid in cands,
            "NT-88",
            T("{unit} was not named, or is a leading unit", unit=uid),
            "/units",
        )
        u = state.units[uid]
        require(u.type != "ART", "NT-88", T("artillery never counter-attacks"), "/units")
        require(
            not (u.type == "CAV" and dside.obstructed),
            "NT-69",
            T("cavalry cannot counter-attack across an obstructed defense approach"),
            "/units",
        )
        require(
            not (is_infantry(u) and atk.prelim_winner != atk.attacker),
            "NT-88",
            T("infantry counter-attacks only when the attacker is the preliminary winner"),
            "/units",
        )
    if len(units) == 2:
        a, b = (state.units[x] for x in units)
        require(
            a.type == b.type and a.corps is not None and a.corps == b.corps,
            "NT-88",
            T("two counter-attacking units are of the same type and corps (AMB-25, NT-123)"),
            "/units",
        )
    atk.counter = list(units)
    if units:
        for uid in units:
            state.units[uid].revealed = True
        ctx.log(
            *line(
                T("Attack {attack}: counter-attack by {units}."),
                attack=atk.id,
                units=names(units, face=True),
            )
        )
        commit_elite(ctx, [state.units[u] for u in units], T("counter-attacks"))
        for uid in units:
            lost = take_loss(ctx, state.units[uid], 1, T("counter-attack"))
            atk.lost[side] = atk.lost.get(side, 0) + lost
    else:
        ctx.log(T("Attack {attack}: no counter-attack.", attack=atk.id))
    final(ctx, atk)


def final(ctx: Ctx, atk: Attack) -> None:
    """Step (8), NT-89; NT-127 for a failed Guard attack."""
    state = ctx.state
    assert atk.prelim is not None
    reduced = sum(state.units[u].strength for u in atk.counter if state.units[u].where == MAP)
    f = atk.prelim - reduced
    atk.final = f
    atk.winner = winner(ctx, atk, f)
    result = {"attack": atk.id, "result": f"{f:+d}"}
    ctx.log(
        T("Attack {attack}: final result {result}; the attacker wins.", **result)
        if atk.winner == atk.attacker
        else T("Attack {attack}: final result {result}; the defender wins.", **result)
    )
    if atk.guard_attack and atk.winner != atk.attacker:
        state.guard_banned[atk.attacker] = True
        lose_morale(ctx, atk.attacker, GUARD_FAIL_MORALE, T("failed Guard attack"))
    start_losses(ctx, atk)


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
                    tier(atk.att_leading, "even", d, T("attacker loss")),
                    tier(atk.attackers, "free", a, T("attacker loss")),
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
    third_tiers = [tier(third, "free", d, T("defender loss"))]
    # AMB-26: then the artillery
    third_tiers.append(tier(named_units, "free", d, T("defender loss")))
    queue.append(
        job(
            d,
            ld,
            [
                tier(def_lead_ic, "even", a, T("defender loss")),
                tier(atk.counter, "even", a, T("defender loss")),
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
