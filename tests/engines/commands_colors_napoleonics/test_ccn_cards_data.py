"""The 70 command cards as data (digest 2.8; data/cards/ccn-base-3e.yaml, cards_data.py): every
count of the rulebook with its source, unknown values refused with their gap, malformed files
refused with the rule they break."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics import cards_data as cards_module
from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.card_effects import EFFECTS
from games.commands_colors_napoleonics.cards_data import (
    BASE,
    CARDS_DIR,
    DECK,
    DECK_SIZE,
    SECTION_CARDS,
    TACTIC_CARDS,
    CardKind,
    CardsError,
    Detach,
    cards_named,
    parse_cards,
)
from games.commands_colors_napoleonics.errors import UnknownValueError

DOC: dict[str, Any] = yaml.safe_load((CARDS_DIR / "ccn-base-3e.yaml").read_text("utf-8"))
L, C, R = Section.LEFT, Section.CENTER, Section.RIGHT

# Digest 2.8, both tables (rulebook L1120-1176 and L1196-1278).
SECTION_TABLE = {
    "SCOUT_LEFT": (2, {L: 1}),
    "SCOUT_CENTER": (2, {C: 1}),
    "SCOUT_RIGHT": (2, {R: 1}),
    "PROBE_LEFT": (4, {L: 2}),
    "PROBE_CENTER": (6, {C: 2}),
    "PROBE_RIGHT": (4, {R: 2}),
    "ATTACK_LEFT": (4, {L: 3}),
    "ATTACK_CENTER": (6, {C: 3}),
    "ATTACK_RIGHT": (4, {R: 3}),
    "ASSAULT_LEFT": (2, {L: "command"}),
    "ASSAULT_CENTER": (2, {C: "command"}),
    "ASSAULT_RIGHT": (2, {R: "command"}),
    "COORDINATED_ADVANCE": (2, {L: 1, C: 2, R: 1}),
    "FLANK_ATTACK": (2, {L: 2, R: 2}),
    "FORWARD": (2, {L: 2, C: 2, R: 2}),
    "RECON_IN_FORCE": (2, {L: 1, C: 1, R: 1}),
}
TACTIC_TABLE = {
    "BAYONET_CHARGE": (2, "bayonet_charge", Detach.NO),
    "BOMBARD": (2, "bombard", Detach.NO),
    "CAVALRY_CHARGE": (3, "cavalry_charge", Detach.NO),
    "COUNTER_ATTACK": (2, "counter_attack", Detach.AS_COPIED),
    "ELAN": (1, "elan", Detach.FLAG_ONLY),
    "FIRE_AND_HOLD": (2, "fire_and_hold", Detach.NO),
    "FIRST_STRIKE": (2, "first_strike", Detach.NO),
    "FORCE_MARCH": (2, "force_march", Detach.NO),
    "GIVE_THEM_THE_COLD_STEEL": (1, "cold_steel", Detach.NO),
    "LEADERSHIP": (2, "leadership", Detach.YES),
    "LA_GRANDE_MANOEUVRE": (1, "la_grande_manoeuvre", Detach.YES),
    "RALLY": (1, "rally", Detach.NO),
    "SHORT_SUPPLY": (1, "short_supply", Detach.NO),
}


def doc() -> dict[str, Any]:
    return copy.deepcopy(DOC)


def card_doc(d: dict[str, Any], code: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in d["cards"] if c["code"] == code)
    return found


def problems(d: object) -> list[tuple[str, str]]:
    with pytest.raises(CardsError) as info:
        parse_cards(d, "test.yaml")
    return [(p.path, p.rule) for p in info.value.problems]


def test_the_deck_of_70() -> None:
    """2.8 (seed L35, L1101, L1178): 48 section cards and 22 tactic cards."""
    assert DECK_SIZE == 70 == len(BASE.full_deck())
    assert sum(SECTION_CARDS.values()) == 48
    assert sum(TACTIC_CARDS.values()) == 22
    assert set(DECK) == set(SECTION_TABLE) | set(TACTIC_TABLE)
    assert cards_named("ccn-base-3e") is BASE


def test_section_cards_match_the_rulebook() -> None:
    """CCN-185..188: counts, quotas (the command value for Assault), detaching allowed; a Scout
    draws 2 and keeps 1 (CCN-186), every other card draws 1."""
    for code, (copies, orders) in SECTION_TABLE.items():
        card = BASE.cards[code]
        assert card.kind is CardKind.SECTION
        assert (card.copies, dict(card.section_orders())) == (copies, orders), code
        assert card.detach_rule() is Detach.YES
        assert card.effect is None
        scout = code.startswith("SCOUT_")
        assert (card.draw, card.keep) == ((2, 1) if scout else (1, 1)), code


def test_tactic_cards_match_the_rulebook() -> None:
    """3.22: counts, effect ids of the catalogue, detaching (seed L220, AMB-31)."""
    for code, (copies, effect, detach) in TACTIC_TABLE.items():
        card = BASE.cards[code]
        assert card.kind is CardKind.TACTIC
        assert (card.copies, card.effect, card.detach_rule()) == (copies, effect, detach), code
        assert card.orders is None
    used = {card.effect for card in BASE.cards.values() if card.effect}
    assert used == set(EFFECTS)


def test_every_value_names_its_seed_line() -> None:
    """Every known value carries its source, a line of the rulebook."""
    for card in BASE.cards.values():
        expected = {"name", "name_de", "detach"} | (
            {"orders"} if card.kind is CardKind.SECTION else {"effect"}
        )
        assert expected <= set(card.sources), card.code
        for source in card.sources.values():
            assert re.search(r"seed L\d+", source), (card.code, source)
        assert card.gaps == {}
    assert BASE.cards["ELAN"].name == "Élan"
    assert BASE.cards["FORWARD"].name_de == "Sturmangriff"
    assert BASE.cards["SCOUT_LEFT"].display_name() == "Scout Left Flank"


def test_the_images_stay_unknown_with_their_gaps() -> None:
    """GAP-5 (icons), GAP-12 (English texts): recorded as unknown, never guessed."""
    assert BASE.unknown == {"icons": "GAP-5", "english_text": "GAP-12"}


def test_an_unknown_card_value_is_refused_when_used() -> None:
    """A value the seed lacks is `{value: null, gap}`: it loads, and using it raises naming
    its gap."""
    d = doc()
    card_doc(d, "BOMBARD")["detach"] = {"value": None, "gap": "GAP-5"}
    card_doc(d, "PROBE_LEFT")["orders"] = {"value": None, "gap": "GAP-5"}
    card_doc(d, "RALLY")["name"] = {"value": None, "gap": "GAP-12"}
    loaded = parse_cards(d, "test.yaml")
    with pytest.raises(UnknownValueError) as info:
        loaded.cards["BOMBARD"].detach_rule()
    assert (info.value.gap, info.value.what) == ("GAP-5", "cards.BOMBARD.detach")
    with pytest.raises(UnknownValueError, match="GAP-5"):
        loaded.cards["PROBE_LEFT"].section_orders()
    with pytest.raises(UnknownValueError, match="GAP-12"):
        loaded.cards["RALLY"].display_name()
    assert loaded.cards["RALLY"].gaps == {"name": "GAP-12"}


def test_refusals_name_the_rule() -> None:
    """The loader refuses what is not a deck of the rulebook."""
    d = doc()
    card_doc(d, "PROBE_CENTER")["copies"] = {"value": 5, "source": "seed L1134"}
    assert ("cards", "§2.8") in problems(d)  # 69 cards, 47 section cards
    d = doc()
    card_doc(d, "PROBE_CENTER")["copies"] = {"value": None, "gap": "GAP-5"}
    assert ("cards[4].copies", "§2.8") in problems(d)  # the make-up must be known
    d = doc()
    card_doc(d, "RALLY")["detach"] = {"value": "no"}
    assert ("cards[27].detach", "§2.8") in problems(d)  # a known value without a source
    d = doc()
    card_doc(d, "RALLY")["detach"] = {"value": None}
    assert ("cards[27].detach.gap", "§2.8") in problems(d)  # an unknown value without a gap
    d = doc()
    card_doc(d, "RALLY")["effect"] = {"value": "rally_twice", "source": "seed L1270"}
    assert ("cards[27].effect", "§3.22") in problems(d)
    d = doc()
    card_doc(d, "RALLY")["orders"] = {"value": {"LEFT": 1}, "source": "seed L1270"}
    assert ("cards[27].orders", "§2.8") in problems(d)
    d = doc()
    card_doc(d, "PROBE_LEFT")["orders"] = {"value": {"MIDDLE": 1}, "source": "x L1"}
    assert ("cards[3].orders.MIDDLE", "§2.8") in problems(d)
    d = doc()
    d["cards"].append(copy.deepcopy(card_doc(d, "RALLY")))
    assert ("cards[29].code", "§2.8") in problems(d)
    d = doc()
    card_doc(d, "PROBE_LEFT")["draw"] = {"value": None, "gap": "GAP-5"}
    assert problems(d) == [("cards[3].draw", "CCN-203")]  # the deck needs the draw rule
    d = doc()
    del card_doc(d, "PROBE_LEFT")["orders"]
    assert problems(d) == [("cards[3].orders", "§2.8")]
    d = doc()
    card_doc(d, "PROBE_LEFT")["orders"] = {"value": {}, "source": "seed L1132"}
    assert problems(d) == [("cards[3].orders", "CCN-185")]
    d = doc()
    d["colour"] = "blue"
    assert ("colour", "§2.8") in problems(d)


def test_only_shipped_files_by_name() -> None:
    """A card file is named by its ruleset id, never by a path (8.1)."""
    with pytest.raises(CardsError):
        cards_named("../nations/ccn-base-3e")
    assert cards_module.SHIPPED_CARDS == ("ccn-base-3e",)


def test_counter_attack_mirror_cards() -> None:
    """CCN-193: a copied section card has left and right swapped; symmetric cards are
    themselves; a tactic card is itself."""
    pairs = {
        "SCOUT_LEFT": "SCOUT_RIGHT",
        "PROBE_RIGHT": "PROBE_LEFT",
        "ATTACK_LEFT": "ATTACK_RIGHT",
        "ASSAULT_RIGHT": "ASSAULT_LEFT",
        "ATTACK_CENTER": "ATTACK_CENTER",
        "COORDINATED_ADVANCE": "COORDINATED_ADVANCE",
        "FLANK_ATTACK": "FLANK_ATTACK",
        "BOMBARD": "BOMBARD",
    }
    for code, mirror in pairs.items():
        assert BASE.mirrored(code) == mirror
