"""The rules do not know the random player: the package hands it in when it builds RULESET."""

from __future__ import annotations

import pytest

from games.core.protocol import Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET, NapoleonsTriumph
from games.napoleons_triumph.randomplay import random_action


def test_the_ruleset_plays_with_the_random_player_it_was_given() -> None:
    seen: list[str] = []

    def player(rules: NapoleonsTriumph, state: object, role: str, rng: Rng) -> Action | None:
        seen.append(role)
        return Action(role, "end_turn", {})

    rules = NapoleonsTriumph(random_player=player)
    state = rules.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    assert rules.random_action(state, "allied", Rng(2)) == Action("allied", "end_turn", {})
    assert seen == ["allied"]


def test_without_a_random_player_the_error_says_how_to_get_one() -> None:
    rules = NapoleonsTriumph()
    state = rules.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    with pytest.raises(NotImplementedError, match="random_player"):
        rules.random_action(state, "allied", Rng(2))


def test_the_package_ruleset_uses_randomplay() -> None:
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    assert RULESET.random_action(state, "allied", Rng(2)) == random_action(
        RULESET, state, "allied", Rng(2)
    )
