"""The ruleset registry: one entry per ruleset, the only list of rulesets (as healthchecks lists
transports).

An entry names, as "module:ATTRIBUTE" imported lazily, the ruleset (games.core.protocol.Ruleset)
and its checks (games.core.checks.Checks: invariants, the hidden-fact probe, fast options...).
The platform (pbem.play.rulesets, filtered by the setting RULESETS), the fuzzer (games.fuzz) and
the contract tests (tests/engines/test_contract.py) all read this table: adding a ruleset is
adding one entry here.

The board hook: an entry's optional `board` names ("module:ATTRIBUTE") a function
`render(view: JSON) -> str` that returns an SVG document drawn ONLY from a seat's view (what
`ruleset.view(state, role)` returns), so a page can show it without ever seeing hidden facts.
`board_renderer(ruleset_id)` returns it, or None for a ruleset without a board (the web pages
then show the view in words only). The SVG marks each locale (or space) as
`<g class="locale" data-locale="<n>" id="locale-<n>">` and each visible piece as
`<g class="block own|enemy" data-piece="<id or alias>">`, so pages and tests can find them.
Napoleon's Triumph: `games.napoleons_triumph.board_svg:render`; Commands & Colors: Napoleonics:
`games.commands_colors_napoleonics.board_svg:render` (a hex is a locale
`data-locale="<row>,<col>"`); Valour & Fortitude: `games.valour_fortitude.table_svg:render`
(the table to scale in inches, no locales; the umpire's view marks pieces by side only).

The rules-text hook: an entry's optional `rules_text` names ("package:relative/path") a YAML
file of its rules' text by rule id (games.core.rule_text); `rule_text(ruleset_id, rule)` reads
one rule, or None when the ruleset has no such file or the file no such rule (a form error such
as NT-0 is not a rule of the game). Pages link a refusal's rule id to it.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass

from games.core.checks import Checks
from games.core.protocol import JSON, Ruleset
from games.core.rule_text import RulesText, RuleText, rules_text

BoardRenderer = Callable[[JSON], str]


@dataclass(frozen=True, slots=True)
class Entry:
    ruleset: str  # "module:ATTRIBUTE" of the Ruleset object
    checks: str = ""  # "module:ATTRIBUTE" of its Checks; the fuzzer and contract tests need it
    board: str = ""  # "module:ATTRIBUTE" of render(view) -> SVG text; "" for no board drawing
    rules_text: str = ""  # "package:relative/path.yaml" of its rules' text (games.core.rule_text)


RULESETS: dict[str, Entry] = {
    "napoleons_triumph": Entry(
        ruleset="games.napoleons_triumph:RULESET",
        checks="games.napoleons_triumph.checks:CHECKS",
        board="games.napoleons_triumph.board_svg:render",
        rules_text="games.napoleons_triumph:rulebook/rules-text.yaml",
    ),
    "commands_colors_napoleonics": Entry(
        ruleset="games.commands_colors_napoleonics:RULESET",
        checks="games.commands_colors_napoleonics.checks:CHECKS",
        board="games.commands_colors_napoleonics.board_svg:render",
    ),
    "valour_fortitude": Entry(
        ruleset="games.valour_fortitude:RULESET",
        checks="games.valour_fortitude.checks:CHECKS",
        board="games.valour_fortitude.table_svg:render",
    ),
}


class MissingHook(LookupError):
    """A registry entry that lacks what a caller needs, or names something that is not there."""


def available() -> list[str]:
    return sorted(RULESETS)


def entry(ruleset_id: str) -> Entry:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(available())}") from None


def _load(ruleset_id: str, field: str, path: str) -> object:
    if not path:
        raise MissingHook(
            f"ruleset {ruleset_id!r} has no {field}: set Entry({field}='module:ATTRIBUTE') in "
            "games.registry.RULESETS"
        )
    module_name, _, attr = path.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as e:
        raise MissingHook(
            f"ruleset {ruleset_id!r}: its {field} {path!r} cannot be loaded ({e})"
        ) from e


def get(ruleset_id: str) -> Ruleset[object]:
    """The ruleset object (KeyError naming the known ids for an unknown one)."""
    found = _load(ruleset_id, "ruleset", entry(ruleset_id).ruleset)
    ruleset: Ruleset[object] = found  # type: ignore[assignment]  # a Protocol: checked by use
    return ruleset


def checks(ruleset_id: str) -> Checks:
    """The ruleset's Checks, for the fuzzer and the contract tests (MissingHook without one)."""
    found = _load(ruleset_id, "checks", entry(ruleset_id).checks)
    if not isinstance(found, Checks):
        raise MissingHook(
            f"ruleset {ruleset_id!r}: its checks {entry(ruleset_id).checks!r} is a "
            f"{type(found).__name__}, not a games.core.checks.Checks"
        )
    return found


def board_renderer(ruleset_id: str) -> BoardRenderer | None:
    """The ruleset's board drawing `render(view) -> str` (an SVG document built only from the
    view), or None when the entry names none. KeyError for an unknown ruleset; MissingHook when
    the entry names something that cannot be loaded or is not callable."""
    path = entry(ruleset_id).board
    if not path:
        return None
    found = _load(ruleset_id, "board", path)
    if not callable(found):
        raise MissingHook(f"ruleset {ruleset_id!r}: its board {path!r} is not a function")
    renderer: BoardRenderer = found
    return renderer


def ruleset_rules(ruleset_id: str) -> RulesText | None:
    """The ruleset's rules-text file (see the module text), None when it names none. KeyError
    for an unknown ruleset."""
    path = entry(ruleset_id).rules_text
    if not path:
        return None
    package, _, relative = path.partition(":")
    return rules_text(str(importlib.resources.files(package) / relative))


def rule_text(ruleset_id: str, rule: str) -> RuleText | None:
    """The text of one rule of the ruleset, None when it has none. KeyError for an unknown
    ruleset."""
    rules = ruleset_rules(ruleset_id)
    return None if rules is None else rules.get(rule)
