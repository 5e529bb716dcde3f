"""`clone` copies a state directly; it must give exactly what the JSON round trip
`load(dump(state))` gives, and share nothing with the original, over random games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.napoleons_triumph import state as S
from tests.support.napoleons_triumph import random_playout


def _states(seed: int, steps: int, scenario: str) -> list[S.GameState]:
    """The states of a random legal playout (every one of them, from the set-up on)."""
    return random_playout(seed, steps, scenario).states


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(["DEC2", "DEC1"]))
def test_clone_equals_the_json_round_trip(seed: int, scenario: str) -> None:
    for state in _states(seed, 120, scenario):
        copy = S.clone(state)
        assert copy == S.load(S.dump(state))
        assert S.dump(copy) == S.dump(state)


def test_a_clone_shares_no_mutable_part_with_its_original() -> None:
    state = _states(7, 60, "DEC2")[-1]
    before = S.dump(state)
    copy = S.clone(state)
    for unit in copy.units.values():
        unit.named_via.append("x")
        unit.moves += 1
    copy.turn.commands.append({"x": 1})
    copy.morale["F"] = -1
    copy.units.clear()
    assert S.dump(state) == before


def test_clone_refuses_what_json_cannot_hold() -> None:
    state = _states(3, 1, "DEC2")[0]
    state.morale["F"] = 1.5  # type: ignore[assignment]  # no floats in a state
    with pytest.raises(TypeError):
        S.clone(state)
