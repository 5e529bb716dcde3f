"""Retreats (rulebook chapter 12, NT-102..NT-109): losses, anchors, destinations, elimination."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.context import Ctx, U, Us, line, public_key
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.losses import eliminate, take_loss
from games.napoleons_triumph.morale import commit_elite, lose_morale
from games.napoleons_triumph.pieces import (
    commanders_in,
    elite_kind,
    is_infantry,
    occupant,
    units_in,
)
from games.napoleons_triumph.state import MAP, Attack, Unit, other


@dataclass(slots=True)
class LossGroup:
    """Retreat losses of one group (NT-105): `points` spread by the retreating player."""

    key: str  # an approach id, or "reserve"
    points: int
    units: list[str] = field(default_factory=list)


def loss_groups(ctx: Ctx, atk: Attack) -> list[LossGroup]:
    """NT-105: approach losses (AMB-28: that approach's blockers) and the reserve-infantry loss."""
    board, state = ctx.board, ctx.state
    side = other(atk.attacker)
    loc = atk.def_locale
    groups: list[LossGroup] = []
    for app in board.approaches_of(loc):
        if app == atk.approach:
            continue  # units blocking the defense approach lose nothing
        blockers = [u.id for u in units_in(state, loc, side) if u.app == app and u.type != "ART"]
        if blockers:
            groups.append(LossGroup(app, board.side(app, loc).width, sorted(blockers)))
    reserve_inf = [
        u.id
        for u in units_in(state, loc, side)
        if u.app is None and is_infantry(u) and u.id not in atk.named
    ]
    if reserve_inf:
        groups.append(
            LossGroup("reserve", board.side(atk.approach, loc).width, sorted(reserve_inf))
        )
    return groups


def destinations(ctx: Ctx, atk: Attack) -> list[int]:
    """NT-106: adjacent locales, not the attack locale, not across impassable, not enemy-held."""
    return [
        n
        for n in ctx.board.passable_neighbours(atk.def_locale)
        if n != atk.att_locale and occupant(ctx.state, n) != atk.attacker
    ]


def retreat(ctx: Ctx, atk: Attack, p: dict[str, JSON], after_combat: bool) -> None:
    """Carry out a retreat plan: {"losses": [{unit, sp}], "anchors": {cmd: unit},
    "destinations": {unit: locale}}. Commanders go with their anchor."""
    state, board = ctx.state, ctx.board
    side = other(atk.attacker)
    loc = atk.def_locale
    groups = loss_groups(ctx, atk)
    retreating = sorted(units_in(state, loc, side), key=lambda u: u.id)  # NT-103: all of them
    # Check the whole plan before changing anything.
    rows = P.objects(p, "losses")
    planned: dict[str, int] = {}
    for i, row in enumerate(rows):
        uid = P.req_str(row, "unit", f"/losses/{i}")
        sp = P.req_int(row, "sp", f"/losses/{i}")
        require(uid not in planned, "NT-105", T("{unit} is listed twice", unit=uid), f"/losses/{i}")
        require(
            any(uid in g.units for g in groups),
            "NT-105",
            T("{unit} takes no retreat loss", unit=uid),
            f"/losses/{i}/unit",
        )
        require(
            1 <= sp <= state.units[uid].strength,
            "NT-105",
            T("{unit} can lose 1 to {n} points", unit=uid, n=state.units[uid].strength),
            f"/losses/{i}/sp",
        )
        planned[uid] = sp
    for g in groups:
        total = sum(state.units[uid].strength for uid in g.units)
        due = min(g.points, total)
        given = sum(planned.get(uid, 0) for uid in g.units)
        if given == 0 and (len(g.units) == 1 or due == total):
            for uid in g.units:  # forced: one candidate, or everybody loses everything
                planned[uid] = min(
                    state.units[uid].strength, due - sum(planned.get(x, 0) for x in g.units)
                )
            given = due
        require(
            given == due,
            "NT-105",
            T("the reserve infantry must lose exactly {n} strength points", n=due)
            if g.key == "reserve"
            else T(
                "the blockers of {approach} must lose exactly {n} strength points",
                approach=g.key,
                n=due,
            ),
            "/losses",
        )
    anchors = P.mapping(p, "anchors")
    dests_raw = P.mapping(p, "destinations")
    legal = destinations(ctx, atk)
    # R1: reveal; elite retreat commitment (NT-104, NT-120(c), NT-122(c)).
    for u in retreating:
        u.revealed = True
    ctx.log(*line(T("Retreat from locale {locale}: {units}"), locale=loc, units=_faces(retreating)))
    commit_elite(ctx, retreating, T("retreats"))
    lost = 0
    # R2: artillery is eliminated (NT-105); AMB-29: it counts with its remaining strength.
    with ctx.per_unit():  # one line per unit, each reader's order (not server ids)
        for u in retreating:
            if u.type == "ART" and u.where == MAP:
                ctx.unit(u.id)
                lost += u.strength
                eliminate(ctx, u)
                ctx.log(*line(T("{unit} (artillery) is eliminated in the retreat."), unit=U(u.id)))
    # R3, R4: approach and reserve-infantry losses.
    with ctx.per_unit():
        for uid, sp in sorted(planned.items()):
            ctx.unit(uid)
            lost += take_loss(ctx, state.units[uid], sp, T("retreat loss"))
    survivors = [u for u in retreating if u.where == MAP]
    # R5: each corps keeps one unit; the rest are detached (NT-108, AMB-38).
    for c in commanders_in(state, loc, side):
        members = [u for u in survivors if u.corps == c.id]
        if not members:
            continue
        if len(members) == 1:
            anchor = members[0].id
        else:
            raw = anchors.get(c.id)
            require(
                isinstance(raw, str) and raw in {u.id for u in members},
                "NT-108",
                T("name the unit that stays with {commander}", commander=c.id),
                f"/anchors/{c.id}",
            )
            assert isinstance(raw, str)
            anchor = raw
        for u in members:
            if u.id != anchor:
                u.corps = None
    # R6: destinations (NT-106); R7: no room means elimination (NT-107).
    room = {n: board.locales[n].capacity - len(units_in(state, n, side)) for n in legal}
    placed: dict[str, int] = {}
    for u in survivors:
        raw = dests_raw.get(u.id)
        if raw is None:
            continue
        require(
            isinstance(raw, int) and not isinstance(raw, bool) and raw in legal,
            "NT-106",
            T(
                "{unit} cannot retreat to {target}; legal: {legal}",
                unit=u.id,
                target=repr(raw),
                legal=str(legal),
            ),
            f"/destinations/{u.id}",
        )
        assert isinstance(raw, int)
        require(
            room[raw] > 0,
            "NT-106",
            T("locale {locale} has no room left for {unit}", locale=raw, unit=u.id),
            f"/destinations/{u.id}",
        )
        room[raw] -= 1
        placed[u.id] = raw
    stranded = [u for u in survivors if u.id not in placed]
    require(
        not stranded or all(r <= 0 for r in room.values()),
        "NT-106",
        T(
            "{unit} has a legal destination with room; give it one",
            unit=stranded[0].id if stranded else "",
        ),
        "/destinations",
    )
    with ctx.per_unit():
        for u in stranded:
            ctx.unit(u.id)
            lost += u.strength  # AMB-29
            eliminate(ctx, u)
            ctx.log(*line(T("{unit} cannot retreat and is eliminated (NT-107)."), unit=U(u.id)))
    for u in survivors:
        if u.id in placed:
            u.loc, u.app = placed[u.id], None
            u.retreated = after_combat  # NT-109 (a voluntary vacate is no retreat in this sense)
            u.revealed = False
    for c in commanders_in(state, loc, side):
        members = [u for u in state.units.values() if u.corps == c.id and u.where == MAP]
        if members:
            c.loc, c.app = members[0].loc, None
        else:
            c.where, c.loc, c.app = "dead", None, None
            ctx.log(T("{commander} is eliminated with his last unit.", commander=c.id))
    ctx.log(T("The retreat from locale {locale} ends.", locale=loc))
    lose_morale(ctx, side, lost, T("retreat losses"))  # NT-112


def _faces(units: list[Unit]) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of((u.id for u in units), face=True, empty="no units")]


