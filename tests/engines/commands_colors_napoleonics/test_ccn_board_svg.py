"""The board as SVG (games.commands_colors_napoleonics.board_svg): drawn only from the view's dict;
the example scenario (digest 9) with every hex (2.1), terrain (2.4), dual hexes and section
lines (2.2), every unit with its blocks (2.5), own/enemy by role, the hand of the viewer only
(2.12, 4.3), and hostile text escaped."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.commands_colors_napoleonics.board import board_named
from games.commands_colors_napoleonics.board_svg import STYLE, TERRAIN_LABEL, render
from games.commands_colors_napoleonics.cards_data import cards_named
from games.commands_colors_napoleonics.deck import setup_deck
from games.commands_colors_napoleonics.deck_view import deck_view
from games.commands_colors_napoleonics.hexes import Hex
from games.core.rng import Rng
from tests.support.contrast import contrast, declared

NS = "{http://www.w3.org/2000/svg}"


def view_of(doc: dict[str, Any], role: str | None, deck: object = None) -> dict[str, Any]:
    view: dict[str, Any] = {"role": role, "map": doc}
    if deck is not None:
        view["deck"] = deck
    return view


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output, parsed to check it is well formed


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def test_every_hex_of_the_profile_is_a_locale(example_doc: dict[str, Any]) -> None:
    """2.1: 13/12 alternating rows, 9 rows = 113 hexes, each marked for the board hook."""
    root = parse(render(view_of(example_doc, "top")))
    hexes = groups(root, "hex")
    board = board_named("ccn-13x9-provisional")
    assert len(hexes) == sum(board.grid.row_lengths) == 113
    for g in hexes:
        assert "locale" in (g.get("class") or "").split()
        row, col = (int(n) for n in (g.get("data-locale") or "").split(","))
        assert g.get("id") == f"locale-{row}-{col}"
        assert board.contains(Hex(row, col))


def test_terrain_fill_and_label(example_doc: dict[str, Any]) -> None:
    """2.4: the terrain type is the hex's class and a text label; a name goes in its title."""
    root = parse(render(view_of(example_doc, "top")))
    by_locale = {g.get("data-locale"): g for g in groups(root, "hex")}
    town = by_locale["4,6"]
    assert "town" in (town.get("class") or "").split()
    assert "Town" in texts(town)
    title = town.find(f"{NS}title")
    assert title is not None
    assert "Santa Clara" in (title.text or "")
    assert "forest" in (by_locale["6,9"].get("class") or "")
    assert "clear" in (by_locale["0,0"].get("class") or "")
    bridge = by_locale["4,2"]
    assert bridge.find(f"{NS}rect") is not None  # the bridge (CCN-175)
    assert by_locale["4,1"].find(f"{NS}rect") is None


def test_dual_hexes_and_section_lines(example_doc: dict[str, Any]) -> None:
    """2.2: odd-row columns 4 and 7 are dual; a dashed section line runs through them, and on
    even rows along the edge between columns 4|5 and 7|8: 2 lines per row."""
    svg = render(view_of(example_doc, "top"))
    root = parse(svg)
    dual = sorted(g.get("data-locale") or "" for g in groups(root, "dual"))
    assert dual == sorted(f"{r},{c}" for r in (1, 3, 5, 7) for c in (4, 7))
    assert svg.count('class="section-line"') == 2 * 9


def test_every_unit_with_its_blocks_and_type(example_doc: dict[str, Any]) -> None:
    root = parse(render(view_of(example_doc, "top")))
    blocks = {g.get("data-piece"): g for g in groups(root, "block")}
    assert set(blocks) == {u["id"] for u in example_doc["units"]}
    for unit in example_doc["units"]:
        shown = texts(blocks[unit["id"]])
        assert str(unit["blocks"]) in shown
    assert "FA" in texts(blocks["F-FA1"])
    assert "HC" in texts(blocks["B-HC1"])
    leaders = {g.get("data-piece") for g in groups(root, "leader")}
    assert leaders == {"F-L1", "B-L1", "P-L1"}


@pytest.mark.parametrize(("role", "own_side"), [("top", "top"), ("bottom", "bottom")])
def test_own_and_enemy_by_role(example_doc: dict[str, Any], role: str, own_side: str) -> None:
    root = parse(render(view_of(example_doc, role)))
    sides = {u["id"]: u["side"] for u in example_doc["units"]}
    for g in groups(root, "block"):
        classes = (g.get("class") or "").split()
        expected = "own" if sides[g.get("data-piece") or ""] == own_side else "enemy"
        assert expected in classes
        assert ({"own", "enemy"} - {expected}).isdisjoint(classes)
        assert sides[g.get("data-piece") or ""] in classes


