"""Infantry squares in play (digest 3.17, CCN-121..136; TC-14..16, TC-22, TC-24): forming
square as the answer to a cavalry melee, the random card to the track kept from the attacker,
the square's first fire and bounce flags, the 1-die caps, flags costing blocks, leaving square,
the card back on elimination."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.combat import response_choices
from games.commands_colors_napoleonics.dice import ScriptedDice
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.core.protocol import GameConfig
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import (
    EXAMPLE,
    act,
    act_of,
    put,
    rolls,
    view_of,
)

BRITISH_HAND = ("PROBE_LEFT", "PROBE_CENTER", "ATTACK_LEFT", "FORWARD", "ASSAULT_LEFT")


def setup(keep: Iterable[str], active: str = "top") -> GameState:
    state = R.setup(GameConfig(EXAMPLE, {}), Rng(11))
    state.active = active
    keep = set(keep)
    for uid in [u for u in state.units if u not in keep]:
        del state.units[uid]
        state.gone.append(uid)
    for lid in [ld for ld in state.leaders if ld not in keep]:
        del state.leaders[lid]
        state.gone.append(lid)
    return state


def hand(state: GameState, side: str, cards: tuple[str, ...]) -> None:
    draw = list(state.deck.draw) + list(state.deck.hand(side))
    for c in cards:
        draw.remove(c)
    state.deck = replace(
        state.deck, draw=tuple(draw), hands={**state.deck.hands, side: tuple(sorted(cards))}
    )


def charge(state: GameState, unit: str = "F-LC1", target: str = "B-LN2") -> GameState:
    state.phase, state.turn.card, state.turn.orders = "battle", "CAVALRY_CHARGE", [unit]
    return act(state, "top", "battle", {"unit": unit, "target": target, "combat": "melee"})


def square_setup() -> GameState:
    """French light cavalry at (5,7) against British line infantry at (6,7); the British hold
    5 cards (TC-14)."""
    state = setup(["F-LC1", "B-LN2", "F-L1"])
    hand(state, "bottom", BRITISH_HAND)
    put(state, "F-LC1", 5, 7)
    put(state, "F-L1", 5, 7)  # attached: it does not protect against a bounce (CCN-128)
    put(state, "B-LN2", 6, 7)
    state = charge(state)
    assert state.pending is not None
    assert state.pending["kind"] == "melee_response"
    assert "form_square" in response_choices(state)
    return state


def test_tc14_forming_square_hides_the_card_and_lowers_the_hand() -> None:
    """CCN-127: the square fires first; the cavalry then rolls 1 die at most."""
    state = square_setup()
    step = R.apply_with(
        state,
        act_of("bottom", "melee_response", {"response": "form_square"}),
        Rng(1),
        ScriptedDice(["INF", "INF"]),
    )
    state = step.state
    assert state.units["B-LN2"].in_square == 1  # marker 1 (CCN-123)
    assert len(state.deck.hand("bottom")) == 4
    (card,) = state.deck.track("bottom").values()
    top = view_of(state, "top")
    assert isinstance(top, dict)
    assert card not in str(top["deck"]["seats"]["bottom"])
    assert top["deck"]["seats"]["bottom"]["square_markers"] == [1]
    assert all(card not in e.text for e in step.log if e.audience is None)
    units = {u["id"]: u for u in top["map"]["units"]}
    assert units["B-LN2"]["in_square"] is True
    # (b) the square's [INF] does not hit cavalry; the cavalry attacks with 1 die, even with
    # Cavalry Charge: [INF] hits
    assert [r["purpose"] for r in rolls(state)] == ["square_fire", "melee"]
    assert state.units["B-LN2"].blocks == 3
    assert state.combat is None
    assert state.pending is None  # no battle back (AMB-15)


def test_tc14a_a_bounce_flag_cannot_be_ignored() -> None:
    """CCN-95: a bounce flag is never ignored."""
    state = square_setup()
    state = act(state, "bottom", "melee_response", {"response": "form_square"}, ["FLAG"])
    assert state.pending is not None
    assert state.pending["kind"] == "retreat"
    assert (state.pending["lo"], state.pending["hi"]) == (1, 1)  # the leader does not help
    state = act(state, "top", "retreat", {"flags": 1, "path": [[4, 7]]})
    assert state.units["F-LC1"].hex == Hex(4, 7)
    assert state.combat is None  # the cavalry does not roll


def test_tc14b_flags_on_a_square_cost_blocks() -> None:
    state = square_setup()
    # [INF] misses the cavalry; its 1 die [FLAG]: the square cannot retreat, no support may
    # ignore it (CCN-130), so the one answer is made at once: 1 block lost
    state = act(state, "bottom", "melee_response", {"response": "form_square"}, ["INF", "FLAG"])
    assert state.units["B-LN2"].blocks == 3
    assert state.units["B-LN2"].hex == Hex(6, 7)


def test_tc16_a_square_battles_back_with_one_die_and_no_new_card() -> None:
    """CCN-129: infantry melees a square normally; the square battles back with 1 die."""
    state = setup(["F-LN1", "F-LC1", "B-LN2"])
    state.policies = {"bottom": {"melee_response": "none"}}
    hand(state, "bottom", BRITISH_HAND[:4])
    put(state, "B-LN2", 6, 7)
    put(state, "F-LN1", 5, 7)
    put(state, "F-LC1", 6, 8)
    state.deck, marker = __import__(
        "games.commands_colors_napoleonics.deck", fromlist=["to_square_track"]
    ).to_square_track(state.deck, "bottom", Rng(2))
    state.units["B-LN2"].in_square = marker
    state.phase, state.turn.card, state.turn.orders = "battle", "ATTACK_CENTER", ["F-LN1", "F-LC1"]
    # French line infantry: 4 + 1 (against infantry, PUB-1) = 5 dice
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LN1", "target": "B-LN2", "combat": "melee"},
        ["ART"] * 5,
    )
    assert state.pending is not None
    assert state.pending["kind"] == "battle_back"
    state = act(state, "bottom", "battle_back", {"battle": True}, ["ART"])  # 1 die
    # the cavalry: the square fires first with 1 die, then the cavalry's 1 die
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LC1", "target": "B-LN2", "combat": "melee"},
        ["ART", "ART"],
    )
    assert [len(r["faces"]) for r in rolls(state)] == [1, 1]
    assert len(state.deck.track("bottom")) == 1


def test_tc15_a_square_attacks_cavalry_with_one_die_and_bounces_it() -> None:
    """CCN-132: a square attacks with 1 die at most."""
    state = setup(["F-LC1", "B-LN2"], active="bottom")
    state.policies = {"top": {"melee_response": "none"}}
    hand(state, "bottom", BRITISH_HAND[:4])
    put(state, "B-LN2", 6, 7)
    put(state, "F-LC1", 5, 7)
    from games.commands_colors_napoleonics.deck import to_square_track

    state.deck, state.units["B-LN2"].in_square = to_square_track(state.deck, "bottom", Rng(2))
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_CENTER", ["B-LN2"]
    ok = act(
        state, "bottom", "battle", {"unit": "B-LN2", "target": "F-LC1", "combat": "melee"}, ["ART"]
    )
    assert ok.pending is not None
    assert ok.pending["kind"] == "battle_back"
    back = act(ok, "top", "battle_back", {"battle": True}, ["ART"])  # the cavalry: 1 die
    assert back.combat is None
    flag = act(
        state,
        "bottom",
        "battle",
        {"unit": "B-LN2", "target": "F-LC1", "combat": "melee"},
        ["FLAG"],
    )
    assert flag.pending is not None
    assert (flag.pending["lo"], flag.pending["hi"]) == (1, 1)


def test_tc22_a_square_eliminated_by_flags_gives_its_card_back() -> None:
    state = square_setup()
    state.units["B-LN2"].type = "militia_infantry"  # 3 blocks lost a flag (CCN-130)
    state.units["B-LN2"].blocks = 3
    state = act(state, "bottom", "melee_response", {"response": "form_square"}, ["INF", "FLAG"])
    assert "B-LN2" not in state.units
    assert not state.deck.track("bottom")
    assert len(state.deck.hand("bottom")) == 5  # CCN-135
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"


def test_tc24_forming_square_is_forbidden_with_two_cards_or_in_a_town() -> None:
    state = setup(["F-LC1", "B-LN2"])
    hand(state, "bottom", BRITISH_HAND[:2])
    put(state, "F-LC1", 5, 7)
    put(state, "B-LN2", 6, 7)
    state = charge(state)
    assert "form_square" not in response_choices(state)  # 2 cards (CCN-122)
    state = setup(["F-LC1", "B-LN2"])
    hand(state, "bottom", BRITISH_HAND)
    put(state, "F-LC1", 3, 6)
    put(state, "B-LN2", 4, 6)  # the town
    state = charge(state)
    assert "form_square" not in response_choices(state)
    rejections = R.validate(state, act_of("bottom", "melee_response", {"response": "form_square"}))
    assert rejections[0].rule == "CCN-116"


def test_leaving_square_needs_an_order_and_no_enemy_cavalry_next_to_it() -> None:
    from games.commands_colors_napoleonics.deck import to_square_track

    state = setup(["F-LC1", "B-LN2"], active="bottom")
    hand(state, "bottom", BRITISH_HAND[:4])
    put(state, "B-LN2", 6, 7)
    put(state, "F-LC1", 5, 7)
    state.deck, state.units["B-LN2"].in_square = to_square_track(state.deck, "bottom", Rng(2))
    state.phase, state.turn.card = "orders", "PROBE_CENTER"
    leave = {"units": ["B-LN2"], "leave_square": ["B-LN2"]}
    assert R.validate(state, act_of("bottom", "give_orders", leave))[0].rule == "CCN-134"
    assert R.validate(state, act_of("bottom", "give_orders", {"leave_square": ["B-LN2"]}))
    put(state, "F-LC1", 2, 7)
    state = act(state, "bottom", "give_orders", leave)
    assert state.units["B-LN2"].in_square is None
    assert len(state.deck.hand("bottom")) == 4
    assert not state.deck.track("bottom")
    state2 = setup(["B-LN2"], active="bottom")
    state2.deck, state2.units["B-LN2"].in_square = to_square_track(state2.deck, "bottom", Rng(2))
    state2.phase, state2.turn.card, state2.turn.orders = "move", "PROBE_CENTER", ["B-LN2"]
    move = act_of("bottom", "move", {"piece": "B-LN2", "path": [[5, 6]]})
    assert R.validate(state2, move)[0].rule == "CCN-31"  # a square cannot move (CCN-125)
