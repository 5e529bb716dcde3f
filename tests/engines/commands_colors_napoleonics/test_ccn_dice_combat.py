"""Battle dice and hits (digest 3.9, 3.10, 3.11; games.commands_colors_napoleonics.combat_dice):
the worked examples of digest section 5 with their exact numbers, the option switches of AMB-4
and AMB-27, and the refusal of unknown data naming its gap."""

from __future__ import annotations

import pytest

from games.commands_colors_napoleonics.card_effects import card_bonus
from games.commands_colors_napoleonics.combat_dice import (
    SEED_ARTILLERY_TABLE,
    ArtilleryTable,
    Attacker,
    Battle,
    BattleNotAllowed,
    CardBonus,
    DiceOptions,
    DiceProfile,
    Rounding,
    Score,
    TerrainDice,
    UnknownDiceData,
    accepted_flags,
    artillery_melee_base,
    battle_dice,
    blocks_after,
    combined_arms_combat,
    combined_arms_total,
    declarable,
    escape_dice,
    leader_check_dice,
    leader_check_hit,
    lone_leader_eliminated,
    score,
)
from games.commands_colors_napoleonics.dice import Face
from games.commands_colors_napoleonics.errors import UnknownValueError
from games.commands_colors_napoleonics.terrain import FIELD_WORKS, TERRAIN_TYPES, Combat, UnitClass

INF, CAV, ART = UnitClass.INF, UnitClass.CAV, UnitClass.ART
RANGED, MELEE = Combat.RANGED, Combat.MELEE
F = Face

# Profiles as the digest states them (2.5 type rules; 2.6 national values where a case says so).
LINE = DiceProfile("line_infantry", INF, max_range=2)
FR_LINE_PUB1 = DiceProfile(
    "line_infantry", INF, max_range=2, melee_bonus_vs={INF: 1}, vs_bonus_in_battle_back=True
)
FR_LIGHT = DiceProfile("light_infantry", INF, max_range=2, ranged_bonus=1)
PT_LINE = DiceProfile("line_infantry", INF, max_range=2, moving_rounding=Rounding.DOWN)
BR_LINE_PUB2 = DiceProfile("line_infantry", INF, max_range=2, ranged_standing_bonus=1)
MILITIA = DiceProfile("militia_infantry", INF, max_range=2, sabre_hits=False)
RIFLE = DiceProfile("rifle_light_infantry", INF, max_range=3, sabre_hits=False)
LIGHT_CAV = DiceProfile("light_cavalry", CAV)
HEAVY_CAV = DiceProfile("heavy_cavalry", CAV, melee_bonus=1)
FOOT_ART = DiceProfile("foot_artillery", ART, max_range=5)
GUARD_FOOT_ART = DiceProfile("guard_foot_artillery", ART, max_range=5, melee_bonus=1)
HORSE_ART = DiceProfile("horse_artillery", ART, max_range=4)

CLEAR = TerrainDice()
NO_CARD = CardBonus()


def dice(
    profile: DiceProfile,
    blocks: int,
    combat: Combat,
    target: UnitClass | None,
    *,
    moved: int = 0,
    range_: int | None = None,
    in_square: bool = False,
    target_in_square: bool = False,
    battle_back: bool = False,
    terrain: TerrainDice = CLEAR,
    card: CardBonus = NO_CARD,
) -> int:
    """The total dice of one battle (range 2 for fire and 1 for melee unless given)."""
    fight = Battle(
        combat,
        target,
        range_ or (2 if combat is RANGED else 1),
        target_in_square=target_in_square,
        battle_back=battle_back,
        terrain=terrain,
        card=card,
    )
    return battle_dice(Attacker(profile, blocks, moved, in_square), fight).total


# --- dice counts ----------------------------------------------------------------------------


def test_tc01_tc02_light_infantry_fire_standing_and_after_moving() -> None:
    """TC-01 (seed L394-396): 4 blocks standing: 5 dice. TC-02: 3 blocks moved 1: ceil(3/2)
    + 1 = 3 dice. CCN-56: the +1 of light
    infantry."""
    assert dice(FR_LIGHT, 4, RANGED, INF) == 5
    assert dice(FR_LIGHT, 3, RANGED, INF, moved=1) == 3


