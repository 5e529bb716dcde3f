"""Small builders for the Valour & Fortitude tests: units as blocks of bases, leaders and
terrain pieces, with round numbers so that distances can be computed by hand."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from games.valour_fortitude.army_data import Category
from games.valour_fortitude.geometry import axes
from games.valour_fortitude.state import (
    BaseRect,
    Formation,
    Leader,
    LeaderKind,
    Point,
    Stats,
    TerrainPiece,
    Trait,
    Unit,
    exact,
)

LINE_STATS = Stats(3, 4, 4, 12, ("plaenkler", "karree"))


def D(value: float | int | str) -> Decimal:
    return exact(str(value))


def block(
    x: float,
    y: float,
    facing: float = 0,
    across: int = 1,
    deep: int = 1,
    width: float = 2,
    depth: float = 1,
) -> tuple[BaseRect, ...]:
    """Bases `across` by `deep`; (x, y) is the centre of the front edge, row 0 the front."""
    (fx, fy), (rx, ry) = axes(D(facing))
    out = []
    for row in range(deep):
        back = -depth * (row + 0.5)
        for col in range(across):
            right = width * (col - (across - 1) / 2)
            cx, cy = x + fx * back + rx * right, y + fy * back + ry * right
            out.append(BaseRect(D(cx), D(cy), D(facing), D(width), D(depth), row == 0))
    return tuple(out)


def unit(
    ident: str,
    side: str,
    bases: Sequence[BaseRect],
    *,
    formation: Formation = Formation.LINE,
    occupying: str | None = None,
    fled: bool = False,
) -> Unit:
    return Unit(
        ident,
        side,
        f"BR-{side}",
        "france_1812_1815",
        "linieninfanterie",
        Category.INFANTRY,
        24,
        formation,
        12,
        2,
        tuple(bases),
        LINE_STATS,
        occupying=occupying,
        fled=fled,
    )


def line(ident: str, side: str, x: float, y: float, facing: float = 0, **kw: float) -> Unit:
    """A unit of one rank of bases (by default 4 bases of 2 x 1 in: 8 in wide, 1 in deep)."""
    across = int(kw.pop("across", 4))
    return unit(ident, side, block(x, y, facing, across, 1, **kw))


def leader(ident: str, side: str, x: float, y: float, radius: float = 0.5) -> Leader:
    kind = LeaderKind.CINC if ident.endswith("0") else LeaderKind.BG
    return Leader(
        ident, side, kind, None if kind is LeaderKind.CINC else f"BR-{side}", D(x), D(y), D(radius)
    )


def piece(
    ident: str, kind: str, traits: Sequence[Trait], corners: Sequence[tuple[float, float]]
) -> TerrainPiece:
    return TerrainPiece(
        ident, kind, frozenset(traits), tuple(Point(D(x), D(y)) for x, y in corners)
    )


def rect(
    ident: str, kind: str, traits: Sequence[Trait], x0: float, y0: float, x1: float, y1: float
) -> TerrainPiece:
    return piece(ident, kind, traits, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def path(*points: tuple[float, float]) -> list[Point]:
    return [Point(D(x), D(y)) for x, y in points]
