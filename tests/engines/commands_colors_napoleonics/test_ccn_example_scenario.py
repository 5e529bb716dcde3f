"""The example scenario of digest 9 and the derived facts of 9.1 that the loader MUST reproduce
(the unit table, TC-41..TC-47 as far as this slice reaches: geometry, terrain, sections,
objectives, hands; the LOS verdicts and the square rule come with later slices)."""

from __future__ import annotations

import pytest

from games.commands_colors_napoleonics.board import Section, Side
from games.commands_colors_napoleonics.errors import UnknownValueError
from games.commands_colors_napoleonics.hexes import Direction, Hex, distance, line_between
from games.commands_colors_napoleonics.nations import nations_named
from games.commands_colors_napoleonics.scenario import SHIPPED_SCENARIOS, Scenario, scenario_named
from games.commands_colors_napoleonics.terrain import TERRAIN_TYPES, Los, UnitClass

L, C, R = Section.LEFT, Section.CENTER, Section.RIGHT

# 9.1: unit, hex, terrain, sections (owner's perspective), attached leader
TABLE = [
    ("F-LN1", Hex(1, 4), "clear", {C, R}, None),
    ("F-LN2", Hex(1, 6), "clear", {C}, "F-L1"),
    ("F-LN3", Hex(2, 8), "clear", {L}, None),
    ("F-LT1", Hex(2, 3), "hill", {R}, None),
    ("F-LC1", Hex(1, 9), "clear", {L}, None),
    ("F-FA1", Hex(2, 2), "hill", {R}, None),
    ("B-LN1", Hex(7, 3), "clear", {L}, None),
    ("B-LN2", Hex(6, 6), "clear", {C}, "B-L1"),
    ("B-RI1", Hex(6, 9), "forest", {R}, None),
    ("P-LN1", Hex(7, 7), "clear", {C, R}, None),
    ("B-HC1", Hex(7, 10), "clear", {R}, None),
    ("B-FA1", Hex(7, 5), "hill", {C}, None),
]


def test_the_example_ships_and_loads_without_warnings(example: Scenario) -> None:
    assert "example" in SHIPPED_SCENARIOS
    assert scenario_named("example").id == example.id == "example-ford-of-santa-clara"
    assert example.kind == "fictional"
    assert example.ruleset == "ccn-base-3e"
    assert example.board.id == "ccn-13x9-provisional"
    assert example.warnings == ()
    assert len(example.units) == 12
    assert len(example.leaders) == 3
    assert example.options["grenadier_ranged_bonus"] is True
    assert example.options["rocky_hill_is_hill"] is False  # AMB-12 default


@pytest.mark.parametrize(("unit_id", "hex_", "terrain", "sections", "leader"), TABLE)
def test_unit_table_of_91(
    example: Scenario,
    unit_id: str,
    hex_: Hex,
    terrain: str,
    sections: set[Section],
    leader: str | None,
) -> None:
    unit = example.unit(unit_id)
    assert unit.hex == hex_
    assert example.terrain_at(hex_).base == terrain
    assert example.sections_of(hex_, unit.side) == sections
    attached = example.attached_leader(unit_id)
    assert (attached.id if attached else None) == leader


def test_hill_groups_and_the_redoubt(example: Scenario) -> None:
    """2.4: hill groups computed at load time; B-FA1's hill has field works NW and NE."""
    groups = {g.name: g.hexes for g in example.hill_groups}
    assert groups == {"Cerro Alto": {Hex(1, 2), Hex(2, 2), Hex(2, 3)}, "Monte Baixo": {Hex(7, 5)}}
    cerro = example.hill_group_of(Hex(2, 3))
    assert cerro is not None
    assert cerro is example.hill_group_of(Hex(2, 2))
    assert example.hill_group_of(Hex(3, 10)) is None  # rocky hill: never a group (AMB-12)
    assert example.terrain_at(Hex(7, 5)).field_works == {Direction.NW, Direction.NE}


