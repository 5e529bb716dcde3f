"""The Ruleset around the examples: set-up (CCN-1..6) and its refusals (a gap named), roles,
the dump/load round trip, the view contract with the board drawing, hand secrecy, the refusals
by rule id of what is not built, CCN-11, the Scout's draw, deadlines, standing choices, the text
notation and the report."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics import world
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR, parse_scenario, scenario_named
from games.commands_colors_napoleonics.state import GameState, dump, load
from games.core.canonical import state_hash
from games.core.protocol import SYSTEM, GameConfig, SetupError
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import (
    EXAMPLE,
    act_of,
    rolls,
    view_of,
)

DOC: dict[str, Any] = yaml.safe_load((SCENARIOS_DIR / "example.yaml").read_text(encoding="utf-8"))


def fresh(seed: int = 3) -> GameState:
    return R.setup(GameConfig(EXAMPLE, {}), Rng(seed))


@pytest.fixture
def extra_scenario(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A second shipped scenario "extra" whose document the test fills in."""
    doc: dict[str, Any] = copy.deepcopy(DOC)
    doc["id"] = "extra"

    def named(stem: str) -> Any:
        if stem == "extra":
            return parse_scenario(copy.deepcopy(doc), "extra.yaml")
        return scenario_named(stem)

    monkeypatch.setattr(world, "scenario_named", named)
    monkeypatch.setattr(world, "SHIPPED_SCENARIOS", ("example", "extra"))
    world.shipped.cache_clear()
    world.scenario_of.cache_clear()
    yield doc
    world.shipped.cache_clear()
    world.scenario_of.cache_clear()


# --- set-up ---------------------------------------------------------------------------------


def test_scenarios_roles_and_the_deal() -> None:
    assert R.scenarios()[0] == EXAMPLE
    roles = R.roles(EXAMPLE, {})
    assert [(r.id, r.name) for r in roles] == [("top", "French"), ("bottom", "Anglo-Portuguese")]
    state = fresh()
    assert len(state.deck.hand("top")) == 5  # CCN-3: the battle notes' hand sizes
    assert len(state.deck.hand("bottom")) == 4
    assert len(state.deck.draw) == 70 - 9
    assert state.active == "top"
    assert state.phase == "card"  # CCN-6
    assert state.banners == {"top": 0, "bottom": 0}  # CCN-5
    assert state.units["F-LN1"].blocks == 4
    assert state.units["B-FA1"].blocks == 3  # CCN-2


def test_dump_load_round_trip_is_exact() -> None:
    state = fresh()
    data = dump(state)
    assert dump(load(data)) == data
    assert state_hash(R.dump(R.load(R.dump(state)))) == state_hash(data)


def test_unknown_scenario_and_options_are_refused() -> None:
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig("no-such-battle", {}), Rng(1))
    assert info.value.rejection.rule == "§8.2"
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig(EXAMPLE, {"speed": 2}), Rng(1))
    assert info.value.rejection.rule == "§6"


def test_a_scenario_needing_an_unknown_value_is_refused_naming_the_gap(
    extra_scenario: dict[str, Any],
) -> None:
    for unit in extra_scenario["units"]:
        if unit["id"] == "B-HC1":
            del unit["blocks"]  # British heavy cavalry: blocks unknown (GAP-2)
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig("extra", {}), Rng(1))
    assert info.value.rejection.rule == "GAP-2"
    assert "units[10].blocks" in info.value.rejection.path


def test_a_scenario_whose_dice_need_an_unknown_value_is_refused(
    extra_scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.commands_colors_napoleonics.errors import UnknownValueError

    def unknown(*args: object) -> object:
        raise UnknownValueError("GAP-2", "nations.british.units.heavy_cavalry.melee_bonus")

    monkeypatch.setattr(world, "profile", unknown)
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig("extra", {}), Rng(1))
    assert info.value.rejection.rule == "GAP-2"


