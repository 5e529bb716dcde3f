"""Morale (digest 3.11): casualties and morale tests (VF-95, VF-102, VF-104, VF-105), fleeing
(VF-107), broken brigades (VF-108), resolve tests (VF-109), wavering (VF-110), setbacks
(VF-111)."""

from __future__ import annotations

from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import fate
from games.valour_fortitude import match as m
from games.valour_fortitude.context import Ctx, passes
from games.valour_fortitude.state import Unit
from games.valour_fortitude.values import has, shaken


def take_casualties(
    ctx: Ctx, unit_id: str, hits: int, *, shooting: bool, winner: bool, bonus: int = 0
) -> None:
    """VF-95, VF-102: markers up to the morale value; the rest become the dice of one morale
    test (VF-104: +1 in the shooting phase), which a melee winner does not take (VF-105)."""
    if hits <= 0:
        return
    unpredictable(ctx, unit_id)  # VF-161: the first casualty, before the markers
    unit = ctx.game.unit(unit_id)
    room = max(0, unit.stats.morale - unit.casualties)
    markers = min(room, hits)
    excess = hits - markers
    unit = replace(unit, casualties=unit.casualties + markers)
    ctx.game = m.with_unit(ctx.game, unit)
    ctx.say(
        T(
            "{unit} suffers {n} casualties (now {total} of morale {morale})",
            unit=unit.id,
            n=hits,
            total=unit.casualties,
            morale=unit.stats.morale,
        )
    )
    if excess == 0:
        return
    if winner:
        ctx.say(T("{unit} won the melee: no morale test (VF-105)", unit=unit.id))
        return
    modifier = (1 if shooting else 0) + bonus + fate.morale_modifier(ctx, unit)  # J (Britain)
    purpose = T("Morale test of {unit} (VF-104)", unit=unit.id)
    if not _morale_test(ctx, unit, purpose, excess, modifier) and not fate.inspiration(
        ctx, unit.side, "unit", unit.id
    ):  # card 8
        flee(ctx, unit.id, T("failed its morale test"))


def _morale_test(ctx: Ctx, unit: Unit, purpose: str, n: int, modifier: int) -> bool:
    """VF-104; a Stoisch unit rerolls the dice that show 1 (VF-159), each once."""
    if not has(unit, "stoisch"):
        return ctx.test(purpose, n, modifier, 4)
    faces = ctx.roll(n)
    ones = sum(1 for f in faces if f == 1)
    faces = [ctx.roll(1)[0] if f == 1 else f for f in faces]
    passed = all(passes(f, modifier, 4) for f in faces)
    ctx.say(
        T(
            "{purpose}: dice {faces} ({ones} ones rerolled, VF-159), modifier {modifier}, "
            "each needs 4+: {outcome}",
            purpose=purpose,
            faces=" ".join(str(f) for f in faces),
            ones=ones,
            modifier=f"{modifier:+d}",
            outcome=T("passed") if passed else T("failed"),
        ),
        data={"roll": {"purpose": purpose, "faces": list[JSON](faces), "modifier": modifier}},
    )
    return passed


def unpredictable(ctx: Ctx, unit_id: str) -> None:
    """VF-161: the first time an Unvorhersehbar unit fights, strikes back (before its dice,
    AMB-38) or suffers a casualty, 1D6: 1 gives -1 melee and -1 morale, 6 gives +1 to both,
    for the rest of the battle (`Unit.unpredictable` keeps the result; the stats change)."""
    unit = ctx.game.unit(unit_id)
    if not has(unit, "unvorhersehbar") or unit.unpredictable is not None:
        return
    face = ctx.roll(1)[0]
    delta = -1 if face == 1 else 1 if face == 6 else 0
    stats = replace(unit.stats, melee=unit.stats.melee + delta, morale=unit.stats.morale + delta)
    ctx.game = m.with_unit(ctx.game, replace(unit, stats=stats, unpredictable=delta))
    ctx.say(
        T(
            "Unpredictable test of {unit} (VF-161): die {face}, melee and morale {delta}",
            unit=unit_id,
            face=face,
            delta=f"{delta:+d}",
        ),
        data={"roll": {"purpose": "VF-161", "faces": [face], "modifier": 0}},
    )


