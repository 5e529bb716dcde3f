"""The typed field readers of a board document (``nt-board/1``): the structural half of the board
check. Each reader takes a field of a mapping, records ``place: problem`` when it is missing or
ill-typed and then returns None (or a fallback), so that every error of a document is collected
and a broken item is skipped by the rule checks (``board_parse``).

The messages are part of the engine's contract (they reach players through the option
``board_data``): ``missing field 'capacity'``, ``field 'hill' must be a boolean, got an integer 1``,
``must be a list, got a mapping``, ``missing section``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["MISSING", "Reader", "item_place", "show", "sorted_ids", "type_name"]

MISSING = object()


def show(v: object) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def type_name(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


class Reader:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, place: str, msg: str) -> None:
        self.errors.append(f"{place}: {msg}")

    def _bad(self, place: str, key: str, want: str, v: object) -> None:
        self.err(place, f"field '{key}' must be {want}, got {type_name(v)} {show(v)}")

    def mapping(self, v: object, place: str, what: str = "a mapping") -> dict[str, object] | None:
        if not isinstance(v, dict):
            self.err(place, f"must be {what}, got {type_name(v)} {show(v)}")
            return None
        out: dict[str, object] = {}
        for k, item in v.items():
            out[str(k)] = item
        return out

    def items(self, doc: Mapping[str, object], key: str) -> list[object]:
        v = doc.get(key, MISSING)
        if v is MISSING:
            self.err(key, "missing section")
            return []
        if not isinstance(v, list):
            self.err(key, f"must be a list, got {type_name(v)}")
            return []
        out: list[object] = list(v)
        return out

    def get(self, m: Mapping[str, object], key: str, place: str) -> object:
        v = m.get(key, MISSING)
        if v is MISSING:
            self.err(place, f"missing field '{key}'")
        return v

    def int_(self, m: Mapping[str, object], key: str, place: str) -> int | None:
        v = self.get(m, key, place)
        if v is MISSING:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            self._bad(place, key, "an integer", v)
            return None
        return v

    def str_(self, m: Mapping[str, object], key: str, place: str) -> str | None:
        v = self.get(m, key, place)
        if v is MISSING:
            return None
        if not isinstance(v, str) or not v:
            self._bad(place, key, "a non-empty string", v)
            return None
        return v

    def bool_(
        self, m: Mapping[str, object], key: str, place: str, default: bool | None = None
    ) -> bool | None:
        v = m.get(key, MISSING)
        if v is MISSING or (v is None and default is not None):
            if default is None:
                self.err(place, f"missing field '{key}'")
            return default
        if not isinstance(v, bool):
            self._bad(place, key, "a boolean", v)
            return None
        return v

    def opt_int(self, m: Mapping[str, object], key: str, place: str) -> tuple[bool, int | None]:
        """A field that must be present and is an integer or null."""
        v = self.get(m, key, place)
        if v is MISSING:
            return False, None
        if v is None:
            return True, None
        if isinstance(v, bool) or not isinstance(v, int):
            self._bad(place, key, "an integer or null", v)
            return False, None
        return True, v

    def opt_str(self, m: Mapping[str, object], key: str, place: str) -> tuple[bool, str | None]:
        """A field that must be present and is a non-empty string or null."""
        v = self.get(m, key, place)
        if v is MISSING:
            return False, None
        if v is None:
            return True, None
        if not isinstance(v, str) or not v:
            self._bad(place, key, "a non-empty string or null", v)
            return False, None
        return True, v

    def str_list(
        self, m: Mapping[str, object], key: str, place: str, required: bool = True
    ) -> list[str] | None:
        v = m.get(key, MISSING)
        if v is MISSING or v is None:
            if required and v is MISSING:
                self.err(place, f"missing field '{key}'")
                return None
            return []
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self._bad(place, key, "a list of strings", v)
            return None
        return [x for x in v if isinstance(x, str)]

    def int_list(self, m: Mapping[str, object], key: str, place: str) -> list[int] | None:
        v = self.get(m, key, place)
        if v is MISSING:
            return None
        if not isinstance(v, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v
        ):
            self._bad(place, key, "a list of integers", v)
            return None
        return [x for x in v if isinstance(x, int)]


def item_place(kind: str, plural: str, i: int, ident: object) -> str:
    if ident is None or ident is MISSING:
        return f"{plural}[{i}]"
    return f"{kind} {ident} ({plural}[{i}])"


def sorted_ids(ids: Iterable[int]) -> str:
    return ", ".join(str(i) for i in sorted(ids))
