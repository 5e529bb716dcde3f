"""Terrain of the base game (digest 2.4, 3.20 CCN-150..178; rulebook chapter 7, L914-1097).

Each terrain type is data: its movement, square, battle and line-of-sight effects and the dice
a battling unit loses (by its class and the combat type), "into" (the target's hex) and "out of"
(the attacker's hex), with the rule id and the rulebook lines of each effect in `sources`. The
hexside feature field works and the bridge overlay are data too. Combining the values (AMB-4,
the hill rows, field works replacing) is the combat slice's job; this module only states them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from games.commands_colors_napoleonics.hexes import Direction


class UnitClass(StrEnum):
    """The class of a unit, which decides the die face that hits it (2.5)."""

    INF = "INF"
    CAV = "CAV"
    ART = "ART"


class Combat(StrEnum):
    RANGED = "ranged"
    MELEE = "melee"


class BattleOnEntry(StrEnum):
    """Whether a unit may battle in the turn it enters the hex."""

    ANY = "any"
    LIGHT_INFANTRY_ONLY = "light_infantry_only"  # forest, CCN-152
    NONE = "none"  # town, windmill, CCN-163


class Los(StrEnum):
    CLEAR = "clear"
    BLOCKS = "blocks"
    HILL = "hill"  # by elevation, CCN-182


@dataclass(frozen=True, slots=True)
class Reductions:
    """Dice a battling unit loses, by its class and the combat type (3.20 table)."""

    values: Mapping[tuple[UnitClass, Combat], int]

    def of(self, unit_class: UnitClass, combat: Combat) -> int:
        return self.values[unit_class, combat]


def _dice(inf: int | tuple[int, int], cav: int, art: int) -> Reductions:
    """`inf` is one number, or (ranged, melee) when they differ; cavalry never fires (CCN-49),
    so its ranged value is its melee value and never used."""
    inf_ranged, inf_melee = inf if isinstance(inf, tuple) else (inf, inf)
    values = {
        (UnitClass.INF, Combat.RANGED): inf_ranged,
        (UnitClass.INF, Combat.MELEE): inf_melee,
        (UnitClass.CAV, Combat.RANGED): cav,
        (UnitClass.CAV, Combat.MELEE): cav,
        (UnitClass.ART, Combat.RANGED): art,
        (UnitClass.ART, Combat.MELEE): art,
    }
    return Reductions(values)


def _by_combat(ranged: int, melee: int) -> Reductions:
    """The same for every class, different by combat type (shallow river, CCN-174)."""
    return Reductions(
        {(c, k): ranged if k is Combat.RANGED else melee for c in UnitClass for k in Combat}
    )


NONE = _dice(0, 0, 0)
ALL_UNITS = frozenset(UnitClass)


@dataclass(frozen=True, slots=True)
class TerrainType:
    code: str
    impassable_units: frozenset[UnitClass]  # CCN-29
    impassable_leaders: bool
    stops_on_entry: bool  # CCN-30
    square_allowed: bool
    battle_on_entry: BattleOnEntry
    battle_allowed: bool  # False: no battle into or out of the hex (rocky hill, CCN-161)
    melee_allowed: bool  # False: no melee into or out of the hex (river, CCN-172)
    into: Reductions  # target in this hex
    out_of: Reductions  # attacker in this hex
    los: Los
    sources: Mapping[str, str]  # effect -> rule id and rulebook lines


def _terrain(
    code: str,
    sources: Mapping[str, str],
    *,
    impassable_units: frozenset[UnitClass] = frozenset(),
    impassable_leaders: bool = False,
    stops_on_entry: bool = False,
    square_allowed: bool = True,
    battle_on_entry: BattleOnEntry = BattleOnEntry.ANY,
    battle_allowed: bool = True,
    melee_allowed: bool = True,
    into: Reductions = NONE,
    out_of: Reductions = NONE,
    los: Los = Los.CLEAR,
) -> TerrainType:
    return TerrainType(
        code,
        impassable_units,
        impassable_leaders,
        stops_on_entry,
        square_allowed,
        battle_on_entry,
        battle_allowed,
        melee_allowed,
        into,
        out_of,
        los,
        sources,
    )


_TOWN = _terrain(
    "town",
    {
        "movement": "CCN-162, seed L998",
        "square": "CCN-162, seed L998",
        "battle_on_entry": "CCN-163, seed L1000",
        "dice": "CCN-164, seed L1002-1014 (no Cavalry Charge bonus)",
        "los": "CCN-165, seed L1016",
    },
    stops_on_entry=True,
    square_allowed=False,
    battle_on_entry=BattleOnEntry.NONE,
    into=_dice(2, 3, 1),
    out_of=_dice(0, 3, 1),
    los=Los.BLOCKS,
)

TERRAIN_TYPES: Mapping[str, TerrainType] = {
    "clear": _terrain("clear", {"all": "§2.4 (a hex a scenario does not list is clear)"}),
    "forest": _terrain(
        "forest",
        {
            "movement": "CCN-151, seed L922",
            "square": "CCN-151, seed L922",
            "battle_on_entry": "CCN-152, seed L924",
            "dice": "CCN-153, seed L926-936",
            "los": "CCN-154, seed L938",
        },
        stops_on_entry=True,
        battle_on_entry=BattleOnEntry.LIGHT_INFANTRY_ONLY,
        into=_dice(1, 2, 1),
        out_of=_dice(0, 2, 1),
        los=Los.BLOCKS,
    ),
    "hill": _terrain(
        "hill",
        {
            "movement": "CCN-155, seed L944",
            "square": "CCN-155, seed L944",
            "into": "CCN-156, seed L946-950",
            "out_of": "CCN-157, seed L952-956 (cavalry -1: AMB-29)",
            "hill_to_hill": "CCN-158, seed L964-968",
            "los": "CCN-160, CCN-182, seed L970-978",
        },
        into=_dice(1, 1, 0),  # target on a hill, attacker lower (CCN-156)
        out_of=_dice(0, 1, 0),  # attacker on a hill, target lower (CCN-157)
        los=Los.HILL,
    ),
    "rocky_hill": _terrain(
        "rocky_hill",
        {
            "movement": "CCN-161, seed L988",
            "battle": "CCN-161, seed L990",
            "los": "CCN-161, seed L992",
        },
        impassable_units=ALL_UNITS,
        impassable_leaders=True,
        square_allowed=False,
        battle_on_entry=BattleOnEntry.NONE,
        battle_allowed=False,
        melee_allowed=False,
        los=Los.BLOCKS,
    ),
    "town": _TOWN,
    # A windmill is a building with the town's effects ("Ortschaft oder Windmühle", L994-1016).
    "windmill": replace(_TOWN, code="windmill"),
    "river": _terrain(
        "river",
        {
            "movement": "CCN-29, CCN-172, seed L1049",
            "melee": "CCN-172, seed L1051",
            "los": "CCN-172, seed L1053",
        },
        impassable_units=ALL_UNITS,
        impassable_leaders=True,
        square_allowed=False,
        battle_on_entry=BattleOnEntry.NONE,
        melee_allowed=False,
    ),
    "shallow_river": _terrain(
        "shallow_river",
        {
            "movement": "CCN-173, seed L1059",
            "square": "CCN-173, seed L1059",
            "battle_on_entry": "CCN-173, seed L1061",
            "dice": "CCN-174, seed L1063-1067",
            "los": "CCN-174, seed L1069",
        },
        stops_on_entry=True,
        into=_by_combat(ranged=0, melee=1),
        out_of=_by_combat(ranged=1, melee=1),
    ),
    "sand_quarry": _terrain(
        "sand_quarry",
        {
            "movement": "CCN-176, seed L1085, L1095",
            "square": "CCN-176, seed L1085",
            "battle_on_entry": "AMB-17 (the seed does not forbid it)",
            "dice": "CCN-177, seed L1085-1094",
            "los": "CCN-178, seed L1097",
        },
        impassable_units=frozenset({UnitClass.ART}),
        stops_on_entry=True,
        into=_dice((0, 1), 2, 1),
        out_of=_dice((0, 1), 2, 0),  # artillery is never in a sand quarry (impassable for it)
    ),
}

RIVER_TYPES = frozenset({"river", "shallow_river"})  # the types a bridge may span (CCN-175)

# A bridge cancels every movement and battle restriction of the river it spans (CCN-175).
BRIDGE = _terrain("bridge", {"all": "CCN-175, seed L1071-1079"})

# Attacker on a hill, target on another hill: these values replace CCN-156/157 (CCN-158).
HILL_TO_HILL = _dice((1, 0), 0, 0)


@dataclass(frozen=True, slots=True)
class FieldWorksEffects:
    """The hexside feature field works, on a hex's protected (forward-facing) sides."""

    into_across: Reductions  # battling into the hex across a protected side; replaces the base
    out_across: Reductions  # battling out across a protected side
    flag_ignore: Mapping[UnitClass, int]  # defender attacked across a protected side
    stops_on_entry_across: bool
    square_allowed: bool  # in a field-works hex
    los: Los
    sources: Mapping[str, str]


