"""Board data of Napoleon's Triumph: loader, validator (schema ``nt-board/1``) and map queries.

The schema and the checks V-1..V-14 are those of ``rules/data/austerlitz-map.md`` (sections 2
and 7). This module adds structural checks (missing or ill-typed fields, dangling references) and
reads one extension key, ``army`` (the order of battle, ``napoleons-triumph.md`` GAP-2). Unknown
keys are ignored.

Every validation error starts with the place it concerns, then ``: `` and the problem. Places:

* ``locale 12``, ``approach A017``, ``road M1``, ``entry EF1``, ``commander davout``,
  ``toponym telnitz``, ``scenario DEC2`` (``scenario DEC2 rounds[3]``), ``army F[2]``, ``meta``,
  ``schema``, ``board``, ``entries``;
* structural errors of a list item add its index, e.g.
  ``locale 4 (locales[3]): missing field 'capacity'``, or give only the index when the item has no
  usable id, e.g. ``locales[3]: missing field 'id'``;
* ``road crossing 5 (A003 1->5)``: the 1-based position of the crossing in ``road_crossings``, its
  approach and its ``from -> to`` locales.

All errors are collected and raised together as one :class:`BoardError` (one error per line).
"""

from __future__ import annotations

import functools
import json
import os
import unicodedata
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import yaml

__all__ = [
    "Approach",
    "ApproachSide",
    "Board",
    "BoardError",
    "CommanderDef",
    "Entry",
    "FaceDef",
    "Locale",
    "RoadCrossing",
    "RoadStep",
    "RoundDef",
    "ScenarioDef",
    "Toponym",
    "board_ids",
    "board_named",
    "load_board",
    "normalise_name",
    "parse_board",
    "register_board",
]

SCHEMA = "nt-board/1"
SIDES = ("F", "AL")
PENALTIES = frozenset({"I", "C", "A"})
STAR_COLOURS = ("blue", "green", "red", "black")
ROAD_CLASSES = ("main", "local")
UNIT_TYPES = ("INF", "GUARD", "CAV", "ART")
ALLIED_START = ("all_corps_on_board", "two_corps_chosen_by_allied_player")
WIDTHS = {"narrow": 1, "wide": 2}
UNIT_PREFIX = {"F": "F", "AL": "A"}
DATA_DIR = Path(__file__).resolve().parent / "data"


class BoardError(ValueError):
    """A board file is malformed or fails validation. The message lists every error, one a line."""


# --------------------------------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ApproachSide:
    locale: int
    width: int  # 1 narrow, 2 wide (per-side override allowed) (NT-8)
    penalties: frozenset[str]  # {"I","C","A"} printed inside `locale` at this approach (NT-9)
    obstructed: bool


@dataclass(frozen=True, slots=True)
class Approach:
    id: str
    a: int
    b: int
    impassable: bool
    a_side: ApproachSide
    b_side: ApproachSide


@dataclass(frozen=True, slots=True)
class Locale:  # NT-7; terrain is decoration and is not loaded (NT-15)
    id: int
    key: str
    name: str | None
    capacity: int
    hill: bool
    stars: frozenset[str]  # subset of {"blue","green","red","black"}
    setup: tuple[str, ...]  # commander ids
    santon: bool


@dataclass(frozen=True, slots=True)
class RoadStep:
    """One road crossing seen from a (locale, strand) node."""

    approach: str
    to_locale: int
    to_strand: int
    road_class: str  # "main" | "local"


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    side: str  # "F" | "AL"
    locale: int
    strand: int
    road_class: str
    main: bool


@dataclass(frozen=True, slots=True)
class CommanderDef:
    id: str
    name: str
    side: str
    setup_locale: int | None
    reinforcement: bool
    min_units: int


@dataclass(frozen=True, slots=True)
class FaceDef:
    type: str  # INF, GUARD, CAV, ART
    strength: int


@dataclass(frozen=True, slots=True)
class RoundDef:
    index: int  # 1-based
    day: int
    hour: int | None
    night: bool


@dataclass(frozen=True, slots=True)
class ScenarioDef:
    id: str
    name: str
    allied_start: str  # "all_corps_on_board" | "two_corps_chosen_by_allied_player"
    starting_morale: Mapping[str, int]  # {"F": 23, "AL": 27}
    reinforcement_rounds: Mapping[str, int]  # commander id -> first_round (1-based round index)
    rounds: tuple[RoundDef, ...]


@dataclass(frozen=True, slots=True)
class Toponym:
    id: str
    name: str
    aliases: tuple[str, ...]
    locales: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoadCrossing:
    """One entry of ``road_crossings``: a road crossing an approach between two strands."""

    index: int  # 1-based position in road_crossings
    road: str
    road_class: str
    approach: str
    frm: int
    to: int
    strand_from: int
    strand_to: int


def normalise_name(s: str) -> str:
    """Normal form of a toponym: NFC, casefold, ß -> ss, runs of white space collapsed."""
    return " ".join(unicodedata.normalize("NFC", s).casefold().replace("ß", "ss").split())


def _sorted_ids(ids: Iterable[int]) -> str:
    return ", ".join(str(i) for i in sorted(ids))


# --------------------------------------------------------------------------------------------------
# Board
# --------------------------------------------------------------------------------------------------


