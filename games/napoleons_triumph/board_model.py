"""The board model of Napoleon's Triumph (rulebook chapter 4, Das Spielbrett): the constants of
the schema ``nt-board/1`` (``rules/data/austerlitz-map.md``, section 2), the immutable records a
validated board file becomes, and :class:`Board`, the map queries (approaches, adjacency,
distances, road strands, gazetteer). Building a board from a document is ``board_parse``; loading
and naming boards is ``board``.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "ALLIED_START",
    "PENALTIES",
    "ROAD_CLASSES",
    "SCHEMA",
    "SIDES",
    "STAR_COLOURS",
    "UNIT_PREFIX",
    "UNIT_TYPES",
    "WIDTHS",
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
    "normalise_name",
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
