"""The geometry aid (digest 2.1, 4.2): footprints, distances, contact, front arcs and move paths
measured with shapely. Every public function returns a `Proposal` for the umpire to confirm or
override; none decides a rule. Line of sight and the nearest visible target are in
`sight_lines`.

Conventions (digest 2.1): x east, y north, inches; a base's facing is the bearing of its front
(0 north, 90 east), its `width` runs along the front and its `depth` to the rear. Distances are
between the nearest points of two models (VF-42: "nearest base edge to nearest base edge"); a
leader is a round model of its radius (digest 2.4); a unit occupying a defensible feature is
measured from the feature (VF-196).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from decimal import Decimal

import shapely  # type: ignore[import-untyped]
from shapely.geometry import LineString, Polygon  # type: ignore[import-untyped]

from games.valour_fortitude.proposals import Proposal, TerrainCrossing, inches_text
from games.valour_fortitude.state import (
    BaseRect,
    Formation,
    Leader,
    Point,
    TerrainPiece,
    Trait,
    Unit,
)

CONTACT_EPSILON_IN = 0.05  # digest 2.1: placements are never exact
EXACT = 1e-9  # float noise: a distance this close to a limit is at the limit
OBSTACLE_CONTACT_IN = 1.0  # VF-187: in contact across an obstacle within 1 in
TERRAIN_MOVE_RULE = "VF-187-192"  # digest 4.2: terrain effects on movement

Vec = tuple[float, float]
Outline = tuple[Vec, ...]
Model = Unit | Leader

_EXACT_AXES: dict[Decimal, tuple[Vec, Vec]] = {  # facing -> (forward, right), exact
    Decimal(0): ((0.0, 1.0), (1.0, 0.0)),
    Decimal(90): ((1.0, 0.0), (0.0, -1.0)),
    Decimal(180): ((0.0, -1.0), (-1.0, 0.0)),
    Decimal(270): ((-1.0, 0.0), (0.0, 1.0)),
}


class OffTableError(ValueError):
    """A model with no place on the table (in reserve, fled, inside a removed feature)."""


def axes(facing_deg: Decimal) -> tuple[Vec, Vec]:
    """The forward and right unit vectors of a facing (digest 2.1)."""
    facing = facing_deg % 360
    if facing in _EXACT_AXES:
        return _EXACT_AXES[facing]
    theta = math.radians(float(facing))
    return (math.sin(theta), math.cos(theta)), (math.cos(theta), -math.sin(theta))


def base_corners(base: BaseRect) -> tuple[Vec, Vec, Vec, Vec]:
    """Front-left, front-right, rear-right, rear-left corners (VF-5 names the front two)."""
    (fx, fy), (rx, ry) = axes(base.facing_deg)
    cx, cy = float(base.x), float(base.y)
    hd, hw = float(base.depth) / 2, float(base.width) / 2

    def corner(ahead: float, right: float) -> Vec:
        return (cx + fx * ahead + rx * right, cy + fy * ahead + ry * right)

    return corner(hd, -hw), corner(hd, hw), corner(-hd, hw), corner(-hd, -hw)


def base_polygon(base: BaseRect) -> Polygon:
    return Polygon(base_corners(base))


def piece_polygon(piece: TerrainPiece) -> Polygon:
    return Polygon([(float(p.x), float(p.y)) for p in piece.polygon])


def _piece(pieces: Sequence[TerrainPiece], piece_id: str) -> TerrainPiece:
    found = next((t for t in pieces if t.id == piece_id), None)
    if found is None:
        raise OffTableError(f"the feature {piece_id!r} is not among the terrain given")
    return found


def footprint_polygon(unit: Unit, terrain: Sequence[TerrainPiece] = ()) -> Polygon:
    """The ground a unit covers: the union of its bases, or the feature it occupies (VF-196)."""
    if unit.occupying is not None:
        return piece_polygon(_piece(terrain, unit.occupying))
    if unit.fled or not unit.bases:
        raise OffTableError(f"{unit.id} is not on the table")
    return bases_outline(unit.bases)


@functools.lru_cache(maxsize=4096)
def bases_outline(bases: tuple[BaseRect, ...]) -> Polygon:
    """The union of the bases (shapely geometries are immutable: shared safely)."""
    return shapely.union_all([base_polygon(b) for b in bases])


def _shape(model: Model, terrain: Sequence[TerrainPiece]) -> tuple[object, float]:
    """A model as (geometry, radius): a leader is its centre grown by its radius."""
    if isinstance(model, Unit):
        return footprint_polygon(model, terrain), 0.0
    if model.removed:
        raise OffTableError(f"{model.id} has been removed")
    if model.occupying is not None:
        return piece_polygon(_piece(terrain, model.occupying)), 0.0
    return shapely.Point(float(model.x), float(model.y)), float(model.radius_in)


def gap_between(a: Model, b: Model, terrain: Sequence[TerrainPiece] = ()) -> float:
    """The shortest distance between two models (0 when they touch or overlap)."""
    ga, ra = _shape(a, terrain)
    gb, rb = _shape(b, terrain)
    return max(0.0, float(shapely.distance(ga, gb)) - ra - rb)


def footprint(unit: Unit, terrain: Sequence[TerrainPiece] = ()) -> Proposal[tuple[Outline, ...]]:
    """The outline of each part of the unit's footprint (a gun and its limber may stand apart,
    VF-11), corners as (x, y) in inches (VF-4, VF-8; digest 5.2)."""
    shape = shapely.simplify(footprint_polygon(unit, terrain), 0)  # drop collinear corners
    parts = list(shape.geoms) if hasattr(shape, "geoms") else [shape]
    outlines: tuple[Outline, ...] = tuple(
        tuple((round(float(x), 3), round(float(y), 3)) for x, y in part.exterior.coords[:-1])
        for part in parts
    )
    note = f"the feature {unit.occupying}" if unit.occupying else f"{len(unit.bases)} base(s)"
    return Proposal(f"footprint of {unit.id}", outlines, "VF-4", note)


def distance(
    a: Model, b: Model, terrain: Sequence[TerrainPiece] = (), rule: str = "VF-42"
) -> Proposal[float]:
    """Nearest edge to nearest edge, in inches (VF-42); `rule` names the step it serves."""
    return Proposal(f"distance {a.id} to {b.id}", gap_between(a, b, terrain), rule)


def within(
    a: Model,
    b: Model,
    inches: float,
    rule: str,
    terrain: Sequence[TerrainPiece] = (),
    *,
    inclusive: bool = True,
) -> Proposal[bool]:
    """Whether `b` is within `inches` of `a` ("innerhalb von"; with inclusive=False: "less
    than"), e.g. 24 in BG to CinC (VF-52), 12 in unit to BG (VF-55)."""
    gap = gap_between(a, b, terrain)
    inside = gap <= inches + EXACT if inclusive else gap < inches - EXACT
    word = "within" if inclusive else "less than"
    fact = f"{b.id} {word} {inches:g} in of {a.id}"
    return Proposal(fact, inside, rule, f"distance {inches_text(gap)} in")


def in_range(
    firer: Unit, target: Unit, range_in: float, terrain: Sequence[TerrainPiece] = ()
) -> Proposal[bool]:
    """VF-42: the target is in range when the shortest distance is at most the range."""
    gap = gap_between(firer, target, terrain)
    fact = f"{target.id} in range ({range_in:g} in) of {firer.id}"
    return Proposal(fact, gap <= range_in + EXACT, "VF-42", f"distance {inches_text(gap)} in")


def in_contact(
    a: Unit, b: Unit, terrain: Sequence[TerrainPiece] = (), epsilon: float = CONTACT_EPSILON_IN
) -> Proposal[bool]:
    """VF-6: touching, corners included (within the placement tolerance); VF-187: within 1 in
    and both touching the same obstacle."""
    fa, fb = footprint_polygon(a, terrain), footprint_polygon(b, terrain)
    gap = float(shapely.distance(fa, fb))
    fact = f"{a.id} in contact with {b.id}"
    if gap <= epsilon:
        return Proposal(fact, True, "VF-6", f"gap {inches_text(gap)} in")
    if gap <= OBSTACLE_CONTACT_IN + epsilon:
        for piece in terrain:
            if Trait.OBSTACLE in piece.traits:
                outline = piece_polygon(piece)
                if max(shapely.distance(fa, outline), shapely.distance(fb, outline)) <= epsilon:
                    note = f"gap {inches_text(gap)} in across the obstacle {piece.id}"
                    return Proposal(fact, True, "VF-187", note)
    return Proposal(fact, False, "VF-6", f"gap {inches_text(gap)} in")


def sees_all_round(unit: Unit) -> bool:
    """VF-43: units in square or in a defensible feature see in all directions."""
    return unit.formation is Formation.SQUARE or unit.occupying is not None


def arc_polygon(base: BaseRect, reach: float) -> Polygon:
    """VF-5: the front arc of a base, bounded by rays from its front corners at 45 degrees
    outward from straight ahead, cut off `reach` inches away."""
    front_left, front_right, _, _ = base_corners(base)
    (fx, fy), (rx, ry) = axes(base.facing_deg)
    k = reach / math.sqrt(2)
    left = (front_left[0] + (fx - rx) * k, front_left[1] + (fy - ry) * k)
    right = (front_right[0] + (fx + rx) * k, front_right[1] + (fy + ry) * k)
    return Polygon([front_left, left, right, front_right])


def reach_over(*shapes: object) -> float:
    """A length longer than any distance between the shapes (cuts the arcs off safely)."""
    x0, y0, x1, y1 = shapely.union_all(list(shapes)).bounds
    return 2.0 * math.hypot(x1 - x0, y1 - y0) + 10.0


def in_front_arc(
    viewer: Unit,
    subject: Model | Point,
    terrain: Sequence[TerrainPiece] = (),
    rule: str = "VF-43",
) -> Proposal[bool]:
    """Whether the subject lies at least partly in the front arc of one of the viewer's
    front-rank bases (VF-5, VF-43); also serves flanking (VF-86) and withdrawing (VF-61)."""
    name = f"({subject.x}, {subject.y})" if isinstance(subject, Point) else subject.id
    fact = f"{name} in the front arc of {viewer.id}"
    if sees_all_round(viewer):
        return Proposal(fact, True, rule, "square or occupant: sees in all directions (VF-43)")
    if isinstance(subject, Point):
        shape, radius = shapely.Point(float(subject.x), float(subject.y)), 0.0
    else:
        shape, radius = _shape(subject, terrain)
    front = [b for b in viewer.bases if b.front_rank]
    if not front:
        raise OffTableError(f"{viewer.id} has no front-rank base on the table")
    reach = reach_over(footprint_polygon(viewer, terrain), shape) + radius
    for i, base in enumerate(viewer.bases):
        if base.front_rank and shapely.distance(arc_polygon(base, reach), shape) <= radius + EXACT:
            return Proposal(fact, True, rule, f"in the arc of base {i}")
    return Proposal(fact, False, rule, f"outside the arcs of {len(front)} front-rank base(s)")


def _line(path: Sequence[Point]) -> LineString:
    if len(path) < 2:
        raise ValueError("a path has a start and an end")
    return LineString([(float(p.x), float(p.y)) for p in path])


def path_length(path: Sequence[Point]) -> Proposal[float]:
    """VF-56: the length of the polyline a base travels (start, waypoints, end)."""
    return Proposal("length of the path", float(_line(path).length), "VF-56")


def path_through_terrain(
    path: Sequence[Point], terrain: Sequence[TerrainPiece]
) -> Proposal[tuple[TerrainCrossing, ...]]:
    """Which terrain pieces the path meets and how far it runs inside each (VF-187 obstacles,
    VF-189 roads, VF-190 impassable, VF-192 rough ground), in the order given."""
    line = _line(path)
    start, end = shapely.Point(line.coords[0]), shapely.Point(line.coords[-1])
    found: list[TerrainCrossing] = []
    for piece in terrain:
        outline = piece_polygon(piece)
        inside = line.intersection(outline)
        length = float(inside.length)
        if length <= EXACT:
            continue
        lines = [g for g in getattr(inside, "geoms", [inside]) if g.geom_type == "LineString"]
        merged = shapely.line_merge(shapely.MultiLineString(lines)) if len(lines) > 1 else lines[0]
        stretches = [p for p in getattr(merged, "geoms", [merged]) if p.length > EXACT]
        through = sum(1 for s in stretches if s.distance(start) > EXACT and s.distance(end) > EXACT)
        traits = tuple(sorted(str(t) for t in piece.traits))
        found.append(TerrainCrossing(piece.id, piece.kind, traits, length, len(stretches), through))
    note = f"{len(found)} piece(s) met along {inches_text(float(line.length))} in"
    return Proposal("terrain along the path", tuple(found), TERRAIN_MOVE_RULE, note)
