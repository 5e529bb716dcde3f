"""A geometric fact the engine proposes and the umpire confirms or overrides (digest 4.1, 4.2).

The geometry aid never decides: every answer is a `Proposal` naming the fact, its value and the
rule of the step table (digest 4.2) it serves, so the pending decision V-14 (CONFIRM_GEOMETRY)
can show it to the umpire as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from games.core.protocol import JSON

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class TerrainCrossing:
    """How a path meets one terrain piece (VF-187..VF-192): the length inside it, the separate
    stretches inside, and how many of those go through it (entered and left again)."""

    piece: str
    kind: str
    traits: tuple[str, ...]
    inside_in: float
    stretches: int
    crossings: int

    def to_json(self) -> JSON:
        return {
            "piece": self.piece,
            "kind": self.kind,
            "traits": list(self.traits),
            "inside_in": inches_text(self.inside_in),
            "stretches": self.stretches,
            "crossings": self.crossings,
        }


@dataclass(frozen=True, slots=True)
class Proposal(Generic[V]):
    fact: str  # what is proposed, in words: "distance U-A-1 to U-B-2"
    value: V
    rule: str  # the digest rule of the step it serves, e.g. "VF-42"
    note: str = ""  # how it was found, and what the umpire should look at

    def to_json(self) -> JSON:
        return {"fact": self.fact, "value": _json(self.value), "rule": self.rule, "note": self.note}


def inches_text(value: float) -> str:
    """A measured length as the umpire reads it: three decimals."""
    return f"{value:.3f}"


def _json(value: object) -> JSON:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return inches_text(value)
    if isinstance(value, TerrainCrossing):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_json(item) for item in value]
    raise TypeError(f"no JSON form for {type(value).__name__}")
