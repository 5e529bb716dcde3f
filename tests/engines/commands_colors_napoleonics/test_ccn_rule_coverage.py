"""Rules of digest section 3 that no worked example pins down by itself, each with a focused case
on the example scenario (pieces rearranged, scripted dice), and the promise that every rule id
of section 3 is named in a test of this directory or in a README line saying why not."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import games.commands_colors_napoleonics as engine
from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.world import attached, sections
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import (
    act,
    act_of,
    fresh,
    only,
    put,
    rolls,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
DIGEST = REPO.parent / "shared" / "rules" / "commands-and-colors-napoleonics.md"
README = Path(engine.__file__).resolve().parent / "README.md"
SNAPSHOT = HERE / "section3_rule_ids.txt"  # the digest's section 3 ids, one a line


def phase(state: GameState, name: str, ordered: list[str], card: str = "ATTACK_CENTER") -> None:
    state.phase = name
    state.turn.card = card
    state.turn.orders = list(ordered)


def hand(state: GameState, side: str, cards: tuple[str, ...]) -> GameState:
    """`side` holds `cards` (taken from the draw pile, its hand put back there)."""
    draw = list(state.deck.draw) + list(state.deck.hand(side))
    for c in cards:
        draw.remove(c)
    hands = {**state.deck.hands, side: tuple(sorted(cards))}
    state.deck = replace(state.deck, draw=tuple(draw), hands=hands)
    return state


def refused(state: GameState, role: str, kind: str, payload: Any) -> str:
    rejections = R.validate(state, act_of(role, kind, payload))
    assert rejections, (kind, payload)
    return rejections[0].rule


def legal(state: GameState, role: str, kind: str, payload: Any) -> bool:
    return not R.validate(state, act_of(role, kind, payload))


def melee(unit: str, target: str) -> dict[str, str]:
    return {"unit": unit, "target": target, "combat": "melee"}


def fire(unit: str, target: str) -> dict[str, str]:
    return {"unit": unit, "target": target, "combat": "ranged"}


# --- 3.1, 3.2: set-up and the turn ----------------------------------------------------------------


def test_ccn4_the_square_tracks_start_empty() -> None:
    """CCN-4: each side starts with an empty square track; the first square takes marker 1."""
    state = fresh()
    assert state.deck.track("top") == {}
    assert state.deck.track("bottom") == {}
    assert all(u.in_square is None for u in state.units.values())


def test_ccn7_ccn22_ccn23_the_phases_come_in_order() -> None:
    """CCN-7: card, orders, moves, battles, draw, in this order, each action of another phase
    refused; CCN-22: all orders at once in phase 2 (one `give_orders`), before any move, and no
    second one; CCN-23: moves only in phase 3."""
    state = hand(fresh(), "top", ("PROBE_CENTER", "PROBE_LEFT"))
    assert state.phase == "card"
    assert refused(state, "top", "give_orders", {"units": ["F-LN2"]}) == "CCN-7"
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [[2, 6]]}) == "CCN-7"
    assert refused(state, "top", "battle", melee("F-LN2", "B-LN2")) == "CCN-7"
    state = act(state, "top", "play_card", {"card": "PROBE_CENTER"})
    assert state.phase == "orders"
    assert refused(state, "top", "play_card", {"card": "PROBE_LEFT"}) == "CCN-7"
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [[2, 6]]}) == "CCN-7"
    state = act(state, "top", "give_orders", {"units": ["F-LN2"]})
    assert state.phase == "move"
    assert refused(state, "top", "give_orders", {"units": ["F-LN2"]}) == "CCN-7"
    assert refused(state, "top", "battle", melee("F-LN2", "B-LN2")) == "CCN-7"
    state = act(state, "top", "end_moves", {})
    assert state.phase == "battle"
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [[2, 6]]}) == "CCN-7"
    state = act(state, "top", "end_battles", {})
    assert (state.active, state.phase) == ("bottom", "card")
    assert len(state.deck.hand("top")) == 2  # phase 5: the draw


def test_ccn8_the_players_alternate_turns() -> None:
    """CCN-8: after the top player's turn the bottom player's, then the top player's again."""
    state = hand(fresh(), "top", ("PROBE_CENTER", "PROBE_LEFT"))
    state = hand(state, "bottom", ("PROBE_CENTER", "PROBE_RIGHT"))
    for side, other in (("top", "bottom"), ("bottom", "top")):
        assert state.active == side
        assert refused(state, other, "play_card", {"card": "PROBE_CENTER"}) == "CCN-8"
        state = act(state, side, "play_card", {"card": "PROBE_CENTER"})
        state = act(state, side, "give_orders", {})
        state = act(state, side, "end_moves", {})
        state = act(state, side, "end_battles", {})
    assert (state.active, state.phase) == ("top", "card")


# --- 3.4: orders ----------------------------------------------------------------------------------


def test_ccn13_one_order_per_unit_or_leader() -> None:
    """CCN-13: a unit or leader listed twice is refused."""
    state = fresh()
    phase(state, "orders", [], "ATTACK_CENTER")
    assert refused(state, "top", "give_orders", {"units": ["F-LN2", "F-LN2"]}) == "CCN-13"
    assert legal(state, "top", "give_orders", {"units": ["F-LN2"]})


def test_ccn15_unused_orders_are_lost() -> None:
    """CCN-15: fewer pieces than the card allows is legal; the rest is not kept."""
    state = fresh()
    phase(state, "orders", [], "ATTACK_CENTER")  # 3 orders in the centre
    state = act(state, "top", "give_orders", {"units": ["F-LN2"]})
    assert state.turn.orders == ["F-LN2"]
    state = act(state, "top", "end_moves", {})
    state = act(state, "top", "end_battles", {})
    assert state.turn.orders == []  # nothing carried into the next turn
    state = hand(fresh(), "top", ("BAYONET_CHARGE",))
    phase(state, "orders", [], "BAYONET_CHARGE")  # up to 4 infantry
    state = act(state, "top", "give_orders", {"units": ["F-LN1"]})
    assert state.turn.orders == ["F-LN1"]