class Board:
    """An immutable, validated board. Build it with :func:`load_board`, :func:`parse_board` or
    :func:`board_named`."""

    __slots__ = (
        "_between",
        "_by_locale",
        "_distances",
        "_frozen",
        "_neighbours",
        "_passable",
        "_steps",
        "_steps_any",
        "_strands",
        "_toponym_index",
        "approaches",
        "army",
        "commanders",
        "crossings",
        "entries",
        "id",
        "locales",
        "name",
        "roads",
        "santon",
        "scenarios",
        "toponyms",
    )

    id: str
    name: str
    locales: Mapping[int, Locale]
    approaches: Mapping[str, Approach]
    entries: tuple[Entry, ...]
    commanders: Mapping[str, CommanderDef]
    scenarios: Mapping[str, ScenarioDef]
    army: Mapping[str, tuple[tuple[str, FaceDef], ...]]
    toponyms: tuple[Toponym, ...]
    roads: Mapping[str, str]  # road id -> "main" | "local"
    crossings: tuple[RoadCrossing, ...]  # in file order
    santon: int | None
    _by_locale: dict[int, tuple[str, ...]]
    _neighbours: dict[int, tuple[int, ...]]
    _passable: dict[int, tuple[int, ...]]
    _between: dict[tuple[int, int], str]
    _strands: dict[int, tuple[int, ...]]
    _steps: dict[tuple[int, int], tuple[RoadStep, ...]]
    _steps_any: dict[int, tuple[tuple[int, RoadStep], ...]]
    _toponym_index: Mapping[str, Toponym]
    _distances: dict[int, Mapping[int, int]]
    _frozen: bool

    def __init__(
        self,
        *,
        id: str,
        name: str,
        locales: Mapping[int, Locale],
        approaches: Mapping[str, Approach],
        crossings: Iterable[RoadCrossing],
        entries: tuple[Entry, ...],
        commanders: Mapping[str, CommanderDef],
        scenarios: Mapping[str, ScenarioDef],
        army: Mapping[str, tuple[tuple[str, FaceDef], ...]],
        toponyms: tuple[Toponym, ...],
        roads: Mapping[str, str] | None = None,
    ) -> None:
        self._frozen = False
        crossings = tuple(crossings)
        self.crossings = crossings
        self.roads = MappingProxyType(dict(roads or {}))
        self.id = id
        self.name = name
        self.locales = MappingProxyType(dict(locales))
        self.approaches = MappingProxyType(dict(approaches))
        self.entries = entries
        self.commanders = MappingProxyType(dict(commanders))
        self.scenarios = MappingProxyType(dict(scenarios))
        self.army = MappingProxyType(dict(army))
        self.toponyms = toponyms
        self.santon = next((lid for lid, loc in self.locales.items() if loc.santon), None)

        by_locale: dict[int, list[str]] = {lid: [] for lid in self.locales}
        nb: dict[int, set[int]] = {lid: set() for lid in self.locales}
        pnb: dict[int, set[int]] = {lid: set() for lid in self.locales}
        between: dict[tuple[int, int], str] = {}
        for ap in self.approaches.values():
            by_locale[ap.a].append(ap.id)
            by_locale[ap.b].append(ap.id)
            nb[ap.a].add(ap.b)
            nb[ap.b].add(ap.a)
            if not ap.impassable:
                pnb[ap.a].add(ap.b)
                pnb[ap.b].add(ap.a)
            between[(ap.a, ap.b)] = ap.id
            between[(ap.b, ap.a)] = ap.id
        self._by_locale = {lid: tuple(sorted(v)) for lid, v in by_locale.items()}
        self._neighbours = {lid: tuple(sorted(v)) for lid, v in nb.items()}
        self._passable = {lid: tuple(sorted(v)) for lid, v in pnb.items()}
        self._between = between

        steps: dict[tuple[int, int], set[RoadStep]] = {}
        for c in crossings:
            steps.setdefault((c.frm, c.strand_from), set()).add(
                RoadStep(c.approach, c.to, c.strand_to, c.road_class)
            )
            steps.setdefault((c.to, c.strand_to), set()).add(
                RoadStep(c.approach, c.frm, c.strand_from, c.road_class)
            )

        def step_key(s: RoadStep) -> tuple[int, int, str, str]:
            return (s.to_locale, s.to_strand, s.approach, s.road_class)

        self._steps = {node: tuple(sorted(v, key=step_key)) for node, v in steps.items()}
        strands: dict[int, set[int]] = {}
        for lid, strand in self._steps:
            strands.setdefault(lid, set()).add(strand)
        self._strands = {lid: tuple(sorted(v)) for lid, v in strands.items()}
        self._steps_any = {
            lid: tuple((s, step) for s in ss for step in self._steps[(lid, s)])
            for lid, ss in self._strands.items()
        }

        index: dict[str, Toponym] = {}
        for t in self.toponyms:
            for n in (t.name, *t.aliases):
                index.setdefault(normalise_name(n), t)
        self._toponym_index = MappingProxyType(index)
        self._distances = {}
        self._frozen = True

    def __setattr__(self, key: str, value: object) -> None:
        if getattr(self, "_frozen", False):
            raise AttributeError(f"Board is immutable: cannot set {key!r}")
        object.__setattr__(self, key, value)

    def __repr__(self) -> str:
        return (
            f"Board(id={self.id!r}, name={self.name!r}, locales={len(self.locales)}, "
            f"approaches={len(self.approaches)})"
        )

    # -- approaches and adjacency ----------------------------------------------------------------

    def _locale(self, locale: int) -> None:
        if locale not in self.locales:
            raise KeyError(f"locale {locale} does not exist on board {self.name}")

    def approaches_of(self, locale: int) -> tuple[str, ...]:
        """All approach ids touching `locale`, passable or not, sorted."""
        self._locale(locale)
        return self._by_locale[locale]

    def other_locale(self, approach: str, locale: int) -> int:
        ap = self.approaches[approach]
        if locale == ap.a:
            return ap.b
        if locale == ap.b:
            return ap.a
        raise ValueError(f"approach {approach}: does not touch locale {locale}")

    def side(self, approach: str, locale: int) -> ApproachSide:
        """`locale`'s side of `approach` (the symbols printed inside `locale`)."""
        ap = self.approaches[approach]
        if locale == ap.a:
            return ap.a_side
        if locale == ap.b:
            return ap.b_side
        raise ValueError(f"approach {approach}: does not touch locale {locale}")

    def between(self, a: int, b: int) -> str | None:
        """The approach joining `a` and `b`, or None if they are not adjacent."""
        return self._between.get((a, b))

    def neighbours(self, locale: int) -> tuple[int, ...]:
        """Adjacent locales, including those across impassable approaches (NT-14), sorted."""
        self._locale(locale)
        return self._neighbours[locale]

    def passable_neighbours(self, locale: int) -> tuple[int, ...]:
        self._locale(locale)
        return self._passable[locale]

    def distances_from(self, locale: int) -> Mapping[int, int]:
        """Fewest passable approaches crossed from `locale` to every locale (BFS; cached)."""
        cached = self._distances.get(locale)
        if cached is not None:
            return cached
        self._locale(locale)
        dist = {locale: 0}
        queue = deque([locale])
        while queue:
            cur = queue.popleft()
            d = dist[cur] + 1
            for n in self._passable[cur]:
                if n not in dist:
                    dist[n] = d
                    queue.append(n)
        result: Mapping[int, int] = MappingProxyType(dist)
        self._distances[locale] = result
        return result

    # -- roads ------------------------------------------------------------------------------------

    def strands(self, locale: int) -> tuple[int, ...]:
        """Road strands inside `locale`, sorted; empty if no road runs through it."""
        return self._strands.get(locale, ())

    def road_steps(self, locale: int, strand: int) -> tuple[RoadStep, ...]:
        """The road crossings leaving node (locale, strand)."""
        return self._steps.get((locale, strand), ())

    def road_steps_any(self, locale: int) -> tuple[tuple[int, RoadStep], ...]:
        """(strand, step) for every crossing leaving any strand of `locale`."""
        return self._steps_any.get(locale, ())

    # -- gazetteer --------------------------------------------------------------------------------

    def toponym_index(self) -> Mapping[str, Toponym]:
        """Normalised name or alias (see :func:`normalise_name`) -> toponym."""
        return self._toponym_index


