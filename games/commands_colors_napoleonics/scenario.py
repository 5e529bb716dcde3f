"""Loading a scenario, format `ccn-scenario/1` (digest 8.2, set-up 3.1): read the document
(`scenario_read`), find its board profile and nations file, run every load-time check
(`scenario_checks`: the file is refused if any fails, each problem with its YAML path and rule)
and build the `Scenario` (`scenario_model`), hill groups computed.

A scenario that needs an unknown national value (a unit without `blocks` whose blocks are
unknown, GAP-2) is refused with the gap named: the engine never substitutes a value.
"""

from __future__ import annotations

import functools
import os
from dataclasses import replace
from pathlib import Path

from games.commands_colors_napoleonics.board import Board, board_named, parse_sections
from games.commands_colors_napoleonics.errors import (
    BoardError,
    NationsError,
    Problem,
    ScenarioError,
)
from games.commands_colors_napoleonics.fields import Reader
from games.commands_colors_napoleonics.nations import NationsData, nations_named
from games.commands_colors_napoleonics.scenario_checks import check_draft
from games.commands_colors_napoleonics.scenario_model import Scenario
from games.commands_colors_napoleonics.scenario_read import RULE, SCENARIO_FORMAT, read_draft
from games.core.bounded_yaml import YamlRefused, parse_yaml, read_bounded

__all__ = [
    "SCENARIOS_DIR",
    "SCENARIO_FORMAT",
    "SHIPPED_SCENARIOS",
    "Scenario",
    "load_scenario",
    "parse_scenario",
    "parse_scenario_text",
    "scenario_named",
]

SCENARIOS_DIR = Path(__file__).resolve().parent / "data" / "scenarios"
SHIPPED_SCENARIOS: tuple[str, ...] = tuple(sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml")))


def scenario_named(name: str) -> Scenario:
    """A shipped scenario by its file stem (e.g. "example"), never a path."""
    if name not in SHIPPED_SCENARIOS:
        shown = name[:40] if name.isprintable() else "this scenario"
        message = f"no scenario {shown!r}; shipped: {', '.join(SHIPPED_SCENARIOS)}"
        raise ScenarioError("scenario", [Problem("", RULE, message)])
    return _load_shipped(name)


@functools.lru_cache(maxsize=8)
def _load_shipped(name: str) -> Scenario:
    return load_scenario(SCENARIOS_DIR / f"{name}.yaml")


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """A scenario file (for the engine's tools and tests: a game names a shipped scenario)."""
    p = Path(path)
    try:
        text = read_bounded(p)
    except YamlRefused as exc:
        raise ScenarioError(p.name, [Problem("", RULE, str(exc))]) from None
    return parse_scenario_text(text, p.name)


def parse_scenario_text(text: str, source: str) -> Scenario:
    try:
        doc = parse_yaml(text)
    except YamlRefused as exc:
        raise ScenarioError(source, [Problem("", RULE, str(exc))]) from None
    return parse_scenario(doc, source)


def parse_scenario(doc: object, source: str) -> Scenario:
    """Validate a parsed `ccn-scenario/1` document and build the scenario; ScenarioError lists
    every problem found."""
    reader = Reader(RULE)
    draft = read_draft(reader, doc)
    if draft is None:
        raise ScenarioError(source, reader.problems)
    board = _board(reader, draft.profile, draft.sections)
    nations = _nations(reader, draft.ruleset)
    if board is None or nations is None:
        raise ScenarioError(source, reader.problems)
    terrain, units, groups, warnings = check_draft(reader, draft, board, nations)
    if reader.problems:
        raise ScenarioError(source, reader.problems)
    return Scenario(
        id=draft.id,
        title=draft.title,
        kind=draft.kind,
        ruleset=draft.ruleset,
        date=draft.date,
        source=draft.source,
        options=dict(draft.options),
        board=board,
        terrain=terrain,
        sides=dict(draft.sides),
        first_player=draft.first_player,
        units=units,
        leaders=tuple(draft.leaders),
        objectives=tuple(o for _, o in draft.objectives),
        special_rules=tuple(draft.special_rules),
        deck=draft.deck,
        notes=draft.notes,
        hill_groups=groups,
        warnings=warnings,
    )


def _board(reader: Reader, profile: str, sections: object) -> Board | None:
    """The scenario's board profile, with its `board.sections` override (8.2) if any."""
    if not profile:
        return None  # already reported
    try:
        board = board_named(profile)
    except BoardError as exc:
        reader.fail("board.profile", exc.problems[0].message, "§8.1")
        return None
    if sections is None:
        return board
    override = parse_sections(reader, sections, "board.sections", board.grid)
    if override is None:
        return None
    sources = {**board.sources, "sections": "the scenario's board.sections"}
    return replace(board, sections=override, sources=sources)


def _nations(reader: Reader, ruleset: str) -> NationsData | None:
    if not ruleset:
        return None  # already reported
    try:
        return nations_named(ruleset)
    except NationsError as exc:
        reader.fail("ruleset", exc.problems[0].message, "§8.1")
        return None
