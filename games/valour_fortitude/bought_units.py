"""A unit bought from an army list (VF-232..VF-239): its entry in a submitted army
(`read_unit`), whether an option suits it (`option_refusal`) and the values it fights with
(`unit_stats`)."""

from __future__ import annotations

from dataclasses import dataclass

from games.core.bounded_yaml import at, idx
from games.valour_fortitude.army_data import ArmyList, UnitOption, UnitProfile
from games.valour_fortitude.problems import Unknown, UnknownValueError
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.state import Stats

ELITE_STATS = ("ranged", "melee", "morale")


@dataclass(frozen=True, slots=True)
class BoughtUnit:
    """One unit entry of a submitted army, as read."""

    id: str
    list_id: str
    profile: str
    figures: int
    elite: tuple[str, ...] = ()
    understrength: bool = False
    large: bool = False
    options: tuple[str, ...] = ()


def _known(value: int | Unknown | None, what: str) -> int | None:
    if isinstance(value, Unknown):
        raise UnknownValueError(value.gap, what)
    return value


def unit_stats(source: ArmyList, unit: BoughtUnit) -> Stats:
    """The unit's values after its upgrades, from `source`, the list it was bought from (its
    own list, or the Allied list for a contingent, VF-238). Raises UnknownValueError naming the
    gap when the profile has an unknown value (e.g. GAP-15), KeyError for an unknown profile."""
    if source.id != unit.list_id:
        raise KeyError(f"{unit.id} was bought from {unit.list_id}, not {source.id}")
    profile = source.profile(unit.profile)
    if profile is None:
        raise KeyError(f"{source.id} has no profile {unit.profile!r}")
    what = f"{source.id}.{profile.id}"
    ranged = _known(profile.ranged, f"{what}.ranged")
    melee = _known(profile.melee, f"{what}.melee") or 0
    morale = _known(profile.morale, f"{what}.morale") or 0
    melee += "melee" in unit.elite
    morale += "morale" in unit.elite
    if ranged is not None:
        ranged += "ranged" in unit.elite
    rules = list(profile.special_rules)
    if unit.understrength:  # VF-234
        terms = source.understrength
        militia = terms.militia
        if militia is not None and set(militia.rules) & set(profile.special_rules):
            melee, morale = melee + militia.melee, morale + militia.morale
        else:
            melee, morale = melee + terms.melee, morale + terms.morale
        rules = [r for r in rules if r not in terms.loses_rules]
    if unit.large and source.large is not None:  # VF-235
        melee, morale = melee + source.large.melee, morale + source.large.morale
    range_in = profile.range_in
    for option in (source.option(o) for o in unit.options):
        if option is None:
            continue
        morale += option.morale
        if ranged is not None:
            ranged += option.ranged
        if option.range == "minus_one_third" and range_in is not None:
            range_in = range_in * 2 // 3  # VF-239, fractions down (VF-2)
        rules.extend(r for r in option.grants if r not in rules)
    return Stats(ranged, melee, morale, range_in, tuple(rules))


def option_refusal(option: UnitOption, profile: UnitProfile) -> str:
    """Why `profile` may not take `option` (VF-239), "" when it may."""
    if option.categories is not None and profile.category not in option.categories:
        return f"only {', '.join(sorted(option.categories))} ({option.source})"
    if option.excludes_detachments and profile.is_detachment:
        return f"not for detachments ({option.source})"
    if set(option.excluded_rules) & set(profile.special_rules) or (
        profile.id in option.excluded_profiles
    ):
        return f"this unit is excluded ({option.source})"
    if option.weapons is not None and profile.weapon not in option.weapons:
        return f"only units armed with {' or '.join(option.weapons)} ({option.source})"
    return ""


def read_unit(r: Reader, value: object, path: str, default_list: str) -> BoughtUnit | None:
    """One unit entry of a submitted army (see the module docstring)."""
    u = r.mapping(
        value,
        path,
        ("id", "profile", "figures"),
        ("list", "elite", "understrength", "large", "options"),
    )
    if u is None:
        return None
    ident = r.identifier(u.get("id"), at(path, "id"))
    profile = r.identifier(u.get("profile"), at(path, "profile"))
    list_id = r.identifier(u.get("list", default_list), at(path, "list"))
    figures = r.integer(u.get("figures"), at(path, "figures"), minimum=1, maximum=200)
    elite = u.get("elite", [])
    stats = r.sequence(elite, at(path, "elite"), max_len=6) or []
    for i, stat in enumerate(stats):
        r.choice(stat, idx(at(path, "elite"), i), ELITE_STATS)
    under = r.boolean(u.get("understrength", False), at(path, "understrength"))
    large = r.boolean(u.get("large", False), at(path, "large"))
    options = r.strings(u.get("options", []), at(path, "options"), max_len=8)
    if ident is None or profile is None or list_id is None or figures is None:
        return None
    if under is None or large is None or options is None:
        return None
    chosen = tuple(str(s) for s in stats if s in ELITE_STATS)
    return BoughtUnit(ident, list_id, profile, figures, chosen, under, large, options)
