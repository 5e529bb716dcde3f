"""Defensible features (digest 3.14 T.3, VF-193..VF-201) and overrun leaders (VF-59).

* A unit less than 3 in from a defensible feature may occupy it instead of a Move or Withdraw
  (VF-195): the sheet's `OCCUPY` action names the `feature`. One unit per feature (VF-194); a
  feature held by an enemy unit cannot be occupied; enemy leaders in it are overrun (VF-59).
  The occupant is "inside": it has no formation (`Formation.NONE`), its footprint is the
  feature's outline (VF-196, `geometry.footprint_polygon`), it keeps its bases as the record of
  its block, to be put down again when it leaves.
* It leaves with a Move or Withdraw (VF-197): its kept block is put down with its anchor at the
  order's last path point (no allowance is spent: it is placed), entirely within 6 in of the
  feature and at least 3 in from enemy units, in the formation it had when it went in (or,
  with `formation_after`, another one built around its pivot, VF-60's block rules). Not in the
  turn it occupied (light infantry may, VF-147).
* Connected sections (VF-201) and leaders occupying features are not built: refused with
  VF-201 / not offered.

The geometric facts (near the feature, placements, the 6 in and 3 in rules, who is overrun)
are proposals the umpire confirms (`measures.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import formations as fm
from games.valour_fortitude import geometry as g
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.paths import offset, path_of
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Leader, Point, Trait, Unit, exact
from games.valour_fortitude.values import has, is_artillery

Want = dict[str, Callable[[], Fact]]
FORMATIONS_KEY = "occupant_formations"  # flow: unit id -> the formation it had outside


def _bind(fn: Callable[..., Fact], *args: object) -> Callable[[], Fact]:  # type: ignore[explicit-any]
    return lambda: fn(*args)


def feature_problem(game: GameState, unit: Unit, feature: str) -> tuple[str, str] | None:
    """What forbids `unit` to occupy `feature`, apart from the 3 in (a fact): not a
    defensible feature (VF-195), sections (VF-201, not built), already inside one (VF-201),
    held by a unit (VF-194)."""
    piece = next((t for t in game.terrain if t.id == feature), None)
    if piece is None or Trait.DEFENSIBLE not in piece.traits:
        return "VF-195", T("{feature} is not a defensible feature", feature=feature)
    if piece.sections:
        return "VF-201", T("connected sections are not built ({feature})", feature=feature)
    if unit.occupying is not None:
        return "VF-201", T(
            "{unit} already occupies {feature}", unit=unit.id, feature=unit.occupying
        )
    holder = occupant(game, feature)
    if holder is not None:
        return "VF-194", T("{feature} is occupied by {unit}", feature=feature, unit=holder.id)
    return None


def occupant(game: GameState, feature: str) -> Unit | None:
    """VF-194: the unit inside `feature` (at most one)."""
    return next((u for u in game.units if u.occupying == feature and not u.fled), None)


def occupy_step(
    ctx: Ctx,
    unit: Unit,
    order: dict[str, JSON],
    wanted: Want,
    messenger: Callable[[Ctx, Unit, dict[str, JSON]], bool],
) -> bool:
    """VF-195: the unit's OCCUPY action, after its messenger test; False when the messenger
    test failed (the caller marks it as having stood)."""
    feature = str(order.get("feature"))
    problem = feature_problem(ctx.game, unit, feature)
    if problem is not None:
        raise Skip(*problem)
    if "formation_before" in order or "formation_after" in order:
        raise Skip("VF-195", T("occupying a feature is not a formation change"))
    wanted["near"] = _bind(ms.near_feature, ctx.game, unit, feature)
    facts = ctx.need(wanted)
    if not facts["near"]:
        raise Skip(
            "VF-195",
            T("{unit} is not less than 3 in from {feature}", unit=unit.id, feature=feature),
        )
    if not messenger(ctx, unit, facts):
        return False
    enter(ctx, unit.id, feature)
    return True


def enter(ctx: Ctx, unit_id: str, feature: str) -> None:
    """The unit goes inside (VF-195): no formation, the feature as its footprint; enemy
    leaders in the feature are overrun (VF-194, VF-59)."""
    unit = ctx.game.unit(unit_id)
    kept = ctx.flow.setdefault(FORMATIONS_KEY, {})
    assert isinstance(kept, dict)
    kept[unit_id] = unit.formation.value
    flags = replace(unit.turn_flags, occupied_this_turn=True)
    inside = replace(unit, occupying=feature, formation=Formation.NONE, turn_flags=flags)
    ctx.game = m.with_unit(ctx.game, inside)
    ctx.say(T("{unit} occupies {feature} (VF-195)", unit=unit_id, feature=feature))
    for leader in ctx.game.leaders:
        if leader.occupying == feature and leader.side != unit.side and not leader.removed:
            out = replace(leader, occupying=None)
            ctx.game = m.with_leader(ctx.game, out)
            fact = ms.overrun_place(ctx.game, out, g.piece_polygon(ctx.game.piece(feature)))
            place_overrun(ctx, out, fact.value)


def leave_step(
    ctx: Ctx, unit: Unit, order: dict[str, JSON], action: str, wanted: Want
) -> dict[str, JSON]:
    """VF-197: the checks and facts of an occupant's Move or Withdraw out of its feature; the
    caller makes the messenger test and then calls `leave`."""
    feature = str(unit.occupying)
    if action not in ("MOVE", "WITHDRAW"):
        raise Skip(
            "VF-197",
            T(
                "{unit} leaves {feature} only with a Move or Withdraw",
                unit=unit.id,
                feature=feature,
            ),
        )
    if unit.turn_flags.occupied_this_turn and not has(unit, "leichte_infanterie"):
        raise Skip(
            "VF-197", T("{unit} occupied {feature} this turn", unit=unit.id, feature=feature)
        )
    if "formation_before" in order:
        raise Skip("VF-197", T("an occupant has no formation to change before it leaves"))
    path = path_of(order.get("path"))
    if not path or not unit.bases:
        raise Skip(
            "VF-197", T("{unit} needs a place to leave {feature} to", unit=unit.id, feature=feature)
        )
    after = _outside(ctx, unit, order)
    dx, dy = ms.end_offset(after, path[-1:])
    placed = ms.moved(after, dx, dy)
    wanted["leave:place"] = _bind(ms.leave_place, after, path)
    wanted["leave:clear"] = _bind(ms.leave_clear, ctx.game, placed, feature)
    if action == "MOVE":
        wanted["start"] = _bind(ms.enemy_closer_than, ctx.game, unit, ms.KEEP_AWAY_IN, "VF-58")
    facts = ctx.need(wanted)
    if action == "MOVE" and facts["start"]:
        raise Skip(
            "VF-58",
            T("{unit} is too close to an enemy unit for a {action}", unit=unit.id, action=action),
        )
    if not facts["leave:clear"]:
        raise Skip("VF-197", T("{unit} cannot be put down there", unit=unit.id))
    if not isinstance(facts["leave:place"], list):
        raise Skip("VF-197", T("the umpire found no place for {unit}", unit=unit.id))
    return facts


def leave(ctx: Ctx, unit_id: str, order: dict[str, JSON], place: JSON) -> None:
    unit = ctx.game.unit(unit_id)
    feature = str(unit.occupying)
    after = _outside(ctx, unit, order)
    assert isinstance(place, list)
    dx, dy = offset(place)
    out = replace(ms.moved(after, dx, dy), occupying=None)
    ctx.game = m.with_unit(ctx.game, out)
    kept = ctx.flow.get(FORMATIONS_KEY)
    if isinstance(kept, dict):
        kept.pop(unit_id, None)
    ctx.say(
        T(
            "{unit} leaves {feature} in {formation} (VF-197), placed at offset ({dx}, {dy})",
            unit=unit_id,
            feature=feature,
            formation=out.formation.value,
            dx=dx,
            dy=dy,
        )
    )


def _outside(ctx: Ctx, unit: Unit, order: dict[str, JSON]) -> Unit:
    """The unit's kept block in the formation it had outside, or in the one `formation_after`
    names (built around its pivot, VF-60's block rules; the 3 in rule is VF-197's)."""
    kept = ctx.flow.get(FORMATIONS_KEY)
    before = kept.get(unit.id) if isinstance(kept, dict) else None
    if isinstance(before, str):
        formation = Formation(before)
    elif is_artillery(unit):
        formation = Formation.MARCH_COLUMN if unit.limbered else Formation.LINE
    else:
        formation = fm.classify(unit.files, unit.ranks)
    outside = replace(unit, formation=formation, occupying=None)
    raw = order.get("formation_after")
    if raw is None:
        return outside
    spec = fm.spec_of(raw)
    try:
        problem = fm.may_adopt(outside, spec.formation)
        if problem is None and not is_artillery(outside):
            problem = fm.block_or_square_problem(outside, spec)
        if problem is not None:
            raise problem
        return fm.changed(outside, spec, fm.build(outside, spec))
    except fm.Refused as refused:
        raise Skip(refused.rule, refused.message) from refused


# --- overrun leaders (VF-59) ---


def overrun_wanted(game: GameState, unit: Unit, path: list[Point], wanted: Want) -> list[str]:
    """VF-59: a placement fact for every enemy leader the unit's path passes over."""
    hull = ms.swept(unit, path, game)
    found = []
    for leader in ms.overrun_by(game, unit, path):
        wanted[f"overrun:{leader.id}"] = _bind(ms.overrun_place, game, leader, hull)
        found.append(leader.id)
    return found


