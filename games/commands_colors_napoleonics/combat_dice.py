"""How many battle dice a unit rolls (digest 3.9, CCN-67..70) and what they score (3.10,
CCN-71..74), with the leaders' dice (CCN-76, CCN-77, CCN-81, CCN-100) and the flags a unit may
ignore (CCN-90, CCN-95): pure functions over small frozen records.

The caller states the facts: the unit's dice profile (its type rule, 2.5, plus its national
card, 2.6), blocks, hexes moved, range, the target's class, the terrain reductions as numbers
(3.20, from `terrain.py`) and the card's bonus (`card_effects.card_bonus`). The steps, in the
order of CCN-67:

    1 base       blocks, half after moving (CCN-55), the artillery tables (CCN-58, 65, 66)
    2 + type     unit type and nation (CCN-56, CCN-62, CCN-64)
    3 + card     the card's dice (3.22); none in a battle back (AMB-16); Cavalry Charge's
                 none into or out of a town or windmill (CCN-164)
    4 cap        1 die for a square, and for cavalry battling a square (CCN-126, CCN-127)
    5 - terrain  into + out of (CCN-70; AMB-4), after the cap (AMB-27)
    6 floor      never below 0

Whether the unit may battle at all after its move (CCN-31, the cards' move rules) is the
caller's; the artillery rules tied to the dice tables (CCN-57, CCN-65, CCN-66), ranges
(CCN-46, CCN-51) and the classes that never fire (CCN-49) are checked here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from games.commands_colors_napoleonics.dice import Face, count
from games.commands_colors_napoleonics.errors import UnknownValueError
from games.commands_colors_napoleonics.options import AMB_OPTIONS, OptionValue
from games.commands_colors_napoleonics.terrain import Combat, UnitClass
from games.core.protocol import JSON

CLASS_FACE: Mapping[UnitClass, Face] = {
    UnitClass.INF: Face.INF,
    UnitClass.CAV: Face.CAV,
    UnitClass.ART: Face.ART,
}
FOOT_ARTILLERY = frozenset({"foot_artillery", "guard_foot_artillery"})
HORSE_ARTILLERY = frozenset({"horse_artillery"})


class UnknownDiceData(UnknownValueError):
    """A dice value the seed does not give (e.g. the artillery table, GAP-1): refused, never
    guessed. `gap` names the gap, `what` the entry."""


class BattleNotAllowed(ValueError):
    """The battle cannot be made with these facts; `rule` names the rule that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class Rounding(StrEnum):
    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class DiceProfile:
    """The dice numbers of one unit type of one nation, as the caller read them from the unit
    catalogue (units.py) and the nations file."""

    unit_type: str
    unit_class: UnitClass
    max_range: int | None = None  # CCN-51; None: never fires (cavalry, CCN-49)
    ranged_bonus: int = 0  # CCN-56 (light, grenadier, guard: +1; AMB-1, AMB-2)
    ranged_standing_bonus: int = 0  # only when it did not move (British line, PUB-2)
    melee_bonus: int = 0  # CCN-62, CCN-64, CCN-65 (guard foot artillery +1)
    melee_bonus_vs: Mapping[UnitClass, int] = field(default_factory=dict)  # French line, PUB-1
    vs_bonus_in_battle_back: bool = False  # PUB-1: "melee and battle back"
    moving_rounding: Rounding = Rounding.UP  # CCN-55: French, British up; Portuguese down
    sabre_hits: bool = True  # CCN-63: rifles and militia score no sabre hits


@dataclass(frozen=True, slots=True)
class Attacker:
    profile: DiceProfile
    blocks: int
    moved: int = 0  # hexes moved this turn (CCN-40)
    in_square: bool = False


@dataclass(frozen=True, slots=True)
class TerrainDice:
    """Terrain reductions as numbers (3.20), for this unit class and combat type."""

    into: int = 0  # the target's hex
    out_of: int = 0  # the battling unit's own hex
    building: bool = False  # either hex is a town or windmill (CCN-164)


@dataclass(frozen=True, slots=True)
class CardBonus:
    dice: int = 0
    void_in_buildings: bool = False  # Cavalry Charge (CCN-164)
    card: str = ""


