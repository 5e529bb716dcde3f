"""Board profiles (digest 8.1, 2.2 sections and dual hexes, 2.3 baselines and "towards own
side"; games.commands_colors_napoleonics.board)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics.board import (
    BOARDS_DIR,
    SHIPPED_BOARDS,
    Section,
    Side,
    board_named,
    parse_board,
)
from games.commands_colors_napoleonics.errors import BoardError
from games.commands_colors_napoleonics.hexes import Hex

BOARD = board_named("ccn-13x9-provisional")
L, C, R = Section.LEFT, Section.CENTER, Section.RIGHT
DOC: dict[str, Any] = yaml.safe_load(
    (BOARDS_DIR / "ccn-13x9-provisional.yaml").read_text(encoding="utf-8")
)


def test_shipped_profile_and_its_provenance() -> None:
    """8.1: the provisional profile ships; every value names its source, GAP-4 marked."""
    assert SHIPPED_BOARDS == ("ccn-13x9-provisional",)
    assert BOARD.id == "ccn-13x9-provisional"
    assert set(BOARD.sources) == {"row_lengths", "layout", "sections", "baselines"}
    assert "seed L57" in BOARD.sources["row_lengths"]
    assert BOARD.gaps == {"row_lengths": "GAP-4", "sections": "GAP-4"}


LEFT, CENTER, RIGHT = frozenset({L}), frozenset({C}), frozenset({R})
EVEN_ROW = [LEFT] * 5 + [CENTER] * 3 + [RIGHT] * 5
ODD_ROW = [LEFT] * 4 + [frozenset({L, C})] + [CENTER] * 2 + [frozenset({C, R})] + [RIGHT] * 4


@pytest.mark.parametrize(("first_row", "expected"), [(0, EVEN_ROW), (1, ODD_ROW)])
def test_sections_of_the_provisional_profile(
    first_row: int, expected: list[frozenset[Section]]
) -> None:
    """2.2 table (bottom perspective): even rows L 0-4, C 5-7, R 8-12; odd rows L 0-4, C 4-7,
    R 7-11, so odd col 4 is LEFT+CENTER and odd col 7 CENTER+RIGHT."""
    for row in range(first_row, 9, 2):
        found = [BOARD.sections_of(Hex(row, col), Side.BOTTOM) for col in range(len(expected))]
        assert found == expected, row


def test_dual_hexes_are_exactly_the_line_cut_ones() -> None:
    dual = {h for h in BOARD.grid if BOARD.is_dual(h)}
    assert dual == {Hex(r, c) for r in (1, 3, 5, 7) for c in (4, 7)}


def test_top_player_names_sections_mirrored() -> None:
    """2.2: the top player's LEFT is the bottom player's RIGHT; the profile is mirror-symmetric."""
    assert BOARD.sections_of(Hex(1, 4), Side.TOP) == {C, R}
    assert BOARD.sections_of(Hex(2, 8), Side.TOP) == {L}
    for h in BOARD.grid:
        mirror = Hex(h.row, BOARD.grid.row_lengths[h.row] - 1 - h.col)
        assert BOARD.sections_of(mirror, Side.TOP) == BOARD.sections_of(h, Side.BOTTOM)


def test_baselines_and_home_direction() -> None:
    """2.3, TC-37: the bottom side retreats to higher rows, the top to lower ones."""
    assert BOARD.baseline_row(Side.TOP) == 0
    assert BOARD.baseline_row(Side.BOTTOM) == 8
    assert BOARD.home_step(Side.BOTTOM) == 1
    assert BOARD.home_step(Side.TOP) == -1
    assert BOARD.home_neighbours(Hex(4, 6), Side.BOTTOM) == (Hex(5, 6), Hex(5, 5))
    assert BOARD.home_neighbours(Hex(4, 6), Side.TOP) == (Hex(3, 6), Hex(3, 5))
    assert BOARD.home_neighbours(Hex(3, 4), Side.BOTTOM) == (Hex(4, 5), Hex(4, 4))
    assert BOARD.home_neighbours(Hex(8, 3), Side.BOTTOM) == ()  # on its own baseline
    assert BOARD.home_neighbours(Hex(4, 0), Side.BOTTOM) == (Hex(5, 0),)  # the board edge
    assert BOARD.is_towards_home(Hex(4, 6), Hex(5, 5), Side.BOTTOM)
    assert not BOARD.is_towards_home(Hex(4, 6), Hex(4, 7), Side.BOTTOM)  # sideways never


def test_a_profile_is_named_never_a_path() -> None:
    with pytest.raises(BoardError, match="no board profile"):
        board_named("../boards/ccn-13x9-provisional")


def _refused(doc: object) -> list[tuple[str, str]]:
    with pytest.raises(BoardError) as info:
        parse_board(doc, "test.yaml")
    return [(p.path, p.rule) for p in info.value.problems]


def _changed(path: list[str], value: object) -> dict[str, Any]:
    doc = copy.deepcopy(DOC)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "where", "rule"),
    [
        (["format"], "ccn-board/2", "format", "§8.1"),
        (["row_lengths", "value"], [13, 0], "row_lengths.value[1]", "§2.1"),
        (["layout", "value"], "odd-q", "layout.value", "§2.1"),
        (["baselines", "value", "top"], 4, "baselines.value.top", "§2.3"),
        (["sections", "value", "odd", "RIGHT"], [7, 12], "sections.value.odd.RIGHT", "§2.2"),
        (["sections", "value", "odd", "CENTER"], [6, 7], "sections.value", "§2.2"),  # (r,5) none
        (["sections", "value", "even", "LEFT"], [0, 9], "sections.value", "§2.2"),  # both flanks
        (["sections", "value", "even", "LEFT"], [4, 0], "sections.value.even.LEFT", "§2.2"),
        (["sections", "source"], "", "sections.source", "§8"),
    ],
)
def test_malformed_profiles_are_refused(
    path: list[str], value: object, where: str, rule: str
) -> None:
    assert (where, rule) in _refused(_changed(path, value))


def test_a_profile_value_without_source_is_refused() -> None:
    doc = copy.deepcopy(DOC)
    del doc["layout"]["source"]
    assert ("layout.source", "§8") in _refused(doc)


def test_a_missing_entry_is_reported_once() -> None:
    doc = copy.deepcopy(DOC)
    del doc["sections"]
    del doc["row_lengths"]["value"]
    assert _refused(doc) == [("sections", "§8"), ("row_lengths.value", "§8")]