def place_overrun(ctx: Ctx, leader: Leader, place: JSON) -> None:
    """VF-59: the overrun leader is put within 6 in of the nearest unit of its side (the
    umpire's placement, V-11); with no place it stays where it is, for the umpire."""
    if not isinstance(place, list):
        ctx.say(
            T("{leader} is overrun (VF-59); no place was found: the umpire's", leader=leader.id)
        )
        return
    dx, dy = offset(place)
    moved = replace(leader, x=exact(leader.x + dx), y=exact(leader.y + dy))
    ctx.game = m.with_leader(ctx.game, moved)
    ctx.say(
        T(
            "{leader} is overrun and placed at ({x}, {y}) (VF-59)",
            leader=leader.id,
            x=moved.x,
            y=moved.y,
        )
    )


# --- after a melee (VF-200, V-12) and objectives (VF-22) ---


def occupy_after_melee(ctx: Ctx, winner: Unit, feature: str, wanted: str) -> None:
    """VF-200, V-12: the attacking unit may occupy the feature whose occupant lost and fled;
    the active side's sheet answers with `occupy_after_melee` (absent: no)."""
    if wanted != "yes":
        return
    unit = ctx.game.unit(winner.id)
    if not m.on_table(unit) or unit.occupying is not None:
        return
    if occupant(ctx.game, feature) is not None:
        return
    enter(ctx, unit.id, feature)


def objective_controller(game: GameState, feature: str, controller: str | None) -> str | None:
    """VF-22, VF-T36: a defensible objective is controlled by the side whose unit occupies
    it; unoccupied, it stays as it is."""
    holder = occupant(game, feature)
    return holder.side if holder is not None else controller
