"""The army lists as data (digest 3.18, VF-14): every shipped list loads, every value has its
source or names its gap, values agree with the rulebook's rows, and the reader refuses
unsourced, unknown-without-gap and unsafe YAML."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from games.core.bounded_yaml import MAX_DEPTH, YamlRefused, parse_yaml
from games.valour_fortitude.armies import ARMIES_DIR, army_list, army_lists, special_rules
from games.valour_fortitude.army_data import Category
from games.valour_fortitude.army_list_reading import read_army_list
from games.valour_fortitude.problems import Unknown

NAPOLEONIC = {
    "allied_french_british",
    "france_1812_1815",
    "britain_1807_1815",
    "austria_1809_1815",
    "prussia_1812_1815",
    "russia_1809_1814",
    "spain_1807_1814",
    "prussia_saxony_1806",
    "bavaria_1809_1815",
}


def _doc(list_id: str) -> dict[str, Any]:
    loaded = yaml.safe_load((ARMIES_DIR / f"{list_id}.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _refusals(doc: object) -> list[str]:
    army, reader = read_army_list(doc, special_rules())
    assert army is None or reader.problems
    return [str(p) for p in reader.problems]


def test_every_list_of_the_rulebook_loads() -> None:
    lists = army_lists()
    assert set(lists) == NAPOLEONIC | {"acw_confederate", "acw_union"}
    assert all(lists[i].napoleonic for i in NAPOLEONIC)
    assert sum(len(a.profiles) for a in lists.values()) == 179


def test_the_sample_row_of_the_rulebook() -> None:
    """VF-14, seed L125-127: "Alte Garde | 24-36 | Muskete (12) | 3 | 6 | 6 | Elan, Plänkler,
    Karree | 35" (the French list's row L793)."""
    old_guard = army_list("france_1812_1815").profile("alte_garde")
    assert old_guard is not None
    assert old_guard.source == "seed L793"
    assert old_guard.category is Category.INFANTRY
    assert (old_guard.figures_min, old_guard.figures_max) == (24, 36)
    assert (old_guard.weapon, old_guard.range_in) == ("musket", 12)
    assert (old_guard.ranged, old_guard.melee, old_guard.morale) == (3, 6, 6)
    assert old_guard.special_rules == ("elan", "plaenkler", "karree")
    assert old_guard.points == 35


def test_every_profile_has_a_source_line() -> None:
    for armylist in army_lists().values():
        for profile in armylist.profiles:
            assert profile.source.startswith("seed L"), (armylist.id, profile.id)


def test_a_dash_is_no_ranged_attack_and_not_unknown() -> None:
    """VF-14: cavalry print "-" for the ranged value: they have none (carbines are a rule)."""
    hussars = army_list("france_1812_1815").profile("husaren_jaeger")
    assert hussars is not None
    assert hussars.ranged is None
    assert hussars.range_in is None


def test_detachments_are_the_abteilung_profiles() -> None:
    """VF-232: detachments are the profiles named "...abteilung" (3-8 figures)."""
    for armylist in army_lists().values():
        for profile in armylist.profiles:
            if profile.is_detachment:
                assert profile.figures_max <= 8, (armylist.id, profile.id)
    kosaken = army_list("russia_1809_1814").profile("kosaken")
    assert kosaken is not None
    assert not kosaken.is_detachment  # 6-8 figures, but not a detachment


def test_the_empty_union_cells_are_unknown() -> None:
    """GAP-15: the Union "Glattrohrartillerie" row (L2375) has empty ranged, melee and morale
    cells; they are unknown, never taken from the Confederate row."""
    smoothbore = army_list("acw_union").profile("glattrohrartillerie")
    assert smoothbore is not None
    assert (smoothbore.ranged, smoothbore.melee, smoothbore.morale) == (
        Unknown("GAP-15"),
        Unknown("GAP-15"),
        Unknown("GAP-15"),
    )
    assert (smoothbore.range_in, smoothbore.points) == (54, 30)


def test_legible_numbers_of_garbled_union_rows_are_kept_with_their_own_source() -> None:
    """D-7: "Karabiner (12) 2 2 3 Leichte Kavallerie" (L2368) still reads 2 / 2 / 3."""
    doc = _doc("acw_union")
    row = next(p for p in doc["unit_profiles"] if p["id"] == "kavallerie_erfahren")
    assert row["ranged"]["source"].startswith("seed L2368")
    experienced = army_list("acw_union").profile("kavallerie_erfahren")
    assert experienced is not None
    assert (experienced.ranged, experienced.melee, experienced.morale) == (2, 2, 3)