def test_an_observer_owns_nothing(example_doc: dict[str, Any]) -> None:
    root = parse(render(view_of(example_doc, None)))
    assert groups(root, "own") == []
    assert len(groups(root, "enemy")) == len(example_doc["units"]) + len(example_doc["leaders"])


def test_in_square_and_field_works(example_doc: dict[str, Any]) -> None:
    doc = copy.deepcopy(example_doc)
    doc["units"][0]["in_square"] = True
    svg = render(view_of(doc, "top"))
    assert svg.count('class="square"') == 1
    assert svg.count('class="fieldworks"') == 2  # (7,5) NW and NE
    assert "field works, hex 7,5 NW" in svg


def test_hostile_text_is_escaped(example_doc: dict[str, Any]) -> None:
    """Texts come from uploaded files: every one is escaped (and the document stays XML)."""
    doc = copy.deepcopy(example_doc)
    evil = '"><script>alert(1)</script><g x="'
    doc["units"][0]["id"] = evil
    doc["units"][0]["type"] = "<b>"
    doc["units"][0]["nation"] = "&amp;<i>"
    doc["leaders"][0]["id"] = "<svg onload=alert(2)>"
    doc["leaders"][0]["name"] = "</title><script>"
    doc["terrain"][0]["name"] = "<script>x</script>"
    doc["terrain"][0]["group_name"] = "]]><!--"
    svg = render(view_of(doc, "top", {"seats": {"top": {"hand_count": 1, "hand": [evil]}}}))
    assert "<script" not in svg
    assert "<b>" not in svg
    assert "<svg onload" not in svg
    root = parse(svg)
    pieces = {g.get("data-piece") for g in groups(root, "block")}
    assert evil in pieces  # the id survives as data, escaped in the markup


