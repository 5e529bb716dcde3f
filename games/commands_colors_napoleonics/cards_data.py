"""The command cards as data (digest 2.8; rulebook L35, L1099-1280): the `ccn-cards/1` file
`data/cards/<ruleset>.yaml` read and checked (every value with its source, an unknown one with
its gap), the card records, and the base deck's 70 cards with their counts.

A card is its code: copies of a card are identical. What the cards do is `card_effects.py` (the
tactic cards) and `section_orders.py` (the section cards' quotas); the deck in play is `deck.py`.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.card_effects import EFFECTS
from games.commands_colors_napoleonics.errors import GAPS, DataError, Problem, UnknownValueError
from games.commands_colors_napoleonics.fields import MISSING, Reader
from games.commands_colors_napoleonics.section_orders import COMMAND
from games.core.bounded_yaml import YamlRefused, at, idx, parse_yaml, read_bounded

CARDS_FORMAT = "ccn-cards/1"
CARDS_DIR = Path(__file__).resolve().parent / "data" / "cards"
SHIPPED_CARDS: tuple[str, ...] = tuple(sorted(p.stem for p in CARDS_DIR.glob("*.yaml")))
MAX_BYTES = 1 << 16
MAX_CARD_TYPES = 100
RULE = "§2.8"


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
