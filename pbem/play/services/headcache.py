"""A small per-process cache of head states, so a worker that appended event N does not fetch
and decode the 22 KB state again to check and apply the order after it.

The key is (game, seq, engine version) and an entry is used only when the caller's head hash
equals the hash the entry was stored with: a state hash names exactly one state, so an entry can
never be stale, even when it was put by a transaction that later rolled back (its hash is then
never a game's head hash). Values are the state's canonical JSON text and every hit decodes it
afresh, so callers get a state they may change without touching the cache.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from uuid import UUID

from games.core.protocol import JSON

SIZE = 256  # games; about 22 KB each for Napoleon's Triumph, so some 6 MB per process

_lock = threading.Lock()
_entries: OrderedDict[tuple[str, int, int], tuple[str, str]] = OrderedDict()


def _key(game_id: UUID | str, seq: int, version: int) -> tuple[str, int, int]:
    return (str(game_id), int(seq), int(version))


def put(game_id: UUID | str, seq: int, version: int, state_hash: str, text: str) -> None:
    """Remember the state after event `seq` of a game: its canonical JSON text (the very text
    its hash was computed from) and that hash."""
    with _lock:
        key = _key(game_id, seq, version)
        _entries[key] = (state_hash, text)
        _entries.move_to_end(key)
        for old in [k for k in _entries if k[0] == key[0] and k != key]:
            del _entries[old]  # one head per game: an older seq is never asked for again here
        while len(_entries) > SIZE:
            _entries.popitem(last=False)


def get(game_id: UUID | str, seq: int, version: int, state_hash: str) -> JSON | None:
    """The dumped state after event `seq` when it is cached with this hash, else None."""
    if not state_hash:
        return None
    with _lock:
        entry = _entries.get(_key(game_id, seq, version))
    if entry is None or entry[0] != state_hash:
        return None
    decoded: JSON = json.loads(entry[1])
    return decoded


def clear() -> None:
    with _lock:
        _entries.clear()
