"""Checking a data file of this engine: a scenario (`ccn-scenario/1`), a nations file
(`ccn-nations/1`) or a board profile (`ccn-board/1`), told apart by its `format`. Used by the
`ccn_check` management command; pure (reads only the file it is given and the shipped data)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from games.commands_colors_napoleonics.board import BOARD_FORMAT, parse_board
from games.commands_colors_napoleonics.errors import DataError
from games.commands_colors_napoleonics.nations import NATIONS_FORMAT, parse_nations
from games.commands_colors_napoleonics.scenario import SCENARIO_FORMAT, parse_scenario
from games.core.bounded_yaml import MAX_BYTES as MAX_FILE_BYTES
from games.core.bounded_yaml import YamlRefused, parse_yaml, read_bounded

FORMATS = (SCENARIO_FORMAT, NATIONS_FORMAT, BOARD_FORMAT)


@dataclass(frozen=True, slots=True)
class CheckResult:
    problems: tuple[str, ...]  # empty when the file is fine
    warnings: tuple[str, ...] = ()


def check_file(path: str | os.PathLike[str]) -> list[str]:
    """The file's problems, each "<yaml path>: <rule>: <message>"; empty when it is fine."""
    return list(check_file_report(path).problems)


def check_file_report(path: str | os.PathLike[str]) -> CheckResult:
    """The file's problems and, for a fine scenario, its warnings (8.2)."""
    p = Path(path)
    try:
        doc = parse_yaml(read_bounded(p, MAX_FILE_BYTES))
    except YamlRefused as exc:
        return CheckResult((f"(file): §8: {exc}",))
    found = doc.get("format") if isinstance(doc, dict) else None
    try:
        if found == SCENARIO_FORMAT:
            scenario = parse_scenario(doc, p.name)
            return CheckResult((), scenario.warnings)
        if found == NATIONS_FORMAT:
            parse_nations(doc, p.name)
        elif found == BOARD_FORMAT:
            parse_board(doc, p.name)
        else:
            shown = repr(found)[:40] if found is not None else "none"
            return CheckResult((f"format: §8: expected one of {', '.join(FORMATS)}, got {shown}",))
    except DataError as exc:
        return CheckResult(tuple(str(problem) for problem in exc.problems))
    return CheckResult(())
