"""The state cache of services/log.py: a hit costs one query and returns a private copy equal to
the replayed state; an entry whose hash is not the event row's is never used (a forged entry, an
append that was rolled back); an unchecked replay is never cached; the size bound holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from games.core.canonical import state_hash
from games.core.protocol import Action
from games.core.rng import Rng
from pbem.play.models import Event, Game, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services import log
from pbem.play.services.log import event_append, rng_for, state_at, state_cache_clear

pytestmark = pytest.mark.django_db
Play = Callable[..., list[Event]]


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    state_cache_clear()
    yield
    state_cache_clear()


def _hash(game: Game, state: object) -> str:
    return state_hash(ruleset_get(game.ruleset_id).dump(state))


def _random_action(game: Game, state: object, seed: int) -> Action:
    ruleset = ruleset_get(game.ruleset_id)
    role = sorted(ruleset.prompts(state))[0]
    rng = Rng(seed)
    for _ in range(20):
        action = ruleset.random_action(state, role, Rng(rng.next64()))
        if action is not None:
            return action
    raise AssertionError("no legal action found")


def _append(game: Game, state: object, action: Action) -> object:
    ruleset = ruleset_get(game.ruleset_id)
    step = ruleset.apply(state, action, rng_for(game, game.head_seq + 1))
    event_append(game=game, after_seq=game.head_seq, action=action, step=step, source="api")
    return step.state


def _past_a_snapshot(game: Game, play: Play) -> None:
    """Play until the head is a few events past the newest snapshot (a replay is needed)."""
    play(game, until_turn_ends=2)
    for seed in range(40):
        newest = Snapshot.objects.filter(game=game).order_by("-seq").first()
        if newest is not None and game.head_seq - newest.seq >= 2:
            return
        play(game, 1, seed=100 + seed)
    raise AssertionError("the head stayed on a snapshot")


def test_the_head_after_an_append_is_a_one_query_hit(nt_game: Game, play: Play) -> None:
    _past_a_snapshot(nt_game, play)

    with CaptureQueriesContext(connection) as queries:
        state = state_at(nt_game, nt_game.head_seq)

    assert len(queries.captured_queries) == 1  # the event row's hash, nothing replayed
    assert _hash(nt_game, state) == nt_game.head_hash


def test_a_hit_equals_the_replay_and_is_a_private_copy(nt_game: Game, play: Play) -> None:
    _past_a_snapshot(nt_game, play)
    head = nt_game.head_seq
    first = state_at(nt_game, head)
    units = getattr(first, "units", None)
    assert isinstance(units, dict)
    units.clear()  # the caller may mutate what it got
    second = state_at(nt_game, head)
    state_cache_clear()
    replayed = state_at(nt_game, head)

    assert second is not first
    assert _hash(nt_game, second) == _hash(nt_game, replayed) == nt_game.head_hash


def test_a_miss_replays_verified_and_fills_the_cache(nt_game: Game, play: Play) -> None:
    _past_a_snapshot(nt_game, play)
    state_cache_clear()

    with CaptureQueriesContext(connection) as cold:
        state_at(nt_game, nt_game.head_seq)
    with CaptureQueriesContext(connection) as warm:
        again = state_at(nt_game, nt_game.head_seq)

    assert len(cold.captured_queries) >= 2  # snapshot, events
    assert len(warm.captured_queries) == 1
    assert _hash(nt_game, again) == nt_game.head_hash


def test_an_entry_whose_hash_is_not_the_event_rows_is_never_used(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    ruleset = ruleset_get(nt_game.ruleset_id)
    head = nt_game.head_seq
    other = state_at(nt_game, head - 1)
    key = log._cache_key(nt_game, head, ruleset)
    forged_text = log._state_text(ruleset.dump(other))
    log._cache_put(key, state_hash(ruleset.dump(other)), forged_text)  # a wrong state, own hash

    state = state_at(nt_game, head)

    assert _hash(nt_game, state) == nt_game.head_hash
    cached = log._cache_get(key)
    assert cached is not None
    assert cached[0] == nt_game.head_hash  # the forged entry was dropped, the replay stored


def test_a_rolled_back_append_leaves_nothing_usable(nt_game: Game, play: Play) -> None:
    play(nt_game, 2)
    head = nt_game.head_seq
    state = state_at(nt_game, head)

    def append_then_fail() -> None:
        with transaction.atomic():
            _append(nt_game, state, _random_action(nt_game, state, 1))
            raise RuntimeError("roll the append back")

    with pytest.raises(RuntimeError):
        append_then_fail()
    nt_game.refresh_from_db()
    assert nt_game.head_seq == head
    ruleset = ruleset_get(nt_game.ruleset_id)
    key = log._cache_key(nt_game, head + 1, ruleset)
    assert log._cache_get(key) is not None  # written by the append that did not happen

    after = state_at(nt_game, head + 1)  # no event head + 1: the state at the head, as ever

    assert _hash(nt_game, after) == nt_game.head_hash
    assert log._cache_get(key) is None
    state = state_at(nt_game, head)
    _append(nt_game, state, _random_action(nt_game, state, 2))  # the real event head + 1
    nt_game.refresh_from_db()
    assert _hash(nt_game, state_at(nt_game, head + 1)) == nt_game.head_hash


def test_an_unchecked_replay_over_a_forged_snapshot_is_not_cached(
    nt_game: Game, play: Play
) -> None:
    _past_a_snapshot(nt_game, play)
    snap = Snapshot.objects.filter(game=nt_game).order_by("-seq").first()
    assert snap is not None
    forged = snap.state
    assert isinstance(forged, dict)
    forged["turn_number"] = int(forged["turn_number"]) + 5
    Snapshot.objects.filter(pk=snap.pk).update(state=forged)  # allowed: a snapshot is a cache
    state_cache_clear()

    state_at(nt_game, nt_game.head_seq, verify=False)

    ruleset = ruleset_get(nt_game.ruleset_id)
    assert log._cache_get(log._cache_key(nt_game, nt_game.head_seq, ruleset)) is None


def test_the_size_bound_and_zero_turns_it_off(
    nt_game: Game, play: Play, settings: Settings
) -> None:
    settings.PBEM = {**settings.PBEM, "STATE_CACHE_SIZE": 2}
    play(nt_game, 4)
    assert len(log._cache) == 2
    ruleset = ruleset_get(nt_game.ruleset_id)
    assert log._cache_get(log._cache_key(nt_game, nt_game.head_seq, ruleset)) is not None

    settings.PBEM = {**settings.PBEM, "STATE_CACHE_SIZE": 0}
    state_cache_clear()
    play(nt_game, 2, seed=9)
    state_at(nt_game, nt_game.head_seq)
    assert len(log._cache) == 0
