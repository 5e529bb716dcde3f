"""Reading a `vf-army-list/1` file (digest 3.18).

Every value has a source: a profile's `source` (the rulebook line of its table row) covers the
values of that row; a value written ``{value, source}`` has its own; ``{value: null, gap: GAP-n}``
is unknown and becomes `Unknown(gap)` (never guessed). A plain null ranged value is the printed
"-" (no ranged attack, VF-14). Every problem is collected with its path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from games.core.bounded_yaml import at, idx
from games.valour_fortitude.army_data import (
    ArmyList,
    Category,
    Cautious,
    ElitePrices,
    LargeUnits,
    MilitiaTerms,
    NamedGeneral,
    Understrength,
    UnitOption,
    UnitProfile,
)
from games.valour_fortitude.problems import GAPS, Unknown
from games.valour_fortitude.reading import Reader

ARMY_FORMAT = "vf-army-list/1"
GAP_PATTERN = re.compile(r"GAP-\d{1,3}")


class ListReader(Reader):
    """A reader of the value forms of the data files (sources, gaps, categories)."""

    def source(self, value: object, path: str) -> str | None:
        return self.string(value, path, max_len=300)

    def known_or_gap(self, value: object, path: str) -> tuple[bool, object]:
        """(False, Unknown) for ``{value: null, gap}``, (True, value) for ``{value, source}``
        or a plain value (whose source is its row's)."""
        if not isinstance(value, dict) or "value" not in value:
            return True, value
        if value["value"] is None:
            fields = self.mapping(value, path, ("value", "gap"))
            gap = fields.get("gap") if fields else None
            if not isinstance(gap, str) or not GAP_PATTERN.fullmatch(gap) or gap not in GAPS:
                self.fail(at(path, "gap"), "an unknown value names a gap of the digest (GAP-n)")
                return False, Unknown("GAP-?")
            return False, Unknown(gap)
        fields = self.mapping(value, path, ("value", "source"))
        if fields and "source" in fields:
            self.source(fields["source"], at(path, "source"))
        return True, (fields or {}).get("value")

    def stat(self, value: object, path: str, *, dash: bool) -> int | Unknown | None:
        known, item = self.known_or_gap(value, path)
        if not known:
            return item if isinstance(item, Unknown) else Unknown("GAP-?")
        if item is None and dash:
            return None
        return self.integer(item, path, minimum=0, maximum=20)

    def categories(self, value: object, path: str) -> frozenset[Category] | None:
        names = self.strings(value, path, max_len=3)
        if names is None:
            return None
        bad = [n for n in names if n not in set(Category)]
        if bad:
            self.fail(path, f"unknown unit type(s): {', '.join(bad)}")
            return None
        return frozenset(Category(n) for n in names)


def read_army_list(doc: object, known_rules: Mapping[str, str]) -> tuple[ArmyList | None, Reader]:
    """The army list of a `vf-army-list/1` document, or None; the reader holds the problems."""
    r = ListReader()
    keys = ("format", "id", "name_de", "name_en", "source", "list_version", "period")
    more = ("napoleonic", "contingent_for", "unit_profiles", "upgrades", "generals", "defects")
    top = r.mapping(doc, "", (*keys, *more))
    if top is None:
        return None, r
    r.choice(top.get("format"), "format", (ARMY_FORMAT,))
    list_id = r.identifier(top.get("id"), "id")
    names = [r.string(top.get(k), k) for k in ("name_de", "name_en", "source", "list_version")]
    napoleonic = r.boolean(top.get("napoleonic"), "napoleonic")
    if top.get("period") is not None:
        r.string(top.get("period"), "period", max_len=40)
    for i, defect in enumerate(r.sequence(top.get("defects"), "defects", max_len=20) or []):
        r.string(defect, idx("defects", i))  # what the rulebook lacks or garbles (notes)
    _, hosts = r.known_or_gap(top.get("contingent_for"), "contingent_for")
    contingent_for = r.strings(hosts, "contingent_for")
    profiles = _profiles(r, top.get("unit_profiles"), known_rules)
    upgrades = _upgrades(r, top.get("upgrades"), known_rules)
    generals = _generals(r, top.get("generals"), known_rules)
    if r.problems or list_id is None or None in names or napoleonic is None:
        return None, r
    if contingent_for is None or profiles is None or upgrades is None or generals is None:
        return None, r
    name_de, name_en, source, version = (str(n) for n in names)
    elite, understrength, large, options = upgrades
    named, max_named, cautious = generals
    army = ArmyList(
        list_id,
        name_de,
        name_en,
        source,
        version,
        napoleonic,
        contingent_for,
        profiles,
        elite,
        understrength,
        large,
        options,
        named,
        max_named,
        cautious,
    )
    return army, r


def _profiles(
    r: ListReader, value: object, known_rules: Mapping[str, str]
) -> tuple[UnitProfile, ...] | None:
    items = r.sequence(value, "unit_profiles", max_len=60)
    if items is None:
        return None
    keys = ("id", "source", "category", "name_de", "name_en", "figures", "weapon", "range_in")
    stats = ("ranged", "melee", "morale", "special_rules", "points")
    out: list[UnitProfile] = []
    for i, item in enumerate(items):
        path = idx("unit_profiles", i)
        f = r.mapping(item, path, (*keys, *stats), ("note",))
        if f is None:
            continue
        pid = r.identifier(f.get("id"), at(path, "id"))
        source = r.source(f.get("source"), at(path, "source"))
        category = r.choice(f.get("category"), at(path, "category"), set(Category))
        name_de = r.string(f.get("name_de"), at(path, "name_de"))
        name_en = r.string(f.get("name_en"), at(path, "name_en"))
        figures = r.sequence(f.get("figures"), at(path, "figures"), max_len=2)
        low, high = (figures or [None, None]) if len(figures or ()) == 2 else (None, None)
        fmin = r.integer(low, at(path, "figures"), minimum=1, maximum=100)
        fmax = r.integer(high, at(path, "figures"), minimum=1, maximum=100)
        weapon = r.string(f.get("weapon"), at(path, "weapon"), max_len=60)
        rng_raw = f.get("range_in")
        rng = None if rng_raw is None else r.integer(rng_raw, at(path, "range_in"), minimum=1)
        ranged = r.stat(f.get("ranged"), at(path, "ranged"), dash=True)
        melee = r.stat(f.get("melee"), at(path, "melee"), dash=False)
        morale = r.stat(f.get("morale"), at(path, "morale"), dash=False)
        rules = r.strings(f.get("special_rules"), at(path, "special_rules"), max_len=8) or ()
        for rule in rules:
            if rule not in known_rules:
                r.fail(at(path, "special_rules"), f"unknown special rule {rule!r}")
        points = r.integer(f.get("points"), at(path, "points"), minimum=0, maximum=200)
        if (
            pid is None
            or source is None
            or category is None
            or name_de is None
            or name_en is None
            or weapon is None
            or fmin is None
            or fmax is None
            or points is None
            or melee is None
            or morale is None
        ):
            continue
        if fmin > fmax:
            r.fail(at(path, "figures"), "the minimum is above the maximum")
        out.append(
            UnitProfile(
                pid,
                source,
                Category(category),
                name_de,
                name_en,
                fmin,
                fmax,
                weapon,
                rng,
                ranged,
                melee,
                morale,
                rules,
                points,
            )
        )
    if len({p.id for p in out}) != len(out):
        r.fail("unit_profiles", "profile ids must be unique")
    return tuple(out)


def _upgrades(
    r: ListReader, value: object, known_rules: Mapping[str, str]
) -> tuple[ElitePrices | Unknown, Understrength, LargeUnits | None, tuple[UnitOption, ...]] | None:
    f = r.mapping(value, "upgrades", ("elite", "understrength", "large", "options"))
    if f is None:
        return None
    elite: ElitePrices | Unknown | None
    known, raw = r.known_or_gap(f.get("elite"), "upgrades.elite")
    if not known and isinstance(raw, Unknown):
        elite = raw
    else:
        e = r.mapping(raw, "upgrades.elite", ("source", "prices"))
        prices = r.mapping(
            (e or {}).get("prices"),
            "upgrades.elite.prices",
            ("infantry_ranged", "artillery_ranged", "melee", "morale"),
        )
        nums = [
            r.integer((prices or {}).get(k), f"upgrades.elite.prices.{k}", minimum=0)
            for k in ("infantry_ranged", "artillery_ranged", "melee", "morale")
        ]
        source = r.source((e or {}).get("source"), "upgrades.elite.source")
        elite = None
        if source and all(n is not None for n in nums):
            a, b, c, d = (int(n or 0) for n in nums)
            elite = ElitePrices(source, a, b, c, d)
    under = _understrength(r, f.get("understrength"))
    large = _large(r, f.get("large"))
    options = _options(r, f.get("options"), known_rules)
    if elite is None or under is None or options is None:
        return None
    return elite, under, large, options


def _understrength(r: ListReader, value: object) -> Understrength | None:
    path = "upgrades.understrength"
    keys = ("source", "categories", "excludes_detachments", "melee", "morale", "points")
    f = r.mapping(value, path, (*keys, "militia", "loses_rules", "note"))
    if f is None:
        return None
    militia = None
    if f.get("militia") is not None:
        m = r.mapping(f.get("militia"), at(path, "militia"), ("rules", "melee", "morale", "points"))
        m = m or {}
        rules = r.strings(m.get("rules"), at(path, "militia.rules")) or ()
        nums = [
            r.integer(m.get(k), at(path, f"militia.{k}")) for k in ("melee", "morale", "points")
        ]
        militia = MilitiaTerms(rules, *(int(n or 0) for n in nums))
    source = r.source(f.get("source"), at(path, "source"))
    categories = r.categories(f.get("categories"), at(path, "categories"))
    excludes = r.boolean(f.get("excludes_detachments"), at(path, "excludes_detachments"))
    nums = [r.integer(f.get(k), at(path, k)) for k in ("melee", "morale", "points")]
    loses = r.strings(f.get("loses_rules"), at(path, "loses_rules")) or ()
    if source is None or categories is None or excludes is None or None in nums:
        return None
    melee, morale, points = (int(n or 0) for n in nums)
    return Understrength(source, categories, excludes, melee, morale, points, militia, loses)


def _large(r: ListReader, value: object) -> LargeUnits | None:
    if value is None:
        return None
    path = "upgrades.large"
    keys = ("source", "categories", "excludes_detachments", "melee", "morale", "points")
    f = r.mapping(value, path, keys) or {}
    source = r.source(f.get("source"), at(path, "source"))
    categories = r.categories(f.get("categories"), at(path, "categories"))
    excludes = r.boolean(f.get("excludes_detachments"), at(path, "excludes_detachments"))
    nums = [r.integer(f.get(k), at(path, k)) for k in ("melee", "morale", "points")]
    if source is None or categories is None or excludes is None or None in nums:
        return None
    melee, morale, points = (int(n or 0) for n in nums)
    return LargeUnits(source, categories, excludes, melee, morale, points)


def _options(
    r: ListReader, value: object, known_rules: Mapping[str, str]
) -> tuple[UnitOption, ...] | None:
    items = r.sequence(value, "upgrades.options", max_len=20)
    if items is None:
        return None
    keys = (
        "id",
        "source",
        "categories",
        "excludes_detachments",
        "excluded_rules",
        "excluded_profiles",
        "weapons",
        "grants",
        "ranged",
        "morale",
        "range",
        "points",
        "group",
        "note",
    )
    out: list[UnitOption] = []
    for i, item in enumerate(items):
        path = idx("upgrades.options", i)
        f = r.mapping(item, path, keys) or {}
        oid = r.identifier(f.get("id"), at(path, "id"))
        source = r.source(f.get("source"), at(path, "source"))
        cats = None if f.get("categories") is None else r.categories(f.get("categories"), path)
        excludes = r.boolean(f.get("excludes_detachments"), at(path, "excludes_detachments"))
        ex_rules = r.strings(f.get("excluded_rules"), at(path, "excluded_rules")) or ()
        ex_profiles = r.strings(f.get("excluded_profiles"), at(path, "excluded_profiles")) or ()
        weapons = f.get("weapons")
        weapon_names = None
        if weapons is not None:
            listed = r.sequence(weapons, at(path, "weapons"), max_len=6) or []
            weapon_names = tuple(str(w) for w in listed)
        grants = r.strings(f.get("grants"), at(path, "grants")) or ()
        for rule in grants:
            if rule not in known_rules:
                r.fail(at(path, "grants"), f"unknown special rule {rule!r}")
        nums = [r.integer(f.get(k), at(path, k)) for k in ("ranged", "morale", "points")]
        rng = (
            None if f.get("range") is None else r.choice(f.get("range"), path, ("minus_one_third",))
        )
        group = None if f.get("group") is None else r.identifier(f.get("group"), at(path, "group"))
        if oid is None or source is None or excludes is None or None in nums:
            continue
        ranged, morale, points = (int(n or 0) for n in nums)
        out.append(
            UnitOption(
                oid,
                source,
                cats,
                excludes,
                ex_rules,
                ex_profiles,
                weapon_names,
                grants,
                ranged,
                morale,
                rng,
                points,
                group,
            )
        )
    return tuple(out)


def _generals(
    r: ListReader, value: object, known_rules: Mapping[str, str]
) -> tuple[tuple[NamedGeneral, ...] | Unknown, int, Cautious] | None:
    f = r.mapping(value, "generals", ("named", "max_named", "cautious"))
    if f is None:
        return None
    known, raw = r.known_or_gap(f.get("named"), "generals.named")
    named: tuple[NamedGeneral, ...] | Unknown
    if not known and isinstance(raw, Unknown):
        named = raw
    else:
        found: list[NamedGeneral] = []
        for i, item in enumerate(r.sequence(raw, "generals.named", max_len=8) or []):
            path = idx("generals.named", i)
            g = r.mapping(item, path, ("rule", "points", "source")) or {}
            rule = r.identifier(g.get("rule"), at(path, "rule"))
            points = r.integer(g.get("points"), at(path, "points"), minimum=0, maximum=100)
            source = r.source(g.get("source"), at(path, "source"))
            if rule is not None and rule not in known_rules:
                r.fail(at(path, "rule"), f"unknown leader rule {rule!r}")
            if rule and points is not None and source:
                found.append(NamedGeneral(rule, points, source))
        named = tuple(found)
    _, max_raw = r.known_or_gap(f.get("max_named"), "generals.max_named")
    max_named = r.integer(max_raw, "generals.max_named", minimum=0, maximum=1)
    c = (
        r.mapping(
            f.get("cautious"),
            "generals.cautious",
            ("allowed", "source"),
            ("budget_per_bg", "budget_cinc"),
        )
        or {}
    )
    allowed = r.boolean(c.get("allowed"), "generals.cautious.allowed")
    source = r.source(c.get("source"), "generals.cautious.source")
    per_bg = r.integer(c.get("budget_per_bg", 0), "generals.cautious.budget_per_bg", minimum=0)
    cinc = r.integer(c.get("budget_cinc", 0), "generals.cautious.budget_cinc", minimum=0)
    if max_named is None or allowed is None or source is None or per_bg is None or cinc is None:
        return None
    return named, max_named, Cautious(allowed, per_bg, cinc, source)
