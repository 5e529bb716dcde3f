"""Reading YAML data and JSON-like documents safely, field by field.

The files themselves are read by games.core.bounded_yaml (bounded before PyYAML builds anything).
`Reader` reads typed fields and collects every problem with its path (``brigades[1].units[0]``)
instead of raising.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from decimal import Decimal, InvalidOperation

from games.core.bounded_yaml import at, idx
from games.valour_fortitude.problems import Problem

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
FORMAT = "format"  # the rule of a malformed document: its format, not a game rule


def kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


class Reader:
    """Typed readers that record a problem and return None for a refused value."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, message: str, rule: str = FORMAT) -> None:
        self.problems.append(Problem(path, rule, message))

    def mapping(
        self, value: object, path: str, required: Collection[str], optional: Collection[str] = ()
    ) -> dict[str, object] | None:
        """A mapping with string keys; a missing required key or an unknown key is a problem.
        Missing keys are absent from the result (each reported once, here)."""
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {kind(value)}")
            return None
        out: dict[str, object] = {}
        for key, item in value.items():
            if not isinstance(key, str) or (key not in required and key not in optional):
                self.fail(at(path, str(key)), "unknown key")
                continue
            out[key] = item
        for key in required:
            if key not in out:
                self.fail(at(path, key), "missing (required)")
        return out

    def keyed(self, value: object, path: str, *, max_len: int = 200) -> dict[str, object] | None:
        """A mapping whose keys are ids (unit ids, leader ids) checked where they are used."""
        if not isinstance(value, dict) or len(value) > max_len:
            self.fail(path, f"expected a mapping of at most {max_len} entries, got {kind(value)}")
            return None
        out = {str(k): v for k, v in value.items() if self.identifier(k, at(path, str(k)))}
        return out

    def string(self, value: object, path: str, *, max_len: int = 300) -> str | None:
        if not isinstance(value, str) or not value.strip() or len(value) > max_len:
            self.fail(path, f"expected a text of 1 to {max_len} characters, got {kind(value)}")
            return None
        return value

    def identifier(self, value: object, path: str) -> str | None:
        if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
            self.fail(path, "an id is 1-40 letters, digits, '_', '.' or '-'")
            return None
        return value

    def integer(
        self, value: object, path: str, *, minimum: int = -(10**6), maximum: int = 10**6
    ) -> int | None:
        if type(value) is not int or not minimum <= value <= maximum:
            self.fail(path, f"expected an integer from {minimum} to {maximum}, got {value!r}"[:200])
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {kind(value)}")
            return None
        return value

    def choice(self, value: object, path: str, choices: Collection[str]) -> str | None:
        if not isinstance(value, str) or value not in choices:
            shown = repr(value)[:40]
            self.fail(path, f"expected one of {', '.join(sorted(choices))}, got {shown}")
            return None
        return value

    def sequence(self, value: object, path: str, *, max_len: int) -> list[object] | None:
        if not isinstance(value, list) or len(value) > max_len:
            self.fail(path, f"expected a list of at most {max_len} items, got {kind(value)}")
            return None
        return list(value)

    def strings(self, value: object, path: str, *, max_len: int = 60) -> tuple[str, ...] | None:
        items = self.sequence(value, path, max_len=max_len)
        if items is None:
            return None
        out = [self.identifier(item, idx(path, i)) for i, item in enumerate(items)]
        return None if any(s is None for s in out) else tuple(s for s in out if s is not None)

    def decimal(
        self, value: object, path: str, *, minimum: Decimal, maximum: Decimal
    ) -> Decimal | None:
        """A number (an integer, a YAML float or a decimal text) as an exact Decimal."""
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            self.fail(path, f"expected a number, got {kind(value)}")
            return None
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            self.fail(path, f"expected a number, got {str(value)[:40]!r}")
            return None
        if not number.is_finite() or not minimum <= number <= maximum:
            self.fail(path, f"expected a number from {minimum} to {maximum}, got {value!r}"[:200])
            return None
        return number