# --------------------------------------------------------------------------------------------------
# Field readers (they record an error and return None when a field is missing or ill-typed)
# --------------------------------------------------------------------------------------------------

_MISSING = object()


def _show(v: object) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _type_name(v: object) -> str:
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


class _Reader:
    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, place: str, msg: str) -> None:
        self.errors.append(f"{place}: {msg}")

    def _bad(self, place: str, key: str, want: str, v: object) -> None:
        self.err(place, f"field '{key}' must be {want}, got {_type_name(v)} {_show(v)}")

    def mapping(self, v: object, place: str, what: str = "a mapping") -> dict[str, object] | None:
        if not isinstance(v, dict):
            self.err(place, f"must be {what}, got {_type_name(v)} {_show(v)}")
            return None
        out: dict[str, object] = {}
        for k, item in v.items():
            out[str(k)] = item
        return out

    def items(self, doc: Mapping[str, object], key: str) -> list[object]:
        v = doc.get(key, _MISSING)
        if v is _MISSING:
            self.err(key, "missing section")
            return []
        if not isinstance(v, list):
            self.err(key, f"must be a list, got {_type_name(v)}")
            return []
        out: list[object] = list(v)
        return out

    def get(self, m: Mapping[str, object], key: str, place: str) -> object:
        v = m.get(key, _MISSING)
        if v is _MISSING:
            self.err(place, f"missing field '{key}'")
        return v

    def int_(self, m: Mapping[str, object], key: str, place: str) -> int | None:
        v = self.get(m, key, place)
        if v is _MISSING:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            self._bad(place, key, "an integer", v)
            return None
        return v

    def str_(self, m: Mapping[str, object], key: str, place: str) -> str | None:
        v = self.get(m, key, place)
        if v is _MISSING:
            return None
        if not isinstance(v, str) or not v:
            self._bad(place, key, "a non-empty string", v)
            return None
        return v

    def bool_(
        self, m: Mapping[str, object], key: str, place: str, default: bool | None = None
    ) -> bool | None:
        v = m.get(key, _MISSING)
        if v is _MISSING or (v is None and default is not None):
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
        if v is _MISSING:
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
        if v is _MISSING:
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
        v = m.get(key, _MISSING)
        if v is _MISSING or v is None:
            if required and v is _MISSING:
                self.err(place, f"missing field '{key}'")
                return None
            return []
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self._bad(place, key, "a list of strings", v)
            return None
        return [x for x in v if isinstance(x, str)]

    def int_list(self, m: Mapping[str, object], key: str, place: str) -> list[int] | None:
        v = self.get(m, key, place)
        if v is _MISSING:
            return None
        if not isinstance(v, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v
        ):
            self._bad(place, key, "a list of integers", v)
            return None
        return [x for x in v if isinstance(x, int)]


def _item_place(kind: str, plural: str, i: int, ident: object) -> str:
    if ident is None or ident is _MISSING:
        return f"{plural}[{i}]"
    return f"{kind} {ident} ({plural}[{i}])"


# --------------------------------------------------------------------------------------------------
# parse_board
# --------------------------------------------------------------------------------------------------


