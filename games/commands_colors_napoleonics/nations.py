"""National data, format `ccn-nations/1` (digest 2.6, 8.3): the values of the national unit
reference cards and the artillery tables, every value with its source, an unknown one `null`
with its gap (GAP-1, GAP-2). Looking up an unknown value raises `UnknownValueError` naming the
gap: the engine never guesses (8.3)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from games.commands_colors_napoleonics.errors import (
    GAPS,
    NationsError,
    Problem,
    UnknownValueError,
)
from games.commands_colors_napoleonics.fields import MISSING, Reader
from games.commands_colors_napoleonics.terrain import UnitClass
from games.commands_colors_napoleonics.units import UNIT_TYPES
from games.core.bounded_yaml import YamlRefused, at, parse_yaml, read_bounded

NATIONS_FORMAT = "ccn-nations/1"
NATIONS_DIR = Path(__file__).resolve().parent / "data" / "nations"
SHIPPED_NATIONS: tuple[str, ...] = tuple(sorted(p.stem for p in NATIONS_DIR.glob("*.yaml")))
RULE = "§8.3"
FORBIDDEN = "forbidden"  # artillery_melee: the unit may not melee
ARTILLERY_RANGES: Mapping[str, tuple[int, ...]] = {  # ranged fire from range 2 (CCN-46, CCN-51)
    "foot_artillery": (2, 3, 4, 5),
    "guard_foot_artillery": (2, 3, 4, 5),
    "horse_artillery": (2, 3, 4),
}
ARTILLERY_MOVES: Mapping[str, tuple[int, ...]] = {
    "foot_artillery": (0, 1),
    "guard_foot_artillery": (0, 1),
    "horse_artillery": (0, 1, 2),
}
ARTILLERY_BLOCKS = (1, 2, 3)
_GAP = re.compile(r"GAP-[0-9]{1,2}")

Value = int | str | bool | Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Sourced:
    """One value of the file with its provenance; `value` None means unknown (`gap`)."""

    value: Value | None
    source: str | None
    gap: str | None
    path: str  # its place in the file, for messages

    def known(self) -> Value:
        if self.value is None:
            raise UnknownValueError(self.gap or "GAP-2", self.path)
        return self.value


# The fields of a unit on a national card, and the check of a known value.
UNIT_FIELDS: Mapping[str, str] = {
    "code": "str",
    "blocks": "blocks",
    "ranged_bonus": "int",
    "ranged_standing_bonus": "int",
    "melee_bonus": "int",
    "melee_bonus_vs_class": "by_class",
    "melee_bonus_applies_to_battle_back": "bool",
    "ignore_flags": "int",
    "sabre_hits": "bool",
    "retreat_per_flag": "int",
    "ranged_moving_rounding": "rounding",
    "range": "int",
}


@dataclass(frozen=True, slots=True)
class Nation:
    id: str
    ranged_moving_rounding: Sourced
    units: Mapping[str, Mapping[str, Sourced]]  # unit type -> field -> value


@dataclass(frozen=True, slots=True)
class NationsData:
    ruleset: str
    nations: Mapping[str, Nation]
    artillery_range_table: Mapping[str, Mapping[int, Mapping[int, Sourced]]]
    artillery_melee: Mapping[str, Mapping[int, Mapping[int, Sourced]]]

    def has_unit(self, nation: str, unit_type: str) -> bool:
        found = self.nations.get(nation)
        return found is not None and unit_type in found.units

    def unit_value(self, nation: str, unit_type: str, field: str) -> Sourced:
        """The card's value (known or not); LookupError when the file does not state it."""
        try:
            return self.nations[nation].units[unit_type][field]
        except KeyError:
            raise LookupError(f"{nation} {unit_type}: the nations file has no {field}") from None

    def blocks(self, nation: str, unit_type: str) -> int:
        """Starting blocks of a unit (CCN-2); UnknownValueError (GAP-2) when unknown."""
        value = self.unit_value(nation, unit_type, "blocks").known()
        assert isinstance(value, int)
        return value

    def artillery_ranged_dice(self, unit_type: str, blocks: int, range_: int) -> int:
        """Ranged dice of artillery (CCN-58); UnknownValueError (GAP-1) for an unknown entry,
        ValueError for a range or block count the table does not cover."""
        try:
            entry = self.artillery_range_table[unit_type][blocks][range_]
        except KeyError:
            raise ValueError(
                f"{unit_type} with {blocks} block(s) has no ranged fire at range {range_}"
            ) from None
        value = entry.known()
        assert isinstance(value, int)
        return value

    def artillery_melee_dice(self, unit_type: str, blocks: int, moved: int) -> int | None:
        """Melee dice of artillery (CCN-65, CCN-66); None when it may not melee after moving."""
        try:
            entry = self.artillery_melee[unit_type][blocks][moved]
        except KeyError:
            raise ValueError(
                f"{unit_type}: no melee entry for {blocks} block(s), moved {moved}"
            ) from None
        value = entry.known()
        if value == FORBIDDEN:
            return None
        assert isinstance(value, int)
        return value


