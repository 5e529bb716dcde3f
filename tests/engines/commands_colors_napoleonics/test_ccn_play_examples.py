"""The worked examples of digest 5 that the Ruleset plays (TC-04, TC-07..12, TC-19..21, TC-26,
TC-29, TC-31, TC-32, TC-34, TC-37..40), on the example scenario with the pieces rearranged, with
scripted dice and their exact numbers."""

from __future__ import annotations

from typing import Any

import pytest

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.world import attached
from tests.engines.commands_colors_napoleonics.ccn_play import (
    act,
    act_of,
    combat_of,
    fresh,
    only,
    put,
    rolls,
)


def battle_phase(state: GameState, ordered: list[str], card: str = "ATTACK_CENTER") -> None:
    state.phase = "battle"
    state.turn.card = card
    state.turn.orders = list(ordered)


def refused(state: GameState, role: str, kind: str, payload: Any) -> str:
    rejections = R.validate(state, act_of(role, kind, payload))
    assert rejections
    return rejections[0].rule


# --- TC-04, TC-26: dice of a melee ------------------------------------------------------------


def test_tc04_melee_after_moving_rolls_the_blocks() -> None:
    state = only(fresh("bottom"), ["B-LN1", "F-LN1"])
    put(state, "B-LN1", 5, 7)
    put(state, "F-LN1", 3, 7)
    state.phase, state.turn.card, state.turn.orders = "move", "ATTACK_CENTER", ["B-LN1"]
    state = act(state, "bottom", "move", {"piece": "B-LN1", "path": [[4, 7]]})
    state = act(state, "bottom", "end_moves", {})
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN1", "target": "F-LN1", "combat": "melee"},
        ["INF", "CAV", "ART", "FLAG"],
    )
    assert state.combat is not None
    assert combat_of(state)["dice"]["total"] == 4


def test_tc26_field_works_on_a_hill() -> None:
    """CCN-93: infantry and artillery attacked across a protected side ignore 1 flag."""
    state = only(fresh(), ["F-LN1", "B-FA1"])
    put(state, "F-LN1", 6, 5)  # the NW neighbour: across a protected side
    battle_phase(state, ["F-LN1"])
    # 4 - 1 (field works; the hill ignored) = 3 dice; [FLAG] with 1 flag ignored by the works
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "B-FA1", "combat": "melee"},
        ["FLAG", "CAV", "CAV"],
    )
    assert state.combat is not None
    assert combat_of(state)["dice"]["total"] == 3
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert state.pending["lo"] == 0  # the works let B-FA1 ignore its one flag (CCN-169)
    state = act(state, "bottom", "retreat", {"flags": 0, "path": []})
    # B-FA1 battles back with 4 dice, no reduction out of the works or down the hill
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"
    state = act(state, "bottom", "battle_back", {"battle": True}, ["CAV"] * 4)
    assert rolls(state)[0]["faces"] == ["CAV"] * 4


def test_tc26_unprotected_side_gets_the_hill_only() -> None:
    state = only(fresh(), ["F-LN1", "B-FA1"])
    put(state, "F-LN1", 7, 4)  # the W neighbour: unprotected
    battle_phase(state, ["F-LN1"])
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "B-FA1", "combat": "melee"},
        ["FLAG", "CAV", "CAV"],
    )
    assert state.combat is not None
    assert combat_of(state)["dice"]["total"] == 3
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert (state.pending["lo"], state.pending["hi"]) == (1, 1)  # no flag ignored


# --- TC-07: a lone leader meleed ----------------------------------------------------------------


def test_tc07_lone_leader_eliminated_by_a_sabre() -> None:
    """CCN-80, CCN-209: the eliminated leader gives the attacker 1 banner."""
    state = only(fresh(), ["B-RI1", "F-LT1", "P-L1", "F-LN1"])
    put(state, "F-LN1", 7, 7)  # a French unit next to the lone Portuguese leader at (8,7)
    battle_phase(state, ["F-LN1"])
    before = state.banners["top"]
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "P-L1", "combat": "melee"},
        ["SABRE", "INF", "INF", "INF"],
    )
    assert "P-L1" not in state.leaders
    assert state.banners["top"] == before + 1