# --- the view (the contract with the board drawing) -----------------------------------------------


def test_view_contract_and_hand_secrecy() -> None:
    state = fresh()
    v = view_of(state, "top")
    assert isinstance(v, dict)
    assert v["role"] == "top"
    m = v["map"]
    assert isinstance(m, dict)
    assert m["board"] == DOC["board"]
    assert m["terrain"] == DOC["terrain"]
    unit = next(u for u in m["units"] if u["id"] == "F-LN2")
    assert unit == {
        "id": "F-LN2",
        "side": "top",
        "nation": "french",
        "type": "line_infantry",
        "hex": [1, 6],
        "blocks": 4,
    }
    leaders = {ld["id"]: ld for ld in m["leaders"]}
    assert leaders["F-L1"] == {"id": "F-L1", "side": "top", "hex": [1, 6], "attached_to": "F-LN2"}
    assert leaders["P-L1"] == {"id": "P-L1", "side": "bottom", "hex": [8, 7]}
    seats = v["deck"]["seats"]
    assert seats["top"]["hand"] == list(state.deck.hand("top"))
    assert "hand" not in seats["bottom"]
    assert seats["bottom"]["hand_count"] == 4
    assert view_of(state, "@observer")["role"] is None


# --- cards ----------------------------------------------------------------------------------------


def _with_hand(state: GameState, side: str, cards: tuple[str, ...]) -> GameState:
    """`side` holds `cards` (taken from the draw pile, its hand put back there)."""
    from dataclasses import replace

    draw = list(state.deck.draw) + list(state.deck.hand(side))
    for c in cards:
        draw.remove(c)
    hands = {**state.deck.hands, side: tuple(sorted(cards))}
    state.deck = replace(state.deck, draw=tuple(draw), hands=hands)
    return state


def test_first_strike_is_no_phase_one_card() -> None:
    state = _with_hand(fresh(), "top", ("FIRST_STRIKE", "PROBE_CENTER"))
    rejections = R.validate(state, act_of("top", "play_card", {"card": "FIRST_STRIKE"}))
    assert rejections
    assert rejections[0].rule == "CCN-146"  # AMB-19


def test_tc33_counter_attack_mirrors_the_opponents_section_card() -> None:
    state = _with_hand(fresh(), "bottom", ("COUNTER_ATTACK", "PROBE_CENTER"))
    state.active = "bottom"
    state.last_card["top"] = "ATTACK_LEFT"  # the top player's left: the bottom player's right
    state = R.apply(state, act_of("bottom", "play_card", {"card": "COUNTER_ATTACK"}), Rng(1)).state
    assert state.turn.acts_as == "ATTACK_RIGHT"
    assert state.last_card["bottom"] == "ATTACK_RIGHT"  # a later Counter-attack copies this
    right = {"units": ["B-HC1", "B-RI1", "P-LN1"]}  # bottom-perspective right (and centre)
    assert not R.validate(state, act_of("bottom", "give_orders", right))
    left = {"units": ["B-LN1"]}
    assert R.validate(state, act_of("bottom", "give_orders", left))[0].rule == "CCN-188"


def test_counter_attack_with_nothing_to_copy_orders_nothing() -> None:
    for last in (None, "FIRST_STRIKE"):  # AMB-19: the first turn, or a First Strike
        state = _with_hand(fresh(), "top", ("COUNTER_ATTACK", "PROBE_CENTER"))
        if last is not None:
            state.last_card["bottom"] = last
        step = R.apply(state, act_of("top", "play_card", {"card": "COUNTER_ATTACK"}), Rng(1))
        assert step.state.active == "bottom"  # CCN-11


