"""Hex geometry of Commands & Colors: Napoleonics (digest 2.1, CCN-184; games.commands_colors_
napoleonics.hexes), with properties checked by hypothesis on the unbounded grid and on the
provisional 13x9 board."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.commands_colors_napoleonics.board import board_named
from games.commands_colors_napoleonics.hexes import (
    DIRECTIONS,
    Direction,
    Hex,
    HexGrid,
    NotAdjacent,
    cube,
    distance,
    hexside,
    line_between,
    neighbour,
    neighbours,
    side_towards,
    within,
)

GRID = board_named("ccn-13x9-provisional").grid
ANY_HEX = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))
BOARD_HEX = st.sampled_from(list(GRID))


def test_grid_is_13_by_9_with_alternating_rows() -> None:
    """2.1: 9 rows; even rows 13 hexes (col 0-12), odd rows 12 (col 0-11): 113 hexes."""
    assert GRID.rows == 9
    assert GRID.row_lengths == (13, 12, 13, 12, 13, 12, 13, 12, 13)
    assert len(GRID) == len(list(GRID)) == 5 * 13 + 4 * 12 == 113
    assert GRID.contains(Hex(0, 12))
    assert not GRID.contains(Hex(1, 12))
    assert not GRID.contains(Hex(9, 0))
    assert not GRID.contains(Hex(-1, 0))


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        # even row: NE (r-1, c), E, SE (r+1, c), SW (r+1, c-1), W, NW (r-1, c-1)
        (Hex(4, 6), [Hex(3, 6), Hex(4, 7), Hex(5, 6), Hex(5, 5), Hex(4, 5), Hex(3, 5)]),
        # odd row: NE (r-1, c+1), E, SE (r+1, c+1), SW (r+1, c), W, NW (r-1, c)
        (Hex(3, 4), [Hex(2, 5), Hex(3, 5), Hex(4, 5), Hex(4, 4), Hex(3, 3), Hex(2, 4)]),
    ],
)
def test_neighbours_by_direction(start: Hex, expected: list[Hex]) -> None:
    """2.1: the odd-r neighbours, in the order NE, E, SE, SW, W, NW."""
    assert list(neighbours(start)) == expected
    assert [neighbour(start, d) for d in DIRECTIONS] == expected


def test_cube_and_distance_formula() -> None:
    """2.1: x = col - (row - (row & 1)) // 2, z = row, y = -x - z."""
    assert cube(Hex(7, 5)) == (2, -9, 7)
    assert cube(Hex(2, 3)) == (2, -4, 2)
    assert distance(Hex(7, 5), Hex(2, 3)) == 5
    assert distance(Hex(0, 0), Hex(0, 12)) == 12
    assert distance(Hex(0, 0), Hex(8, 0)) == 8
    assert distance(Hex(0, 0), Hex(8, 12)) == 12 + 4


def test_hexside_names_and_identity() -> None:
    """2.1: the hexside between two adjacent hexes, the same edge from either side."""
    assert side_towards(Hex(7, 5), Hex(6, 5)) is Direction.NW
    assert side_towards(Hex(7, 5), Hex(6, 6)) is Direction.NE
    assert side_towards(Hex(6, 5), Hex(7, 5)) is Direction.SE
    assert hexside(Hex(7, 5), Hex(6, 5)) == hexside(Hex(6, 5), Hex(7, 5))
    assert hexside(Hex(7, 5), Hex(6, 5)).hexes == (Hex(6, 5), Hex(7, 5))
    with pytest.raises(NotAdjacent):
        side_towards(Hex(0, 0), Hex(0, 2))


def test_line_along_an_edge_gives_both_hexes() -> None:
    """CCN-181, CCN-184, TC-35: (4,4)->(3,5) and (4,6)->(2,6) run along hex edges."""
    assert line_between(Hex(4, 4), Hex(3, 5)) == ((Hex(3, 4), Hex(4, 5)),)
    assert line_between(Hex(4, 6), Hex(2, 6)) == ((Hex(3, 5), Hex(3, 6)),)
    assert line_between(Hex(4, 6), Hex(4, 9)) == ((Hex(4, 7),), (Hex(4, 8),))
    assert line_between(Hex(4, 6), Hex(4, 7)) == ()


@given(ANY_HEX, ANY_HEX)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(ANY_HEX, ANY_HEX, ANY_HEX)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(ANY_HEX)
def test_neighbours_are_at_distance_one_and_mutual(h: Hex) -> None:
    around = neighbours(h)
    assert len(set(around)) == 6
    for direction, near in zip(DIRECTIONS, around, strict=True):
        assert distance(h, near) == 1
        assert neighbour(near, direction.opposite) == h
        assert side_towards(h, near) is direction
        assert hexside(h, near) == hexside(near, h)


@given(ANY_HEX, st.integers(0, 5))
def test_within_is_the_ball_of_the_distance(h: Hex, radius: int) -> None:
    found = within(h, radius)
    assert len(found) == len(set(found)) == 1 + 3 * radius * (radius + 1)
    assert all(distance(h, x) <= radius for x in found)
    box = {Hex(h.row + dr, h.col + dc) for dr in range(-6, 7) for dc in range(-8, 9)}
    assert {x for x in box if distance(h, x) <= radius} <= set(found)


@given(BOARD_HEX)
def test_board_neighbours_six_or_fewer_on_the_edge(h: Hex) -> None:
    """On the board a hex has six neighbours, fewer exactly on the rim (2.1)."""
    on_board = GRID.neighbours(h)
    assert all(GRID.contains(x) and distance(h, x) == 1 for x in on_board)
    rim = h.row in (0, GRID.rows - 1) or h.col in (0, GRID.row_lengths[h.row] - 1)
    assert (len(on_board) < 6) == rim == GRID.on_edge(h)
    assert 2 <= len(on_board) <= 6


@given(BOARD_HEX, st.integers(0, 6))
def test_hexes_in_range_on_the_board(h: Hex, radius: int) -> None:
    found = GRID.within(h, radius)
    assert set(found) == {x for x in GRID if distance(h, x) <= radius}


@given(ANY_HEX, ANY_HEX)
def test_line_steps_walk_from_one_end_to_the_other(a: Hex, b: Hex) -> None:
    """CCN-184: sample i lies at distance i from the firer and n - i from the target."""
    steps = line_between(a, b)
    n = distance(a, b)
    assert len(steps) == max(n - 1, 0)
    for i, step in enumerate(steps, start=1):
        assert 1 <= len(step) <= 2
        for h in step:
            assert distance(a, h) == i
            assert distance(h, b) == n - i
    assert line_between(b, a) == tuple(reversed(steps))


def test_grid_refuses_an_empty_row() -> None:
    with pytest.raises(ValueError, match="at least one hex"):
        HexGrid((13, 0))
