"""A submitted army as a text (games.valour_fortitude.army_check): the list it names, its cost
and every problem with its place and rule (VF-T38 with its numbers); an unknown list (VF-14), a
text that is not YAML, and one too large, each refused by name."""

from __future__ import annotations

import copy

import yaml

from games.valour_fortitude.army_check import ARMY_MAX_BYTES, army_report
from tests.engines.valour_fortitude.test_vf_check_army import FRENCH_T38


def test_t38_as_a_yaml_text_is_legal_at_187_points() -> None:
    report = army_report(yaml.safe_dump(FRENCH_T38))
    assert (report.ok, report.army_list, report.points) == (True, "france_1812_1815", 187)


def test_t38_with_melee_twice_names_the_unit_and_the_rule() -> None:
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][0]["units"][2]["elite"] = ["melee", "melee"]
    report = army_report(doc)
    assert not report.ok
    assert [(p.path, p.rule) for p in report.problems] == [
        ("brigades[0].units[2].elite[1]", "VF-233")
    ]


def test_an_unknown_list_is_refused_with_vf_14() -> None:
    report = army_report({**FRENCH_T38, "army_list": "atlantis_1800"})
    assert (report.army_list, report.points) == (None, None)
    (problem,) = report.problems
    assert (problem.path, problem.rule) == ("army_list", "VF-14")
    assert "'atlantis_1800'" in problem.message
    assert "france_1812_1815" in problem.message


def test_texts_that_are_not_an_army_are_refused_by_format() -> None:
    for text in ("[unclosed", "- a list\n- not a mapping\n", "x: " + "y" * ARMY_MAX_BYTES):
        (problem,) = army_report(text).problems
        assert problem.rule == "format", text[:20]
    anchors = "a: &x 1\nb: *x\n"
    assert "anchors" in army_report(anchors).problems[0].message