def test_ccn17_detaching_needs_a_card_that_allows_it() -> None:
    """CCN-17: an attached leader is ordered apart only with a section card (or Leadership, La
    Grande Manoeuvre, an Élan flag); its order does not order the unit."""
    state = fresh()
    phase(state, "orders", [], "BAYONET_CHARGE")
    assert refused(state, "top", "give_orders", {"leaders": ["F-L1"]}) == "CCN-17"
    phase(state, "orders", [], "ATTACK_CENTER")
    state = act(state, "top", "give_orders", {"leaders": ["F-L1"]})
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [[2, 6]]}) == "CCN-12"
    state = act(state, "top", "move", {"piece": "F-L1", "path": [[2, 6]]})
    assert state.units["F-LN2"].hex == Hex(1, 6)


def test_ccn19_attaching_orders_no_unit() -> None:
    """CCN-19: the unit a leader joins is not ordered by it, nor the unit it left."""
    state = only(fresh(), ["F-LN2", "F-L1", "F-LC1"])
    put(state, "F-LC1", 1, 8)
    phase(state, "orders", [], "ATTACK_CENTER")
    state = act(state, "top", "give_orders", {"leaders": ["F-L1"]})
    state = act(state, "top", "move", {"piece": "F-L1", "path": [[1, 7], [1, 8]]})
    assert attached(state, state.units["F-LC1"]) is state.leaders["F-L1"]
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [[2, 8]]}) == "CCN-12"
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [[2, 6]]}) == "CCN-12"


def test_ccn20_ccn133_a_leader_with_a_square_detaches_only_as_it_leaves_square() -> None:
    """CCN-20 (CCN-133): a leader attached to a square may not be ordered to detach, unless the
    square is ordered to leave square this turn."""
    from games.commands_colors_napoleonics.deck import to_square_track

    state = hand(
        fresh("bottom"), "bottom", ("PROBE_LEFT", "PROBE_CENTER", "ATTACK_LEFT", "FORWARD")
    )
    state.deck, state.units["B-LN2"].in_square = to_square_track(state.deck, "bottom", Rng(2))
    phase(state, "orders", [], "ATTACK_CENTER")
    assert refused(state, "bottom", "give_orders", {"leaders": ["B-L1"]}) == "CCN-20"
    both = {"units": ["B-LN2"], "leaders": ["B-L1"]}
    assert refused(state, "bottom", "give_orders", both) == "CCN-20"
    state = act(state, "bottom", "give_orders", {**both, "leave_square": ["B-LN2"]})
    assert state.units["B-LN2"].in_square is None
    state = act(state, "bottom", "move", {"piece": "B-L1", "path": [[7, 6]]})
    assert state.units["B-LN2"].hex == Hex(6, 6)


def test_ccn21_a_lone_leader_needs_one_order() -> None:
    """CCN-21: a lone leader moves only when ordered, and its order counts against the card."""
    state = fresh("bottom")
    phase(state, "orders", [], "PROBE_CENTER")  # 2 orders in the centre
    three = {"units": ["B-LN2", "P-LN1"], "leaders": ["P-L1"]}
    assert refused(state, "bottom", "give_orders", three) == "CCN-188"
    state = act(state, "bottom", "give_orders", {"units": ["P-LN1"]})
    assert refused(state, "bottom", "move", {"piece": "P-L1", "path": [[7, 6]]}) == "CCN-12"
    state = fresh("bottom")
    phase(state, "orders", [], "PROBE_CENTER")
    state = act(state, "bottom", "give_orders", {"units": ["P-LN1"], "leaders": ["P-L1"]})
    state = act(state, "bottom", "move", {"piece": "P-L1", "path": [[7, 6]]})
    assert state.leaders["P-L1"].hex == Hex(7, 6)


# --- 3.5: movement --------------------------------------------------------------------------------


def test_ccn26_a_unit_joining_a_lone_leader_stops() -> None:
    """CCN-26: a unit may enter a hex holding only a lone friendly leader; it stops there and the
    leader attaches."""
    state = only(fresh("bottom"), ["B-HC1", "P-L1"])
    put(state, "B-HC1", 5, 1)
    put(state, "P-L1", 5, 2)
    phase(state, "move", ["B-HC1"], "PROBE_LEFT")
    through = {"piece": "B-HC1", "path": [[5, 2], [5, 3]]}
    assert refused(state, "bottom", "move", through) == "CCN-26"
    state = act(state, "bottom", "move", {"piece": "B-HC1", "path": [[5, 2]]})
    assert attached(state, state.units["B-HC1"]) is state.leaders["P-L1"]


def test_ccn27_a_unit_may_move_into_another_section() -> None:
    """CCN-27: the section of the order does not bind the move."""
    state = only(fresh(), ["F-LC1"])
    assert sections(state, Hex(1, 9), "top") == {Section.LEFT}
    phase(state, "orders", [], "PROBE_LEFT")
    state = act(state, "top", "give_orders", {"units": ["F-LC1"]})
    state = act(state, "top", "move", {"piece": "F-LC1", "path": [[1, 8], [1, 7], [1, 6]]})
    assert state.units["F-LC1"].hex == Hex(1, 6)
    assert sections(state, Hex(1, 6), "top") == {Section.CENTER}


def test_ccn28_nothing_leaves_the_board() -> None:
    """CCN-28: no step off the board, no exit but the battle notes' (SR-1: French cavalry from
    the British baseline)."""
    state = only(fresh(), ["F-LC1", "F-LN2"])
    put(state, "F-LC1", 0, 12)
    phase(state, "move", ["F-LC1", "F-LN2"], "FORWARD")
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [[0, 13]]}) == "CCN-28"
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [], "exit": True}) == "CCN-28"
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [], "exit": True}) == "CCN-28"
    put(state, "F-LC1", 8, 9)
    state = act(state, "top", "move", {"piece": "F-LC1", "path": [], "exit": True})
    assert "F-LC1" not in state.units