@dataclass(frozen=True, slots=True)
class Battle:
    combat: Combat
    target: UnitClass | None  # None: a lone leader (melee only, CCN-54, CCN-81)
    range: int = 1  # hexes to the target (CCN-51); a melee is at range 1
    target_in_square: bool = False
    battle_back: bool = False  # no card dice (AMB-16)
    terrain: TerrainDice = TerrainDice()
    card: CardBonus = CardBonus()


@dataclass(frozen=True, slots=True)
class DiceOptions:
    terrain_cumulative: bool = True  # AMB-4 terrain_in_out_cumulative
    cap_before_terrain: bool = True  # AMB-27 square_cap_before_terrain

    @classmethod
    def of(cls, options: Mapping[str, OptionValue] | None) -> DiceOptions:
        def get(key: str) -> bool:
            value = AMB_OPTIONS[key].default if options is None else options.get(key)
            return bool(AMB_OPTIONS[key].default if value is None else value)

        return cls(get("terrain_in_out_cumulative"), get("square_cap_before_terrain"))


class _SourcedLike(Protocol):
    @property
    def value(self) -> object: ...


@dataclass(frozen=True, slots=True)
class ArtilleryTable:
    """Ranged dice of artillery by (type, blocks, range) (CCN-58). The table is an image missing
    from the seed (GAP-1): an entry that is absent or None is unknown, and looking it up
    raises `UnknownDiceData` naming GAP-1."""

    dice: Mapping[tuple[str, int, int], int | None]

    def lookup(self, unit_type: str, blocks: int, range_: int) -> int:
        value = self.dice.get((unit_type, blocks, range_))
        if value is None:
            where = f"artillery_range_table.{unit_type}[{blocks}][{range_}]"
            raise UnknownDiceData("GAP-1", where)
        return value

    @classmethod
    def from_nations(
        cls, table: Mapping[str, Mapping[int, Mapping[int, _SourcedLike]]]
    ) -> ArtilleryTable:
        """From `NationsData.artillery_range_table` (values with `.value`, None unknown)."""
        dice: dict[tuple[str, int, int], int | None] = {}
        for unit_type, rows in table.items():
            for blocks, row in rows.items():
                for range_, entry in row.items():
                    value = entry.value
                    dice[unit_type, blocks, range_] = value if isinstance(value, int) else None
        return cls(dice)


# What the seed gives of the table: horse artillery, 3 blocks, range 3 rolls 1 die (L912).
SEED_ARTILLERY_TABLE = ArtilleryTable({("horse_artillery", 3, 3): 1})


@dataclass(frozen=True, slots=True)
class DiceCount:
    base: int
    type_bonus: int
    card_bonus: int
    capped: bool  # the square cap of 1 applied
    terrain: int  # dice lost to terrain
    total: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "base": self.base,
            "type": self.type_bonus,
            "card": self.card_bonus,
            "capped": self.capped,
            "terrain": self.terrain,
            "total": self.total,
        }


def half(blocks: int, rounding: Rounding) -> int:
    """Half the blocks, rounded by the nation (CCN-55)."""
    return (blocks + 1) // 2 if rounding is Rounding.UP else blocks // 2


def artillery_melee_base(unit_type: str, blocks: int, moved: int) -> int:
    """Artillery melee dice before the type bonus (CCN-65, CCN-66; seed L496-508)."""
    if unit_type in FOOT_ARTILLERY:
        if moved > 0:
            raise BattleNotAllowed("CCN-65", "foot artillery that moved may not battle (L496)")
        return 4 if blocks >= 2 else 3  # L498-499
    if unit_type in HORSE_ARTILLERY:
        if blocks >= 2:
            if moved >= 2:
                raise BattleNotAllowed("CCN-66", "horse artillery that moved 2 may not melee")
            return 3  # L504
        if moved > 0:
            raise BattleNotAllowed("CCN-66", "1-block horse artillery may not move and melee")
        return 2  # L507
    raise UnknownDiceData("GAP-10", f"melee dice of {unit_type}")