def parse_board(doc: object, name: str, fragment: bool = False) -> Board:
    """Validate an already parsed ``nt-board/1`` document and build the board.

    Raises :class:`BoardError` listing every error, one per line, each starting with its place.
    ``fragment=True`` is for the small synthetic boards of the rulebook examples (tests, and the
    option ``board_fragment``): it keeps every structural check but skips the whole-map checks
    V-4, V-6, V-9 (entry counts), V-10, V-11 and V-14, which a two-locale fragment cannot pass.
    """
    r = _Reader()
    root = r.mapping(doc, "board", "a mapping (the board document)")
    if root is None:
        raise BoardError("\n".join(r.errors))

    # V-1 --------------------------------------------------------------------------------------
    schema = root.get("schema", _MISSING)
    if schema is _MISSING:
        r.err("schema", f"missing (expected '{SCHEMA}')")
    elif schema != SCHEMA:
        r.err("schema", f"expected '{SCHEMA}', got {_show(schema)} (V-1)")

    # meta -------------------------------------------------------------------------------------
    board_id = ""
    allowed_caps: set[int] | None = None
    meta_raw = root.get("meta", _MISSING)
    if meta_raw is _MISSING:
        r.err("meta", "missing section")
    else:
        meta = r.mapping(meta_raw, "meta")
        if meta is not None:
            board_id = r.str_(meta, "id", "meta") or ""
            caps = r.int_list(meta, "capacity_values_allowed", "meta")
            if caps is not None:
                allowed_caps = set(caps)

    # locales ----------------------------------------------------------------------------------
    locales: dict[int, Locale] = {}
    side_home: dict[int, str | None] = {}
    keys_seen: dict[str, int] = {}
    for i, raw in enumerate(r.items(root, "locales")):
        m = r.mapping(raw, f"locales[{i}]")
        if m is None:
            continue
        lid = r.int_(m, "id", f"locales[{i}]")
        if lid is None:
            continue
        place = _item_place("locale", "locales", i, lid)
        key = r.str_(m, "key", place)
        ok_name, lname = r.opt_str(m, "name", place)
        cap = r.int_(m, "capacity", place)
        hill = r.bool_(m, "hill", place)
        stars = r.str_list(m, "stars", place)
        setup = r.str_list(m, "setup", place)
        santon = r.bool_(m, "santon", place, default=False)
        sh = m.get("side_home")
        if sh is not None and sh not in SIDES:
            r.err(place, f"field 'side_home' must be F or AL, got {_show(sh)}")
        if key is None or not ok_name or cap is None or hill is None:
            continue
        if stars is None or setup is None or santon is None:
            continue
        sem = f"locale {lid}"
        if lid in locales:
            r.err(sem, f"duplicate id (locales[{i}]) (V-2)")
            continue
        if key in keys_seen:
            r.err(sem, f"key {key!r} already used by locale {keys_seen[key]}")
        keys_seen[key] = lid
        if cap < 1:
            r.err(sem, f"capacity {cap} must be positive (V-2)")
        elif allowed_caps is not None and cap not in allowed_caps:
            r.err(sem, f"capacity {cap} not in capacity_values_allowed {sorted(allowed_caps)}")
        bad_stars = [s for s in stars if s not in STAR_COLOURS]
        if bad_stars:
            r.err(sem, f"unknown star colour(s) {bad_stars} (V-2)")
        if len(set(setup)) != len(setup):
            r.err(sem, "a commander is listed twice in setup")
        locales[lid] = Locale(
            id=lid,
            key=key,
            name=lname,
            capacity=cap,
            hill=hill,
            stars=frozenset(s for s in stars if s in STAR_COLOURS),
            setup=tuple(setup),
            santon=santon,
        )
        side_home[lid] = sh if isinstance(sh, str) else None

    # approaches -------------------------------------------------------------------------------
    approaches: dict[str, Approach] = {}
    pair_of: dict[frozenset[int], str] = {}
    for i, raw in enumerate(r.items(root, "approaches")):
        m = r.mapping(raw, f"approaches[{i}]")
        if m is None:
            continue
        aid = r.str_(m, "id", f"approaches[{i}]")
        if aid is None:
            continue
        place = _item_place("approach", "approaches", i, aid)
        a = r.int_(m, "a", place)
        b = r.int_(m, "b", place)
        width_s = r.str_(m, "width", place)
        impassable = r.bool_(m, "impassable", place, default=False)
        sides: list[tuple[frozenset[str], bool, str | None] | None] = []
        for sk in ("a_side", "b_side"):
            sv = m.get(sk)
            if sv is None:
                sides.append((frozenset(), False, None))
                continue
            sm = r.mapping(sv, f"{place} {sk}")
            if sm is None:
                sides.append(None)
                continue
            pens = r.str_list(sm, "penalties", f"{place} {sk}", required=False)
            obst = r.bool_(sm, "obstructed", f"{place} {sk}", default=False)
            wo = sm.get("width")
            if wo is not None and not isinstance(wo, str):
                r.err(f"{place} {sk}", f"field 'width' must be narrow or wide, got {_show(wo)}")
                wo = None
            if pens is None or obst is None:
                sides.append(None)
                continue
            sides.append((frozenset(pens), obst, wo if isinstance(wo, str) else None))
        if a is None or b is None or width_s is None or impassable is None:
            continue
        sem = f"approach {aid}"
        if aid in approaches:
            r.err(sem, f"duplicate id (approaches[{i}])")
            continue
        ok = True
        for end in (a, b):
            if end not in locales:
                r.err(sem, f"locale {end} does not exist (V-3)")
                ok = False
        if a == b:
            r.err(sem, f"joins locale {a} to itself (V-3)")
            ok = False
        pair = frozenset((a, b))
        if ok and pair in pair_of:
            r.err(sem, f"locales {a} and {b} are already joined by approach {pair_of[pair]} (V-3)")
            ok = False
        if width_s not in WIDTHS:
            r.err(sem, f"width must be narrow or wide, got {width_s!r} (V-3)")
            ok = False
        side_objs: list[ApproachSide] = []
        for sk, sd, side_loc in (("a_side", sides[0], a), ("b_side", sides[1], b)):
            if sd is None:
                ok = False
                continue
            pens_set, obst, wo = sd
            bad = sorted(pens_set - PENALTIES)
            if bad:
                r.err(sem, f"{sk}: unknown penalty code(s) {bad} (V-3)")
                ok = False
            if wo is not None and wo not in WIDTHS:
                r.err(sem, f"{sk}: width must be narrow or wide, got {wo!r} (V-3)")
                ok = False
            if impassable and (pens_set or obst):
                r.err(sem, f"{sk}: impassable approach carries symbols (V-3)")
                ok = False
            w = WIDTHS.get(wo if wo is not None else width_s, 1)
            side_objs.append(ApproachSide(side_loc, w, pens_set & PENALTIES, obst))
        if not ok:
            continue
        pair_of[pair] = aid
        approaches[aid] = Approach(aid, a, b, impassable, side_objs[0], side_objs[1])

    nb: dict[int, set[int]] = {lid: set() for lid in locales}
    pnb: dict[int, set[int]] = {lid: set() for lid in locales}
    n_app: dict[int, int] = dict.fromkeys(locales, 0)
    for ap in approaches.values():
        nb[ap.a].add(ap.b)
        nb[ap.b].add(ap.a)
        n_app[ap.a] += 1
        n_app[ap.b] += 1
        if not ap.impassable:
            pnb[ap.a].add(ap.b)
            pnb[ap.b].add(ap.a)

    # V-4 connectivity ---------------------------------------------------------------------------
    if locales:
        start = min(locales)
        seen = {start}
        queue = deque([start])
        while queue:
            for nxt in pnb[queue.popleft()]:
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        missing = set(locales) - seen
        if missing and not fragment:
            some = sorted(missing)[:10]
            r.err(
                "board",
                f"passable approaches do not connect all locales: {len(missing)} unreachable from "
                f"locale {start}, e.g. {_sorted_ids(some)} (V-4)",
            )
    else:
        r.err("locales", "no locales")

    # V-5 Santon -------------------------------------------------------------------------------
    santons = [loc for loc in locales.values() if loc.santon]
    if len(santons) > 1:
        r.err("board", f"more than one Santon: locales {_sorted_ids(s.id for s in santons)} (V-5)")
    for st_loc in santons:
        place = f"locale {st_loc.id}"
        if not st_loc.hill:
            r.err(place, "the Santon must be a hill (V-5)")
        if n_app[st_loc.id] != 3:
            r.err(place, f"the Santon must have exactly 3 approaches, has {n_app[st_loc.id]} (V-5)")

    # V-6 blue stars in the French half ----------------------------------------------------------
    for loc in locales.values():
        if "blue" in loc.stars and side_home.get(loc.id) != "F" and not fragment:
            r.err(
                f"locale {loc.id}", "blue star outside the French half (side_home is not F) (V-6)"
            )

    # V-11 ---------------------------------------------------------------------------------------
    for col in STAR_COLOURS:
        if locales and not fragment and not any(col in loc.stars for loc in locales.values()):
            r.err("board", f"no {col} star on the map (V-11)")

    # roads ------------------------------------------------------------------------------------
    roads: dict[str, str] = {}
    for i, raw in enumerate(r.items(root, "roads")):
        m = r.mapping(raw, f"roads[{i}]")
        if m is None:
            continue
        rid = r.str_(m, "id", f"roads[{i}]")
        if rid is None:
            continue
        place = _item_place("road", "roads", i, rid)
        rcls = r.str_(m, "class", place)
        if rcls is None:
            continue
        if rid in roads:
            r.err(f"road {rid}", f"duplicate id (roads[{i}])")
            continue
        if rcls not in ROAD_CLASSES:
            r.err(f"road {rid}", f"class must be main or local, got {rcls!r}")
            continue
        roads[rid] = rcls

    crossings: list[RoadCrossing] = []
    for i, raw in enumerate(r.items(root, "road_crossings")):
        n = i + 1
        m = r.mapping(raw, f"road crossing {n}")
        if m is None:
            continue
        label = f"road crossing {n} ({m.get('approach')} {m.get('from')}->{m.get('to')})"
        road = r.str_(m, "road", label)
        cls = r.str_(m, "class", label)
        aid = r.str_(m, "approach", label)
        frm = r.int_(m, "from", label)
        to = r.int_(m, "to", label)
        sf = r.int_(m, "strand_from", label)
        st = r.int_(m, "strand_to", label)
        if road is None or cls is None or aid is None or frm is None or to is None:
            continue
        if sf is None or st is None:
            continue
        ok = True
        if cls not in ROAD_CLASSES:
            r.err(label, f"class must be main or local, got {cls!r} (V-8)")
            ok = False
        if road not in roads:
            r.err(label, f"road {road} does not exist (V-8)")
            ok = False
        elif roads[road] != cls:
            r.err(label, f"class {cls} differs from the class {roads[road]} of road {road} (V-8)")
            ok = False
        xap = approaches.get(aid)
        if xap is None:
            r.err(label, f"approach {aid} does not exist (V-8)")
            ok = False
        else:
            if xap.impassable:
                r.err(label, f"approach {aid} is impassable (V-8)")
                ok = False
            if {frm, to} != {xap.a, xap.b} or frm == to:
                joined = pair_of.get(frozenset((frm, to)))
                hint = (
                    f"; locales {frm} and {to} are joined by approach {joined}"
                    if joined is not None and frm != to
                    else f"; no approach joins locales {frm} and {to}"
                    if frm != to
                    else ""
                )
                r.err(
                    label,
                    f"approach {aid} joins {xap.a} and {xap.b}, not {frm} and {to}{hint} (V-8)",
                )
                ok = False
        if sf < 0 or st < 0:
            r.err(label, "strand numbers must not be negative")
            ok = False
        if ok:
            crossings.append(RoadCrossing(n, road, cls, aid, frm, to, sf, st))

    radj: dict[tuple[int, int], set[tuple[int, int]]] = {}
    node_classes: dict[tuple[int, int], set[str]] = {}
    for c in crossings:
        u, v = (c.frm, c.strand_from), (c.to, c.strand_to)
        radj.setdefault(u, set()).add(v)
        radj.setdefault(v, set()).add(u)
        node_classes.setdefault(u, set()).add(c.road_class)
        node_classes.setdefault(v, set()).add(c.road_class)

    # entries (V-9) ----------------------------------------------------------------------------
    entries: list[Entry] = []
    entry_ids: set[str] = set()
    main_entries: dict[str, list[tuple[int, int]]] = {s: [] for s in SIDES}
    for i, raw in enumerate(r.items(root, "entries")):
        m = r.mapping(raw, f"entries[{i}]")
        if m is None:
            continue
        eid = r.str_(m, "id", f"entries[{i}]")
        if eid is None:
            continue
        place = _item_place("entry", "entries", i, eid)
        eside = r.str_(m, "side", place)
        eloc = r.int_(m, "locale", place)
        estrand = r.int_(m, "strand", place)
        ecls = r.str_(m, "road_class", place)
        emain = r.bool_(m, "main_road_entry", place, default=False)
        if eside is None or eloc is None or estrand is None or ecls is None or emain is None:
            continue
        sem = f"entry {eid}"
        ok = True
        if eid in entry_ids:
            r.err(sem, f"duplicate id (entries[{i}])")
            ok = False
        entry_ids.add(eid)
        if eside not in SIDES:
            r.err(sem, f"side must be F or AL, got {eside!r}")
            ok = False
        if ecls not in ROAD_CLASSES:
            r.err(sem, f"road_class must be main or local, got {ecls!r}")
            ok = False
        if eloc not in locales:
            r.err(sem, f"locale {eloc} does not exist (V-9)")
            ok = False
        elif (eloc, estrand) not in radj:
            r.err(sem, f"no road crossing touches (locale {eloc}, strand {estrand}) (V-9)")
            ok = False
        elif ecls in ROAD_CLASSES and ecls not in node_classes[(eloc, estrand)]:
            r.err(sem, f"no {ecls} road at (locale {eloc}, strand {estrand}) (V-9)")
            ok = False
        if emain and ecls != "main":
            r.err(sem, "main-road entry on a local road (V-9)")
            ok = False
        if not ok:
            continue
        entries.append(Entry(eid, eside, eloc, estrand, ecls, emain))
        if emain:
            main_entries[eside].append((eloc, estrand))
    want_main = {"F": 1, "AL": 2}
    for s in SIDES:
        if len(main_entries[s]) != want_main[s] and not fragment:
            r.err(
                "entries",
                f"side {s} has {len(main_entries[s])} main-road entries, expected {want_main[s]} "
                "(V-9)",
            )

    # V-10 objectives reachable by road ----------------------------------------------------------
    def reach(starts: list[tuple[int, int]]) -> set[int]:
        seen_n = set(starts)
        q = deque(starts)
        while q:
            for nn in radj.get(q.popleft(), ()):
                if nn not in seen_n:
                    seen_n.add(nn)
                    q.append(nn)
        return {node[0] for node in seen_n}

    r_f, r_al = reach(main_entries["F"]), reach(main_entries["AL"])
    for loc in locales.values() if not fragment else ():
        if "blue" in loc.stars and loc.id not in r_al:
            r.err(f"locale {loc.id}", "blue star: no road to an Allied main-road entry (V-10)")
        if loc.stars & {"green", "red", "black"} and loc.id not in r_f:
            r.err(
                f"locale {loc.id}",
                "green/red/black star not joined by road to the French main-road entry (V-10)",
            )

    # commanders (V-7, V-14) ------------------------------------------------------------------
    commanders: dict[str, CommanderDef] = {}
    for i, raw in enumerate(r.items(root, "commanders")):
        m = r.mapping(raw, f"commanders[{i}]")
        if m is None:
            continue
        cid = r.str_(m, "id", f"commanders[{i}]")
        if cid is None:
            continue
        place = _item_place("commander", "commanders", i, cid)
        cname = r.str_(m, "name", place)
        cside = r.str_(m, "side", place)
        ok_sl, sl = r.opt_int(m, "setup_locale", place)
        reinf = r.bool_(m, "reinforcement", place, default=False)
        mu = r.int_(m, "min_units", place)
        if cname is None or cside is None or not ok_sl or reinf is None or mu is None:
            continue
        sem = f"commander {cid}"
        if cid in commanders:
            r.err(sem, f"duplicate id (commanders[{i}])")
            continue
        if cside not in SIDES:
            r.err(sem, f"side must be F or AL, got {cside!r}")
            continue
        if mu < 1:
            r.err(sem, f"min_units must be at least 1, got {mu}")
        commanders[cid] = CommanderDef(cid, cname, cside, sl, reinf, mu)

    placed: dict[str, list[int]] = {}
    for loc in locales.values():
        for cmd in loc.setup:
            placed.setdefault(cmd, []).append(loc.id)
            if cmd not in commanders:
                r.err(f"locale {loc.id}", f"unknown commander {cmd!r} in setup (V-7)")
    for cd in commanders.values():
        where = sorted(placed.get(cd.id, []))
        sem = f"commander {cd.id}"
        if cd.setup_locale is None:
            if where:
                r.err(
                    sem,
                    f"setup_locale is null but the commander is printed in locale(s) "
                    f"{_sorted_ids(where)} (V-7)",
                )
            continue
        if cd.setup_locale not in locales:
            r.err(sem, f"setup_locale {cd.setup_locale} does not exist (V-7)")
            continue
        if where != [cd.setup_locale]:
            shown = _sorted_ids(where) if where else "no locale"
            r.err(sem, f"setup_locale {cd.setup_locale} but printed in {shown} (V-7)")
        elif locales[cd.setup_locale].capacity < cd.min_units:
            r.err(
                sem,
                f"capacity {locales[cd.setup_locale].capacity} of set-up locale "
                f"{cd.setup_locale} is below min_units {cd.min_units} (V-7)",
            )
        if cd.side == "F":
            near = [
                n
                for n in (cd.setup_locale, *sorted(nb[cd.setup_locale]))
                if locales[n].stars & {"green", "red", "black"}
            ]
            if near and not fragment:
                r.err(
                    sem,
                    f"French set-up locale {cd.setup_locale} is in or next to a green/red/black "
                    f"star (locale {_sorted_ids(near)}) (V-14)",
                )

    # toponyms (V-12) --------------------------------------------------------------------------
    toponyms: list[Toponym] = []
    names: dict[str, str] = {}
    topo_ids: set[str] = set()
    for i, raw in enumerate(r.items(root, "toponyms")):
        m = r.mapping(raw, f"toponyms[{i}]")
        if m is None:
            continue
        tid = r.str_(m, "id", f"toponyms[{i}]")
        if tid is None:
            continue
        place = _item_place("toponym", "toponyms", i, tid)
        tname = r.str_(m, "name", place)
        aliases = r.str_list(m, "aliases", place, required=False)
        tlocs = r.int_list(m, "locales", place)
        if tname is None or aliases is None or tlocs is None:
            continue
        sem = f"toponym {tid}"
        if tid in topo_ids:
            r.err(sem, f"duplicate id (toponyms[{i}])")
            continue
        topo_ids.add(tid)
        if not all(ch.isascii() and (ch.islower() or ch.isdigit() or ch == "_") for ch in tid):
            r.err(sem, "id must match [a-z0-9_]+")
        for nm in (tname, *aliases):
            norm = normalise_name(nm)
            if not norm:
                r.err(sem, f"empty name {nm!r} (V-12)")
                continue
            other = names.setdefault(norm, tid)
            if other != tid:
                r.err(sem, f"name {nm!r} already used by toponym {other} (V-12)")
            if any(ch.isdigit() for ch in nm):
                r.err(sem, f"name {nm!r} contains a digit (V-12)")
        bad_locs = [x for x in tlocs if x not in locales]
        if bad_locs:
            r.err(sem, f"locale(s) {_sorted_ids(bad_locs)} do not exist (V-12)")
        toponyms.append(Toponym(tid, tname, tuple(aliases), tuple(tlocs)))
    for loc in locales.values():
        if loc.name is not None and normalise_name(loc.name) not in names:
            r.err(f"locale {loc.id}", f"name {loc.name!r} is not in the gazetteer (V-12)")

    # scenarios (V-13) -------------------------------------------------------------------------
    scenarios: dict[str, ScenarioDef] = {}
    sc_raw = root.get("scenarios", _MISSING)
    if sc_raw is _MISSING:
        r.err("scenarios", "missing section")
    else:
        sc_map = r.mapping(sc_raw, "scenarios")
        for sid, sv in (sc_map or {}).items():
            sc = _parse_scenario(r, sid, sv, commanders)
            if sc is not None:
                scenarios[sid] = sc
        if sc_map is not None and not sc_map:
            r.err("scenarios", "no scenario")

    # army (extension, GAP-2) ------------------------------------------------------------------
    army: dict[str, tuple[tuple[str, FaceDef], ...]] = {}
    army_raw = root.get("army", _MISSING)
    if army_raw is _MISSING:
        r.err("army", "missing section (the order of battle, napoleons-triumph.md GAP-2)")
    else:
        am = r.mapping(army_raw, "army")
        if am is not None:
            for s in am:
                if s not in SIDES:
                    r.err(f"army {s}", "unknown side (expected F or AL)")
            for s in SIDES:
                if s not in am:
                    r.err("army", f"missing side {s}")
                    continue
                units = _parse_army_side(r, s, am[s])
                if units is not None:
                    army[s] = units

    if r.errors:
        raise BoardError("\n".join(r.errors))
    return Board(
        id=board_id,
        name=name,
        locales=locales,
        approaches=approaches,
        crossings=crossings,
        entries=tuple(entries),
        commanders=commanders,
        scenarios=scenarios,
        army=army,
        toponyms=tuple(toponyms),
        roads=roads,
    )