def test_tc03_national_rounding_and_british_standing_volley() -> None:
    """TC-03 (CCN-55): 3 blocks moved 1: Portuguese 1, French 2, British 2; with PUB-2 the
    British line standing with 3 blocks rolls 4, and the +1 is for standing only."""
    assert dice(PT_LINE, 3, RANGED, INF, moved=1) == 1
    assert dice(LINE, 3, RANGED, INF, moved=1) == 2  # French, British: up
    assert dice(BR_LINE_PUB2, 3, RANGED, INF, moved=1) == 2
    assert dice(BR_LINE_PUB2, 3, RANGED, INF) == 4


def test_tc04_melee_after_moving_uses_all_blocks() -> None:
    """TC-04 (seed L488): British line, 4 blocks, moved 1, melee: 4 dice."""
    assert dice(LINE, 4, MELEE, INF, moved=1) == 4


def test_tc13_retire_and_reform_roll() -> None:
    """TC-13: the British line rolls 4 dice at retiring cavalry; [CAV, SABRE, FLAG, INF] is 1 hit
    (only cavalry faces count), so the cavalry keeps 3 of 4 blocks."""
    assert dice(LINE, 4, MELEE, CAV) == 4
    got = score((F.CAV, F.SABRE, F.FLAG, F.INF), MELEE, CAV, retire=True)
    assert got == Score(1, 0)
    assert blocks_after(4, got.hits) == 3


def test_tc14_square_fires_first_then_cavalry_one_die_even_with_cavalry_charge() -> None:
    """TC-14 (seed L862-867): the square fires first with 1 die; a flag is a bounce flag the
    cavalry must take (a leader does not help); an INF face does nothing to cavalry. The
    cavalry then rolls 1 die even with Cavalry Charge; its flag on the square may be ignored
    through a leader (allowance 1)."""
    square = Attacker(LINE, 4, in_square=True)
    assert battle_dice(square, Battle(MELEE, CAV)).total == 1
    bounce = score((F.FLAG,), MELEE, CAV, square_vs_cavalry=True)
    assert bounce == Score(0, 1, bounce=True)
    assert accepted_flags(bounce.flags, allowance=1, bounce=bounce.bounce) == (1, 1)
    assert score((F.INF,), MELEE, CAV, square_vs_cavalry=True) == Score(0, 0, bounce=False)
    charge = card_bonus("cavalry_charge", unit_type="light_cavalry", unit_class=CAV, combat=MELEE)
    assert charge.dice == 1
    assert dice(LIGHT_CAV, 4, MELEE, INF, target_in_square=True, card=charge) == 1
    on_square = score((F.FLAG,), MELEE, INF)
    assert on_square == Score(0, 1)
    assert accepted_flags(on_square.flags, allowance=1) == (0, 1)


def test_tc15_square_attacks_cavalry_and_cavalry_battles_back_with_one_die() -> None:
    """TC-15 (seed L869-875): the square rolls 1 die; [FLAG] bounces; [ART] does nothing; the
    cavalry battles back with 1 die."""
    assert dice(LINE, 4, MELEE, CAV, in_square=True) == 1
    assert score((F.FLAG,), MELEE, CAV, square_vs_cavalry=True).bounce
    assert score((F.ART,), MELEE, CAV, square_vs_cavalry=True) == Score(0, 0)
    assert dice(HEAVY_CAV, 4, MELEE, INF, target_in_square=True, battle_back=True) == 1


def test_tc16_infantry_melees_a_square_normally() -> None:
    """TC-16 (seed L879-886): French line, 4 blocks: 4 dice, 5 with the PUB-1 profile (+1 against
    infantry); the square battles back with 1; cavalry then: the square 1 first, the cavalry 1."""
    assert dice(LINE, 4, MELEE, INF, target_in_square=True) == 4
    assert dice(FR_LINE_PUB1, 4, MELEE, INF, target_in_square=True) == 5
    assert dice(LINE, 4, MELEE, INF, in_square=True, battle_back=True) == 1
    assert dice(LINE, 4, MELEE, CAV, in_square=True) == 1
    assert dice(HEAVY_CAV, 4, MELEE, INF, target_in_square=True) == 1


def test_tc17_combined_arms_against_a_square() -> None:
    """TC-17 (seed L912): cavalry (capped at 1) plus horse artillery, 3 blocks at range 3 (1 die,
    the only table value the seed gives): 2 dice together."""
    cavalry = battle_dice(Attacker(HEAVY_CAV, 4), Battle(MELEE, INF, target_in_square=True))
    assert combined_arms_combat(3) is RANGED
    artillery = battle_dice(Attacker(HORSE_ART, 3), Battle(RANGED, INF, 3, target_in_square=True))
    assert (cavalry.total, artillery.total) == (1, 1)
    assert combined_arms_total(cavalry, [artillery]) == 2


