"""A board's drawing as data: a point per locale, the map outline and each locale's cell.

The board files hold no coordinates. `data/<board>-layout.yaml` (written by
``python -m games.napoleons_triumph.layout_build``, committed) gives, in layout units (x to the
right, y downwards, the box 0..1000 x 0..700, as in SVG):

* ``source``: how it was computed (schematic, not the printed map);
* ``board``: the board id;
* ``outline``: the map outline polygon, a list of ``[x, y]``;
* ``points``: ``{<locale number>: [x, y]}``;
* ``cells``: ``{<locale number>: [[x, y], ...]}``, each locale's cell (closed ring), derived
  from the points (``layout_cells``) so that drawing needs no computation.

`layout_for(board_name)` loads it (None for a board without one); `layout_problems` checks a
layout against its board (the tests, and a staff page where a game owner moves the points);
`layout_from_points` recomputes the cells for moved points and `layout_yaml` writes the file's
format.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import shapely  # type: ignore[import-untyped]
import yaml
from shapely.geometry import Polygon  # type: ignore[import-untyped]

from games.napoleons_triumph.board import DATA_DIR, SHIPPED, Board, _yaml_loader
from games.napoleons_triumph.layout_cells import (
    Point,
    Ring,
    compute_cells,
    crossing_pairs,
    rounded,
)

WIDTH = 1000.0
HEIGHT = 700.0
BOX: tuple[Point, ...] = ((0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT))
AREA_TOLERANCE = 1.0  # square layout units: rounding to 0.1 leaves slivers far below this
EDGE_MIN = 1.0  # a shared edge shorter than this is a corner, not an edge
SOURCE_EDITED = "schematic, not the printed map: points placed by hand, cells recomputed"


@dataclass(frozen=True, slots=True)
class Layout:
    board: str
    source: str
    outline: tuple[Point, ...]
    points: Mapping[int, Point]
    cells: Mapping[int, Ring]


def approach_edges(board: Board) -> list[tuple[str, int, int]]:
    return sorted((ap.id, ap.a, ap.b) for ap in board.approaches.values())


def layout_path_name(board_name: str) -> str:
    return f"{board_name}-layout.yaml"


def _pair(value: object) -> Point:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise ValueError(f"not an [x, y] pair: {value!r}")
    x, y = value
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, int | float):
        raise ValueError(f"not an [x, y] pair: {value!r}")
    if not isinstance(y, int | float):
        raise ValueError(f"not an [x, y] pair: {value!r}")
    return (float(x), float(y))


def parse_layout(doc: object) -> Layout:
    """A layout from its parsed YAML document (ValueError naming what is wrong)."""
    if not isinstance(doc, dict):
        raise ValueError("a layout is a mapping")
    points_raw = doc.get("points")
    cells_raw = doc.get("cells") or {}
    outline_raw = doc.get("outline") or list(BOX)
    if not isinstance(points_raw, dict) or not isinstance(cells_raw, dict):
        raise ValueError("points and cells are mappings from locale numbers")
    if not isinstance(outline_raw, list):
        raise ValueError("the outline is a list of [x, y]")
    return Layout(
        board=str(doc.get("board", "")),
        source=str(doc.get("source", "")),
        outline=tuple(_pair(p) for p in outline_raw),
        points={int(k): _pair(v) for k, v in sorted(points_raw.items())},
        cells={
            int(k): tuple(_pair(p) for p in v)
            for k, v in sorted(cells_raw.items())
            if isinstance(v, list)
        },
    )


@functools.lru_cache(maxsize=8)
def layout_for(board_name: str) -> Layout | None:
    """The committed layout of a shipped board, or None (an unknown board, a custom one, or a
    board without a layout file). Named by id only: nothing else touches the file system."""
    if board_name not in SHIPPED:
        return None
    path = DATA_DIR / layout_path_name(board_name)
    if not path.is_file():
        return None
    return parse_layout(yaml.load(path.read_text(encoding="utf-8"), Loader=_yaml_loader()))  # noqa: S506


def layout_from_points(
    board: Board,
    points: Mapping[int, Point],
    source: str = SOURCE_EDITED,
    outline: tuple[Point, ...] = BOX,
) -> Layout:
    """A layout of `board` with these points (rounded to 0.1) and the cells recomputed."""
    pts = {lid: rounded(points[lid]) for lid in sorted(points)}
    edges = [e for e in approach_edges(board) if e[1] in pts and e[2] in pts]
    return Layout(
        board=board.name,
        source=source,
        outline=outline,
        points=pts,
        cells=compute_cells(pts, edges, outline),
    )


def _xy(p: Point) -> list[float]:
    return [p[0], p[1]]


def layout_yaml(layout: Layout) -> str:
    """The layout file's text (stable: the same layout always gives the same bytes)."""
    lines = [
        "# A schematic drawing of the board for the browser: NOT the printed map.",
        "# Written by `python -m games.napoleons_triumph.layout_build` (or the layout editor);",
        "# see games/napoleons_triumph/layout.py for the format.",
        f"source: {yaml.safe_dump(layout.source, width=10_000).splitlines()[0]}",
        f"board: {layout.board}",
        f"outline: {_flow([_xy(p) for p in layout.outline])}",
        "points:",
    ]
    lines += [f"  {lid}: {_flow(_xy(p))}" for lid, p in sorted(layout.points.items())]
    lines.append("cells:")
    lines += [
        f"  {lid}: {_flow([_xy(p) for p in ring])}" for lid, ring in sorted(layout.cells.items())
    ]
    return "\n".join(lines) + "\n"


