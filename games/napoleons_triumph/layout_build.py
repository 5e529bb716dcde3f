"""Compute a board's schematic layout from its locale graph and write `data/<board>-layout.yaml`.

    python -m games.napoleons_triumph.layout_build [BOARD ...]    (default: every shipped board)

A development tool (networkx is a dev dependency; the server only reads the committed files):

1. the approach graph (every approach, passable or not). If it is not planar, the fewest
   approaches whose removal makes it planar are set aside (iterative deepening over the edges of
   Kuratowski subgraphs, up to MAX_DROPPED; then greedily): they are drawn straight anyway and
   the check reports their crossings;
2. a virtual node "outside" joined to every entry locale (as many as stay planar), so a planar
   embedding (networkx.check_planarity) puts the entry areas on the outer face; the embedding is
   triangulated and the outside node's neighbours become the map edge;
3. a Tutte drawing: the map edge on a rounded rectangle (a convex superellipse), every other
   locale at the mean of its neighbours in the triangulation (a planar straight-line drawing);
4. relaxed by a force-directed smoothing (repulsion between all locales, attraction along the
   approaches) in which a locale moves only as far as every triangle around it keeps its
   orientation and some area: the drawing stays planar;
5. turned so that the French entries lie to the west (left), points rounded to 0.1, the cells
   computed (layout_cells) and the result checked (layout.check) and written.

Pure Python arithmetic in a fixed order: the same board gives the same file on every run.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence

import networkx as nx  # type: ignore[import-untyped]
from networkx.algorithms.planar_drawing import (  # type: ignore[import-untyped]
    triangulate_embedding,
)

from games.napoleons_triumph.board import DATA_DIR, SHIPPED, Board, board_named
from games.napoleons_triumph.layout import (
    HEIGHT,
    WIDTH,
    Layout,
    check,
    layout_from_points,
    layout_path_name,
    layout_yaml,
)
from games.napoleons_triumph.layout_cells import Point

OUTSIDE = -1  # the virtual node beyond the map edge
MAX_DROPPED = 3
MARGIN = 45.0  # between the map edge and the outermost points
SUPER = 4.0  # the exponent of the superellipse the map edge lies on
TUTTE_SWEEPS = 4000
STRESS_ROUNDS = 120
MORPH_ROUNDS = 200
MIN_AREA = 400.0  # square units: the least area a triangle keeps while relaxing
SOURCE = (
    "schematic, not the printed map: computed by games.napoleons_triumph.layout_build from the "
    "locale graph (networkx planar embedding, Tutte drawing, force-directed relaxation keeping "
    "planarity, entry areas on the map edge); cells: generalised Voronoi cells clipped to the "
    "outline (shapely)"
)

Say = Callable[[str], None]
Tri = tuple[int, int, int]


def approach_graph(board: Board) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(sorted(board.locales))
    for ap in sorted(board.approaches.values(), key=lambda a: a.id):
        g.add_edge(ap.a, ap.b, id=ap.id)
    return g


def _drops(g: nx.Graph, depth: int) -> list[tuple[int, int]] | None:
    """At most `depth` edges whose removal makes `g` planar, tried in approach id order."""
    planar, cert = nx.check_planarity(g, counterexample=True)
    if planar:
        return []
    if depth == 0:
        return None
    for u, v in sorted(cert.edges(), key=lambda e: str(g.edges[e]["id"])):
        h = g.copy()
        h.remove_edge(u, v)
        rest = _drops(h, depth - 1)
        if rest is not None:
            return [(u, v), *rest]
    return None


def planar_part(g: nx.Graph, say: Say) -> tuple[nx.Graph, list[str]]:
    """`g` without the fewest edges that make it non-planar; the ids of those set aside."""
    if nx.check_planarity(g)[0]:
        return g, []
    say("  the approach graph is not planar: looking for the fewest approaches to set aside")
    h = g.copy()
    for depth in range(1, MAX_DROPPED + 1):
        found = _drops(g, depth)
        if found is not None:
            ids = [str(g.edges[e]["id"]) for e in found]
            h.remove_edges_from(found)
            return h, sorted(ids)
    say(f"  more than {MAX_DROPPED} needed: setting aside greedily in approach id order")
    h = nx.Graph()
    h.add_nodes_from(g.nodes)
    dropped = []
    for u, v, data in sorted(g.edges(data=True), key=lambda e: str(e[2]["id"])):
        h.add_edge(u, v, **data)
        if not nx.check_planarity(h)[0]:
            h.remove_edge(u, v)
            dropped.append(str(data["id"]))
    return h, sorted(dropped)


def with_outside(g: nx.Graph, board: Board) -> nx.Graph:
    """`g` plus the outside node joined to every entry locale that keeps it planar."""
    h = g.copy()
    h.add_node(OUTSIDE)
    for locale in dict.fromkeys(e.locale for e in board.entries):
        h.add_edge(OUTSIDE, locale)
        if not nx.check_planarity(h)[0]:
            h.remove_edge(OUTSIDE, locale)
    if h.degree(OUTSIDE) == 0:
        h.add_edge(OUTSIDE, min(board.locales))
    return h


def triangulation(h: nx.Graph) -> tuple[list[int], list[Tri], dict[int, list[int]]]:
    """The map edge (the outside node's neighbours, in cyclic order), the triangles not touching
    the outside node, and each locale's neighbours in the triangulation without it."""
    planar, emb = nx.check_planarity(h)
    assert planar
    tri, _ = triangulate_embedding(emb, fully_triangulate=True)
    rim = [int(v) for v in tri.neighbors_cw_order(OUTSIDE)]
    seen: set[tuple[int, int]] = set()
    faces: list[Tri] = []
    for u, v in sorted(tri.edges()):
        for a, b in ((u, v), (v, u)):
            if (a, b) in seen:
                continue
            face = tri.traverse_face(a, b, mark_half_edges=seen)
            assert len(face) == 3, face
            if OUTSIDE not in face:
                faces.append((int(face[0]), int(face[1]), int(face[2])))
    nbrs = {
        int(v): sorted(int(n) for n in tri.neighbors(v) if n != OUTSIDE)
        for v in sorted(tri.nodes)
        if v != OUTSIDE
    }
    return rim, sorted(faces), nbrs


def _rim_positions(rim: Sequence[int], board: Board) -> dict[int, Point]:
    """The map edge on a superellipse, turned so that the French entries lie to the west."""
    n = len(rim)
    french = {e.locale for e in board.entries if e.side == "F"}
    idx = [i for i, v in enumerate(rim) if v in french] or [0]
    sx = sum(math.cos(2 * math.pi * i / n) for i in idx)
    sy = sum(math.sin(2 * math.pi * i / n) for i in idx)
    phase = math.pi - math.atan2(sy, sx)  # their mean direction points west
    a, b = WIDTH / 2 - MARGIN, HEIGHT / 2 - MARGIN
    out: dict[int, Point] = {}
    for i, v in enumerate(rim):
        t = 2 * math.pi * i / n + phase
        c, s = math.cos(t), math.sin(t)
        x = math.copysign(abs(c) ** (2 / SUPER), c)
        y = math.copysign(abs(s) ** (2 / SUPER), s)
        out[v] = (WIDTH / 2 + a * x, HEIGHT / 2 - b * y)
    return out


def tutte(rim: dict[int, Point], nbrs: dict[int, list[int]], say: Say) -> dict[int, Point]:
    """Every locale off the map edge at the mean of its neighbours (Gauss-Seidel with
    over-relaxation)."""
    pos = dict(rim)
    inner = [v for v in sorted(nbrs) if v not in rim]
    for v in inner:
        pos[v] = (WIDTH / 2, HEIGHT / 2)
    omega = 1.7
    for sweep in range(TUTTE_SWEEPS):
        worst = 0.0
        for v in inner:
            ns = nbrs[v]
            mx = sum(pos[n][0] for n in ns) / len(ns)
            my = sum(pos[n][1] for n in ns) / len(ns)
            x, y = pos[v]
            nx_, ny_ = x + omega * (mx - x), y + omega * (my - y)
            worst = max(worst, abs(nx_ - x) + abs(ny_ - y))
            pos[v] = (nx_, ny_)
        if worst < 1e-9:
            say(f"  Tutte drawing converged after {sweep + 1} sweeps")
            break
    return pos


def _area(p: Point, q: Point, r: Point) -> float:
    return ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])) / 2