def test_ccn32_ccn33_a_leader_moves_up_to_three_through_friends() -> None:
    """CCN-32: a lone leader moves 0-3 hexes; CCN-33: it may pass hexes with friendly units."""
    state = fresh("bottom")
    phase(state, "move", ["P-L1"], "PROBE_CENTER")
    through = [[7, 7], [6, 7], [5, 7]]  # P-LN1 stands at (7,7)
    assert legal(state, "bottom", "move", {"piece": "P-L1", "path": through})
    assert refused(state, "bottom", "move", {"piece": "P-L1", "path": [*through, [4, 7]]}) == (
        "CCN-31"
    )
    state = act(state, "bottom", "move", {"piece": "P-L1", "path": through})
    assert state.leaders["P-L1"].hex == Hex(5, 7)
    assert attached(state, state.units["P-LN1"]) is None


def test_ccn34_a_lone_leader_may_stop_with_a_friendly_unit() -> None:
    """CCN-34: a lone leader that enters a friendly unit's hex may stop and attaches; its move
    ends."""
    state = fresh("bottom")
    phase(state, "move", ["P-L1"], "PROBE_CENTER")
    state = act(state, "bottom", "move", {"piece": "P-L1", "path": [[7, 7]]})
    assert attached(state, state.units["P-LN1"]) is state.leaders["P-L1"]
    assert refused(state, "bottom", "move", {"piece": "P-L1", "path": [[6, 7]]}) == "CCN-24"


def test_ccn38_terrain_stops_and_impassable_terrain_apply_to_leaders() -> None:
    """CCN-38: a leader entering a forest stops (CCN-30); it never enters a rocky hill
    (CCN-29)."""
    state = only(fresh("bottom"), ["P-L1"])
    put(state, "P-L1", 8, 9)
    phase(state, "move", ["P-L1"], "PROBE_RIGHT")
    assert refused(state, "bottom", "move", {"piece": "P-L1", "path": [[7, 9], [6, 8]]}) == (
        "CCN-30"
    )
    assert legal(state, "bottom", "move", {"piece": "P-L1", "path": [[7, 9]]})
    put(state, "P-L1", 4, 10)
    assert refused(state, "bottom", "move", {"piece": "P-L1", "path": [[3, 10]]}) == "CCN-29"


def test_ccn39_a_path_of_adjacent_hexes_and_no_zones_of_control() -> None:
    """CCN-39: each step to an adjacent hex, never back on itself; moving past an enemy and away
    from it is free."""
    state = only(fresh(), ["F-LC1", "B-LN1"])
    put(state, "B-LN1", 2, 9)  # next to (1,8)
    phase(state, "move", ["F-LC1"], "PROBE_LEFT")
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [[1, 7]]}) == "CCN-39"
    back = {"piece": "F-LC1", "path": [[1, 8], [1, 7], [1, 8]]}
    assert refused(state, "top", "move", back) == "CCN-39"
    state = act(state, "top", "move", {"piece": "F-LC1", "path": [[1, 8], [1, 7], [1, 6]]})
    assert state.units["F-LC1"].hex == Hex(1, 6)


def _light_fires(path: list[list[int]]) -> GameState:
    state = only(fresh(), ["F-LT1", "B-LN1"])
    put(state, "F-LT1", 2, 4)
    put(state, "B-LN1", 5, 4)
    phase(state, "move", ["F-LT1"], "PROBE_RIGHT")
    state = act(state, "top", "move", {"piece": "F-LT1", "path": path})
    return act(state, "top", "end_moves", {})


def test_ccn40_moved_is_the_path_taken() -> None:
    """CCN-40: the hexes actually moved set the ranged dice (CCN-55) and whether the unit may
    battle (CCN-31): French light infantry, 4 blocks, 1 hex moved: ceil(4/2) + 1 (CCN-56) = 3 dice;
    2 hexes: no fire."""
    state = _light_fires([[3, 4]])
    state = act(state, "top", "battle", fire("F-LT1", "B-LN1"), ["SABRE"] * 3)
    assert len(rolls(state)[0]["faces"]) == 3
    state = _light_fires([[3, 4], [3, 5]])
    assert refused(state, "top", "battle", fire("F-LT1", "B-LN1")) == "CCN-31"


# --- 3.6, 3.7: combat -----------------------------------------------------------------------------


def _at_range_two() -> GameState:
    """French light infantry (3,4), 4 blocks, unmoved; British line (5,4) and (5,5) with its
    leader, range 2, clear."""
    state = only(fresh(), ["F-LT1", "B-LN1", "B-LN2", "B-L1", "F-LN1", "F-LN3"])
    put(state, "F-LT1", 3, 4)
    put(state, "B-LN1", 5, 4)
    put(state, "B-LN2", 5, 5)  # with B-L1, also at range 2
    put(state, "B-L1", 5, 5)
    put(state, "F-LN1", 1, 4)
    phase(state, "battle", ["F-LT1", "F-LN1"], "PROBE_RIGHT")
    return state


def test_ccn41_ccn44_one_battle_and_one_combat_type_a_turn() -> None:
    """CCN-41: a unit that fired may not melee as well this turn (CCN-44: one battle)."""
    state = _at_range_two()
    state = act(state, "top", "battle", fire("F-LT1", "B-LN1"), ["SABRE"] * 5)
    put(state, "B-LN1", 4, 4)  # now adjacent
    assert refused(state, "top", "battle", melee("F-LT1", "B-LN1")) == "CCN-44"


def test_ccn43_battling_is_optional() -> None:
    """CCN-43: an ordered unit next to an enemy may end the battles without battling."""
    state = _at_range_two()
    put(state, "B-LN1", 4, 4)
    assert legal(state, "top", "battle", melee("F-LT1", "B-LN1"))
    state = act(state, "top", "end_battles", {})
    assert state.active == "bottom"


def test_ccn45_one_target_a_roll() -> None:
    """CCN-45: the battle names one target; dice cannot be split."""
    payload: Any = {"unit": "F-LT1", "target": ["B-LN1", "B-LN2"], "combat": "ranged"}
    assert R.payload_errors("battle", payload)
    state = _at_range_two()
    assert R.validate(state, act_of("top", "battle", payload))