def default_plan(ctx: Ctx, atk: Attack, priority: list[str] | None = None) -> dict[str, JSON]:
    """D-RETREAT (digest 4.5): losses by priority, strongest non-elite anchors, most room first."""
    state, board = ctx.state, ctx.board
    side = other(atk.attacker)
    order = priority or []
    losses: list[JSON] = []
    for g in loss_groups(ctx, atk):
        left = g.points
        ranked = sorted(g.units, key=lambda uid: _loss_rank(ctx, state.units[uid], order))
        for uid in ranked:
            if left <= 0:
                break
            sp = min(left, state.units[uid].strength)
            losses.append({"unit": uid, "sp": sp})
            left -= sp
    dead = {
        str(r["unit"])
        for r in losses
        if isinstance(r, dict) and r["sp"] == state.units[str(r["unit"])].strength
    }
    units = [
        u for u in units_in(state, atk.def_locale, side) if u.type != "ART" and u.id not in dead
    ]
    anchors: dict[str, JSON] = {}
    for c in commanders_in(state, atk.def_locale, side):
        members = [u for u in units if u.corps == c.id]
        if len(members) > 1:
            anchors[c.id] = max(
                members,
                key=lambda u: (elite_kind(u) is None, u.strength, public_key(state, u.id)),
            ).id
    room = {
        n: board.locales[n].capacity - len(units_in(state, n, side)) for n in destinations(ctx, atk)
    }
    dests: dict[str, JSON] = {}
    for u in sorted(units, key=lambda u: public_key(state, u.id)):
        best = sorted((n for n in room if room[n] > 0), key=lambda n: (-room[n], n))
        if best:
            dests[u.id] = best[0]
            room[best[0]] -= 1
    return {"losses": losses, "anchors": anchors, "destinations": dests}


def _loss_rank(ctx: Ctx, u: Unit, order: list[str]) -> tuple[int, int, int, str]:
    listed = order.index(u.id) if u.id in order else len(order)
    return (listed, 1 if elite_kind(u) else 0, -u.strength, public_key(ctx.state, u.id))
