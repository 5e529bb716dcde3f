"""The starter scenario (digest 3.19): its file loads into the state model, its armies pass
`check_army`, and its set-up obeys the scenario's rules (VF-248 edges and terrain, VF-249
objectives, VF-250 deployment); a broken copy is refused naming the rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
import yaml

from games.valour_fortitude.armies import army_list, army_points, check_army
from games.valour_fortitude.geometry import distance
from games.valour_fortitude.problems import DataError
from games.valour_fortitude.scenario import SCENARIOS_DIR, load_scenario, parse_scenario
from games.valour_fortitude.scenario_checks import scenario_problems
from games.valour_fortitude.sight_lines import nearest_visible_target
from games.valour_fortitude.state import Formation, LeaderKind, Phase, Trait
from games.valour_fortitude.state_json import dump, load, state_problems

_DOC: dict[str, Any] = yaml.safe_load((SCENARIOS_DIR / "starter.yaml").read_text("utf-8"))


def starter_doc() -> dict[str, Any]:
    return copy.deepcopy(_DOC)


def problems_of(change: Callable[[dict[str, Any]], object]) -> list[tuple[str, str]]:
    doc = starter_doc()
    change(doc)
    try:
        scenario = parse_scenario(doc, "test.yaml")
    except DataError as refused:
        return [(p.path, p.rule) for p in refused.problems]
    return [(p.path, p.rule) for p in scenario_problems(scenario)]


def test_the_starter_scenario_loads_into_the_state_model() -> None:
    scenario = load_scenario("starter")
    state = scenario.state
    assert (scenario.id, state.scenario) == ("starter", "starter")
    assert (state.table.width_in, state.table.depth_in) == (Decimal(110), Decimal(60))
    assert state.turn.phase is Phase.SETUP
    assert (state.turn.first_side, state.turn.turn_limit) == ("A", 8)
    assert [s.scenario_role for s in state.sides] == ["attacker", "defender"]
    assert [s.named_general for s in state.sides] == ["napoleon", "wellington"]
    assert (len(state.units), len(state.brigades), len(state.leaders)) == (18, 6, 8)
    assert len(state.objectives) == 4
    assert {t.kind for t in state.terrain} == {"village", "wood", "hill", "road", "hedge_low"}
    assert state_problems(state) == []
    assert load(dump(state)) == state


def test_its_armies_pass_check_army() -> None:
    """VF-230..VF-240: both example armies are legal, within the 250 points agreed."""
    scenario = load_scenario("starter")
    for side in scenario.state.sides:
        armylist = army_list(side.army_list)
        assert check_army(armylist, scenario.armies[side.id]) == []
    france = army_list("france_1812_1815")
    britain = army_list("britain_1807_1815")
    assert army_points(france, scenario.armies["A"]) == 227
    assert army_points(britain, scenario.armies["B"]) == 242  # with an Allied contingent


def test_units_carry_their_bought_values() -> None:
    state = load_scenario("starter").state
    grenadiers = state.unit("U-A5")  # elite +1 melee
    assert (grenadiers.stats.melee, grenadiers.upgrades.elite) == (6, ("melee",))
    assert grenadiers.formation is Formation.ATTACK_COLUMN
    assert len(grenadiers.bases) == 4
    assert sum(b.front_rank for b in grenadiers.bases) == 2
    understrength = state.unit("U-A6")
    assert (understrength.figures, understrength.stats.melee, understrength.stats.morale) == (
        12,
        3,
        3,
    )
    contingent = state.unit("U-B7")
    assert (contingent.army_list, contingent.stats.morale) == ("allied_french_british", 3)
    gun = state.unit("U-A4")
    assert (gun.limbered, [b.front_rank for b in gun.bases]) == (False, [True, False])
    assert state.leader("L-A0").kind is LeaderKind.CINC
    assert state.leader("L-A0").special_rules == ("napoleon",)


def test_the_geometry_aid_on_the_starter_table() -> None:
    state = load_scenario("starter").state
    light, rifles = state.unit("U-A3"), state.unit("U-B3")
    assert distance(light, rifles).value == pytest.approx(32.0)
    assert nearest_visible_target(light, state.units, state.terrain).value == ("U-B3",)
    road = state.piece("R1")
    assert road.gives_march_bonus is True
    assert Trait.ROAD in road.traits


def test_the_attacker_takes_a_long_edge_and_the_defender_the_other() -> None:
    """VF-248 (and VF-250: the units then stand far from their new edges)."""
    short = problems_of(lambda d: d["example"]["edges"].update(A="west", B="east"))
    assert short[0] == ("example.edges.A", "VF-248")
    assert {rule for _, rule in short[1:]} == {"VF-250"}
    assert len(short) == 1 + 16  # U-B8 and U-B9 happen to stand within 18 in of the east edge
    same = problems_of(lambda d: d["example"]["edges"].update(B="south"))
    assert same[0] == ("example.edges.B", "VF-248")


def test_the_terrain_menu() -> None:
    """VF-248: two to three villages and woods, at most one river with two crossings."""

    def third_wood_and_fourth_village(d: dict[str, Any]) -> None:
        terrain = d["example"]["terrain"]
        for n in (3, 4):
            terrain.append({**terrain[0], "id": f"V{n}"})

    assert problems_of(third_wood_and_fourth_village) == [("example.terrain", "VF-248")]

    def river(d: dict[str, Any]) -> None:
        corners = [[100, 0], [101, 0], [101, 60], [100, 60]]
        d["example"]["terrain"].append(
            {"id": "S1", "kind": "river", "traits": ["IMPASSABLE"], "polygon": corners}
        )

    assert problems_of(river) == [("example.terrain", "VF-248")]


def test_objectives_keep_12_in_from_the_edges_and_each_other() -> None:
    """VF-249: four objectives, at least 12 in from every table edge and from each other."""
    assert problems_of(lambda d: d["example"]["objectives"][2].update(y=11.9)) == [
        ("example.objectives[2]", "VF-249")
    ]
    assert problems_of(lambda d: d["example"]["objectives"][3].update(x=36, y=41.9)) == [
        ("example.objectives", "VF-249")
    ]
    assert problems_of(lambda d: d["example"]["objectives"].pop()) == [
        ("example.objectives", "VF-249")
    ]


def test_units_deploy_within_18_in_of_their_edge() -> None:
    """VF-250: every unit entirely within 18 in of its own table edge."""

    def forward(d: dict[str, Any]) -> None:
        d["example"]["sides"]["A"]["placements"]["U-A1"]["block"]["y"] = 18.5

    assert problems_of(forward) == [("example.sides.A.placements.U-A1", "VF-250")]


def test_army_problems_name_their_place_in_the_scenario() -> None:
    def over_the_limit(d: dict[str, Any]) -> None:
        d["example"]["sides"]["B"]["army"]["points_limit"] = 200

    assert problems_of(over_the_limit) == [("example.sides.B.army.points_limit", "VF-230")]


def test_a_unit_of_unknown_values_is_refused_by_its_gap() -> None:
    """GAP-15: an army may buy a Union smoothbore battery, but it cannot be set up."""

    def union(d: dict[str, Any]) -> None:
        side = d["example"]["sides"]["B"]
        side["army"]["army_list"] = "acw_union"
        side["army"]["cinc"] = {"id": "L-B0"}
        side["army"]["brigades"][0]["units"][3]["profile"] = "glattrohrartillerie"

    found = problems_of(union)
    assert ("example.sides.B.placements.U-B4", "GAP-15") in found


def test_placement_errors() -> None:
    def no_placement(d: dict[str, Any]) -> None:
        del d["example"]["sides"]["A"]["placements"]["U-A2"]
        d["example"]["sides"]["A"]["placements"]["U-A3"]["block"]["facing"] = 360

    assert problems_of(no_placement) == [
        ("example.sides.A.placements.U-A2", "format"),
        ("example.sides.A.placements.U-A3.block.facing", "format"),
    ]


def test_every_rule_of_the_scenario_has_its_source() -> None:
    assert problems_of(lambda d: d["rules"]["deployment"].pop("source")) == [
        ("rules.deployment.source", "format")
    ]
    assert problems_of(lambda d: d["rules"]["objectives"].update(count="four")) == [
        ("rules.objectives.count", "format")
    ]


def test_only_shipped_scenarios_by_name() -> None:
    with pytest.raises(KeyError):
        load_scenario("../starter")
    with pytest.raises(KeyError):
        load_scenario("nowhere")
