"""NT-19: the option `board` names a shipped board by its id, never a path.
Any path-like or unknown value is refused without reading the file system, with the same message
shape whether or not a file exists there and without any of a file's content. A board given as
data (`board_data`) is never a path: see test_outside_testing.py."""

from __future__ import annotations

import pytest

from games.core.protocol import JSON, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import DATA_DIR, SHIPPED, BoardError, board_ids, board_named
from games.napoleons_triumph.errors import Illegal

SHIPPED_YAML = str(DATA_DIR / "austerlitz.yaml")
REFUSED = [
    "/etc/passwd",
    "../../etc/passwd",
    "/nonexistent.yaml",
    SHIPPED_YAML,
    "data/austerlitz.yaml",
    "austerlitz.yaml",
    "./austerlitz",
    "..",
    "",
    "AUSTERLITZ",
    "x" * 500,
]


def refusal(options: dict[str, JSON]) -> Illegal:
    with pytest.raises(Illegal) as exc:
        RULESET.setup(GameConfig("DEC2", options), Rng(1))
    return exc.value


def test_the_shipped_boards_are_the_ids() -> None:
    """NT-19: the shipped ids are exactly the files in data/, and both load by id."""
    assert SHIPPED == ("austerlitz", "austerlitz-published")
    assert set(SHIPPED) <= set(board_ids())
    assert board_named("austerlitz").name == "austerlitz"
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    assert state.board == "austerlitz"


@pytest.mark.parametrize("value", REFUSED)
def test_a_path_or_unknown_name_is_refused(value: str) -> None:
    """NT-19: a path (existing or not, even to a shipped file) or an unknown id is refused."""
    e = refusal({"board": value})
    assert e.rejection.rule == "NT-19"
    assert e.rejection.path == "/options/board"
    assert "austerlitz, austerlitz-published" in e.rejection.message
    assert "root" not in e.rejection.message  # /etc/passwd's first line never shows
    assert "No such file" not in e.rejection.message
    assert "/" not in e.rejection.message  # no path is echoed
    assert len(e.rejection.message) < 200


def test_existing_and_missing_files_answer_alike() -> None:
    """NT-19: no existence oracle: the message is the same for a readable file, a missing one and
    a shipped board's own path."""
    messages = {refusal({"board": p}).rejection.message for p in REFUSED[:4]}
    assert len(messages) == 1


def test_board_named_never_reads_a_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """NT-19: board_named refuses a path before touching any file."""
    from games.napoleons_triumph import board as B

    def boom(path: object) -> object:
        raise AssertionError(f"load_board called with {path}")

    monkeypatch.setattr(B, "load_board", boom)
    B._board_named.cache_clear()
    try:
        for p in ("/etc/passwd", SHIPPED_YAML, "/nonexistent.yaml", "nope"):
            with pytest.raises(BoardError, match="no such board"):
                board_named(p)
    finally:
        B._board_named.cache_clear()


def test_a_short_unknown_id_is_named_but_long_input_is_not() -> None:
    assert "'nope'" in refusal({"board": "nope"}).rejection.message
    assert "xxxx" not in refusal({"board": "x" * 500}).rejection.message


@pytest.mark.parametrize("value", [5, None, ["austerlitz"], {"path": "/etc/passwd"}])
def test_a_board_that_is_not_a_string_is_refused(value: JSON) -> None:
    e = refusal({"board": value})
    assert (e.rejection.rule, e.rejection.path) == ("NT-19", "/options/board")
    assert "austerlitz-published" in e.rejection.message


def test_board_and_board_data_together_are_refused() -> None:
    """NT-19: a board is named by id or given as data, not both; nothing is echoed."""
    e = refusal({"board": "austerlitz", "board_data": {"schema": "nt-board/1", "secret": "zz9"}})
    assert (e.rejection.rule, e.rejection.path) == ("NT-19", "/options/board")
    assert "board_data" in e.rejection.message
    assert "zz9" not in e.rejection.message
