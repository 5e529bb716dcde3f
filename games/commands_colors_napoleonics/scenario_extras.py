"""Reading the optional parts of a `ccn-scenario/1` document (digest 8.2): objectives, special
rules and the fixed deal of test fixtures."""

from __future__ import annotations

from games.commands_colors_napoleonics.board import Section, Side
from games.commands_colors_napoleonics.cards_data import DECK
from games.commands_colors_napoleonics.fields import Reader
from games.commands_colors_napoleonics.scenario_model import DeckFixture, Objective, SpecialRule
from games.commands_colors_napoleonics.terrain import UnitClass
from games.core.bounded_yaml import at, idx

MAX_OBJECTIVES = 40
MAX_OBJECTIVE_HEXES = 60
MAX_SPECIAL_RULES = 40
MAX_TEXT = 4000
SIDES = tuple(s.value for s in Side)
OBJECTIVE_KINDS = (
    "temporary",
    "start_turn_temporary",
    "start_turn_temporary_majority",
    "permanent",
    "start_turn_permanent",
    "clear_section",
    "exit",
)
COUNT_MODES = ("any", "each", "majority")


def read_objectives(reader: Reader, value: object) -> list[tuple[str, Objective]]:
    """The objectives (8.2; kinds from PUB-9, CCN-208), each with its path."""
    out: list[tuple[str, Objective]] = []
    for i, item in enumerate(reader.sequence(value, "objectives", max_len=MAX_OBJECTIVES) or []):
        path = idx("objectives", i)
        found = reader.mapping(
            item,
            path,
            required=("id", "for_side", "kind", "banners"),
            optional=("hexes", "count_mode", "unit_classes", "section"),
        )
        if found is None:
            continue
        obj_id = reader.identifier(found.get("id"), at(path, "id"))
        side = reader.choice(found.get("for_side"), at(path, "for_side"), SIDES)
        kind = reader.choice(found.get("kind"), at(path, "kind"), OBJECTIVE_KINDS)
        banners = reader.integer(found.get("banners"), at(path, "banners"), minimum=1, maximum=99)
        mode = (
            reader.choice(found["count_mode"], at(path, "count_mode"), COUNT_MODES)
            if "count_mode" in found
            else "any"
        )
        raw_hexes = (
            reader.sequence(found["hexes"], at(path, "hexes"), max_len=MAX_OBJECTIVE_HEXES)
            if "hexes" in found
            else []
        )
        hexes = [reader.hex(h, idx(at(path, "hexes"), j)) for j, h in enumerate(raw_hexes or [])]
        classes = _read_classes(reader, found, at(path, "unit_classes"))
        section = (
            reader.choice(found["section"], at(path, "section"), tuple(s.value for s in Section))
            if "section" in found
            else None
        )
        if obj_id is None or side is None or kind is None or banners is None or mode is None:
            continue
        if classes is None or raw_hexes is None or None in hexes:
            continue
        if "section" in found and section is None:
            continue
        clean = tuple(h for h in hexes if h is not None)
        sect = Section(section) if section else None
        out.append((path, Objective(obj_id, Side(side), kind, clean, mode, banners, classes, sect)))
    return out


def _read_classes(
    reader: Reader, found: dict[str, object], path: str
) -> frozenset[UnitClass] | None:
    if "unit_classes" not in found:
        return frozenset(UnitClass)
    items = reader.sequence(found["unit_classes"], path, max_len=3, min_len=1)
    names = [reader.choice(c, idx(path, j), tuple(UnitClass)) for j, c in enumerate(items or [])]
    if items is None or None in names:
        return None
    return frozenset(UnitClass(n) for n in names if n is not None)


def read_special_rules(reader: Reader, value: object) -> list[SpecialRule]:
    out: list[SpecialRule] = []
    for i, item in enumerate(
        reader.sequence(value, "special_rules", max_len=MAX_SPECIAL_RULES) or []
    ):
        path = idx("special_rules", i)
        found = reader.mapping(item, path, required=("id", "text"), optional=("hook",))
        if found is None:
            continue
        rule_id = reader.identifier(found.get("id"), at(path, "id"))
        text = reader.string(found.get("text"), at(path, "text"), max_len=MAX_TEXT)
        hook = reader.identifier(found["hook"], at(path, "hook")) if "hook" in found else None
        if rule_id and text and ("hook" not in found or hook):
            out.append(SpecialRule(rule_id, text, hook))
    return out


def read_deck(reader: Reader, value: object) -> DeckFixture | None:
    """A fixed deal for tests: card codes of 2.8, never more copies than the deck holds."""
    found = reader.mapping(value, "deck", required=("order", "hands"))
    if found is None:
        return None
    order = _read_cards(reader, found.get("order"), "deck.order")
    hands = reader.mapping(found.get("hands"), "deck.hands", required=SIDES)
    dealt = {
        side: _read_cards(reader, (hands or {}).get(side.value), f"deck.hands.{side.value}")
        for side in Side
    }
    if order is None or hands is None or any(h is None for h in dealt.values()):
        return None
    all_cards = list(order) + [c for h in dealt.values() for c in (h or ())]
    for code in sorted(set(all_cards)):
        if all_cards.count(code) > DECK[code]:
            reader.fail(
                "deck",
                f"{code} is used {all_cards.count(code)} times; the deck has {DECK[code]}",
                "§2.8",
            )
            return None
    return DeckFixture(order, {side: h for side, h in dealt.items() if h is not None})


def _read_cards(reader: Reader, value: object, path: str) -> tuple[str, ...] | None:
    items = reader.sequence(value, path, max_len=sum(DECK.values()))
    codes = [reader.choice(c, idx(path, i), tuple(DECK), "§2.8") for i, c in enumerate(items or [])]
    if items is None or None in codes:
        return None
    return tuple(c for c in codes if c is not None)
