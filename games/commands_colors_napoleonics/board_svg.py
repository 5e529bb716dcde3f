"""The Commands & Colors: Napoleonics board as SVG, drawn ONLY from the dict it is given.

`render(view) -> str` is the registry's board hook (games.registry, Entry.board). The view carries
`role` (the viewer's side, "top"/"bottom", or None), `map` in the `ccn-scenario/1` shape (digest
8.2: `board.profile`, `terrain`, `units`, `leaders`) and optionally `deck` as
`deck_view.deck_view` returns it. The board profile (a shipped file, named by id) is public; every
other text comes from the view, which may come from an uploaded file: it is escaped, truncated and
the number of pieces drawn is bounded.

Drawn: the hexes (odd-r, row 0 at the top = the top side's baseline, 2.1), terrain (a fill and a
text label, 2.4), the section lines dashed through the dual hexes (2.2), field works on their
hexsides, bridges, units as blocks with their block count and type (2.5), leaders, and under the
board the viewer's own hand (card names from `cards_data`) and of the other side only the count
(2.12, 4.3).

Markup (the registry's board-hook convention): each hex ``<g class="locale hex"
data-locale="<row>,<col>" id="locale-<row>-<col>">`` with a ``<title>``; each unit ``<g
class="block own|enemy <side>" data-piece="<unit id>">`` (own relative to `role`; an observer sees
every block as "enemy", nothing being theirs); leaders ``<g class="leader own|enemy <side>"
data-piece="<leader id>">``. Colours pass WCAG AA for their text (white on the side colours, dark
text on the terrain fills).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from xml.sax.saxutils import escape, quoteattr

from games.commands_colors_napoleonics.board import (
    SHIPPED_BOARDS,
    Board,
    Section,
    Side,
    board_named,
    parse_sections,
)
from games.commands_colors_napoleonics.cards_data import SHIPPED_CARDS, cards_named
from games.commands_colors_napoleonics.errors import DataError
from games.commands_colors_napoleonics.fields import Reader
from games.commands_colors_napoleonics.hexes import DIRECTIONS, Direction, Hex
from games.core.protocol import JSON

R = 30.0  # hex radius (centre to corner), viewBox units
W = math.sqrt(3) * R  # hex width
ROW_H = 1.5 * R
MARGIN = 12.0
HAND_H = 70.0
MAX_TERRAIN, MAX_UNITS, MAX_LEADERS, MAX_HAND = 400, 150, 40, 30
MAX_LABEL = 24
DEFAULT_RULESET = "ccn-base-3e"

TERRAIN_LABEL = {
    "clear": "",
    "forest": "Forest",
    "hill": "Hill",
    "rocky_hill": "Rocky hill",
    "town": "Town",
    "windmill": "Windmill",
    "river": "River",
    "shallow_river": "Shallow river",
    "sand_quarry": "Quarry",
}
# The type abbreviations on a block (2.5).
TYPE_ABBR = {
    "line_infantry": "LN",
    "light_infantry": "LT",
    "rifle_light_infantry": "RI",
    "grenadier": "GR",
    "guard_grenadier": "GG",
    "old_guard": "OG",
    "young_guard": "YG",
    "militia_infantry": "MI",
    "light_cavalry": "LC",
    "heavy_cavalry": "HC",
    "cuirassier": "CU",
    "guard_heavy_cavalry": "GC",
    "foot_artillery": "FA",
    "guard_foot_artillery": "GA",
    "horse_artillery": "HA",
}
STYLE = """
.hex polygon{fill:#eef0e0;stroke:#6b6b5a;stroke-width:0.8}
.hex.forest polygon{fill:#b9d8a6}.hex.hill polygon{fill:#e3cf9c}
.hex.rocky_hill polygon{fill:#c9bba6}.hex.town polygon,.hex.windmill polygon{fill:#e4c9c9}
.hex.river polygon{fill:#9cc3e6}.hex.shallow_river polygon{fill:#c3def2}
.hex.sand_quarry polygon{fill:#f0e2ac}
.hex:focus polygon,.hex:hover polygon,.hex.selected polygon{stroke:#1a4fa0;stroke-width:3}
.hex:focus{outline:none}
.tlabel{font-size:6.5px;fill:#1b1b1b;text-anchor:middle}
.coord{font-size:6px;fill:#44443a;text-anchor:middle}
.section-line{stroke:#5a2d82;stroke-width:1.6;stroke-dasharray:5 4;fill:none}
.fieldworks{stroke:#6b3a10;stroke-width:4;stroke-linecap:round}
.bridge{fill:#8a5a2b;stroke:#3b2410;stroke-width:0.6}
.block rect{stroke:#1b1b1b;stroke-width:0.8}
.block.top rect{fill:#1f4e9c}.block.bottom rect{fill:#a4262c}
.block.own rect{stroke:#ffd23f;stroke-width:2.4}
.block text{font-size:9px;fill:#fff;text-anchor:middle;font-weight:bold}
.leader circle{stroke:#1b1b1b;stroke-width:0.8}
.leader.top circle{fill:#c7d8f5}.leader.bottom circle{fill:#f5cdcd}
.leader.own circle{stroke:#7a5c00;stroke-width:2}
.leader text{font-size:7px;fill:#1b1b1b;text-anchor:middle}
.square{fill:none;stroke:#fff;stroke-width:1.2}
.hand rect{fill:#fffdf4;stroke:#555;stroke-width:0.8}
.hand text,.handinfo{font-size:9px;fill:#1b1b1b}
.message{font-size:14px;fill:#1b1b1b}
"""


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _get(d: JSON, key: str) -> JSON:
    return d.get(key) if isinstance(d, dict) else None


def _list(d: JSON, key: str, limit: int) -> list[JSON]:
    found = _get(d, key)
    return found[:limit] if isinstance(found, list) else []


def _text(value: JSON, limit: int = MAX_LABEL) -> str:
    """A data text, shortened (escape it where it is written)."""
    s = value if isinstance(value, str) else "" if value is None else str(value)
    s = "".join(ch for ch in s if ch.isprintable())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _hex(value: JSON) -> Hex | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    row, col = value
    if type(row) is int and type(col) is int and 0 <= row < 100 and 0 <= col < 100:
        return Hex(row, col)
    return None


def centre(h: Hex) -> tuple[float, float]:
    """The centre of a hex in viewBox units (odd rows shifted half a hex right, 2.1)."""
    return MARGIN + W * (h.col + 0.5 + 0.5 * (h.row & 1)), MARGIN + R + ROW_H * h.row


def _corner(h: Hex, i: int) -> tuple[float, float]:
    """Corner i of a pointy-top hex, clockwise from the top (0: top, 1: upper right...)."""
    x, y = centre(h)
    angle = math.radians(-90 + 60 * i)
    return x + R * math.cos(angle), y + R * math.sin(angle)


# The two corners of each hexside (corners clockwise from the top).
_SIDE_CORNERS: Mapping[Direction, tuple[int, int]] = {
    Direction.NE: (0, 1),
    Direction.E: (1, 2),
    Direction.SE: (2, 3),
    Direction.SW: (3, 4),
    Direction.W: (4, 5),
    Direction.NW: (5, 0),
}


def _points(h: Hex) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in (_corner(h, i) for i in range(6)))


def _size(board: Board) -> tuple[float, float]:
    cols = max(board.grid.row_lengths)
    width = 2 * MARGIN + W * (cols + 0.5)
    height = 2 * MARGIN + R * 2 + ROW_H * (board.grid.rows - 1)
    return width, height


def _hexes(board: Board) -> Iterator[Hex]:
    for row, length in enumerate(board.grid.row_lengths):
        for col in range(length):
            yield Hex(row, col)


def _terrain_by_hex(board: Board, terrain: list[JSON]) -> dict[Hex, dict[str, JSON]]:
    out: dict[Hex, dict[str, JSON]] = {}
    for item in terrain:
        h = _hex(_get(item, "hex"))
        if h is not None and board.contains(h) and isinstance(item, dict) and h not in out:
            out[h] = item
    return out


def _hex_svg(board: Board, h: Hex, t: Mapping[str, JSON] | None, side: Side) -> str:
    kind = _get(dict(t), "type") if t else "clear"
    kind = kind if isinstance(kind, str) and kind in TERRAIN_LABEL else "clear"
    label = TERRAIN_LABEL[kind]
    x, y = centre(h)
    words = [f"hex {h.row},{h.col}", kind.replace("_", " ")]
    name = _text(_get(dict(t), "name")) if t else ""
    group = _text(_get(dict(t), "group_name")) if t else ""
    bridge = bool(t and _get(dict(t), "bridge") is True)
    if name:
        words.append(name)
    if group and group != name:
        words.append(group)
    if bridge:
        words.append("bridge")
    named = board.sections_of(h, side) if h in board.sections else frozenset()
    sections = [s.value for s in Section if s in named]  # as `side` names them (2.2)
    if len(sections) > 1:
        words.append(f"dual hex ({' and '.join(sections)}, {side.value} player's view)")
    elif sections:
        words.append(f"section {sections[0]} ({side.value} player's view)")
    cls = f"locale hex {kind}" + (" dual" if len(sections) > 1 else "")
    parts = [
        f'<g class="{cls}" data-locale="{h.row},{h.col}" id="locale-{h.row}-{h.col}" '
        f'tabindex="0" role="button">',
        f"<title>{escape(', '.join(words))}</title>",
        f'<polygon points="{_points(h)}"/>',
        f'<text class="coord" x="{_num(x)}" y="{_num(y + R * 0.62)}">{h.row},{h.col}</text>',
    ]
    if label:
        parts.append(
            f'<text class="tlabel" x="{_num(x)}" y="{_num(y - R * 0.5)}">{escape(label)}</text>'
        )
    if bridge:
        parts.append(
            f'<rect class="bridge" x="{_num(x - 6)}" y="{_num(y - R * 0.5 + 2)}" width="12" '
            f'height="5"><title>bridge</title></rect>'
        )
    parts.append("</g>")
    return "".join(parts)


def _field_works(t: Mapping[Hex, Mapping[str, JSON]]) -> str:
    out = []
    for h, item in sorted(t.items()):
        sides = item.get("field_works")
        if not isinstance(sides, list):
            continue
        for side in sides[:6]:
            if not isinstance(side, str) or side not in {d.value for d in DIRECTIONS}:
                continue
            a, b = (_corner(h, i) for i in _SIDE_CORNERS[Direction(side)])
            out.append(
                f'<line class="fieldworks" x1="{_num(a[0])}" y1="{_num(a[1])}" '
                f'x2="{_num(b[0])}" y2="{_num(b[1])}"><title>field works, hex {h.row},{h.col} '
                f"{side}</title></line>"
            )
    return "".join(out)


def _section_lines(board: Board) -> str:
    """Dashed lines where sections meet (2.2): through a dual hex's centre, or along the edge
    between two neighbours of different sections; one segment per row."""
    out = []
    for row, length in enumerate(board.grid.row_lengths):
        xs: list[float] = []
        for col in range(length):
            h = Hex(row, col)
            here = board.sections.get(h, frozenset())
            if len(here) > 1:
                xs.append(centre(h)[0])
            if col + 1 < length:
                there = board.sections.get(Hex(row, col + 1), frozenset())
                if here and there and not (here & there):
                    xs.append(centre(h)[0] + W / 2)
        _, y = centre(Hex(row, 0))
        for x in xs:
            out.append(
                f'<line class="section-line" x1="{_num(x)}" y1="{_num(y - ROW_H / 2 - 0.1)}" '
                f'x2="{_num(x)}" y2="{_num(y + ROW_H / 2 + 0.1)}"/>'
            )
    return f'<g class="sections" aria-hidden="true">{"".join(out)}</g>'


def _side(value: JSON) -> str:
    return value if value in (Side.TOP.value, Side.BOTTOM.value) else "unknown"


def _relation(side: str, role: JSON) -> str:
    return "own" if isinstance(role, str) and side == role else "enemy"


def _unit_svg(unit: JSON, h: Hex, role: JSON) -> str:
    uid = _text(_get(unit, "id"), 40)
    side = _side(_get(unit, "side"))
    utype = _text(_get(unit, "type"), 40)
    abbr = TYPE_ABBR.get(utype, utype[:2].upper())
    blocks = _get(unit, "blocks")
    count = blocks if type(blocks) is int and 0 <= blocks < 100 else None
    nation = _text(_get(unit, "nation"))
    square = bool(_get(unit, "in_square"))
    rel = _relation(side, role)
    x, y = centre(h)
    title = f"{uid}: {side} {nation} {utype.replace('_', ' ')}, "
    title += f"{count} blocks" if count is not None else "blocks not given"
    title += f", {rel}" + (", in square" if square else "")
    parts = [
        f"<g class={quoteattr(f'block {rel} {side}')} data-piece={quoteattr(uid)} "
        f'data-hex="{h.row},{h.col}">'
        f"<title>{escape(title)}</title>",
        f'<rect x="{_num(x - 15)}" y="{_num(y - 11)}" width="30" height="20" rx="2"/>',
        f'<text x="{_num(x)}" y="{_num(y - 2)}">{escape(abbr)}</text>',
        f'<text x="{_num(x)}" y="{_num(y + 7)}">{count if count is not None else "?"}</text>',
    ]
    if square:
        parts.append(
            f'<rect class="square" x="{_num(x - 13)}" y="{_num(y - 9)}" width="26" height="16"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _leader_svg(leader: JSON, h: Hex, role: JSON) -> str:
    lid = _text(_get(leader, "id"), 40)
    side = _side(_get(leader, "side"))
    rel = _relation(side, role)
    name = _text(_get(leader, "name"), 40)
    attached = _text(_get(leader, "attached_to"), 40)
    x, y = centre(h)
    cx, cy = x + 14, y + 12
    title = f"leader {lid}" + (f" ({name})" if name else "") + f": {side}, {rel}"
    if attached:
        title += f", attached to {attached}"
    return (
        f"<g class={quoteattr(f'leader {rel} {side}')} data-piece={quoteattr(lid)} "
        f'data-hex="{h.row},{h.col}">'
        f"<title>{escape(title)}</title>"
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="7"/>'
        f'<text x="{_num(cx)}" y="{_num(cy + 2.5)}">{escape(lid[:4])}</text></g>'
    )


def _pieces(board: Board, view_map: JSON, role: JSON) -> str:
    out = []
    seen: set[Hex] = set()
    for unit in _list(view_map, "units", MAX_UNITS):
        h = _hex(_get(unit, "hex"))
        if h is None or not board.contains(h) or h in seen:
            continue
        seen.add(h)
        out.append(_unit_svg(unit, h, role))
    led: set[Hex] = set()
    for leader in _list(view_map, "leaders", MAX_LEADERS):
        h = _hex(_get(leader, "hex"))
        if h is None or not board.contains(h) or h in led:
            continue
        led.add(h)
        out.append(_leader_svg(leader, h, role))
    return "".join(out)


def _card_name(ruleset: str, code: str) -> str:
    if ruleset in SHIPPED_CARDS:
        try:
            card = cards_named(ruleset).cards.get(code)
        except DataError:
            card = None
        if card is not None and card.name:
            return card.name
    return code


def _hand_svg(deck: JSON, role: JSON, ruleset: str, top: float, width: float) -> str:
    """The viewer's own hand (names), the other seats only as counts (2.12, 4.3)."""
    seats = _get(deck, "seats")
    if not isinstance(seats, dict):
        return ""
    out = ['<g class="hand">']
    y = top + 14
    own = seats.get(role) if isinstance(role, str) else None
    hand = _get(own, "hand")
    if isinstance(hand, list):
        out.append(
            f'<text class="handinfo" x="{_num(MARGIN)}" y="{_num(y)}">Your hand '
            f"({len(hand)} cards):</text>"
        )
        card_w = min(90.0, (width - 2 * MARGIN) / max(min(len(hand), MAX_HAND), 1) - 4)
        for i, code in enumerate(hand[:MAX_HAND]):
            name = _text(_card_name(ruleset, code) if isinstance(code, str) else code, 40)
            x = MARGIN + i * (card_w + 4)
            out.append(
                f'<g class="card" data-card={quoteattr(_text(code, 40))}><title>{escape(name)}'
                f'</title><rect x="{_num(x)}" y="{_num(y + 6)}" width="{_num(card_w)}" '
                f'height="30" rx="3"/><text x="{_num(x + 3)}" y="{_num(y + 24)}">'
                f"{escape(_text(name, max(int(card_w / 5), 4)))}</text></g>"
            )
        y += 46
    others = []
    for seat in sorted(k for k in seats if isinstance(k, str))[:4]:
        if seat == role:
            continue
        count = _get(seats[seat], "hand_count")
        if type(count) is int:
            others.append(f"{_text(seat)}: {count} cards in hand")
    if others:
        out.append(
            f'<text class="handinfo" x="{_num(MARGIN)}" y="{_num(y)}">'
            f"{escape('; '.join(others))}</text>"
        )
    out.append("</g>")
    return "".join(out)


def _with_sections(board: Board, sections: JSON) -> Board:
    """The profile with the scenario's `board.sections` override (2.2, 8.2) when it is valid;
    the profile's own sections otherwise."""
    if sections is None:
        return board
    override = parse_sections(Reader(), sections, "board.sections", board.grid)
    return board if override is None else replace(board, sections=override)


def _document(body: str, title: str, width: float, height: float) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" role="img" class="ccn-board">'
        f"<title>{escape(title)}</title><style>{STYLE}</style>{body}</svg>"
    )


def render(view: JSON) -> str:
    """The board as an SVG document, from `view` alone (see the module's text)."""
    view_map = _get(view, "map")
    profile = _get(_get(view_map, "board"), "profile")
    if not isinstance(profile, str) or profile not in SHIPPED_BOARDS:
        return _document(
            '<text class="message" x="20" y="40">No drawing of this board.</text>',
            "Commands & Colors: Napoleonics: no board drawing",
            400,
            80,
        )
    board = _with_sections(board_named(profile), _get(_get(view_map, "board"), "sections"))
    role = _get(view, "role")
    width, height = _size(board)
    viewer = Side.TOP if role == Side.TOP.value else Side.BOTTOM  # whose section names
    terrain = _terrain_by_hex(board, _list(view_map, "terrain", MAX_TERRAIN))
    hexes = "".join(_hex_svg(board, h, terrain.get(h), viewer) for h in _hexes(board))
    body = [f'<g class="hexes">{hexes}</g>']
    body.append(_section_lines(board))
    body.append(_field_works(terrain))
    body.append(_pieces(board, view_map, role))
    deck = _get(view, "deck")
    ruleset = _get(view_map, "ruleset") or _get(view, "ruleset")
    ruleset = ruleset if isinstance(ruleset, str) else DEFAULT_RULESET
    if isinstance(deck, dict):
        body.append(_hand_svg(deck, role, ruleset, height, width))
        height += HAND_H
    who = f", seen by {role}" if role in (Side.TOP.value, Side.BOTTOM.value) else ""
    return _document(
        "".join(body), f"Commands & Colors: Napoleonics board {profile}{who}", width, height
    )
