"""games.core.log: writing a line once per audience, reordering a run of lines about one piece
after another in each audience's own order, and reading back the lines meant for a role."""

from __future__ import annotations

from games.core.log import (
    Audience,
    lines_for,
    may_read,
    per_audience,
    reorder_run,
    stored_lines_for,
    to_json,
)
from games.core.protocol import LogEntry

RED, BLUE = frozenset({"red"}), frozenset({"blue"})
AUDIENCES = [Audience("R", RED), Audience("B", BLUE)]


def test_one_line_per_audience_in_its_own_words() -> None:
    entries = per_audience(AUDIENCES, lambda v: f"{v} sees", lambda v: {"by": v})
    assert entries == [
        LogEntry("R sees", RED, {"by": "R"}),
        LogEntry("B sees", BLUE, {"by": "B"}),
    ]
    assert per_audience(AUDIENCES, str)[0].data is None


def test_a_run_is_reordered_per_audience_by_its_own_names() -> None:
    run = [
        LogEntry("header", None),  # before the first mark: stays first
        LogEntry("red: x", RED),
        LogEntry("blue: x", BLUE),
        LogEntry("all: x", None),
        LogEntry("red: y", RED),
        LogEntry("blue: y", BLUE),
        LogEntry("all: y", None),
    ]
    names = {RED: ["b", "a"], BLUE: ["a", "b"]}  # red names x "b" and y "a"; blue the reverse
    out = reorder_run(run, [1, 4], lambda audience: names.get(audience))
    assert [e.text for e in out] == [
        "header",
        "red: y",  # red reads y first
        "blue: x",
        "all: x",  # lines for everyone keep their order
        "red: x",
        "blue: y",
        "all: y",
    ]


def test_an_audience_without_keys_keeps_its_order() -> None:
    run = [LogEntry("1", RED), LogEntry("2", RED)]
    assert reorder_run(run, [0, 1], lambda audience: None) == run
    assert reorder_run(run, [], lambda audience: ["b", "a"]) == run


def test_reading_back() -> None:
    entries = [LogEntry("all", None), LogEntry("red", RED), LogEntry("blue", BLUE)]
    assert lines_for(entries, "red") == ["all", "red"]
    assert may_read(None, "anyone")
    assert may_read(["red"], "red")
    assert not may_read([], "red")
    stored = to_json(entries)
    assert stored[1] == {"text": "red", "audience": ["red"], "data": None}
    junk = [*stored, "junk", {"text": 5, "audience": None}, {"text": "x", "audience": "red"}]
    assert stored_lines_for(junk, "blue") == ["all", "blue"]
    assert stored_lines_for(None, "blue") == []