def test_tc07_lone_leader_survives_and_must_retreat_then_advance() -> None:
    """CCN-101, CCN-102: the lone leader retreated, so the melee succeeded and the infantry
    advances into the vacated hex."""
    state = only(fresh(), ["B-LN1", "P-L1", "F-LN1"])
    put(state, "P-L1", 6, 7)
    put(state, "F-LN1", 5, 7)
    battle_phase(state, ["F-LN1"])
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "P-L1", "combat": "melee"},
        ["FLAG", "FLAG", "INF", "INF"],
    )
    assert state.pending is not None
    assert state.pending["kind"] == "leader_retreat"
    state = act(state, "bottom", "leader_retreat", {"path": [[7, 7]], "off": False})
    assert state.leaders["P-L1"].hex == Hex(7, 7)
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"
    state = act(state, "top", "take_ground", {"advance": True, "extra": None})
    assert state.units["F-LN1"].hex == Hex(6, 7)


# --- TC-08, TC-09: detach and attach --------------------------------------------------------------


def _detach_setup() -> GameState:
    state = only(fresh(), ["F-LN2", "F-L1", "F-LC1", "B-LN2"])
    put(state, "F-LN2", 3, 8)
    put(state, "F-L1", 3, 8)  # attached to F-LN2
    put(state, "F-LC1", 3, 7)
    put(state, "B-LN2", 5, 7)
    state.phase, state.turn.card = "orders", "ATTACK_LEFT"  # (3,7) and (3,8): French left
    return state


def test_tc08_leader_detaches_and_attaches_ending_its_move() -> None:
    state = _detach_setup()
    state = act(state, "top", "give_orders", {"units": ["F-LN2", "F-LC1"], "leaders": ["F-L1"]})
    state = act(state, "top", "move", {"piece": "F-LC1", "path": [[4, 8]]})
    state = act(state, "top", "move", {"piece": "F-L1", "path": [[4, 8]]})
    assert attached(state, state.units["F-LC1"]) is state.leaders["F-L1"]
    assert refused(state, "top", "move", {"piece": "F-L1", "path": [[4, 9]]}) == "CCN-24"
    state = act(state, "top", "move", {"piece": "F-LN2", "path": [[4, 9]]})
    state = act(state, "top", "end_moves", {})
    fight = {"unit": "F-LC1", "target": "B-LN2", "combat": "melee"}
    assert not R.validate(state, act_of("top", "battle", fight))  # H (with L) may battle


def test_tc09_leader_joins_before_the_unit_moved() -> None:
    state = _detach_setup()
    state = act(state, "top", "give_orders", {"units": ["F-LN2", "F-LC1"], "leaders": ["F-L1"]})
    state = act(state, "top", "move", {"piece": "F-LN2", "path": [[4, 9]]})
    assert state.leaders["F-L1"].hex == Hex(3, 8)  # detached: it stayed behind (CCN-18)
    state = act(state, "top", "move", {"piece": "F-L1", "path": [[3, 7]]})
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [[4, 8]]}) == "CCN-37"
    state = act(state, "top", "end_moves", {})
    fight = {"unit": "F-LC1", "target": "B-LN2", "combat": "melee"}
    assert refused(state, "top", "battle", fight) == "CCN-59"  # in place, (5,7) is too far


def test_tc09_control_a_leader_without_its_own_order_moves_with_its_unit() -> None:
    """CCN-16: one order moves the unit and its attached leader together."""
    state = _detach_setup()
    state = act(state, "top", "give_orders", {"units": ["F-LN2", "F-LC1"]})
    assert refused(state, "top", "move", {"piece": "F-L1", "path": [[3, 7]]}) == "CCN-12"
    state = act(state, "top", "move", {"piece": "F-LN2", "path": [[4, 9]]})
    assert state.leaders["F-L1"].hex == Hex(4, 9)


