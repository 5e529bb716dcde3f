"""The state of a Valour & Fortitude game (digest section 5) as frozen, slotted dataclasses.

Conventions (digest 2.1): inches on a table whose origin is the south-west corner, x to the
east, y to the north; `facing_deg` is the compass bearing of a base's front (0 north, 90 east).
Lengths and angles are exact `Decimal`s with at most three decimals (`QUANTUM`): the JSON form
(`state_json`) writes them as decimal texts, because game state carries no floats (hashing).

A unit stands on `bases`: base rectangles (centre, facing, width, depth) as the umpire placed
them (digest 2.2, "umpires MAY upload explicit base rectangles"); `front_rank` marks the bases
of its front rank, whose front arcs make the unit's (VF-5, VF-43). Terrain pieces are polygons
(a linear feature such as a hedge is a thin polygon). Values derived by rules (shaken, the
footprint, arcs) are never stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from games.valour_fortitude.army_data import Category

QUANTUM = Decimal("0.001")  # inches and degrees: three decimals
SIDES = ("A", "B")


def exact(value: Decimal | int | str) -> Decimal:
    """`value` as a Decimal of three decimals (no negative zero)."""
    number = Decimal(value).quantize(QUANTUM)
    return number + 0 if number.is_zero() else number


class Phase(StrEnum):  # VF-31, plus set-up and the end of the game
    SETUP = "SETUP"
    FATE = "FATE"
    SHOOTING = "SHOOTING"
    COMMAND = "COMMAND"
    MELEE = "MELEE"
    OVER = "OVER"


class Formation(StrEnum):  # VF-9, VF-141, VF-146, VF-152; NONE while occupying (VF-195)
    LINE = "LINE"
    ATTACK_COLUMN = "ATTACK_COLUMN"
    MARCH_COLUMN = "MARCH_COLUMN"
    SQUARE = "SQUARE"
    OPEN_ORDER = "OPEN_ORDER"
    COMPANY_COLUMN = "COMPANY_COLUMN"
    NONE = "NONE"


class Trait(StrEnum):  # VF-180: the terrain rules a feature has
    OBSTACLE = "OBSTACLE"  # T.2.1, crossing costs 4 in (VF-187)
    SOFT_COVER = "SOFT_COVER"  # T.2.2
    HARD_COVER = "HARD_COVER"
    ROAD = "ROAD"  # T.2.3
    IMPASSABLE = "IMPASSABLE"  # T.2.4
    BLOCKS_LOS = "BLOCKS_LOS"  # T.2.5
    ROUGH = "ROUGH"  # T.2.6
    DEFENSIBLE = "DEFENSIBLE"  # T.3 (also blocks LOS, VF-193)
    HILL = "HILL"  # T.1.3


class LeaderKind(StrEnum):  # VF-12
    BG = "BG"
    CINC = "CINC"


@dataclass(frozen=True, slots=True)
class Point:
    x: Decimal
    y: Decimal


@dataclass(frozen=True, slots=True)
class BaseRect:
    """One base: its centre, the bearing of its front, its frontage and its depth (inches)."""

    x: Decimal
    y: Decimal
    facing_deg: Decimal  # 0 <= facing < 360
    width: Decimal
    depth: Decimal
    front_rank: bool = True


@dataclass(frozen=True, slots=True)
class Stats:  # the profile after upgrades (VF-14, VF-233..VF-239)
    ranged: int | None  # None: no ranged attack ("-")
    melee: int
    morale: int
    range_in: int | None
    special_rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Upgrades:  # what was bought (VF-233..VF-239)
    elite: tuple[str, ...] = ()  # "ranged", "melee", "morale"
    understrength: bool = False
    large: bool = False
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnFlags:  # digest 5.2: reset at the start of each turn or phase
    fired: bool = False
    supported_fire: bool = False
    skirmish_fired: bool = False
    acted: bool = False
    action: str | None = None
    moved_this_turn: bool = False
    changed_formation_this_round: bool = False
    occupied_this_turn: bool = False
    attacked_this_phase: bool = False
    supported_this_phase: bool = False
    won_melee_this_phase: bool = False
    charged_this_round: bool = False


@dataclass(frozen=True, slots=True)
class Unit:  # digest 5.2
    id: str
    side: str
    brigade: str
    army_list: str
    profile: str
    category: Category
    figures: int
    formation: Formation
    files: int  # figures across the front rank (VF-9); 0 for artillery and occupants
    ranks: int
    bases: tuple[BaseRect, ...]  # empty while off the table (reserve, fled, inside a feature)
    stats: Stats
    upgrades: Upgrades = Upgrades()
    limbered: bool | None = None  # artillery only (VF-11)
    casualties: int = 0
    unpredictable: int | None = None  # VF-161: None untested, else -1, 0 or +1
    fled: bool = False
    occupying: str | None = None  # a defensible feature's id (VF-195)
    entrenched: bool = False
    mounted: bool | None = None
    moved_since_first_unlimber: bool = False
    turn_flags: TurnFlags = TurnFlags()


@dataclass(frozen=True, slots=True)
class Leader:  # digest 5.3: a round model, not a unit (VF-12)
    id: str
    side: str
    kind: LeaderKind
    brigade: str | None  # None for the CinC
    x: Decimal
    y: Decimal
    radius_in: Decimal
    special_rules: tuple[str, ...] = ()
    occupying: str | None = None
    removed: bool = False


@dataclass(frozen=True, slots=True)
class Brigade:  # digest 5.3
    id: str
    side: str
    bg: str
    units: tuple[str, ...]
    player: str | None = None
    fled_units: tuple[str, ...] = ()
    broken: bool = False
    activated_this_turn: bool | None = None
    wavering: bool = False
    pending_resolve_tests: int = 0
    in_reserve: bool = False
    reserve_arrival_round: int | None = None


@dataclass(frozen=True, slots=True)
class Section:  # VF-201: a connected section of a large defensible feature
    id: str
    polygon: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class TerrainPiece:  # digest 5.1, VF-180, VF-181
    id: str
    kind: str  # village, wood, hedge_low, hill, road, river, ford, ...
    traits: frozenset[Trait]
    polygon: tuple[Point, ...]
    wood_mode: str | None = None  # "defensible" or "rough" (VF-181)
    height: int | None = None  # hills (GAP-2)
    crest: tuple[Point, ...] = ()
    gives_march_bonus: bool | None = None  # roads (VF-189)
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True, slots=True)
class Objective:  # VF-22, VF-249
    id: str
    x: Decimal
    y: Decimal
    feature: str | None = None
    controller: str | None = None
    counts_double_for: str | None = None


@dataclass(frozen=True, slots=True)
class FateState:  # VF-25, VF-35, VF-36 (the hand is secret: views filter it)
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    first_fate_phase_done: bool = False


@dataclass(frozen=True, slots=True)
class SideState:  # digest 5.1 `sides`
    id: str  # "A" or "B"
    army_list: str
    cinc: str
    scenario_role: str | None = None  # "attacker" or "defender" (VF-247)
    edge: str | None = None  # the table edge it enters from (VF-248)
    named_general: str | None = None
    setbacks: int = 0
    fate: FateState = FateState()
    auto_activation_used_this_turn: bool = False
    cautious_cinc_auto_used: bool = False


@dataclass(frozen=True, slots=True)
class Table:  # VF-248
    width_in: Decimal
    depth_in: Decimal


@dataclass(frozen=True, slots=True)
class TurnRecord:  # VF-24, VF-30, VF-31
    round: int = 0  # 0 during set-up
    phase: Phase = Phase.SETUP
    active_side: str | None = None
    first_side: str | None = None
    turns_taken_a: int = 0
    turns_taken_b: int = 0
    turn_limit: int | None = None  # turns per side (GAP-13)


@dataclass(frozen=True, slots=True)
class GameState:
    scenario: str
    table: Table
    turn: TurnRecord
    sides: tuple[SideState, ...]
    brigades: tuple[Brigade, ...]
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...]
    terrain: tuple[TerrainPiece, ...] = ()
    objectives: tuple[Objective, ...] = ()
    scale_profile: str = "28mm"  # digest 0: "28mm", "15mm", "6mm"
    options: tuple[tuple[str, str], ...] = field(default=())  # AMB option key -> value

    def unit(self, unit_id: str) -> Unit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise KeyError(f"no unit {unit_id!r}")

    def leader(self, leader_id: str) -> Leader:
        for leader in self.leaders:
            if leader.id == leader_id:
                return leader
        raise KeyError(f"no leader {leader_id!r}")

    def piece(self, piece_id: str) -> TerrainPiece:
        for piece in self.terrain:
            if piece.id == piece_id:
                return piece
        raise KeyError(f"no terrain piece {piece_id!r}")