def test_short_supply_sends_a_unit_back_to_its_baseline() -> None:
    state = _with_hand(fresh(), "top", ("SHORT_SUPPLY", "PROBE_CENTER"))
    state = R.apply(state, act_of("top", "play_card", {"card": "SHORT_SUPPLY"}), Rng(1)).state
    assert (
        R.validate(state, act_of("top", "give_orders", {"units": ["F-LN1"]}))[0].rule == "CCN-202"
    )
    state.units["B-LN2"].hex = Hex(4, 7)  # B-LN2 and B-L1 forward, in the bottom centre
    state.leaders["B-L1"].hex = Hex(4, 7)
    state = R.apply(state, act_of("top", "give_orders", {"short_supply": "B-LN2"}), Rng(1)).state
    assert state.pending is not None
    assert state.pending["kind"] == "supply_place"
    assert state.pending["side"] == "bottom"  # the unit's owner places it (D-06)
    from games.commands_colors_napoleonics.supply import places

    spots = places(state, "B-LN2")
    assert spots
    assert all(h.row == 8 for h in spots)  # its own baseline, row 8
    state = R.apply(
        state, act_of("bottom", "supply_place", {"hex": [8, spots[0].col]}), Rng(1)
    ).state
    assert state.units["B-LN2"].hex == spots[0]
    assert state.leaders["B-L1"].hex == spots[0]
    assert state.phase == "move"
    assert state.turn.orders == []


def test_elan_orders_by_the_faces_rolled_and_adds_a_die() -> None:
    from games.commands_colors_napoleonics.dice import ScriptedDice

    state = _with_hand(fresh(), "top", ("ELAN", "PROBE_LEFT", "PROBE_CENTER"))
    play = act_of("top", "play_card", {"card": "ELAN"})
    state = R.apply_with(state, play, Rng(1), ScriptedDice(["INF", "CAV", "SABRE"])).state
    assert state.turn.pool == {"INF": 1, "CAV": 1, "ART": 0, "ANY": 0}  # 3 dice: command 3
    two_inf = {"units": ["F-LN1", "F-LN2"]}
    assert R.validate(state, act_of("top", "give_orders", two_inf))[0].rule == "CCN-194"
    state = R.apply(
        state, act_of("top", "give_orders", {"units": ["F-LN2", "F-LC1"]}), Rng(1)
    ).state
    assert state.turn.orders == ["F-LN2", "F-LC1"]
    state.units["B-LN2"].hex = Hex(2, 6)  # next to F-LN2 at (1,6)
    state.leaders["B-L1"].hex = Hex(2, 6)
    state.phase = "battle"
    state.policies = {"bottom": {"melee_response": "none"}}
    fight = act_of("top", "battle", {"unit": "F-LN2", "target": "B-LN2", "combat": "melee"})
    state = R.apply_with(state, fight, Rng(1), ScriptedDice(["ART"] * 6 + ["ART"] * 4)).state
    assert rolls(state)[0]["faces"] == ["ART"] * 6  # 4 + 1 + 1 (Élan)


def test_rally_gives_blocks_back_and_orders_those_units() -> None:
    from games.commands_colors_napoleonics.dice import ScriptedDice

    state = _with_hand(fresh(), "top", ("RALLY", "PROBE_LEFT", "PROBE_CENTER", "FORWARD"))
    state.units["F-LN1"].blocks = 2
    state.units["F-LC1"].blocks = 3
    play = act_of("top", "play_card", {"card": "RALLY"})
    state = R.apply_with(state, play, Rng(1), ScriptedDice(["INF", "INF", "INF", "FLAG"])).state
    assert state.turn.pool == {"INF": 3, "CAV": 0, "ART": 0}
    too_many = {"rally": {"F-LN1": 3}}  # above its 4 starting blocks
    assert R.validate(state, act_of("top", "give_orders", too_many))[0].rule == "CCN-201"
    no_cav = {"rally": {"F-LC1": 1}}  # no CAV face rolled
    assert R.validate(state, act_of("top", "give_orders", no_cav))[0].rule == "CCN-201"
    state = R.apply(state, act_of("top", "give_orders", {"rally": {"F-LN1": 2}}), Rng(1)).state
    assert state.units["F-LN1"].blocks == 4
    assert state.turn.orders == ["F-LN1"]