# --- TC-10..12: escape ---------------------------------------------------------------------------


def _escape_setup() -> GameState:
    """A lone French leader at (3,6) whose unit was just lost to a melee by B-LN1."""
    state = only(fresh("bottom"), ["F-L1", "B-LN1", "B-HC1", "F-LN1", "B-LN2"])
    put(state, "F-L1", 3, 6)
    put(state, "B-LN2", 4, 6)  # the attacker, below
    put(state, "B-LN1", 2, 6, blocks=2)  # enemy line infantry behind the leader
    put(state, "B-HC1", 1, 6, blocks=3)  # enemy heavy cavalry behind that
    put(state, "F-LN1", 0, 6)  # a friendly unit without a leader on the baseline
    battle_phase(state, ["B-LN2"])
    return state


def test_tc07_and_tc10_escape_through_enemies_to_a_friendly_unit() -> None:
    """CCN-64: the heavy cavalry's +1 melee die (TC-11: 3 blocks, 4 dice)."""
    state = _escape_setup()
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN2", "target": "F-L1", "combat": "melee"},
        ["FLAG", "INF", "INF", "INF"],
    )
    assert state.pending is not None
    assert state.pending["kind"] == "leader_retreat"
    # through the infantry (2 dice: no sabre), the heavy cavalry (3 + 1 = 4 dice, TC-11: no
    # sabre), to the friendly unit: attached
    path = [[2, 6], [1, 6], [0, 6]]
    state = act(
        state,
        "top",
        "leader_retreat",
        {"path": path, "off": False},
        ["INF", "ART", "FLAG", "FLAG", "INF", "INF"],
    )
    assert [len(r["faces"]) for r in rolls(state)] == [2, 4]
    assert attached(state, state.units["F-LN1"]) is state.leaders["F-L1"]


def test_tc12_escape_fails_on_a_sabre() -> None:
    state = _escape_setup()
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN2", "target": "F-L1", "combat": "melee"},
        ["FLAG", "INF", "INF", "INF"],
    )
    before = state.banners["bottom"]
    state = act(
        state,
        "top",
        "leader_retreat",
        {"path": [[2, 6], [1, 6], [0, 6]], "off": False},
        ["FLAG", "CAV", "SABRE", "SABRE", "FLAG", "INF"],
    )
    assert "F-L1" not in state.leaders
    assert state.banners["bottom"] == before + 1


def test_tc39_leader_withdraws_off_its_baseline_without_a_banner() -> None:
    """CCN-96, CCN-209: a leader withdrawn off its own baseline gives no banner."""
    state = only(fresh("bottom"), ["F-L1", "B-LN2"])
    put(state, "F-L1", 0, 6)
    put(state, "B-LN2", 1, 6)
    battle_phase(state, ["B-LN2"])
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN2", "target": "F-L1", "combat": "melee"},
        ["FLAG", "INF", "INF", "INF"],
    )
    before = state.banners["bottom"]
    state = act(state, "top", "leader_retreat", {"path": [], "off": True})
    assert "F-L1" not in state.leaders
    assert "F-L1" in state.gone
    assert state.banners["bottom"] == before


# --- TC-19, TC-20, TC-29, TC-31: hits, leader checks, flags ---------------------------------------


def test_tc19_one_leader_check_per_attack() -> None:
    """CCN-75, CCN-78: the losses trigger one check (2 dice); the failed retreat's loss from the
    same roll triggers no second one."""
    state = only(fresh("bottom"), ["F-LN2", "F-L1", "B-LN1", "F-LN1", "F-LN3"])
    put(state, "F-LN2", 3, 6)  # with F-L1 attached
    put(state, "F-L1", 3, 6)
    put(state, "F-LN1", 2, 6)  # both retreat hexes occupied
    put(state, "F-LN3", 2, 7)
    put(state, "B-LN1", 4, 6)
    battle_phase(state, ["B-LN1"])
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN1", "target": "F-LN2", "combat": "melee"},
        ["INF", "FLAG", "CAV", "CAV", "SABRE", "INF"],
    )
    assert state.units["F-LN2"].blocks == 3
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert (state.pending["lo"], state.pending["hi"]) == (0, 1)
    state = act(state, "top", "retreat", {"flags": 1, "path": []})  # no second check: no dice
    assert state.units["F-LN2"].blocks == 2
    assert "F-L1" in state.leaders


