"""Boards of Napoleon's Triumph (rulebook chapter 4, Das Spielbrett): loading a board file, the
shipped boards and boards registered in this process, by id.

The model (``Board`` and its records) is ``board_model``; validating a document (schema
``nt-board/1``, checks V-1..V-14 of ``rules/data/austerlitz-map.md``) is ``board_parse``. Both
are re-exported here: ``from games.napoleons_triumph.board import Board, RoadStep, parse_board``.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import yaml

from games.core.i18n import T
from games.napoleons_triumph.board_model import (
    ALLIED_START,
    PENALTIES,
    ROAD_CLASSES,
    SCHEMA,
    SIDES,
    STAR_COLOURS,
    UNIT_PREFIX,
    UNIT_TYPES,
    WIDTHS,
    Approach,
    ApproachSide,
    Board,
    BoardError,
    CommanderDef,
    Entry,
    FaceDef,
    Locale,
    RoadCrossing,
    RoadStep,
    RoundDef,
    ScenarioDef,
    Toponym,
    normalise_name,
)
from games.napoleons_triumph.board_parse import parse_board

__all__ = [
    "ALLIED_START",
    "DATA_DIR",
    "MAX_ID_SHOWN",
    "PENALTIES",
    "ROAD_CLASSES",
    "SCHEMA",
    "SHIPPED",
    "SIDES",
    "STAR_COLOURS",
    "UNIT_PREFIX",
    "UNIT_TYPES",
    "WIDTHS",
    "Approach",
    "ApproachSide",
    "Board",
    "BoardError",
    "CommanderDef",
    "Entry",
    "FaceDef",
    "Locale",
    "RoadCrossing",
    "RoadStep",
    "RoundDef",
    "ScenarioDef",
    "Toponym",
    "board_ids",
    "board_named",
    "load_board",
    "normalise_name",
    "parse_board",
    "register_board",
]

DATA_DIR = Path(__file__).resolve().parent / "data"


def _yaml_loader() -> type[yaml.SafeLoader]:
    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return loader


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read a board file (YAML, or JSON if it ends in .json), validate it and build the board.
    `Board.name` is the file stem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(f"{p}: cannot read the board file: {exc.strerror or exc}") from exc
    doc: object
    try:
        if p.suffix.lower() == ".json":
            doc = json.loads(text)
        else:
            doc = yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a safe loader
    except (yaml.YAMLError, ValueError) as exc:
        raise BoardError(f"{p}: cannot parse the board file: {exc}") from exc
    try:
        return parse_board(doc, p.stem)
    except BoardError as exc:
        raise BoardError(f"{p}: invalid board\n{exc}") from None


_REGISTERED: dict[str, Board] = {}

# The boards that ship in `data/`: fixed when the module is imported, so whether a name is a board
# never depends on what a caller asks about (no file system probe, no existence oracle). A board's
# drawing, `<board>-layout.yaml` beside it (layout.py), is not a board.
LAYOUT_SUFFIX = "-layout"
SHIPPED: tuple[str, ...] = tuple(
    sorted(f.stem for f in DATA_DIR.glob("*.yaml") if not f.stem.endswith(LAYOUT_SUFFIX))
)
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_ID_SHOWN = 40


def register_board(board: Board) -> None:
    """Make an in-memory board (a test fragment, the test helper `fragment`) reachable by
    `board_named(board.name)` and the option `{"board": name}`, in this process only. A game
    that must replay elsewhere gives its board as data instead (option `board_data`)."""
    _REGISTERED[board.name] = board


def board_ids() -> tuple[str, ...]:
    """The ids `board_named` accepts: the shipped boards, then any registered in memory."""
    return SHIPPED + tuple(sorted(n for n in _REGISTERED if n not in SHIPPED))


def board_named(name: str) -> Board:
    """A registered board, else a shipped one (`_board_named`). A board is named by its id, never
    by a path: anything else is refused without touching the file system, and the error never
    echoes more than a short identifier."""
    found = _REGISTERED.get(name)
    return found if found is not None else _board_named(name)


def _is_id(name: str) -> bool:
    return 0 < len(name) <= MAX_ID_SHOWN and name[0].isalnum() and set(name) <= _ID_CHARS


@functools.lru_cache(maxsize=16)
def _board_named(name: str) -> Board:
    """The shipped board `games/napoleons_triumph/data/<name>.yaml` (one of `SHIPPED`, e.g.
    "austerlitz", "austerlitz-published"). Cached. A path or any unknown name is a BoardError
    naming the shipped ids; the file system is read only for a shipped id."""
    if name not in SHIPPED:
        shipped = ", ".join(SHIPPED)
        raise BoardError(
            T(
                "board {board}: no such board; a board is named by its id, one of {boards}",
                board=repr(name),
                boards=shipped,
            )
            if _is_id(name)
            else T(
                "this board: no such board; a board is named by its id, one of {boards}",
                boards=shipped,
            )
        )
    return load_board(DATA_DIR / f"{name}.yaml")