def test_ccn47_a_lone_leader_never_battles() -> None:
    """CCN-47: a leader is no battling unit, even ordered."""
    state = only(fresh(), ["F-LT1", "B-LN1", "F-LN2", "F-L1"])
    put(state, "F-LT1", 3, 4)
    put(state, "B-LN1", 5, 4)
    phase(state, "battle", ["F-L1"], "PROBE_RIGHT")
    put(state, "F-L1", 4, 4)  # lone, next to B-LN1 at (5,4)
    assert refused(state, "top", "battle", melee("F-L1", "B-LN1")) == "CCN-42"


@pytest.mark.parametrize("blocks", [1, 2, 4])
def test_ccn48_the_dice_are_the_current_blocks(blocks: int) -> None:
    """CCN-48: Portuguese line infantry (no type or national bonus) melees the French light
    cavalry with as many dice as it has blocks left."""
    state = only(fresh("bottom"), ["P-LN1", "F-LC1"])
    put(state, "P-LN1", 5, 5, blocks=blocks)
    put(state, "F-LC1", 4, 5)
    phase(state, "battle", ["P-LN1"])
    state = act(state, "bottom", "battle", melee("P-LN1", "F-LC1"), ["INF"] * blocks)
    assert len(rolls(state)[0]["faces"]) == blocks


def test_ccn50_a_ranged_target_is_an_enemy_unit_in_range_and_sight() -> None:
    """CCN-50: an enemy unit, not a friend; within range (light infantry 2, CCN-51); in line of
    sight (a unit between blocks, CCN-180)."""
    state = _at_range_two()
    assert legal(state, "top", "battle", fire("F-LT1", "B-LN1"))
    assert refused(state, "top", "battle", fire("F-LT1", "F-LN1")) == "CCN-50"
    put(state, "B-LN1", 6, 4)  # range 3
    assert refused(state, "top", "battle", fire("F-LT1", "B-LN1")) == "CCN-51"
    put(state, "B-LN1", 5, 4)
    put(state, "F-LN1", 4, 4)  # the line runs between (4,4) and (4,5): one side blocks: clear
    assert legal(state, "top", "battle", fire("F-LT1", "B-LN1"))
    put(state, "F-LN3", 4, 5)  # both sides block (CCN-181)
    assert refused(state, "top", "battle", fire("F-LT1", "B-LN1")) in ("CCN-180", "CCN-181")


def test_ccn52_ccn74_ccn79_ccn82_ranged_hits_then_the_check_then_the_retreat() -> None:
    """CCN-52 steps 8-9 (CCN-74, CCN-79, CCN-82): all hits are removed, the leader check is
    rolled, and only then the owner answers the flags; CCN-53: no battle back after it."""
    state = _at_range_two()
    state = act(
        state,
        "top",
        "battle",
        fire("F-LT1", "B-LN2"),
        ["INF", "FLAG", "FLAG", "CAV", "SABRE", "SABRE", "INF"],  # 5 dice, then the 2-die check
    )
    assert state.units["B-LN2"].blocks == 3
    assert [len(r["faces"]) for r in rolls(state)] == [5, 2]
    assert "B-L1" in state.leaders
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert (state.pending["lo"], state.pending["hi"]) == (1, 2)  # the surviving leader: 1
    state = act(state, "bottom", "retreat", {"flags": 1, "path": [[6, 6]]})
    assert state.pending is None
    assert state.combat is None  # CCN-53: no battle back, no advance


def test_ccn53_no_retire_against_ranged_combat() -> None:
    """CCN-53: cavalry fired at is not asked to retire and never battles back."""
    state = only(fresh(answer=True), ["F-LT1", "B-HC1"])
    put(state, "F-LT1", 3, 4)
    put(state, "B-HC1", 5, 4)
    phase(state, "battle", ["F-LT1"], "PROBE_RIGHT")
    state = act(state, "top", "battle", fire("F-LT1", "B-HC1"), ["INF"] * 5)
    assert state.pending is None
    assert state.combat is None
    assert state.units["B-HC1"].blocks == 3


def test_ccn61_light_infantry_that_moved_two_does_not_melee() -> None:
    """CCN-61: light infantry moved 2 hexes may not melee (CCN-31)."""
    state = only(fresh(), ["F-LT1", "B-LN1"])
    put(state, "F-LT1", 2, 4)
    put(state, "B-LN1", 4, 5)
    phase(state, "move", ["F-LT1"], "PROBE_RIGHT")
    state = act(state, "top", "move", {"piece": "F-LT1", "path": [[3, 4], [3, 5]]})
    state = act(state, "top", "end_moves", {})
    assert refused(state, "top", "battle", melee("F-LT1", "B-LN1")) == "CCN-31"


# --- 3.11-3.13: leader checks, retreats, leader retreats ------------------------------------------


def _french_line_attacks(target: str, keep: Iterable[str], at: tuple[int, int]) -> GameState:
    """F-LN1 (French line, 4 blocks, +1 against infantry: 5 dice) at (4,5) melees `target`
    put at `at`."""
    state = only(fresh(), ["F-LN1", target, *keep])
    put(state, "F-LN1", 4, 5)
    put(state, target, *at)
    phase(state, "battle", ["F-LN1"])
    return state


def test_ccn85_a_lone_friendly_leader_stops_a_retreat() -> None:
    """CCN-85: a unit without a leader retreats into a hex holding only a lone friendly leader:
    the leader attaches, the retreat ends there and the hexes left are not lost (militia, 3 hexes
    a flag, CCN-83)."""
    state = _french_line_attacks("P-LN1", ["P-L1"], (5, 5))
    state.units["P-LN1"].type = "militia_infantry"
    put(state, "P-L1", 6, 5)
    no_hit = ["FLAG", "CAV", "CAV", "CAV", "CAV"]
    state = act(state, "top", "battle", melee("F-LN1", "P-LN1"), no_hit)
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    state = act(state, "bottom", "retreat", {"flags": 1, "path": [[6, 5]]})
    assert state.units["P-LN1"].hex == Hex(6, 5)
    assert state.units["P-LN1"].blocks == 4
    assert attached(state, state.units["P-LN1"]) is state.leaders["P-L1"]


