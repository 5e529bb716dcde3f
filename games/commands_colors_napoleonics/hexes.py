"""Hex coordinates of the digest, 2.1: offset `(row, col)`, pointy-top hexes laid out "odd-r"
(odd rows shifted half a hex to the right), row 0 the top edge. Which hexes exist (row lengths)
is board-profile data (`HexGrid`, loaded by `board.py`), never hard-coded here (GAP-4).

Distance converts to cube coordinates: x = col - (row - (row & 1)) // 2, z = row, y = -x - z;
the distance is max(|dx|, |dy|, |dz|), which is also the range of CCN-51 (the target hex counted,
the firer's hex not; seed L364).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple


class Hex(NamedTuple):
    row: int
    col: int

    def __str__(self) -> str:
        return f"({self.row},{self.col})"


class Direction(StrEnum):
    """The six hexside names (2.1), clockwise from the upper right; north is towards row 0."""

    NE = "NE"
    E = "E"
    SE = "SE"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def opposite(self) -> Direction:
        return DIRECTIONS[(DIRECTIONS.index(self) + 3) % 6]


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

# (d_row, d_col) of each direction, for even and for odd rows (2.1).
_STEP_EVEN = {
    Direction.NE: (-1, 0),
    Direction.E: (0, 1),
    Direction.SE: (1, 0),
    Direction.SW: (1, -1),
    Direction.W: (0, -1),
    Direction.NW: (-1, -1),
}
_STEP_ODD = {
    Direction.NE: (-1, 1),
    Direction.E: (0, 1),
    Direction.SE: (1, 1),
    Direction.SW: (1, 0),
    Direction.W: (0, -1),
    Direction.NW: (-1, 0),
}


class NotAdjacent(ValueError):
    """Two hexes that share no hexside."""


def neighbour(hex_: Hex, direction: Direction) -> Hex:
    """The hex across `direction` from `hex_` (it may be off the board)."""
    d_row, d_col = (_STEP_ODD if hex_.row & 1 else _STEP_EVEN)[direction]
    return Hex(hex_.row + d_row, hex_.col + d_col)


def neighbours(hex_: Hex) -> tuple[Hex, ...]:
    """The six hexes around `hex_` in the order NE, E, SE, SW, W, NW (some may be off the board)."""
    return tuple(neighbour(hex_, d) for d in DIRECTIONS)


def cube(hex_: Hex) -> tuple[int, int, int]:
    """Cube coordinates (x, y, z) of 2.1."""
    x = hex_.col - (hex_.row - (hex_.row & 1)) // 2
    z = hex_.row
    return x, -x - z, z


def from_cube(x: int, z: int) -> Hex:
    return Hex(z, x + (z - (z & 1)) // 2)


def distance(a: Hex, b: Hex) -> int:
    """Hexes between a and b counting b and not a (2.1, seed L364)."""
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def within(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Every hex at distance 0..radius from `center`, row by row (some may be off the board)."""
    cx, _, cz = cube(center)
    found = [
        from_cube(cx + dx, cz + dz)
        for dz in range(-radius, radius + 1)
        for dx in range(max(-radius, -dz - radius), min(radius, -dz + radius) + 1)
    ]
    return tuple(sorted(found))


def side_towards(a: Hex, b: Hex) -> Direction:
    """The hexside of `a` that `b` lies across; NotAdjacent unless the two are neighbours."""
    for direction in DIRECTIONS:
        if neighbour(a, direction) == b:
            return direction
    raise NotAdjacent(f"{a} and {b} are not adjacent")


class Hexside(NamedTuple):
    """One edge between two hexes, named from the first of them in (row, col) order, so the same
    edge seen from either side is the same value (field works lie on hexsides, 2.4)."""

    hex: Hex
    direction: Direction

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        return self.hex, neighbour(self.hex, self.direction)


def hexside(a: Hex, b: Hex) -> Hexside:
    """The edge shared by two adjacent hexes; NotAdjacent otherwise."""
    direction = side_towards(a, b)
    return Hexside(a, direction) if a < b else Hexside(b, direction.opposite)


_EPS = Fraction(1, 10**6)


def line_between(a: Hex, b: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The hexes a centre-to-centre line passes strictly between `a` and `b` (CCN-179, CCN-184):
    one entry per sample, a single hex, or two hexes when the line runs along their common edge
    (then, CCN-181, it is blocked only if both block). Exact arithmetic: no float rounding."""
    n = distance(a, b)
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    steps: list[tuple[Hex, ...]] = []
    for i in range(1, n):
        t = Fraction(i, n)
        x, y, z = ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t
        plus = _cube_round(x + _EPS, y + 2 * _EPS, z - 3 * _EPS)
        minus = _cube_round(x - _EPS, y - 2 * _EPS, z + 3 * _EPS)
        steps.append((plus,) if plus == minus else tuple(sorted((plus, minus))))
    return tuple(steps)


def _cube_round(x: Fraction, y: Fraction, z: Fraction) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return from_cube(rx, rz)


@dataclass(frozen=True, slots=True)
class HexGrid:
    """The playable hexes: row r holds columns 0 .. row_lengths[r] - 1 (2.1: 13 and 12)."""

    row_lengths: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.row_lengths or any(n < 1 for n in self.row_lengths):
            raise ValueError("every row of a grid holds at least one hex")

    @property
    def rows(self) -> int:
        return len(self.row_lengths)

    def contains(self, hex_: Hex) -> bool:
        return 0 <= hex_.row < self.rows and 0 <= hex_.col < self.row_lengths[hex_.row]

    def __iter__(self) -> Iterator[Hex]:
        for row, length in enumerate(self.row_lengths):
            for col in range(length):
                yield Hex(row, col)

    def __len__(self) -> int:
        return sum(self.row_lengths)

    def neighbours(self, hex_: Hex) -> tuple[Hex, ...]:
        """The on-board neighbours of `hex_` (six, or fewer on the edge)."""
        return tuple(h for h in neighbours(hex_) if self.contains(h))

    def within(self, center: Hex, radius: int) -> tuple[Hex, ...]:
        """The on-board hexes at distance 0..radius from `center` (hexes in range)."""
        return tuple(h for h in within(center, radius) if self.contains(h))

    def on_edge(self, hex_: Hex) -> bool:
        """Whether `hex_` touches the board edge (fewer than six on-board neighbours)."""
        return len(self.neighbours(hex_)) < 6