def _parse_scenario(
    r: _Reader, sid: str, raw: object, commanders: Mapping[str, CommanderDef]
) -> ScenarioDef | None:
    place = f"scenario {sid}"
    m = r.mapping(raw, place)
    if m is None:
        return None
    sname = r.str_(m, "name", place)
    start = r.str_(m, "allied_start", place)
    ok = sname is not None and start is not None
    if start is not None and start not in ALLIED_START:
        r.err(place, f"allied_start must be one of {list(ALLIED_START)}, got {start!r}")
        ok = False

    morale: dict[str, int] = {}
    mr = r.get(m, "starting_morale", place)
    if mr is _MISSING:
        ok = False
    else:
        mm = r.mapping(mr, f"{place} starting_morale")
        if mm is None:
            ok = False
        else:
            for s in SIDES:
                v = r.int_(mm, s, f"{place} starting_morale")
                if v is None:
                    ok = False
                elif v < 0:
                    r.err(f"{place} starting_morale", f"{s} must not be negative, got {v}")
                    ok = False
                else:
                    morale[s] = v

    rounds: list[RoundDef] = []
    rr = r.get(m, "rounds", place)
    if rr is _MISSING:
        ok = False
    elif not isinstance(rr, list) or not rr:
        r.err(place, f"field 'rounds' must be a non-empty list, got {_show(rr)}")
        ok = False
    else:
        for j, raw_round in enumerate(rr):
            rp = f"{place} rounds[{j}]"
            rm = r.mapping(raw_round, rp)
            if rm is None:
                ok = False
                continue
            idx = r.int_(rm, "index", rp)
            day = r.int_(rm, "day", rp)
            ok_h, hour = r.opt_int(rm, "hour", rp)
            night = r.bool_(rm, "night", rp, default=False)
            if idx is None or day is None or not ok_h or night is None:
                ok = False
                continue
            rounds.append(RoundDef(idx, day, hour, night))
        if ok and [x.index for x in rounds] != list(range(1, len(rounds) + 1)):
            r.err(place, f"rounds must be numbered 1..{len(rounds)} in order (V-13)")
            ok = False

    reinf: dict[str, int] = {}
    fr = m.get("french_reinforcements")
    if fr is not None:
        if not isinstance(fr, list):
            r.err(place, f"field 'french_reinforcements' must be a list, got {_type_name(fr)}")
            ok = False
        else:
            for j, raw_r in enumerate(fr):
                rp = f"{place} french_reinforcements[{j}]"
                rm = r.mapping(raw_r, rp)
                if rm is None:
                    ok = False
                    continue
                cid = r.str_(rm, "commander", rp)
                first = r.int_(rm, "first_round", rp)
                if cid is None or first is None:
                    ok = False
                    continue
                if cid not in commanders:
                    r.err(place, f"reinforcement commander {cid!r} does not exist")
                    ok = False
                    continue
                if cid in reinf:
                    r.err(place, f"reinforcement commander {cid!r} listed twice")
                    ok = False
                    continue
                if rounds and not 1 <= first <= len(rounds):
                    r.err(place, f"first_round {first} of {cid} outside rounds 1..{len(rounds)}")
                    ok = False
                    continue
                reinf[cid] = first
    if not ok or sname is None or start is None:
        return None
    return ScenarioDef(
        id=sid,
        name=sname,
        allied_start=start,
        starting_morale=MappingProxyType(morale),
        reinforcement_rounds=MappingProxyType(reinf),
        rounds=tuple(rounds),
    )


