"""The cells of a board drawing (shapely): one polygon per locale, clipped to the map outline.

A locale's cell is its region of a generalised Voronoi diagram: the sites of a locale are its
point and samples along the first half (up to `REACH`) of each straight approach segment to a
neighbour. A cell is the union of the Voronoi cells of its sites, so two locales joined by an
approach whose segment crosses no other approach always share an edge through the segment's
middle (their last samples face each other there), and the cells of a planar drawing tile the
outline without gaps or overlaps. The cells are then simplified as one coverage (shared edges
stay identical on both sides) and rounded to 0.1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import shapely  # type: ignore[import-untyped]
from shapely.geometry import LineString, MultiPoint, Polygon  # type: ignore[import-untyped]
from shapely.geometry.base import BaseGeometry  # type: ignore[import-untyped]

Point = tuple[float, float]
Ring = tuple[Point, ...]

SAMPLES = 12  # sites along each half approach
REACH = 0.46  # the last site on a half approach, as a fraction of the segment
SIMPLIFY = 4.0  # coverage simplification tolerance, in layout units
DIGITS = 1  # coordinates are rounded to 0.1


def rounded(p: Sequence[float]) -> Point:
    return (round(float(p[0]), DIGITS), round(float(p[1]), DIGITS))


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two segments with no shared end point intersect (touching counts)."""
    return bool(LineString([p1, p2]).intersects(LineString([q1, q2])))


def crossing_pairs(
    points: Mapping[int, Point], edges: Iterable[tuple[str, int, int]]
) -> list[tuple[str, str]]:
    """The pairs of approach segments (point to point) that meet anywhere but at a shared end,
    as (approach id, approach id), sorted."""
    items = sorted(edges)
    lines = [LineString([points[a], points[b]]) for _, a, b in items]
    tree = shapely.STRtree(lines)
    out: list[tuple[str, str]] = []
    for i, (ida, a1, b1) in enumerate(items):
        for j in tree.query(lines[i], predicate="intersects"):
            j = int(j)
            if j <= i:
                continue
            idb, a2, b2 = items[j]
            shared = {a1, b1} & {a2, b2}
            if not shared:
                out.append((ida, idb))
            elif len(shared) == 1 and lines[i].intersection(lines[j]).length > 0:
                out.append((ida, idb))  # collinear overlap from a shared end
    return sorted(out)


def _sites(
    points: Mapping[int, Point], edges: Sequence[tuple[str, int, int]]
) -> tuple[list[Point], list[int]]:
    sites: list[Point] = []
    owner: list[int] = []
    seen: set[Point] = set()

    def add(p: Point, lid: int) -> None:
        if p not in seen:
            seen.add(p)
            sites.append(p)
            owner.append(lid)

    for lid in sorted(points):
        add(points[lid], lid)
    for _, a, b in edges:
        (ax, ay), (bx, by) = points[a], points[b]
        for k in range(1, SAMPLES + 1):
            t = REACH * k / SAMPLES
            add((ax + (bx - ax) * t, ay + (by - ay) * t), a)
            add((bx + (ax - bx) * t, by + (ay - by) * t), b)
    return sites, owner


def _largest(geom: BaseGeometry) -> Polygon:
    if isinstance(geom, Polygon):
        return geom
    polys = [g for g in getattr(geom, "geoms", ()) if isinstance(g, Polygon)]
    return max(polys, key=lambda g: g.area) if polys else Polygon()


def compute_cells(
    points: Mapping[int, Point],
    edges: Iterable[tuple[str, int, int]],
    outline: Sequence[Point],
) -> dict[int, Ring]:
    """Each locale's cell (its exterior ring, closed, rounded) for `points`, the approaches
    `edges` as (id, a, b) and the map `outline`. Approaches whose segments cross another get no
    samples (they cannot all be realised), so they never distort the other cells."""
    all_edges = sorted(edges)
    crossing = {x for pair in crossing_pairs(points, all_edges) for x in pair}
    straight = [e for e in all_edges if e[0] not in crossing]
    sites, owner = _sites(points, straight)
    frame = Polygon(outline)
    diagram = shapely.voronoi_polygons(
        MultiPoint(sites), extend_to=frame.buffer(frame.length), ordered=True
    )
    parts: dict[int, list[BaseGeometry]] = {lid: [] for lid in points}
    for lid, cell in zip(owner, diagram.geoms, strict=True):
        parts[lid].append(cell)
    order = sorted(points)
    merged = [_largest(shapely.union_all(parts[lid]).intersection(frame)) for lid in order]
    simple = shapely.coverage_simplify(merged, SIMPLIFY, simplify_boundary=False)
    out: dict[int, Ring] = {}
    for lid, geom in zip(order, simple, strict=True):
        poly = _largest(shapely.make_valid(geom))
        ring = shapely.orient_polygons(poly).exterior.coords if not poly.is_empty else []
        out[lid] = tuple(rounded(p) for p in ring)
    return out
