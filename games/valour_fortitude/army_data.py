"""The army lists as data (digest 3.18, VF-14, VF-230..VF-240): the records a
`vf-army-list/1` file is read into (`army_list_reading`).

An unknown value is `Unknown(gap)` (never guessed); a ranged value of None is the printed "-"
(no ranged attack, VF-14).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.valour_fortitude.problems import Unknown


class Category(StrEnum):  # VF-14: the three unit types of a profile
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


@dataclass(frozen=True, slots=True)
class UnitProfile:  # VF-14
    id: str
    source: str
    category: Category
    name_de: str
    name_en: str
    figures_min: int
    figures_max: int
    weapon: str
    range_in: int | None  # None: a melee-only weapon
    ranged: int | Unknown | None  # None: the printed "-"
    melee: int | Unknown
    morale: int | Unknown
    special_rules: tuple[str, ...]
    points: int

    @property
    def is_detachment(self) -> bool:
        """VF-232: detachments are the profiles named "...abteilung"."""
        return "abteilung" in self.name_de.lower()


@dataclass(frozen=True, slots=True)
class ElitePrices:  # VF-233
    source: str
    infantry_ranged: int
    artillery_ranged: int
    melee: int
    morale: int


@dataclass(frozen=True, slots=True)
class MilitiaTerms:  # VF-234: militia (Landwehr in Austria) pay less when understrength
    rules: tuple[str, ...]
    melee: int
    morale: int
    points: int


@dataclass(frozen=True, slots=True)
class Understrength:  # VF-234
    source: str
    categories: frozenset[Category]
    excludes_detachments: bool
    melee: int
    morale: int
    points: int
    militia: MilitiaTerms | None
    loses_rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LargeUnits:  # VF-235 (Austria)
    source: str
    categories: frozenset[Category]
    excludes_detachments: bool
    melee: int
    morale: int
    points: int


@dataclass(frozen=True, slots=True)
class UnitOption:  # VF-239: a list-specific option bought for a unit
    id: str
    source: str
    categories: frozenset[Category] | None  # None: any unit
    excludes_detachments: bool
    excluded_rules: tuple[str, ...]
    excluded_profiles: tuple[str, ...]
    weapons: tuple[str, ...] | None  # None: any weapon
    grants: tuple[str, ...]
    ranged: int
    morale: int
    range: str | None  # "minus_one_third" (smoothbore muskets) or None
    points: int
    group: str | None  # options of one group exclude each other (the weapon options)


@dataclass(frozen=True, slots=True)
class NamedGeneral:  # VF-236
    rule: str
    points: int
    source: str


@dataclass(frozen=True, slots=True)
class Cautious:  # VF-205, VF-237
    allowed: bool
    budget_per_bg: int
    budget_cinc: int
    source: str


@dataclass(frozen=True, slots=True)
class ArmyList:
    id: str
    name_de: str
    name_en: str
    source: str
    list_version: str
    napoleonic: bool
    contingent_for: tuple[str, ...]  # VF-238: the host armies this list may join
    profiles: tuple[UnitProfile, ...]
    elite: ElitePrices | Unknown
    understrength: Understrength
    large: LargeUnits | None
    options: tuple[UnitOption, ...]
    named_generals: tuple[NamedGeneral, ...] | Unknown
    max_named: int
    cautious: Cautious

    def profile(self, profile_id: str) -> UnitProfile | None:
        return next((p for p in self.profiles if p.id == profile_id), None)

    def option(self, option_id: str) -> UnitOption | None:
        return next((o for o in self.options if o.id == option_id), None)