def _flow(value: object) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=1_000_000).strip()


# -- the check -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Figures:
    """The layout check's figures (for the issue's note and the build's output)."""

    locales: int
    approaches: int
    crossings: int
    overlaps: int
    apart: int  # approaches whose two cells share no edge


def _polygon(ring: Ring) -> Polygon:
    return Polygon(ring) if len(ring) >= 3 else Polygon()


def _overlaps(cells: Mapping[int, Polygon]) -> list[tuple[int, int, float]]:
    order = sorted(cells)
    geoms = [cells[lid] for lid in order]
    tree = shapely.STRtree(geoms)
    out: list[tuple[int, int, float]] = []
    for i, g in enumerate(geoms):
        for j in tree.query(g, predicate="intersects"):
            j = int(j)
            if j > i:
                area = g.intersection(geoms[j]).area
                if area > AREA_TOLERANCE:
                    out.append((order[i], order[j], area))
    return out


def check(layout: Layout, board: Board) -> tuple[list[str], Figures]:
    """`layout_problems` and the figures behind them."""
    problems: list[str] = []
    missing_pt = sorted(set(board.locales) - set(layout.points))
    missing_cell = sorted(set(board.locales) - set(layout.cells))
    if missing_pt:
        problems.append(f"locales without a point: {missing_pt}")
    if missing_cell:
        problems.append(f"locales without a cell: {missing_cell}")
    cells = {lid: _polygon(layout.cells[lid]) for lid in board.locales if lid in layout.cells}
    for lid, poly in sorted(cells.items()):
        if poly.is_empty or not poly.is_valid:
            problems.append(f"locale {lid}: its cell is not a valid polygon")
    cells = {lid: p for lid, p in cells.items() if p.is_valid and not p.is_empty}
    edges = [e for e in approach_edges(board) if e[1] in layout.points and e[2] in layout.points]
    crossings = crossing_pairs(layout.points, edges)
    problems += [f"approaches {a} and {b} cross" for a, b in crossings]
    overlaps = _overlaps(cells)
    problems += [f"cells {a} and {b} overlap ({area:.1f})" for a, b, area in overlaps]
    apart = 0
    for aid, a, b in edges:
        if a in cells and b in cells:
            shared = cells[a].boundary.intersection(cells[b].boundary).length
            if shared < EDGE_MIN:
                apart += 1
                problems.append(f"approach {aid}: the cells of {a} and {b} share no edge")
    figures = Figures(
        len(board.locales), len(board.approaches), len(crossings), len(overlaps), apart
    )
    return problems, figures


def layout_problems(layout: Layout, board: Board) -> list[str]:
    """Everything wrong with `layout` as a drawing of `board`, one sentence each (empty: none):
    a locale without a point or cell, approach segments (point to point) that cross other than
    at a shared end, cells that overlap (area over AREA_TOLERANCE), and two locales sharing an
    approach whose cells share no edge."""
    return check(layout, board)[0]