def test_lone_portuguese_leader(example: Scenario) -> None:
    """P-L1 (lone) at (8,7), clear, CENTER."""
    leader = example.leader("P-L1")
    assert leader.hex == Hex(8, 7)
    assert example.is_lone("P-L1")
    assert example.terrain_at(leader.hex).base == "clear"
    assert example.sections_of(leader.hex, Side.BOTTOM) == {C}
    assert not example.is_lone("F-L1")
    assert not example.is_lone("B-L1")


def test_tc41_hill_to_hill_artillery_geometry(example: Scenario) -> None:
    """TC-41: B-FA1 (7,5) -> F-LT1 (2,3): distance 5, in foot artillery range; the line passes
    (6,5), (5,4), (4,4), (3,3), none holding a piece or blocking terrain ((4,4) is a shallow
    river); the fire itself is refused naming GAP-1 (foot_artillery[3][5])."""
    assert example.unit("B-FA1").unit_type.ranged_range == 5
    assert distance(Hex(7, 5), Hex(2, 3)) == 5
    line = line_between(Hex(7, 5), Hex(2, 3))
    assert line == ((Hex(6, 5),), (Hex(5, 4),), (Hex(4, 4),), (Hex(3, 3),))
    assert example.terrain_at(Hex(4, 4)).base == "shallow_river"
    for (h,) in line:
        assert example.unit_at(h) is None
        assert example.leader_at(h) is None
        assert example.terrain_at(h).los is Los.CLEAR
    assert example.terrain_at(Hex(7, 5)).base == example.terrain_at(Hex(2, 3)).base == "hill"
    with pytest.raises(UnknownValueError) as info:
        nations_named(example.ruleset).artillery_ranged_dice("foot_artillery", 3, 5)
    assert info.value.gap == "GAP-1"
    assert "foot_artillery[3][5]" in str(info.value)


def test_tc42_over_the_friendly_unit_on_the_adjacent_lower_hex(example: Scenario) -> None:
    """TC-42: B-FA1 (7,5) -> F-LN3 (2,8): distance 5; the line passes (6,6) (friendly B-LN2 on
    an adjacent lower hex), then (5,6), (4,7), (3,7), all empty."""
    assert distance(Hex(7, 5), Hex(2, 8)) == 5
    line = line_between(Hex(7, 5), Hex(2, 8))
    assert line == ((Hex(6, 6),), (Hex(5, 6),), (Hex(4, 7),), (Hex(3, 7),))
    first = example.unit_at(Hex(6, 6))
    assert first is not None
    assert first.id == "B-LN2"
    assert first.side is Side.BOTTOM
    assert distance(Hex(7, 5), Hex(6, 6)) == 1
    assert example.terrain_at(Hex(6, 6)).base == "clear"
    assert example.terrain_at(Hex(6, 6)).los is Los.CLEAR
    for (h,) in line[1:]:
        assert example.unit_at(h) is None
        assert example.leader_at(h) is None
        assert example.terrain_at(h).los is Los.CLEAR


def test_tc43_range(example: Scenario) -> None:
    """TC-43: F-FA1 -> B-LN1 distance 5 through (3,2), (4,3), (5,2), (6,3); F-FA1 -> B-FA1 6,
    out of range; B-RI1 -> F-LN3 4, beyond rifle range 3."""
    foot_range = example.unit("F-FA1").unit_type.ranged_range
    rifle_range = example.unit("B-RI1").unit_type.ranged_range
    assert foot_range == 5
    assert rifle_range == 3
    assert distance(Hex(2, 2), Hex(7, 3)) == 5
    line = line_between(Hex(2, 2), Hex(7, 3))
    assert line == ((Hex(3, 2),), (Hex(4, 3),), (Hex(5, 2),), (Hex(6, 3),))
    assert example.terrain_at(Hex(4, 3)).base == "shallow_river"
    assert all(example.unit_at(h) is None for (h,) in line)
    assert distance(Hex(2, 2), Hex(7, 5)) == 6 > foot_range
    assert distance(Hex(6, 9), Hex(2, 8)) == 4 > rifle_range