def test_ccn87_an_attached_leader_retreats_with_its_unit() -> None:
    """CCN-87: the leader goes into the same hex; CCN-91: it lets the unit ignore 1 flag."""
    state = _french_line_attacks("B-LN2", ["B-L1"], (5, 5))
    put(state, "B-L1", 5, 5)
    state = act(
        state, "top", "battle", melee("F-LN1", "B-LN2"), ["FLAG", "FLAG", "CAV", "CAV", "CAV"]
    )
    assert state.pending is not None
    assert (state.pending["lo"], state.pending["hi"]) == (1, 2)
    state = act(state, "bottom", "retreat", {"flags": 1, "path": [[6, 6]]})
    assert state.units["B-LN2"].hex == state.leaders["B-L1"].hex == Hex(6, 6)


def test_ccn88_ccn89_the_leader_of_an_eliminated_unit_retreats_1_to_3() -> None:
    """CCN-89: flags rolled at a unit that is eliminated do not touch its leader; CCN-88, CCN-77:
    after its 1-die check it retreats 1, 2 or 3 hexes, as its owner chooses."""
    from games.commands_colors_napoleonics.combat import leader_choices

    state = _french_line_attacks("B-LN2", ["B-L1"], (5, 5))
    put(state, "B-L1", 5, 5)
    state.units["B-LN2"].blocks = 1
    state = act(
        state,
        "top",
        "battle",
        melee("F-LN1", "B-LN2"),
        ["INF", "FLAG", "FLAG", "FLAG", "FLAG", "ART"],  # eliminated; the check: no sabre
    )
    assert "B-LN2" not in state.units
    assert [len(r["faces"]) for r in rolls(state)] == [5, 1]
    assert state.pending is not None
    assert state.pending["kind"] == "leader_retreat"
    choices: Any = leader_choices(state, "B-L1")
    lengths = {len(c["path"]) for c in choices}
    assert lengths == {1, 2, 3}
    state = act(state, "bottom", "leader_retreat", {"path": [[6, 5]], "off": False})
    assert state.leaders["B-L1"].hex == Hex(6, 5)


def test_ccn97_a_leader_without_a_retreat_is_eliminated() -> None:
    """CCN-97: a lone leader attacked and not eliminated must retreat; with no hex open (a rocky
    hill and an enemy leader in the way) it is eliminated and the attacker gains a banner."""
    state = only(fresh("bottom"), ["F-L1", "B-LN2", "B-L1"])
    put(state, "F-L1", 3, 11)  # its side's hexes: (2,11) rocky hill, (2,12)
    put(state, "B-L1", 2, 12)
    put(state, "B-LN2", 4, 11)
    phase(state, "battle", ["B-LN2"])
    state = act(state, "bottom", "battle", melee("B-LN2", "F-L1"), ["FLAG", "INF", "INF", "INF"])
    assert "F-L1" not in state.leaders
    assert state.banners["bottom"] == 1


def test_ccn98_ccn99_where_a_retreating_leader_may_pass_and_stop() -> None:
    """CCN-98: through friendly units and lone friendly leaders; CCN-99: never ending on a
    friendly leader or an enemy unit (passing an enemy unit is an escape, CCN-100)."""
    from games.commands_colors_napoleonics.combat import leader_choices

    state = only(fresh(), ["F-LN1", "P-L1", "B-L1", "P-LN1", "F-LN3"])
    put(state, "P-L1", 5, 7)
    put(state, "F-LN1", 4, 7)
    put(state, "B-L1", 6, 7)  # a lone friendly leader
    put(state, "P-LN1", 7, 7)  # a friendly unit without leader
    put(state, "F-LN3", 6, 8)  # an enemy unit
    phase(state, "battle", ["F-LN1"])
    state = act(state, "top", "battle", melee("F-LN1", "P-L1"), ["FLAG"] * 4)
    choices: Any = leader_choices(state, "P-L1")
    paths = [tuple(tuple(h) for h in c["path"]) for c in choices if not c["off"]]
    assert ((6, 7),) not in paths  # the friendly leader's hex
    assert ((6, 7), (7, 7)) in paths  # through it, onto the friendly unit
    assert ((6, 7), (7, 7), (8, 7)) in paths  # through both
    assert ((6, 8),) not in paths  # an enemy unit's hex
    assert ((6, 8), (7, 8)) in paths  # through it: an escape
    state = act(state, "bottom", "leader_retreat", {"path": [[6, 7], [7, 7]], "off": False})
    assert attached(state, state.units["P-LN1"]) is state.leaders["P-L1"]


# --- 3.14, 3.15: follow-ups and battle back -------------------------------------------------------


def test_ccn103_no_advance_after_ranged_combat_or_for_artillery() -> None:
    """CCN-103: a unit that fired, and artillery after a melee, never take ground."""
    state = _at_range_two()
    state.units["B-LN1"].blocks = 1
    state = act(state, "top", "battle", fire("F-LT1", "B-LN1"), ["INF", "CAV", "CAV", "CAV", "CAV"])
    assert "B-LN1" not in state.units
    assert state.pending is None
    assert state.combat is None
    state = only(fresh(), ["F-FA1", "B-LN1"])
    put(state, "B-LN1", 3, 2, blocks=1)  # below F-FA1's hill (2,2)
    phase(state, "battle", ["F-FA1"], "PROBE_RIGHT")
    state = act(state, "top", "battle", melee("F-FA1", "B-LN1"), ["INF", "CAV", "CAV", "CAV"])
    assert "B-LN1" not in state.units
    assert state.pending is None
    assert state.combat is None
    assert state.units["F-FA1"].hex == Hex(2, 2)


