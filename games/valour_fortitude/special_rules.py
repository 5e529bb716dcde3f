"""The one registry of special rules (digest 3.15, 3.16): which unit and leader special rules
this engine builds, and where. Set-up refuses a scenario that fields a profile or a named
general whose rule is not built (`not_built_for_profile`, `not_built_for_general`), naming the
rule id, so that no rule is ever accepted and ignored.

A rule is in `BUILT_SPECIAL_RULES` when its effects are built, or when the part that is not
built is refused or logged by its rule id where it would arise (never silently skipped; the
entry says which part). Every other rule is in `NOT_BUILT` with the part that is missing.
Whoever builds a rule moves its key from `NOT_BUILT` to `BUILT_SPECIAL_RULES`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.valour_fortitude.armies import special_rules
from games.valour_fortitude.army_data import NamedGeneral, UnitProfile
from games.valour_fortitude.state import Leader, Stats, Unit

# key of data/special_rules.yaml -> digest rule id (a test checks it against the data file)
RULE_IDS: Mapping[str, str] = {
    "plaenkler": "VF-144",
    "karabiner": "VF-145",
    "karree": "VF-141",
    "kartaetsche": "VF-143",
    "leichte_kavallerie": "VF-148",
    "leichte_infanterie": "VF-147",
    "offene_formation": "VF-146",
    "artillerie_zu_pferd": "VF-149",
    "schwere_artillerie": "VF-150",
    "batterie": "VF-151",
    "schwere_kavallerie": "VF-153",
    "elan": "VF-154",
    "miliz": "VF-158",
    "landwehr": "VF-158",
    "disziplinierte_schuetzen": "VF-155",
    "unvorhersehbar": "VF-161",
    "unnachgiebig": "VF-163",
    "raketen": "VF-162",
    "masse": "VF-152",
    "stoisch": "VF-159",
    "schnell": "VF-160",
    "lanzen": "VF-164",
    "diszipliniert": "VF-156",
    "bataillonsartillerie": "VF-157",
    "absitzen": "VF-165",
    "berittene_infanterie": "VF-166",
    "belagerungsgeschuetze": "VF-167",
    "feldbefestigungen": "VF-168",
    "granaten": "VF-169",
    "pistolen": "VF-170",
    "schnellfeuer": "VF-171",
    "unerfahren": "VF-172",
    "veteran": "VF-173",
    "vorsichtig": "VF-205",
    "marschall_des_kaiserreichs": "VF-206",
    "napoleon": "VF-207",
    "ney": "VF-208",
    "murat": "VF-209",
    "wellington": "VF-210",
    "sir_john_moore": "VF-211",
    "herzog_von_braunschweig": "VF-212",
    "erzherzog_karl": "VF-213",
    "radetzky": "VF-214",
    "bluecher": "VF-215",
    "gneisenau": "VF-216",
    "bagration": "VF-217",
    "kutuzov": "VF-218",
    "blake": "VF-219",
    "ibanez": "VF-220",
}

# special-rule key -> where it is built (module and rule ids)
BUILT_SPECIAL_RULES: Mapping[str, str] = {
    "karree": "formations.py, command.py, melee.py, shooting.py (VF-141, VF-142)",
    "kartaetsche": "shooting.py, melee.py (VF-143, AMB-22)",
    "plaenkler": "shooting.py, command.py (VF-144, AMB-10, AMB-35)",
    "karabiner": "shooting.py (VF-145)",
    "offene_formation": "formations.py, values.py, shooting.py, melee.py (VF-146)",
    "leichte_infanterie": "command.py, formations.py, shooting.py (VF-147)",
    "leichte_kavallerie": "command.py, formations.py (VF-148)",
    "artillerie_zu_pferd": "values.py, command.py (VF-149)",
    "schwere_artillerie": "values.py, shooting.py, melee.py (VF-150)",
    "batterie": "order_sheet.py: more than 3 fire supporters is refused with VF-151 (not built)",
    "masse": "formations.py, melee.py (VF-152; dense target GAP-3: no effect, logged)",
    "schwere_kavallerie": "melee.py (VF-153)",
    "elan": "melee.py (VF-154)",
    "disziplinierte_schuetzen": "shooting.py, melee.py, formations.py (VF-155)",
    "miliz": "command.py, formations.py (VF-158, AMB-18)",
    "landwehr": "command.py, formations.py (VF-158, AMB-18)",
    "stoisch": "command.py, formations.py, morale.py (VF-159, AMB-18)",
    "schnell": "values.py (VF-160)",
    "unvorhersehbar": "morale.py, melee.py (VF-161, AMB-38, VF-T39; fights, strike backs, "
    "casualties of shooting, melee, square tests, wavering and cards)",
    "unnachgiebig": "melee.py: logged with VF-163 where the relentless charge would arise "
    "(GAP-4; the charge is not built)",
    "raketen": "shooting.py (VF-162, AMB-39; hill sight lines are the umpire's, GAP-2)",
    "granaten": "shooting.py (VF-169: +2 instead of +1 against columns and squares, +1 "
    "against hard cover; ranged attacks only)",
    "pistolen": "shooting.py, melee.py (VF-170, AMB-40)",
    "schnellfeuer": "shooting.py, melee.py (VF-171, AMB-40; in melee the enemy is within 12 in)",
    "lanzen": "GAP-5 default: never defined, no effect (VF-164)",
    # leaders
    "vorsichtig": "command.py, morale.py (VF-205: a cautious BG -1 to activation, a cautious "
    "CinC activates automatically once a battle and gives no resolve +1)",
    "marschall_des_kaiserreichs": "command.py (VF-206)",
    "napoleon": "command.py, shooting.py, melee.py, turn.py (VF-207)",
    "ney": "melee.py, command.py (VF-208, VF-T40)",
    "wellington": "melee.py (VF-210; the CinC's move at the start of the command phase is not "
    "offered: the sheet has no such order)",
    "radetzky": "melee.py (VF-214)",
    "bluecher": "melee.py (VF-215)",
    "gneisenau": "command.py (VF-216)",
    "bagration": "melee.py (VF-217)",
    "kutuzov": "command.py (VF-218: lifts VF-159's restriction within 12 in)",
}

# special-rule key -> why it is not built (the part that is missing)
NOT_BUILT: Mapping[str, str] = {
    "diszipliniert": "a rally test after a Withdraw; halved melee at defensible features",
    "bataillonsartillerie": "battalion guns and the 5-6 musket bonus roll",
    "absitzen": "mounting and dismounting (ACW)",
    "berittene_infanterie": "mounted and dismounted states (ACW)",
    "belagerungsgeschuetze": "siege guns (ACW)",
    "feldbefestigungen": "entrenchment (ACW)",
    "unerfahren": "the extra casualty roll after the first casualty (no state for it yet)",
    "veteran": "a rally test after a Withdraw (the sheet has no such order; its -1 to shots at "
    "it in open order and its change after a March are built)",
    "murat": "two fate cards in the first fate phase",
    "sir_john_moore": "his model giving melee support and its 1-3 removal (GAP-6); his +1 to "
    "attacking British units within 12 in is built",
    "herzog_von_braunschweig": "which units are Brunswick troops is not data",
    "erzherzog_karl": "a reserve brigade one round earlier (the activation reroll is built)",
    "blake": "two fate cards in the first fate phase; +1 rally within 12 in",
    "ibanez": "the Unvorhersehbar reroll and +1 melee for cavalry near him",
}


# (list id prefix, rule) -> a rule it implies there: ACW light cavalry has Absitzen (VF-148,
# seed L2281-2285)
IMPLIED: Mapping[tuple[str, str], str] = {("acw_", "leichte_kavallerie"): "absitzen"}


def _names() -> Mapping[str, str]:
    return special_rules()


def with_implied(rules: Iterable[str], list_id: str = "") -> list[str]:
    """`rules` with the rules they imply in the army list `list_id` (`IMPLIED`)."""
    out = list(rules)
    for (prefix, base), implied in IMPLIED.items():
        if list_id.startswith(prefix) and base in out and implied not in out:
            out.append(implied)
    return out


def not_built(rules: Iterable[str], list_id: str = "") -> list[tuple[str, str]]:
    """The (rule id, German name) of every rule key in `rules` (with those it implies in
    `list_id`) that is not built, in order, once each; an unknown key has the rule id
    "VF-140"."""
    names = _names()
    out: list[tuple[str, str]] = []
    for key in with_implied(rules, list_id):
        if key in BUILT_SPECIAL_RULES:
            continue
        item = (RULE_IDS.get(key, "VF-140"), names.get(key, key))
        if item not in out:
            out.append(item)
    return out


def not_built_for_profile(
    profile: UnitProfile | Stats | Unit, list_id: str = ""
) -> list[tuple[str, str]]:
    """A unit profile's (or a bought unit's, with the rules its options grant) special rules
    that are not built; `list_id` is the army list it comes from (a `Unit` knows its own)."""
    if isinstance(profile, Unit):
        return not_built(profile.stats.special_rules, list_id or profile.army_list)
    return not_built(profile.special_rules, list_id)


def not_built_for_general(general: str | NamedGeneral | Leader) -> list[tuple[str, str]]:
    """A named general's rule (its key, its list entry, or a leader model's rules, which
    include "vorsichtig" for a cautious leader, VF-205) when it is not built."""
    if isinstance(general, Leader):
        return not_built(general.special_rules)
    key = general.rule if isinstance(general, NamedGeneral) else general
    return not_built((key,))
