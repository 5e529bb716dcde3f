"""The deck in play (digest 2.12, 3.3, 3.23, 4.3; deck.py, deck_view.py): deal, draw, play,
discard, reshuffle, Scout, Élan, First Strike, square tracks; the 70 cards conserved, deals
deterministic by seed, and a role's view unmoved by what it may not see."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.deck import (
    DeckError,
    DeckState,
    Discarded,
    command_value,
    conserved,
    deal,
    deck_from_json,
    deck_to_json,
    draw,
    end_turn,
    from_square_track,
    new_deck,
    play,
    reshuffle_all,
    scout_keep,
    setup_deck,
    square_card_possible,
    to_square_track,
)
from games.commands_colors_napoleonics.deck_view import deck_view
from games.core.rng import Rng

SEATS = ("top", "bottom")
HANDS = {"top": 5, "bottom": 4}  # the example scenario (digest 9, TC-47)


def other(seat: str) -> str:
    return "bottom" if seat == "top" else "top"


def stacked(draw_pile: list[str], hands: dict[str, list[str]]) -> DeckState:
    """A state with a chosen draw order: the rest of the 70 in the discard pile."""
    rest = Counter(BASE.deck)
    rest.subtract(draw_pile)
    for hand in hands.values():
        rest.subtract(hand)
    assert all(n >= 0 for n in rest.values())
    discard = tuple(Discarded(code) for code in sorted(rest.elements()))
    state = DeckState(tuple(draw_pile), discard, {s: tuple(sorted(h)) for s, h in hands.items()})
    assert conserved(state, BASE)
    return state


def test_tc47_setup_deals_the_battle_notes_hands() -> None:
    """CCN-3, TC-47: French (top) 5 cards, British 4, the other 61 face down."""
    state = setup_deck(BASE, Rng(11), HANDS)
    assert (len(state.hand("top")), len(state.hand("bottom")), len(state.draw)) == (5, 4, 61)
    assert state.discard == ()
    assert conserved(state, BASE)


@given(seed=st.integers(0, 2**64 - 1))
def test_same_seed_same_deal(seed: int) -> None:
    """Determinism: the deal is a function of the seed alone."""
    assert setup_deck(BASE, Rng(seed), HANDS) == setup_deck(BASE, Rng(seed), HANDS)


def test_different_seeds_deal_differently() -> None:
    """The shuffle really uses the generator (20 seeds give more than one draw order)."""
    orders = {setup_deck(BASE, Rng(seed), HANDS).draw for seed in range(20)}
    assert len(orders) == 20


def test_deal_refuses_more_cards_than_the_pile() -> None:
    state = new_deck(BASE, Rng(1), SEATS)
    with pytest.raises(DeckError, match="CCN-3"):
        deal(state, {"top": 71})


def test_play_discard_and_draw() -> None:
    """CCN-9: play from hand, face up; CCN-203: phase 5 discards it and draws 1."""
    state = stacked(["RALLY", "BOMBARD"], {"top": ["PROBE_LEFT", "ELAN"], "bottom": ["FORWARD"]})
    with pytest.raises(DeckError, match="CCN-9"):
        play(state, "top", "FORWARD")
    state = play(state, "top", "PROBE_LEFT")
    assert state.hand("top") == ("ELAN",)
    assert deck_view(state, "bottom")["in_play"] == [{"seat": "top", "card": "PROBE_LEFT"}]
    state = end_turn(state, Rng(3), active="top")
    assert state.discard[-1] == Discarded("PROBE_LEFT")
    assert state.hand("top") == ("ELAN", "RALLY")
    assert state.draw == ("BOMBARD",)
    assert state.in_play == ()
    assert conserved(state, BASE)


def test_tc23_command_value_includes_the_played_card_not_the_track() -> None:
    """CCN-10, CCN-124, TC-23: 5 cards in hand and 1 on the square track: Assault Center orders
    5 (the played card counts, the track card does not); before the square formed: 6."""
    hand = ["ASSAULT_CENTER", "RALLY", "BOMBARD", "FORWARD", "ELAN", "LEADERSHIP"]
    state = stacked([], {"top": hand, "bottom": []})
    assert command_value(state, "top") == 6
    state, marker = to_square_track(state, "top", Rng(5))
    if "ASSAULT_CENTER" not in state.hand("top"):  # the random card went to the track
        state = from_square_track(state, "top", marker)
        state, marker = to_square_track(state, "top", Rng(6))
    assert "ASSAULT_CENTER" in state.hand("top")
    assert len(state.hand("top")) == 5
    state = play(state, "top", "ASSAULT_CENTER")
    assert command_value(state, "top") == 5


def test_empty_draw_pile_reshuffles_the_discard_pile_not_the_tracks() -> None:
    """CCN-205: when the draw pile is empty the discard pile is shuffled into a new one; cards
    on a square track never join it."""
    state = stacked([], {"top": ["RALLY", "ELAN", "BOMBARD"], "bottom": ["FORWARD"]})
    state, _ = to_square_track(state, "top", Rng(1))
    on_track = set(state.track("top").values())
    before = Counter(d.code for d in state.discard)
    state = draw(state, "bottom", Rng(2))
    assert len(state.draw) == sum(before.values()) - 1
    assert len(state.hand("bottom")) == 2
    assert state.discard == ()
    assert set(state.track("top").values()) == on_track
    assert conserved(state, BASE)


def test_tc30_first_strike_player_draws_first() -> None:
    """CCN-149, CCN-204, TC-30: the defender who played First Strike draws before the active
    player at the end of the turn."""
    state = stacked(
        ["RALLY", "BOMBARD"], {"top": ["ATTACK_CENTER"], "bottom": ["FIRST_STRIKE", "FORWARD"]}
    )
    state = play(state, "top", "ATTACK_CENTER")
    state = play(state, "bottom", "FIRST_STRIKE")
    state = end_turn(state, Rng(1), active="top", first_strike_by=("bottom",))
    assert state.hand("bottom") == ("FORWARD", "RALLY")
    assert state.hand("top") == ("BOMBARD",)
    assert [d.code for d in state.discard[-2:]] == ["ATTACK_CENTER", "FIRST_STRIKE"]


def test_elan_reshuffles_deck_and_discard_in_phase_5() -> None:
    """CCN-194, CCN-206, AMB-21 default: Élan is discarded, then the discard pile and the deck
    are shuffled together, then the draw; with the alternative (at once on play) Élan starts
    the new discard pile."""
    start = stacked(["RALLY", "BOMBARD"], {"top": ["ELAN"], "bottom": []})
    state = end_turn(play(start, "top", "ELAN"), Rng(4), active="top", elan_reshuffle=True)
    assert state.discard == ()
    assert len(state.draw) == 69
    assert conserved(state, BASE)
    on_play = reshuffle_all(play(start, "top", "ELAN"), Rng(4))
    on_play = end_turn(on_play, Rng(5), active="top")
    assert on_play.discard == (Discarded("ELAN"),)


def test_scout_draws_two_keeps_one() -> None:
    """CCN-186, AMB-20: after a Scout the player draws 2, keeps 1, discards the other face up;
    with `scout_discard_public: false` only the player sees the discarded card."""
    start = stacked(["RALLY", "BOMBARD", "ELAN"], {"top": ["SCOUT_LEFT"], "bottom": ["FORWARD"]})
    state = end_turn(play(start, "top", "SCOUT_LEFT"), Rng(1), active="top", scout=True)
    assert state.scout == {"top": ("RALLY", "BOMBARD")}
    seen = deck_view(state, "bottom")["seats"]
    assert isinstance(seen, dict)
    assert seen["top"] == {"hand_count": 0, "square_markers": [], "scout_count": 2}
    with pytest.raises(DeckError, match="CCN-186"):
        end_turn(state, Rng(1), active="bottom")
    with pytest.raises(DeckError, match="CCN-186"):
        scout_keep(state, "top", "ELAN")
    public = scout_keep(state, "top", "BOMBARD")
    assert public.hand("top") == ("BOMBARD",)
    assert public.discard[-1] == Discarded("RALLY")
    assert deck_view(public, "bottom")["discard"][-1] == "RALLY"  # type: ignore[index]
    private = scout_keep(state, "top", "BOMBARD", discard_public=False)
    assert deck_view(private, "bottom")["discard"][-1] is None  # type: ignore[index]
    assert deck_view(private, "top")["discard"][-1] == "RALLY"  # type: ignore[index]
    assert conserved(private, BASE)


def test_tc14_tc24_square_card_from_the_hand() -> None:
    """CCN-122..124, TC-14, TC-24: no square with 2 cards in hand, one with 3; a random card goes
    face down to the track under the lowest free marker; the attacker sees a count only; with
    all 4 markers used no square; the card comes back when the square ends (CCN-134, CCN-135)."""
    two = stacked([], {"top": [], "bottom": ["RALLY", "ELAN"]})
    assert not square_card_possible(two, "bottom")
    with pytest.raises(DeckError, match="CCN-122"):
        to_square_track(two, "bottom", Rng(1))
    five = stacked(
        [], {"top": [], "bottom": ["RALLY", "ELAN", "BOMBARD", "FORWARD", "FLANK_ATTACK"]}
    )
    state, marker = to_square_track(five, "bottom", Rng(8))
    assert marker == 1
    assert len(state.hand("bottom")) == 4
    (card,) = state.track("bottom").values()
    french = deck_view(state, "top")["seats"]
    british = deck_view(state, "bottom")["seats"]
    assert isinstance(french, dict)
    assert isinstance(british, dict)
    assert french["bottom"] == {"hand_count": 4, "square_markers": [1], "scout_count": 0}
    assert card not in str(french["bottom"])
    assert british["bottom"]["square_cards"] == {"1": card}  # type: ignore[index,call-overload]
    assert square_card_possible(five, "bottom")
    back = from_square_track(state, "bottom", 1)
    assert card in back.hand("bottom")
    with pytest.raises(DeckError, match="CCN-134"):
        from_square_track(back, "bottom", 1)


def test_square_track_holds_four() -> None:
    """2.11 (GAP-7: 4 markers): with 4 squares the track is full."""
    hand = ["RALLY", "ELAN", "BOMBARD", "FORWARD", "FLANK_ATTACK", "PROBE_LEFT", "PROBE_LEFT"]
    state = stacked([], {"top": [], "bottom": hand})
    markers = []
    for i in range(4):
        state, marker = to_square_track(state, "bottom", Rng(i))
        markers.append(marker)
    assert markers == [1, 2, 3, 4]
    assert len(state.hand("bottom")) == 3
    assert not square_card_possible(state, "bottom")
    state = from_square_track(state, "bottom", 2)
    state, marker = to_square_track(state, "bottom", Rng(9))
    assert marker == 2


def test_the_random_square_card_is_uniform_over_the_hand() -> None:
    """CCN-123: every card of the hand can be the one taken, each about equally often."""
    hand = ["RALLY", "ELAN", "BOMBARD", "FORWARD"]
    state = stacked([], {"top": [], "bottom": hand})
    taken = Counter(
        to_square_track(state, "bottom", Rng(seed))[0].track("bottom")[1] for seed in range(400)
    )
    assert set(taken) == set(hand)
    assert all(60 < n < 140 for n in taken.values())


def test_json_round_trip_and_refusal() -> None:
    state = setup_deck(BASE, Rng(3), HANDS)
    state, _ = to_square_track(state, "top", Rng(4))
    state = play(state, "bottom", state.hand("bottom")[0])
    assert deck_from_json(deck_to_json(state), BASE) == state
    broken = deck_to_json(state)
    assert isinstance(broken["draw"], list)
    broken["draw"] = broken["draw"][1:]
    with pytest.raises(DeckError, match="every card exactly once"):
        deck_from_json(broken, BASE)
    with pytest.raises(DeckError, match="malformed"):
        deck_from_json({"draw": []}, BASE)


# --- properties over random play --------------------------------------------------------------

OPS = st.lists(
    st.tuples(
        st.sampled_from(("play_end", "draw", "square", "unsquare", "scout", "elan", "dump")),
        st.integers(0, 2**32),
    ),
    max_size=60,
)


def run(seed: int, ops: list[tuple[str, int]]) -> DeckState:
    """Random deal, then a random sequence of deck operations (each legal one applied)."""
    state = setup_deck(BASE, Rng(seed), HANDS)
    for i, (op, k) in enumerate(ops):
        seat = SEATS[i % 2]
        rng = Rng(k)
        hand = state.hand(seat)
        if state.scout:
            (owner, pair), *_ = state.scout.items()
            state = scout_keep(state, owner, pair[k % 2], discard_public=k % 3 > 0)
        elif op in ("play_end", "scout", "elan") and hand:
            state = play(state, seat, hand[k % len(hand)])
            state = end_turn(
                state, rng, active=seat, scout=op == "scout", elan_reshuffle=op == "elan"
            )
        elif op == "draw":
            state = draw(state, seat, rng, 1 + k % 12)
        elif op == "dump":  # many cards to the discard pile, so the draw pile runs out
            for code in hand[: 1 + k % 8]:
                state = play(state, seat, code)
            state = end_turn(state, rng, active=seat)
        elif op == "square" and square_card_possible(state, seat):
            state, _ = to_square_track(state, seat, rng)
        elif op == "unsquare" and state.track(seat):
            markers = sorted(state.track(seat))
            state = from_square_track(state, seat, markers[k % len(markers)])
    return state


@settings(max_examples=200)
@given(seed=st.integers(0, 2**64 - 1), ops=OPS)
def test_the_70_cards_are_always_all_there_once(seed: int, ops: list[tuple[str, int]]) -> None:
    """Conservation: after any sequence of deal, draw, play, discard, reshuffle, Scout, Élan and
    square-track moves, every card is in exactly one place."""
    state = run(seed, ops)
    assert conserved(state, BASE)
    assert sum(state.all_cards().values()) == 70
    assert deck_from_json(deck_to_json(state), BASE) == state


@given(seed=st.integers(0, 2**64 - 1), ops=OPS)
def test_same_seed_same_game(seed: int, ops: list[tuple[str, int]]) -> None:
    """Determinism: the same seed and operations give the same deck."""
    assert run(seed, ops) == run(seed, ops)


@settings(max_examples=200)
@given(
    seed=st.integers(0, 2**64 - 1),
    ops=OPS,
    viewer=st.sampled_from(SEATS),
    swaps=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=6),
    shuffle=st.integers(0, 2**64 - 1),
)
def test_a_view_does_not_change_with_what_it_may_not_see(
    seed: int, ops: list[tuple[str, int]], viewer: str, swaps: list[tuple[int, int]], shuffle: int
) -> None:
    """2.12, 4.3 non-interference: exchanging cards between the opponent's hand, its square
    track or the draw pile, and reordering the draw pile, leave the viewer's view (and an
    observer's) unchanged; the opponent's own view does see its new hand."""
    state = run(seed, ops)
    opponent = other(viewer)
    hand, pile = list(state.hand(opponent)), list(state.draw)
    track = dict(state.track(opponent))
    for a, b in swaps:
        if hand and pile:
            i, j = a % len(hand), b % len(pile)
            hand[i], pile[j] = pile[j], hand[i]
        if track and pile:
            m = sorted(track)[a % len(track)]
            j = b % len(pile)
            track[m], pile[j] = pile[j], track[m]
    Rng(shuffle).shuffle(pile)
    changed = replace(
        state,
        draw=tuple(pile),
        hands={**state.hands, opponent: tuple(sorted(hand))},
        tracks={**state.tracks, opponent: track},
    )
    assert conserved(changed, BASE)
    assert deck_view(changed, viewer) == deck_view(state, viewer)
    assert deck_view(changed, None) == deck_view(state, None)
    if changed.hand(opponent) != state.hand(opponent):
        assert deck_view(changed, opponent) != deck_view(state, opponent)


def test_a_view_shows_own_hand_counts_and_the_discard_pile() -> None:
    """2.12: own hand visible; the opponent's hand and the draw pile as counts; discards and the
    card in play face up."""
    state = stacked(["RALLY"], {"top": ["ELAN", "PROBE_LEFT"], "bottom": ["FORWARD"]})
    state = play(state, "top", "PROBE_LEFT")
    view = deck_view(state, "top")
    seats = view["seats"]
    assert isinstance(seats, dict)
    assert seats["top"] == {
        "hand_count": 1,
        "square_markers": [],
        "scout_count": 0,
        "hand": ["ELAN"],
        "square_cards": {},
        "scout": [],
    }
    assert seats["bottom"] == {"hand_count": 1, "square_markers": [], "scout_count": 0}
    assert view["draw_count"] == 1
    assert view["discard"] == [d.code for d in state.discard]
    observer = deck_view(state, None)["seats"]
    assert isinstance(observer, dict)
    assert observer["top"] == {"hand_count": 1, "square_markers": [], "scout_count": 0}
