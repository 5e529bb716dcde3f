"""The management command `ccn_check` (pbem/play/management/commands/ccn_check.py): prints `OK
<file>` or each problem, exits 0 when every file is fine and 1 otherwise; refuses files over
1 MiB. It touches no database."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import CommandError, call_command

from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR

EXAMPLE = SCENARIOS_DIR / "example.yaml"
REPO = Path(__file__).resolve().parents[3]


def _bad_scenario(tmp_path: Path, doc: dict[str, Any]) -> Path:
    doc["sides"]["top"]["hand_size"] = 0
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def test_a_fine_file_prints_ok() -> None:
    out = io.StringIO()
    call_command("ccn_check", str(EXAMPLE), stdout=out)
    assert out.getvalue() == f"OK {EXAMPLE}\n"


def test_problems_are_printed_and_the_command_fails(
    tmp_path: Path, example_doc: dict[str, Any]
) -> None:
    bad = _bad_scenario(tmp_path, example_doc)
    out = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("ccn_check", str(EXAMPLE), str(bad), stdout=out)
    assert info.value.returncode == 1
    assert str(info.value) == "1 of 2 file(s) have problems"
    assert out.getvalue().splitlines() == [
        f"OK {EXAMPLE}",
        f"{bad}: sides.top.hand_size: CCN-3: must be at least 1, got 0",
    ]


def test_a_file_over_1_mib_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * ((1 << 20) + 1))
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("ccn_check", str(big), stdout=out)
    assert (
        out.getvalue()
        == f"{big}: the file has {(1 << 20) + 1} bytes, more than the 1048576 allowed\n"
    )


def test_warnings_are_printed_with_ok(tmp_path: Path, example_doc: dict[str, Any]) -> None:
    example_doc["units"][6]["type"] = "grenadier"
    path = tmp_path / "warn.yaml"
    path.write_text(yaml.safe_dump(example_doc, allow_unicode=True), encoding="utf-8")
    out = io.StringIO()
    call_command("ccn_check", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"WARNING {path}: units[6]: british grenadier")
    assert lines[1:] == [f"OK {path}"]


def test_exit_codes_from_the_command_line(tmp_path: Path, example_doc: dict[str, Any]) -> None:
    """`manage.py ccn_check FILE ...` exits 0 when all are fine, 1 otherwise."""
    bad = _bad_scenario(tmp_path, example_doc)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pbem.settings_test"}
    command = [sys.executable, str(REPO / "manage.py"), "ccn_check"]
    fine = subprocess.run(  # noqa: S603  (a fixed argv, no user input)
        [*command, str(EXAMPLE)], env=env, capture_output=True, text=True, check=False
    )
    assert (fine.returncode, fine.stdout) == (0, f"OK {EXAMPLE}\n")
    failed = subprocess.run(  # noqa: S603  (a fixed argv, no user input)
        [*command, str(bad)], env=env, capture_output=True, text=True, check=False
    )
    assert failed.returncode == 1
    assert failed.stdout == f"{bad}: sides.top.hand_size: CCN-3: must be at least 1, got 0\n"
    assert "1 of 1 file(s) have problems" in failed.stderr