@pytest.mark.parametrize(("check", "banners"), [("FLAG", 1), ("SABRE", 2)])
def test_tc20_leader_left_alone(check: str, banners: int) -> None:
    """CCN-77, CCN-80, CCN-88: the 1-die check when the unit is gone; a hit leader gives a
    banner, a surviving one retreats."""
    state = only(fresh("bottom"), ["F-LN2", "F-L1", "B-LN1"])
    put(state, "F-LN2", 3, 6, blocks=1)
    put(state, "F-L1", 3, 6)
    put(state, "B-LN1", 4, 6)
    battle_phase(state, ["B-LN1"])
    before = state.banners["bottom"]
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN1", "target": "F-LN2", "combat": "melee"},
        ["INF", "CAV", "CAV", "CAV", check],
    )
    assert state.banners["bottom"] == before + banners
    if check == "FLAG":
        assert state.pending is not None
        assert state.pending["kind"] == "leader_retreat"
        state = act(state, "top", "leader_retreat", {"path": [[2, 6]], "off": False})
        assert state.pending is not None
        assert state.pending["kind"] == "take_ground"
    else:
        assert "F-L1" not in state.leaders


def test_tc29_support_survives_a_dead_leader() -> None:
    """CCN-75, CCN-92: support (two adjacent friendly units) still lets the unit ignore a flag."""
    state = only(fresh("bottom"), ["F-LN2", "F-L1", "F-LN1", "F-LN3", "B-LN1"])
    put(state, "F-LN2", 3, 6)
    put(state, "F-L1", 3, 6)
    put(state, "F-LN1", 3, 5)  # two adjacent friendly units: support
    put(state, "F-LN3", 3, 7)
    put(state, "B-LN1", 4, 6)
    battle_phase(state, ["B-LN1"])
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN1", "target": "F-LN2", "combat": "melee"},
        ["INF", "FLAG", "FLAG", "CAV", "SABRE", "SABRE"],
    )
    assert "F-L1" not in state.leaders
    assert state.pending is not None
    assert (state.pending["lo"], state.pending["hi"]) == (1, 2)  # support only: 1 ignored


def test_tc31_battle_back_after_a_retreat_that_could_not_be_made() -> None:
    """CCN-86, CCN-108: the hex not made costs a block; the unit stayed, so it may battle back."""
    state = only(fresh("bottom"), ["F-LN2", "F-LN1", "F-LN3", "B-LN1"])
    put(state, "F-LN2", 3, 7, blocks=3)
    put(state, "F-LN1", 2, 7)
    put(state, "F-LN3", 2, 8)
    put(state, "B-LN1", 4, 7)
    battle_phase(state, ["B-LN1"])
    state = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN1", "target": "F-LN2", "combat": "melee"},
        ["INF", "FLAG", "CAV", "CAV"],
    )
    # support from F-LN1 and F-LN3 lets it ignore the flag; it takes it: 1 block lost
    state = act(state, "top", "retreat", {"flags": 1, "path": []})
    assert state.units["F-LN2"].blocks == 1
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"


# --- TC-21, TC-37: retreat direction and losses ---------------------------------------------------


def test_tc37_retreat_direction() -> None:
    """CCN-84: each retreat step goes one row towards the owner's baseline."""
    from games.commands_colors_napoleonics.board import Side
    from games.commands_colors_napoleonics.world import scen

    board = scen(fresh()).board
    assert set(board.home_neighbours(Hex(4, 6), Side.BOTTOM)) == {Hex(5, 5), Hex(5, 6)}
    assert set(board.home_neighbours(Hex(4, 6), Side.TOP)) == {Hex(3, 5), Hex(3, 6)}