def test_combined_arms_counts_when_the_melee_unit_has_none() -> None:
    """CCN-68, CCN-139: the melee unit's part may be 0; the total decides whether it may be
    declared. Adjacent artillery adds its melee dice (seed L904)."""
    zero = battle_dice(Attacker(LIGHT_CAV, 1), Battle(MELEE, INF, terrain=TerrainDice(into=3)))
    assert zero.total == 0
    assert not declarable(zero.total)
    assert combined_arms_combat(1) is MELEE
    adjacent = battle_dice(Attacker(FOOT_ART, 3), Battle(MELEE, INF))
    assert combined_arms_total(zero, [adjacent]) == 4
    assert declarable(combined_arms_total(zero, [adjacent]))


def test_tc25_town_and_the_cavalry_charge_pitfall() -> None:
    """TC-25 (CCN-164, CCN-192; PUB-16 #12759): line fire into a town 4 - 2 = 2; heavy cavalry
    with Cavalry Charge into a town 4 + 1 + 0 - 3 = 2; on clear ground 4 + 1 + 1 = 6."""
    town_data = TERRAIN_TYPES["town"].into
    fire = TerrainDice(into=town_data.of(INF, RANGED), building=True)
    assert dice(LINE, 4, RANGED, INF, terrain=fire) == 2
    charge = card_bonus("cavalry_charge", unit_type="heavy_cavalry", unit_class=CAV, combat=MELEE)
    town = TerrainDice(into=town_data.of(CAV, MELEE), building=True)
    count = battle_dice(Attacker(HEAVY_CAV, 4), Battle(MELEE, INF, terrain=town, card=charge))
    assert count.to_json() == {
        "base": 4,
        "type": 1,
        "card": 0,
        "capped": False,
        "terrain": 3,
        "total": 2,
    }
    assert dice(HEAVY_CAV, 4, MELEE, INF, card=charge) == 6
    out_of_town = TerrainDice(out_of=3, building=True)
    assert dice(HEAVY_CAV, 4, MELEE, INF, card=charge, terrain=out_of_town) == 2


def test_tc26_field_works_on_a_hill() -> None:
    """TC-26: French line (PUB-1; its +1 is against infantry only) melees the foot artillery
    B-FA1 on a hill with field works: across the protected side 4 - 1 (field works, replacing
    the hill, CCN-168) = 3; from the unprotected side 4 - 1 (hill) = 3; B-FA1 battles back with
    4 (no reduction out of field works or down the hill for artillery). The reductions are the
    terrain data's (terrain.py)."""
    across = FIELD_WORKS.into_across.of(INF, MELEE)
    uphill = TERRAIN_TYPES["hill"].into.of(INF, MELEE)
    assert (across, uphill) == (1, 1)
    assert dice(FR_LINE_PUB1, 4, MELEE, ART, terrain=TerrainDice(into=across)) == 3
    assert dice(FR_LINE_PUB1, 4, MELEE, ART, terrain=TerrainDice(into=uphill)) == 3
    back_out = FIELD_WORKS.out_across.of(ART, MELEE) + TERRAIN_TYPES["hill"].out_of.of(ART, MELEE)
    assert (
        dice(FOOT_ART, 3, MELEE, INF, battle_back=True, terrain=TerrainDice(out_of=back_out)) == 4
    )


def test_tc27_artillery_melee() -> None:
    """TC-27 (CCN-65, CCN-66): foot 3 blocks 4, 1 block 3; guard foot 1 block 4; horse 2 blocks
    moved 1: 3; moved 2: illegal; 1 block moved 0: 2; moved 1: illegal."""
    assert dice(FOOT_ART, 3, MELEE, INF) == 4
    assert dice(FOOT_ART, 1, MELEE, INF) == 3
    assert dice(GUARD_FOOT_ART, 1, MELEE, INF) == 4
    assert dice(HORSE_ART, 2, MELEE, INF, moved=1) == 3
    assert dice(HORSE_ART, 1, MELEE, INF) == 2
    for blocks, moved in ((2, 2), (1, 1)):
        with pytest.raises(BattleNotAllowed) as info:
            dice(HORSE_ART, blocks, MELEE, INF, moved=moved)
        assert info.value.rule == "CCN-66"
    with pytest.raises(BattleNotAllowed, match="CCN-65"):
        dice(FOOT_ART, 3, MELEE, INF, moved=1)