def test_ccn42_ccn107_a_battle_is_finished_before_the_next_one() -> None:
    """CCN-42, CCN-107: while a melee's follow-up is open no other battle may be declared."""
    state = _french_line_attacks("B-LN2", ["F-LN3", "B-LN1"], (5, 5))
    put(state, "B-LN1", 5, 8)
    put(state, "F-LN3", 4, 8)
    state.turn.orders = ["F-LN1", "F-LN3"]
    state.units["B-LN2"].blocks = 1
    state = act(
        state, "top", "battle", melee("F-LN1", "B-LN2"), ["INF", "CAV", "CAV", "CAV", "CAV"]
    )
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"
    assert refused(state, "top", "battle", melee("F-LN3", "B-LN1")) == "CCN-42"
    state = act(state, "top", "take_ground", {"advance": False, "extra": None})
    assert legal(state, "top", "battle", melee("F-LN3", "B-LN1"))


def test_ccn108_to_ccn112_battle_back_against_each_attacker_never_answered() -> None:
    """CCN-108: a defender still in its hex may battle back; CCN-109: worked out like an attack
    (hits, flags, retreat of the attacker); CCN-110: never answered by another battle back, no
    advance for the unit battling back; CCN-111: no First Strike against it; CCN-112: meleed by
    two units it battles back against each."""
    state = only(fresh(answer=True), ["F-LN1", "F-LN3", "B-LN1"])
    state.policies = {"bottom": {"melee_response": "none"}}  # the top player is asked
    hand(state, "top", ("FIRST_STRIKE", "PROBE_LEFT"))
    put(state, "B-LN1", 5, 5)
    put(state, "F-LN1", 4, 5)
    put(state, "F-LN3", 4, 6)  # in the town: out of it 0, into it -2 (CCN-164)
    state.turn.orders = ["F-LN1", "F-LN3"]
    phase(state, "battle", ["F-LN1", "F-LN3"])
    miss = ["CAV"] * 5
    state = act(state, "top", "battle", melee("F-LN1", "B-LN1"), miss)
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"
    state = act(state, "bottom", "battle_back", {"battle": True}, ["INF", "ART", "ART", "ART"])
    assert state.units["F-LN1"].blocks == 3
    assert state.pending is None  # no D-09 for the top player, no battle back of the battle back
    assert state.combat is None
    state = act(state, "top", "battle", melee("F-LN3", "B-LN1"), miss)
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"  # the second attacker too
    state = act(state, "bottom", "battle_back", {"battle": True}, ["FLAG", "ART"])
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"  # 4 - 2 = 2 dice into the town; 1 flag
    state = act(state, "top", "retreat", {"flags": 1, "path": [[3, 6]]})
    assert state.units["F-LN3"].hex == Hex(3, 6)
    assert state.units["B-LN1"].hex == Hex(5, 5)  # no advance for the unit battling back
    assert state.pending is None
    assert state.combat is None


def test_ccn113_a_defender_forced_out_does_not_battle_back() -> None:
    """CCN-113: the retreat ends next to the attacker; there is no battle back."""
    state = _french_line_attacks("B-LN1", [], (5, 5))
    state = act(
        state, "top", "battle", melee("F-LN1", "B-LN1"), ["FLAG", "CAV", "CAV", "CAV", "CAV"]
    )
    state = act(state, "bottom", "retreat", {"flags": 1, "path": [[6, 5]]})
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"
    state = act(state, "top", "take_ground", {"advance": False, "extra": None})
    assert state.pending is None
    assert state.combat is None


# --- 3.16: retire and reform ----------------------------------------------------------------------


def test_ccn115_ccn117_ccn120_who_may_retire_and_how_far() -> None:
    """CCN-115: only cavalry meleed by infantry; CCN-117: only with 2 steps towards its side;
    CCN-120: 1 step onto a lone friendly leader is enough."""
    from games.commands_colors_napoleonics.combat import response_choices, retire_paths

    state = only(fresh("bottom", answer=True), ["F-LC1", "B-LN1", "B-HC1", "F-LN1", "F-LN3"])
    hand(state, "top", ("PROBE_LEFT", "ATTACK_LEFT"))
    put(state, "F-LC1", 4, 8)
    put(state, "B-HC1", 5, 8)
    put(state, "B-LN1", 5, 7)
    phase(state, "battle", ["B-HC1", "B-LN1"])
    state = act(state, "bottom", "battle", melee("B-HC1", "F-LC1"))
    assert response_choices(state) == ["none"]  # cavalry attacks: no retirement
    keep = ["F-LC1", "B-LN1", "F-LN1", "F-LN2", "F-LN3", "F-L1"]
    state = only(fresh("bottom", answer=True), keep)
    hand(state, "top", ("PROBE_LEFT", "ATTACK_LEFT"))
    put(state, "F-LC1", 4, 8)
    put(state, "B-LN1", 5, 7)
    put(state, "F-LN1", 3, 7)  # the first steps towards row 0: (3,7), (3,8)
    put(state, "F-LN2", 2, 8)  # the second steps from (3,8): (2,8), (2,9)
    put(state, "F-LN3", 2, 9)
    put(state, "F-L1", 1, 1)
    phase(state, "battle", ["B-LN1"])
    state = act(state, "bottom", "battle", melee("B-LN1", "F-LC1"))
    assert response_choices(state) == ["none"]  # 1 step only: no retirement
    put(state, "F-L1", 3, 8)  # a lone friendly leader on the first step
    assert retire_paths(state, state.units["F-LC1"]) == [[Hex(3, 8)]]
    assert response_choices(state) == ["none", "retire"]


def test_ccn144_combined_arms_against_retiring_cavalry() -> None:
    """CCN-144 (CCN-118): the artillery's dice are rolled with the infantry's and only cavalry
    faces hit."""
    state = only(fresh(answer=True), ["F-LT1", "F-FA1", "B-HC1"])
    state.policies = {"top": {"melee_response": "none"}}
    put(state, "B-HC1", 3, 2)  # next to F-FA1 (2,2) and F-LT1 (2,3)
    phase(state, "battle", ["F-LT1", "F-FA1"], "PROBE_RIGHT")
    state = act(state, "top", "battle", {**melee("F-LT1", "B-HC1"), "artillery": ["F-FA1"]})
    assert state.pending is not None
    assert state.pending["kind"] == "melee_response"
    faces = ["CAV", "SABRE", "FLAG", "INF", "CAV", "SABRE", "FLAG", "ART"]
    state = act(state, "bottom", "melee_response", {"response": "retire"}, faces)
    assert len(rolls(state)[0]["faces"]) == 8  # 4 (light infantry) + 4 (foot artillery melee)
    assert state.units["B-HC1"].blocks == 1  # the 2 CAV faces only


