"""Terrain as data (digest 2.4, 3.20 CCN-150..178), the unit-type catalogue (2.5) and the deck's
card counts (2.8)."""

from __future__ import annotations

import pytest

from games.commands_colors_napoleonics.cards_data import (
    DECK,
    DECK_SIZE,
    SECTION_CARDS,
    TACTIC_CARDS,
)
from games.commands_colors_napoleonics.hexes import Direction
from games.commands_colors_napoleonics.terrain import (
    BRIDGE,
    FIELD_WORKS,
    HILL_TO_HILL,
    TERRAIN_TYPES,
    BattleOnEntry,
    Combat,
    HexTerrain,
    Los,
    Reductions,
    UnitClass,
)
from games.commands_colors_napoleonics.units import EXPANSION_TYPES, UNIT_TYPES

INF, CAV, ART = UnitClass.INF, UnitClass.CAV, UnitClass.ART
RANGED, MELEE = Combat.RANGED, Combat.MELEE


def _table(r: Reductions) -> tuple[tuple[int, int], int, int]:
    """(inf ranged, inf melee), cav melee, art (ranged == melee asserted)."""
    assert r.of(ART, RANGED) == r.of(ART, MELEE)
    return (r.of(INF, RANGED), r.of(INF, MELEE)), r.of(CAV, MELEE), r.of(ART, RANGED)


@pytest.mark.parametrize(
    ("code", "into", "out_of"),
    [
        ("clear", ((0, 0), 0, 0), ((0, 0), 0, 0)),
        ("forest", ((1, 1), 2, 1), ((0, 0), 2, 1)),  # CCN-153
        ("hill", ((1, 1), 1, 0), ((0, 0), 1, 0)),  # CCN-156, CCN-157 (AMB-29)
        ("town", ((2, 2), 3, 1), ((0, 0), 3, 1)),  # CCN-164
        ("windmill", ((2, 2), 3, 1), ((0, 0), 3, 1)),
        ("sand_quarry", ((0, 1), 2, 1), ((0, 1), 2, 0)),  # CCN-177
    ],
)
def test_dice_reductions_of_the_320_table(
    code: str, into: tuple[tuple[int, int], int, int], out_of: tuple[tuple[int, int], int, int]
) -> None:
    terrain = TERRAIN_TYPES[code]
    assert _table(terrain.into) == into
    assert _table(terrain.out_of) == out_of


def test_shallow_river_reduces_every_class_by_combat_type() -> None:
    """CCN-174: target in it -1 melee, 0 ranged; attacker in it -1 both, for every class."""
    shallow = TERRAIN_TYPES["shallow_river"]
    for unit_class in UnitClass:
        assert shallow.into.of(unit_class, MELEE) == 1
        assert shallow.into.of(unit_class, RANGED) == 0
        assert shallow.out_of.of(unit_class, RANGED) == 1


def test_hill_to_hill_and_field_works() -> None:
    """CCN-158 (hill to hill), CCN-167/169/170 (field works across a protected side). CCN-170."""
    assert _table(HILL_TO_HILL) == ((1, 0), 0, 0)
    assert _table(FIELD_WORKS.into_across) == ((1, 1), 2, 0)
    assert _table(FIELD_WORKS.out_across) == ((0, 0), 2, 0)
    assert FIELD_WORKS.flag_ignore == {INF: 1, ART: 1, CAV: 0}
    assert FIELD_WORKS.los is Los.CLEAR
    assert not FIELD_WORKS.square_allowed


@pytest.mark.parametrize(
    ("code", "stops", "square", "on_entry", "los"),
    [
        ("clear", False, True, BattleOnEntry.ANY, Los.CLEAR),
        ("forest", True, True, BattleOnEntry.LIGHT_INFANTRY_ONLY, Los.BLOCKS),
        ("hill", False, True, BattleOnEntry.ANY, Los.HILL),
        ("town", True, False, BattleOnEntry.NONE, Los.BLOCKS),
        ("windmill", True, False, BattleOnEntry.NONE, Los.BLOCKS),
        ("shallow_river", True, True, BattleOnEntry.ANY, Los.CLEAR),
        ("sand_quarry", True, True, BattleOnEntry.ANY, Los.CLEAR),  # AMB-17
        ("river", False, False, BattleOnEntry.NONE, Los.CLEAR),
        ("rocky_hill", False, False, BattleOnEntry.NONE, Los.BLOCKS),
    ],
)
def test_movement_square_entry_and_los(
    code: str, stops: bool, square: bool, on_entry: BattleOnEntry, los: Los
) -> None:
    """CCN-151, CCN-155, CCN-162, CCN-173, CCN-178: stop on entry, squares, battle on entry,
    line of sight of each terrain (a hill's is CCN-182's, CCN-160)."""
    terrain = TERRAIN_TYPES[code]
    assert (terrain.stops_on_entry, terrain.square_allowed) == (stops, square)
    assert (terrain.battle_on_entry, terrain.los) == (on_entry, los)