def nations_named(ruleset: str) -> NationsData:
    """The shipped nations file of `ruleset` (`data/nations/<ruleset>.yaml`), never a path."""
    if ruleset not in SHIPPED_NATIONS:
        shown = ruleset[:40] if ruleset.isprintable() else "this ruleset"
        problem = Problem(
            "ruleset", "§8.1", f"no nations file {shown!r}; shipped: {', '.join(SHIPPED_NATIONS)}"
        )
        raise NationsError("nations", [problem])
    return _load_shipped(ruleset)


@functools.lru_cache(maxsize=4)
def _load_shipped(ruleset: str) -> NationsData:
    path = NATIONS_DIR / f"{ruleset}.yaml"
    try:
        doc = parse_yaml(read_bounded(path))
    except YamlRefused as exc:
        raise NationsError(path.name, [Problem("", RULE, str(exc))]) from None
    return parse_nations(doc, path.name)


def parse_nations(doc: object, source: str) -> NationsData:
    """Validate a `ccn-nations/1` document; NationsError lists every problem."""
    reader = Reader()
    top = reader.mapping(
        doc,
        "",
        required=("format", "ruleset", "nations", "artillery_range_table", "artillery_melee"),
        optional=("notes",),
    )
    if top is None:
        raise NationsError(source, reader.problems)
    reader.choice(top.get("format"), "format", (NATIONS_FORMAT,), RULE)
    ruleset = reader.identifier(top.get("ruleset"), "ruleset")
    if "notes" in top:
        reader.string(top["notes"], "notes", max_len=4000)
    ranged = _read_artillery(
        reader, top.get("artillery_range_table"), "artillery_range_table", ARTILLERY_RANGES, "dice"
    )
    melee = _read_artillery(
        reader, top.get("artillery_melee"), "artillery_melee", ARTILLERY_MOVES, "melee"
    )
    nations: dict[str, Nation] = {}
    found = reader.mapping(top.get("nations"), "nations", open_keys=True)
    for name, body in (found or {}).items():
        nation = _read_nation(reader, name, body, at("nations", name))
        if nation is not None:
            nations[name] = nation
    if reader.problems:
        raise NationsError(source, reader.problems)
    assert ruleset is not None
    return NationsData(ruleset, nations, ranged, melee)


def _read_nation(reader: Reader, name: str, body: object, path: str) -> Nation | None:
    if reader.identifier(name, path) is None:
        return None
    found = reader.mapping(body, path, required=("ranged_moving_rounding", "units"))
    if found is None:
        return None
    rounding = _read_sourced(
        reader, found.get("ranged_moving_rounding"), at(path, "ranged_moving_rounding"), "rounding"
    )
    units: dict[str, dict[str, Sourced]] = {}
    units_path = at(path, "units")
    for unit_type, fields in (
        reader.mapping(found.get("units"), units_path, open_keys=True) or {}
    ).items():
        where = at(units_path, unit_type)
        if unit_type not in UNIT_TYPES:
            reader.fail(where, f"unknown unit type {unit_type[:40]!r} (digest 2.5)", "§2.5")
            continue
        read = reader.mapping(
            fields, where, required=("code", "blocks"), optional=tuple(UNIT_FIELDS)
        )
        if read is None:
            continue
        values = {
            key: _read_sourced(reader, item, at(where, key), UNIT_FIELDS[key])
            for key, item in read.items()
        }
        units[unit_type] = {k: v for k, v in values.items() if v is not None}
    if rounding is None:
        return None
    return Nation(name, rounding, units)