def test_tc21_a_retreat_blocked_after_one_step_costs_the_hexes_not_made() -> None:
    """CCN-84, CCN-86: militia retreats 3 hexes a flag; the 2 it cannot make cost 2 blocks."""
    from games.commands_colors_napoleonics.combat import retreat_options

    state = only(fresh(), ["B-LN2", "P-LN1", "B-LN1", "F-LN1"])
    put(state, "B-LN2", 4, 6)
    state.units["B-LN2"].type = "militia_infantry"  # retreats 3 hexes a flag (CCN-83)
    put(state, "F-LN1", 3, 6)
    put(state, "P-LN1", 6, 6)  # after (5,6): (6,6) and (6,7) occupied
    put(state, "B-LN1", 6, 7)
    state.combat = {"unit": "B-LN2", "lo": 0, "hi": 1, "att": "F-LN1", "tgt": "B-LN2"}
    from games.commands_colors_napoleonics.retreat import losses_of, unit_paths

    u = state.units["B-LN2"]
    paths = list(unit_paths(state, u, 3))  # militia: 3 hexes for one flag
    assert [Hex(5, 6)] in paths
    assert losses_of(state, u, 3, [Hex(5, 6)]) == 2
    options = retreat_options(state, state.combat)
    assert {"flags": 1, "path": [[5, 6]]} in options
    assert {"flags": 0, "path": []} in options


# --- TC-32: breakthrough and bonus melee ----------------------------------------------------------


def test_tc32_breakthrough_and_bonus_melee() -> None:
    """CCN-104, CCN-105: the cavalry breaks through (1 more hex) and makes its bonus melee."""
    state = only(fresh(), ["F-LC1", "B-LN1", "P-LN1"])
    put(state, "F-LC1", 5, 6)
    put(state, "B-LN1", 6, 6, blocks=1)
    put(state, "P-LN1", 7, 6, blocks=1)
    battle_phase(state, ["F-LC1"], "PROBE_CENTER")
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LC1", "target": "B-LN1", "combat": "melee"},
        ["INF", "CAV", "CAV", "CAV"],
    )
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"
    state = act(state, "top", "take_ground", {"advance": True, "extra": [6, 7]})
    assert state.units["F-LC1"].hex == Hex(6, 7)
    assert state.pending is not None
    assert state.pending["kind"] == "bonus_melee"
    state = act(state, "top", "bonus_melee", {"target": "P-LN1"}, ["INF", "CAV", "CAV", "CAV"])
    assert "P-LN1" not in state.units
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"
    from games.commands_colors_napoleonics.combat import advance_choices

    assert all(c["extra"] is None for c in advance_choices(state))  # no extra hex (CCN-106)
    state = act(state, "top", "take_ground", {"advance": True, "extra": None})
    assert state.pending is None
    assert state.combat is None  # no third melee


# --- TC-34: dual hexes and perspective ------------------------------------------------------------


def test_tc34_dual_hex_ordered_by_the_french_centre_or_right_only() -> None:
    for card, ok in (("PROBE_CENTER", True), ("PROBE_RIGHT", True), ("PROBE_LEFT", False)):
        state = fresh()
        state.phase, state.turn.card = "orders", card
        rejections = R.validate(state, act_of("top", "give_orders", {"units": ["F-LN1"]}))
        assert (not rejections) is ok, (card, rejections)
    state = fresh()
    state.phase, state.turn.card = "orders", "PROBE_LEFT"
    assert not R.validate(state, act_of("top", "give_orders", {"units": ["F-LN3", "F-LC1"]}))


# --- TC-38, TC-40: victory ------------------------------------------------------------------------


