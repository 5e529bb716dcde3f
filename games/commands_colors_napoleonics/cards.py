"""The deck of 70 command cards (digest 2.8, 2.12, 3.3, 3.23; rulebook L35, L191-209, L747-753,
L1099-1280): the cards as data (`data/cards/<ruleset>.yaml`, format `ccn-cards/1`), the deck
state (draw pile, discard pile, hands, cards in play, square tracks, a Scout's two cards) with
its operations, every random one from the handed `Rng`, and the deck as one role sees it.

A card is its code: copies of a card are identical, so piles and hands hold codes (no ids that
could tell copies apart). What the cards do is `card_effects.py`.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.card_effects import COMMAND, EFFECTS
from games.commands_colors_napoleonics.errors import GAPS, DataError, Problem, UnknownValueError
from games.commands_colors_napoleonics.fields import (
    MISSING,
    Reader,
    YamlRefused,
    at,
    idx,
    parse_yaml,
    read_bounded,
)
from games.core.protocol import JSON
from games.core.rng import Rng

CARDS_FORMAT = "ccn-cards/1"
CARDS_DIR = Path(__file__).resolve().parent / "data" / "cards"
SHIPPED_CARDS: tuple[str, ...] = tuple(sorted(p.stem for p in CARDS_DIR.glob("*.yaml")))
MAX_BYTES = 1 << 16
MAX_CARD_TYPES = 100
RULE = "§2.8"
SQUARE_MARKERS = (1, 2, 3, 4)  # markers 1-4 (seed L128, L158); slots: GAP-7
SQUARE_MIN_HAND = 3  # no square with 2 cards or fewer in hand (CCN-122, seed L802)


class CardsError(DataError):
    """A `ccn-cards/1` file refused."""


class CardKind(StrEnum):
    SECTION = "section"
    TACTIC = "tactic"


class Detach(StrEnum):
    """Whether an attached leader may be ordered apart (CCN-17, AMB-31)."""

    YES = "yes"
    NO = "no"
    FLAG_ONLY = "flag_only"  # Élan: a leader ordered through a rolled flag
    AS_COPIED = "as_copied"  # Counter-attack: as the copied card


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    kind: CardKind
    copies: int
    name: str | None
    name_de: str | None
    orders: Mapping[Section, int | str] | None  # section cards; "command": the command value
    effect: str | None  # tactic cards: an id of card_effects.EFFECTS
    detach: Detach | None
    draw: int  # cards drawn in phase 5 after playing it (CCN-203)
    keep: int
    sources: Mapping[str, str]  # field -> source
    gaps: Mapping[str, str]  # field -> GAP-n for an unknown value

    def _unknown(self, field: str) -> UnknownValueError:
        return UnknownValueError(self.gaps.get(field, "GAP-5"), f"cards.{self.code}.{field}")

    def section_orders(self) -> Mapping[Section, int | str]:
        if self.orders is None:
            raise self._unknown("orders")
        return self.orders

    def detach_rule(self) -> Detach:
        if self.detach is None:
            raise self._unknown("detach")
        return self.detach

    def display_name(self) -> str:
        if self.name is None:
            raise self._unknown("name")
        return self.name


@dataclass(frozen=True, slots=True)
class CardSet:
    ruleset: str
    cards: Mapping[str, Card]
    unknown: Mapping[str, str]  # data only in the card images: key -> GAP-n

    @property
    def deck(self) -> Mapping[str, int]:
        return {code: card.copies for code, card in self.cards.items()}

    def full_deck(self) -> list[str]:
        """All the cards, each copy once, in catalogue order."""
        return [code for code, card in self.cards.items() for _ in range(card.copies)]

    def mirrored(self, code: str) -> str:
        """The section card covering the same part of the board from the other side: left and
        right swapped (Counter-attack, CCN-193); a symmetric card is itself."""
        card = self.cards[code]
        if card.kind is not CardKind.SECTION:
            return code
        orders = card.section_orders()
        want = {s.mirrored: q for s, q in orders.items()}
        for other in self.cards.values():
            if other.kind is CardKind.SECTION and other.orders == want and other.draw == card.draw:
                return other.code
        raise LookupError(f"no mirror of {code}")


# --- loading ------------------------------------------------------------------------------


def cards_named(ruleset: str) -> CardSet:
    """The shipped card file of `ruleset` (`data/cards/<ruleset>.yaml`), never a path."""
    if ruleset not in SHIPPED_CARDS:
        shown = ruleset[:40] if ruleset.isprintable() else "this ruleset"
        problem = Problem("ruleset", "§8.1", f"no card file {shown!r}")
        raise CardsError("cards", [problem])
    return _load_shipped(ruleset)


@functools.lru_cache(maxsize=4)
def _load_shipped(ruleset: str) -> CardSet:
    path = CARDS_DIR / f"{ruleset}.yaml"
    try:
        doc = parse_yaml(read_bounded(path, MAX_BYTES))
    except YamlRefused as exc:
        raise CardsError(path.name, [Problem("", RULE, str(exc))]) from None
    return parse_cards(doc, path.name)


def _sourced(reader: Reader, item: object, path: str) -> tuple[object, str | None, str | None]:
    """(value, source, gap) of `{value, source}` or `{value: null, gap}`; MISSING if refused."""
    found = reader.mapping(item, path, required=("value",), optional=("source", "gap"))
    if found is None or found["value"] is MISSING:
        return MISSING, None, None
    value, source, gap = found["value"], found.get("source"), found.get("gap")
    if value is None:
        if gap not in GAPS:
            reader.fail(at(path, "gap"), "an unknown value names its gap (digest 7.1)", RULE)
            return MISSING, None, None
        return None, None, str(gap)
    if gap is not None or not isinstance(source, str) or not source.strip():
        reader.fail(path, "a known value has a source and no gap", RULE)
        return MISSING, None, None
    return value, source, None


def _known_int(reader: Reader, item: object, path: str, lo: int, hi: int) -> int | None:
    value, _, gap = _sourced(reader, item, path)
    if gap is not None:
        reader.fail(path, "must be known: the deck's make-up is needed to play", RULE)
        return None
    return reader.integer(value, path, minimum=lo, maximum=hi)


def _orders(reader: Reader, value: object, path: str) -> dict[Section, int | str] | None:
    if value == {}:
        reader.fail(path, "a section card orders in at least one section", "CCN-185")
        return None
    found = reader.mapping(value, path, optional=tuple(s.value for s in Section))
    if found is None:
        return None
    out: dict[Section, int | str] = {}
    for key, quota in found.items():
        if quota == COMMAND:
            out[Section(key)] = COMMAND
        elif (n := reader.integer(quota, at(path, key), minimum=1, maximum=9)) is not None:
            out[Section(key)] = n
    return out if len(out) == len(found) else None


_CARD_KEYS = ("code", "name", "name_de", "kind", "copies", "detach")
_KIND_KEY = {CardKind.SECTION: "orders", CardKind.TACTIC: "effect"}


def _card(reader: Reader, item: object, path: str) -> Card | None:
    """One card; None when refused (the problems are in `reader`). A value may be unknown
    (`{value: null, gap}`), except the copies and the draw rule: the deck needs them."""
    before = len(reader.problems)
    found = reader.mapping(item, path, required=_CARD_KEYS, optional=("orders", "effect", "draw"))
    if found is None:
        return None
    code = reader.string(found["code"], at(path, "code"), max_len=40)
    kind_value, _, _ = _sourced(reader, found["kind"], at(path, "kind"))
    kind_text = reader.choice(kind_value, at(path, "kind"), tuple(CardKind), RULE)
    copies = _known_int(reader, found["copies"], at(path, "copies"), 1, 70)
    if kind_text is None:
        return None
    kind = CardKind(kind_text)
    own = _KIND_KEY[kind]
    for key in _KIND_KEY.values():
        if key != own and key in found:
            reader.fail(at(path, key), f"not for a {kind.value} card", RULE)
    if own not in found:
        reader.fail(at(path, own), f"missing (required for a {kind.value} card)", RULE)
    sources: dict[str, str] = {}
    gaps: dict[str, str] = {}

    def read(key: str) -> object:
        """The known value of `key` (None: unknown, its gap recorded)."""
        value, source, gap = _sourced(reader, found.get(key), at(path, key))
        if source:
            sources[key] = source
        if gap:
            gaps[key] = gap
        return value

    name, name_de = read("name"), read("name_de")
    for key, text in (("name", name), ("name_de", name_de)):
        if text is not None:
            reader.string(text, at(path, key), max_len=80)
    detach = read("detach")
    if detach is not None:
        detach = reader.choice(detach, at(path, "detach"), tuple(Detach), "CCN-17")
    orders: dict[Section, int | str] | None = None
    effect: str | None = None
    if own in found and (value := read(own)) is not None:
        if kind is CardKind.SECTION:
            orders = _orders(reader, value, at(path, own))
        else:
            effect = reader.choice(value, at(path, own), tuple(EFFECTS), "§3.22")
    draw, keep = 1, 1  # seed L749
    if "draw" in found:
        value = read("draw")
        if "draw" in gaps:
            reader.fail(at(path, "draw"), "must be known: the deck needs it", "CCN-203")
            value = MISSING
        rule = reader.mapping(value, at(path, "draw"), required=("draw", "keep")) or {}
        draw = (
            reader.integer(rule.get("draw", MISSING), at(path, "draw.draw"), minimum=1, maximum=2)
            or 1
        )
        keep = (
            reader.integer(rule.get("keep", MISSING), at(path, "draw.keep"), minimum=1, maximum=1)
            or 1
        )
    if len(reader.problems) > before or code is None or copies is None:
        return None
    return Card(
        code,
        kind,
        copies,
        name if isinstance(name, str) else None,
        name_de if isinstance(name_de, str) else None,
        orders,
        effect,
        Detach(detach) if isinstance(detach, str) else None,
        draw,
        keep,
        sources,
        gaps,
    )


def parse_cards(doc: object, source: str) -> CardSet:
    """Check a `ccn-cards/1` document; CardsError lists every problem."""
    reader = Reader(RULE)
    top = reader.mapping(
        doc, "", required=("format", "ruleset", "deck_size", "kind_totals", "cards", "images")
    )
    if top is None:
        raise CardsError(source, reader.problems)
    reader.choice(top["format"], "format", (CARDS_FORMAT,), RULE)
    ruleset = reader.identifier(top["ruleset"], "ruleset")
    size = _known_int(reader, top["deck_size"], "deck_size", 1, 200)
    kinds = reader.mapping(top["kind_totals"], "kind_totals", required=tuple(CardKind))
    totals = {
        k: _known_int(reader, v, at("kind_totals", k), 0, 200) for k, v in (kinds or {}).items()
    }
    unknown: dict[str, str] = {}
    for key, item in (reader.mapping(top["images"], "images", open_keys=True) or {}).items():
        _, _, gap = _sourced(reader, item, at("images", key))
        if gap:
            unknown[key] = gap
    cards: dict[str, Card] = {}
    items = reader.sequence(top["cards"], "cards", max_len=MAX_CARD_TYPES, min_len=1)
    for i, item in enumerate(items or ()):
        card = _card(reader, item, idx("cards", i))
        if card is not None and card.code in cards:
            reader.fail(at(idx("cards", i), "code"), f"{card.code} listed twice", RULE)
        elif card is not None:
            cards[card.code] = card
    if not reader.problems:
        by_kind = Counter[str]()
        for card in cards.values():
            by_kind[card.kind.value] += card.copies
        if size is not None and sum(by_kind.values()) != size:
            reader.fail("cards", f"{sum(by_kind.values())} cards, the deck has {size}", RULE)
        for kind, total in totals.items():
            if total is not None and by_kind[kind] != total:
                reader.fail("cards", f"{by_kind[kind]} {kind} cards, expected {total}", RULE)
    if reader.problems:
        raise CardsError(source, reader.problems)
    assert ruleset is not None
    return CardSet(ruleset, cards, unknown)


BASE = cards_named("ccn-base-3e")
DECK: Mapping[str, int] = BASE.deck
DECK_SIZE = sum(DECK.values())  # 70, seed L35
SECTION_CARDS: Mapping[str, int] = {
    c.code: c.copies for c in BASE.cards.values() if c.kind is CardKind.SECTION
}
TACTIC_CARDS: Mapping[str, int] = {
    c.code: c.copies for c in BASE.cards.values() if c.kind is CardKind.TACTIC
}


# --- the deck state -----------------------------------------------------------------------


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


# --- what a role sees (2.12, 4.3) ---------------------------------------------------------


def deck_view(state: DeckState, viewer: str | None) -> dict[str, JSON]:
    """The deck as `viewer` sees it (None: an observer): its own hand, square-track cards and
    Scout pair; of the others only counts (and which markers are used: the markers are on the
    board); the draw pile as a count; the discard pile and the cards in play face up, but a
    private Scout discard only to its owner."""
    hands: dict[str, JSON] = {}
    for seat in sorted(state.hands):
        own = seat == viewer
        track = state.track(seat)
        pair = state.scout.get(seat, ())
        entry: dict[str, JSON] = {
            "hand_count": len(state.hands[seat]),
            "square_markers": list[JSON](sorted(track)),
            "scout_count": len(pair),
        }
        if own:
            entry["hand"] = list(state.hands[seat])
            entry["square_cards"] = {str(m): track[m] for m in sorted(track)}
            entry["scout"] = list(pair)
        hands[seat] = entry
    return {
        "draw_count": len(state.draw),
        "discard": [
            d.code if d.private_to is None or d.private_to == viewer else None
            for d in state.discard
        ],
        "in_play": [{"seat": p.seat, "card": p.code} for p in state.in_play],
        "seats": hands,
    }


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