@pytest.mark.parametrize(
    ("side", "section", "units", "leaders"),
    [
        (Side.TOP, R, {"F-LN1", "F-LT1", "F-FA1"}, set()),
        (Side.TOP, L, {"F-LN3", "F-LC1"}, set()),
        (Side.TOP, C, {"F-LN1", "F-LN2"}, {"F-L1"}),
        (Side.BOTTOM, R, {"B-RI1", "P-LN1", "B-HC1"}, set()),
        (Side.BOTTOM, C, {"B-LN2", "P-LN1", "B-FA1"}, {"B-L1", "P-L1"}),
        (Side.BOTTOM, L, {"B-LN1"}, set()),
    ],
)
def test_tc44_orders_by_section(
    example: Scenario, side: Side, section: Section, units: set[str], leaders: set[str]
) -> None:
    """TC-44, TC-34: what a section card may order (CCN-14; dual hexes count for both)."""
    found_units, found_leaders = example.pieces_in_section(side, section)
    assert (set(found_units), set(found_leaders)) == (units, leaders)


def test_tc45_terrain_blocks(example: Scenario) -> None:
    """TC-45: artillery may not enter the sand quarry; nothing enters the rocky hills; the
    stream and the town stop; the bridge does not."""
    quarry = example.terrain_at(Hex(5, 8))
    assert not quarry.may_enter(UnitClass.ART)
    assert quarry.may_enter(UnitClass.INF)
    assert quarry.may_enter(UnitClass.CAV)
    for h in (Hex(3, 10), Hex(2, 11)):
        assert not any(example.terrain_at(h).may_enter(c) for c in (*UnitClass, None))
    for h in (Hex(4, 0), Hex(4, 1), Hex(4, 3), Hex(4, 4), Hex(4, 6)):
        assert example.terrain_at(h).stops_on_entry(), h
    bridge = example.terrain_at(Hex(4, 2))
    assert bridge.base == "shallow_river"
    assert bridge.bridge
    assert not bridge.stops_on_entry()
    assert example.terrain_at(Hex(4, 6)).name == "Santa Clara"
    assert example.terrain_at(Hex(4, 6)).kind is TERRAIN_TYPES["town"]


def test_tc46_objectives(example: Scenario) -> None:
    """TC-46: OBJ-CERRO for the British (bottom), start of turn, the three Cerro Alto hexes,
    counted once for the group; OBJ-TOWN and OBJ-EXIT for the French."""
    objectives = {o.id: o for o in example.objectives}
    cerro = objectives["OBJ-CERRO"]
    assert (cerro.for_side, cerro.kind, cerro.count_mode, cerro.banners) == (
        Side.BOTTOM,
        "start_turn_temporary",
        "any",
        1,
    )
    assert set(cerro.hexes) == {
        h for g in example.hill_groups if g.name == "Cerro Alto" for h in g.hexes
    }
    town = objectives["OBJ-TOWN"]
    assert (town.for_side, town.hexes) == (Side.TOP, (Hex(4, 6),))
    exit_ = objectives["OBJ-EXIT"]
    assert exit_.kind == "exit"
    assert exit_.unit_classes == {UnitClass.CAV}
    assert exit_.hexes == tuple(Hex(8, c) for c in range(8, 13))
    assert all(h.row == example.board.baseline_row(Side.BOTTOM) for h in exit_.hexes)


def test_tc47_hands_and_first_player(example: Scenario) -> None:
    """TC-47: the French (top) hold 5 cards and move first, the British 4 (CCN-3, CCN-6)."""
    top, bottom = example.sides[Side.TOP], example.sides[Side.BOTTOM]
    assert (top.army, top.hand_size, top.victory_banners) == ("French", 5, 5)
    assert (bottom.army, bottom.hand_size, bottom.victory_banners) == ("Anglo-Portuguese", 4, 5)
    assert bottom.nations == ("british", "portuguese")
    assert example.first_player is Side.TOP
    assert (top.baseline_row, bottom.baseline_row) == (0, 8)
