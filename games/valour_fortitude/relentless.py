"""Relentless charges (Unnachgiebig, seed L1124-1126; digest VF-163, V-13, GAP-4).

"If the unit's melee opponent flees or falls back and there are further visible enemy units
it can contact, it must make another charge move this round and fight again. If it wins that
melee too, no further charge takes place this round."

Built for the active side's unit (it charges in its own melee phase): the charge is
mandatory, so the owner has nothing to choose but the target and the path (V-13). The engine
proposes both as facts the umpire confirms or corrects (the deadline default of V-13): the
nearest visible enemy unit not in contact with friends (VF-63, AMB-8: the first by id when
equally near), reached by a straight move until contact; the usual charge checks follow
(allowance VF-57, visibility and nearest VF-63, contact, defensible features VF-193/VF-198).
The timing is GAP-4's default: at once, before the next planned fight. A second win makes no
further charge.

Refused with GAP-4: a relentless unit of the inactive side (it won a strike back): the rulebook
gives no moment in the enemy's turn for a charge move.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from shapely.ops import nearest_points  # type: ignore[import-untyped]

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import geometry as g
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.paths import offset
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import GameState, Point, Unit, exact
from games.valour_fortitude.values import allowance, has, is_cavalry, is_infantry

Step = dict[str, JSON]


def follow(game: GameState, winner: Unit, loser_gone: bool, step: Step) -> list[Step]:
    """VF-163: the relentless step after a fight `winner` won whose opponent fled or falls
    back (`loser_gone`); none after a relentless fight (no further charge this round)."""
    if not has(winner, "unnachgiebig") or not loser_gone or step.get("relentless"):
        return []
    return [{"do": "relentless", "unit": winner.id}]


def _bind(fn: Callable[..., Fact], *args: object) -> Callable[[], Fact]:  # type: ignore[explicit-any]
    return lambda: fn(*args)


def proposed_target(game: GameState, unit: Unit) -> Unit | None:
    """The nearest enemy unit in the unit's front arcs and not in contact with its friends
    (VF-63; AMB-8: the first by id when equally near)."""
    friends = [u for u in ms.table_units(game) if u.side == unit.side and u.id != unit.id]
    found = []
    for enemy in ms.enemies(game, unit.side):
        if any(ms.gap(game, enemy, f) <= g.CONTACT_EPSILON_IN for f in friends):
            continue
        if not g.in_front_arc(unit, enemy, game.terrain).value:
            continue
        found.append((round(ms.gap(game, unit, enemy), 3), enemy.id, enemy))
    return min(found, key=lambda t: (t[0], t[1]))[2] if found else None


def straight_path(game: GameState, unit: Unit, target: Unit) -> list[Point]:
    """A straight move of the unit's anchor until its footprint touches the target's."""
    mine = g.footprint_polygon(unit, game.terrain)
    theirs = g.footprint_polygon(target, game.terrain)
    a, b = nearest_points(mine, theirs)
    ax, ay = ms.anchor(unit)
    dx, dy = float(b.x - a.x), float(b.y - a.y)
    return [Point(exact(Decimal(f"{ax + dx:.3f}")), exact(Decimal(f"{ay + dy:.3f}")))]


def charge(ctx: Ctx, step: Step) -> list[Step]:
    """V-13: the relentless unit's charge move, then its new fight."""
    game = ctx.game
    unit = game.unit(str(step["unit"]))
    if not m.on_table(unit):
        raise Skip("VF-163", T("{unit} is not on the table", unit=unit.id))
    if unit.side != game.turn.active_side:
        raise Skip(
            "GAP-4", T("{unit} must charge again (VF-163): not in the enemy's turn", unit=unit.id)
        )
    if unit.occupying is not None:
        raise Skip("VF-197", T("{unit} occupies {feature}", unit=unit.id, feature=unit.occupying))
    target = proposed_target(game, unit)
    if target is None:
        ctx.say(T("{unit}: no visible enemy unit to charge again (VF-163)", unit=unit.id))
        return []
    path = straight_path(game, unit, target)
    wanted: dict[str, Callable[[], Fact]] = {
        "start": _bind(ms.enemy_closer_than, game, unit, 0.06, "VF-64"),
        "visible": _bind(ms.in_arc, game, unit, target, "VF-63"),
        "nearest": _bind(ms.nearest_free_enemy, game, unit, target),
        "cost": _bind(ms.path_cost, game, unit, path, False),
        "contact": _bind(ms.charge_contact, game, unit, path, target),
        "feature": _bind(ms.defensible_clear, game, unit, path, target),
        "clear": _bind(ms.end_clear, game, unit, path, False),
        "place": _bind(ms.placement, unit, path),
    }
    if is_infantry(unit) and is_cavalry(target):
        wanted["six"] = _bind(ms.within, game, unit, target, 6.0, "VF-64")
    facts = ctx.need(wanted)
    cost = facts["cost"]
    fits = cost is not None and Decimal(str(cost)) <= allowance(unit)
    ok = (
        fits
        and not facts["start"]
        and all(facts[k] for k in ("visible", "nearest", "contact", "feature", "clear"))
        and facts.get("six", True)
        and isinstance(facts["place"], list)
    )
    if not ok:
        ctx.say(T("{unit} can reach no enemy unit in a charge: no relentless charge", unit=unit.id))
        return []
    place = facts["place"]
    assert isinstance(place, list)
    dx, dy = offset(place)
    ctx.game = m.with_unit(ctx.game, ms.moved(ctx.game.unit(unit.id), dx, dy))
    ctx.say(
        T(
            "{unit} charges {target} relentlessly ({cost} in) (VF-163)",
            unit=unit.id,
            target=target.id,
            cost=cost,
        )
    )
    return [
        {
            "do": "fight",
            "attacker": unit.id,
            "target": target.id,
            "supporters": [],
            "contacts": {unit.id: [target.id]},
            "relentless": True,
        }
    ]
