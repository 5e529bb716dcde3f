"""What every list of legal choices shares (``choices``, ``choices_answers``): the bound on the
payloads of one kind, the bounded duplicate-free list (`Out`) and the `validate` probe for one
role and state (`Checker`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.core.protocol import JSON, Action, Rejection
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.state import GameState

__all__ = ["MAX_PAYLOADS", "Checker", "Out", "Payload", "Rules"]

MAX_PAYLOADS = 300  # per kind: the view is served on every GET


class Rules(Protocol):
    """What choices needs of the ruleset (NapoleonsTriumph): validate."""

    def validate(self, state: GameState, action: Action) -> Sequence[Rejection]: ...


Payload = dict[str, JSON]


class Out:
    """A bounded, duplicate-free list of payloads; `complete` drops when the bound cuts."""

    def __init__(self, complete: bool = True) -> None:
        self.payloads: list[Payload] = []
        self.complete = complete

    def add(self, p: Payload) -> bool:
        if p in self.payloads:
            return True
        if len(self.payloads) >= MAX_PAYLOADS:
            self.complete = False
            return False
        self.payloads.append(p)
        return True

    def json(self, **hints: JSON) -> JSON:
        out: dict[str, JSON] = {"payloads": jlist(self.payloads), "complete": self.complete}
        out.update(hints)
        return out


class Checker:
    """`validate` for one role and state (answers True when legal)."""

    def __init__(self, rules: Rules, state: GameState, role: str) -> None:
        self.rules, self.state, self.role = rules, state, role

    def __call__(self, kind: str, payload: Payload) -> bool:
        return not self.rules.validate(self.state, Action(self.role, kind, payload))
