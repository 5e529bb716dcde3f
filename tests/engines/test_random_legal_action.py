"""games.core.protocol.random_legal_action: draws again while the engine gives up, each draw with
its own generator from the caller's, and gives None after `tries` empty draws."""

from __future__ import annotations

from typing import Any

from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng


class GivesUp:
    """A stand-in ruleset whose random_action gives up `misses` times, recording each draw."""

    def __init__(self, misses: int) -> None:
        self.misses = misses
        self.draws: list[int] = []

    def random_action(self, state: object, role: str, rng: Rng) -> Action | None:
        self.draws.append(rng.next64())
        if len(self.draws) <= self.misses:
            return None
        return Action(role, "move", {"draw": len(self.draws)})


def test_draws_again_until_an_action_comes() -> None:
    rules: Any = GivesUp(misses=3)

    action = random_legal_action(rules, None, "french", Rng(5), tries=10)

    assert action == Action("french", "move", {"draw": 4})
    assert len(set(rules.draws)) == 4  # a fresh generator per draw


def test_none_after_tries_empty_draws() -> None:
    rules: Any = GivesUp(misses=100)

    assert random_legal_action(rules, None, "allied", Rng(5), tries=7) is None
    assert len(rules.draws) == 7


def test_the_same_seed_draws_the_same() -> None:
    a: Any = GivesUp(misses=2)
    b: Any = GivesUp(misses=2)
    random_legal_action(a, None, "allied", Rng(9))
    random_legal_action(b, None, "allied", Rng(9))
    assert a.draws == b.draws