def test_tc38_victory_during_a_battle_back_ends_the_game_at_once() -> None:
    """CCN-108: the defender battles back (here winning the game, CCN-207)."""
    state = only(fresh(), ["F-LN1", "B-LN1"])
    put(state, "F-LN1", 6, 3, blocks=1)
    state.banners["bottom"] = 4
    battle_phase(state, ["F-LN1"])
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "B-LN1", "combat": "melee"},
        ["ART", "ART"],  # 1 block + 1 (French line against infantry, PUB-1)
    )
    state = act(state, "bottom", "battle_back", {"battle": True}, ["INF", "ART", "ART", "ART"])
    result = R.result(state)
    assert result is not None
    assert result.winners == ("bottom",)
    assert not R.prompts(state)


def test_tc40_temporary_objective_comes_at_the_start_of_the_turn_and_goes_at_once() -> None:
    from games.commands_colors_napoleonics.turn import next_turn
    from games.commands_colors_napoleonics.victory import total

    state = only(fresh("bottom"), ["F-LN2", "B-LN2", "F-LN1"])
    put(state, "F-LN2", 4, 6)  # a French unit in the town
    put(state, "B-LN2", 5, 6)
    before = total(state, "top")
    next_turn(state)  # the French turn begins
    assert total(state, "top") == before + 1
    state.phase, state.turn.card, state.turn.orders = "move", "ATTACK_CENTER", ["F-LN2"]
    state = act(state, "top", "move", {"piece": "F-LN2", "path": [[3, 6]]})
    assert total(state, "top") == before


# --- D-09: retire and reform (TC-13), First Strike (TC-30) --------------------------------------


def _hand(state: GameState, side: str, cards: tuple[str, ...]) -> None:
    from dataclasses import replace

    draw = list(state.deck.draw) + list(state.deck.hand(side))
    for c in cards:
        draw.remove(c)
    hands = {**state.deck.hands, side: tuple(sorted(cards))}
    state.deck = replace(state.deck, draw=tuple(draw), hands=hands)


def test_tc13_retire_and_reform() -> None:
    """TC-13 moved two columns east (the example's (4,6) is a town, (2,7) no rocky hill):
    French light cavalry at (4,8), British line infantry at (5,7); (2,7) and (2,9) held.
    CCN-60: the defender answers before any die is rolled; CCN-118: only CAV faces hit;
    CCN-119, CCN-102: no battle back, the infantry advances."""
    state = only(fresh("bottom", answer=True), ["F-LC1", "B-LN1", "F-LN1", "F-LN3"])
    _hand(state, "top", ("PROBE_LEFT", "ATTACK_LEFT"))  # no First Strike in hand
    put(state, "F-LC1", 4, 8)
    put(state, "B-LN1", 5, 7)
    put(state, "F-LN1", 2, 7)
    put(state, "F-LN3", 2, 9)
    battle_phase(state, ["B-LN1"])
    state = act(state, "bottom", "battle", {"unit": "B-LN1", "target": "F-LC1", "combat": "melee"})
    assert state.pending is not None
    assert state.pending["kind"] == "melee_response"
    from games.commands_colors_napoleonics.combat import response_choices, retire_choices

    assert response_choices(state) == ["none", "retire"]
    assert refused(state, "top", "melee_response", {"response": "form_square"}) == "CCN-116"
    state = act(
        state, "top", "melee_response", {"response": "retire"}, ["CAV", "SABRE", "FLAG", "INF"]
    )
    assert state.units["F-LC1"].blocks == 3  # only the CAV face hits
    assert state.pending is not None
    assert state.pending["kind"] == "retire"
    options: Any = retire_choices(state)
    finals = {tuple(c["path"][-1]) for c in options}
    assert finals == {(2, 8)}
    state = act(state, "top", "retire", {"path": [[3, 8], [2, 8]]})
    assert state.units["F-LC1"].hex == Hex(2, 8)
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"  # no battle back
    state = act(state, "bottom", "take_ground", {"advance": True, "extra": None})
    assert state.units["B-LN1"].hex == Hex(4, 8)


