"""Properties over random playouts of the example scenario: non-interference (a seat's view,
prompts and action menu do not change when only the other hand or the deck order changes; over
1 000+ states), determinism (the same seed and log give the same state hashes), the invariants
after every event, and `validate` agreeing with `validate_owned`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.checks import perturb, violations
from games.commands_colors_napoleonics.state import GameState, clone
from games.core.canonical import state_hash
from games.core.protocol import Action, GameConfig
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import (
    EXAMPLE,
    act_of,
    view_of,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def playout(seed: int, steps: int) -> tuple[list[GameState], list[Action]]:
    state = R.setup(GameConfig(EXAMPLE, {}), Rng.for_event(b"ccn:%d" % seed, 0))
    chooser = Rng(seed)
    states, log = [state], []
    for i in range(steps):
        prompts = R.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = R.random_action(state, role, chooser)
        assert action is not None
        state = R.apply(state, action, Rng.for_event(b"ccn:%d" % seed, i + 2)).state
        assert not violations(state), (action, violations(state))
        states.append(state)
        log.append(action)
    return states, log


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_a_seat_sees_nothing_of_the_other_hand_or_the_deck_order(seed: int) -> None:
    states, _ = playout(seed, 60)
    probe = Rng(seed ^ 0x5EED)
    for n, state in enumerate(states):
        for role in ("top", "bottom", "@observer"):
            other = perturb(state, role, probe)
            assert isinstance(other, GameState)
            assert view_of(state, role) == view_of(other, role), (role, n)
            assert R.prompts(state).get(role) == R.prompts(other).get(role)
            if n % 6 == 0 and role != "@observer":
                assert R.actions(state, role) == R.actions(other, role), (role, n)


def test_the_perturbation_does_change_the_hidden_facts() -> None:
    """The probe above is not empty: the other hand or the draw pile does change."""
    states, _ = playout(7, 10)
    changed = 0
    for state in states:
        other = perturb(state, "top", Rng(1))
        assert isinstance(other, GameState)
        changed += (other.deck.hands["bottom"], other.deck.draw) != (
            state.deck.hands["bottom"],
            state.deck.draw,
        )
        assert other.deck.hands["top"] == state.deck.hands["top"]
    assert changed >= len(states) - 1


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_log_same_hashes(seed: int) -> None:
    states, log = playout(seed, 80)
    again = R.setup(GameConfig(EXAMPLE, {}), Rng.for_event(b"ccn:%d" % seed, 0))
    hashes = [state_hash(R.dump(again))]
    for i, action in enumerate(log):
        again = R.apply(again, action, Rng.for_event(b"ccn:%d" % seed, i + 2)).state
        hashes.append(state_hash(R.dump(again)))
    assert hashes == [state_hash(R.dump(s)) for s in states]
    for s in states:
        assert R.dump(R.load(R.dump(s))) == R.dump(s)
        assert R.dump(clone(s)) == R.dump(s)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_validate_agrees_with_validate_owned_and_leaves_the_state_alone(seed: int) -> None:
    states, log = playout(seed, 40)
    for state, action in zip(states, log, strict=False):
        before = state_hash(R.dump(state))
        wrong = act_of(action.role, action.kind, {"junk": 1})
        for a in (action, wrong):
            assert R.validate(state, a) == R.validate_owned(clone(state), a)
        assert state_hash(R.dump(state)) == before


def test_random_games_end_with_a_winner() -> None:
    for seed in range(3):
        states, _ = playout(seed, 3000)
        result = R.result(states[-1])
        assert result is not None
        assert result.winners
