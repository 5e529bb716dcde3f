"""The records of a loaded scenario (digest 8.2, 3.1): the board and its terrain, the two sides,
units, leaders, objectives; with the queries set-up needs (which leader is attached, the hill
group of a hex, what a side may order in a section)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.commands_colors_napoleonics.board import Board, Section, Side
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.options import OptionValue
from games.commands_colors_napoleonics.terrain import HexTerrain, UnitClass
from games.commands_colors_napoleonics.units import UNIT_TYPES, UnitType

CLEAR = HexTerrain()


@dataclass(frozen=True, slots=True)
class SideSetup:
    side: Side
    army: str
    nations: tuple[str, ...]
    commander: str | None
    baseline_row: int
    hand_size: int  # CCN-3
    victory_banners: int  # CCN-5
    starting_banners: int


@dataclass(frozen=True, slots=True)
class UnitSetup:
    id: str
    side: Side
    nation: str
    type: str
    hex: Hex
    blocks: int  # CCN-2: the scenario's, else the nations file's
    blocks_source: str  # "scenario" or the nations file's source
    in_square: int | None  # square marker 1-4 (test fixtures only)
    path: str  # units[i]

    @property
    def unit_type(self) -> UnitType:
        return UNIT_TYPES[self.type]

    @property
    def unit_class(self) -> UnitClass:
        return UNIT_TYPES[self.type].unit_class


@dataclass(frozen=True, slots=True)
class LeaderSetup:
    id: str
    side: Side
    nation: str
    name: str
    hex: Hex
    path: str  # leaders[i]


@dataclass(frozen=True, slots=True)
class Objective:
    id: str
    for_side: Side
    kind: str
    hexes: tuple[Hex, ...]
    count_mode: str
    banners: int
    unit_classes: frozenset[UnitClass]
    section: Section | None


@dataclass(frozen=True, slots=True)
class SpecialRule:
    id: str
    text: str
    hook: str | None


@dataclass(frozen=True, slots=True)
class DeckFixture:
    """A fixed deal for tests (8.2 `deck`): the draw order and both hands."""

    order: tuple[str, ...]
    hands: Mapping[Side, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class HillGroup:
    """Touching hill hexes, one plateau (2.4, seed L976), computed at load time."""

    name: str | None
    hexes: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    kind: str
    ruleset: str
    date: str | None
    source: str | None
    options: Mapping[str, OptionValue]  # every AMB option, defaults filled in
    board: Board
    terrain: Mapping[Hex, HexTerrain]  # the listed hexes; others are clear
    sides: Mapping[Side, SideSetup]
    first_player: Side
    units: tuple[UnitSetup, ...]
    leaders: tuple[LeaderSetup, ...]
    objectives: tuple[Objective, ...]
    special_rules: tuple[SpecialRule, ...]
    deck: DeckFixture | None
    notes: str | None
    hill_groups: tuple[HillGroup, ...]
    warnings: tuple[str, ...]

    def terrain_at(self, hex_: Hex) -> HexTerrain:
        return self.terrain.get(hex_, CLEAR)

    def unit(self, unit_id: str) -> UnitSetup:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(unit_id)

    def leader(self, leader_id: str) -> LeaderSetup:
        for leader in self.leaders:
            if leader.id == leader_id:
                return leader
        raise KeyError(leader_id)

    def unit_at(self, hex_: Hex) -> UnitSetup | None:
        return next((u for u in self.units if u.hex == hex_), None)

    def leader_at(self, hex_: Hex) -> LeaderSetup | None:
        return next((ld for ld in self.leaders if ld.hex == hex_), None)

    def attached_leader(self, unit_id: str) -> LeaderSetup | None:
        """The leader attached to a unit: a friendly leader in its hex (CCN-2, seed L216)."""
        unit = self.unit(unit_id)
        leader = self.leader_at(unit.hex)
        return leader if leader is not None and leader.side is unit.side else None

    def is_lone(self, leader_id: str) -> bool:
        leader = self.leader(leader_id)
        unit = self.unit_at(leader.hex)
        return unit is None or unit.side is not leader.side

    def hill_group_of(self, hex_: Hex) -> HillGroup | None:
        return next((g for g in self.hill_groups if hex_ in g.hexes), None)

    def sections_of(self, hex_: Hex, side: Side) -> frozenset[Section]:
        return self.board.sections_of(hex_, side)

    def pieces_in_section(
        self, side: Side, section: Section
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The ids of `side`'s units and leaders in `section` as `side` names it: what a section
        card may order (CCN-14; a dual hex counts for both its sections)."""
        units = tuple(
            u.id for u in self.units if u.side is side and section in self.sections_of(u.hex, side)
        )
        leaders = tuple(
            ld.id
            for ld in self.leaders
            if ld.side is side and section in self.sections_of(ld.hex, side)
        )
        return units, leaders
