"""Our own seeded PRNG (SplitMix64). The stdlib `random` module is banned in `games/`.

`Rng.for_event(seed, seq)` derives the generator of one event from the game's secret seed and the
event's sequence number only, so replaying any event needs no carried RNG state (architecture 8.3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @classmethod
    def for_event(cls, seed: bytes, seq: int) -> Rng:
        digest = hashlib.blake2b(seed + seq.to_bytes(8, "big"), digest_size=8).digest()
        return cls(int.from_bytes(digest, "big"))

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def d6(self) -> int:
        return self.below(6) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def token(self, nbytes: int = 16) -> str:
        """Hex token (for per-game secrets such as the alias salt)."""
        out = b"".join(self.next64().to_bytes(8, "big") for _ in range((nbytes + 7) // 8))
        return out[:nbytes].hex()