FIELD_WORKS = FieldWorksEffects(
    into_across=_dice(1, 2, 0),
    out_across=_dice(0, 2, 0),
    flag_ignore={UnitClass.INF: 1, UnitClass.ART: 1, UnitClass.CAV: 0},
    stops_on_entry_across=True,
    square_allowed=False,
    los=Los.CLEAR,
    sources={
        "movement": "CCN-166, seed L1022",
        "square": "CCN-166, seed L1024",
        "into": "CCN-167, seed L1028-1032",
        "replaces": "CCN-168, seed L1034 (scope AMB-33)",
        "flag_ignore": "CCN-169, seed L1036",
        "out_across": "CCN-170, seed L1038-1041",
        "los": "CCN-171, seed L1043",
    },
)


@dataclass(frozen=True, slots=True)
class HexTerrain:
    """The terrain of one hex: a base type, the bridge overlay and the protected hexsides."""

    base: str = "clear"
    bridge: bool = False
    field_works: frozenset[Direction] = frozenset()
    name: str | None = None
    group_name: str | None = None

    @property
    def kind(self) -> TerrainType:
        """The effective type: a bridged river behaves as the bridge (CCN-175)."""
        return BRIDGE if self.bridge else TERRAIN_TYPES[self.base]

    def may_enter(self, unit_class: UnitClass | None) -> bool:
        """Whether a unit of `unit_class` (None: a leader) may enter or stand here (CCN-29)."""
        kind = self.kind
        if unit_class is None:
            return not kind.impassable_leaders
        return unit_class not in kind.impassable_units

    def stops_on_entry(self, across: Direction | None = None) -> bool:
        """Whether entering ends the move (CCN-30): the type stops, or the mover crosses a
        protected field-works side; `across` is this hex's side the mover comes through."""
        crosses = across is not None and across in self.field_works
        return self.kind.stops_on_entry or (crosses and FIELD_WORKS.stops_on_entry_across)

    @property
    def square_allowed(self) -> bool:
        """Whether infantry may form square here (CCN-162, CCN-166)."""
        return self.kind.square_allowed and not (
            self.field_works and not FIELD_WORKS.square_allowed
        )

    @property
    def los(self) -> Los:
        return self.kind.los