def _parse_army_side(r: _Reader, side: str, raw: object) -> tuple[tuple[str, FaceDef], ...] | None:
    if not isinstance(raw, list):
        r.err(f"army {side}", f"must be a list, got {_type_name(raw)}")
        return None
    ok = True
    units: list[tuple[str, FaceDef]] = []
    prefix = UNIT_PREFIX[side]
    for j, item in enumerate(raw):
        place = f"army {side}[{j}]"
        m = r.mapping(item, place)
        if m is None:
            ok = False
            continue
        typ = r.str_(m, "type", place)
        strength = r.int_(m, "strength", place)
        count = r.int_(m, "count", place)
        if typ is None or strength is None or count is None:
            ok = False
            continue
        if typ not in UNIT_TYPES:
            r.err(place, f"unknown unit type {typ!r} (expected one of {', '.join(UNIT_TYPES)})")
            ok = False
        if not 1 <= strength <= 3:
            r.err(place, f"strength must be 1..3, got {strength}")
            ok = False
        elif typ == "ART" and strength != 1:
            r.err(place, f"artillery exists only at strength 1, got {strength}")
            ok = False
        elif typ == "GUARD" and strength != 3:
            r.err(place, f"Guard exists only at strength 3, got {strength}")
            ok = False
        if count < 1:
            r.err(place, f"count must be at least 1, got {count}")
            ok = False
        if ok:
            for _ in range(count):
                units.append((f"{prefix}{len(units) + 1:02d}", FaceDef(typ, strength)))
    if not units and ok:
        r.err(f"army {side}", "no units")
        return None
    return tuple(units) if ok else None


