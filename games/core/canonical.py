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
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
