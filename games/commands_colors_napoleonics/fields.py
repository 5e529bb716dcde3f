"""Reading the YAML data files safely and field by field.

The files themselves are read by games.core.bounded_yaml (bounded before PyYAML builds anything:
size, nesting, no anchors or aliases). `Reader` reads typed fields and collects every problem
with its YAML path (``units[3].hex``) and rule.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from games.commands_colors_napoleonics.errors import Problem
from games.commands_colors_napoleonics.hexes import Hex
from games.core.bounded_yaml import at

MAX_STRING = 2000
SCHEMA_RULE = "§8"  # the machine-readable formats of the digest
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


class _Missing:
    """A required key that is absent: already reported, so no reader reports it again."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


class Reader:
    """Typed field readers that collect problems instead of raising: a reader returns None when
    the value is refused (and records why)."""

    def __init__(self, rule: str = SCHEMA_RULE) -> None:
        self.problems: list[Problem] = []
        self.rule = rule  # the rule a malformed value breaks: the format's section

    def fail(self, path: str, message: str, rule: str | None = None) -> None:
        self.problems.append(Problem(path, rule or self.rule, message))

    def mapping(
        self,
        value: object,
        path: str,
        required: Collection[str] = (),
        optional: Collection[str] = (),
        *,
        open_keys: bool = False,
    ) -> dict[str, object] | None:
        """A mapping with string keys; missing required keys and (unless `open_keys`) unknown
        keys are problems. A missing required key maps to MISSING, which every reader of this
        class passes over silently (it is reported once, here)."""
        if value is MISSING:
            return None
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping, got {_kind(value)}")
            return None
        out: dict[str, object] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                self.fail(path, f"keys must be strings, got {key!r}"[:200])
                continue
            if not open_keys and key not in required and key not in optional:
                self.fail(at(path, key), "unknown key")
                continue
            out[key] = item
        for key in required:
            if key not in out:
                self.fail(at(path, key), "missing (required)")
                out[key] = MISSING
        return out

    def string(self, value: object, path: str, *, max_len: int = 200) -> str | None:
        if value is MISSING:
            return None
        if not isinstance(value, str):
            self.fail(path, f"expected a string, got {_kind(value)}")
            return None
        if not value.strip() or len(value) > max_len:
            self.fail(path, f"expected a non-empty string of at most {max_len} characters")
            return None
        return value

    def identifier(self, value: object, path: str) -> str | None:
        text = self.string(value, path, max_len=40)
        if text is not None and not ID_PATTERN.fullmatch(text):
            self.fail(path, "an id is 1-40 letters, digits, '_', '.' or '-'")
            return None
        return text

    def integer(
        self,
        value: object,
        path: str,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        rule: str | None = None,
    ) -> int | None:
        if value is MISSING:
            return None
        if type(value) is not int:  # bool is an int subclass: refused too
            self.fail(path, f"expected an integer, got {_kind(value)}")
            return None
        if minimum is not None and value < minimum:
            self.fail(path, f"must be at least {minimum}, got {value}", rule)
            return None
        if maximum is not None and value > maximum:
            self.fail(path, f"must be at most {maximum}, got {value}", rule)
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        if value is MISSING:
            return None
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {_kind(value)}")
            return None
        return value

    def choice(
        self, value: object, path: str, choices: Collection[str], rule: str | None = None
    ) -> str | None:
        if value is MISSING:
            return None
        if not isinstance(value, str) or value not in choices:
            shown = repr(value)[:40] if isinstance(value, str) else _kind(value)
            self.fail(path, f"expected one of {', '.join(sorted(choices))}, got {shown}", rule)
            return None
        return value

    def sequence(
        self, value: object, path: str, *, max_len: int, min_len: int = 0
    ) -> list[object] | None:
        if value is MISSING:
            return None
        if not isinstance(value, list):
            self.fail(path, f"expected a list, got {_kind(value)}")
            return None
        if len(value) > max_len:
            self.fail(path, f"at most {max_len} items are allowed, got {len(value)}")
            return None
        if len(value) < min_len:
            self.fail(path, f"at least {min_len} item(s) required")
            return None
        items: list[object] = list(value)
        return items

    def hex(self, value: object, path: str) -> Hex | None:
        """A hex written `[row, col]` (digest 2.1); whether it is on the board is checked later."""
        if value is MISSING:
            return None
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(type(part) is not int for part in value)
        ):
            self.fail(path, f"a hex is [row, col], two integers; got {_short(value)}", "§2.1")
            return None
        row, col = value
        return Hex(int(row), int(col))


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _short(value: object) -> str:
    return repr(value)[:40]