# --------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------


def _yaml_loader() -> type[yaml.SafeLoader]:
    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return loader


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read a board file (YAML, or JSON if it ends in .json), validate it and build the board.
    `Board.name` is the file stem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{p}: cannot read the board file: {exc.strerror or exc}") from exc
    doc: object
    try:
        if p.suffix.lower() == ".json":
            doc = json.loads(text)
        else:
            doc = yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a safe loader
    except (yaml.YAMLError, ValueError) as exc:
        raise BoardError(f"{p}: cannot parse the board file: {exc}") from exc
    try:
        return parse_board(doc, p.stem)
    except BoardError as exc:
        raise BoardError(f"{p}: invalid board\n{exc}") from None


_REGISTERED: dict[str, Board] = {}

# The boards that ship in `data/`: fixed when the module is imported, so whether a name is a board
# never depends on what a caller asks about (no file system probe, no existence oracle).
SHIPPED: tuple[str, ...] = tuple(sorted(f.stem for f in DATA_DIR.glob("*.yaml")))
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_ID_SHOWN = 40


def register_board(board: Board) -> None:
    """Make an in-memory board (a test fragment, `testing.fragment`) reachable by
    `board_named(board.name)` and the option `{"board": name}`, in this process only. A game
    that must replay elsewhere gives its board as data instead (option `board_data`)."""
    _REGISTERED[board.name] = board


