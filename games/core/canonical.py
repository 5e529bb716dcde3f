"""Canonical JSON and the state hash: the same state hashes the same everywhere."""

from __future__ import annotations

import hashlib
import json

from games.core.protocol import JSON


def canonical_json(data: JSON) -> str:
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def state_hash(data: JSON) -> str:
    return text_hash(canonical_json(data))


def text_hash(text: str) -> str:
    """The state hash of a state already written as canonical JSON."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
