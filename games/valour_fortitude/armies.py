"""Army lists and army building (digest 3.18, VF-230..VF-240).

`army_lists()` loads the shipped `data/armies/*.yaml` files (bounded, `yaml.safe_load`, every
value checked); `check_army(army_list, submitted)` checks a player's army document and returns
every problem, each naming its place in the document, the list entry and the rule;
`army_points` is its cost (`bought_units.unit_stats`: the values a bought unit fights with).

The submitted army (a JSON or YAML mapping)::

    army_list: france_1812_1815
    points_limit: 250
    cinc: {id: L-F0, named_general: napoleon, cautious: false}
    brigades:
    - id: BR-F1
      bg: {id: L-F1, cautious: false}
      units:
      - {id: U-F1, profile: grenadiere, figures: 24, elite: [melee]}
      - {id: U-F2, profile: linieninfanterie, figures: 12, understrength: true}
      - {id: U-F3, profile: garde, list: allied_french_british, figures: 24}   # VF-238

A unit may also have `large: true` (VF-235) and `options: [...]` (VF-239).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from games.core.bounded_yaml import at, idx, parse_yaml, read_bounded
from games.valour_fortitude.army_data import ArmyList, Category, UnitProfile
from games.valour_fortitude.army_list_reading import read_army_list
from games.valour_fortitude.bought_units import BoughtUnit, option_refusal, read_unit
from games.valour_fortitude.problems import DataError, Problem, Unknown
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.rule_catalogue import read_special_rules

DATA_DIR = Path(__file__).parent / "data"
ARMIES_DIR = DATA_DIR / "armies"
MAX_BRIGADES = 20
MAX_UNITS = 8  # VF-13: a brigade has 2-8 units
MIN_UNITS = 2


@functools.cache
def special_rules() -> Mapping[str, str]:
    """Every special rule an army list may name: key -> German name."""
    return read_special_rules(parse_yaml(read_bounded(DATA_DIR / "special_rules.yaml")))


@functools.cache
def army_lists() -> Mapping[str, ArmyList]:
    """The shipped army lists by id (each file is named after its list)."""
    out: dict[str, ArmyList] = {}
    for path in sorted(ARMIES_DIR.glob("*.yaml")):
        army, reader = read_army_list(parse_yaml(read_bounded(path)), special_rules())
        if army is None or reader.problems:
            raise DataError(path.name, reader.problems or [Problem("", "format", "unreadable")])
        if army.id != path.stem:
            raise DataError(path.name, [Problem("id", "format", "the id must be the file name")])
        out[army.id] = army
    return out


def army_list(list_id: str) -> ArmyList:
    found = army_lists().get(list_id)
    if found is None:
        raise KeyError(f"no army list {list_id!r} (lists: {', '.join(sorted(army_lists()))})")
    return found


def check_army(
    armylist: ArmyList, submitted: object, lists: Mapping[str, ArmyList] | None = None
) -> list[Problem]:
    """Every problem of `submitted` against `armylist` (empty: the army is legal)."""
    return _Review(armylist, lists if lists is not None else army_lists(), submitted).problems


def army_points(
    armylist: ArmyList, submitted: object, lists: Mapping[str, ArmyList] | None = None
) -> int:
    """The army's cost (VF-230): units, their upgrades and the named general; BGs and the CinC
    themselves cost nothing (VF-246)."""
    return _Review(armylist, lists if lists is not None else army_lists(), submitted).cost


class _Review:
    """One pass over a submitted army: its problems and its cost."""

    def __init__(self, armylist: ArmyList, lists: Mapping[str, ArmyList], doc: object) -> None:
        self.army = armylist
        self.lists = lists
        self.r = Reader()
        self.cost = 0
        self.ids: set[str] = set()
        self._read(doc)
        self.problems = self.r.problems

    def fail(self, path: str, rule: str, message: str) -> None:
        self.r.fail(path, message, rule)

    def _unique(self, value: object, path: str) -> None:
        ident = self.r.identifier(value, path)
        if ident is not None and ident in self.ids:
            self.fail(path, "VF-240", f"the id {ident!r} is used twice")
        elif ident is not None:
            self.ids.add(ident)

    def _read(self, doc: object) -> None:
        top = self.r.mapping(doc, "", ("army_list", "points_limit", "cinc", "brigades"))
        if top is None:
            return
        if top.get("army_list") != self.army.id:
            shown = repr(top.get("army_list"))[:60]
            self.fail("army_list", "VF-14", f"this is the {self.army.id} list, not {shown}")
        limit = self.r.integer(top.get("points_limit"), "points_limit", minimum=1, maximum=10000)
        budget = self._cinc(top.get("cinc"))
        brigades = self.r.sequence(top.get("brigades"), "brigades", max_len=MAX_BRIGADES) or []
        if not brigades and "brigades" in top:
            self.fail("brigades", "VF-231", "an army has at least one brigade")
        for i, brigade in enumerate(brigades):
            budget += self._brigade(brigade, idx("brigades", i))
        if limit is not None and self.cost > limit + budget:
            extra = f" + {budget} for cautious generals (VF-237)" if budget else ""
            message = f"the army costs {self.cost} points, more than the limit {limit}{extra}"
            self.fail("points_limit", "VF-230", message)

    def _cinc(self, value: object) -> int:
        """Reads the CinC; returns the budget a cautious CinC adds (VF-237)."""
        c = self.r.mapping(value, "cinc", ("id",), ("named_general", "cautious"))
        if c is None:
            return 0
        self._unique(c.get("id"), "cinc.id")
        general = c.get("named_general")
        if general is not None:
            named = self.army.named_generals
            if isinstance(named, Unknown):
                self.fail(
                    "cinc.named_general",
                    named.gap,
                    f"the {self.army.id} list offers no named generals ({named.gap})",
                )
            else:
                option = next((g for g in named if g.rule == general), None)
                if option is None:
                    offered = ", ".join(g.rule for g in named) or "none"
                    self.fail(
                        "cinc.named_general",
                        "VF-236",
                        f"{general!r} is not a general option of {self.army.id} "
                        f"(offered: {offered})",
                    )
                else:
                    self.cost += option.points
        return self.army.cautious.budget_cinc if self._cautious(c, "cinc") else 0

    def _cautious(self, leader: Mapping[str, object], path: str) -> bool:
        cautious = self.r.boolean(leader.get("cautious", False), at(path, "cautious"))
        if cautious and not self.army.cautious.allowed:
            self.fail(
                at(path, "cautious"),
                "VF-237",
                f"the {self.army.id} list offers no 'Vorsichtig' generals "
                f"({self.army.cautious.source})",
            )
            return False
        return bool(cautious)

    def _brigade(self, value: object, path: str) -> int:
        """Reads a brigade; returns the budget a cautious BG adds (VF-237)."""
        b = self.r.mapping(value, path, ("id", "bg", "units"))
        if b is None:
            return 0
        self._unique(b.get("id"), at(path, "id"))
        bg = None
        if "bg" in b:  # VF-13: a brigade has a BG (a missing one is reported once, above)
            bg = self.r.mapping(b["bg"], at(path, "bg"), ("id",), ("cautious",))
        budget = 0
        if bg is not None:
            self._unique(bg.get("id"), at(path, "bg.id"))
            budget = self.army.cautious.budget_per_bg if self._cautious(bg, at(path, "bg")) else 0
        units = self.r.sequence(b.get("units"), at(path, "units"), max_len=40)
        if units is None:
            return budget
        if not MIN_UNITS <= len(units) <= MAX_UNITS:
            self.fail(
                at(path, "units"),
                "VF-231",
                f"a brigade has 2 to 8 units, this one has {len(units)}",
            )
        for i, unit in enumerate(units):
            self._unit(unit, idx(at(path, "units"), i))
        return budget

    def _unit(self, value: object, path: str) -> None:
        unit = read_unit(self.r, value, path, self.army.id)
        if unit is None:
            return
        self._unique(unit.id, at(path, "id"))
        source = self._list_of(unit, path)
        if source is None:
            return
        profile = source.profile(unit.profile)
        if profile is None:
            self.fail(
                at(path, "profile"),
                "VF-240",
                f"the {source.id} list has no unit profile {unit.profile!r}",
            )
            return
        name = f"{profile.name_de} ({source.id}.{profile.id})"
        self.cost += profile.points
        self._figures(unit, profile, source, path, name)
        self._elite(unit, profile, source, path, name)
        self._options(unit, profile, source, path, name)

    def _list_of(self, unit: BoughtUnit, path: str) -> ArmyList | None:
        if unit.list_id == self.army.id:
            return self.army
        other = self.lists.get(unit.list_id)
        if other is None:
            self.fail(at(path, "list"), "VF-240", f"no army list {unit.list_id!r}")
        elif self.army.id not in other.contingent_for:  # VF-238
            self.fail(
                at(path, "list"),
                "GAP-8",
                f"{other.id} units may not join a {self.army.id} army (VF-238, GAP-8)",
            )
        else:
            return other
        return None

    def _figures(
        self, unit: BoughtUnit, profile: UnitProfile, source: ArmyList, path: str, name: str
    ) -> None:
        low, high = profile.figures_min, profile.figures_max
        if unit.understrength:  # VF-234, halving rounds down (AMB-46)
            terms = source.understrength
            if profile.category not in terms.categories or (
                terms.excludes_detachments and profile.is_detachment
            ):
                self.fail(
                    at(path, "understrength"),
                    "VF-234",
                    f"{name} may not be fielded understrength ({terms.source})",
                )
                return
            militia = terms.militia
            if militia is not None and set(militia.rules) & set(profile.special_rules):
                self.cost += militia.points
            else:
                self.cost += terms.points
            low, high = low // 2, high // 2
        if unit.large:  # VF-235
            large = source.large
            if (
                large is None
                or profile.category not in large.categories
                or (large.excludes_detachments and profile.is_detachment)
            ):
                self.fail(at(path, "large"), "VF-235", f"{name} may not be a large unit")
                return
            self.cost += large.points
            low, high = low * 2, high * 2
        if not low <= unit.figures <= high:  # VF-232
            self.fail(
                at(path, "figures"),
                "VF-232",
                f"{name} has {low} to {high} figures, not {unit.figures}",
            )

    def _elite(
        self, unit: BoughtUnit, profile: UnitProfile, source: ArmyList, path: str, name: str
    ) -> None:
        if not unit.elite:
            return
        prices = source.elite
        if isinstance(prices, Unknown):
            self.fail(
                at(path, "elite"),
                prices.gap,
                f"the {source.id} list offers no elite upgrade ({prices.gap})",
            )
            return
        for i, stat in enumerate(unit.elite):
            where = idx(at(path, "elite"), i)
            if unit.elite.index(stat) != i:  # VF-233: each characteristic at most once
                self.fail(where, "VF-233", f"{name}: +1 {stat} may be bought only once")
            elif stat == "melee":
                self.cost += prices.melee
            elif stat == "morale":
                self.cost += prices.morale
            elif profile.category is Category.INFANTRY:
                self.cost += prices.infantry_ranged
            elif profile.category is Category.ARTILLERY:
                self.cost += prices.artillery_ranged
            else:
                self.fail(where, "VF-233", f"{name}: only infantry and artillery buy +1 ranged")

    def _options(
        self, unit: BoughtUnit, profile: UnitProfile, source: ArmyList, path: str, name: str
    ) -> None:
        groups: dict[str, str] = {}
        for i, option_id in enumerate(unit.options):
            where = idx(at(path, "options"), i)
            option = source.option(option_id)
            if option is None:
                offered = ", ".join(o.id for o in source.options) or "none"
                self.fail(
                    where,
                    "VF-239",
                    f"{option_id!r} is not an option of {source.id} (offered: {offered})",
                )
                continue
            if unit.options.index(option_id) != i:
                self.fail(where, "VF-239", f"{name}: {option_id} is bought twice")
                continue
            why = option_refusal(option, profile)
            if why:
                self.fail(where, "VF-239", f"{name} may not take {option_id}: {why}")
                continue
            if option.group is not None and option.group in groups:
                self.fail(
                    where,
                    "VF-239",
                    f"{name}: {option_id} and {groups[option.group]} exclude each other",
                )
                continue
            if option.group is not None:
                groups[option.group] = option_id
            self.cost += option.points