def stress_targets(g: nx.Graph, start: dict[int, Point], say: Say) -> dict[int, Point]:
    """A stress-majorisation layout of `g` (distances: fewest approaches between two locales),
    started from `start`, in the same units: locales that are near in the graph end near."""
    order = sorted(start)
    dist = {
        int(v): {int(u): float(d) for u, d in ds.items()}
        for v, ds in nx.all_pairs_shortest_path_length(g)
    }
    edge = sum(math.dist(start[a], start[b]) for a, b in g.edges) / max(g.number_of_edges(), 1)
    pos = dict(start)
    for rnd in range(STRESS_ROUNDS):
        for v in order:
            sx = sy = sw = 0.0
            x, y = pos[v]
            for u in order:
                if u == v or u not in dist[v]:
                    continue
                d = dist[v][u] * edge
                w = 1.0 / (d * d)
                ux, uy = pos[u]
                norm = math.hypot(x - ux, y - uy) or 1e-9
                sx += w * (ux + d * (x - ux) / norm)
                sy += w * (uy + d * (y - uy) / norm)
                sw += w
            if sw:
                pos[v] = (sx / sw, sy / sw)
        if rnd % 25 == 0:
            say(f"  stress layout: round {rnd + 1} of {STRESS_ROUNDS}")
    return pos


