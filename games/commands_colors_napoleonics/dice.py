"""The battle dice (digest 2.9; rulebook L67-77): six faces, two infantry, one cavalry, one
artillery, one flag, one sabre. There is no leader face; leader checks use sabres (CCN-76).

Every roll comes from the generator the engine is handed (`games.core.rng.Rng`): an engine is
deterministic. A roll is recorded as its faces, so the log and the tests need nothing else.
`ScriptedDice` plays back given faces: the digest's deterministic dice provider for tests (0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Protocol

from games.core.rng import Rng

MAX_DICE = 64  # a guard against runaway counts; 8 physical dice are no rules limit (2.9)


class Face(StrEnum):
    INF = "INF"
    CAV = "CAV"
    ART = "ART"
    FLAG = "FLAG"
    SABRE = "SABRE"


# The six faces of one die (seed L69): P(INF) = 1/3, every other face 1/6.
DIE_FACES: tuple[Face, ...] = (Face.INF, Face.INF, Face.CAV, Face.ART, Face.FLAG, Face.SABRE)


class DiceSource(Protocol):
    def roll(self, n: int) -> tuple[Face, ...]: ...


def _check_count(n: int) -> None:
    if not 0 <= n <= MAX_DICE:
        raise ValueError(f"cannot roll {n} dice (0..{MAX_DICE})")


def roll(rng: Rng, n: int) -> tuple[Face, ...]:
    """`n` battle dice from `rng`; 0 dice is no roll and draws nothing from it (2.9)."""
    _check_count(n)
    return tuple(DIE_FACES[rng.below(len(DIE_FACES))] for _ in range(n))


class RngDice:
    """Dice from the engine's generator."""

    __slots__ = ("_rng",)

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    def roll(self, n: int) -> tuple[Face, ...]:
        return roll(self._rng, n)


class ScriptedDice:
    """Dice that play back `faces` in order (tests); running out is an error, never a guess."""

    __slots__ = ("_faces",)

    def __init__(self, faces: Iterable[Face | str]) -> None:
        self._faces = [Face(f) for f in faces]

    def roll(self, n: int) -> tuple[Face, ...]:
        _check_count(n)
        if n > len(self._faces):
            raise LookupError(f"the script holds {len(self._faces)} faces, {n} asked")
        out, self._faces = tuple(self._faces[:n]), self._faces[n:]
        return out

    @property
    def left(self) -> int:
        return len(self._faces)


def count(faces: Sequence[Face], face: Face) -> int:
    return sum(1 for f in faces if f is face)


def faces_to_json(faces: Sequence[Face]) -> list[str]:
    return [f.value for f in faces]


def faces_from_json(data: Sequence[str]) -> tuple[Face, ...]:
    return tuple(Face(f) for f in data)
