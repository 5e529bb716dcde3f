"""An instruction of the turn sheet that is illegal when it is reached: skipped and logged with
its rule (digest 4.5, `on_illegal: skip`)."""

from __future__ import annotations


class Skip(Exception):
    """An instruction that is illegal when it is reached: skipped and logged (digest 4.5)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