def aligned(moving: dict[int, Point], fixed: dict[int, Point]) -> dict[int, Point]:
    """`moving` turned, scaled, shifted (and mirrored if that fits better) onto `fixed` (least
    squares), so that morphing from one to the other moves the locales as little as possible."""
    order = sorted(fixed)
    n = len(order)
    best: tuple[float, dict[int, Point]] | None = None
    for mirror in (1.0, -1.0):
        m = {v: (moving[v][0], mirror * moving[v][1]) for v in order}
        mx, my = sum(m[v][0] for v in order) / n, sum(m[v][1] for v in order) / n
        fx, fy = sum(fixed[v][0] for v in order) / n, sum(fixed[v][1] for v in order) / n
        a = b = norm = 0.0
        for v in order:
            x, y = m[v][0] - mx, m[v][1] - my
            u, w = fixed[v][0] - fx, fixed[v][1] - fy
            a += x * u + y * w
            b += x * w - y * u
            norm += x * x + y * y
        c, s = a / (norm or 1), b / (norm or 1)  # scale * (cos, sin)
        out = {
            v: (
                fx + c * (m[v][0] - mx) - s * (m[v][1] - my),
                fy + s * (m[v][0] - mx) + c * (m[v][1] - my),
            )
            for v in order
        }
        err = sum(math.dist(out[v], fixed[v]) ** 2 for v in order)
        if best is None or err < best[0]:
            best = (err, out)
    assert best is not None
    return best[1]


def _cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 <= 0 and d3 * d4 <= 0


