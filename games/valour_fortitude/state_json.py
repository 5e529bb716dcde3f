"""The JSON form of the state (digest section 5): `dump(state)` and `load(data)`.

The form follows the dataclasses of `state` field by field: a dataclass is an object with every
field, a tuple a list, a frozenset a sorted list, an enum its value and a Decimal a decimal text
("55.25"; state carries no floats). `load` is strict: unknown or missing keys, wrong types and
numbers with more than three decimals are refused with a `StateError` naming the JSON path.
`load(dump(s)) == s` for every state; `state_problems` checks what the types cannot (ids and
references).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import json
import re
import threading
import types
import typing
from decimal import Decimal
from enum import Enum

from games.core.protocol import JSON
from games.valour_fortitude.state import SIDES, GameState, exact

_DECIMAL_TEXT = re.compile(r"-?\d{1,6}(\.\d{1,3})?")


class StateError(ValueError):
    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path or '(state)'}: {message}")


def dump(state: GameState) -> JSON:
    return _dump(state)


def load(data: JSON) -> GameState:
    loaded = _load(GameState, data, "")
    assert isinstance(loaded, GameState)
    return loaded


@functools.lru_cache(maxsize=65536)
def decimal_text(value: Decimal) -> str:
    """The canonical text of a state number: three decimals at most, no trailing zeros."""
    text = format(exact(value).normalize(), "f")
    return "0" if text in ("-0", "0") else text


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def field_names(kind: type) -> tuple[str, ...]:
    """A dataclass's field names, in order (as `dump` writes them)."""
    return _field_names(kind)


def dump_value(value: object) -> JSON:
    """The JSON form of any value of the state (a record, a tuple, a number...)."""
    return _dump(value)


def _dump(value: object) -> JSON:
    kind = type(value)
    if value is None or kind is str or kind is int or kind is bool:
        return value  # type: ignore[return-value]  # one of the JSON scalars, by its type
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, frozenset):
        listed: list[JSON] = [*sorted(str(_dump(item)) for item in value)]
        return listed
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _dump(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, bool | int | str):
        return value
    raise TypeError(f"no JSON form for {type(value).__name__}")


@functools.cache
def _origin_args(kind: object) -> tuple[object, tuple[object, ...]]:
    return typing.get_origin(kind), typing.get_args(kind)


Loader = typing.Callable[[object, str], object]


def _load(kind: object, data: object, path: str) -> object:
    return _loader(kind)(data, path)


@functools.cache
def _loader(kind: object) -> Loader:
    """The loader of one type, built once: loading a state is a hot path (every stored event)."""
    origin, args = _origin_args(kind)
    if origin is types.UnionType:  # X | None
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"unsupported union {kind}")
        one, optional = _loader(inner[0]), type(None) in args

        def union(data: object, path: str) -> object:
            return None if data is None and optional else one(data, path)

        return union
    if origin is tuple:
        return _tuple_loader(args)
    if origin is frozenset:
        items = _loader(tuple[args[0], ...])  # type: ignore[valid-type]

        def a_set(data: object, path: str) -> object:
            found = items(data, path)
            assert isinstance(found, tuple)
            if len(set(found)) != len(found):
                raise StateError(path, "a set lists each item once")
            return frozenset(found)

        return a_set
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass_loader(kind)
    if isinstance(kind, type):
        return functools.partial(_load_type, kind)
    raise TypeError(f"unsupported type {kind}")


def _tuple_loader(args: tuple[object, ...]) -> Loader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _loader(args[0])

        def many(data: object, path: str) -> object:
            if not isinstance(data, list):
                raise StateError(path, f"expected a list, got {_kind(data)}")
            return tuple(item(x, f"{path}[{i}]") for i, x in enumerate(data))

        return many
    loaders = [_loader(a) for a in args]

    def fixed(data: object, path: str) -> object:
        if not isinstance(data, list):
            raise StateError(path, f"expected a list, got {_kind(data)}")
        if len(data) != len(loaders):
            raise StateError(path, f"expected {len(loaders)} items, got {len(data)}")
        pairs = enumerate(zip(loaders, data, strict=True))
        return tuple(f(x, f"{path}[{i}]") for i, (f, x) in pairs)

    return fixed


MEMOISED = frozenset({"Unit", "Leader", "Brigade", "TerrainPiece", "Objective", "SideState"})
RECORDS_MAX = 8192
_RECORDS: collections.OrderedDict[tuple[type, str], object] = collections.OrderedDict()
_LOCK = threading.Lock()