def _read_artillery(
    reader: Reader, value: object, path: str, columns: Mapping[str, tuple[int, ...]], kind: str
) -> dict[str, dict[int, dict[int, Sourced]]]:
    """A table type -> blocks -> column (range, or hexes moved) -> value; complete for every
    artillery type, block count and column."""
    out: dict[str, dict[int, dict[int, Sourced]]] = {}
    table = reader.mapping(value, path, required=tuple(columns))
    for unit_type, keys in columns.items():
        if table is None or unit_type not in table:
            continue
        type_path = at(path, unit_type)
        by_blocks = table[unit_type]
        if by_blocks is MISSING:
            continue
        if not isinstance(by_blocks, dict) or set(by_blocks) != set(ARTILLERY_BLOCKS):
            reader.fail(type_path, "expected a mapping of blocks 3, 2, 1", RULE)
            continue
        out[unit_type] = {}
        for blocks in ARTILLERY_BLOCKS:
            row_path = f"{type_path}[{blocks}]"
            row = by_blocks[blocks]
            if not isinstance(row, dict) or set(row) != set(keys):
                reader.fail(row_path, f"expected a mapping of {', '.join(map(str, keys))}", RULE)
                continue
            read = {k: _read_sourced(reader, row[k], f"{row_path}[{k}]", kind) for k in keys}
            out[unit_type][blocks] = {k: v for k, v in read.items() if v is not None}
    return out


def _read_sourced(reader: Reader, item: object, path: str, kind: str) -> Sourced | None:
    """`{value, source}` or `{value: null, gap, source?}`, the value checked by `kind`."""
    found = reader.mapping(item, path, required=("value",), optional=("source", "gap"))
    if found is None:
        return None
    value = found.get("value")
    if value is MISSING:
        return None
    source = (
        reader.string(found["source"], at(path, "source"), max_len=300)
        if "source" in found
        else None
    )
    gap = found.get("gap")
    if value is None:
        if not isinstance(gap, str) or not _GAP.fullmatch(gap) or gap not in GAPS:
            reader.fail(
                at(path, "gap"), "an unknown value (null) names its gap, GAP-n of digest 7.1", RULE
            )
            return None
        return Sourced(None, source, gap, path)
    if gap is not None:
        reader.fail(at(path, "gap"), "a known value has a source, not a gap", RULE)
        return None
    if source is None:
        reader.fail(at(path, "source"), "missing: every known value names its source", RULE)
        return None
    checked = _check_value(reader, value, path, kind)
    return None if checked is None else Sourced(checked, source, None, path)


def _check_value(reader: Reader, value: object, path: str, kind: str) -> Value | None:
    where = at(path, "value")
    if kind == "str":
        return reader.string(value, where, max_len=20)
    if kind == "blocks":
        return reader.integer(value, where, minimum=1, maximum=9, rule="§2.5")
    if kind in ("int", "dice"):
        return reader.integer(value, where, minimum=-5 if kind == "int" else 0, maximum=9)
    if kind == "bool":
        return reader.boolean(value, where)
    if kind == "rounding":
        return reader.choice(value, where, ("up", "down"), "CCN-55")
    if kind == "melee":
        if value == FORBIDDEN:
            return FORBIDDEN
        return reader.integer(value, where, minimum=0, maximum=9)
    # by_class: {INF: n, CAV: n, ART: n}, some of them
    classes = reader.mapping(value, where, optional=tuple(c.value for c in UnitClass))
    if classes is None:
        return None
    out: dict[str, int] = {}
    for key, n in classes.items():
        number = reader.integer(n, at(where, key), minimum=-5, maximum=9)
        if number is not None:
            out[key] = number
    return out if len(out) == len(classes) else None