def test_tc28_horse_artillery_range_after_moving() -> None:
    """TC-28 (CCN-51, CCN-57): 3 blocks moved 1: range 4 illegal, range 3 legal (1 die); moved
    0: range 4 legal (its dice are GAP-1, unknown, not illegal); foot artillery that moved may
    not fire."""
    with pytest.raises(BattleNotAllowed, match="CCN-57"):
        dice(HORSE_ART, 3, RANGED, INF, moved=1, range_=4)
    assert dice(HORSE_ART, 3, RANGED, INF, moved=1, range_=3) == 1
    with pytest.raises(UnknownDiceData) as info:
        dice(HORSE_ART, 3, RANGED, INF, range_=4)
    assert info.value.gap == "GAP-1"
    with pytest.raises(BattleNotAllowed, match="CCN-57"):
        dice(FOOT_ART, 3, RANGED, INF, moved=1, range_=2)


def test_tc30_first_strike_roll_and_the_attack_after_it() -> None:
    """TC-30: D's line, 4 blocks, strikes first with 4 dice [INF, FLAG, ART, ART] against A's
    line infantry: 1 hit, 1 flag; A's unit (3 blocks, now 2) then attacks with 2 dice."""
    assert dice(LINE, 4, MELEE, INF) == 4
    got = score((F.INF, F.FLAG, F.ART, F.ART), MELEE, INF)
    assert got == Score(1, 1)
    assert dice(LINE, blocks_after(3, got.hits), MELEE, INF) == 2


# --- the master rule's steps and options ------------------------------------------------------


def test_card_dice_never_in_a_battle_back_but_national_bonus_is() -> None:
    """AMB-16, CCN-114: a battle back uses the unit's own type and national modifiers (French
    line +1 against infantry), never card dice."""
    leadership = CardBonus(1, card="leadership")
    assert dice(FR_LINE_PUB1, 4, MELEE, INF, card=leadership) == 6
    assert dice(FR_LINE_PUB1, 4, MELEE, INF, card=leadership, battle_back=True) == 5
    no_back = DiceProfile("line_infantry", INF, max_range=2, melee_bonus_vs={INF: 1})
    assert dice(no_back, 4, MELEE, INF, battle_back=True) == 4
    assert dice(FR_LINE_PUB1, 4, MELEE, CAV) == 4


def test_amb27_cap_then_terrain_and_the_alternative() -> None:
    """CCN-126, AMB-27: a square of 4 in terrain costing 1: cap to 1 then -1 = 0 (default);
    with the alternative, 4 - 1 = 3 then cap = 1."""
    square = Attacker(LINE, 4, in_square=True)
    fight = Battle(MELEE, INF, terrain=TerrainDice(into=1))
    assert battle_dice(square, fight).total == 0
    other = DiceOptions.of({"square_cap_before_terrain": False})
    assert battle_dice(square, fight, options=other).total == 1


def test_amb4_terrain_in_and_out_add_up_or_take_the_larger() -> None:
    """CCN-70, AMB-4: cavalry in a forest attacking into a forest: -2 -2 = -4 (default), or -2."""
    forest = TerrainDice(into=2, out_of=2)
    assert dice(HEAVY_CAV, 4, MELEE, INF, terrain=forest) == 1
    larger = DiceOptions.of({"terrain_in_out_cumulative": False})
    got = battle_dice(Attacker(HEAVY_CAV, 4), Battle(MELEE, INF, terrain=forest), options=larger)
    assert got.total == 3
    assert DiceOptions.of(None) == DiceOptions()


def test_never_below_zero_dice() -> None:
    """CCN-67 step 6."""
    assert dice(LINE, 1, MELEE, INF, terrain=TerrainDice(into=2, out_of=1)) == 0


def test_what_never_fires_and_what_is_never_fired_at() -> None:
    """CCN-49 cavalry never fires; CCN-54 no fire at a lone leader; CCN-46 an adjacent target is
    meleed; CCN-59 a melee is at range 1."""
    cases = (
        (LIGHT_CAV, RANGED, INF, 2, "CCN-49"),
        (LINE, RANGED, None, 2, "CCN-54"),
        (LINE, RANGED, INF, 1, "CCN-46"),
        (LINE, MELEE, INF, 2, "CCN-59"),
    )
    for profile, combat, target, range_, rule in cases:
        with pytest.raises(BattleNotAllowed) as info:
            dice(profile, 4, combat, target, range_=range_)
        assert info.value.rule == rule


