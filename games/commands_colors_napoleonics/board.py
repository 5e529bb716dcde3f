"""Board profiles (digest 8.1, 2.1-2.3): which hexes exist, the sections LEFT/CENTER/RIGHT with
the dual (line-cut) hexes, the baselines and "towards own side".

A profile is data, `data/boards/<profile>.yaml` (format `ccn-board/1`), every value with its
source; the shipped one, `ccn-13x9-provisional`, is the digest's provisional board (GAP-4: the
printed board is not in the seed). Sections are stored in the bottom player's perspective; the
top player's LEFT is the bottom player's RIGHT (2.2).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from games.commands_colors_napoleonics.errors import BoardError, Problem
from games.commands_colors_napoleonics.fields import MISSING, Reader
from games.commands_colors_napoleonics.hexes import Hex, HexGrid
from games.core.bounded_yaml import YamlRefused, at, parse_yaml, read_bounded

BOARD_FORMAT = "ccn-board/1"
BOARDS_DIR = Path(__file__).resolve().parent / "data" / "boards"
SHIPPED_BOARDS: tuple[str, ...] = tuple(sorted(p.stem for p in BOARDS_DIR.glob("*.yaml")))
SECTIONS_RULE = "§2.2"


class Side(StrEnum):
    """Which edge an army sits at (2.3); its baseline is that edge's row."""

    TOP = "top"
    BOTTOM = "bottom"

    @property
    def opponent(self) -> Side:
        return Side.BOTTOM if self is Side.TOP else Side.TOP


class Section(StrEnum):
    LEFT = "LEFT"
    CENTER = "CENTER"
    RIGHT = "RIGHT"

    @property
    def mirrored(self) -> Section:
        """The same area named from the other player's side (2.2)."""
        return {Section.LEFT: Section.RIGHT, Section.RIGHT: Section.LEFT}.get(self, self)


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    grid: HexGrid
    sections: Mapping[Hex, frozenset[Section]]  # bottom player's perspective (2.2)
    baselines: Mapping[Side, int]  # 2.3: top row 0, bottom row 8
    sources: Mapping[str, str]  # profile key -> where its value comes from
    gaps: Mapping[str, str]  # profile key -> the gap that leaves it provisional

    def contains(self, hex_: Hex) -> bool:
        return self.grid.contains(hex_)

    def sections_of(self, hex_: Hex, side: Side) -> frozenset[Section]:
        """The sections of `hex_` as `side` names them (2.2; two for a dual hex, CCN-14)."""
        found = self.sections[hex_]
        return found if side is Side.BOTTOM else frozenset(s.mirrored for s in found)

    def is_dual(self, hex_: Hex) -> bool:
        """Whether a section line cuts `hex_`, so it belongs to a flank and the centre (2.2)."""
        return len(self.sections[hex_]) > 1

    def baseline_row(self, side: Side) -> int:
        return self.baselines[side]

    def home_step(self, side: Side) -> int:
        """+1 or -1: the row change of one step towards `side`'s own baseline (2.3)."""
        return 1 if self.baselines[side] > self.baselines[side.opponent] else -1

    def home_neighbours(self, hex_: Hex, side: Side) -> tuple[Hex, ...]:
        """The on-board neighbours exactly one row closer to `side`'s baseline: the only hexes a
        retreat step may enter (2.3, CCN-84); at most two, none on the baseline itself."""
        row = hex_.row + self.home_step(side)
        return tuple(h for h in self.grid.neighbours(hex_) if h.row == row)

    def is_towards_home(self, start: Hex, end: Hex, side: Side) -> bool:
        return end in self.home_neighbours(start, side)


def board_named(profile: str) -> Board:
    """A shipped board profile by its id (never a path): BoardError for any other name."""
    if profile not in SHIPPED_BOARDS:
        shown = profile[:40] if profile.isprintable() else "this profile"
        raise BoardError(
            "board profile",
            [_problem(f"no board profile {shown!r}; shipped: {', '.join(SHIPPED_BOARDS)}")],
        )
    return _load_shipped(profile)


@functools.lru_cache(maxsize=8)
def _load_shipped(profile: str) -> Board:
    path = BOARDS_DIR / f"{profile}.yaml"
    try:
        doc = parse_yaml(read_bounded(path))
    except YamlRefused as exc:
        raise BoardError(path.name, [_problem(str(exc))]) from None
    return parse_board(doc, path.name)


def _problem(message: str) -> Problem:
    return Problem("", "§8.1", message)


def parse_board(doc: object, source: str) -> Board:
    """Validate a `ccn-board/1` document and build the board; BoardError lists every problem."""
    reader = Reader()
    top = reader.mapping(
        doc,
        "",
        required=("format", "id", "row_lengths", "layout", "sections", "baselines"),
        optional=("status", "notes"),
    )
    if top is None:
        raise BoardError(source, reader.problems)
    reader.choice(top.get("format"), "format", (BOARD_FORMAT,), "§8.1")
    board_id = reader.identifier(top.get("id"), "id")
    sources: dict[str, str] = {}
    gaps: dict[str, str] = {}
    values: dict[str, object] = {}  # a key whose entry is refused stays MISSING
    for key in ("row_lengths", "layout", "sections", "baselines"):
        values[key] = MISSING
        entry = reader.mapping(top.get(key), key, required=("value", "source"), optional=("gap",))
        if entry is None:
            continue
        values[key] = entry.get("value")
        source_text = reader.string(entry.get("source"), at(key, "source"), max_len=500)
        if source_text is not None:
            sources[key] = source_text
        if "gap" in entry:
            gap = reader.string(entry["gap"], at(key, "gap"), max_len=20)
            if gap is not None:
                gaps[key] = gap
    grid = _read_grid(reader, values.get("row_lengths"))
    reader.choice(values.get("layout"), "layout.value", ("odd-r",), "§2.1")
    baselines = _read_baselines(reader, values.get("baselines"), grid)
    sections = (
        parse_sections(reader, values.get("sections"), "sections.value", grid)
        if grid is not None
        else None
    )
    if reader.problems or grid is None or sections is None or baselines is None:
        raise BoardError(source, reader.problems)
    assert board_id is not None
    return Board(board_id, grid, sections, baselines, sources, gaps)