def _artillery_ranged_base(attacker: Attacker, range_: int, table: ArtilleryTable) -> int:
    kind, moved, blocks = attacker.profile.unit_type, attacker.moved, attacker.blocks
    if kind in FOOT_ARTILLERY and moved > 0:
        raise BattleNotAllowed("CCN-57", "foot artillery that moved may not battle (L400)")
    if kind in HORSE_ARTILLERY:
        if moved >= 2:
            raise BattleNotAllowed("CCN-57", "horse artillery that moved 2 may not battle")
        if moved == 1 and blocks == 1:
            raise BattleNotAllowed("CCN-57", "1-block horse artillery may not move and battle")
        if moved == 1 and range_ >= 4:
            raise BattleNotAllowed("CCN-57", "horse artillery that moved fires at range 3 at most")
    return table.lookup(kind, blocks, range_)


def _base(attacker: Attacker, battle: Battle, table: ArtilleryTable) -> int:
    profile = attacker.profile
    if battle.combat is Combat.MELEE:
        if battle.range != 1:
            raise BattleNotAllowed("CCN-59", "a melee is against an adjacent target")
        if profile.unit_class is UnitClass.ART:
            return artillery_melee_base(profile.unit_type, attacker.blocks, attacker.moved)
        return attacker.blocks  # CCN-61, CCN-64
    if profile.max_range is None:
        raise BattleNotAllowed("CCN-49", f"{profile.unit_type} never fires")
    if battle.target is None:
        raise BattleNotAllowed("CCN-54", "a lone leader cannot be fired at")
    if battle.range < 2:
        raise BattleNotAllowed("CCN-46", "an adjacent target is meleed, never fired at")
    if battle.range > profile.max_range:
        raise BattleNotAllowed("CCN-51", f"range {battle.range} is beyond {profile.max_range}")
    if profile.unit_class is UnitClass.ART:
        return _artillery_ranged_base(attacker, battle.range, table)
    if attacker.moved == 0:  # CCN-55
        return attacker.blocks
    return half(attacker.blocks, profile.moving_rounding)


def _type_bonus(attacker: Attacker, battle: Battle) -> int:
    profile = attacker.profile
    if battle.combat is Combat.RANGED:
        standing = profile.ranged_standing_bonus if attacker.moved == 0 else 0
        return profile.ranged_bonus + standing
    vs = 0
    if battle.target is not None and (not battle.battle_back or profile.vs_bonus_in_battle_back):
        vs = profile.melee_bonus_vs.get(battle.target, 0)
    return profile.melee_bonus + vs


def battle_dice(
    attacker: Attacker,
    battle: Battle,
    *,
    table: ArtilleryTable = SEED_ARTILLERY_TABLE,
    options: DiceOptions = DiceOptions(),
) -> DiceCount:
    """The dice `attacker` rolls in `battle` (CCN-67). Raises BattleNotAllowed (with its rule)
    or UnknownDiceData (with its gap)."""
    if attacker.blocks < 1:
        raise ValueError("a unit has at least 1 block")
    terrain = battle.terrain
    if terrain.into < 0 or terrain.out_of < 0:
        raise ValueError("terrain reductions are numbers of dice lost, never negative")
    base = _base(attacker, battle, table)  # 1
    bonus = _type_bonus(attacker, battle)  # 2
    card = battle.card.dice  # 3
    if battle.battle_back or (battle.card.void_in_buildings and terrain.building):
        card = 0
    dice = base + bonus + card
    cap = attacker.in_square or (
        attacker.profile.unit_class is UnitClass.CAV and battle.target_in_square
    )
    lost = (
        terrain.into + terrain.out_of
        if options.terrain_cumulative
        else max(terrain.into, terrain.out_of)
    )
    if options.cap_before_terrain:
        dice = (min(dice, 1) if cap else dice) - lost  # 4, 5
    else:
        dice = dice - lost
        dice = min(dice, 1) if cap else dice
    return DiceCount(base, bonus, card, cap, lost, max(dice, 0))  # 6


def combined_arms_combat(range_: int) -> Combat:
    """The combat type of an artillery unit's part in combined arms: its ranged dice at range 2
    or more, its melee dice when it is next to the target (range 1, seed L904)."""
    return Combat.MELEE if range_ == 1 else Combat.RANGED


