"""The one exception a rule raises to refuse an action; `validate` turns it into a Rejection."""

from __future__ import annotations

from games.core.protocol import Rejection


class Illegal(Exception):
    def __init__(self, rule: str, message: str, path: str = "") -> None:
        super().__init__(f"{rule}: {message}")
        self.rejection = Rejection(rule=rule, message=message, path=path)


def require(condition: bool, rule: str, message: str, path: str = "") -> None:
    if not condition:
        raise Illegal(rule, message, path)
