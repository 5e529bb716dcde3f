"""Typed reading of action payloads: a malformed payload is refused with the JSON path at fault."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.errors import Illegal

RULE = "NT-0"  # "the order is not well formed" (not a rule of the game; see README)


def jlist(xs: Iterable[JSON]) -> list[JSON]:
    """A new list[JSON] of xs (list is invariant: a list[str] is not a list[JSON] to mypy)."""
    return list(xs)


def obj(data: JSON, path: str = "") -> dict[str, JSON]:
    if not isinstance(data, dict):
        raise Illegal(RULE, T("the payload must be a JSON object"), path or "/")
    return data


def _get(p: dict[str, JSON], key: str, path: str, required: bool) -> JSON:
    if key not in p:
        if required:
            raise Illegal(RULE, T("field {field} is missing", field=repr(key)), f"{path}/{key}")
        return None
    return p[key]


def string(p: dict[str, JSON], key: str, path: str = "", required: bool = True) -> str | None:
    v = _get(p, key, path, required)
    if v is None and not required:
        return None
    if not isinstance(v, str):
        raise Illegal(RULE, T("field {field} must be a string", field=repr(key)), f"{path}/{key}")
    return v


def req_str(p: dict[str, JSON], key: str, path: str = "") -> str:
    v = string(p, key, path)
    assert v is not None
    return v


def integer(p: dict[str, JSON], key: str, path: str = "", required: bool = True) -> int | None:
    v = _get(p, key, path, required)
    if v is None and not required:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise Illegal(RULE, T("field {field} must be an integer", field=repr(key)), f"{path}/{key}")
    return v


def req_int(p: dict[str, JSON], key: str, path: str = "") -> int:
    v = integer(p, key, path)
    assert v is not None
    return v


def boolean(p: dict[str, JSON], key: str, path: str = "", default: bool = False) -> bool:
    v = _get(p, key, path, False)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise Illegal(
            RULE, T("field {field} must be true or false", field=repr(key)), f"{path}/{key}"
        )
    return v


def strings(p: dict[str, JSON], key: str, path: str = "", required: bool = False) -> list[str]:
    v = _get(p, key, path, required)
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise Illegal(
            RULE, T("field {field} must be a list of strings", field=repr(key)), f"{path}/{key}"
        )
    out = [x for x in v if isinstance(x, str)]
    if len(set(out)) != len(out):
        raise Illegal(
            RULE, T("field {field} lists a piece twice", field=repr(key)), f"{path}/{key}"
        )
    return out


def ints(p: dict[str, JSON], key: str, path: str = "", required: bool = False) -> list[int]:
    v = _get(p, key, path, required)
    if v is None:
        return []
    if not isinstance(v, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in v
    ):
        raise Illegal(
            RULE,
            T("field {field} must be a list of locale numbers", field=repr(key)),
            f"{path}/{key}",
        )
    return [x for x in v if isinstance(x, int)]


def objects(
    p: dict[str, JSON], key: str, path: str = "", required: bool = False
) -> list[dict[str, JSON]]:
    v = _get(p, key, path, required)
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise Illegal(
            RULE, T("field {field} must be a list of objects", field=repr(key)), f"{path}/{key}"
        )
    return [x for x in v if isinstance(x, dict)]


def mapping(p: dict[str, JSON], key: str, path: str = "") -> dict[str, JSON]:
    v = _get(p, key, path, False)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise Illegal(RULE, T("field {field} must be an object", field=repr(key)), f"{path}/{key}")
    return v


def position(p: dict[str, JSON], key: str, path: str = "") -> tuple[int, str | None]:
    """{"locale": 72, "approach": "A017" | null}."""
    v = obj(_get(p, key, path, True), f"{path}/{key}")
    loc = req_int(v, "locale", f"{path}/{key}")
    app = string(v, "approach", f"{path}/{key}", required=False)
    return loc, app
