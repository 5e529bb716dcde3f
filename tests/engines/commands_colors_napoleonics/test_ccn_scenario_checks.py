"""The load-time checks of a ccn-scenario/1 file (digest 8.2, "MUST reject the file if any
fails"): one case per rule on the example scenario, each refused with its YAML path and rule;
and the refusal of a scenario that needs an unknown national value, naming the gap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.commands_colors_napoleonics.errors import Problem
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.scenario import parse_scenario

Change = tuple[tuple[str | int, ...], object]
DELETE = object()
APPEND = "+"


def changed(doc: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    """Apply (key path, value) changes: value DELETE removes the key; a last key "+" appends."""
    for path, value in changes:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        last = path[-1]
        if value is DELETE:
            del node[last]
        elif last == APPEND:
            node.append(value)
        else:
            node[last] = value
    return doc


# (changes, path, rule): the first problem names `path` and `rule`.
CASES: dict[str, tuple[list[Change], str, str]] = {
    # 2.1: every hex is on the board
    "unit-off-board": ([(("units", 0, "hex"), [9, 0])], "units[0].hex", "§2.1"),
    "terrain-off-board": ([(("terrain", 0, "hex"), [1, 12])], "terrain[0].hex", "§2.1"),
    "leader-off-board": ([(("leaders", 2, "hex"), [8, 13])], "leaders[2].hex", "§2.1"),
    "hex-not-a-pair": ([(("units", 3, "hex"), [2, 3, 4])], "units[3].hex", "§2.1"),
    # CCN-25: no two units share a hex
    "units-share-hex": ([(("units", 1, "hex"), [1, 4])], "units[1].hex", "CCN-25"),
    # CCN-35: at most one leader per hex
    "leaders-share-hex": ([(("leaders", 2, "hex"), [6, 6])], "leaders[2].hex", "CCN-35"),
    # CCN-29: nothing on rocky hill or an unbridged river; no artillery on a sand quarry
    "unit-on-rocky-hill": ([(("units", 0, "hex"), [3, 10])], "units[0].hex", "CCN-161"),
    "leader-on-rocky-hill": ([(("leaders", 2, "hex"), [2, 11])], "leaders[2].hex", "CCN-161"),
    "unit-on-river": (
        [(("terrain", APPEND), {"hex": [3, 0], "type": "river"}), (("units", 0, "hex"), [3, 0])],
        "units[0].hex",
        "CCN-172",
    ),
    "artillery-on-sand-quarry": ([(("units", 5, "hex"), [5, 8])], "units[5].hex", "CCN-176"),
    # CCN-175: a bridge only on river types
    "bridge-on-forest": ([(("terrain", 4, "bridge"), True)], "terrain[4].bridge", "CCN-175"),
    # CCN-166: field-works hexsides valid
    "field-works-bad-side": (
        [(("terrain", 3, "field_works"), ["N"])],
        "terrain[3].field_works[0]",
        "CCN-166",
    ),
    "field-works-twice": (
        [(("terrain", 3, "field_works"), ["NW", "NW"])],
        "terrain[3].field_works",
        "CCN-166",
    ),
    # 8.2: a unit's nation is one of its side's nations
    "nation-not-of-side": ([(("units", 6, "nation"), "french")], "units[6].nation", "§8.2"),
    "leader-nation-not-of-side": (
        [(("leaders", 0, "nation"), "british")],
        "leaders[0].nation",
        "§8.2",
    ),
    # 8.2: (nation, type) in the nations file, or explicit blocks
    "type-not-in-nations-without-blocks": (
        [(("units", 6, "type"), "grenadier"), (("units", 6, "blocks"), DELETE)],
        "units[6].blocks",
        "§8.2",
    ),
    # 8.2, 8.3: a needed unknown value names its gap
    "unknown-blocks": ([(("units", 8, "blocks"), DELETE)], "units[8].blocks", "GAP-2"),
    # 2.5: blocks >= 1
    "blocks-zero": ([(("units", 0, "blocks"), 0)], "units[0].blocks", "§2.5"),
    # CCN-3: hand_size >= 1
    "hand-size-zero": ([(("sides", "top", "hand_size"), 0)], "sides.top.hand_size", "CCN-3"),
    # CCN-5: victory_banners >= 1
    "victory-banners-zero": (
        [(("sides", "bottom", "victory_banners"), 0)],
        "sides.bottom.victory_banners",
        "CCN-5",
    ),
    # 8.2: objective hexes valid
    "objective-hex-off-board": (
        [(("objectives", 1, "hexes", 1), [9, 9])],
        "objectives[1].hexes[1]",
        "§8.2",
    ),
    "objective-hex-twice": (
        [(("objectives", 1, "hexes", 2), [1, 2])],
        "objectives[1].hexes",
        "§8.2",
    ),
    "objective-without-hexes": ([(("objectives", 0, "hexes"), [])], "objectives[0].hexes", "§8.2"),
    "clear-section-without-section": (
        [(("objectives", 0, "kind"), "clear_section")],
        "objectives[0].section",
        "§8.2",
    ),
}

# Checks beyond the list of 8.2 that keep a loaded scenario coherent.
MORE_CASES: dict[str, tuple[list[Change], str, str]] = {
    "terrain-hex-twice": ([(("terrain", 1, "hex"), [1, 2])], "terrain[1].hex", "§2.4"),
    "unknown-terrain-type": ([(("terrain", 4, "type"), "swamp")], "terrain[4].type", "§2.4"),
    "group-name-on-forest": (
        [(("terrain", 4, "group_name"), "Bosque")],
        "terrain[4].group_name",
        "§2.4",
    ),
    "two-names-one-hill-group": (
        [(("terrain", 1, "group_name"), "Other")],
        "terrain",
        "§2.4",
    ),
    "one-name-two-hill-groups": (
        [(("terrain", 3, "group_name"), "Cerro Alto")],
        "terrain",
        "§2.4",
    ),
    "id-twice": ([(("units", 1, "id"), "F-LN1")], "units[1].id", "§8.2"),
    "leader-id-of-a-unit": ([(("leaders", 2, "id"), "B-FA1")], "leaders[2].id", "§8.2"),
    "baseline-wrong": ([(("sides", "top", "baseline_row"), 8)], "sides.top.baseline_row", "§2.3"),
    "leader-with-enemy-unit": ([(("leaders", 2, "hex"), [2, 8])], "leaders[2].hex", "CCN-36"),
    "unknown-nation": (
        [(("sides", "bottom", "nations"), ["british", "portuguese", "spanish"])],
        "sides.bottom.nations[2]",
        "§2.6",
    ),
    "unknown-unit-type": ([(("units", 0, "type"), "hussar")], "units[0].type", "§2.5"),
    "expansion-unit-type": ([(("units", 4, "type"), "cossack_cavalry")], "units[4].type", "GAP-10"),
    "square-of-cavalry": ([(("units", 4, "in_square"), 1)], "units[4].in_square", "§2.11"),
    "square-in-town": (
        [(("units", 0, "hex"), [4, 6]), (("units", 0, "in_square"), 1)],
        "units[0].in_square",
        "CCN-162",
    ),
    "square-marker-twice": (
        [(("units", 0, "in_square"), 2), (("units", 2, "in_square"), 2)],
        "units[2].in_square",
        "§2.11",
    ),
    "square-marker-5": ([(("units", 0, "in_square"), 5)], "units[0].in_square", "§2.11"),
    "starting-at-target": (
        [(("sides", "top", "starting_banners"), 5)],
        "sides.top.starting_banners",
        "CCN-5",
    ),
    "first-player": ([(("first_player",), "left")], "first_player", "CCN-6"),
    "unknown-key": ([(("units", 0, "strength"), 4)], "units[0].strength", "§8.2"),
    "missing-key": ([(("units", 0, "hex"), DELETE)], "units[0].hex", "§8.2"),
    "format": ([(("format",), "ccn-scenario/2")], "format", "§8.2"),
    "unknown-profile": ([(("board", "profile"), "ccn-15x11")], "board.profile", "§8.1"),
    "unknown-ruleset": ([(("ruleset",), "ccn-epic")], "ruleset", "§8.1"),
    "unknown-option": (
        [(("ruleset_options", "fog_of_war"), True)],
        "ruleset_options.fog_of_war",
        "§8.2",
    ),
    "option-value": (
        [(("ruleset_options", "hill_to_hill_scope"), "nearest")],
        "ruleset_options.hill_to_hill_scope",
        "AMB-5",
    ),
    "sections-override": (
        [(("board", "sections"), {"even": {"LEFT": [0, 4], "CENTER": [5, 7], "RIGHT": [8, 12]}})],
        "board.sections",
        "§2.2",
    ),
    "objective-kind": ([(("objectives", 0, "kind"), "hold")], "objectives[0].kind", "§8.2"),
    "deck-card": (
        [(("deck",), {"order": ["SNIPER"], "hands": {"top": [], "bottom": []}})],
        "deck.order[0]",
        "§2.8",
    ),
    "deck-hand-size": (
        [(("deck",), {"order": [], "hands": {"top": ["RALLY"], "bottom": []}})],
        "deck.hands.top",
        "CCN-3",
    ),
    "deck-too-many-copies": (
        [(("deck",), {"order": ["ELAN"], "hands": {"top": ["ELAN"] * 5, "bottom": []}})],
        "deck",
        "§2.8",
    ),
    "too-many-units": ([(("units",), [{"id": f"U{i}"} for i in range(151)])], "units", "§8.2"),
}


@pytest.mark.parametrize(("changes", "path", "rule"), CASES.values(), ids=CASES.keys())
def test_load_time_checks_of_82(
    example_doc: dict[str, Any],
    refusal: Callable[[object], list[Problem]],
    changes: list[Change],
    path: str,
    rule: str,
) -> None:
    problems = refusal(changed(example_doc, changes))
    assert (path, rule) in [(p.path, p.rule) for p in problems], problems


@pytest.mark.parametrize(("changes", "path", "rule"), MORE_CASES.values(), ids=MORE_CASES.keys())
def test_coherence_checks(
    example_doc: dict[str, Any],
    refusal: Callable[[object], list[Problem]],
    changes: list[Change],
    path: str,
    rule: str,
) -> None:
    problems = refusal(changed(example_doc, changes))
    assert (path, rule) in [(p.path, p.rule) for p in problems], problems


def test_a_scenario_needing_an_unknown_value_is_refused_naming_the_gap(
    example_doc: dict[str, Any], refusal: Callable[[object], list[Problem]]
) -> None:
    """8.2, 8.3: B-RI1 without blocks needs the British rifles' blocks, unknown (GAP-2): the
    engine refuses to start the scenario, naming the gap, and never substitutes a value."""
    del example_doc["units"][8]["blocks"]
    problems = refusal(example_doc)
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.path, problem.rule) == ("units[8].blocks", "GAP-2")
    assert "GAP-2" in str(problem)
    assert "national unit reference cards" in problem.message
    assert "rifle_light_infantry" in problem.message


def test_every_problem_is_reported_at_once(
    example_doc: dict[str, Any], refusal: Callable[[object], list[Problem]]
) -> None:
    changed(example_doc, [(("units", 0, "blocks"), 0), (("sides", "top", "hand_size"), 0)])
    paths = {p.path for p in refusal(example_doc)}
    assert {"units[0].blocks", "sides.top.hand_size"} <= paths


def test_blocks_from_the_nations_file_and_its_source(example_doc: dict[str, Any]) -> None:
    """CCN-2: without `blocks` a unit takes the nations file's value."""
    del example_doc["units"][0]["blocks"]
    scenario = parse_scenario(example_doc, "test.yaml")
    unit = scenario.unit("F-LN1")
    assert (unit.blocks, unit.blocks_source) == (4, "PUB-1, PUB-2")
    assert scenario.unit("F-LN2").blocks_source == "scenario"


