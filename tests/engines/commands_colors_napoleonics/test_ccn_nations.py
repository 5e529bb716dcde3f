"""National data, format ccn-nations/1 (digest 2.6, 8.3; games.commands_colors_napoleonics.
nations): every value with its source, unknown values refused with their gap."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics.errors import NationsError, UnknownValueError
from games.commands_colors_napoleonics.nations import (
    NATIONS_DIR,
    SHIPPED_NATIONS,
    nations_named,
    parse_nations,
)

NATIONS = nations_named("ccn-base-3e")
DOC: dict[str, Any] = yaml.safe_load((NATIONS_DIR / "ccn-base-3e.yaml").read_text("utf-8"))


def test_shipped_file_and_known_values() -> None:
    """2.6: the seed's roundings and the public card values, each with its source."""
    assert SHIPPED_NATIONS == ("ccn-base-3e",)
    assert NATIONS.ruleset == "ccn-base-3e"
    assert set(NATIONS.nations) == {"french", "british", "portuguese"}
    roundings = {n: x.ranged_moving_rounding.known() for n, x in NATIONS.nations.items()}
    assert roundings == {"french": "up", "british": "up", "portuguese": "down"}
    assert NATIONS.nations["portuguese"].ranged_moving_rounding.source == "seed L384"
    assert NATIONS.blocks("french", "line_infantry") == 4
    assert NATIONS.blocks("british", "foot_artillery") == 3
    old_guard = NATIONS.nations["french"].units["old_guard"]
    assert (old_guard["melee_bonus"].known(), old_guard["ignore_flags"].known()) == (2, 2)
    assert NATIONS.unit_value("french", "line_infantry", "melee_bonus_vs_class").known() == {
        "INF": 1
    }
    assert NATIONS.unit_value("portuguese", "militia_infantry", "code").known() == "P-MI"


def test_every_value_has_a_source_or_a_gap() -> None:
    """8.3: a known value names its source; an unknown one (null) names its gap."""
    values = [v for n in NATIONS.nations.values() for u in n.units.values() for v in u.values()]
    values += [
        v for t in NATIONS.artillery_range_table.values() for r in t.values() for v in r.values()
    ]
    values += [v for t in NATIONS.artillery_melee.values() for r in t.values() for v in r.values()]
    assert len(values) > 100
    for value in values:
        if value.value is None:
            assert value.gap in ("GAP-1", "GAP-2"), value.path
        else:
            assert value.source, value.path
            assert value.gap is None, value.path


def test_unknown_artillery_dice_raise_naming_gap_1() -> None:
    """CCN-58, TC-41: foot artillery with 3 blocks at range 5 is unknown (GAP-1)."""
    with pytest.raises(UnknownValueError) as info:
        NATIONS.artillery_ranged_dice("foot_artillery", 3, 5)
    assert info.value.gap == "GAP-1"
    assert "artillery_range_table.foot_artillery[3][5]" in str(info.value)
    assert "GAP-1" in str(info.value)
    for blocks in (1, 2, 3):
        for range_ in (2, 3, 4, 5):
            with pytest.raises(UnknownValueError):
                NATIONS.artillery_ranged_dice("guard_foot_artillery", blocks, range_)


def test_the_one_known_artillery_value_and_ranges_outside_the_table() -> None:
    """Seed L912: horse artillery, 3 blocks, range 3: 1 die. Range 1 is melee (CCN-46)."""
    assert NATIONS.artillery_ranged_dice("horse_artillery", 3, 3) == 1
    with pytest.raises(ValueError, match="no ranged fire at range 5"):
        NATIONS.artillery_ranged_dice("horse_artillery", 3, 5)
    with pytest.raises(ValueError, match="no ranged fire at range 1"):
        NATIONS.artillery_ranged_dice("foot_artillery", 3, 1)


