"""What the tactic cards do (digest 3.22, CCN-189..202; rulebook L1099-1280), as data the engine
calls: which pieces a card may order (by count, unit class and type), how ordered units may move
and battle, the dice a card adds, and the faces of Élan and Rally. The section cards' quotas are
`section_orders.py`.

The cards themselves (codes, copies, section quotas, effect ids) are data in
`data/cards/<ruleset>.yaml`, read by `cards_data.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.commands_colors_napoleonics.combat_dice import CardBonus
from games.commands_colors_napoleonics.dice import Face
from games.commands_colors_napoleonics.options import AMB_OPTIONS, OptionValue
from games.commands_colors_napoleonics.terrain import Combat, UnitClass

# Unit-type families of the rulebook (symbols on the blocks, L106-120; card texts L1196-1266).
GRENADIER_TYPES = frozenset({"grenadier", "guard_grenadier", "old_guard"})  # L106
LIGHT_INFANTRY_TYPES = frozenset(  # L110
    {"light_infantry", "rifle_light_infantry", "guard_light_infantry", "young_guard"}
)
HEAVY_CAVALRY_TYPES = frozenset({"heavy_cavalry", "cuirassier", "guard_heavy_cavalry"})  # L114
GUARD_TYPES = frozenset(  # glossary: every "Garde" type, "Alte/Junge Garde"
    {
        "guard_grenadier",
        "old_guard",
        "young_guard",
        "guard_light_infantry",
        "guard_light_cavalry",
        "guard_heavy_cavalry",
        "guard_foot_artillery",
    }
)


@dataclass(frozen=True, slots=True)
class Piece:
    """What a card needs to know of one of the player's pieces: a unit, or a leader
    (`unit_type` None)."""

    id: str
    unit_type: str | None = None
    unit_class: UnitClass | None = None
    has_leader: bool = False  # a unit with an attached leader
    in_square: bool = False
    adjacent_enemy: bool = False  # next to an enemy unit

    @property
    def is_leader(self) -> bool:
        return self.unit_type is None


def in_group(group: str, piece: Piece) -> bool:
    """Whether `piece` belongs to one of the groups the effects name."""
    if group == "leader":
        return piece.is_leader
    if piece.is_leader:
        return False
    cls, kind = piece.unit_class, piece.unit_type or ""
    members: dict[str, bool] = {
        "any_unit": True,
        "infantry": cls is UnitClass.INF,
        "cavalry": cls is UnitClass.CAV,
        "artillery": cls is UnitClass.ART,
        "infantry_or_artillery": cls in (UnitClass.INF, UnitClass.ART),
        "cavalry_or_horse_artillery": cls is UnitClass.CAV or kind == "horse_artillery",
        "heavy_cavalry": kind in HEAVY_CAVALRY_TYPES,
        # Force March: light, grenadier and guard infantry, or any with a leader (L1246)
        "force_march_fast": cls is UnitClass.INF
        and (
            kind in LIGHT_INFANTRY_TYPES
            or kind in GRENADIER_TYPES
            or kind in GUARD_TYPES
            or piece.has_leader
        ),
    }
    if group not in members:
        raise KeyError(f"unknown group {group!r}")
    return members[group]


class Selection(StrEnum):
    SECTIONS = "sections"  # section cards: a quota per section (CCN-185)
    UP_TO = "up_to"  # up to `count` eligible pieces anywhere ("4 oder weniger")
    ALL_IN_ONE_SECTION = "all_in_one_section"  # Force March (CCN-197)
    ALL = "all"  # every eligible piece (Cold Steel, Leadership)
    DICE = "dice"  # from a roll of command-value dice (Élan, Rally)
    COPY = "copy"  # Counter-attack (CCN-193)
    NONE = "none"  # orders nothing (First Strike is a reaction; Short Supply)


class After(StrEnum):
    """What a unit that used a move rule may do afterwards."""

    ANY = "any"
    MELEE = "melee"
    RANGED = "ranged"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class MoveRule:
    """An ordered unit of `group` may move up to `hexes` and then battle as `after` (a card's
    change to CCN-31)."""

    group: str
    hexes: int
    after: After


@dataclass(frozen=True, slots=True)
class Bonus:
    """Extra battle dice for ordered units of `group`; guard units get `guard_dice` (the small
    circle, L1192)."""

    dice: int
    guard_dice: int
    combats: frozenset[Combat]
    group: str
    needs_no_move: bool = False  # Bombard: only a unit that did not move (L1202)
    void_in_buildings: bool = False  # Cavalry Charge: none into or out of a town (CCN-164)
    in_bonus_melee: bool = True  # "for the whole turn"; Cold Steel: AMB-23


_BOTH = frozenset({Combat.RANGED, Combat.MELEE})


@dataclass(frozen=True, slots=True)
class CardEffect:
    id: str
    rule: str  # digest rule id
    seed: str  # rulebook lines
    selection: Selection
    count: int | None = None  # UP_TO: the most pieces
    group: str = "any_unit"  # the pieces that may be ordered
    leaders: bool = False  # leaders may be ordered too
    adjacent_enemy: bool | None = None  # True: only next to an enemy unit; False: only not
    not_in_square: bool = False
    fallback: bool = False  # "if you have none, order 1 unit of your choice" (CCN-189)
    one_unit_instead: bool = False  # La Grande Manoeuvre: "or order 1 unit of your choice"
    moves: tuple[MoveRule, ...] = ()
    forbids: frozenset[str] = frozenset()  # "ranged", "melee", "battle", "move"
    bonus: Bonus | None = None
    may_leave_square: bool = False
    reshuffle: bool = False  # Élan: deck and discard shuffled together (CCN-194, CCN-206)
    phase_one: bool = True  # First Strike is played on the opponent's turn (CCN-146, AMB-19)


EFFECTS: Mapping[str, CardEffect] = {
    e.id: e
    for e in (
        CardEffect(
            "bayonet_charge",
            "CCN-190",
            "L1196-1198",
            Selection.UP_TO,
            count=4,
            group="infantry",
            fallback=True,
            moves=(MoveRule("infantry", 2, After.MELEE),),
            forbids=frozenset({"ranged"}),
            bonus=Bonus(0, 1, frozenset({Combat.MELEE}), "infantry"),
        ),
        CardEffect(
            "bombard",
            "CCN-191",
            "L1202-1204",
            Selection.UP_TO,
            count=4,
            group="artillery",
            fallback=True,
            moves=(MoveRule("artillery", 3, After.NONE), MoveRule("artillery", 0, After.ANY)),
            bonus=Bonus(2, 3, _BOTH, "artillery", needs_no_move=True),  # melee: AMB-3
        ),
        CardEffect(
            "cavalry_charge",
            "CCN-192",
            "L1208-1210, L1005-1007, L1013",
            Selection.UP_TO,
            count=4,
            group="cavalry_or_horse_artillery",
            fallback=True,
            moves=(MoveRule("heavy_cavalry", 3, After.ANY),),
            bonus=Bonus(1, 2, _BOTH, "cavalry", void_in_buildings=True),
        ),
        CardEffect("counter_attack", "CCN-193", "L1214-1216", Selection.COPY),
        CardEffect(
            "elan",
            "CCN-194",
            "L1220-1222, L220, L753",
            Selection.DICE,
            leaders=True,  # a flag orders a unit or a leader
            bonus=Bonus(1, 1, _BOTH, "any_unit"),
            reshuffle=True,
        ),
        CardEffect(
            "fire_and_hold",
            "CCN-195",
            "L1226-1230",
            Selection.UP_TO,
            count=4,
            group="infantry_or_artillery",
            adjacent_enemy=False,  # AMB-32: at order time, and again at firing time
            fallback=True,
            moves=(MoveRule("any_unit", 0, After.RANGED),),
            forbids=frozenset({"move", "melee"}),
            bonus=Bonus(1, 1, frozenset({Combat.RANGED}), "infantry_or_artillery"),
            may_leave_square=True,
        ),
        CardEffect(
            "first_strike", "CCN-146", "L1234-1242, L469, L751", Selection.NONE, phase_one=False
        ),
        CardEffect(
            "force_march",
            "CCN-197",
            "L1246-1248",
            Selection.ALL_IN_ONE_SECTION,
            group="infantry",
            fallback=True,
            # others: stay, move 1 and battle, or move 2 and not battle (AMB-22 default)
            moves=(
                MoveRule("force_march_fast", 2, After.ANY),
                MoveRule("infantry", 1, After.ANY),
                MoveRule("infantry", 2, After.NONE),
            ),
        ),
        CardEffect(
            "cold_steel",
            "CCN-198",
            "L1252-1256",
            Selection.ALL,
            adjacent_enemy=True,  # fixed at order time (L1256, AMB-32)
            moves=(MoveRule("any_unit", 0, After.MELEE),),
            forbids=frozenset({"ranged"}),
            bonus=Bonus(1, 1, frozenset({Combat.MELEE}), "any_unit", in_bonus_melee=False),
        ),
        CardEffect(
            "leadership",
            "CCN-199",
            "L1260-1262",
            Selection.ALL,
            group="leader",  # and the unit a leader is attached to, while it stays (L1260)
            leaders=True,
            fallback=True,
            bonus=Bonus(1, 1, _BOTH, "any_unit"),
        ),
        CardEffect(
            "la_grande_manoeuvre",
            "CCN-200",
            "L1266",
            Selection.UP_TO,
            count=4,
            leaders=True,
            not_in_square=True,
            one_unit_instead=True,
            moves=(MoveRule("any_unit", 4, After.NONE), MoveRule("leader", 4, After.NONE)),
            forbids=frozenset({"battle"}),
        ),
        CardEffect("rally", "CCN-201", "L1270-1272", Selection.DICE),
        CardEffect("short_supply", "CCN-202", "L1276-1280", Selection.NONE),
    )
}


def _option(options: Mapping[str, OptionValue] | None, key: str) -> OptionValue:
    default = AMB_OPTIONS[key].default
    return default if options is None else options.get(key, default)


def may_order(effect_id: str, piece: Piece) -> bool:
    """Whether the tactic card may order `piece` (its own restrictions; counts and the
    fallback are `fallback_applies` and the engine's)."""
    effect = EFFECTS[effect_id]
    if effect.selection in (Selection.NONE, Selection.COPY, Selection.SECTIONS):
        return False
    if piece.is_leader:
        return effect.leaders
    if effect.not_in_square and piece.in_square:  # CCN-136
        return False
    if effect.adjacent_enemy is not None and piece.adjacent_enemy != effect.adjacent_enemy:
        return False
    if effect.group == "leader":  # Leadership: the unit a leader is attached to (L1260)
        return piece.has_leader
    return in_group(effect.group, piece)


def fallback_applies(effect_id: str, pieces: Sequence[Piece]) -> bool:
    """Whether the card's "if you have no X units, order 1 unit of your choice" applies
    (CCN-189): the player has no piece of the card's group anywhere, whatever the card's other
    conditions (adjacency, squares)."""
    effect = EFFECTS[effect_id]
    return effect.fallback and not any(in_group(effect.group, p) for p in pieces)


def move_rules(
    effect_id: str, piece: Piece, options: Mapping[str, OptionValue] | None = None
) -> tuple[MoveRule, ...]:
    """The card's move rules that apply to `piece` (none: CCN-31 as usual)."""
    rules = list(EFFECTS[effect_id].moves)
    if effect_id == "force_march" and _option(options, "force_march_other_move2_battle"):
        rules = [MoveRule(r.group, r.hexes, After.ANY) for r in rules]  # AMB-22 literal L1246
    return tuple(r for r in rules if in_group(r.group, piece))


def card_bonus(
    effect_id: str,
    *,
    unit_type: str,
    unit_class: UnitClass,
    combat: Combat,
    moved: int = 0,
    bonus_melee: bool = False,
    fallback: bool = False,
    options: Mapping[str, OptionValue] | None = None,
) -> CardBonus:
    """The dice the card adds for a unit it ordered (CCN-69). `effect_id` is the card as
    carried out (Counter-attack resolved to the copied card). Never for a battle back (AMB-16):
    the defender is not ordered."""
    effect = EFFECTS[effect_id]
    bonus = effect.bonus
    none = CardBonus(card=effect_id)
    piece = Piece("unit", unit_type, unit_class)
    if bonus is None or combat not in bonus.combats or not in_group(bonus.group, piece):
        return none
    if fallback and not _option(options, "fallback_gets_card_effects"):  # AMB-18
        return none
    melee_ok = _option(options, "bombard_bonus_melee")  # AMB-3
    if effect_id == "bombard" and combat is Combat.MELEE and not melee_ok:
        return none
    if bonus.needs_no_move and moved > 0:
        return none
    in_bonus = bonus.in_bonus_melee or (
        effect_id == "cold_steel" and bool(_option(options, "cold_steel_bonus_plus1"))  # AMB-23
    )
    if bonus_melee and not in_bonus:
        return none
    dice = bonus.guard_dice if unit_type in GUARD_TYPES else bonus.dice
    return CardBonus(dice, bonus.void_in_buildings, effect_id)


def elan_orders(faces: Sequence[Face]) -> dict[str, int]:
    """Élan (CCN-194): each INF, CAV or ART face orders a unit of that class; each flag a unit
    or leader of any kind ("ANY"); sabres order nothing."""
    out = {"INF": 0, "CAV": 0, "ART": 0, "ANY": 0}
    for face in faces:
        if face is Face.FLAG:
            out["ANY"] += 1
        elif face is not Face.SABRE:
            out[face.value] += 1
    return out


def rally_blocks(faces: Sequence[Face]) -> dict[UnitClass, int]:
    """Rally (CCN-201): each INF, CAV or ART face gives back 1 block of that class; flags and
    sabres give nothing."""
    out = dict.fromkeys(UnitClass, 0)
    for face in faces:
        if face.value in UnitClass.__members__:
            out[UnitClass(face.value)] += 1
    return out
