"""The Valour & Fortitude table as SVG, drawn ONLY from the view it is given (digest 2.1, 4.6).

`render(view) -> str` is the registry's board hook (games.registry, Entry.board): `view` is what
`RULESET.view(state, role)` returns. Its `game` holds the table (`width_in`, `depth_in`), the
terrain pieces as polygons, the units as their bases, the leaders as circles and the
objectives; lengths are inches written as exact decimal text. Nothing else is read, so what a
role may not see (fate hands) can never reach the drawing (it draws no card at all).

To scale: the viewBox is in inches. The origin of the state is the south-west corner with y
north (digest 2.1); the drawing flips y, so north is up: a point (x, y) is drawn at (x, depth -
y). A base is a rectangle around its centre, rotated by `facing_deg` (a bearing: 0 north, 90
east, so an SVG rotation clockwise by the same angle); the front edge of a `front_rank` base is
marked by a line just inside it (VF-4, VF-5).

Drawn: the table; each terrain piece as a filled polygon by kind with its label and a `<title>`
naming its traits (VF-180, VF-181); deployment zones when the view has them (a
`game.deployment_zones` list of `{side, polygon}`; the engine's view has none yet, VF-250);
the objectives (VF-249) with their holder; each unit as its bases with a label plate (id, then
casualties against morale, shaken VF-100, fled, broken or wavering brigade, limbered,
formation); units off the table (no bases: fled, reserve) in a strip under it, and occupants on
their feature (VF-195); the leaders as circles of their own radius (VF-12); a 6 in scale bar and
a north arrow.

Markup (the registry's board-hook convention): each unit ``<g class="block own|enemy side-<S>"
data-piece="<unit id>">`` with own/enemy relative to `view["role"]`; a role that is no side
(the umpire's omniscient view, an observer) gets the class by side only. Leaders ``<g
class="leader own|enemy side-<S>" data-piece="<leader id>">``, terrain ``<g class="terrain
<kind>" data-terrain="<id>">``, objectives ``<g class="objective" data-objective="<id>">``.
Every text from the data is escaped and shortened; every list is bounded; malformed entries are
skipped; a view with no usable table is a short message document. Text sits on a plate of its
own fill, so its contrast is known (WCAG AA, tests/engines/valour_fortitude/test_vf_table_svg.py).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from xml.sax.saxutils import escape, quoteattr

from games.core.protocol import JSON

MARGIN = 3.0  # inches of paper round the table
STRIP = 7.0  # inches under the table: scale bar, north arrow, units off the table
MAX_TABLE = 1000.0  # inches: a larger table is not drawn
MAX_COORD = 10_000.0
MAX_TERRAIN, MAX_POINTS, MAX_UNITS, MAX_BASES = 200, 200, 300, 40
MAX_LEADERS, MAX_OBJECTIVES, MAX_ZONES, MAX_OFF_TABLE = 80, 40, 8, 60
MAX_LABEL = 24
SCALE_IN = 6  # the scale bar's length
FONT = 0.9  # label font size, inches
CHAR_W = 0.62  # estimated advance of one character, in font sizes (plates fit their text)

SIDE_CLASSES = {"A": "side-A", "B": "side-B"}
FORMATION_SHORT = {
    "ATTACK_COLUMN": "attack col.",
    "MARCH_COLUMN": "march col.",
    "SQUARE": "square",
    "OPEN_ORDER": "open order",
    "COMPANY_COLUMN": "coy col.",
}
TERRAIN_KINDS = {  # kind -> (css class, label); VF-181's kinds
    "village": ("village", "Village"),
    "building": ("village", "Building"),
    "wood": ("wood", "Wood"),
    "forest": ("wood", "Wood"),
    "hill": ("hill", "Hill"),
    "road": ("road", "Road"),
    "track": ("road", "Track"),
    "bridge": ("road", "Bridge"),
    "river": ("river", "River"),
    "ford": ("ford", "Ford"),
    "stream": ("ford", "Stream"),
    "mud": ("ford", "Mud"),
    "hedge_low": ("hedge", "Low hedge"),
    "hedge_high": ("hedge high", "High hedge"),
    "fence_low": ("hedge", "Low fence"),
    "fence_high": ("hedge high", "High fence"),
    "wall_low": ("hedge", "Low wall"),
    "wall_high": ("hedge high", "High wall"),
}
TRAIT_WORDS = {
    "OBSTACLE": "obstacle",
    "SOFT_COVER": "soft cover",
    "HARD_COVER": "hard cover",
    "ROAD": "road",
    "IMPASSABLE": "impassable",
    "BLOCKS_LOS": "blocks line of sight",
    "ROUGH": "rough",
    "DEFENSIBLE": "defensible",
    "HILL": "hill",
}

# Colours: every text is drawn on a plate of a known fill; the pairs are checked in the tests.
STYLE = """
.paper{fill:#ffffff}
.table{fill:#eef0e0;stroke:#4a4a3a;stroke-width:0.2}
.terrain polygon{fill:#dcdcd0;stroke:#5a5a4a;stroke-width:0.1}
.terrain.village polygon{fill:#e4c9c9;stroke:#7a3b3b}
.terrain.wood polygon{fill:#b9d8a6;stroke:#2f5d1e}
.terrain.hill polygon{fill:#e3cf9c;stroke:#7a6230}
.terrain.road polygon{fill:#d8c39a;stroke:#8b5a2b}
.terrain.river polygon{fill:#9cc3e6;stroke:#2a6f9e}
.terrain.ford polygon{fill:#c3def2;stroke:#2a6f9e}
.terrain.hedge polygon{fill:#cfe3b4;stroke:#2f5d1e;stroke-width:0.2}
.terrain.hedge.high polygon{fill:#8fbf78;stroke:#1f3d14;stroke-width:0.3}
.tplate{fill:#fffdf4;stroke:#6b6b5a;stroke-width:0.05}
.tlabel{fill:#1b1b1b}
.zone{fill:none;stroke-width:0.25;stroke-dasharray:1 0.6}
.zone.side-A{stroke:#1f4e9c}.zone.side-B{stroke:#a4262c}
.zplate{fill:#fffdf4}
.zlabel{fill:#1b1b1b}
.zlabel.side-A{fill:#1f4e9c}.zlabel.side-B{fill:#a4262c}
.objective circle{fill:#ffd23f;stroke:#1b1b1b;stroke-width:0.12}
.objective text{font-size:0.8px;fill:#1b1b1b;text-anchor:middle;font-weight:bold}
.base{fill:#5a5a5a;stroke:#1b1b1b;stroke-width:0.08}
.block.side-A .base{fill:#1f4e9c}.block.side-B .base{fill:#a4262c}
.block.own .base{stroke:#ffd23f;stroke-width:0.22}
.front{stroke:#ffffff;stroke-width:0.2}
.plate{fill:#4a4a4a}
.block.side-A .plate{fill:#1f4e9c}.block.side-B .plate{fill:#a4262c}
.block.own .plate{stroke:#ffd23f;stroke-width:0.15}
.ulabel{fill:#ffffff}
.leader circle{fill:#e0e0e0;stroke:#1b1b1b;stroke-width:0.1}
.leader.side-A circle{fill:#c7d8f5}.leader.side-B circle{fill:#f5cdcd}
.leader.own circle{stroke:#7a5c00;stroke-width:0.2}
.lplate{fill:#e0e0e0}
.leader.side-A .lplate{fill:#c7d8f5}.leader.side-B .lplate{fill:#f5cdcd}
.llabel{fill:#1b1b1b}
.scale rect{stroke:#1b1b1b;stroke-width:0.08}
.scale .dark{fill:#1b1b1b}.scale .light{fill:#ffffff}
.legend{font-size:1px;fill:#1b1b1b}
.north path{fill:#1b1b1b}
.message{font-size:1.4px;fill:#1b1b1b}
"""


def _num(v: float) -> str:
    out = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if out in ("-0", "") else out


def _get(d: JSON, key: str) -> JSON:
    return d.get(key) if isinstance(d, dict) else None


def _list(d: JSON, key: str, limit: int) -> list[JSON]:
    found = _get(d, key)
    return found[:limit] if isinstance(found, list) else []


def _text(value: JSON, limit: int = MAX_LABEL) -> str:
    """A data text, printable and shortened (escape it where it is written)."""
    s = value if isinstance(value, str) else "" if value is None else str(value)
    s = "".join(ch for ch in s[: limit * 4] if ch.isprintable())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _length(value: JSON) -> float | None:
    """An exact decimal (text, as the view writes it, or a number) as a float; None if it is
    not a finite number of sensible size."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    if isinstance(value, str) and len(value) > 40:
        return None
    try:
        d = Decimal(value if isinstance(value, str) else str(value))
    except (InvalidOperation, ValueError):
        return None
    if not d.is_finite() or abs(d) > Decimal(MAX_COORD):
        return None
    return float(d)


def _point(p: JSON) -> tuple[float, float] | None:
    x, y = _length(_get(p, "x")), _length(_get(p, "y"))
    return None if x is None or y is None else (x, y)


def _plate(x: float, y: float, text: str, plate: str, label: str, size: float = FONT) -> str:
    """A text of `size` centred on (x, y) on a rectangle of its own fill (class `plate`)."""
    w = max(len(text), 1) * CHAR_W * size + 0.4
    h = size * 1.3
    return (
        f'<rect class="{plate}" x="{_num(x - w / 2)}" y="{_num(y - h / 2)}" width="{_num(w)}" '
        f'height="{_num(h)}" rx="0.15"/>'
        f'<text class="{label}" x="{_num(x)}" y="{_num(y + size * 0.35)}" '
        f'font-size="{_num(size)}" text-anchor="middle">{escape(text)}</text>'
    )


class _Table:
    """The drawing's frame: state inches to SVG inches (y flipped)."""

    def __init__(self, width: float, depth: float) -> None:
        self.width, self.depth = width, depth

    def at(self, x: float, y: float) -> tuple[float, float]:
        return x, self.depth - y

    def points(self, pts: list[tuple[float, float]]) -> str:
        return " ".join(f"{_num(sx)},{_num(sy)}" for sx, sy in (self.at(x, y) for x, y in pts))


def _polygon(raw: JSON) -> list[tuple[float, float]]:
    pts = raw[:MAX_POINTS] if isinstance(raw, list) else []
    out = [p for p in (_point(q) for q in pts) if p is not None]
    return out if len(out) >= 3 else []


def _centroid(pts: list[tuple[float, float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


# -- terrain, zones, objectives -------------------------------------------------------------------


def _terrain(t: _Table, piece: JSON) -> tuple[str, str, tuple[float, float]] | None:
    """(svg, id, centre) of one piece, or None when it is malformed."""
    pts = _polygon(_get(piece, "polygon"))
    pid = _text(_get(piece, "id"), 40)
    if not pts or not pid:
        return None
    kind = _text(_get(piece, "kind"), 40)
    cls, label = TERRAIN_KINDS.get(kind, ("other", kind.replace("_", " ").capitalize()))
    traits = [
        TRAIT_WORDS[tr]
        for tr in _list(piece, "traits", 12)
        if isinstance(tr, str) and tr in TRAIT_WORDS
    ]
    words = f"{pid}: {kind.replace('_', ' ') or 'terrain'}"
    if traits:
        words += f" ({', '.join(traits)})"
    mode = _get(piece, "wood_mode")
    if isinstance(mode, str):
        words += f", wood mode {_text(mode)}"
    cx, cy = t.at(*_centroid(pts))
    top = t.depth - max(p[1] for p in pts)
    ly = min(cy, top + 0.9)  # near the top of a large piece, clear of an objective at its centre
    text = f"{label} {pid}".strip()
    svg = (
        f"<g class={quoteattr(f'terrain {cls}')} data-terrain={quoteattr(pid)}>"
        f"<title>{escape(words)}</title>"
        f'<polygon points="{t.points(pts)}"/>'
        f"{_plate(cx, ly, _text(text), 'tplate', 'tlabel', 0.9)}</g>"
    )
    return svg, pid, (cx, cy)


def _zones(t: _Table, game: JSON) -> str:
    out = []
    for zone in _list(game, "deployment_zones", MAX_ZONES):
        pts = _polygon(_get(zone, "polygon"))
        side = _text(_get(zone, "side"), 8)
        if not pts:
            continue
        cls = SIDE_CLASSES.get(side, "side-other")
        cx, cy = t.at(*_centroid(pts))
        out.append(
            f"<g class={quoteattr(f'deployment {cls}')} data-side={quoteattr(side)}>"
            f"<title>{escape(f'deployment zone of side {side}')}</title>"
            f'<polygon class={quoteattr(f"zone {cls}")} points="{t.points(pts)}"/>'
            f"{_plate(cx, cy, _text(f'deployment {side}'), 'zplate', f'zlabel {cls}')}</g>"
        )
    return "".join(out)


def _objectives(t: _Table, game: JSON) -> str:
    out = []
    for obj in _list(game, "objectives", MAX_OBJECTIVES):
        p, oid = _point(obj), _text(_get(obj, "id"), 12)
        if p is None or not oid:
            continue
        holder = _get(obj, "controller")
        held = f"held by {_text(holder, 8)}" if isinstance(holder, str) else "held by nobody"
        x, y = t.at(*p)
        out.append(
            f'<g class="objective" data-objective={quoteattr(oid)}>'
            f"<title>{escape(f'objective {oid}, {held}')}</title>"
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="1.1"/>'
            f'<text x="{_num(x)}" y="{_num(y + 0.28)}">{escape(oid[:4])}</text></g>'
        )
    return "".join(out)


# -- units and leaders ----------------------------------------------------------------------------


def _relation(side: str, role: JSON, sides: set[str]) -> str:
    """`own`/`enemy` for a role that is a side; "" for the umpire, an observer or anyone else."""
    if not isinstance(role, str) or role not in sides:
        return ""
    return "own" if side == role else "enemy"


def _classes(kind: str, side: str, rel: str) -> str:
    return " ".join(c for c in (kind, rel, SIDE_CLASSES.get(side, "side-other")) if c)


def _brigade_words(game: JSON) -> dict[str, str]:
    out: dict[str, str] = {}
    for b in _list(game, "brigades", MAX_UNITS):
        bid = _get(b, "id")
        if not isinstance(bid, str):
            continue
        if _get(b, "broken") is True:
            out[bid] = "broken"
        elif _get(b, "wavering") is True:
            out[bid] = "wavering"
    return out


def _status(unit: JSON, brigades: dict[str, str]) -> tuple[str, str]:
    """(short label, words for the title): casualties against morale, shaken (VF-100), fled,
    the brigade broken or wavering, limbered, a formation other than line."""
    cas, morale = _get(unit, "casualties"), _get(_get(unit, "stats"), "morale")
    short: list[str] = []
    words: list[str] = []
    if type(cas) is int and 0 <= cas < 1000:
        if type(morale) is int and 0 < morale < 1000:
            short.append(f"{cas}/{morale}")
            words.append(f"{cas} casualties, morale {morale}")
            if cas >= morale:
                short.append("shaken")
                words.append("shaken")
        else:
            short.append(f"{cas} cas.")
            words.append(f"{cas} casualties")
    flags = [
        ("fled", _get(unit, "fled") is True),
        ("limbered", _get(unit, "limbered") is True),
    ]
    formation = _get(unit, "formation")
    if isinstance(formation, str) and formation in FORMATION_SHORT:
        flags.append((FORMATION_SHORT[formation], True))
    brigade = _get(unit, "brigade")
    if isinstance(brigade, str) and brigade in brigades:
        flags.append((f"brigade {brigades[brigade]}", True))
    for word, on in flags:
        if on:
            short.append(word.replace("brigade ", ""))
            words.append(word)
    return " ".join(short), ", ".join(words)


Placed = tuple[float, float, float, float]  # a base's SVG centre, its facing, its depth


def _base_svg(t: _Table, base: JSON) -> tuple[str, Placed] | None:
    p = _point(base)
    w, d = _length(_get(base, "width")), _length(_get(base, "depth"))
    facing = _length(_get(base, "facing_deg"))
    if p is None or w is None or d is None or not (0 < w <= 100 and 0 < d <= 100):
        return None
    angle = (facing or 0.0) % 360
    x, y = t.at(*p)
    rot = f' transform="rotate({_num(angle)} {_num(x)} {_num(y)})"' if angle else ""
    parts = [
        f'<g class="base-group"{rot}>'
        f'<rect class="base" x="{_num(x - w / 2)}" y="{_num(y - d / 2)}" width="{_num(w)}" '
        f'height="{_num(d)}"/>'
    ]
    if _get(base, "front_rank") is not False:
        inset = min(0.15, d / 4)
        fy = y - d / 2 + inset
        parts.append(
            f'<line class="front" x1="{_num(x - w / 2 + 0.1)}" y1="{_num(fy)}" '
            f'x2="{_num(x + w / 2 - 0.1)}" y2="{_num(fy)}"/>'
        )
    parts.append("</g>")
    return "".join(parts), (x, y, angle, d)


def _label_place(placed: list[Placed]) -> tuple[float, float]:
    """Behind the unit (away from its front), so the label hides neither bases nor front."""
    cx = sum(p[0] for p in placed) / len(placed)
    cy = sum(p[1] for p in placed) / len(placed)
    theta = math.radians(placed[0][2])
    rx, ry = -math.sin(theta), math.cos(theta)  # the rear, in SVG coordinates (y down)
    reach = max((p[0] - cx) * rx + (p[1] - cy) * ry + p[3] / 2 for p in placed)
    gap = reach + FONT * 0.65 + 0.25
    return cx + rx * gap, cy + ry * gap


def _unit_group(
    unit: JSON, role: JSON, sides: set[str], brigades: dict[str, str]
) -> tuple[str, str, str, str]:
    """(uid, class, title, label) of a unit."""
    uid = _text(_get(unit, "id"), 40)
    side = _text(_get(unit, "side"), 8)
    rel = _relation(side, role, sides)
    short, words = _status(unit, brigades)
    profile = _text(_get(unit, "profile"), 40).replace("_", " ")
    title = f"{uid}: side {side}, {profile}" + (f", {words}" if words else "")
    title += f", {rel}" if rel else ""
    label = f"{uid} {short}".strip()
    return uid, _classes("block", side, rel), title, label


def _units(
    t: _Table, game: JSON, role: JSON, sides: set[str], centres: dict[str, tuple[float, float]]
) -> tuple[str, list[tuple[str, str, str, str]]]:
    """The units on the table (and occupants on their feature); the others for the strip."""
    brigades = _brigade_words(game)
    out: list[str] = []
    off: list[tuple[str, str, str, str]] = []
    seen: set[str] = set()
    for unit in _list(game, "units", MAX_UNITS):
        uid, cls, title, label = _unit_group(unit, role, sides, brigades)
        if not uid or uid in seen:
            continue
        seen.add(uid)
        drawn = [b for b in (_base_svg(t, b) for b in _list(unit, "bases", MAX_BASES)) if b]
        occupying = _get(unit, "occupying")
        head = (
            f"<g class={quoteattr(cls)} data-piece={quoteattr(uid)}><title>{escape(title)}</title>"
        )
        if drawn:
            cx, cy = _label_place([c for _, c in drawn])
            body = "".join(svg for svg, _ in drawn)
            out.append(f"{head}{body}{_plate(cx, cy, _text(label), 'plate', 'ulabel')}</g>")
        elif isinstance(occupying, str) and occupying in centres:
            cx, cy = centres[occupying]
            title_in = f"{label} in {_text(occupying, 12)}"
            out.append(f"{head}{_plate(cx, cy + 1.6, _text(title_in), 'plate', 'ulabel')}</g>")
        else:
            off.append((uid, cls, title, label))
    return "".join(out), off


def _leaders(t: _Table, game: JSON, role: JSON, sides: set[str]) -> str:
    out = []
    seen: set[str] = set()
    for leader in _list(game, "leaders", MAX_LEADERS):
        p, lid = _point(leader), _text(_get(leader, "id"), 40)
        if p is None or not lid or lid in seen or _get(leader, "removed") is True:
            continue
        seen.add(lid)
        side = _text(_get(leader, "side"), 8)
        rel = _relation(side, role, sides)
        radius = _length(_get(leader, "radius_in"))
        r = radius if radius is not None and 0.1 <= radius <= 5 else 0.5
        kind = _text(_get(leader, "kind"), 8)
        what = {"CINC": "commander-in-chief", "BG": "brigade general"}.get(kind, "leader")
        brigade = _get(leader, "brigade")
        title = f"{lid}: side {side}, {what}"
        if isinstance(brigade, str):
            title += f" of {_text(brigade, 40)}"
        specials = [_text(s) for s in _list(leader, "special_rules", 4) if isinstance(s, str)]
        if specials:
            title += f" ({', '.join(specials)})"
        title += f", {rel}" if rel else ""
        x, y = t.at(*p)
        label = _text(lid, 12)
        lx = x + r + 0.3 + len(label) * CHAR_W * 0.8 / 2 + 0.2
        out.append(
            f"<g class={quoteattr(_classes('leader', side, rel))} data-piece={quoteattr(lid)}>"
            f"<title>{escape(title)}</title>"
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>'
            f"{_plate(lx, y, label, 'lplate', 'llabel', 0.8)}</g>"
        )
    return "".join(out)


# -- the strip under the table --------------------------------------------------------------------


def _strip(t: _Table, off: list[tuple[str, str, str, str]]) -> str:
    top = t.depth + 1.5
    parts = ['<g class="scale" aria-label="scale bar">']
    for i in range(SCALE_IN):
        cls = "dark" if i % 2 == 0 else "light"
        parts.append(f'<rect class="{cls}" x="{_num(i)}" y="{_num(top)}" width="1" height="0.6"/>')
    parts.append(
        f'<text class="legend" x="0" y="{_num(top + 1.9)}">0</text>'
        f'<text class="legend" x="{SCALE_IN - 0.6}" y="{_num(top + 1.9)}">{SCALE_IN} in</text></g>'
    )
    nx = SCALE_IN + 4.0
    parts.append(
        f'<g class="north" aria-label="north"><title>north is up</title>'
        f'<path d="M{_num(nx)} {_num(top - 0.8)}L{_num(nx + 0.8)} {_num(top + 1.2)}'
        f'L{_num(nx)} {_num(top + 0.7)}L{_num(nx - 0.8)} {_num(top + 1.2)}Z"/>'
        f'<text class="legend" x="{_num(nx - 0.4)}" y="{_num(top + 2.6)}">N</text></g>'
    )
    if off:
        x = nx + 4.0
        parts.append(
            f'<text class="legend" x="{_num(x)}" y="{_num(top + 0.5)}">Off the table:</text>'
        )
        x += 8.5
        row_y = top
        for uid, cls, title, label in off[:MAX_OFF_TABLE]:
            text = _text(label)
            w = max(len(text), 1) * CHAR_W * FONT + 0.4
            if x + w > t.width:
                x, row_y = nx + 12.5, row_y + 1.8
            parts.append(
                f"<g class={quoteattr(cls + ' off-table')} data-piece={quoteattr(uid)}>"
                f"<title>{escape(title + ', off the table')}</title>"
                f"{_plate(x + w / 2, row_y + 0.2, text, 'plate', 'ulabel')}</g>"
            )
            x += w + 0.6
        if len(off) > MAX_OFF_TABLE:
            parts.append(
                f'<text class="legend" x="{_num(nx + 12.5)}" y="{_num(row_y + 2)}">'
                f"and {len(off) - MAX_OFF_TABLE} more</text>"
            )
    return "".join(parts)


# -- the document ---------------------------------------------------------------------------------


def _document(body: str, title: str, width: float, height: float) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{_num(-MARGIN)} {_num(-MARGIN)} {_num(width + 2 * MARGIN)} '
        f'{_num(height + MARGIN + STRIP)}" role="img" class="vf-table">'
        f"<title>{escape(title)}</title><style>{STYLE}</style>{body}</svg>"
    )


def _message(text: str) -> str:
    return _document(
        f'<text class="message" x="0" y="2">{escape(text)}</text>',
        "Valour & Fortitude: no table drawing",
        40,
        4,
    )


def render(view: JSON) -> str:
    """The table as an SVG document, from `view` alone (see the module's text)."""
    game = _get(view, "game")
    table = _get(game, "table")
    width, depth = _length(_get(table, "width_in")), _length(_get(table, "depth_in"))
    if width is None or depth is None or not (0 < width <= MAX_TABLE and 0 < depth <= MAX_TABLE):
        return _message("No drawing of this table: the view gives no table size.")
    t = _Table(width, depth)
    role = _get(view, "role")
    sides = {
        s for s in (_get(side, "id") for side in _list(game, "sides", 4)) if isinstance(s, str)
    }
    terrain, centres = [], {}
    for piece in _list(game, "terrain", MAX_TERRAIN):
        drawn = _terrain(t, piece)
        if drawn is not None and drawn[1] not in centres:
            terrain.append(drawn[0])
            centres[drawn[1]] = drawn[2]
    units, off = _units(t, game, role, sides, centres)
    body = (
        f'<rect class="paper" x="{_num(-MARGIN)}" y="{_num(-MARGIN)}" '
        f'width="{_num(width + 2 * MARGIN)}" height="{_num(depth + MARGIN + STRIP)}"/>'
        f'<rect class="table" x="0" y="0" width="{_num(width)}" height="{_num(depth)}"/>'
        f'<g class="terrains">{"".join(terrain)}</g>'
        f"{_zones(t, game)}{_objectives(t, game)}"
        f'<g class="units">{units}</g>'
        f'<g class="leaders">{_leaders(t, game, role, sides)}</g>'
        f"{_strip(t, off)}"
    )
    who = f", seen by side {_text(role, 8)}" if isinstance(role, str) and role in sides else ""
    size = f"{_num(width)} by {_num(depth)} inches"
    return _document(body, f"Valour & Fortitude: the table, {size}{who}", width, depth)