def test_impassable_and_no_battle() -> None:
    """CCN-29, CCN-161, CCN-172, CCN-176."""
    rocky, river, quarry = (TERRAIN_TYPES[c] for c in ("rocky_hill", "river", "sand_quarry"))
    assert rocky.impassable_units == {INF, CAV, ART}
    assert rocky.impassable_leaders
    assert not rocky.battle_allowed
    assert river.impassable_units == {INF, CAV, ART}
    assert river.impassable_leaders
    assert river.battle_allowed
    assert not river.melee_allowed
    assert quarry.impassable_units == {ART}
    assert not quarry.impassable_leaders


def test_every_effect_names_its_rule() -> None:
    for terrain in [*TERRAIN_TYPES.values(), BRIDGE]:
        assert terrain.sources, terrain.code
        for source in terrain.sources.values():
            assert any(tag in source for tag in ("CCN-", "AMB-", "§")), (terrain.code, source)
    assert all("CCN-" in s for s in FIELD_WORKS.sources.values())


def test_hex_terrain_bridge_field_works_and_entry() -> None:
    """CCN-175: a bridge cancels the river's restrictions; CCN-30/166: protected side stops."""
    bridged = HexTerrain("river", bridge=True)
    assert bridged.kind is BRIDGE
    assert bridged.may_enter(ART)
    assert bridged.may_enter(None)
    assert not bridged.stops_on_entry()
    assert not HexTerrain("river").may_enter(INF)
    assert not HexTerrain("river").may_enter(None)
    redoubt = HexTerrain("hill", field_works=frozenset({Direction.NW, Direction.NE}))
    assert redoubt.stops_on_entry(Direction.NW)
    assert redoubt.stops_on_entry(Direction.NE)
    assert not redoubt.stops_on_entry(Direction.SE)
    assert not redoubt.stops_on_entry()
    assert not redoubt.square_allowed
    assert HexTerrain("hill").square_allowed
    assert HexTerrain("sand_quarry").may_enter(None)
    assert not HexTerrain("sand_quarry").may_enter(ART)


def test_unit_type_catalogue() -> None:
    """2.5: classes, movement, ranges, type bonuses, sabres, retreat and flags."""
    assert len(UNIT_TYPES) == 15
    assert not EXPANSION_TYPES & set(UNIT_TYPES)
    rifle, light, militia = (
        UNIT_TYPES[c] for c in ("rifle_light_infantry", "light_infantry", "militia_infantry")
    )
    assert (rifle.ranged_range, rifle.ranged_type_bonus, rifle.sabre_hits) == (3, 0, False)
    assert (light.max_move, light.battle_max_moved, light.ranged_type_bonus) == (2, 1, 1)
    assert (militia.retreat_per_flag, militia.sabre_hits) == (3, False)
    assert UNIT_TYPES["old_guard"].melee_type_bonus == 2
    assert UNIT_TYPES["grenadier"].ignore_flags == 1
    assert UNIT_TYPES["cuirassier"].ignore_flags == 1
    assert UNIT_TYPES["guard_grenadier"].ignore_flags is None  # 1 or 2: the national card
    assert (UNIT_TYPES["light_cavalry"].max_move, UNIT_TYPES["heavy_cavalry"].max_move) == (3, 2)
    assert UNIT_TYPES["light_cavalry"].ranged_range is None
    foot, horse = UNIT_TYPES["foot_artillery"], UNIT_TYPES["horse_artillery"]
    assert (foot.max_move, foot.battle_max_moved, foot.ranged_range) == (1, 0, 5)
    assert (horse.max_move, horse.battle_max_moved, horse.ranged_range) == (2, 1, 4)
    assert {t.unit_class for t in UNIT_TYPES.values()} == {INF, CAV, ART}


def test_deck_of_70() -> None:
    """2.8: 48 section cards and 22 tactic cards."""
    assert sum(SECTION_CARDS.values()) == 48
    assert sum(TACTIC_CARDS.values()) == 22
    assert sum(DECK.values()) == DECK_SIZE == 70