def test_the_bavarian_gaps() -> None:
    """GAP-7: the Bavarian list has no elite upgrade and no named generals."""
    bavaria = army_list("bavaria_1809_1815")
    assert bavaria.elite == Unknown("GAP-7")
    assert bavaria.named_generals == Unknown("GAP-7")
    assert not bavaria.cautious.allowed


def test_upgrade_prices_and_general_options() -> None:
    """VF-233, VF-236, VF-237: standard prices 3/9/2/4, the 1806 list 2/6/2/3; Napoleon 25."""
    france = army_list("france_1812_1815")
    assert not isinstance(france.elite, Unknown)
    assert (france.elite.infantry_ranged, france.elite.artillery_ranged) == (3, 9)
    assert (france.elite.melee, france.elite.morale) == (2, 4)
    saxony = army_list("prussia_saxony_1806")
    assert not isinstance(saxony.elite, Unknown)
    assert (saxony.elite.infantry_ranged, saxony.elite.artillery_ranged) == (2, 6)
    assert (saxony.elite.melee, saxony.elite.morale) == (2, 3)
    assert not isinstance(france.named_generals, Unknown)
    assert [(n.rule, n.points) for n in france.named_generals] == [
        ("napoleon", 25),
        ("ney", 20),
        ("murat", 15),
        ("marschall_des_kaiserreichs", 10),
    ]
    austria = army_list("austria_1809_1815")
    assert (austria.cautious.budget_per_bg, austria.cautious.budget_cinc) == (10, 20)
    assert austria.large is not None
    assert austria.understrength.loses_rules == ("masse",)


def test_only_the_allied_list_joins_other_armies() -> None:
    """VF-238: the Allied list may join British or French armies."""
    hosts = {i: a.contingent_for for i, a in army_lists().items() if a.contingent_for}
    assert hosts == {"allied_french_british": ("britain_1807_1815", "france_1812_1815")}


def test_a_known_value_needs_its_source() -> None:
    doc = _doc("france_1812_1815")
    doc["unit_profiles"][0]["melee"] = {"value": 6}
    assert any("unit_profiles[0].melee.source" in p for p in _refusals(doc))
    doc = _doc("france_1812_1815")
    del doc["unit_profiles"][0]["source"]
    assert any("unit_profiles[0].source" in p for p in _refusals(doc))


def test_an_unknown_value_needs_a_gap_of_the_digest() -> None:
    doc = _doc("france_1812_1815")
    doc["unit_profiles"][0]["melee"] = {"value": None}
    assert any("melee.gap" in p for p in _refusals(doc))
    doc["unit_profiles"][0]["melee"] = {"value": None, "gap": "GAP-99"}
    assert any("melee.gap" in p for p in _refusals(doc))


def test_unknown_special_rules_and_keys_are_refused() -> None:
    doc = _doc("france_1812_1815")
    doc["unit_profiles"][1]["special_rules"] = ["elan", "lances_of_doom"]
    assert any("lances_of_doom" in p for p in _refusals(doc))
    doc = _doc("france_1812_1815")
    doc["unit_profiles"][1]["colour"] = "blue"
    assert any("unit_profiles[1].colour: format: unknown key" in p for p in _refusals(doc))
    doc = copy.deepcopy(_doc("france_1812_1815"))
    doc["unit_profiles"][2]["figures"] = [36, 24]
    assert any("minimum is above the maximum" in p for p in _refusals(doc))


def test_the_yaml_reader_is_bounded() -> None:
    with pytest.raises(YamlRefused, match="anchors and aliases"):
        parse_yaml("a: &x [1, 2]\nb: *x\n")
    with pytest.raises(YamlRefused, match="nested deeper"):
        parse_yaml("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(YamlRefused, match="larger than"):
        parse_yaml("x: '" + "a" * (1 << 20) + "'\n")
    with pytest.raises(YamlRefused, match="not valid YAML"):
        parse_yaml("a: [1, 2\n")
    assert parse_yaml("a: [1, 2]\n") == {"a": [1, 2]}