def test_artillery_melee_dice_of_the_seed() -> None:
    """CCN-65, CCN-66: foot 4/3, guard foot +1, horse 3 (moved 0-1) or 2 (1 block, unmoved)."""
    assert [NATIONS.artillery_melee_dice("foot_artillery", b, 0) for b in (3, 2, 1)] == [4, 4, 3]
    assert [NATIONS.artillery_melee_dice("guard_foot_artillery", b, 0) for b in (3, 2, 1)] == [
        5,
        5,
        4,
    ]
    assert NATIONS.artillery_melee_dice("foot_artillery", 3, 1) is None
    assert NATIONS.artillery_melee_dice("horse_artillery", 2, 1) == 3
    assert NATIONS.artillery_melee_dice("horse_artillery", 3, 2) is None
    assert NATIONS.artillery_melee_dice("horse_artillery", 1, 0) == 2
    assert NATIONS.artillery_melee_dice("horse_artillery", 1, 1) is None


def test_unknown_blocks_raise_naming_gap_2() -> None:
    with pytest.raises(UnknownValueError) as info:
        NATIONS.blocks("british", "rifle_light_infantry")
    assert info.value.gap == "GAP-2"
    assert "nations.british.units.rifle_light_infantry.blocks" in str(info.value)
    with pytest.raises(LookupError, match="has no melee_bonus"):
        NATIONS.unit_value("french", "light_cavalry", "melee_bonus")


def _refused(doc: object) -> list[tuple[str, str]]:
    with pytest.raises(NationsError) as info:
        parse_nations(doc, "test.yaml")
    return [(p.path, p.rule) for p in info.value.problems]


def test_a_known_value_without_source_is_refused() -> None:
    doc = copy.deepcopy(DOC)
    del doc["nations"]["french"]["units"]["line_infantry"]["blocks"]["source"]
    assert ("nations.french.units.line_infantry.blocks.source", "§8.3") in _refused(doc)


def test_an_unknown_value_without_gap_is_refused() -> None:
    doc = copy.deepcopy(DOC)
    doc["artillery_range_table"]["foot_artillery"][3][5] = {"value": None}
    assert ("artillery_range_table.foot_artillery[3][5].gap", "§8.3") in _refused(doc)


def test_a_guessed_gap_id_is_refused() -> None:
    doc = copy.deepcopy(DOC)
    doc["nations"]["british"]["units"]["light_infantry"]["blocks"] = {
        "value": None,
        "gap": "GAP-99",
    }
    assert ("nations.british.units.light_infantry.blocks.gap", "§8.3") in _refused(doc)


@pytest.mark.parametrize(
    ("change", "where", "rule"),
    [
        (
            ("blocks", {"value": 0, "source": "x"}),
            "nations.french.units.line_infantry.blocks.value",
            "§2.5",
        ),
        (("speed", {"value": 1, "source": "x"}), "nations.french.units.line_infantry.speed", "§8"),
        (
            ("sabre_hits", {"value": "no", "source": "x"}),
            "nations.french.units.line_infantry.sabre_hits.value",
            "§8",
        ),
        (
            ("ranged_moving_rounding", {"value": "half", "source": "x"}),
            "nations.french.units.line_infantry.ranged_moving_rounding.value",
            "CCN-55",
        ),
    ],
)
def test_malformed_unit_values_are_refused(
    change: tuple[str, object], where: str, rule: str
) -> None:
    doc = copy.deepcopy(DOC)
    key, value = change
    doc["nations"]["french"]["units"]["line_infantry"][key] = value
    assert (where, rule) in _refused(doc)


def test_unknown_unit_type_and_incomplete_table_are_refused() -> None:
    doc = copy.deepcopy(DOC)
    doc["nations"]["french"]["units"]["lancer"] = {"code": {"value": None, "gap": "GAP-10"}}
    del doc["artillery_range_table"]["horse_artillery"][2][4]
    problems = _refused(doc)
    assert ("nations.french.units.lancer", "§2.5") in problems
    assert ("artillery_range_table.horse_artillery[2]", "§8.3") in problems


def test_a_ruleset_is_named_never_a_path() -> None:
    with pytest.raises(NationsError, match="no nations file"):
        nations_named("../nations/ccn-base-3e")


def test_a_missing_entry_is_reported_once() -> None:
    doc = copy.deepcopy(DOC)
    del doc["artillery_melee"]["horse_artillery"]
    del doc["nations"]["british"]["units"]["line_infantry"]["blocks"]["value"]
    assert _refused(doc) == [
        ("artillery_melee.horse_artillery", "§8"),
        ("nations.british.units.line_infantry.blocks.value", "§8"),
    ]
