"""The deck in play (digest 2.12, 3.3, 3.23; rulebook L35, L191-209, L747-753, L802-806): the
deck state (draw pile, discard pile, hands, cards in play, square tracks, a Scout's two cards),
its operations, every random one from the handed `Rng`, and its JSON form. Piles and hands hold
card codes (copies are identical, so nothing tells them apart). What a role sees of it is
`deck_view.py`; the cards are `cards_data.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from games.commands_colors_napoleonics.cards_data import RULE, CardSet
from games.core.protocol import JSON
from games.core.rng import Rng

SQUARE_MARKERS = (1, 2, 3, 4)  # markers 1-4 (seed L128, L158); slots: GAP-7
SQUARE_MIN_HAND = 3  # no square with 2 cards or fewer in hand (CCN-122, seed L802)


class Played(NamedTuple):
    seat: str
    code: str


class Discarded(NamedTuple):
    code: str
    private_to: str | None = None  # a Scout's discard when AMB-20 keeps it private


@dataclass(frozen=True, slots=True)
class DeckState:
    draw: tuple[str, ...]  # face down; index 0 is the next card drawn
    discard: tuple[Discarded, ...]  # face up; the last is the top
    hands: Mapping[str, tuple[str, ...]]  # seat -> its hand, sorted
    in_play: tuple[Played, ...] = ()  # played this turn, face up, until phase 5 (CCN-203)
    tracks: Mapping[str, Mapping[int, str]] = field(default_factory=dict)  # marker -> card
    scout: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the 2 to keep 1 of

    def hand(self, seat: str) -> tuple[str, ...]:
        return self.hands[seat]

    def track(self, seat: str) -> Mapping[int, str]:
        return self.tracks.get(seat, {})

    def all_cards(self) -> Counter[str]:
        """Every card wherever it is (for the conservation check)."""
        found = Counter(self.draw)
        found.update(d.code for d in self.discard)
        found.update(p.code for p in self.in_play)
        for hand in self.hands.values():
            found.update(hand)
        for track in self.tracks.values():
            found.update(track.values())
        for pair in self.scout.values():
            found.update(pair)
        return found


class DeckError(ValueError):
    """A deck operation that the state does not allow (a card not in hand, ...)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


def conserved(state: DeckState, cards: CardSet) -> bool:
    """The cards are all there, each copy exactly once, across piles, hands and tracks."""
    return state.all_cards() == Counter(cards.deck)


def new_deck(cards: CardSet, rng: Rng, seats: Sequence[str]) -> DeckState:
    """All the cards shuffled into the draw pile, empty hands (CCN-3)."""
    pile = cards.full_deck()
    rng.shuffle(pile)
    return DeckState(tuple(pile), (), dict.fromkeys(seats, ()))


def deal(state: DeckState, hand_sizes: Mapping[str, int]) -> DeckState:
    """Deal each seat its hand size from the top of the draw pile, seat by seat (CCN-3)."""
    draw, hands = list(state.draw), dict(state.hands)
    for seat, size in hand_sizes.items():
        if seat not in hands or size < 0 or size > len(draw):
            raise DeckError("CCN-3", f"cannot deal {size} cards to {seat}")
        hands[seat] = tuple(sorted(hands[seat] + tuple(draw[:size])))
        del draw[:size]
    return replace(state, draw=tuple(draw), hands=hands)


def setup_deck(cards: CardSet, rng: Rng, hand_sizes: Mapping[str, int]) -> DeckState:
    """Shuffle the 70 and deal the battle notes' hand sizes (CCN-3)."""
    return deal(new_deck(cards, rng, tuple(hand_sizes)), hand_sizes)


def fixed_deck(
    cards: CardSet, rng: Rng, order: Sequence[str], hands: Mapping[str, Sequence[str]]
) -> DeckState:
    """A scenario's fixed deal (8.2 `deck`): the hands as listed, `order` on top of the draw
    pile (index 0 drawn first), the deck's other cards shuffled beneath it with `rng` (the
    digest does not say that `order` lists the whole deck). DeckError (§8.2) if the listed
    cards use more copies than the deck has."""
    rest = Counter(cards.deck)
    rest.subtract(order)
    for hand in hands.values():
        rest.subtract(hand)
    if any(n < 0 for n in rest.values()):
        raise DeckError("§8.2", "the fixed deal uses more copies of a card than the deck has")
    below: list[str] = []
    for code in dict.fromkeys(cards.full_deck()):  # catalogue order, then shuffled
        below += [code] * rest[code]
    rng.shuffle(below)
    dealt = {seat: tuple(sorted(hand)) for seat, hand in hands.items()}
    return DeckState((*order, *below), (), dealt)


