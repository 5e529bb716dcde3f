"""Taking losses (NT-5, NT-90..NT-92): reductions, eliminations, the loss queue of an attack.

A loss job spreads points over tiers of units. An "even" tier gives one point per surviving unit per
round; when fewer points remain than survivors its chooser names who takes the odd points. A "free"
tier lets its chooser distribute the points as he likes. Either chooser may be asked (a pending
decision) unless the answer is forced by public facts.
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.context import Ctx, U, line, resolve, shown_as
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.morale import commit_elite
from games.napoleons_triumph.pieces import sync_commander
from games.napoleons_triumph.state import DEAD, MAP, Pending, Unit


def alive(ctx: Ctx, ids: list[str]) -> list[str]:
    return [i for i in ids if ctx.state.units[i].where == MAP]


def take_loss(ctx: Ctx, u: Unit, sp: int, reason: str) -> int:
    """Reduce a unit (NT-5); returns the points actually lost. The unit is revealed (AMB-5)."""
    if sp <= 0 or u.where != MAP:
        return 0
    u.revealed = True  # NT-92
    commit_elite(ctx, [u], T("takes a loss"))  # NT-120(d) / NT-122(d)
    lost = min(sp, u.strength)
    left = u.strength - lost
    after = ("INF" if u.type == "GUARD" else u.type) + str(left)  # NT-5: reduced Guard is INF
    if left <= 0:
        ctx.log(
            *line(T("{unit} is eliminated ({reason})."), unit=U(u.id, face=True), reason=reason)
        )
        u.strength = 0
        eliminate(ctx, u)
    else:
        ctx.log(
            *line(
                T("{unit} loses {lost} -> {after} ({reason})."),
                unit=U(u.id, face=True),
                lost=lost,
                after=after,
                reason=reason,
            )
        )
        u.strength = left
        if u.type == "GUARD":
            u.type = "INF"
    return lost


def eliminate(ctx: Ctx, u: Unit) -> None:
    u.where, u.loc, u.app, u.strength = DEAD, None, None, max(u.strength, 0)
    if u.corps is not None:
        sync_commander(ctx.state, ctx.state.commanders[u.corps])  # NT-32


def tier(units: list[str], mode: str, chooser: str, label: str) -> dict[str, JSON]:
    return {"units": list(units), "mode": mode, "chooser": chooser, "label": label}


def job(side: str, points: int, tiers: list[dict[str, JSON]]) -> dict[str, JSON]:
    return {"side": side, "points": points, "tiers": list(tiers)}


def _strs(v: JSON) -> list[str]:
    assert isinstance(v, list)
    return [x for x in v if isinstance(x, str)]


def _int(v: JSON) -> int:
    assert isinstance(v, int)
    return v


def _str(v: JSON) -> str:
    assert isinstance(v, str)
    return v


def run_queue(ctx: Ctx, queue: list[JSON], lost: dict[str, int]) -> Pending | None:
    """Work through loss jobs until done (None) or a choice is needed (the Pending to open)."""
    while queue:
        j = P.obj(queue[0])
        tiers = j["tiers"]
        assert isinstance(tiers, list)
        points = _int(j["points"])
        if points <= 0 or not tiers:
            queue.pop(0)
            continue
        t = P.obj(tiers[0])
        candidates = alive(ctx, _strs(t["units"]))
        if not candidates:
            tiers.pop(0)
            continue
        side = _str(j["side"])
        if t["mode"] == "even":
            if points >= len(candidates):
                with ctx.per_unit():  # one line per unit, each reader's order (not server ids)
                    for uid in candidates:
                        ctx.unit(uid)
                        lost[side] = lost.get(side, 0) + take_loss(
                            ctx, ctx.state.units[uid], 1, _str(t["label"])
                        )
                j["points"] = points - len(candidates)
                continue
            return Pending(
                _str(t["chooser"]),
                "odd_loss",
                {"n": points, "candidates": list(candidates), "label": t["label"]},
            )
        total = sum(ctx.state.units[u].strength for u in candidates)
        if points >= total or len(candidates) == 1:
            spent = 0
            with ctx.per_unit():
                for uid in candidates:
                    ctx.unit(uid)
                    share = min(points - spent, ctx.state.units[uid].strength)
                    spent += share
                    lost[side] = lost.get(side, 0) + take_loss(
                        ctx, ctx.state.units[uid], share, _str(t["label"])
                    )
            j["points"] = points - spent
            tiers.pop(0)
            continue
        return Pending(
            _str(t["chooser"]),
            "assign_losses",
            {"n": points, "candidates": list(candidates), "label": t["label"]},
        )
    return None


def answer_odd(
    ctx: Ctx, queue: list[JSON], pending: Pending, p: dict[str, JSON], lost: dict[str, int]
) -> None:
    """place_odd_loss: the chooser names exactly n of the candidates (NT-90, NT-91)."""
    n = _int(pending.data["n"])
    cands = _strs(pending.data["candidates"])
    refs = P.strings(p, "units", required=True)
    units = [resolve(ctx.state, pending.side, r) or "" for r in refs]
    shown = ", ".join(sorted(shown_as(ctx.state, pending.side, c) for c in cands))
    require(
        len(units) == n and set(units) <= set(cands),
        "NT-90",
        T("name exactly {n} of the candidates {candidates}", n=n, candidates=shown),
        "/units",
    )
    j = P.obj(queue[0])
    side = _str(j["side"])
    with ctx.per_unit():
        for uid in units:
            ctx.unit(uid)
            lost[side] = lost.get(side, 0) + take_loss(
                ctx, ctx.state.units[uid], 1, _str(pending.data["label"])
            )
    j["points"] = 0


def answer_assign(
    ctx: Ctx, queue: list[JSON], pending: Pending, p: dict[str, JSON], lost: dict[str, int]
) -> None:
    """assign_losses: the chooser spreads n points freely over the candidates (NT-90, NT-91)."""
    n = _int(pending.data["n"])
    cands = _strs(pending.data["candidates"])
    rows = P.objects(p, "losses", required=True)
    plan: dict[str, int] = {}
    for i, row in enumerate(rows):
        uid = P.req_str(row, "unit", f"/losses/{i}")
        sp = P.req_int(row, "sp", f"/losses/{i}")
        require(
            uid in cands and uid not in plan,
            "NT-90",
            T("{unit} cannot take these losses", unit=uid),
            f"/losses/{i}/unit",
        )
        require(
            1 <= sp <= ctx.state.units[uid].strength,
            "NT-90",
            T("{unit} can take 1 to {n} points", unit=uid, n=ctx.state.units[uid].strength),
            f"/losses/{i}/sp",
        )
        plan[uid] = sp
    require(
        sum(plan.values()) == n, "NT-90", T("assign exactly {n} strength points", n=n), "/losses"
    )
    j = P.obj(queue[0])
    side = _str(j["side"])
    with ctx.per_unit():
        for uid, sp in plan.items():
            ctx.unit(uid)
            lost[side] = lost.get(side, 0) + take_loss(
                ctx, ctx.state.units[uid], sp, _str(pending.data["label"])
            )
    j["points"] = 0
    tiers = j["tiers"]
    assert isinstance(tiers, list)
    tiers.pop(0)
