"""check_file (games.commands_colors_napoleonics.check): scenario, nations and board files told
apart by `format`; the input bounded before YAML builds anything (size, depth, aliases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics.board import BOARDS_DIR
from games.commands_colors_napoleonics.check import check_file, check_file_report
from games.commands_colors_napoleonics.errors import ScenarioError
from games.commands_colors_napoleonics.nations import NATIONS_DIR
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR, parse_scenario_text
from games.core.bounded_yaml import MAX_BYTES as MAX_FILE_BYTES
from games.core.bounded_yaml import MAX_DEPTH

SHIPPED = [
    SCENARIOS_DIR / "example.yaml",
    NATIONS_DIR / "ccn-base-3e.yaml",
    BOARDS_DIR / "ccn-13x9-provisional.yaml",
]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_files_are_fine(path: Path) -> None:
    assert check_file(path) == []


def _write(tmp_path: Path, doc: object, name: str = "doc.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def test_a_bad_scenario_lists_its_problems(tmp_path: Path, example_doc: dict[str, Any]) -> None:
    example_doc["units"][1]["hex"] = [1, 4]
    del example_doc["units"][8]["blocks"]
    problems = check_file(_write(tmp_path, example_doc))
    assert problems[0].startswith("units[1].hex: CCN-25: hex (1,4) already holds F-LN1")
    assert any(p.startswith("units[8].blocks: GAP-2: ") for p in problems)
    assert len(problems) == 2


def test_a_bad_nations_file_is_checked_as_nations(tmp_path: Path) -> None:
    doc = yaml.safe_load((NATIONS_DIR / "ccn-base-3e.yaml").read_text("utf-8"))
    doc["nations"]["french"]["units"]["line_infantry"]["blocks"] = {"value": 4}
    problems = check_file(_write(tmp_path, doc))
    assert problems == [
        "nations.french.units.line_infantry.blocks.source: §8.3: missing: every known value names"
        " its source"
    ]


def test_a_bad_board_profile_is_checked_as_a_board(tmp_path: Path) -> None:
    doc = yaml.safe_load((BOARDS_DIR / "ccn-13x9-provisional.yaml").read_text("utf-8"))
    doc["layout"]["value"] = "odd-q"
    assert check_file(_write(tmp_path, doc)) == [
        "layout.value: §2.1: expected one of odd-r, got 'odd-q'"
    ]


def test_an_unknown_format_is_a_problem(tmp_path: Path) -> None:
    assert check_file(_write(tmp_path, {"format": "nt-board/1"})) == [
        "format: §8: expected one of ccn-scenario/1, ccn-nations/1, ccn-board/1, got 'nt-board/1'"
    ]
    assert check_file(_write(tmp_path, ["a", "list"]))[0].startswith("format: §8: expected")


def test_a_scenario_warning_is_reported_apart(tmp_path: Path, example_doc: dict[str, Any]) -> None:
    example_doc["units"][6]["type"] = "grenadier"
    report = check_file_report(_write(tmp_path, example_doc))
    assert report.problems == ()
    assert len(report.warnings) == 1
    assert "british grenadier" in report.warnings[0]


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    assert check_file(path) == [f"(file): §8: big.yaml is larger than {MAX_FILE_BYTES} bytes"]


def test_a_missing_file_and_bad_encoding(tmp_path: Path) -> None:
    assert check_file(tmp_path / "none.yaml")[0].startswith("(file): §8: cannot read none.yaml")
    path = tmp_path / "latin1.yaml"
    path.write_bytes("format: café".encode("latin-1"))
    assert check_file(path)[0].startswith("(file): §8: latin1.yaml is not UTF-8")


def test_yaml_anchors_and_aliases_are_refused() -> None:
    """No "billion laughs": an alias is refused before the document is built."""
    text = "a: &x [1, 2]\nb: [*x, *x]\n"
    with pytest.raises(ScenarioError, match="anchors and aliases are not allowed"):
        parse_scenario_text(text, "laughs.yaml")


def test_deep_nesting_is_refused() -> None:
    text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(ScenarioError, match=f"nested deeper than {MAX_DEPTH}"):
        parse_scenario_text(text, "deep.yaml")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        parse_scenario_text("a: [1, 2", "broken.yaml")


def test_yaml_tags_are_not_constructed() -> None:
    """yaml.safe_load: no Python objects from a file."""
    with pytest.raises(ScenarioError, match="not valid YAML"):
        parse_scenario_text("format: !!python/object/apply:os.system ['true']\n", "evil.yaml")