def square_at_setup(state: DeckState, seat: str, marker: int, rng: Rng) -> DeckState:
    """A unit that starts in square (a scenario's `in_square`): a card drawn at random from
    `seat`'s hand goes face down under `marker` (CCN-123), so the hand is one smaller
    (CCN-124)."""
    hand = state.hands[seat]
    if marker not in SQUARE_MARKERS or marker in state.track(seat) or not hand:
        raise DeckError("CCN-123", f"{seat} cannot put a card under square marker {marker}")
    card = hand[rng.below(len(hand))]
    tracks = {**state.tracks, seat: {**state.track(seat), marker: card}}
    hands = {**state.hands, seat: _without(hand, card, "CCN-123", "the hand")}
    return replace(state, hands=hands, tracks=tracks)


def _take(state: DeckState, rng: Rng) -> tuple[DeckState, str | None]:
    """The top card of the draw pile; an empty pile is first refilled by shuffling the discard
    pile (CCN-205). None when there is no card anywhere to draw."""
    if not state.draw:
        pile = [d.code for d in state.discard]
        rng.shuffle(pile)
        state = replace(state, draw=tuple(pile), discard=())
    if not state.draw:
        return state, None
    return replace(state, draw=state.draw[1:]), state.draw[0]


def draw(state: DeckState, seat: str, rng: Rng, n: int = 1) -> DeckState:
    """`seat` draws `n` cards into its hand (CCN-203, reshuffling as CCN-205 says)."""
    got: list[str] = []
    for _ in range(n):
        state, card = _take(state, rng)
        if card is not None:
            got.append(card)
    hands = {**state.hands, seat: tuple(sorted(state.hands[seat] + tuple(got)))}
    return replace(state, hands=hands)


def _without(cards: tuple[str, ...], code: str, rule: str, where: str) -> tuple[str, ...]:
    if code not in cards:
        raise DeckError(rule, f"{code} is not in {where}")
    i = cards.index(code)
    return cards[:i] + cards[i + 1 :]


def play(state: DeckState, seat: str, code: str) -> DeckState:
    """`seat` plays `code` from its hand, face up (CCN-9; First Strike too, CCN-146)."""
    hand = _without(state.hands[seat], code, "CCN-9", f"{seat}'s hand")
    return replace(
        state, hands={**state.hands, seat: hand}, in_play=(*state.in_play, Played(seat, code))
    )


def command_value(state: DeckState, seat: str) -> int:
    """Cards in hand including the one just played; the square track does not count
    (CCN-10, CCN-124)."""
    return len(state.hands[seat]) + sum(1 for p in state.in_play if p.seat == seat)


def reshuffle_all(state: DeckState, rng: Rng) -> DeckState:
    """Élan: the discard pile and the draw pile shuffled together into a new draw pile
    (CCN-194, CCN-206)."""
    pile = list(state.draw) + [d.code for d in state.discard]
    rng.shuffle(pile)
    return replace(state, draw=tuple(pile), discard=())


def end_turn(
    state: DeckState,
    rng: Rng,
    *,
    active: str,
    scout: bool = False,
    first_strike_by: Sequence[str] = (),
    elan_reshuffle: bool = False,
) -> DeckState:
    """Phase 5 (CCN-203..206): the cards played this turn go to the discard pile (in the order
    played); after Élan the piles are shuffled together (AMB-21 default: here, before drawing;
    with `elan_shuffle_timing: on_play` the engine calls `reshuffle_all` at the play and passes
    False); whoever played First Strike draws first (CCN-204); then the active seat draws 1, or
    after a Scout 2 of which it keeps 1 (`scout_keep`)."""
    if state.scout:
        raise DeckError("CCN-186", "a Scout's choice is still open")
    discard = state.discard + tuple(Discarded(p.code) for p in state.in_play)
    state = replace(state, discard=discard, in_play=())
    if elan_reshuffle:
        state = reshuffle_all(state, rng)
    for seat in first_strike_by:
        state = draw(state, seat, rng)
    if not scout:
        return draw(state, active, rng)
    pair: list[str] = []
    for _ in range(2):
        state, card = _take(state, rng)
        if card is not None:
            pair.append(card)
    if len(pair) < 2:  # nothing to choose between: keep what came
        hand = tuple(sorted(state.hands[active] + tuple(pair)))
        return replace(state, hands={**state.hands, active: hand})
    return replace(state, scout={**state.scout, active: tuple(pair)})