def test_a_hand_of_cards_not_built_still_has_a_play() -> None:
    state = _with_hand(fresh(), "top", ("FIRST_STRIKE",))
    # AMB-19: a hand of First Strike cards only plays one, which orders nothing
    step = R.apply(state, act_of("top", "play_card", {"card": "FIRST_STRIKE"}), Rng(1))
    assert step.state.active == "bottom"
    assert step.state.phase == "card"  # CCN-11


def test_section_card_with_nothing_to_order_skips_to_phase_five() -> None:
    state = fresh()
    for uid in ["F-LN3", "F-LC1"]:  # the French left (TC-34) emptied
        del state.units[uid]
        state.gone.append(uid)
    state = _with_hand(state, "top", ("PROBE_LEFT",))
    step = R.apply(state, act_of("top", "play_card", {"card": "PROBE_LEFT"}), Rng(1))
    assert step.state.active == "bottom"  # CCN-11: phases 2-4 skipped, drew a card
    assert len(step.state.deck.hand("top")) == 1


def test_scout_draws_two_and_keeps_one() -> None:
    state = _with_hand(fresh(), "top", ("SCOUT_CENTER",))
    state = R.apply(state, act_of("top", "play_card", {"card": "SCOUT_CENTER"}), Rng(1)).state
    state = R.apply(state, act_of("top", "give_orders", {}), Rng(1)).state
    state = R.apply(state, act_of("top", "end_moves", {}), Rng(1)).state
    state = R.apply(state, act_of("top", "end_battles", {}), Rng(1)).state
    assert state.pending == {"kind": "scout_keep", "side": "top"}
    pair = state.deck.scout["top"]
    assert "scout" not in view_of(state, "bottom")["deck"]["seats"]["top"]
    state = R.apply(state, act_of("top", "scout_keep", {"card": pair[1]}), Rng(1)).state
    assert pair[1] in state.deck.hand("top")
    assert state.active == "bottom"


def test_tactic_cards_order_their_units() -> None:
    state = _with_hand(fresh(), "top", ("CAVALRY_CHARGE",))
    state = R.apply(state, act_of("top", "play_card", {"card": "CAVALRY_CHARGE"}), Rng(1)).state
    bad = R.validate(state, act_of("top", "give_orders", {"units": ["F-LN1"]}))
    assert bad
    assert bad[0].rule == "CCN-192"
    state = R.apply(state, act_of("top", "give_orders", {"units": ["F-LC1"]}), Rng(1)).state
    assert state.turn.orders == ["F-LC1"]


# --- combat refusals ------------------------------------------------------------------------------


def test_artillery_fire_is_refused_with_gap_1() -> None:
    state = fresh()
    state.units["B-LN1"].hex = Hex(4, 2)  # range 2 from F-FA1 at (2,2), on the bridge
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_RIGHT", ["F-FA1", "F-LT1"]
    fire = {"unit": "F-FA1", "target": "B-LN1", "combat": "ranged"}
    assert R.validate(state, act_of("top", "battle", fire))[0].rule == "GAP-1"


def test_combined_arms_rolls_together_and_refuses_the_unknown_table() -> None:
    from games.commands_colors_napoleonics.dice import ScriptedDice

    state = fresh()
    state.policies = {"bottom": {"melee_response": "none"}}
    state.units["B-LN1"].hex = Hex(3, 3)  # next to F-LT1 (2,3), range 2 from F-FA1 (2,2)
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_RIGHT", ["F-FA1", "F-LT1"]
    melee = {"unit": "F-LT1", "target": "B-LN1", "combat": "melee", "artillery": ["F-FA1"]}
    rejections = R.validate(state, act_of("top", "battle", melee))
    assert rejections[0].rule == "GAP-1"
    assert rejections[0].path == "/artillery/0"
    assert R.validate(state, act_of("top", "battle", {**melee, "artillery": ["F-LN1"]}))
    state.units["B-LN1"].hex = Hex(3, 2)  # next to both: the artillery's melee dice (4)
    fight = act_of("top", "battle", melee)
    state = R.apply_with(state, fight, Rng(1), ScriptedDice(["ART"] * 8)).state
    assert len(rolls(state)[0]["faces"]) == 8  # 4 + 4
    assert {"F-LT1", "F-FA1"} <= set(state.turn.battled)  # CCN-143


