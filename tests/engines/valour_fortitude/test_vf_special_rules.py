"""The special-rule registry (`special_rules.py`) and the unit and leader special rules built
from it (digest 3.15, 3.16): Schnell (VF-160), horse and heavy artillery (VF-149, VF-150),
Miliz/Landwehr/Stoisch (VF-158, VF-159, AMB-18), Unvorhersehbar (VF-161, VF-T39), rockets
(VF-162), Ney (VF-208, VF-T40), the marshals' reach (VF-206), Gneisenau and Erzherzog Karl's
activation reroll (VF-213, VF-216), Radetzky (VF-214), Blücher (VF-215), Bagration (VF-217) and
Napoleon's artillery (VF-207)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from games.core.protocol import JSON
from games.core.rng import Rng
from games.valour_fortitude import command, melee, morale, shooting
from games.valour_fortitude import match as m
from games.valour_fortitude.armies import DATA_DIR, army_lists
from games.valour_fortitude.army_data import NamedGeneral
from games.valour_fortitude.context import Ctx, NeedFacts
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.special_rules import (
    BUILT_SPECIAL_RULES,
    NOT_BUILT,
    RULE_IDS,
    not_built,
    not_built_for_general,
    not_built_for_profile,
)
from games.valour_fortitude.state import Formation, GameState, Stats, TurnFlags, Upgrades
from games.valour_fortitude.values import allowance, hit_tests
from tests.engines.valour_fortitude.vf_play import (
    FIGHT_FACTS,
    ScriptedDice,
    ctx,
    game,
    play_to_end,
    set_unit,
    starter,
)

# --- the registry ---


def _catalogue() -> dict[str, dict[str, object]]:
    doc = yaml.safe_load((DATA_DIR / "special_rules.yaml").read_text(encoding="utf-8"))
    return {**doc["unit_rules"], **doc["leader_rules"]}


def test_rule_ids_match_the_catalogue() -> None:
    catalogue = _catalogue()
    assert set(RULE_IDS) == set(catalogue)
    for key, item in catalogue.items():
        assert RULE_IDS[key] == item["rule"], key


def test_every_rule_is_built_or_not_built_exactly_once() -> None:
    assert set(BUILT_SPECIAL_RULES) | set(NOT_BUILT) == set(RULE_IDS)
    assert not set(BUILT_SPECIAL_RULES) & set(NOT_BUILT)


def test_the_starter_armies_are_all_built() -> None:
    """The starter example fields French and British profiles, Napoleon and Wellington: every
    unit profile of those lists is built (Batterie's 5 supporters are refused with VF-151,
    Unnachgiebig's charge is logged with VF-163 where they arise)."""
    lists = army_lists()
    for list_id in ("france_1812_1815", "britain_1807_1815"):
        for profile in lists[list_id].profiles:
            assert not_built_for_profile(profile, list_id) == [], profile.id
    assert not_built_for_general("napoleon") == []
    assert not_built_for_general("wellington") == []


def test_acw_light_cavalry_implies_absitzen() -> None:
    """VF-148 (seed L2281-2285): in the ACW lists light cavalry also has Absitzen."""
    assert not_built(["leichte_kavallerie"]) == []
    assert not_built(["leichte_kavallerie"], "acw_union") == [("VF-165", "Absitzen")]


def test_not_built_names_the_rule_id() -> None:
    lists = army_lists()
    veteran = next(p for a in lists.values() for p in a.profiles if "veteran" in p.special_rules)
    assert ("VF-173", "Veteran / Veteranen") in not_built_for_profile(veteran)
    assert not_built_for_general("murat") == [("VF-209", "Murat")]
    assert not_built_for_general(NamedGeneral("ney", 10, "seed L961")) == []
    cinc = game().leader("L-A0")
    assert not_built_for_general(replace(cinc, special_rules=("vorsichtig",))) == []
    assert not_built_for_general(replace(cinc, special_rules=("vorsichtig", "blake"))) == [
        ("VF-219", "Captain-General Blake")
    ]
    assert not_built(["no_such_rule"]) == [("VF-140", "no_such_rule")]
    assert not_built(["veteran", "veteran"]) == [("VF-173", "Veteran / Veteranen")]


@given(st.lists(st.sampled_from(sorted(RULE_IDS)), max_size=6))
def test_not_built_is_exactly_the_unbuilt_keys(keys: list[str]) -> None:
    found = not_built(keys)
    assert {rule for rule, _ in found} == {RULE_IDS[k] for k in keys if k in NOT_BUILT}
    assert len(found) == len(set(found))


def test_a_unit_is_checked_by_its_bought_rules() -> None:
    unit = game().unit("U-A2")
    assert not_built_for_profile(unit) == []
    granted = replace(unit.stats, special_rules=(*unit.stats.special_rules, "unerfahren"))
    assert not_built_for_profile(granted) == [("VF-172", "Unerfahren")]


# --- movement allowances ---


def test_schnell_and_artillery_allowances() -> None:
    """VF-160 +6 in; VF-149 horse artillery 18/9; VF-150 heavy artillery 6/1; foot 12/3."""
    state = game()
    hussars = state.unit("U-A8")
    assert allowance(hussars) == 18
    fast = replace(hussars, stats=replace(hussars.stats, special_rules=("schnell",)))
    assert allowance(fast) == 24
    gun = state.unit("U-A4")
    for rules, limbered, expected in (
        ((), True, 12),
        ((), False, 3),
        (("artillerie_zu_pferd",), True, 18),
        (("artillerie_zu_pferd",), False, 9),
        (("schwere_artillerie",), True, 6),
        (("schwere_artillerie",), False, 1),
    ):
        g = replace(gun, limbered=limbered, stats=replace(gun.stats, special_rules=rules))
        assert allowance(g) == expected, rules
    acw = replace(
        gun, army_list="acw_union", stats=replace(gun.stats, special_rules=("schwere_artillerie",))
    )
    assert allowance(replace(acw, limbered=True)) == 12  # AMB-37
    assert allowance(replace(acw, limbered=False)) == 3
    horses = replace(acw, upgrades=Upgrades(options=("extra_horses",)))
    assert allowance(replace(horses, limbered=True)) == 18  # seed L2415: +6 limbered
    assert allowance(replace(horses, limbered=False)) == 3


# --- hit tests: Ney (VF-T40) ---


def _roller(faces: Sequence[int]) -> ScriptedDice:
    return ScriptedDice(faces)


def test_vf_t40_ney_rerolls_failed_dice_not_yet_rerolled() -> None:
    """VF-T40: dice [1, 2, 3, 4], Elan's reroll of the 1 gives 2, Ney's reroll of the 2 and 3
    gives [5, 1]: faces [2, 5, 1, 4], 2 hits; the rerolled 2 is not rerolled again."""
    dice = _roller([1, 2, 3, 4, 2, 5, 1])
    faces, hits = hit_tests(lambda n: [dice.d6() for _ in range(n)], 4, 0, True, reroll_failed=True)
    assert faces == [2, 5, 1, 4]
    assert hits == 2
    assert dice.faces == []


def test_without_ney_only_elan_rerolls() -> None:
    dice = _roller([1, 2, 3, 4, 2])
    faces, hits = hit_tests(lambda n: [dice.d6() for _ in range(n)], 4, 0, True)
    assert (faces, hits) == ([2, 2, 3, 4], 1)


FIGHT = FIGHT_FACTS


def _fight(state: GameState, dice: Sequence[int], facts: dict[str, JSON] | None = None) -> Ctx:
    c = ctx(state, [*dice, *[6] * 40], {**FIGHT, **(facts or {})})
    step: dict[str, JSON] = {
        "do": "fight",
        "attacker": "U-A2",
        "target": "U-B2",
        "supporters": [],
        "contacts": {"U-A2": ["U-B2"]},
    }
    melee.fight(c, step)
    return c


def _lines(c: Ctx) -> list[str]:
    return [e.text for e in c.log]


def _cinc(state: GameState, side: str, *rules: str) -> GameState:
    leader = state.leader(m.side_state(state, side).cinc)
    return m.with_leader(state, replace(leader, special_rules=rules))


def test_vf_t40_in_a_fight() -> None:
    """VF-T40 through the melee: U-A2 (Elan, attack column, 1 casualty, unsupported) within
    3 in of Ney attacks with 4 dice: [1, 2, 3, 4], Elan 2, Ney [5, 1]: 2 hits."""
    state = _cinc(game(), "A", "ney")
    state = set_unit(state, "U-A2", formation=Formation.ATTACK_COLUMN, casualties=1)
    c = _fight(state, [1, 2, 3, 4, 2, 5, 1], {"ney:U-A2": True})
    assert "Melee: U-A2 attacks U-B2 with 4 dice: 2 5 1 4, 2 hits" in _lines(c)
    assert "Ney: the failed melee dice of U-A2 are rerolled (VF-208)" in _lines(c)
    c = _fight(state, [1, 2, 3, 4, 2], {"ney:U-A2": False})
    assert "Melee: U-A2 attacks U-B2 with 4 dice: 2 2 3 4, 1 hits" in _lines(c)


def test_ney_asks_for_the_3_in_and_only_for_french_units() -> None:
    state = _cinc(game(), "A", "ney")
    wanted = melee.leader_facts(state, [state.unit("U-A2"), state.unit("U-B2")], [])
    assert set(wanted) == {"ney:U-A2"}
    assert wanted["ney:U-A2"]().rule == "VF-208"
    contingent = replace(state.unit("U-A2"), army_list="allied_french_british")
    assert melee.leader_facts(state, [contingent], []) == {}  # AMB-32


# --- Radetzky, Blücher, Bagration ---


def test_radetzky_and_bluecher_add_one_melee() -> None:
    """VF-214: infantry within 6 in of Radetzky +1; VF-215: units within 12 in of Blücher
    that charged this round +1."""
    state = game()
    a, b = state.unit("U-A2"), state.unit("U-B2")
    base = melee._value(a, b, True, True, [], {}, False)
    assert melee._value(a, b, True, True, [], {"radetzky:U-A2": True}, False) == base + 1
    assert melee._value(a, b, True, True, [], {"bluecher:U-A2": True}, False) == base + 1
    radetzky = _cinc(state, "A", "radetzky")
    assert set(melee.leader_facts(radetzky, [a], [])) == {"radetzky:U-A2"}
    cavalry = radetzky.unit("U-A9")
    assert melee.leader_facts(radetzky, [cavalry], []) == {}  # infantry only
    bluecher = _cinc(state, "A", "bluecher")
    assert melee.leader_facts(bluecher, [a], []) == {}  # no charge this round
    charged = replace(a, turn_flags=TurnFlags(charged_this_round=True))
    assert set(melee.leader_facts(bluecher, [charged], [])) == {"bluecher:U-A2"}


def test_bagration_adds_one_to_the_russian_result() -> None:
    """VF-217: a tie of hits that the defender would lose goes to the side with Bagration,
    when one of its units that fought or supported is within 12 in."""
    state = _cinc(game(), "B", "bagration")
    wanted = melee.leader_facts(state, [state.unit("U-A2"), state.unit("U-B2")], [])
    assert set(wanted) == {"bagration:U-B2"}
    # 5 attacker dice [4,4,1,1,1] = 2 hits; 5 strike-back dice [4,4,2,2,2] = 2 hits (+1 fresh,
    # no 1s for U-B2's disciplined musketry to reroll): a tie
    dice = [4, 4, 1, 1, 1, 4, 4, 2, 2, 2]
    c = _fight(state, dice, {"bagration:U-B2": False})
    assert "U-A2 wins the fight (VF-73)" in _lines(c)
    c = _fight(state, dice, {"bagration:U-B2": True})
    assert "U-B2 wins the fight (VF-73)" in _lines(c)


# --- Unvorhersehbar (VF-T39) ---


def _spanish(state: GameState) -> GameState:
    """U-B2 as a Spanish "Linieninfanterie Zweiter Klasse" (ranged 2, melee 3, morale 3) in
    attack column, so that its melee value is its profile's alone."""
    stats = Stats(2, 3, 3, 12, ("plaenkler", "karree", "unvorhersehbar"))
    return set_unit(state, "U-B2", stats=stats, formation=Formation.ATTACK_COLUMN)


def test_vf_t39_unpredictable_first_strike_back() -> None:
    """VF-T39: the first strike back: the test die 1 gives melee 2 and morale 2 for the rest
    of the battle, and this strike back uses 2; a later fight triggers no new test."""
    state = _spanish(game())
    # the test die, then U-A2's 5 dice (melee 4 + line 1), then U-B2's dice
    c = _fight(state, [1, 4, 4, 4, 4, 4, 1, 1])
    unit = c.game.unit("U-B2")
    assert unit.unpredictable == -1
    assert (unit.stats.melee, unit.stats.morale) == (2, 2)
    assert "U-B2 strikes back with 2 dice: 1 1, 0 hits" in _lines(c)
    assert "Unpredictable test of U-B2 (VF-161): die 1, melee and morale -1" in _lines(c)
    later = set_unit(c.game, "U-B2", fled=False, bases=state.unit("U-B2").bases, casualties=0)
    c2 = _fight(later, [4, 4, 4, 4, 4, 1, 1])
    assert not any("Unpredictable" in t for t in _lines(c2))
    assert "U-B2 strikes back with 2 dice: 1 1, 0 hits" in _lines(c2)


def test_unpredictable_six_and_the_first_casualty() -> None:
    """VF-161: a first casualty triggers the test; 6 gives +1 melee and +1 morale, and the
    markers are placed against the new morale."""
    state = _spanish(game())
    state = set_unit(state, "U-B2", casualties=3)
    c = ctx(state, [6])
    morale.take_casualties(c, "U-B2", 1, shooting=True, winner=False)
    unit = c.game.unit("U-B2")
    assert (unit.unpredictable, unit.stats.melee, unit.stats.morale) == (1, 4, 4)
    assert unit.casualties == 4  # the 4th marker fits: no morale test
    c = ctx(c.game, [])
    morale.take_casualties(c, "U-B2", 0, shooting=True, winner=False)
    assert c.game.unit("U-B2").stats.morale == 4


@pytest.mark.parametrize(("face", "delta"), [(1, -1), (2, 0), (5, 0), (6, 1)])
def test_unpredictable_table(face: int, delta: int) -> None:
    state = _spanish(game())
    c = ctx(state, [face])
    morale.unpredictable(c, "U-B2")
    unit = c.game.unit("U-B2")
    assert unit.unpredictable == delta
    assert unit.stats.melee == 3 + delta
    morale.unpredictable(c, "U-B2")  # once only: no second die is asked for
    assert c.game.unit("U-B2").stats.melee == 3 + delta


# --- Stoisch (VF-159) and Miliz/Landwehr (VF-158) ---


def test_stoisch_rerolls_morale_ones() -> None:
    """VF-159: a morale die showing 1 is rerolled once; without the rule the 1 fails."""
    base = set_unit(game(), "U-B2", casualties=4)
    stoic = replace(base.unit("U-B2").stats, special_rules=("stoisch",))
    c = ctx(set_unit(base, "U-B2", stats=stoic), [1, 4])
    morale.take_casualties(c, "U-B2", 1, shooting=False, winner=False)
    assert not c.game.unit("U-B2").fled
    c = ctx(set_unit(base, "U-B2", stats=stoic), [1, 1])
    morale.take_casualties(c, "U-B2", 1, shooting=False, winner=False)
    assert c.game.unit("U-B2").fled  # the reroll is once only
    c = ctx(base, [1])
    morale.take_casualties(c, "U-B2", 1, shooting=False, winner=False)
    assert c.game.unit("U-B2").fled


@pytest.mark.parametrize(
    ("rule", "vf"), [("miliz", "VF-158"), ("landwehr", "VF-158"), ("stoisch", "VF-159")]
)
@pytest.mark.parametrize("action", ["WITHDRAW", "CHARGE", "MARCH"])
def test_militia_may_only_move_rally_or_stand(rule: str, vf: str, action: str) -> None:
    """AMB-18: no Withdraw, Charge or March."""
    state = game()
    stats = replace(state.unit("U-A2").stats, special_rules=(rule,))
    c = ctx(set_unit(state, "U-A2", stats=stats))
    c.flow["sheet"] = {"units": {"U-A2": {"action": action, "path": [["32", "16"]]}}}
    with pytest.raises(Skip) as refused:
        command.unit_action(c, "U-A2")
    assert refused.value.rule == vf


def test_militia_may_stand() -> None:
    state = game()
    stats = replace(state.unit("U-A2").stats, special_rules=("miliz",))
    c = ctx(set_unit(state, "U-A2", stats=stats), [], {"messenger": True})
    c.flow["sheet"] = {"units": {"U-A2": {"action": "STAND"}}}
    command.unit_action(c, "U-A2")
    assert "U-A2 stands" in _lines(c)


# --- horse artillery (VF-149) ---


def test_horse_artillery_acts_after_firing() -> None:
    state = set_unit(game(), "U-A4", turn_flags=TurnFlags(fired=True))
    c = ctx(state, [], {"messenger": True})
    with pytest.raises(Skip) as refused:
        command.unit_action(c, "U-A4")
    assert refused.value.rule == "VF-46"
    gun = state.unit("U-A4")
    horse = replace(gun.stats, special_rules=("artillerie_zu_pferd", "kartaetsche"))
    c = ctx(set_unit(state, "U-A4", stats=horse), [], {"messenger": True})
    command.unit_action(c, "U-A4")
    assert "U-A4 stands" in _lines(c)


def test_infantry_charges_horse_artillery_only_from_6_in() -> None:
    state = game()
    gun = state.unit("U-B4")
    horse = replace(gun, stats=replace(gun.stats, special_rules=("artillerie_zu_pferd",)))
    facts: dict[str, JSON] = {
        "cost": "5",
        "clear": True,
        "start": False,
        "visible": True,
        "nearest": True,
        "contact": True,
        "six": False,
    }
    with pytest.raises(Skip) as refused:
        command._check_move(state.unit("U-A2"), "CHARGE", facts, horse)
    assert refused.value.rule == "VF-149"
    command._check_move(state.unit("U-A2"), "CHARGE", {**facts, "six": True}, horse)


# --- activation: marshals (VF-206), Gneisenau (VF-216), Erzherzog Karl (VF-213) ---


@pytest.mark.parametrize("rule", ["marschall_des_kaiserreichs", "ney", "murat", "napoleon"])
def test_marshals_activate_automatically_from_36_in(rule: str) -> None:
    state = _cinc(game(), "A", rule)
    c = ctx(state, [])
    with pytest.raises(NeedFacts) as asked:
        command.activate(c, "BR-A1")
    proposals = asked.value.proposals
    assert "36" in str(proposals[0]["fact"])
    c = ctx(_cinc(game(), "A"), [])
    with pytest.raises(NeedFacts) as asked:
        command.activate(c, "BR-A1")
    assert "24" in str(asked.value.proposals[0]["fact"])


@pytest.mark.parametrize(("rule", "vf"), [("gneisenau", "VF-216"), ("erzherzog_karl", "VF-213")])
def test_failed_activation_is_rerolled_within_36_in(rule: str, vf: str) -> None:
    state = _cinc(game(), "A", rule)
    c = ctx(state, [1, 4], {"auto": False, "reroll": True})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is True
    c = ctx(state, [1, 4], {"auto": False, "reroll": False})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is False
    c = ctx(state, [], {"auto": False})
    with pytest.raises(NeedFacts) as asked:
        command.activate(c, "BR-A1")
    assert asked.value.proposals[0]["rule"] == vf


# --- shooting: heavy artillery (VF-150), rockets (VF-162), Napoleon's guns (VF-207) ---


def test_special_hit_modifiers() -> None:
    state = game()
    gun = state.unit("U-A4")
    heavy = replace(gun, stats=replace(gun.stats, special_rules=("schwere_artillerie",)))
    rockets = replace(gun, stats=replace(gun.stats, special_rules=("raketen",)))
    assert shooting.special_modifier(heavy, []) == 1
    assert shooting.special_modifier(heavy, [heavy]) == 1
    assert shooting.special_modifier(heavy, [gun]) == 0  # every supporter must have it
    assert shooting.special_modifier(gun, [rockets]) == -1  # AMB-39
    assert shooting.special_modifier(gun, []) == 0
    assert melee._modifier(heavy, []) == 2  # fresh +1, heavy +1 (VF-150)
    assert melee._modifier(replace(heavy, casualties=1), []) == 1


SHOT: dict[str, JSON] = {"cover": "none", "napoleon": False}


def _shoot(state: GameState, dice: Sequence[int], facts: dict[str, JSON]) -> Ctx:
    c = ctx(state, [*dice, *[6] * 20], {**SHOT, **facts})
    shooting.shoot(c, {"firer": "U-A4", "target": "U-B2", "supporters": []})
    return c


def _gun_facts(nearest: bool) -> dict[str, JSON]:
    return {
        "range:U-A4": True,
        "nearest:U-A4": nearest,
        "half_sees:U-A4": True,
        "within12:U-A4": False,
        "napoleon:U-A4": False,
    }


def test_rockets_need_not_fire_at_the_nearest() -> None:
    state = game()
    gun = state.unit("U-A4")
    with pytest.raises(Skip) as refused:
        shooting.shoot(
            ctx(state, [], {**SHOT, **_gun_facts(False)}),
            {"firer": "U-A4", "target": "U-B2", "supporters": []},
        )
    assert refused.value.rule == "VF-41"
    rockets = replace(gun.stats, special_rules=("raketen",))
    facts = {k: v for k, v in _gun_facts(True).items() if not k.startswith("nearest")}
    c = _shoot(set_unit(state, "U-A4", stats=rockets), [4], facts)
    assert "U-A4 fires (full) at U-B2: 1 dice -1: 4, 0 hits" in _lines(c)  # 4 - 1 misses


def test_napoleons_guns_need_not_fire_at_the_nearest() -> None:
    """VF-207: French artillery within 12 in of Napoleon needs only sight and range."""
    state = game()
    assert "napoleon" in state.leader("L-A0").special_rules
    c = _shoot(state, [4], {**_gun_facts(False), "napoleon:U-A4": True})
    assert "U-A4 fires (full) at U-B2: 1 dice +0: 4, 1 hits" in _lines(c)
    with pytest.raises(Skip):
        shooting.shoot(
            ctx(state, [], {**SHOT, **_gun_facts(False), "napoleon:U-A4": False}),
            {"firer": "U-A4", "target": "U-B2", "supporters": []},
        )


# --- Vorsichtig (VF-205) ---


def _cautious_bg(state: GameState, brigade: str) -> GameState:
    bg = state.leader(m.brigade(state, brigade).bg)
    return m.with_leader(state, replace(bg, special_rules=("vorsichtig",)))


def test_cautious_bg_activates_with_minus_one() -> None:
    """VF-205: a die of 2 activates (VF-51: 2+), but not with a cautious BG (-1)."""
    c = ctx(game(), [2], {"auto": False})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is True
    c = ctx(_cautious_bg(game(), "BR-A1"), [2], {"auto": False})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is False


def test_cautious_cinc_activates_automatically_once_a_battle() -> None:
    state = _cinc(game(), "A", "vorsichtig")
    c = ctx(state, [], {"auto": True})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is True
    assert m.side_state(c.game, "A").cautious_cinc_auto_used
    again = m.with_brigade(c.game, replace(m.brigade(c.game, "BR-A1"), activated_this_turn=None))
    c = ctx(again, [1], {"auto": True})  # the automatic activation is not asked for again
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is False
    bold = m.with_side(again, replace(m.side_state(again, "A"), cautious_cinc_auto_used=True))
    bold = _cinc(bold, "A", "napoleon")  # the flag binds a cautious CinC only
    c = ctx(bold, [], {"auto": True})
    command.activate(c, "BR-A1")
    assert m.brigade(c.game, "BR-A1").activated_this_turn is True


@pytest.mark.parametrize(("rules", "passed"), [((), True), (("vorsichtig",), False)])
def test_cautious_cinc_gives_no_resolve_bonus(rules: tuple[str, ...], passed: bool) -> None:
    """VF-109: +1 when the BG is within 12 in of the CinC, not of a cautious one (VF-205):
    a die of 3 passes with it and fails without."""
    state = _cinc(game(), "A", *rules)
    state = m.with_brigade(state, replace(m.brigade(state, "BR-A1"), pending_resolve_tests=1))
    c = ctx(state, [3])
    assert morale.resolve_test(c, "BR-A1", True, False) is passed


# --- Kutuzov (VF-218) ---


def _stoic(state: GameState) -> GameState:
    stats = replace(state.unit("U-A2").stats, special_rules=("stoisch",))
    return set_unit(state, "U-A2", stats=stats)


def test_kutuzov_lifts_the_stoic_restriction() -> None:
    state = _stoic(_cinc(game(), "A", "kutuzov"))
    sheet: dict[str, JSON] = {"units": {"U-A2": {"action": "WITHDRAW", "path": [["32", "12"]]}}}
    c = ctx(state, [], {"kutuzov": False})
    c.flow["sheet"] = sheet
    with pytest.raises(Skip) as refused:
        command.unit_action(c, "U-A2")
    assert refused.value.rule == "VF-159"
    c = ctx(state, [], {"kutuzov": True})
    c.flow["sheet"] = sheet
    with pytest.raises(NeedFacts) as asked:  # on to the withdraw's own facts
        command.unit_action(c, "U-A2")
    assert {p["key"] for p in asked.value.proposals} >= {"cost", "keep"}
    c = ctx(state, [])
    c.flow["sheet"] = sheet
    with pytest.raises(NeedFacts) as asked:
        command.unit_action(c, "U-A2")
    assert [p["rule"] for p in asked.value.proposals] == ["VF-218"]


def test_wavering_casualty_triggers_unpredictable() -> None:
    state = _spanish(game())
    c = ctx(state, [6])
    morale.waver(c, "BR-B1", {"U-B2": True})
    unit = c.game.unit("U-B2")
    assert (unit.unpredictable, unit.casualties, unit.stats.morale) == (1, 1, 4)


# --- ACW weapons: Granaten (VF-169), Pistolen (VF-170), Schnellfeuer (VF-171); Veteran ---


def _gun_with(state: GameState, *rules: str) -> GameState:
    return set_unit(state, "U-A4", stats=replace(state.unit("U-A4").stats, special_rules=rules))


def test_granaten_against_columns_and_hard_cover() -> None:
    """VF-169: +2 instead of +1 against an attack column; +1 against hard cover."""
    state = set_unit(game(), "U-B2", formation=Formation.ATTACK_COLUMN)
    c = _shoot(_gun_with(state), [4, 4], _gun_facts(True))
    assert "U-A4 fires (full) at U-B2: 2 dice +0: 4 4, 2 hits" in _lines(c)  # 1 + 1 (VF-85)
    c = _shoot(_gun_with(state, "granaten"), [4, 4, 4], _gun_facts(True))
    assert "U-A4 fires (full) at U-B2: 3 dice +0: 4 4 4, 3 hits" in _lines(c)
    hard = {**_gun_facts(True), "cover": "hard"}
    c = _shoot(_gun_with(game(), "granaten"), [6, 6], hard)
    assert "U-A4 fires (full) at U-B2: 2 dice -2: 6 6, 2 hits" in _lines(c)
    c = _shoot(_gun_with(game()), [6], hard)
    assert "U-A4 fires (full) at U-B2: 1 dice -2: 6, 1 hits" in _lines(c)


@pytest.mark.parametrize(
    ("rules", "facts", "casualties"),
    [
        ((), {}, 2),  # [6, 5]: 2 hits
        (("pistolen",), {}, 3),  # the 6 causes 2
        (("schnellfeuer",), {"rapid12:U-A4": False}, 3),  # 6+ at range
        (("schnellfeuer",), {"rapid12:U-A4": True}, 4),  # 5+ within 12 in
    ],
)
def test_two_casualties_per_high_roll(
    rules: tuple[str, ...], facts: dict[str, JSON], casualties: int
) -> None:
    state = _gun_with(game(), *rules)
    state = set_unit(state, "U-A4", stats=replace(state.unit("U-A4").stats, ranged=2))
    c = _shoot(state, [6, 5], {**_gun_facts(True), **facts})
    assert c.game.unit("U-B2").casualties == casualties


def test_schnellfeuer_5_against_cavalry_and_columns() -> None:
    state = _gun_with(game(), "schnellfeuer")
    facts: dict[str, JSON] = {"rapid12:U-A4": False}
    assert shooting.double_threshold(state.unit("U-A4"), state.unit("U-B2"), facts) == 6
    assert shooting.double_threshold(state.unit("U-A4"), state.unit("U-B8"), facts) == 5
    column = replace(state.unit("U-B2"), formation=Formation.SQUARE)
    assert shooting.double_threshold(state.unit("U-A4"), column, facts) == 5
    assert shooting.double_threshold(game().unit("U-A4"), column, facts) == 7


def test_pistols_in_melee() -> None:
    """VF-170: a melee hit roll of 6 causes 2 casualties (modified roll, AMB-40)."""
    stats = replace(game().unit("U-A2").stats, special_rules=("pistolen",))
    state = set_unit(game(), "U-A2", stats=stats)
    c = _fight(state, [6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    assert "Melee: U-A2 attacks U-B2 with 5 dice: 6 6 1 1 1, 2 hits" in _lines(c)
    assert "U-B2 suffers 4 casualties (now 4 of morale 4)" in _lines(c)


def test_veteran_in_open_order_is_harder_to_hit() -> None:
    """VF-173: -1 to ranged attacks at a Veteran in open order."""
    stats = replace(game().unit("U-B2").stats, special_rules=("veteran",))
    state = set_unit(game(), "U-B2", stats=stats)
    c = _shoot(state, [4], _gun_facts(True))
    assert "U-A4 fires (full) at U-B2: 1 dice +0: 4, 1 hits" in _lines(c)
    c = _shoot(set_unit(state, "U-B2", formation=Formation.OPEN_ORDER), [4], _gun_facts(True))
    assert "U-A4 fires (full) at U-B2: 1 dice -1: 4, 0 hits" in _lines(c)


def test_moore_adds_one_to_the_attacker_only() -> None:
    """VF-211: +1 melee for British units that attack within 12 in of Moore."""
    state = _cinc(game(), "B", "sir_john_moore")
    wanted = melee.leader_facts(state, [state.unit("U-B2"), state.unit("U-A2")], [])
    assert set(wanted) == {"sir_john_moore:U-B2"}
    assert melee.leader_facts(state, [state.unit("U-A2"), state.unit("U-B2")], []) == {}
    a, b = state.unit("U-B2"), state.unit("U-A2")
    base = melee._value(a, b, True, True, [], {}, False)
    assert melee._value(a, b, True, True, [], {"sir_john_moore:U-B2": True}, False) == base + 1


# --- whole games with the special rules ---

GIVEN = {
    "U-A1": ("unvorhersehbar", "pistolen"),
    "U-A2": ("stoisch", "elan"),
    "U-A4": ("schwere_artillerie", "granaten"),
    "U-A5": ("miliz",),
    "U-A8": ("schnell", "leichte_kavallerie", "schnellfeuer"),
    "U-B1": ("unvorhersehbar", "veteran", "offene_formation"),
    "U-B2": ("landwehr",),
    "U-B4": ("artillerie_zu_pferd", "raketen", "kartaetsche"),
    "U-B9": ("schwere_kavallerie", "unvorhersehbar"),
}


def _special_match(chooser: int) -> m.Match:
    match = starter(auto_geometry=True, turn_limit=2)
    state = match.game
    for unit_id, rules in GIVEN.items():
        stats = replace(state.unit(unit_id).stats, special_rules=rules)
        state = set_unit(state, unit_id, stats=stats)
    state = _cinc(state, "A", "ney", "bagration", "gneisenau", "vorsichtig")
    state = _cinc(state, "B", "kutuzov", "radetzky", "bluecher", "sir_john_moore")
    state = _cautious_bg(state, "BR-B1")
    return replace(match, game=state, memo={})


@pytest.mark.parametrize("chooser", [3, 8])
def test_random_games_with_special_rules_end_and_replay(chooser: int) -> None:
    """Random play on the starter with many special rules given to its units and leaders ends,
    and replaying the same actions gives the same game (determinism)."""
    end, log = play_to_end(_special_match(chooser), chooser)
    assert not RULESET.prompts(end)
    again = _special_match(chooser)
    for i, action in enumerate(log):
        again = RULESET.apply(again, action, Rng.for_event(b"vf-test", i)).state
    assert again.game == end.game
