"""`validate_owned` (the order path's pre-check without a copy) answers exactly as `validate`
over random games: for the legal action the generator picks and for illegal variants of it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import Action, Rejection, validate_owned
from games.napoleons_triumph import RULESET
from games.napoleons_triumph import state as S
from tests.support.napoleons_triumph import random_playout


def _pairs(seed: int, steps: int, scenario: str) -> list[tuple[S.GameState, Action]]:
    """(state, a random legal action) along a random playout."""
    game = random_playout(seed, steps, scenario)
    return list(zip(game.states, game.actions, strict=False))


def _variants(action: Action, state: S.GameState) -> list[Action]:
    """The action, the same from the other side, and its payload emptied (mostly illegal)."""
    other = next(r for r in state.roles if r != action.role)
    return [
        action,
        Action(other, action.kind, action.payload),
        Action(action.role, action.kind, {}),
    ]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(["DEC2", "DEC1"]))
def test_validate_owned_answers_as_validate(seed: int, scenario: str) -> None:
    seen_illegal = 0
    for state, action in _pairs(seed, 80, scenario):
        for variant in _variants(action, state):
            expected = RULESET.validate(state, variant)
            owned = S.load(S.dump(state))  # what the server hands it: a state just loaded
            assert tuple(validate_owned(RULESET, owned, variant)) == tuple(expected)
            seen_illegal += bool(expected)
    assert seen_illegal > 0  # the illegal side was exercised too


def test_validate_owned_falls_back_to_validate_for_a_ruleset_without_it() -> None:
    class Plain:
        def validate(self, state: object, action: Action) -> tuple[Rejection, ...]:
            return (Rejection("plain", "the plain validate"),)

    answer = validate_owned(Plain(), object(), Action("a", "k", {}))  # type: ignore[arg-type]
    assert answer == (Rejection("plain", "the plain validate"),)
