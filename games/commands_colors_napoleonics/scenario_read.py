"""Reading a `ccn-scenario/1` document (digest 8.2) field by field into a draft: types, required
and unknown keys, enumerations and bounds. Whether the pieces fit the board, the terrain and the
national data is `scenario_checks`. A malformed item is reported and left out of the draft, so
the checks that follow do not report it twice."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.commands_colors_napoleonics.board import Side
from games.commands_colors_napoleonics.fields import Reader
from games.commands_colors_napoleonics.hexes import DIRECTIONS, Direction, Hex
from games.commands_colors_napoleonics.options import AMB_OPTIONS, OptionValue, default_options
from games.commands_colors_napoleonics.scenario_extras import (
    read_deck,
    read_objectives,
    read_special_rules,
)
from games.commands_colors_napoleonics.scenario_model import (
    DeckFixture,
    LeaderSetup,
    Objective,
    SideSetup,
    SpecialRule,
)
from games.commands_colors_napoleonics.terrain import TERRAIN_TYPES, HexTerrain
from games.commands_colors_napoleonics.units import EXPANSION_TYPES, UNIT_TYPES
from games.core.bounded_yaml import at, idx

SCENARIO_FORMAT = "ccn-scenario/1"
RULE = "§8.2"
# Bounds of the input (the file itself is at most fields.MAX_FILE_BYTES).
MAX_TERRAIN = 400
MAX_UNITS = 150
MAX_LEADERS = 40
MAX_NATIONS = 6
MAX_TEXT = 4000

SIDES = tuple(s.value for s in Side)
TOP_KEYS = ("format", "id", "title", "kind", "ruleset", "board", "terrain", "sides")
TOP_KEYS_2 = ("first_player", "units", "leaders")
OPTIONAL_KEYS = (
    "date",
    "source",
    "ruleset_options",
    "objectives",
    "special_rules",
    "deck",
    "notes",
)


@dataclass(slots=True)
class RawUnit:
    id: str
    side: Side
    nation: str
    type: str
    hex: Hex
    blocks: int | None  # None: from the nations file
    in_square: int | None
    path: str


@dataclass(slots=True)
class Draft:
    id: str = ""
    title: str = ""
    kind: str = ""
    ruleset: str = ""
    date: str | None = None
    source: str | None = None
    options: dict[str, OptionValue] = field(default_factory=default_options)
    profile: str = ""
    sections: object = None  # board.sections, read against the board (board.parse_sections)
    terrain: list[tuple[str, Hex, HexTerrain]] = field(default_factory=list)
    sides: dict[Side, SideSetup] = field(default_factory=dict)
    first_player: Side = Side.TOP
    units: list[RawUnit] = field(default_factory=list)
    leaders: list[LeaderSetup] = field(default_factory=list)
    objectives: list[tuple[str, Objective]] = field(default_factory=list)
    special_rules: list[SpecialRule] = field(default_factory=list)
    deck: DeckFixture | None = None
    notes: str | None = None


def read_draft(reader: Reader, doc: object) -> Draft | None:
    """The draft of a scenario document; problems go to `reader`. None if it is no mapping."""
    top = reader.mapping(doc, "", required=TOP_KEYS + TOP_KEYS_2, optional=OPTIONAL_KEYS)
    if top is None:
        return None
    draft = Draft()
    reader.choice(top.get("format"), "format", (SCENARIO_FORMAT,))
    draft.id = reader.identifier(top.get("id"), "id") or ""
    draft.title = reader.string(top.get("title"), "title") or ""
    draft.kind = reader.choice(top.get("kind"), "kind", ("fictional", "historical")) or ""
    draft.ruleset = reader.identifier(top.get("ruleset"), "ruleset") or ""
    if "date" in top:
        date = top["date"]
        draft.date = (
            date.isoformat() if isinstance(date, datetime.date) else reader.string(date, "date")
        )
    if "source" in top:
        draft.source = reader.string(top["source"], "source", max_len=MAX_TEXT)
    if "notes" in top:
        draft.notes = reader.string(top["notes"], "notes", max_len=MAX_TEXT)
    if "ruleset_options" in top:
        _read_options(reader, top["ruleset_options"], draft)
    board = reader.mapping(top.get("board"), "board", required=("profile",), optional=("sections",))
    if board is not None:
        draft.profile = reader.identifier(board.get("profile"), "board.profile") or ""
        draft.sections = board.get("sections")
    _read_terrain(reader, top.get("terrain"), draft)
    _read_sides(reader, top.get("sides"), draft)
    first = reader.choice(top.get("first_player"), "first_player", SIDES, "CCN-6")
    draft.first_player = Side(first) if first else Side.TOP
    _read_units(reader, top.get("units"), draft)
    _read_leaders(reader, top.get("leaders"), draft)
    if "objectives" in top:
        draft.objectives = read_objectives(reader, top["objectives"])
    if "special_rules" in top:
        draft.special_rules = read_special_rules(reader, top["special_rules"])
    if "deck" in top:
        draft.deck = read_deck(reader, top["deck"])
    return draft


def _read_options(reader: Reader, value: object, draft: Draft) -> None:
    found = reader.mapping(value, "ruleset_options", optional=tuple(AMB_OPTIONS))
    for key, item in (found or {}).items():
        option = AMB_OPTIONS[key]
        if not any(type(item) is type(c) and item == c for c in option.choices):
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else c for c in option.choices)
            reader.fail(at("ruleset_options", key), f"expected one of {shown}", option.amb)
            continue
        assert isinstance(item, bool | str)
        draft.options[key] = item


def _read_terrain(reader: Reader, value: object, draft: Draft) -> None:
    for i, item in enumerate(reader.sequence(value, "terrain", max_len=MAX_TERRAIN) or []):
        path = idx("terrain", i)
        found = reader.mapping(
            item,
            path,
            required=("hex", "type"),
            optional=("bridge", "field_works", "name", "group_name"),
        )
        if found is None:
            continue
        hex_ = reader.hex(found.get("hex"), at(path, "hex"))
        base = reader.choice(found.get("type"), at(path, "type"), tuple(TERRAIN_TYPES), "§2.4")
        bridge = reader.boolean(found["bridge"], at(path, "bridge")) if "bridge" in found else False
        sides = (
            _read_field_works(reader, found["field_works"], at(path, "field_works"))
            if "field_works" in found
            else frozenset()
        )
        name = reader.string(found["name"], at(path, "name")) if "name" in found else None
        group = (
            reader.string(found["group_name"], at(path, "group_name"))
            if "group_name" in found
            else None
        )
        if hex_ is None or base is None or bridge is None or sides is None:
            continue
        draft.terrain.append((path, hex_, HexTerrain(base, bridge, sides, name, group)))


def _read_field_works(reader: Reader, value: object, path: str) -> frozenset[Direction] | None:
    """Protected hexsides, each named once (2.1 hexside names, CCN-166)."""
    items = reader.sequence(value, path, max_len=6, min_len=1)
    if items is None:
        return None
    names = [
        reader.choice(s, idx(path, i), tuple(DIRECTIONS), "CCN-166") for i, s in enumerate(items)
    ]
    if any(n is None for n in names):
        return None
    if len(set(names)) != len(names):
        reader.fail(path, "a hexside is listed twice", "CCN-166")
        return None
    return frozenset(Direction(n) for n in names if n is not None)


def _read_sides(reader: Reader, value: object, draft: Draft) -> None:
    sides = reader.mapping(value, "sides", required=SIDES)
    for side in Side:
        if sides is None or side.value not in sides:
            continue
        path = at("sides", side.value)
        found = reader.mapping(
            sides[side.value],
            path,
            required=("army", "nations", "baseline_row", "hand_size", "victory_banners"),
            optional=("commander", "starting_banners"),
        )
        if found is None:
            continue
        army = reader.string(found.get("army"), at(path, "army"))
        raw = reader.sequence(
            found.get("nations"), at(path, "nations"), max_len=MAX_NATIONS, min_len=1
        )
        nations = [
            reader.identifier(n, idx(at(path, "nations"), i)) for i, n in enumerate(raw or [])
        ]
        commander = (
            reader.string(found["commander"], at(path, "commander"))
            if "commander" in found
            else None
        )
        baseline = reader.integer(found.get("baseline_row"), at(path, "baseline_row"), rule="§2.3")
        hand = reader.integer(
            found.get("hand_size"), at(path, "hand_size"), minimum=1, maximum=70, rule="CCN-3"
        )
        target = reader.integer(
            found.get("victory_banners"),
            at(path, "victory_banners"),
            minimum=1,
            maximum=99,
            rule="CCN-5",
        )
        start = (
            reader.integer(
                found["starting_banners"],
                at(path, "starting_banners"),
                minimum=0,
                maximum=99,
                rule="CCN-5",
            )
            if "starting_banners" in found
            else 0
        )
        clean = tuple(n for n in nations if n is not None)
        if army is None or baseline is None or hand is None or target is None or start is None:
            continue
        if raw is None or len(clean) != len(raw):
            continue
        draft.sides[side] = SideSetup(side, army, clean, commander, baseline, hand, target, start)


def _read_units(reader: Reader, value: object, draft: Draft) -> None:
    for i, item in enumerate(reader.sequence(value, "units", max_len=MAX_UNITS) or []):
        path = idx("units", i)
        found = reader.mapping(
            item,
            path,
            required=("id", "side", "nation", "type", "hex"),
            optional=("blocks", "in_square"),
        )
        if found is None:
            continue
        unit_id = reader.identifier(found.get("id"), at(path, "id"))
        side = reader.choice(found.get("side"), at(path, "side"), SIDES)
        nation = reader.identifier(found.get("nation"), at(path, "nation"))
        unit_type = _read_unit_type(reader, found.get("type"), at(path, "type"))
        hex_ = reader.hex(found.get("hex"), at(path, "hex"))
        blocks = (
            reader.integer(found["blocks"], at(path, "blocks"), minimum=1, maximum=9, rule="§2.5")
            if "blocks" in found
            else None
        )
        square = (
            reader.integer(
                found["in_square"], at(path, "in_square"), minimum=1, maximum=4, rule="§2.11"
            )
            if "in_square" in found
            else None
        )
        if unit_id is None or side is None or nation is None or unit_type is None or hex_ is None:
            continue
        if ("blocks" in found and blocks is None) or ("in_square" in found and square is None):
            continue
        draft.units.append(
            RawUnit(unit_id, Side(side), nation, unit_type, hex_, blocks, square, path)
        )


def _read_unit_type(reader: Reader, value: object, path: str) -> str | None:
    if isinstance(value, str) and value in EXPANSION_TYPES:
        reader.fail(path, f"{value} is an expansion unit type: its data is not known", "GAP-10")
        return None
    return reader.choice(value, path, tuple(UNIT_TYPES), "§2.5")


def _read_leaders(reader: Reader, value: object, draft: Draft) -> None:
    for i, item in enumerate(reader.sequence(value, "leaders", max_len=MAX_LEADERS) or []):
        path = idx("leaders", i)
        found = reader.mapping(item, path, required=("id", "side", "nation", "name", "hex"))
        if found is None:
            continue
        leader_id = reader.identifier(found.get("id"), at(path, "id"))
        side = reader.choice(found.get("side"), at(path, "side"), SIDES)
        nation = reader.identifier(found.get("nation"), at(path, "nation"))
        name = reader.string(found.get("name"), at(path, "name"))
        hex_ = reader.hex(found.get("hex"), at(path, "hex"))
        if leader_id and side and nation and name and hex_ is not None:
            draft.leaders.append(LeaderSetup(leader_id, Side(side), nation, name, hex_, path))
