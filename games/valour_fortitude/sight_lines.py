"""Line of sight (VF-44, VF-191) and the nearest visible target (VF-41), proposed to the umpire.

A base of the viewer's front rank has a line of sight to a target when the target lies at least
partly in its front arc (VF-5) and some straight line from the base's front edge to the part of
the target in that arc neither crosses a feature that blocks sight (T.2.5: `BLOCKS_LOS`, and
every `DEFENSIBLE` feature, VF-193) nor passes within 2 in of another unit (VF-44). The lines
tried run from points every `SAMPLE_STEP_IN` along the front edge to points every
`SAMPLE_STEP_IN` along the outline of the visible part of the target (digest VF-44's sampling).

Readings taken here (README.md, "Readings"): a feature does not block for the viewing base or
the target when it stands on or touches that feature (VF-191, both ends); leaders never block
(AMB-9); reverse slopes of hills are left to the umpire (GAP-2) and flagged in the note; and for
the nearest-target rule a unit counts as "visible" only with a line of sight as well.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import shapely  # type: ignore[import-untyped]

from games.valour_fortitude.geometry import (
    CONTACT_EPSILON_IN,
    EXACT,
    OffTableError,
    arc_polygon,
    base_corners,
    base_polygon,
    bases_outline,
    footprint_polygon,
    gap_between,
    in_front_arc,
    piece_polygon,
    reach_over,
    sees_all_round,
)
from games.valour_fortitude.proposals import Proposal, inches_text
from games.valour_fortitude.state import BaseRect, TerrainPiece, Trait, Unit

UNIT_CLEARANCE_IN = 2.0  # VF-44: a line may not pass within 2 in of other units
SAMPLE_STEP_IN = 0.25  # digest VF-44: sample the edges every 0.25 in
BLOCKING = frozenset({Trait.BLOCKS_LOS, Trait.DEFENSIBLE})  # T.2.5, VF-193


def _samples(shape: object) -> list[tuple[float, float]]:
    """Points along the outline of `shape` every SAMPLE_STEP_IN, corners included."""
    boundary = shapely.boundary(shape) if shapely.area(shape) > 0 else shape
    points: list[tuple[float, float]] = []
    for part in getattr(boundary, "geoms", [boundary]):
        coords = list(part.coords)
        points += [(float(x), float(y)) for x, y in coords]
        length = float(part.length)
        steps = int(length / SAMPLE_STEP_IN)
        for k in range(1, steps):
            p = part.interpolate(k * SAMPLE_STEP_IN)
            points.append((float(p.x), float(p.y)))
    return points


def _on_or_touching(shape: object, piece: object) -> bool:
    return bool(shapely.distance(shape, piece) <= CONTACT_EPSILON_IN)


@dataclass(frozen=True, slots=True)
class _Placed:
    """What line of sight needs of another unit: where it stands."""

    id: str
    fled: bool
    occupying: str | None
    bases: tuple[BaseRect, ...]


def _outline(unit: _Placed, terrain: Sequence[TerrainPiece]) -> object:
    if unit.occupying is not None:
        found = next((t for t in terrain if t.id == unit.occupying), None)
        if found is None:
            raise OffTableError(f"the feature {unit.occupying!r} is not among the terrain")
        return piece_polygon(found)
    return bases_outline(unit.bases)


@dataclass(frozen=True, slots=True)
class _Seat:
    """A part of the viewer that sees: where its lines start, what it stands on (for VF-191)
    and the base whose front arc bounds what it sees (None: all round, VF-43)."""

    label: str
    edge: list[tuple[float, float]]
    stand: object
    arc_of: BaseRect | None


def line_of_sight(
    viewer: Unit, target: Unit, units: Sequence[Unit], terrain: Sequence[TerrainPiece] = ()
) -> Proposal[bool]:
    """VF-44: whether any front-rank base of `viewer` has a line of sight to `target`; `units`
    are the units on the table (the viewer and the target among them or not)."""
    placed = tuple((u.id, u.fled, u.occupying, u.bases) for u in units)
    return _line_of_sight(viewer, target, placed, tuple(terrain))


@functools.lru_cache(maxsize=4096)
def _line_of_sight(
    viewer: Unit,
    target: Unit,
    placed: tuple[tuple[str, bool, str | None, tuple[BaseRect, ...]], ...],
    terrain: tuple[TerrainPiece, ...],
) -> Proposal[bool]:
    """The measurement, memoised on what it depends on (the placements, not the units' other
    records): a pure function of immutable values, and the costliest proposal there is."""
    units = [_Placed(i, f, o, b) for i, f, o, b in placed]
    fact = f"line of sight from {viewer.id} to {target.id}"
    target_shape = footprint_polygon(target, terrain)
    others = [
        _outline(u, terrain)
        for u in units
        if u.id not in (viewer.id, target.id) and not u.fled and (u.bases or u.occupying)
    ]
    blockers = [(t, piece_polygon(t)) for t in terrain if BLOCKING & t.traits]
    reach = reach_over(footprint_polygon(viewer, terrain), target_shape)
    tried = 0
    hill_exempt = False
    for seat in _seats(viewer, terrain):
        seen = target_shape
        if seat.arc_of is not None:
            seen = target_shape.intersection(arc_polygon(seat.arc_of, reach))
        if seen.is_empty:
            continue
        lines = shapely.linestrings(
            np.array([[a, b] for a in seat.edge for b in _samples(seen)], dtype=float)
        )
        # every line lies inside this hull: what is clear of it cannot block (a shortcut only)
        hull = shapely.convex_hull(shapely.union(shapely.MultiPoint(seat.edge), seen))
        clear = np.ones(len(lines), dtype=bool)
        for other in others:
            if shapely.distance(hull, other) > UNIT_CLEARANCE_IN + EXACT:
                continue
            clear &= shapely.distance(lines, other) > UNIT_CLEARANCE_IN + EXACT
        for piece, outline in blockers:
            if _on_or_touching(seat.stand, outline) or _on_or_touching(target_shape, outline):
                hill_exempt = hill_exempt or Trait.HILL in piece.traits
                continue  # VF-191: not blocked for bases on or touching the feature
            if not shapely.intersects(hull, outline):
                continue
            clear &= shapely.length(shapely.intersection(lines, outline)) <= 1e-6
        tried += len(lines)
        if clear.any():
            (x0, y0), (x1, y1) = shapely.get_coordinates(lines[int(np.argmax(clear))])
            note = f"clear from {seat.label}: ({x0:.2f}, {y0:.2f}) to ({x1:.2f}, {y1:.2f})"
            if hill_exempt:
                note += "; a hill was passed over from on or beside it: reverse slope? (GAP-2)"
            return Proposal(fact, True, "VF-44", note)
    note = f"every one of {tried} lines is blocked" if tried else "no front-rank base sees it"
    return Proposal(fact, False, "VF-44", note)


def _seats(viewer: Unit, terrain: Sequence[TerrainPiece]) -> list[_Seat]:
    if viewer.occupying is not None:  # VF-196: from the feature's outline, in every direction
        piece = next((t for t in terrain if t.id == viewer.occupying), None)
        if piece is None:
            raise OffTableError(f"the feature {viewer.occupying!r} is not among the terrain")
        outline = piece_polygon(piece)
        return [_Seat(f"the feature {piece.id}", _samples(outline), outline, None)]
    seats: list[_Seat] = []
    all_round = sees_all_round(viewer)
    for i, base in enumerate(viewer.bases):
        if base.front_rank:
            front_left, front_right, _, _ = base_corners(base)
            edge = _samples(shapely.LineString([front_left, front_right]))
            seats.append(_Seat(f"base {i}", edge, base_polygon(base), None if all_round else base))
    return seats


def nearest_visible_target(
    firer: Unit,
    units: Sequence[Unit],
    terrain: Sequence[TerrainPiece] = (),
    excluded: Collection[str] = (),
) -> Proposal[tuple[str, ...]]:
    """VF-41: the nearest enemy unit that is visible (in the front arc, VF-43, with a line of
    sight, VF-44) and not `excluded` (already attacked this phase). Several ids when they are
    equally near: the acting player chooses (AMB-8); none when nothing is visible."""
    fact = f"nearest visible target of {firer.id}"
    enemies = [
        u
        for u in units
        if u.side != firer.side and not u.fled and (u.bases or u.occupying) and u.id not in excluded
    ]
    ranked = sorted((gap_between(firer, u, terrain), u.id, u) for u in enemies)
    nearest: list[str] = []
    seen_at: float | None = None
    notes: list[str] = []
    for gap, uid, enemy in ranked:
        if seen_at is not None and gap > seen_at + EXACT:
            break
        arc = in_front_arc(firer, enemy, terrain).value
        los = arc and line_of_sight(firer, enemy, units, terrain).value
        notes.append(f"{uid} at {inches_text(gap)} in: " + ("visible" if los else "not visible"))
        if los:
            seen_at = gap if seen_at is None else seen_at
            nearest.append(uid)
    note = "; ".join(notes) or "no enemy unit on the table"
    if len(nearest) > 1:
        note += "; equally near: the acting player chooses (AMB-8)"
    return Proposal(fact, tuple(nearest), "VF-41", note)