def board_ids() -> tuple[str, ...]:
    """The ids `board_named` accepts: the shipped boards, then any registered in memory."""
    return SHIPPED + tuple(sorted(n for n in _REGISTERED if n not in SHIPPED))


def board_named(name: str) -> Board:
    """A registered board, else a shipped one (`_board_named`). A board is named by its id, never
    by a path: anything else is refused without touching the file system, and the error never
    echoes more than a short identifier."""
    found = _REGISTERED.get(name)
    return found if found is not None else _board_named(name)


def _is_id(name: str) -> bool:
    return 0 < len(name) <= MAX_ID_SHOWN and name[0].isalnum() and set(name) <= _ID_CHARS


@functools.lru_cache(maxsize=16)
def _board_named(name: str) -> Board:
    """The shipped board `games/napoleons_triumph/data/<name>.yaml` (one of `SHIPPED`, e.g.
    "austerlitz", "austerlitz-published"). Cached. A path or any unknown name is a BoardError
    naming the shipped ids; the file system is read only for a shipped id."""
    if name not in SHIPPED:
        shown = f"board {name!r}" if _is_id(name) else "this board"
        raise BoardError(
            f"{shown}: no such board; a board is named by its id, one of {', '.join(SHIPPED)}"
        )
    return load_board(DATA_DIR / f"{name}.yaml")