# --- 3.17, 3.18: squares and combined arms --------------------------------------------------------


def test_ccn131_a_square_supports_but_is_not_supported() -> None:
    """CCN-131 (CCN-92): a square counts as one of the two supporting neighbours of a unit not
    in square; the square itself receives no support."""
    from games.commands_colors_napoleonics.retreat import flag_allowance, support

    state = only(fresh("bottom"), ["B-LN1", "B-LN2", "P-LN1"])
    put(state, "B-LN2", 6, 6)
    put(state, "B-LN1", 6, 5)
    put(state, "P-LN1", 6, 7)
    state.units["B-LN1"].in_square = 1
    assert support(state, state.units["B-LN2"])
    assert flag_allowance(state, state.units["B-LN2"], True, False) == 1
    state.units["B-LN1"].in_square = None
    state.units["B-LN2"].in_square = 1
    assert flag_allowance(state, state.units["B-LN2"], True, False) == 0


def test_ccn141_battle_back_against_the_melee_unit_only() -> None:
    """CCN-141 (CCN-109): after a combined-arms melee the defender battles back against the
    infantry, never the artillery."""
    state = only(fresh(), ["F-LT1", "F-FA1", "B-LN1"])
    put(state, "B-LN1", 3, 2)
    phase(state, "battle", ["F-LT1", "F-FA1"], "PROBE_RIGHT")
    state = act(
        state, "top", "battle", {**melee("F-LT1", "B-LN1"), "artillery": ["F-FA1"]}, ["CAV"] * 8
    )
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"
    assert state.pending["against"] == "F-LT1"
    # British line, 4 blocks, into the hill: 4 - 1 = 3 dice, all at the light infantry
    state = act(state, "bottom", "battle_back", {"battle": True}, ["INF", "INF", "INF"])
    assert state.units["F-LT1"].blocks == 1
    assert state.units["F-FA1"].blocks == 3


# --- 3.20: terrain in play ------------------------------------------------------------------------


def test_ccn151_ccn152_a_forest_stops_and_only_light_infantry_battles_after_entering() -> None:
    """CCN-151: entering a forest stops the unit; CCN-152: it may not battle this turn, unless it
    is light infantry (rifles here)."""
    state = only(fresh("bottom"), ["B-LN1", "B-RI1", "F-LN3", "F-LC1"])
    put(state, "B-LN1", 7, 8)
    put(state, "B-RI1", 7, 10)
    put(state, "F-LN3", 5, 9)
    put(state, "F-LC1", 5, 10)
    phase(state, "move", ["B-LN1", "B-RI1"], "PROBE_RIGHT")
    state = act(state, "bottom", "move", {"piece": "B-LN1", "path": [[6, 9]]})
    assert refused(state, "bottom", "move", {"piece": "B-RI1", "path": [[6, 10], [5, 11]]}) == (
        "CCN-30"
    )
    state = act(state, "bottom", "move", {"piece": "B-RI1", "path": [[6, 10]]})
    state = act(state, "bottom", "end_moves", {})
    assert refused(state, "bottom", "battle", melee("B-LN1", "F-LN3")) == "CCN-152"
    assert legal(state, "bottom", "battle", melee("B-RI1", "F-LC1"))


def test_ccn173_a_unit_entering_a_stream_stops_and_may_battle() -> None:
    """CCN-173: a shallow river stops the unit; it may still battle this turn."""
    state = only(fresh(), ["F-LN1", "B-LN1"])
    put(state, "F-LN1", 3, 4)
    put(state, "B-LN1", 5, 4)
    phase(state, "move", ["F-LN1"])
    state = act(state, "top", "move", {"piece": "F-LN1", "path": [[4, 4]]})
    assert "F-LN1" not in state.turn.no_battle
    state = act(state, "top", "end_moves", {})
    assert legal(state, "top", "battle", melee("F-LN1", "B-LN1"))
    state = only(fresh(), ["F-LC1"])
    put(state, "F-LC1", 3, 4)
    phase(state, "move", ["F-LC1"], "PROBE_RIGHT")
    assert refused(state, "top", "move", {"piece": "F-LC1", "path": [[4, 4], [5, 4]]}) == "CCN-30"


def test_ccn62_grenadiers_melee_with_one_more_die() -> None:
    """CCN-62: a grenadier unit adds 1 melee die to its blocks (French line's national +1 is not
    a grenadier's)."""
    state = only(fresh("bottom"), ["P-LN1", "F-LC1"])
    put(state, "P-LN1", 5, 5, blocks=3)
    put(state, "F-LC1", 4, 5)
    state.units["P-LN1"].type = "grenadier"
    phase(state, "battle", ["P-LN1"])
    state = act(state, "bottom", "battle", melee("P-LN1", "F-LC1"), ["INF"] * 4)
    assert len(rolls(state)[0]["faces"]) == 4


def test_ccn94_a_grenadier_ignores_one_flag() -> None:
    """CCN-94: the unit type's allowance (grenadier +1), with no leader and no support."""
    state = _french_line_attacks("P-LN1", [], (5, 5))
    no_hit = ["FLAG", "CAV", "CAV", "CAV", "CAV"]
    plain = act(state, "top", "battle", melee("F-LN1", "P-LN1"), no_hit)
    assert plain.pending is not None
    assert (plain.pending["lo"], plain.pending["hi"]) == (1, 1)
    state.units["P-LN1"].type = "grenadier"
    grenadier = act(state, "top", "battle", melee("F-LN1", "P-LN1"), no_hit)
    assert grenadier.pending is not None
    assert (grenadier.pending["lo"], grenadier.pending["hi"]) == (0, 1)