class Morph:
    """Moves locales one at a time, each only as far as the drawing stays planar: every
    triangle keeps its orientation and some area, and the map edge stays a simple polygon."""

    def __init__(self, pos: dict[int, Point], rim: list[int], faces: list[Tri]) -> None:
        self.pos = pos
        self.rim = rim
        total = sum(_area(pos[a], pos[b], pos[c]) for a, b, c in faces)
        self.sign = 1.0 if total > 0 else -1.0
        self.around: dict[int, list[Tri]] = {v: [] for v in pos}
        for f in faces:
            for v in f:
                self.around[v].append(f)
        n = len(rim)
        self.rim_edges = [(rim[i], rim[(i + 1) % n]) for i in range(n)]
        self.on_rim = set(rim)

    def fine(self, v: int, p: Point) -> bool:
        pos = self.pos
        for a, b, c in self.around[v]:
            pa, pb, pc = (p if x == v else pos[x] for x in (a, b, c))
            now = self.sign * _area(pos[a], pos[b], pos[c])
            if self.sign * _area(pa, pb, pc) < min(MIN_AREA, now):
                return False  # a triangle may grow back, never shrink below MIN_AREA
        if v in self.on_rim:
            mine = [e for e in self.rim_edges if v in e]
            for a, b in mine:
                pa, pb = (p if a == v else pos[a]), (p if b == v else pos[b])
                for c, d in self.rim_edges:
                    if {a, b} & {c, d}:
                        continue
                    if _cross(pa, pb, pos[c], pos[d]):
                        return False
        return True

    def towards(self, targets: dict[int, Point], rounds: int, say: Say, what: str) -> None:
        for rnd in range(rounds):
            moved = 0.0
            for v in sorted(targets):
                x, y = self.pos[v]
                tx, ty = targets[v]
                f = 1.0
                for _ in range(6):
                    cand = (x + (tx - x) * f, y + (ty - y) * f)
                    if self.fine(v, cand):
                        moved += math.hypot(cand[0] - x, cand[1] - y)
                        self.pos[v] = cand
                        break
                    f /= 2
            if rnd % 20 == 0:
                say(f"  {what}: round {rnd + 1}, moved {moved:.0f}")
            if moved < 0.5:
                break


def _fit(pos: dict[int, Point]) -> dict[int, Point]:
    """Scaled (each axis) into the box inside the margin."""
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    sx = (WIDTH - 2 * MARGIN) / ((max(xs) - min(xs)) or 1)
    sy = (HEIGHT - 2 * MARGIN) / ((max(ys) - min(ys)) or 1)
    return {
        v: (MARGIN + (x - min(xs)) * sx, MARGIN + (y - min(ys)) * sy) for v, (x, y) in pos.items()
    }


def _to_edge(p: Point) -> Point:
    """The nearest point of the margin rectangle."""
    x, y = p
    options = [(abs(x - MARGIN), (MARGIN, y)), (abs(WIDTH - MARGIN - x), (WIDTH - MARGIN, y))]
    options += [(abs(y - MARGIN), (x, MARGIN)), (abs(HEIGHT - MARGIN - y), (x, HEIGHT - MARGIN))]
    return min(options)[1]


def build(board: Board, say: Say = lambda s: None) -> tuple[Layout, list[str]]:
    """The layout of `board` and the approaches set aside to make its graph planar."""
    g = approach_graph(board)
    say(f"{board.name}: {g.number_of_nodes()} locales, {g.number_of_edges()} approaches")
    kept, dropped = planar_part(g, say)
    if dropped:
        say(f"  set aside (drawn straight, they cross): {', '.join(dropped)}")
    rim, faces, nbrs = triangulation(with_outside(kept, board))
    say(f"  map edge: {len(rim)} locales; {len(faces)} triangles")
    pos = tutte(_rim_positions(rim, board), nbrs, say)
    morph = Morph(pos, rim, faces)
    stress = aligned(stress_targets(g, pos, say), pos)
    morph.towards(stress, MORPH_ROUNDS, say, "towards the stress layout")
    entries = {e.locale for e in board.entries}
    morph.towards(
        {v: _to_edge(morph.pos[v]) for v in entries}, MORPH_ROUNDS, say, "entries to the map edge"
    )
    return layout_from_points(board, _fit(morph.pos), source=SOURCE), dropped


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    names = list(argv if argv is not None else sys.argv[1:]) or list(SHIPPED)
    for name in names:
        board = board_named(name)
        layout, _ = build(board, say=_say)
        problems, fig = check(layout, board)
        path = DATA_DIR / layout_path_name(name)
        path.write_text(layout_yaml(layout), encoding="utf-8")
        _say(
            f"  wrote {path.name}: locales {fig.locales}, approaches {fig.approaches}, "
            f"crossings {fig.crossings}, overlaps {fig.overlaps}, approaches without a shared "
            f"edge {fig.apart}"
        )
        for p in problems:
            _say(f"  problem: {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