def test_ranged_combat_next_to_an_enemy_is_refused() -> None:
    state = fresh()
    state.units["B-LN1"].hex = Hex(3, 3)  # next to F-LT1 at (2,3)
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_RIGHT", ["F-LT1"]
    fire = {"unit": "F-LT1", "target": "B-LN2", "combat": "ranged"}
    assert R.validate(state, act_of("top", "battle", fire))[0].rule == "CCN-46"


# --- deadlines, standing choices, text ------------------------------------------------------------


def test_deadline_defaults() -> None:
    state = fresh()
    rejections = R.validate(state, act_of(SYSTEM, ".deadline"))
    assert rejections[0].rule == "CCN-9"  # playing a card has no default
    state.phase, state.turn.card = "move", "PROBE_CENTER"
    state = R.apply(state, act_of(SYSTEM, ".deadline"), Rng(1)).state
    assert state.phase == "battle"
    state.pending = {"kind": "battle_back", "side": "bottom", "unit": "B-LN2", "against": "x"}
    from games.commands_colors_napoleonics.decisions import default

    assert default(state) == ("battle_back", {"battle": True})


def test_standing_choice_is_private_and_answers_the_battle_back() -> None:
    state = fresh()
    state = R.apply(state, act_of("bottom", "set_policy", {"battle_back": "never"}), Rng(1)).state
    policy = {"melee_response": "none"}
    state = R.apply(state, act_of("bottom", "set_policy", policy), Rng(1)).state
    assert view_of(state, "bottom")["policy"] == {"battle_back": "never", "melee_response": "none"}
    assert view_of(state, "top")["policy"] == {}
    assert "set_policy" in R.private_kinds()
    state.units["F-LN2"].hex = Hex(5, 6)
    state.leaders["F-L1"].hex = Hex(5, 6)
    state.units["B-LN2"].hex = Hex(6, 6)
    state.leaders["B-L1"].hex = Hex(6, 6)
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_CENTER", ["F-LN2"]
    from games.commands_colors_napoleonics.dice import ScriptedDice

    fight = act_of("top", "battle", {"unit": "F-LN2", "target": "B-LN2", "combat": "melee"})
    state = R.apply_with(state, fight, Rng(1), ScriptedDice(["ART"] * 5)).state
    assert state.pending is None
    assert state.combat is None  # no battle back, no question


def test_text_notation_and_report() -> None:
    state = fresh()
    actions = R.parse_text(state, "top", "play PROBE_CENTER\n# a comment\norder F-LN2 leaders F-L1")
    assert isinstance(actions, list)
    assert actions[0] == act_of("top", "play_card", {"card": "PROBE_CENTER"})
    assert actions[1] == act_of("top", "give_orders", {"units": ["F-LN2"], "leaders": ["F-L1"]})
    move = R.parse_text(state, "top", "move F-LN2 2,6 3,6")
    assert move == [act_of("top", "move", {"piece": "F-LN2", "path": [[2, 6], [3, 6]]})]
    assert not isinstance(R.parse_text(state, "top", "dance"), list)
    text = R.report_text(state, "top")
    assert "Your hand:" in text
    assert "F-LN2" in text


def test_payload_errors() -> None:
    assert R.payload_errors("fly", {})[0].rule == "unknown_kind"
    assert R.payload_errors("play_card", {"card": "X", "extra": 1})[0].rule == "schema"
    assert not R.payload_errors("play_card", {"card": "PROBE_LEFT"})