def test_ccn136_short_supply_never_picks_a_square() -> None:
    """CCN-136: a unit in square cannot be the target of Short Supply."""
    from games.commands_colors_napoleonics.deck import to_square_track

    state = hand(fresh(), "top", ("SHORT_SUPPLY", "PROBE_CENTER"))
    state = hand(state, "bottom", ("PROBE_LEFT", "PROBE_CENTER", "ATTACK_LEFT", "FORWARD"))
    state.deck, state.units["B-LN2"].in_square = to_square_track(state.deck, "bottom", Rng(2))
    state = act(state, "top", "play_card", {"card": "SHORT_SUPPLY"})
    assert refused(state, "top", "give_orders", {"short_supply": "B-LN2"}) == "CCN-136"
    assert legal(state, "top", "give_orders", {"short_supply": "B-LN1"})


def test_ccn140_no_sabre_hits_in_combined_arms_with_rifles() -> None:
    """CCN-140: the combined roll of rifles and artillery is scored as melee with the rifles'
    sabre rule: no die scores a sabre hit, the artillery's neither (CCN-63)."""
    state = only(fresh("bottom"), ["B-RI1", "B-FA1", "F-LN1"])
    put(state, "F-LN1", 6, 5)  # next to B-FA1 on its hill (7,5) and to B-RI1
    put(state, "B-RI1", 6, 4)
    phase(state, "battle", ["B-RI1", "B-FA1"], "PROBE_LEFT")
    battle = {**melee("B-RI1", "F-LN1"), "artillery": ["B-FA1"]}
    state = act(state, "bottom", "battle", battle, ["SABRE"] * 7 + ["INF"])
    assert len(rolls(state)[0]["faces"]) == 8  # 4 (rifles) + 4 (foot artillery melee)
    assert state.units["F-LN1"].blocks == 3  # the INF face only


def test_ccn200_la_grande_manoeuvre_moves_four_and_never_battles() -> None:
    """CCN-200: the strategic move: up to 4 hexes (terrain stops still apply), no battle."""
    state = hand(fresh(), "top", ("LA_GRANDE_MANOEUVRE", "PROBE_CENTER"))
    state = act(state, "top", "play_card", {"card": "LA_GRANDE_MANOEUVRE"})
    state = act(state, "top", "give_orders", {"units": ["F-LN2"], "mode": "strategic"})
    four = [[2, 6], [3, 5], [4, 5], [5, 5]]
    assert refused(state, "top", "move", {"piece": "F-LN2", "path": [*four, [6, 5]]}) == "CCN-31"
    town = {"piece": "F-LN2", "path": [[2, 6], [3, 6], [4, 6], [5, 6]]}
    assert refused(state, "top", "move", town) == "CCN-30"
    state = act(state, "top", "move", {"piece": "F-LN2", "path": four})
    assert state.units["F-LN2"].hex == Hex(5, 5)
    state = act(state, "top", "end_moves", {})
    state.units["B-LN2"].hex = Hex(6, 5)
    state.leaders["B-L1"].hex = Hex(6, 5)
    assert refused(state, "top", "battle", melee("F-LN2", "B-LN2")) == "CCN-200"


# --- the promise: every rule of section 3 is tested or explained ----------------------------------

WHY_NOT = ("not built", "refused", "nothing to compute")


def _named(text: str, rule: str) -> bool:
    """`rule` (e.g. CCN-7) appears in `text` as itself, not as the start of CCN-70."""
    return re.search(re.escape(rule) + r"(?!\d)", text) is not None


def _section_3_ids(digest: str) -> list[str]:
    """The rule ids the digest's section 3 defines (`* **CCN-n**`, nested bullets too)."""
    assert "\n## 3. Rules" in digest
    section = digest.split("\n## 3. Rules", 1)[1].split("\n## 4.", 1)[0]
    found = set(re.findall(r"^\s*\* \*\*(CCN-\d+)\*\*", section, re.MULTILINE))
    return sorted(found, key=lambda r: int(r.removeprefix("CCN-")))


def _unexplained(ids: Iterable[str], tests: str, readme: str) -> list[str]:
    """The ids named neither in the tests nor in a README line that says why they are not."""
    reasons = [ln for ln in readme.splitlines() if any(w in ln.lower() for w in WHY_NOT)]
    return [r for r in ids if not _named(tests, r) and not any(_named(ln, r) for ln in reasons)]


def test_the_coverage_check_can_fail() -> None:
    """The check below: an id named nowhere, or in a README line without a reason, is reported;
    CCN-7 is not named by CCN-70; a README line with a reason explains its id."""
    ids = ["CCN-7", "CCN-8", "CCN-9"]
    tests = '"""CCN-70: something else. CCN-9."""'
    readme = "| CCN-7 | built |\nCCN-8 is not built yet (GAP-1)."
    assert _unexplained(ids, tests, readme) == ["CCN-7"]
    digest = "## 2. State\n* **CCN-1** no\n## 3. Rules\n* **CCN-2** a\n  * **CCN-3** b\n## 4. X\n"
    assert _section_3_ids(digest) == ["CCN-2", "CCN-3"]


def _digest_ids() -> list[str]:
    """Section 3's ids: read from the digest beside the repo (../shared) when it is there, and
    then the repo's copy of the list must equal it (so the copy stays current); a clone
    without ../shared (CI) checks against the copy."""
    kept = SNAPSHOT.read_text(encoding="utf-8").split()
    if DIGEST.is_file():
        ids = _section_3_ids(DIGEST.read_text(encoding="utf-8"))
        assert ids == kept, f"the digest's section 3 changed: update {SNAPSHOT.name}"
    return kept


def test_every_rule_of_section_3_is_tested_or_explained() -> None:
    """Every `CCN-n` of the digest's section 3 is named in a test file of this directory or in a
    README line saying why not ("not built", "refused", "nothing to compute")."""
    ids = _digest_ids()
    numbers = [int(r.removeprefix("CCN-")) for r in ids]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(numbers) >= 209
    tests = "\n".join(p.read_text(encoding="utf-8") for p in sorted(HERE.glob("*.py")))
    assert _unexplained(ids, tests, README.read_text(encoding="utf-8")) == []