def _first_strike_setup(with_leader: bool) -> GameState:
    keep = ["P-LN1", "F-LT1"] + (["P-L1"] if with_leader else [])
    state = only(fresh("bottom", answer=True), keep)
    _hand(state, "top", ("FIRST_STRIKE", "PROBE_LEFT", "PROBE_CENTER", "ATTACK_LEFT", "FORWARD"))
    put(state, "P-LN1", 5, 7, blocks=3)
    if with_leader:
        put(state, "P-L1", 5, 7)
    put(state, "F-LT1", 4, 7)
    battle_phase(state, ["P-LN1"])
    state = act(state, "bottom", "battle", {"unit": "P-LN1", "target": "F-LT1", "combat": "melee"})
    assert state.pending is not None
    assert state.pending["kind"] == "melee_response"
    from games.commands_colors_napoleonics.combat import response_choices

    assert response_choices(state) == ["none", "first_strike"]
    return state


def test_tc30a_first_strike_forces_the_attacker_back_and_cancels_its_melee() -> None:
    """CCN-196, CCN-148: the defender plays FIRST_STRIKE; it gets no follow-up move."""
    state = _first_strike_setup(with_leader=False)
    state = act(
        state, "top", "melee_response", {"response": "first_strike"}, ["INF", "FLAG", "ART", "ART"]
    )
    assert state.units["P-LN1"].blocks == 2
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert state.pending["side"] == "bottom"
    assert state.pending["lo"] == 1
    state = act(state, "bottom", "retreat", {"flags": 1, "path": [[6, 7]]})
    assert state.combat is None
    assert state.pending is None  # cancelled, no battle back
    assert state.units["F-LT1"].blocks == 4
    assert state.turn.first_strike_by == ["top"]
    first = state.deck.draw[0]
    state = act(state, "bottom", "end_battles", {})
    assert first in state.deck.hand("top")  # CCN-149: the First Strike player draws first
    assert len(state.deck.hand("top")) == 5


def test_tc30b_the_attacker_holds_through_its_leader_and_attacks_without_battle_back() -> None:
    state = _first_strike_setup(with_leader=True)
    state = act(
        state,
        "top",
        "melee_response",
        {"response": "first_strike"},
        ["INF", "FLAG", "ART", "ART", "SABRE", "INF"],  # 4 dice, then the 2-dice leader check
    )
    assert state.units["P-LN1"].blocks == 2
    assert "P-L1" in state.leaders
    assert state.pending is not None
    assert (state.pending["lo"], state.pending["hi"]) == (0, 1)
    state = act(state, "bottom", "retreat", {"flags": 0, "path": []}, ["INF", "INF"])
    assert state.units["F-LT1"].blocks == 2  # the attack with 2 dice
    assert state.combat is None
    assert state.pending is None  # no battle back (CCN-147)


def test_tc32_variant_a_town_stops_the_breakthrough_and_the_bonus_melee() -> None:
    state = only(fresh(), ["F-LC1", "B-LN2", "P-LN1"])
    put(state, "F-LC1", 3, 6)
    put(state, "B-LN2", 4, 6, blocks=1)  # in the town of Santa Clara
    put(state, "P-LN1", 5, 6)
    battle_phase(state, ["F-LC1"], "PROBE_CENTER")
    # light cavalry into a town: 4 - 3 = 1 die
    state = act(
        state, "top", "battle", {"unit": "F-LC1", "target": "B-LN2", "combat": "melee"}, ["INF"]
    )
    from games.commands_colors_napoleonics.combat import advance_choices

    assert advance_choices(state) == [
        {"advance": False, "extra": None},
        {"advance": True, "extra": None},
    ]
    state = act(state, "top", "take_ground", {"advance": True, "extra": None})
    assert state.units["F-LC1"].hex == Hex(4, 6)
    assert state.combat is None
    assert state.pending is None  # no bonus melee (CCN-163)