def flee(ctx: Ctx, unit_id: str, why: str, resolve: bool = True) -> None:
    """VF-107: the unit leaves the table for good; its brigade owes a resolve test at the end
    of the phase (not for a unit fleeing from wavering, VF-110); the last unit breaks the
    brigade (VF-108)."""
    unit = ctx.game.unit(unit_id)
    if unit.fled:
        return
    ctx.game = m.with_unit(ctx.game, replace(unit, fled=True, bases=(), occupying=None))
    ctx.say(T("{unit} flees from the table: {why}", unit=unit_id, why=why))
    brigade = m.brigade(ctx.game, unit.brigade)
    fled = (*brigade.fled_units, unit_id)
    tests = brigade.pending_resolve_tests + (1 if resolve else 0)
    brigade = replace(brigade, fled_units=fled, pending_resolve_tests=tests)
    if all(ctx.game.unit(u).fled for u in brigade.units):
        brigade = replace(brigade, broken=True, pending_resolve_tests=0)  # AMB-26
        leader = ctx.game.leader(brigade.bg)
        ctx.game = m.with_leader(ctx.game, replace(leader, removed=True))
        setback(ctx, brigade.side, T("brigade {brigade} is broken (VF-108)", brigade=brigade.id))
    ctx.game = m.with_brigade(ctx.game, brigade)


def setback(ctx: Ctx, side: str, why: str) -> None:
    """VF-111."""
    state = m.side_state(ctx.game, side)
    ctx.game = m.with_side(ctx.game, replace(state, setbacks=state.setbacks + 1))
    ctx.say(
        T(
            "Side {side} suffers a setback: {why} (now {n})",
            side=side,
            why=why,
            n=state.setbacks + 1,
        )
    )


def resolve_order(ctx: Ctx) -> list[str]:
    """VF-109: the brigades owing resolve tests, the active side's first."""
    active = ctx.game.turn.active_side
    owing = [b for b in ctx.game.brigades if b.pending_resolve_tests > 0 and not b.broken]
    owing.sort(key=lambda b: (b.side != active, b.id))
    return [b.id for b in owing]


def resolve_test(ctx: Ctx, brigade_id: str, bg_near_cinc: bool, napoleon: bool) -> bool:
    """VF-109: one die per fled unit, pooled (AMB-27); +1 with 5 or more unfled units, +1 when
    the BG is within 12 in of the CinC, -1 when at least half the units fled; VF-207 Napoleon
    +1. A failure: the brigade wavers and its army suffers a setback. True when passed."""
    brigade = m.brigade(ctx.game, brigade_id)
    n = brigade.pending_resolve_tests
    unfled = [u for u in brigade.units if not ctx.game.unit(u).fled]
    cinc = ctx.game.leader(m.side_state(ctx.game, brigade.side).cinc)
    cautious = "vorsichtig" in cinc.special_rules  # VF-205: a cautious CinC gives no +1
    modifier = (1 if len(unfled) >= 5 else 0) + (1 if bg_near_cinc and not cautious else 0)
    modifier -= 1 if 2 * (len(brigade.units) - len(unfled)) >= len(brigade.units) else 0
    modifier += 1 if napoleon else 0
    ctx.game = m.with_brigade(ctx.game, replace(brigade, pending_resolve_tests=0))
    purpose = T("Resolve test of brigade {brigade} (VF-109)", brigade=brigade_id)
    passed = ctx.test(purpose, n, modifier, 4) or fate.inspiration(
        ctx, brigade.side, "brigade", brigade_id
    )  # card 8
    if not passed:
        setback(ctx, brigade.side, T("brigade {brigade} wavers (VF-110)", brigade=brigade_id))
    return passed


def waver(ctx: Ctx, brigade_id: str, near_enemy: dict[str, bool]) -> None:
    """VF-110: shaken units flee (no further resolve tests); every other unit within 6 in of an
    enemy unit suffers one casualty; then the brigade stops wavering."""
    brigade = m.brigade(ctx.game, brigade_id)
    for unit_id in brigade.units:
        unit = ctx.game.unit(unit_id)
        if not unit.fled and shaken(unit):
            flee(ctx, unit_id, T("shaken in a wavering brigade (VF-110)"), resolve=False)
    for unit_id in brigade.units:
        unit = ctx.game.unit(unit_id)
        if not unit.fled and near_enemy.get(unit_id):
            unpredictable(ctx, unit_id)  # VF-161: a casualty
            unit = ctx.game.unit(unit_id)
            total = min(unit.stats.morale, unit.casualties + 1)
            ctx.game = m.with_unit(ctx.game, replace(unit, casualties=total))
            ctx.say(T("{unit} suffers 1 casualty from wavering (VF-110)", unit=unit_id))
