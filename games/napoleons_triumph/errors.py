"""The one exception a rule raises to refuse an action; `validate` turns it into a Rejection.
At set-up the ruleset raises it as SetupRefused, which is also the protocol's SetupError."""

from __future__ import annotations

from games.core.protocol import Rejection, SetupError


class Illegal(Exception):
    def __init__(self, rule: str, message: str, path: str = "") -> None:
        super().__init__(f"{rule}: {message}")
        self.rejection = Rejection(rule=rule, message=message, path=path)


class SetupRefused(Illegal, SetupError):
    """A game the rules refuse to set up (NT-16, NT-19, NT-133..NT-140): the engine's Illegal, and
    the protocol's SetupError, the only set-up exception the platform catches."""

    def __init__(self, rule: str, message: str, path: str = "") -> None:
        SetupError.__init__(self, Rejection(rule=rule, message=message, path=path))


def require(condition: bool, rule: str, message: str, path: str = "") -> None:
    if not condition:
        raise Illegal(rule, message, path)
