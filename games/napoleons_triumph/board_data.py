"""A custom board given as data in the game options (`board_data`), never as a file (NT-19).

    options = {"board_data": {...an nt-board/1 document...}}            # a whole board
    options = {"board_data": "schema: nt-board/1\\n...", "board_fragment": True}  # YAML, a fragment

The data is checked before the loader sees it: at most `MAX_BYTES` of canonical JSON (or of YAML
text), only JSON values (objects with string keys, lists, strings, integers, booleans, null: no
floats, dates or YAML aliases), nested at most `MAX_DEPTH` deep, no list longer than `MAX_ITEMS`,
at most `MAX_ARMY` units per side. Then the board loader (`parse_board`) validates it like a
shipped file (`board_fragment: true` skips the whole-map checks, as for test fragments).

The board's id is `custom-` + the first 16 hex digits of the sha256 of the canonical JSON of
`{"board": document, "fragment": flag}`: the same data always gives the same id. The state keeps
its options (with the data), so `board_for(state.board, state.options)` re-creates the board in any
process, e.g. after a restart or when a snapshot is loaded; built boards are cached (LRU).
No file is ever read and no error echoes more than a short value of the caller's own data.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping

import yaml

from games.core.canonical import canonical_json
from games.core.protocol import JSON
from games.napoleons_triumph.board import Board, BoardError, _yaml_loader, parse_board

PREFIX = "custom-"
MAX_BYTES = 256 * 1024  # canonical JSON of the document (or the YAML text)
MAX_DEPTH = 16  # nesting of lists and objects (nt-board/1 needs 6)
MAX_ITEMS = 2000  # any one list (the published board has 293 approaches)
MAX_ARMY = 99  # units per side (ids F01..F99)
MAX_ERRORS = 10  # loader errors shown
CACHE_SIZE = 32

_CACHE: OrderedDict[str, Board] = OrderedDict()
_LOCK = threading.Lock()  # worker threads share the cache


def _cached(name: str) -> Board | None:
    with _LOCK:
        found = _CACHE.get(name)
        if found is not None:
            _CACHE.move_to_end(name)
        return found


def _remember(board: Board) -> None:
    with _LOCK:
        _CACHE[board.name] = board
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


def _from_yaml(text: str) -> object:
    """Safe YAML without anchors and aliases (a few bytes of aliases can expand to gigabytes, the
    'billion laughs'): the events are scanned first, then the text is loaded (both in C when
    libyaml is there)."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise BoardError(f"board_data: the YAML text is over {MAX_BYTES} bytes")
    loader = _yaml_loader()
    depth = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:  # before the composer recurses (libyaml's in C)
                    raise BoardError(f"board_data: nested more than {MAX_DEPTH} deep")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                mark = event.start_mark
                line = mark.line + 1 if mark is not None else "?"
                raise BoardError(
                    f"board_data: YAML anchors and aliases (&name, *name) are not allowed "
                    f"(line {line})"
                )
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise BoardError(f"board_data: not valid YAML: {exc.problem}{where}") from None
    except (yaml.YAMLError, RecursionError):
        raise BoardError("board_data: not valid YAML (or nested too deep)") from None


def _check_values(doc: object) -> None:
    """Only JSON values, bounded depth and list lengths; iterative (no recursion on deep data)."""
    stack: list[tuple[object, str, int]] = [(doc, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if value is None or isinstance(value, bool | int | str):
            continue
        if depth >= MAX_DEPTH:
            raise BoardError(f"board_data{path}: nested more than {MAX_DEPTH} deep")
        if isinstance(value, list):
            if len(value) > MAX_ITEMS:
                raise BoardError(f"board_data{path}: a list of more than {MAX_ITEMS} items")
            stack.extend((v, f"{path}/{i}", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                raise BoardError(f"board_data{path}: an object of more than {MAX_ITEMS} keys")
            for k, v in value.items():
                if not isinstance(k, str):
                    raise BoardError(f"board_data{path}: object keys must be strings")
                stack.append((v, f"{path}/{k[:40]}", depth + 1))
        else:
            kind = "a float" if isinstance(value, float) else "not a JSON value"
            raise BoardError(
                f"board_data{path}: {kind}; a board holds only strings, integers, booleans, "
                "null, lists and objects (a game state has no floats: give xy as integers or null)"
            )


def _check_army(doc: Mapping[str, object]) -> None:
    army = doc.get("army")
    if not isinstance(army, dict):
        return  # the loader reports it
    for side, rows in army.items():
        if not isinstance(rows, list):
            continue
        total = sum(
            r["count"]
            for r in rows
            if isinstance(r, dict) and isinstance(r.get("count"), int) and r["count"] > 0
        )
        if total > MAX_ARMY:
            raise BoardError(f"board_data/army/{side[:8]}: more than {MAX_ARMY} units")


def document(data: object) -> tuple[dict[str, JSON], str]:
    """The checked document of `data` (a mapping, or YAML text) and its canonical JSON.
    Raises BoardError (one line) for anything over the limits or not JSON."""
    doc: object = _from_yaml(data) if isinstance(data, str) else data
    if not isinstance(doc, dict):
        raise BoardError("board_data: must be an nt-board/1 document (an object, or YAML text)")
    _check_values(doc)
    text = canonical_json(doc)
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise BoardError(f"board_data: over {MAX_BYTES} bytes as canonical JSON")
    _check_army(doc)
    return doc, text


def custom_id(data: object, fragment: bool = False) -> str:
    """The board id `custom-<16 hex>` the data gets (checks the data like `build`)."""
    doc, _ = document(data)
    return _id(doc, fragment)


def _id(doc: dict[str, JSON], fragment: bool) -> str:
    key = canonical_json({"board": doc, "fragment": fragment})
    return PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def build(data: object, fragment: bool = False) -> Board:
    """Check `data`, validate it with the board loader and return the board (cached by id).
    Raises BoardError listing at most MAX_ERRORS of the loader's errors."""
    doc, _ = document(data)
    name = _id(doc, fragment)
    found = _cached(name)
    if found is not None:
        return found
    try:
        board = parse_board(doc, name, fragment=fragment)
    except BoardError as exc:
        lines = str(exc).splitlines()
        more = f"; ... {len(lines) - MAX_ERRORS} more" if len(lines) > MAX_ERRORS else ""
        shown = "; ".join(lines[:MAX_ERRORS])
        raise BoardError(f"board_data: invalid board: {shown}{more}") from None
    _remember(board)
    return board


def board_for(name: str, options: Mapping[str, JSON]) -> Board:
    """The custom board `name` of a game whose options are `options` (from its state): from the
    cache, else rebuilt from `options["board_data"]`; BoardError if that data gives another id."""
    found = _cached(name)
    if found is not None:
        return found
    if "board_data" not in options:
        raise BoardError(f"board {name[:40]!r}: the options hold no board_data")
    board = build(options["board_data"], options.get("board_fragment") is True)
    if board.name != name:
        raise BoardError(f"board {name[:40]!r}: the options' board_data gives {board.name}")
    return board


def clear_cache() -> None:
    """Forget every built custom board (tests: prove a state re-creates its board)."""
    with _LOCK:
        _CACHE.clear()