# --- unknown data, GAP-1 ----------------------------------------------------------------------


def test_tc41_tc43_artillery_fire_refused_naming_gap_1_and_ranges() -> None:
    """TC-41: foot artillery, 3 blocks, range 5: refused with a data error naming GAP-1 and the
    entry. TC-43: range 5 is in range (refused for GAP-1, not as illegal); range 6 is out of
    range; rifles at range 4 are beyond their 3."""
    with pytest.raises(UnknownDiceData) as info:
        dice(FOOT_ART, 3, RANGED, INF, range_=5)
    assert isinstance(info.value, UnknownValueError)
    assert info.value.gap == "GAP-1"
    assert info.value.what == "artillery_range_table.foot_artillery[3][5]"
    assert "GAP-1" in str(info.value)
    with pytest.raises(BattleNotAllowed, match="CCN-51"):
        dice(FOOT_ART, 3, RANGED, ART, range_=6)
    with pytest.raises(BattleNotAllowed, match="CCN-51"):
        dice(RIFLE, 4, RANGED, INF, range_=4)
    assert dice(RIFLE, 4, RANGED, INF, range_=3) == 4  # AMB-2: +0


def test_artillery_table_lookup_and_a_supplied_table() -> None:
    """CCN-58: the seed's one value; an owner-supplied table is used once it exists."""
    assert SEED_ARTILLERY_TABLE.lookup("horse_artillery", 3, 3) == 1
    with pytest.raises(UnknownDiceData, match=r"guard_foot_artillery\[2\]\[2\]"):
        SEED_ARTILLERY_TABLE.lookup("guard_foot_artillery", 2, 2)
    supplied = ArtilleryTable({("foot_artillery", 3, 5): 2})
    got = battle_dice(Attacker(FOOT_ART, 3), Battle(RANGED, INF, 5), table=supplied)
    assert got.total == 2


def test_artillery_data_agrees_with_the_nations_file() -> None:
    """The melee rule here and the nations file's `artillery_melee` (both seed L496-508) give the
    same dice; the ranged table read from the nations file knows only what the seed gives."""
    from games.commands_colors_napoleonics.nations import nations_named

    nations = nations_named("ccn-base-3e")
    bonus = {"foot_artillery": 0, "guard_foot_artillery": 1, "horse_artillery": 0}
    for unit_type, rows in nations.artillery_melee.items():
        for blocks, row in rows.items():
            for moved in row:
                expected = nations.artillery_melee_dice(unit_type, blocks, moved)
                try:
                    got: int | None = artillery_melee_base(unit_type, blocks, moved)
                    got = (got or 0) + bonus[unit_type]
                except BattleNotAllowed:
                    got = None
                assert got == expected, (unit_type, blocks, moved)
    table = ArtilleryTable.from_nations(nations.artillery_range_table)
    assert table.lookup("horse_artillery", 3, 3) == 1
    known = {key for key, value in table.dice.items() if value is not None}
    assert known == {("horse_artillery", 3, 3)}


# --- hits, leaders, flags ---------------------------------------------------------------------


def test_tc05_tc06_ranged_and_melee_scoring() -> None:
    """TC-05 (CCN-71): ranged [INF, INF, SABRE, FLAG, CAV] at infantry: 2 hits, 1 flag. TC-06
    (CCN-72, CCN-63): in melee 3 hits (2 INF + SABRE); from militia or rifles 2 hits."""
    faces = (F.INF, F.INF, F.SABRE, F.FLAG, F.CAV)
    assert score(faces, RANGED, INF) == Score(2, 1)
    assert score(faces, MELEE, INF) == Score(3, 1)
    for profile in (MILITIA, RIFLE):
        assert score(faces, MELEE, INF, sabre_hits=profile.sabre_hits) == Score(2, 1)
    assert score(faces, RANGED, CAV) == Score(1, 1)
    assert score(faces, MELEE, ART, sabre_hits=False) == Score(0, 1)
    assert score(faces, MELEE, INF).to_json() == {"hits": 3, "flags": 1, "bounce": False}


def test_tc07_lone_leader_meleed_by_militia() -> None:
    """TC-07 (CCN-81): militia, 3 blocks: 3 dice; [SABRE, INF, INF] eliminates the leader (a
    militia sabre counts here); [FLAG, FLAG, INF] does nothing."""
    assert dice(MILITIA, 3, MELEE, None) == 3
    assert lone_leader_eliminated((F.SABRE, F.INF, F.INF))
    assert not lone_leader_eliminated((F.FLAG, F.FLAG, F.INF))