def _dataclass_loader(kind: type) -> Loader:
    hints, names = _fields(kind)
    known = frozenset(names)
    fields = [(n, _loader(hints[n])) for n in names]

    memo = kind.__name__ in MEMOISED

    def load(data: object, path: str) -> object:
        if not isinstance(data, dict):
            raise StateError(path, f"expected an object, got {_kind(data)}")
        key = ""
        if memo:  # a record loaded before is loaded again as it was (values are immutable)
            key = json.dumps(data, sort_keys=True)
            with _LOCK:
                found = _RECORDS.get((kind, key))
                if found is not None:
                    _RECORDS.move_to_end((kind, key))
                    return found
        if data.keys() != known:
            unknown = sorted(set(data) - known)
            if unknown:
                raise StateError(f"{path}.{unknown[0]}" if path else unknown[0], "unknown key")
            missing = [n for n in names if n not in data]
            raise StateError(f"{path}.{missing[0]}" if path else missing[0], "missing key")
        values = {n: f(data[n], f"{path}.{n}" if path else n) for n, f in fields}
        built: object = kind(**values)
        if memo:
            with _LOCK:
                _RECORDS[(kind, key)] = built
                if len(_RECORDS) > RECORDS_MAX:
                    _RECORDS.popitem(last=False)
        return built

    return load


@functools.lru_cache(maxsize=65536)
def _decimal(text: str) -> Decimal:
    return exact(text)


def _load_type(kind: type, data: object, path: str) -> object:
    if kind is Decimal:
        if not isinstance(data, str) or not _DECIMAL_TEXT.fullmatch(data):
            raise StateError(path, f"expected a decimal text such as '55.25', got {data!r}"[:200])
        return _decimal(data)
    if kind is bool:
        if not isinstance(data, bool):
            raise StateError(path, f"expected true or false, got {_kind(data)}")
        return data
    if kind is int:
        if type(data) is not int:
            raise StateError(path, f"expected an integer, got {_kind(data)}")
        return data
    if kind is str:
        if not isinstance(data, str) or len(data) > 200:
            raise StateError(path, f"expected a text of at most 200 characters, got {_kind(data)}")
        return data
    if issubclass(kind, Enum):
        names = [str(m.value) for m in kind]
        if not isinstance(data, str) or data not in names:
            raise StateError(path, f"expected one of {', '.join(names)}, got {data!r}"[:200])
        return kind(data)
    raise TypeError(f"unsupported type {kind.__name__}")


@functools.cache
def _fields(kind: type) -> tuple[dict[str, object], list[str]]:
    """A dataclass's field types and names (reading type hints is slow: once per class)."""
    return typing.get_type_hints(kind), [f.name for f in dataclasses.fields(kind)]


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def state_problems(state: GameState) -> list[str]:
    """What the types cannot say: unique ids, references that exist, sizes that make sense."""
    out: list[str] = []
    ids = [u.id for u in state.units] + [ld.id for ld in state.leaders]
    ids += [b.id for b in state.brigades] + [t.id for t in state.terrain]
    ids += [o.id for o in state.objectives]
    out += [f"the id {i!r} is used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if tuple(s.id for s in state.sides) != SIDES:
        out.append("the sides are A and B, in this order")
    brigades = {b.id: b for b in state.brigades}
    leaders = {ld.id: ld for ld in state.leaders}
    pieces = {t.id for t in state.terrain}
    for unit in state.units:
        brigade = brigades.get(unit.brigade)
        if brigade is None or unit.id not in brigade.units or brigade.side != unit.side:
            out.append(f"{unit.id}: its brigade {unit.brigade!r} does not list it")
        if unit.occupying is not None and unit.occupying not in pieces:
            out.append(f"{unit.id}: occupies an unknown feature {unit.occupying!r}")
        for i, base in enumerate(unit.bases):
            if base.width <= 0 or base.depth <= 0 or not 0 <= base.facing_deg < 360:
                out.append(f"{unit.id}.bases[{i}]: width and depth > 0, 0 <= facing < 360")
        if unit.bases and not any(b.front_rank for b in unit.bases):
            out.append(f"{unit.id}: no base is marked as front rank (VF-43)")
    unit_ids = {u.id for u in state.units}
    for brigade in state.brigades:
        bg = leaders.get(brigade.bg)
        if bg is None or bg.brigade != brigade.id:
            out.append(f"{brigade.id}: its BG {brigade.bg!r} is not a leader of the brigade")
        out += [f"{brigade.id}: unknown unit {u!r}" for u in brigade.units if u not in unit_ids]
    for side in state.sides:
        cinc = leaders.get(side.cinc)
        if cinc is None or cinc.kind != "CINC" or cinc.side != side.id:
            out.append(f"side {side.id}: its CinC {side.cinc!r} is not its CINC leader")
    for leader in state.leaders:
        if leader.radius_in <= 0:
            out.append(f"{leader.id}: the radius is > 0")
    for piece in state.terrain:
        if len(piece.polygon) < 3:
            out.append(f"{piece.id}: a polygon has at least 3 corners")
    return out
