"""pbem.play.clock is pure datetime arithmetic: no Django, no database."""

from __future__ import annotations

import ast
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from pbem.play import clock

START = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


def test_the_clock_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(clock.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= {"__future__", "collections", "datetime", "zoneinfo"}


def test_an_unknown_zone_is_its_own_error() -> None:
    with pytest.raises(clock.UnknownTimeZone, match="Mars/Olympus_Mons"):
        clock.zone_of("Mars/Olympus_Mons")
    with pytest.raises(clock.UnknownTimeZone):
        clock.local_days_utc(date(2026, 5, 6), date(2026, 5, 6), "../etc/passwd")


def test_an_absence_inside_the_clock_pushes_the_deadline_by_its_length() -> None:
    absent = clock.merge([(START + 10 * H, START + 20 * H), (START + 15 * H, START + 30 * H)])
    assert absent == [(START + 10 * H, START + 30 * H)]
    assert clock.clock_deadline(START, 24 * H, absent) == START + 44 * H
    assert clock.present_time(START, START + 44 * H, absent) == 24 * H
