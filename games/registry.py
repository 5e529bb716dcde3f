"""Ruleset registry: id -> "module:ATTRIBUTE", imported lazily (healthchecks' TRANSPORTS)."""

from __future__ import annotations

import importlib

from games.core.protocol import Ruleset

RULESETS: dict[str, str] = {
    "napoleons_triumph": "games.napoleons_triumph:RULESET",
}


def available() -> list[str]:
    return sorted(RULESETS)


def get(ruleset_id: str) -> Ruleset[object]:
    try:
        path = RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(available())}") from None
    module_name, _, attr = path.partition(":")
    ruleset: Ruleset[object] = getattr(importlib.import_module(module_name), attr)
    return ruleset
