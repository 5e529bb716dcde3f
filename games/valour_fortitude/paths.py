"""Points and paths as the order sheet writes them (digest 4.5, 2.1): the JSON schema of a
coordinate and of a path, and their reading as `Point`s of three decimals. Shared by the sheet
(`order_sheet.py`), the fate cards' moves (`fate.py`) and reserves, without importing either."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from games.core.protocol import JSON
from games.valour_fortitude.state import Point, exact

COORD: JSON = {
    "oneOf": [
        {"type": "number", "minimum": -1000, "maximum": 1000},
        {"type": "string", "pattern": r"^-?\d{1,4}(\.\d{1,3})?$"},
    ]
}
PATH: JSON = {
    "type": "array",
    "items": {"type": "array", "items": COORD, "minItems": 2, "maxItems": 2},
    "minItems": 1,
    "maxItems": 12,
}


def point(value: JSON) -> Point:
    """A [x, y] pair of the schema as a Point of three decimals."""
    assert isinstance(value, list)
    return Point(exact(_dec(value[0])), exact(_dec(value[1])))


def _dec(value: JSON) -> Decimal:
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return Decimal(0)


def path_of(value: JSON) -> list[Point]:
    """A path of the schema (checked) as Points of three decimals."""
    return [point(p) for p in value] if isinstance(value, list) else []


def offset(place: JSON) -> tuple[Decimal, Decimal]:
    """An offset fact `["dx", "dy"]` (the umpire's placement, 4.2) in inches of three decimals."""
    assert isinstance(place, list)
    dx, dy = place
    return exact(_dec(dx)), exact(_dec(dy))