def test_a_type_missing_from_the_nations_file_with_blocks_warns(
    example_doc: dict[str, Any],
) -> None:
    """8.2: explicit blocks: the rulebook's unit type applies, no national modifiers, a warning."""
    example_doc["units"][6]["type"] = "grenadier"
    scenario = parse_scenario(example_doc, "test.yaml")
    assert len(scenario.warnings) == 1
    assert scenario.warnings[0].startswith("units[6]: british grenadier is not in the nations file")


def test_what_the_checks_allow(example_doc: dict[str, Any]) -> None:
    """A bridged river holds units and leaders; infantry and cavalry stand in a sand quarry; a
    square on a hill; a clear_section objective with its section; the option of AMB-12."""
    changed(
        example_doc,
        [
            (("terrain", APPEND), {"hex": [3, 0], "type": "river", "bridge": True}),
            (("units", 0, "hex"), [3, 0]),
            (("leaders", 2, "hex"), [5, 8]),
            (("units", 6, "hex"), [4, 8]),
            (("units", 3, "in_square"), 1),
            (("objectives", 0, "kind"), "clear_section"),
            (("objectives", 0, "section"), "CENTER"),
            (("objectives", 0, "hexes"), []),
            (("ruleset_options", "rocky_hill_is_hill"), True),
        ],
    )
    scenario = parse_scenario(example_doc, "test.yaml")
    assert scenario.unit("F-LN1").hex == Hex(3, 0)
    assert scenario.unit("F-LT1").in_square == 1
    rocky = scenario.hill_group_of(Hex(3, 10))
    assert rocky is not None
    assert rocky.hexes == {Hex(3, 10), Hex(2, 11)}