def test_tc10_tc11_tc12_escape_attempts() -> None:
    """CCN-100: the enemy unit's normal melee dice. TC-10: line, 2 blocks: 2 dice, [INF, ART]
    survives. TC-11: heavy cavalry, 3 blocks: 4 dice, [FLAG, FLAG, INF, INF] survives. TC-12:
    2 dice [FLAG, CAV] survives, then light cavalry 3 blocks: 3 dice [SABRE, SABRE, FLAG]
    eliminates."""
    assert escape_dice(Attacker(LINE, 2)) == 2
    assert not lone_leader_eliminated((F.INF, F.ART))
    assert escape_dice(Attacker(HEAVY_CAV, 3, moved=2)) == 4
    assert not lone_leader_eliminated((F.FLAG, F.FLAG, F.INF, F.INF))
    assert not lone_leader_eliminated((F.FLAG, F.CAV))
    assert escape_dice(Attacker(LIGHT_CAV, 3)) == 3
    assert lone_leader_eliminated((F.SABRE, F.SABRE, F.FLAG))
    assert escape_dice(Attacker(LINE, 4, in_square=True)) == 1
    charge = CardBonus(1, card="cavalry_charge")
    assert escape_dice(Attacker(LIGHT_CAV, 3), charge) == 3  # AMB-10 default
    on = {"escape_includes_card_bonus": True}
    assert escape_dice(Attacker(LIGHT_CAV, 3), charge, on) == 4


def test_tc19_tc20_tc22_tc29_leader_casualty_checks() -> None:
    """CCN-76/77: 2 dice while the unit lives, hit only on 2 sabres (TC-19 [SABRE, INF] lives,
    TC-22, TC-29 [SABRE, SABRE] dies); 1 die when the unit is gone (TC-20 [FLAG] lives,
    [SABRE] dies). CCN-77."""
    assert leader_check_dice(unit_eliminated=False) == 2
    assert not leader_check_hit((F.SABRE, F.INF), unit_eliminated=False)
    assert leader_check_hit((F.SABRE, F.SABRE), unit_eliminated=False)
    assert leader_check_dice(unit_eliminated=True) == 1
    assert not leader_check_hit((F.FLAG,), unit_eliminated=True)
    assert leader_check_hit((F.SABRE,), unit_eliminated=True)
    with pytest.raises(ValueError, match="rolls 2 dice"):
        leader_check_hit((F.SABRE,), unit_eliminated=False)


def test_tc19_tc29_flags_the_owner_may_accept() -> None:
    """CCN-90: TC-29, 2 flags with support only (allowance 1): accept 1 or 2. TC-19: 1 flag with
    a surviving leader: 0 or 1. No allowance: all."""
    assert accepted_flags(2, 1) == (1, 2)
    assert accepted_flags(1, 1) == (0, 1)
    assert accepted_flags(2, 0) == (2, 2)
    assert accepted_flags(1, 3) == (0, 1)


def test_hits_beyond_the_blocks_are_lost() -> None:
    """CCN-73."""
    assert blocks_after(2, 5) == 0
    assert blocks_after(4, 1) == 3


def test_profiles_built_from_the_shared_catalogue() -> None:
    """The integration path: a profile built from units.py and the nations file reproduces
    TC-01 and TC-03 (French light infantry +1; Portuguese rounding down)."""
    from games.commands_colors_napoleonics.nations import nations_named
    from games.commands_colors_napoleonics.units import UNIT_TYPES

    nations = nations_named("ccn-base-3e")

    def built(nation: str, unit_type: str) -> DiceProfile:
        kind = UNIT_TYPES[unit_type]
        rounding = nations.nations[nation].ranged_moving_rounding.known()
        return DiceProfile(
            unit_type,
            kind.unit_class,
            max_range=kind.ranged_range,
            ranged_bonus=kind.ranged_type_bonus or 0,
            melee_bonus=kind.melee_type_bonus,
            moving_rounding=Rounding(str(rounding)),
            sabre_hits=kind.sabre_hits,
        )

    assert dice(built("french", "light_infantry"), 4, RANGED, INF) == 5
    assert dice(built("portuguese", "line_infantry"), 3, RANGED, INF, moved=1) == 1
    assert dice(built("british", "heavy_cavalry"), 3, MELEE, INF) == 4