def _read_grid(reader: Reader, value: object) -> HexGrid | None:
    rows = reader.sequence(value, "row_lengths.value", max_len=40, min_len=1)
    if rows is None:
        return None
    lengths = [
        reader.integer(n, f"row_lengths.value[{i}]", minimum=1, maximum=40, rule="§2.1")
        for i, n in enumerate(rows)
    ]
    clean = [n for n in lengths if n is not None]
    return HexGrid(tuple(clean)) if len(clean) == len(lengths) else None


def _read_baselines(reader: Reader, value: object, grid: HexGrid | None) -> dict[Side, int] | None:
    found = reader.mapping(value, "baselines.value", required=("top", "bottom"))
    if found is None or grid is None:
        return None
    out: dict[Side, int] = {}
    for side in Side:
        row = reader.integer(found.get(side.value), f"baselines.value.{side.value}", rule="§2.3")
        if row is not None and row not in (0, grid.rows - 1):
            reader.fail(
                f"baselines.value.{side.value}", "a baseline is the top or bottom row", "§2.3"
            )
        elif row is not None:
            out[side] = row
    if len(out) == 2 and out[Side.TOP] >= out[Side.BOTTOM]:
        reader.fail("baselines.value", "the top baseline must be above the bottom one", "§2.3")
        return None
    return out if len(out) == 2 else None


def parse_sections(
    reader: Reader, value: object, path: str, grid: HexGrid
) -> dict[Hex, frozenset[Section]] | None:
    """Section membership from column ranges (bottom perspective, 2.2, 8.2 `board.sections`):
    `{even: {...}, odd: {...}, <row>: {...}}`, each `{LEFT: [first, last], CENTER: [..], RIGHT:
    [..]}` inclusive; a row entry overrides its parity. Overlapping ranges make dual hexes. Every
    hex must be in a section, and none in both flanks."""
    if value is MISSING:
        return None
    if not isinstance(value, dict) or not value:
        reader.fail(path, "expected a mapping of even, odd or row numbers to ranges", SECTIONS_RULE)
        return None
    before = len(reader.problems)
    per_key: dict[str | int, dict[Section, tuple[int, int]]] = {}
    for raw_key, ranges in value.items():
        where = at(path, str(raw_key))
        key: str | int
        if raw_key in ("even", "odd"):
            key = str(raw_key)
        elif type(raw_key) is int and 0 <= raw_key < grid.rows:
            key = int(raw_key)
        else:
            reader.fail(where, "a key is even, odd or a row number of the board", SECTIONS_RULE)
            continue
        read = _read_ranges(reader, ranges, where)
        if read is not None:
            per_key[key] = read
    if len(reader.problems) > before:
        return None
    out: dict[Hex, frozenset[Section]] = {}
    ok = True
    too_long: set[str] = set()
    for row, length in enumerate(grid.row_lengths):
        key = row if row in per_key else ("odd" if row & 1 else "even")
        ranges = per_key.get(key)
        if ranges is None:
            reader.fail(path, f"row {row} has no sections", SECTIONS_RULE)
            ok = False
            continue
        for section, (_first, last) in ranges.items():
            where = at(at(path, str(key)), section.value)
            if last >= length and where not in too_long:
                too_long.add(where)
                message = f"row {row} has columns 0-{length - 1}, the range ends at {last}"
                reader.fail(where, message, SECTIONS_RULE)
                ok = False
        for col in range(length):
            member = frozenset(s for s, (a, b) in ranges.items() if a <= col <= b)
            if not member or member >= {Section.LEFT, Section.RIGHT}:
                what = "no section" if not member else "both flanks"
                reader.fail(path, f"hex ({row},{col}) is in {what}", SECTIONS_RULE)
                ok = False
            out[Hex(row, col)] = member
    return out if ok else None


def _read_ranges(reader: Reader, value: object, path: str) -> dict[Section, tuple[int, int]] | None:
    found = reader.mapping(value, path, required=[s.value for s in Section])
    if found is None:
        return None
    out: dict[Section, tuple[int, int]] = {}
    for section in Section:
        item = found.get(section.value)
        where = at(path, section.value)
        if item is MISSING:
            continue
        if (
            not isinstance(item, list)
            or len(item) != 2
            or any(type(n) is not int or n < 0 for n in item)
            or item[0] > item[1]
        ):
            reader.fail(
                where, "a range is [first, last] columns, 0 <= first <= last", SECTIONS_RULE
            )
            continue
        out[section] = (int(item[0]), int(item[1]))
    return out if len(out) == 3 else None