def test_malformed_entries_are_skipped_and_output_bounded(example_doc: dict[str, Any]) -> None:
    doc = copy.deepcopy(example_doc)
    doc["units"] += [
        {"id": "X1", "side": "top", "hex": [99, 99], "blocks": 4},  # off the board
        {"id": "X2", "side": "top", "hex": "1,2"},  # not a hex
        {"id": "X3", "side": "top", "hex": [True, 1]},
        "not a unit",
    ]
    doc["terrain"].append({"hex": [0, 0], "type": "lava"})
    root = parse(render(view_of(doc, "top")))
    assert len(groups(root, "block")) == len(example_doc["units"])
    many = copy.deepcopy(example_doc)
    many["units"] = [
        {
            "id": f"U{i}" + "x" * 500,
            "side": "top",
            "type": "line_infantry",
            "hex": [i // 12 % 9, i % 12],
        }
        for i in range(10_000)
    ]
    svg = render(view_of(many, "top"))
    assert len(groups(parse(svg), "block")) == 108  # lists bounded (150), one unit per hex
    assert len(svg) < 110_000  # ids shortened to 40 characters


def test_unknown_profile_is_a_message() -> None:
    svg = render({"role": "top", "map": {"board": {"profile": "../../etc/passwd"}}})
    assert "No drawing of this board." in svg
    assert "passwd" not in svg
    assert "No drawing" in render({})


def test_the_hand_only_for_its_owner(example_doc: dict[str, Any]) -> None:
    """2.12, 4.3: the viewer's own hand by name; the other side only as a count."""
    cards = cards_named("ccn-base-3e")
    deck = setup_deck(cards, Rng(3), {"top": 5, "bottom": 4})
    top_hand = deck.hands["top"]
    bottom_hand = deck.hands["bottom"]
    names = {c: cards.cards[c].display_name() for c in set(top_hand) | set(bottom_hand)}
    for role, mine, theirs, their_count in (
        ("top", top_hand, bottom_hand, 4),
        ("bottom", bottom_hand, top_hand, 5),
    ):
        svg = render(view_of(example_doc, role, deck_view(deck, role)))
        root = parse(svg)
        shown = [g.get("data-card") for g in root.iter(f"{NS}g") if g.get("class") == "card"]
        assert shown == list(mine)
        for code in set(theirs) - set(mine):
            assert code not in svg
            assert names[code] not in svg
        for code in mine:
            assert names[code] in svg
        other = "bottom" if role == "top" else "top"
        assert f"{other}: {their_count} cards in hand" in svg
    observer = render(view_of(example_doc, None, deck_view(deck, None)))
    assert 'class="card"' not in observer
    assert "top: 5 cards in hand" in observer
    # a view that (wrongly) carried the other hand still shows only the viewer's own
    leaky = deck_view(deck, "top")
    assert isinstance(leaky["seats"], dict)
    bottom = leaky["seats"]["bottom"]
    assert isinstance(bottom, dict)
    bottom["hand"] = list(bottom_hand)
    svg = render(view_of(example_doc, "top", leaky))
    shown = re.findall(r'class="card" data-card="([A-Z_]+)"', svg)
    assert shown == list(top_hand)


FILLS = [".hex polygon", *(f".hex.{t} polygon" for t in TERRAIN_LABEL if t != "clear")]


@pytest.mark.parametrize("fill", FILLS)
def test_terrain_text_contrast_wcag_aa(fill: str) -> None:
    """WCAG 2.1 AA (1.4.3): small text 4.5:1 on every terrain fill; the section line 3:1."""
    background = declared(STYLE, fill, "fill")
    assert contrast(declared(STYLE, ".tlabel", "fill"), background) >= 4.5
    assert contrast(declared(STYLE, ".coord", "fill"), background) >= 4.5
    assert contrast(declared(STYLE, ".section-line", "stroke"), background) >= 3.0


@pytest.mark.parametrize("side", ["top", "bottom"])
def test_block_contrast_wcag_aa(side: str) -> None:
    block = declared(STYLE, f".block.{side} rect", "fill")
    assert contrast(declared(STYLE, ".block text", "fill"), block) >= 4.5
    assert contrast(declared(STYLE, ".block.own rect", "stroke"), block) >= 3.0  # the own mark
    leader = declared(STYLE, f".leader.{side} circle", "fill")
    assert contrast(declared(STYLE, ".leader text", "fill"), leader) >= 4.5


def test_a_scenario_sections_override_is_drawn(example_doc: dict[str, Any]) -> None:
    """8.2 `board.sections`: the scenario's own section columns replace the profile's (here no
    dual hex at all: one line per row between columns 3|4 and 8|9); a malformed override is
    ignored and the profile's sections drawn."""
    doc = copy.deepcopy(example_doc)
    ranges = {"LEFT": [0, 3], "CENTER": [4, 8], "RIGHT": [9, 12]}
    doc["board"]["sections"] = {"even": ranges, "odd": {**ranges, "RIGHT": [9, 11]}}
    svg = render(view_of(doc, "top"))
    assert groups(parse(svg), "dual") == []
    assert svg.count('class="section-line"') == 2 * 9
    doc["board"]["sections"] = {"even": "nonsense"}
    assert len(groups(parse(render(view_of(doc, "top"))), "dual")) == 8


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = [
    "id",
    "side",
    "nation",
    "type",
    "hex",
    "blocks",
    "in_square",
    "name",
    "bridge",
    "field_works",
    "group_name",
    "attached_to",
    "hand",
    "hand_count",
]
ON_BOARD = st.tuples(st.integers(0, 8), st.integers(0, 11)).map(list)
ITEM = st.fixed_dictionaries({"hex": ON_BOARD}, optional=dict.fromkeys(KEYS[:4] + KEYS[5:], JUNK))


@settings(max_examples=150, deadline=None)
@given(
    terrain=st.lists(ITEM | JUNK, max_size=5),
    units=st.lists(ITEM | JUNK, max_size=5),
    leaders=st.lists(ITEM | JUNK, max_size=3),
    deck=JUNK
    | st.fixed_dictionaries(
        {"seats": st.dictionaries(st.sampled_from(["top", "bottom", "x"]), ITEM | JUNK)}
    ),
    role=st.sampled_from(["top", "bottom", None, 3]),
)
def test_any_data_gives_a_well_formed_document(
    terrain: list[object], units: list[object], leaders: list[object], deck: object, role: object
) -> None:
    """Data from uploaded files may be anything: the drawing never fails and stays XML."""
    view = {
        "role": role,
        "map": {
            "board": {"profile": "ccn-13x9-provisional"},
            "terrain": terrain,
            "units": units,
            "leaders": leaders,
        },
        "deck": deck,
    }
    root = parse(render(view))  # type: ignore[arg-type]
    assert len(groups(root, "hex")) == 113


def test_sections_named_from_the_viewers_side(example_doc: dict[str, Any]) -> None:
    """2.2: the top player's LEFT is the bottom player's RIGHT; a hex's title names its sections
    as the viewer names them (an observer: as the bottom player)."""

    def title(role: str | None, locale: str) -> str:
        root = parse(render(view_of(example_doc, role)))
        g = next(g for g in groups(root, "hex") if g.get("data-locale") == locale)
        found = g.find(f"{NS}title")
        assert found is not None
        return found.text or ""

    assert "section LEFT (bottom player's view)" in title("bottom", "0,0")
    assert "section RIGHT (top player's view)" in title("top", "0,0")
    assert "section LEFT (bottom player's view)" in title(None, "0,0")
    assert "dual hex (CENTER and RIGHT, bottom player's view)" in title("bottom", "1,7")
    assert "dual hex (LEFT and CENTER, top player's view)" in title("top", "1,7")