def combined_arms_total(melee_unit: DiceCount, artillery: Sequence[DiceCount]) -> int:
    """All dice of a combined-arms melee, rolled together (CCN-139); the melee unit's part may
    be 0 and the artillery still rolls."""
    return melee_unit.total + sum(part.total for part in artillery)


def declarable(total: int) -> bool:
    """A battle the player declares needs at least 1 die in total (CCN-68)."""
    return total >= 1


def escape_dice(
    attacker: Attacker,
    card: CardBonus = CardBonus(),
    options: Mapping[str, OptionValue] | None = None,
) -> int:
    """An escaping leader meets an enemy unit (CCN-100): the unit's normal melee dice, blocks
    plus its type and national modifiers; no terrain; a square still rolls 1. The card dice of
    the unit's order count only with `escape_includes_card_bonus` (AMB-10, default no). Read as
    a unit that did not move."""
    key = "escape_includes_card_bonus"
    with_card = AMB_OPTIONS[key].default if options is None else options.get(key, False)
    still = Attacker(attacker.profile, attacker.blocks, 0, attacker.in_square)
    fight = Battle(Combat.MELEE, None, card=card if with_card else CardBonus())
    return battle_dice(still, fight).total


# --- scoring (3.10) -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Score:
    hits: int
    flags: int
    bounce: bool = False  # bounce flags: never ignored (CCN-128, CCN-95)

    def to_json(self) -> dict[str, JSON]:
        return {"hits": self.hits, "flags": self.flags, "bounce": self.bounce}


def score(
    faces: Sequence[Face],
    combat: Combat,
    target: UnitClass,
    *,
    sabre_hits: bool = True,
    retire: bool = False,
    square_vs_cavalry: bool = False,
) -> Score:
    """Hits and flags of a roll against a unit (CCN-71, CCN-72).

    `sabre_hits` False: a rifle or militia roll, or a combined-arms roll with such a melee unit
    (CCN-63, CCN-140). `retire`: against retiring cavalry only cavalry faces hit and nothing
    else counts (CCN-118). `square_vs_cavalry`: a square (and its combined-arms artillery)
    rolling against cavalry: every flag is a bounce flag (CCN-128)."""
    if retire:
        return Score(count(faces, Face.CAV), 0)
    hits = count(faces, CLASS_FACE[target])
    if combat is Combat.MELEE and sabre_hits:
        hits += count(faces, Face.SABRE)
    flags = count(faces, Face.FLAG)
    if square_vs_cavalry and target is not UnitClass.CAV:
        raise ValueError("bounce flags are rolled against cavalry")
    return Score(hits, flags, square_vs_cavalry and flags > 0)


def blocks_after(blocks: int, hits: int) -> int:
    """Each hit removes a block; hits beyond the blocks are lost (CCN-73)."""
    return max(blocks - hits, 0)


def lone_leader_eliminated(faces: Sequence[Face]) -> bool:
    """A lone leader meleed (CCN-81) or met while escaping (CCN-100): one sabre or more
    eliminate it, whoever rolls (rifles and militia too, L535); flags do nothing."""
    return count(faces, Face.SABRE) >= 1


def leader_check_dice(unit_eliminated: bool) -> int:
    """Dice of the leader casualty check: 2 while the unit survives (CCN-76), 1 when the losses
    left the leader alone (CCN-77)."""
    return 1 if unit_eliminated else 2


def leader_check_hit(faces: Sequence[Face], unit_eliminated: bool) -> bool:
    """The leader is hit when every die of the check shows a sabre: 2 sabres (1/36) or 1
    (1/6)."""
    if len(faces) != leader_check_dice(unit_eliminated):
        raise ValueError(f"the check rolls {leader_check_dice(unit_eliminated)} dice")
    return count(faces, Face.SABRE) == len(faces)


def accepted_flags(flags: int, allowance: int, *, bounce: bool = False) -> tuple[int, int]:
    """The range of flags the owner may accept (CCN-90): from flags - allowance (at least 0) up
    to all of them; bounce flags are all accepted (CCN-95)."""
    if flags < 0 or allowance < 0:
        raise ValueError("flags and allowance are counts")
    if bounce:
        return flags, flags
    return max(flags - allowance, 0), flags