def scout_keep(state: DeckState, seat: str, keep: str, *, discard_public: bool = True) -> DeckState:
    """After a Scout: keep `keep` of the two cards drawn, discard the other (CCN-186). The
    discarded card is face up unless `scout_discard_public` is false (AMB-20)."""
    pair = state.scout.get(seat)
    if pair is None:
        raise DeckError("CCN-186", f"{seat} has no Scout choice open")
    other = _without(pair, keep, "CCN-186", "the two cards drawn")[0]
    hands = {**state.hands, seat: tuple(sorted((*state.hands[seat], keep)))}
    gone = Discarded(other, None if discard_public else seat)
    scout = {s: p for s, p in state.scout.items() if s != seat}
    return replace(state, hands=hands, discard=(*state.discard, gone), scout=scout)


def square_card_possible(state: DeckState, seat: str) -> bool:
    """A square needs 3 or more cards in hand and a free marker (CCN-122, seed L802-806)."""
    used = len(state.track(seat))
    return len(state.hands[seat]) >= SQUARE_MIN_HAND and used < len(SQUARE_MARKERS)


def to_square_track(state: DeckState, seat: str, rng: Rng) -> tuple[DeckState, int]:
    """A square forms: a card drawn at random from `seat`'s hand goes face down onto its square
    track under the lowest free marker (CCN-123), which is returned. The card is private to
    `seat` (4.3)."""
    if not square_card_possible(state, seat):
        raise DeckError("CCN-122", f"{seat} may not form a square now")
    hand = state.hands[seat]
    card = hand[rng.below(len(hand))]
    marker = min(m for m in SQUARE_MARKERS if m not in state.track(seat))
    tracks = {**state.tracks, seat: {**state.track(seat), marker: card}}
    hands = {**state.hands, seat: _without(hand, card, "CCN-123", "the hand")}
    return replace(state, hands=hands, tracks=tracks), marker


def from_square_track(state: DeckState, seat: str, marker: int) -> DeckState:
    """The square leaves square or is eliminated: its card goes back to the hand (CCN-134,
    CCN-135)."""
    track = dict(state.track(seat))
    if marker not in track:
        raise DeckError("CCN-134", f"no card under {seat}'s marker {marker}")
    card = track.pop(marker)
    hands = {**state.hands, seat: tuple(sorted((*state.hands[seat], card)))}
    return replace(state, hands=hands, tracks={**state.tracks, seat: track})


# --- JSON ---------------------------------------------------------------------------------


def deck_to_json(state: DeckState) -> dict[str, JSON]:
    return {
        "draw": list(state.draw),
        "discard": [[d.code, d.private_to] for d in state.discard],
        "hands": {seat: list(hand) for seat, hand in state.hands.items()},
        "in_play": [[p.seat, p.code] for p in state.in_play],
        "tracks": {
            seat: {str(m): c for m, c in sorted(track.items())}
            for seat, track in state.tracks.items()
        },
        "scout": {seat: list(pair) for seat, pair in state.scout.items()},
    }


def deck_from_json(data: JSON, cards: CardSet) -> DeckState:
    """The state written by `deck_to_json`; refused unless every card is there exactly once."""
    if not isinstance(data, dict):
        raise DeckError(RULE, "a deck is a mapping")
    try:
        state = DeckState(
            tuple(_strings(data["draw"])),
            tuple(Discarded(*_pair(d)) for d in _list(data["discard"])),
            {s: tuple(_strings(h)) for s, h in _dict(data["hands"]).items()},
            tuple(Played(*_strict_pair(p)) for p in _list(data["in_play"])),
            {
                s: {int(m): _str(c) for m, c in _dict(t).items()}
                for s, t in _dict(data["tracks"]).items()
            },
            {s: tuple(_strings(p)) for s, p in _dict(data["scout"]).items()},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise DeckError(RULE, f"malformed deck: {exc}") from None
    if not conserved(state, cards):
        raise DeckError(RULE, "the deck does not hold every card exactly once")
    return state


def _list(value: JSON) -> list[JSON]:
    if not isinstance(value, list):
        raise TypeError("expected a list")
    return value


def _dict(value: JSON) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise TypeError("expected a mapping")
    return value


def _str(value: JSON) -> str:
    if not isinstance(value, str):
        raise TypeError("expected a card code")
    return value


def _strings(value: JSON) -> list[str]:
    return [_str(v) for v in _list(value)]


def _pair(value: JSON) -> tuple[str, str | None]:
    code, owner = _list(value)
    return _str(code), None if owner is None else _str(owner)


def _strict_pair(value: JSON) -> tuple[str, str]:
    seat, code = _list(value)
    return _str(seat), _str(code)