def test_a_sections_override_is_used(example_doc: dict[str, Any]) -> None:
    """8.2 board.sections: column ranges per row parity, overlaps are dual hexes."""
    example_doc["board"]["sections"] = {
        "even": {"LEFT": [0, 5], "CENTER": [5, 7], "RIGHT": [7, 12]},
        "odd": {"LEFT": [0, 3], "CENTER": [4, 7], "RIGHT": [8, 11]},
    }
    scenario = parse_scenario(example_doc, "test.yaml")
    assert scenario.board.is_dual(Hex(2, 5))
    assert not scenario.board.is_dual(Hex(1, 4))
    assert scenario.board.sources["sections"] == "the scenario's board.sections"


@pytest.mark.parametrize(
    "path",
    [("id",), ("board",), ("sides", "top"), ("units", 0, "hex"), ("sides", "bottom", "nations")],
    ids=lambda p: ".".join(map(str, p)),
)
def test_a_missing_key_is_reported_once(
    example_doc: dict[str, Any],
    refusal: Callable[[object], list[Problem]],
    path: tuple[str | int, ...],
) -> None:
    problems = refusal(changed(example_doc, [(path, DELETE)]))
    where = ".".join(str(k) for k in path).replace(".0.", "[0].")
    assert [(p.path, p.message) for p in problems] == [(where, "missing (required)")]
