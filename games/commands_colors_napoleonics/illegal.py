"""The one exception a rule raises to refuse an action; `validate` turns it into a Rejection
naming the rule (a CCN id). At set-up it is raised as `SetupRefused`, the protocol's
SetupError."""

from __future__ import annotations

from games.core.protocol import Rejection, SetupError


class Illegal(Exception):
    def __init__(self, rule: str, message: str, path: str = "") -> None:
        super().__init__(f"{rule}: {message}")
        self.rejection = Rejection(rule=rule, message=message, path=path)


class SetupRefused(SetupError):
    """A game set-up the engine refuses (an unknown scenario, an unknown value: the gap)."""


def require(condition: bool, rule: str, message: str, path: str = "") -> None:
    if not condition:
        raise Illegal(rule, message, path)
