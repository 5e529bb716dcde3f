"""The Napoleon's Triumph board as SVG, drawn ONLY from a seat's view (`RULESET.view`).

`render(view) -> str` is the registry's board hook (games.registry, Entry.board). The view names
its board; the board's public data (board.py) and its committed layout (layout.py) are public, so
the map (cells, approaches with width and symbols, roads, entry roads) is drawn from them, once per
board and cached; the pieces, the time track and morale come from the view alone. Nothing else
is read, so two states that differ only in what the seat may not see give the same bytes.

Markup (contract B1 of issue 15): each locale is ``<g class="locale" data-locale="<n>"
id="locale-<n>">`` with a ``<title>``; each visible block ``<g class="block own|enemy"
data-piece="<unit id or alias>">``: own blocks upright with their id and face, enemy blocks face
down with their alias and a face only when the view shows one; commanders ``<g
class="commander" data-piece="<id>">``; approaches ``<path class="approach narrow|wide"
data-approach="<id>">``. Sizes are viewBox units; the style is inline CSS (no fonts, no links).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

import shapely  # type: ignore[import-untyped]
from shapely.geometry import LineString, Polygon  # type: ignore[import-untyped]

from games.core.protocol import JSON
from games.napoleons_triumph.board import Board, board_ids, board_named
from games.napoleons_triumph.layout import HEIGHT, WIDTH, Layout, layout_for
from games.napoleons_triumph.layout_cells import Point

TRACK_H = 60.0
BLOCK_W, BLOCK_H, COLUMNS = 24.0, 15.0, 4
STAR_FILL = {"blue": "#1f5fbf", "green": "#2e8b3a", "red": "#c0392b", "black": "#111"}
SIDE_NAME = {"F": "French", "AL": "Allied"}
STYLE = """
.map{fill:#f4f1e6;stroke:#555;stroke-width:1.5}
.cell{fill:#e9e4cf;stroke:#8a8266;stroke-width:0.6}
.locale.hill .cell{fill:#d9cfa6}
.locale:focus .cell,.locale:hover .cell{fill:#f7e9a8}
.approach{fill:none;stroke:#5a5038;stroke-linecap:round}
.approach.narrow{stroke-width:1.2;stroke-dasharray:4 3}
.approach.wide{stroke-width:3}
.approach.impassable{stroke:#2a6f9e;stroke-width:4;stroke-dasharray:none}
.approach.apart{stroke-width:0.8;stroke-dasharray:1 3}
.obstacle{fill:#7a3b12}
.penalty{font-size:6px;fill:#7a3b12;text-anchor:middle}
.road{fill:none;stroke-linecap:round;stroke-linejoin:round}
.road.main{stroke:#b3261e;stroke-width:2.2}
.road.local{stroke:#8b5a2b;stroke-width:1.3}
.entry{stroke-width:2.5;marker-end:none}
.entry.F{stroke:#1f5fbf}.entry.AL{stroke:#c0392b}
.entry-label{font-size:8px;text-anchor:middle}
.num{font-size:8px;font-weight:bold;fill:#222}
.name{font-size:8px;fill:#222;text-anchor:middle}
.cap{font-size:7px;fill:#444}
.hillmark{fill:#6b5b2a}
.block rect{stroke:#222;stroke-width:0.6}
.block.own.F rect{fill:#cfe0ff}.block.own.AL rect{fill:#ffd6cc}
.block.enemy.F rect{fill:#1f5fbf}.block.enemy.AL rect{fill:#c0392b}
.block text{font-size:6px;text-anchor:middle}
.block.enemy text{fill:#fff}
.commander circle{stroke:#222;stroke-width:0.6}
.commander.F circle{fill:#9fbff5}.commander.AL circle{fill:#f5a99f}
.commander text{font-size:6px;text-anchor:middle}
.track rect{fill:#fff;stroke:#555;stroke-width:0.6}
.track .now rect{fill:#ffe08a;stroke-width:1.5}
.track .night rect{fill:#c8c8d8}
.track text,.morale text{font-size:9px;text-anchor:middle}
.message{font-size:14px}
"""


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _d(points: Sequence[Point], closed: bool = False) -> str:
    if not points:
        return ""
    head, *rest = points
    out = f"M{_num(head[0])} {_num(head[1])}" + "".join(f"L{_num(x)} {_num(y)}" for x, y in rest)
    return out + ("Z" if closed else "")


def _attr(s: object) -> str:
    return quoteattr(str(s))


# -- the map: drawn once per board -----------------------------------------------------------------


def _shared_edges(board: Board, layout: Layout) -> dict[str, list[Point]]:
    """Each approach's shared cell edge (the longest piece), or [] when the cells do not touch."""
    cells = {lid: Polygon(ring) for lid, ring in layout.cells.items() if len(ring) >= 3}
    out: dict[str, list[Point]] = {}
    for aid in sorted(board.approaches):
        ap = board.approaches[aid]
        if ap.a not in cells or ap.b not in cells:
            out[aid] = []
            continue
        common = shapely.line_merge(cells[ap.a].boundary.intersection(cells[ap.b].boundary))
        lines = [g for g in getattr(common, "geoms", [common]) if isinstance(g, LineString)]
        longest = max(lines, key=lambda g: g.length, default=None)
        out[aid] = [] if longest is None or longest.length < 1 else list(longest.coords)
    return out


def _towards(p: Point, q: Point, dist: float) -> Point:
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    return (p[0] + dx / n * dist, p[1] + dy / n * dist)


def _midpoint(edge: list[Point], a: Point, b: Point) -> Point:
    if edge:
        line = LineString(edge)
        m = line.interpolate(0.5, normalized=True)
        return (m.x, m.y)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _edge_point(p: Point) -> Point:
    x, y = p
    return min([(x, (0.0, y)), (WIDTH - x, (WIDTH, y)), (y, (x, 0.0)), (HEIGHT - y, (x, HEIGHT))])[
        1
    ]


def _locale_svg(board: Board, layout: Layout, lid: int) -> str:
    loc = board.locales[lid]
    x, y = layout.points[lid]
    stars = sorted(loc.stars)
    words = [f"{lid}", loc.name or loc.key.replace("_", " "), f"capacity {loc.capacity}"]
    if loc.hill:
        words.append("hill")
    if loc.santon:
        words.append("the Santon")
    if stars:
        words.append(f"stars: {', '.join(stars)}")
    cls = "locale hill" if loc.hill else "locale"
    parts = [
        f'<g class="{cls}" data-locale="{lid}" id="locale-{lid}" tabindex="0">',
        f"<title>{escape(', '.join(words))}</title>",
        f'<path class="cell" d="{_d(layout.cells.get(lid, ()), closed=True)}"/>',
        f'<text class="num" x="{_num(x - 4)}" y="{_num(y - 14)}">{lid}</text>',
        f'<text class="cap" x="{_num(x + 8)}" y="{_num(y - 14)}">{loc.capacity}</text>',
    ]
    if loc.name:
        parts.append(
            f'<text class="name" x="{_num(x)}" y="{_num(y - 23)}">{escape(loc.name)}</text>'
        )
    if loc.hill:
        hx, hy = x - 14, y - 17
        parts.append(
            f'<path class="hillmark" d="M{_num(hx - 4)} {_num(hy)}L{_num(hx)} {_num(hy - 6)}'
            f'L{_num(hx + 4)} {_num(hy)}Z"/>'
        )
    for i, colour in enumerate(stars):
        parts.append(
            f'<circle class="star {colour}" cx="{_num(x + 20 + 6 * i)}" cy="{_num(y - 17)}" '
            f'r="2.6" fill="{STAR_FILL[colour]}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _approach_svg(board: Board, layout: Layout, aid: str, edge: list[Point]) -> str:
    ap = board.approaches[aid]
    pa, pb = layout.points[ap.a], layout.points[ap.b]
    wide = ap.a_side.width == 2 and ap.b_side.width == 2
    cls = ["approach", "wide" if wide else "narrow"]
    if ap.impassable:
        cls.append("impassable")
    d = _d(edge) if edge else _d([pa, pb])
    if not edge:
        cls.append("apart")  # no shared edge (a non-planar board): a connector instead
    title = f"{aid}: {ap.a}-{ap.b}, {'wide' if wide else 'narrow'}"
    if ap.impassable:
        title += ", impassable"
    parts = [
        f'<path class="{" ".join(cls)}" data-approach="{aid}" d="{d}"><title>{title}</title></path>'
    ]
    mid = _midpoint(edge, pa, pb)
    for side, own in ((ap.a_side, pa), (ap.b_side, pb)):
        if ap.impassable:
            break
        inside = _towards(mid, own, 7)
        if side.obstructed:
            parts.append(
                f'<rect class="obstacle" x="{_num(inside[0] - 2)}" y="{_num(inside[1] - 2)}" '
                f'width="4" height="4" transform="rotate(45 {_num(inside[0])} {_num(inside[1])})"/>'
            )
        if side.penalties:
            t = _towards(mid, own, 14)
            letters = "".join(p for p in "ICA" if p in side.penalties)
            parts.append(
                f'<text class="penalty" x="{_num(t[0])}" y="{_num(t[1] + 2)}">{letters}</text>'
            )
    return "".join(parts)


def _roads_svg(board: Board, layout: Layout, edges: Mapping[str, list[Point]]) -> str:
    out = []
    for c in board.crossings:
        pa, pb = layout.points[c.frm], layout.points[c.to]
        ap = board.approaches[c.approach]
        mid = _midpoint(edges.get(c.approach, []), pa, pb) if not ap.impassable else None
        path = [pa, mid, pb] if mid is not None else [pa, pb]
        out.append(
            f'<path class="road {c.road_class}" data-road="{escape(c.road)}" d="{_d(path)}"/>'
        )
    for e in board.entries:
        p = layout.points[e.locale]
        q = _edge_point(p)
        out.append(
            f'<g class="entry-road" data-entry="{e.id}"><title>entry {e.id} '
            f"({SIDE_NAME.get(e.side, e.side)}, {e.road_class} road)</title>"
            f'<path class="entry {e.side} road {e.road_class}" d="{_d([p, q])}"/>'
            f'<text class="entry-label" x="{_num((p[0] + q[0]) / 2)}" '
            f'y="{_num((p[1] + q[1]) / 2 - 3)}">{e.id}</text></g>'
        )
    return "".join(out)


@functools.lru_cache(maxsize=8)
def _map_edges(board_name: str) -> dict[str, list[Point]]:
    layout = layout_for(board_name)
    return {} if layout is None else _shared_edges(board_named(board_name), layout)


@functools.lru_cache(maxsize=8)
def _map_svg(board_name: str) -> tuple[str, str] | None:
    """The static map of a board (cells and approaches; roads and entries) or None."""
    layout = layout_for(board_name)
    if layout is None:
        return None
    return _map_parts(board_named(board_name), layout, _map_edges(board_name))


def _map_parts(board: Board, layout: Layout, edges: Mapping[str, list[Point]]) -> tuple[str, str]:
    outline = f'<path class="map" d="{_d(layout.outline, closed=True)}"/>'
    locales = "".join(_locale_svg(board, layout, lid) for lid in sorted(board.locales))
    approaches = "".join(_approach_svg(board, layout, a, edges[a]) for a in sorted(edges))
    return outline + locales + approaches, _roads_svg(board, layout, edges)


# -- the pieces, the track and morale: from the view ----------------------------------------------


def _get(d: JSON, key: str) -> JSON:
    return d.get(key) if isinstance(d, dict) else None


def _face(unit: JSON) -> str:
    face = _get(unit, "face")
    t, s = _get(face, "type"), _get(face, "strength")
    return f"{t}{s}" if isinstance(t, str) and isinstance(s, int) else ""


def _block(unit: JSON, own: bool, x: float, y: float) -> str:
    piece = str(_get(unit, "id") or "")
    side = str(_get(unit, "side") or "")
    face = _face(unit)
    cls = f"block {'own' if own else 'enemy'} {escape(side)}"
    shown = f" data-face={_attr(face)}" if face else ""
    label = piece if own else "?"
    title = f"{SIDE_NAME.get(side, side)} block {piece}" + (f", {face}" if face else ", face down")
    return (
        f"<g class={_attr(cls)} data-piece={_attr(piece)}{shown}><title>{escape(title)}</title>"
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(BLOCK_W)}" height="{_num(BLOCK_H)}" '
        'rx="1.5"/>'
        f'<text x="{_num(x + BLOCK_W / 2)}" y="{_num(y + 6.5)}">{escape(label)}</text>'
        f'<text x="{_num(x + BLOCK_W / 2)}" y="{_num(y + 13)}">{escape(face)}</text></g>'
    )


def _position(thing: JSON) -> tuple[int, str | None] | None:
    pos = _get(thing, "position")
    loc, app = _get(pos, "locale"), _get(pos, "approach")
    if not isinstance(loc, int) or isinstance(loc, bool):
        return None
    return loc, app if isinstance(app, str) else None


def _pieces_svg(view: JSON, board: Board, layout: Layout) -> str:
    groups: dict[tuple[int, str | None], list[tuple[JSON, bool]]] = {}
    for key, own in (("units", True), ("enemy_units", False)):
        listed = _get(view, key)
        for u in listed if isinstance(listed, list) else []:
            where = _position(u)
            if where is not None and where[0] in layout.points:
                groups.setdefault(where, []).append((u, own))
    edges = _map_edges(board.name)
    out = []
    for (loc, app), units in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        px, py = layout.points[loc]
        if app is not None and app in board.approaches:
            ap = board.approaches[app]
            other = layout.points[ap.b if ap.a == loc else ap.a]
            px, py = _towards(_midpoint(edges.get(app, []), (px, py), other), (px, py), 10)
            cols = min(len(units), 2)
        else:
            cols = min(len(units), COLUMNS)
        x0 = px - cols * (BLOCK_W + 1) / 2
        for i, (u, own) in enumerate(units):
            row, col = divmod(i, cols)
            out.append(_block(u, own, x0 + col * (BLOCK_W + 1), py - 6 + row * (BLOCK_H + 1)))
    commanders = _get(view, "commanders")
    for cmd in commanders if isinstance(commanders, list) else []:
        where = _position(cmd)
        if where is None or where[0] not in layout.points:
            continue
        cid, side = str(_get(cmd, "id") or ""), str(_get(cmd, "side") or "")
        x, y = layout.points[where[0]]
        out.append(
            f"<g class={_attr('commander ' + side)} data-piece={_attr(cid)}>"
            f"<title>{escape(cid)} ({SIDE_NAME.get(side, side)} commander)</title>"
            f'<circle cx="{_num(x - 22)}" cy="{_num(y - 4)}" r="6"/>'
            f'<text x="{_num(x - 22)}" y="{_num(y - 2)}">{escape(cid[:3].title())}</text></g>'
        )
    return "".join(out)


def _track_svg(view: JSON, board: Board) -> str:
    scenario = _get(view, "scenario")
    sc = board.scenarios.get(scenario) if isinstance(scenario, str) else None
    rnd = _get(_get(view, "round"), "index")
    out = ['<g class="track" aria-label="time track">']
    rounds = sc.rounds if sc is not None else ()
    w = min(40.0, (WIDTH - 220) / max(len(rounds), 1))
    for i, r in enumerate(rounds):
        x = 10 + i * w
        cls = "now" if r.index == rnd else ("night" if r.night else "turn")
        label = "night" if r.night else f"{r.hour}:00"
        out.append(
            f'<g class="{cls}" data-round="{r.index}"><title>round {r.index}, day {r.day}, '
            f"{label}</title>"
            f'<rect x="{_num(x)}" y="{_num(HEIGHT + 12)}" width="{_num(w - 2)}" height="26"/>'
            f'<text x="{_num(x + (w - 2) / 2)}" y="{_num(HEIGHT + 28)}">'
            f"{'N' if r.night else r.hour}</text></g>"
        )
    out.append("</g>")
    morale = _get(view, "morale")
    m = morale if isinstance(morale, dict) else {}
    words = " · ".join(f"{SIDE_NAME[s]} {m[s]}" for s in ("F", "AL") if isinstance(m.get(s), int))
    out.append(
        f'<g class="morale"><text x="{_num(WIDTH - 100)}" y="{_num(HEIGHT + 29)}">'
        f"Morale: {escape(words)}</text></g>"
    )
    return "".join(out)


def _document(body: str, title: str, height: float = HEIGHT + TRACK_H) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {_num(WIDTH)} {_num(height)}" role="img" class="nt-board">'
        f"<title>{escape(title)}</title><style>{STYLE}</style>{body}</svg>"
    )


def render(view: JSON) -> str:
    """The board as an SVG document, from a seat's view alone."""
    name = _get(view, "board")
    if not isinstance(name, str) or name not in board_ids():
        return _document(
            '<text class="message" x="20" y="40">No drawing of this board.</text>',
            "Napoleon's Triumph: no board drawing",
        )
    drawn = _map_svg(name)
    if drawn is None:
        return _document(
            f'<text class="message" x="20" y="40">No drawing of board {escape(name)} yet.</text>',
            f"Napoleon's Triumph: {name}",
        )
    board, layout = board_named(name), layout_for(name)
    assert layout is not None
    cells, roads = drawn
    body = cells + roads + _pieces_svg(view, board, layout) + _track_svg(view, board)
    return _document(body, f"Napoleon's Triumph: board {name}")


def render_map(board_name: str, layout: Layout) -> str:
    """The map alone (no pieces, no track) of a board drawn with `layout`: the layout editor's
    picture of a layout being changed (`board_name` one of `board_ids()`)."""
    board = board_named(board_name)
    cells, roads = _map_parts(board, layout, _shared_edges(board, layout))
    return _document(cells + roads, f"Napoleon's Triumph: board {board_name}", HEIGHT)
