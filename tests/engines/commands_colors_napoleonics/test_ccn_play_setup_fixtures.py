"""The scenario fixtures of digest 8.2 in play: units that start in square (`in_square`,
CCN-121..136), `clear_section` objectives (CCN-208, PUB-9) and a fixed deal (`deck`). The games
are set up from the example scenario changed and given as the option `scenario_document`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.combat import dice_for
from games.commands_colors_napoleonics.deck import (
    DeckError,
    command_value,
    conserved,
    fixed_deck,
    square_at_setup,
)
from games.commands_colors_napoleonics.errors import Problem
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.terrain import UnitClass
from games.core.protocol import GameConfig, SetupError
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import EXAMPLE, act, view_of

Refusal = Callable[[object], list[Problem]]


def game(doc: dict[str, Any], seed: int = 3) -> GameState:
    text = yaml.safe_dump(doc, sort_keys=False)
    return R.setup(GameConfig(doc["id"], {"scenario_document": text}), Rng(seed))


def refused(doc: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as info:
        game(doc)
    return info.value


def unit_of(doc: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in doc["units"] if u["id"] == uid)


# --- units in square at set-up (CCN-121..136) -------------------------------------------------


def test_a_unit_in_square_at_setup_has_a_card_of_its_hand_under_its_marker(
    example_doc: dict[str, Any],
) -> None:
    unit_of(example_doc, "F-LN2")["in_square"] = 2
    state = game(example_doc)
    assert state.units["F-LN2"].in_square == 2
    track = state.deck.track("top")
    assert list(track) == [2]  # the scenario's marker (CCN-123)
    assert len(state.deck.hand("top")) == 5 - 1  # CCN-124: hand and command value 1 lower
    assert command_value(state.deck, "top") == 4
    assert conserved(state.deck, BASE)
    again = game(example_doc)  # the card is drawn at random with the set-up Rng
    assert again.deck.track("top") == track
    top, bottom = view_of(state, "top"), view_of(state, "bottom")
    units = {u["id"]: u for u in bottom["map"]["units"]}
    assert units["F-LN2"]["in_square"] is True
    assert track[2] not in str(bottom["deck"]["seats"]["top"])  # hidden from the enemy (4.3)
    assert bottom["deck"]["seats"]["top"]["square_markers"] == [2]
    assert track[2] in str(top["deck"])  # its owner may look at it


def test_a_square_from_setup_battles_with_one_die_and_leaves_square_with_its_card(
    example_doc: dict[str, Any],
) -> None:
    unit_of(example_doc, "F-LN2")["in_square"] = 1
    state = game(example_doc)
    unit = state.units["F-LN2"]
    assert dice_for(state, unit, Hex(3, 6), UnitClass.INF, False).total == 1  # CCN-126
    card = state.deck.track("top")[1]
    state.phase, state.turn.card = "orders", "PROBE_CENTER"
    leave = {"units": ["F-LN2"], "leave_square": ["F-LN2"]}
    state = act(state, "top", "give_orders", leave)
    assert state.units["F-LN2"].in_square is None  # CCN-134: the card back to the hand
    assert card in state.deck.hand("top")
    assert len(state.deck.hand("top")) == 5
    assert not state.deck.track("top")


def test_squares_at_setup_need_the_cards_they_were_formed_with(
    example_doc: dict[str, Any], refusal: Refusal
) -> None:
    for i, uid in enumerate(("F-LN1", "F-LN2", "F-LN3", "F-LT1"), start=1):
        unit_of(example_doc, uid)["in_square"] = i
    problems = refusal(example_doc)
    assert [(p.path, p.rule) for p in problems] == [("sides.top.hand_size", "CCN-122")]
    assert refused(example_doc).rejection.rule == "CCN-122"
    del unit_of(example_doc, "F-LT1")["in_square"]  # 3 squares leave 2 cards: formed legally
    state = game(example_doc)
    assert sorted(state.deck.track("top")) == [1, 2, 3]
    assert len(state.deck.hand("top")) == 2


# --- clear_section objectives (CCN-208, PUB-9) --------------------------------------------------


def clear_left(doc: dict[str, Any], side: str = "top", section: str = "LEFT") -> None:
    doc["objectives"].append(
        {"id": "OBJ-CLEAR", "for_side": side, "kind": "clear_section", "section": section,
         "banners": 1}
    )  # fmt: skip


def test_clear_section_is_held_while_no_enemy_unit_is_in_the_section(
    example_doc: dict[str, Any],
) -> None:
    """The French LEFT (top perspective) holds B-RI1, B-HC1 and P-LN1 (a dual hex CENTER and
    LEFT counts for both); without them the objective is held from the start."""
    clear_left(example_doc)
    assert game(example_doc).held["OBJ-CLEAR"] == 0
    example_doc["units"] = [
        u for u in example_doc["units"] if u["id"] not in ("B-RI1", "B-HC1", "P-LN1")
    ]
    state = game(example_doc)
    assert state.held["OBJ-CLEAR"] == 1
    assert view_of(state, "top")["sides"]["top"]["banners"] == 1
    example_doc["units"].append(
        {"id": "P-LN1", "side": "bottom", "nation": "portuguese", "type": "line_infantry",
         "hex": [7, 7], "blocks": 4}
    )  # fmt: skip
    assert game(example_doc).held["OBJ-CLEAR"] == 0  # the dual hex (7,7) is in LEFT too


def test_clear_section_is_named_from_its_sides_perspective(example_doc: dict[str, Any]) -> None:
    """The British RIGHT (bottom perspective) is the French LEFT: F-LN3 and F-LC1 stand there."""
    clear_left(example_doc, "bottom", "RIGHT")
    assert game(example_doc).held["OBJ-CLEAR"] == 0
    example_doc["units"] = [u for u in example_doc["units"] if u["id"] not in ("F-LN3", "F-LC1")]
    assert game(example_doc).held["OBJ-CLEAR"] == 1
    clear_left(example_doc, "bottom", "LEFT")
    example_doc["objectives"][-1]["id"] = "OBJ-CLEAR-LEFT"
    assert game(example_doc).held["OBJ-CLEAR-LEFT"] == 0  # F-LT1, F-FA1 and F-LN1


def eliminate_last(doc: dict[str, Any], target_banners: int) -> GameState:
    """F-LC1 melees B-HC1 (1 block), the last British unit in the French LEFT."""
    clear_left(doc)
    doc["units"] = [u for u in doc["units"] if u["id"] not in ("B-RI1", "P-LN1")]
    unit_of(doc, "F-LC1")["hex"] = [6, 11]
    unit_of(doc, "B-HC1")["blocks"] = 1
    doc["sides"]["top"]["victory_banners"] = target_banners
    state = game(doc)
    assert state.held["OBJ-CLEAR"] == 0
    state.policies = {"bottom": {"melee_response": "none"}}
    state.phase, state.turn.card, state.turn.orders = "battle", "PROBE_LEFT", ["F-LC1"]
    n = dice_for(state, state.units["F-LC1"], Hex(7, 10), UnitClass.CAV, True).total
    melee = {"unit": "F-LC1", "target": "B-HC1", "combat": "melee"}
    return act(state, "top", "battle", melee, ["CAV"] + ["INF"] * (n - 1))


def test_eliminating_the_last_enemy_unit_clears_the_section_at_once(
    example_doc: dict[str, Any],
) -> None:
    state = eliminate_last(example_doc, 5)
    assert "B-HC1" not in state.units
    assert state.held["OBJ-CLEAR"] == 1
    assert view_of(state, "top")["sides"]["top"]["banners"] == 2  # the unit and the section


def test_a_cleared_section_can_win_at_once(example_doc: dict[str, Any]) -> None:
    state = eliminate_last(example_doc, 2)  # CCN-207
    assert state.phase == "over"
    assert R.result(state) is not None
    assert state.result is not None
    assert state.result["winner"] == "top"


def test_clear_section_checks(example_doc: dict[str, Any], refusal: Refusal) -> None:
    clear_left(example_doc)
    example_doc["objectives"][-1]["hexes"] = [[4, 6]]
    example_doc["objectives"][-1]["count_mode"] = "each"
    example_doc["objectives"][0]["section"] = "CENTER"
    found = {(p.path, p.rule) for p in refusal(example_doc)}
    assert found == {
        ("objectives[3].hexes", "§8.2"),
        ("objectives[3]", "§8.2"),
        ("objectives[0].section", "§8.2"),
    }


# --- a fixed deal (8.2 `deck`) ----------------------------------------------------------------

TOP_HAND = ["ATTACK_LEFT", "PROBE_CENTER", "FIRST_STRIKE", "BOMBARD", "SCOUT_LEFT"]
BOTTOM_HAND = ["PROBE_LEFT", "PROBE_LEFT", "ATTACK_CENTER", "ELAN"]
ORDER = ["RALLY", "FORWARD", "CAVALRY_CHARGE"]


def fixed(doc: dict[str, Any]) -> None:
    doc["deck"] = {"order": list(ORDER), "hands": {"top": TOP_HAND, "bottom": BOTTOM_HAND}}


def test_a_fixed_deal_gives_the_hands_and_the_top_of_the_draw_pile(
    example_doc: dict[str, Any],
) -> None:
    fixed(example_doc)
    state = game(example_doc, seed=1)
    assert state.deck.hand("top") == tuple(sorted(TOP_HAND))
    assert state.deck.hand("bottom") == tuple(sorted(BOTTOM_HAND))
    assert list(state.deck.draw[:3]) == ORDER
    assert len(state.deck.draw) == 70 - 9
    assert conserved(state.deck, BASE)
    other = game(example_doc, seed=2)  # the cards not listed are shuffled beneath the order
    assert other.deck.hands == state.deck.hands
    assert list(other.deck.draw[:3]) == ORDER
    assert Counter(other.deck.draw) == Counter(state.deck.draw)
    assert other.deck.draw != state.deck.draw
    # phase 5: the active player draws the first card of the order (CCN-203)
    state = act(state, "top", "play_card", {"card": "PROBE_CENTER"})
    state = act(state, "top", "give_orders", {"units": ["F-LN2"]})
    state = act(state, "top", "end_moves", {})
    state = act(state, "top", "end_battles", {})
    assert "RALLY" in state.deck.hand("top")


def test_a_fixed_deal_with_squares_takes_the_track_card_from_the_listed_hand(
    example_doc: dict[str, Any],
) -> None:
    fixed(example_doc)
    unit_of(example_doc, "F-LN2")["in_square"] = 1
    state = game(example_doc)
    card = state.deck.track("top")[1]
    assert card in TOP_HAND
    assert sorted([*state.deck.hand("top"), card]) == sorted(TOP_HAND)


def test_a_fixed_deal_is_checked_by_the_loader(
    example_doc: dict[str, Any], refusal: Refusal
) -> None:
    fixed(example_doc)
    example_doc["deck"]["hands"]["top"] = TOP_HAND[:4]
    assert [(p.path, p.rule) for p in refusal(example_doc)] == [("deck.hands.top", "CCN-3")]
    example_doc["deck"]["hands"]["top"] = ["ELAN", *TOP_HAND[1:]]  # Élan twice: the deck has 1
    assert [p.rule for p in refusal(example_doc)] == ["§2.8"]
    assert refused(example_doc).rejection.rule == "§2.8"


def test_the_shipped_example_is_unchanged() -> None:
    state = R.setup(GameConfig(EXAMPLE, {}), Rng(3))
    assert not state.deck.tracks or not any(state.deck.tracks.values())
    assert all(u.in_square is None for u in state.units.values())


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fixed_deals_and_squares_keep_every_card_once(data: st.DataObject) -> None:
    """Any fixed deal: the hands as listed, the order on top, the 70 all there; squares at
    set-up move cards from the hand to the track, one a marker (CCN-123, CCN-124)."""
    cards = data.draw(st.permutations(BASE.full_deck()))
    n_top, n_bottom = data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8))
    n_order = data.draw(st.integers(0, 70 - n_top - n_bottom))
    top, bottom = cards[:n_top], cards[n_top : n_top + n_bottom]
    order = cards[n_top + n_bottom : n_top + n_bottom + n_order]
    deck = fixed_deck(
        BASE, Rng(data.draw(st.integers(0, 9))), order, {"top": top, "bottom": bottom}
    )
    assert conserved(deck, BASE)
    assert list(deck.draw[:n_order]) == order
    assert deck.hand("top") == tuple(sorted(top))
    assert deck.hand("bottom") == tuple(sorted(bottom))
    markers = data.draw(st.lists(st.sampled_from([1, 2, 3, 4]), unique=True, max_size=n_top))
    for m in markers:
        deck = square_at_setup(deck, "top", m, Rng(m))
    assert conserved(deck, BASE)
    assert sorted(deck.track("top")) == sorted(markers)
    assert sorted([*deck.hand("top"), *deck.track("top").values()]) == sorted(top)
    with pytest.raises(DeckError):
        fixed_deck(BASE, Rng(0), ["ELAN", "ELAN"], {"top": [], "bottom": []})  # 1 Élan only
