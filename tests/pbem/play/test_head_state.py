"""The head state (services/log.py): written with each event in its transaction, read with one
query at the head, equal to the replay, a fresh copy for every caller, never used for another
seq or engine version, and gone with a rolled-back append."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.core.canonical import state_hash
from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game, HeadState, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services import headcache
from pbem.play.services.log import event_append, head_read, rng_for, state_at

pytestmark = pytest.mark.django_db
Play = Callable[..., list[Event]]


def _hash(game: Game, state: object) -> str:
    return state_hash(ruleset_get(game.ruleset_id).dump(state))


def _random_action(game: Game, state: object, seed: int) -> Action:
    ruleset = ruleset_get(game.ruleset_id)
    role = sorted(ruleset.prompts(state))[0]
    action = random_legal_action(ruleset, state, role, Rng(seed))
    assert action is not None, "no legal action found"
    return action


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


def test_a_new_game_has_its_head_state(nt_game: Game) -> None:
    head = HeadState.objects.get(game=nt_game)
    assert (head.seq, head.state_hash) == (1, nt_game.head_hash)


def test_the_head_is_one_query_and_equals_the_replay(nt_game: Game, play: Play) -> None:
    _past_a_snapshot(nt_game, play)
    headcache.clear()  # as in a process that did not append the head event

    with CaptureQueriesContext(connection) as queries:
        state = state_at(nt_game, nt_game.head_seq)
    with CaptureQueriesContext(connection) as rebuild:
        replayed = state_at(nt_game, nt_game.head_seq, head=False)

    assert len(queries.captured_queries) == 1  # nothing replayed
    assert len(rebuild.captured_queries) >= 2  # snapshot, events
    assert _hash(nt_game, state) == _hash(nt_game, replayed) == nt_game.head_hash
    assert HeadState.objects.get(game=nt_game).seq == nt_game.head_seq


def test_every_read_is_a_fresh_copy(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    first = state_at(nt_game, nt_game.head_seq)
    units = getattr(first, "units", None)
    assert isinstance(units, dict)
    units.clear()  # the caller may change what it got

    second = state_at(nt_game, nt_game.head_seq)

    assert second is not first
    assert _hash(nt_game, second) == nt_game.head_hash


def test_an_older_seq_is_rebuilt_not_read_from_the_head(nt_game: Game, play: Play) -> None:
    play(nt_game, 4)
    older = nt_game.head_seq - 2

    state = state_at(nt_game, older)

    assert _hash(nt_game, state) == Event.objects.get(game=nt_game, seq=older).state_hash


def test_a_head_state_of_another_engine_version_is_not_used(nt_game: Game, play: Play) -> None:
    play(nt_game, 2)
    HeadState.objects.filter(game=nt_game).update(engine_version=999, state={"forged": True})

    state = state_at(nt_game, nt_game.head_seq)  # rebuilt from the snapshot and the log

    assert _hash(nt_game, state) == nt_game.head_hash


def test_a_rolled_back_append_leaves_the_head_state_as_it_was(nt_game: Game, play: Play) -> None:
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
    stored = HeadState.objects.get(game=nt_game)
    assert (nt_game.head_seq, stored.seq, stored.state_hash) == (head, head, nt_game.head_hash)
    after = state_at(nt_game, head)
    _append(nt_game, after, _random_action(nt_game, after, 2))  # the real event head + 1
    nt_game.refresh_from_db()
    assert HeadState.objects.get(game=nt_game).seq == head + 1
    assert _hash(nt_game, state_at(nt_game, head + 1)) == nt_game.head_hash


def test_head_read_uses_a_head_state_loaded_with_the_game(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    game = Game.objects.select_related("headstate").get(pk=nt_game.pk)

    with CaptureQueriesContext(connection) as queries:
        state = head_read(game)

    assert len(queries.captured_queries) == 0
    assert _hash(game, state) == game.head_hash


def test_head_read_refreshes_a_stale_game_and_survives_a_missing_head_state(
    nt_game: Game, play: Play
) -> None:
    stale = Game.objects.get(pk=nt_game.pk)
    play(nt_game, 3)

    state = head_read(stale)  # one query: the head state joined to the current game row
    assert stale.head_seq == nt_game.head_seq
    assert _hash(stale, state) == nt_game.head_hash

    HeadState.objects.filter(game=nt_game).delete()  # a cache: the log rebuilds it
    again = head_read(Game.objects.get(pk=nt_game.pk))
    assert _hash(stale, again) == nt_game.head_hash


def test_the_process_that_appended_the_head_reads_it_without_a_query(
    nt_game: Game, play: Play
) -> None:
    _past_a_snapshot(nt_game, play)  # this process appended the head event: it is cached

    with CaptureQueriesContext(connection) as queries:
        state = state_at(nt_game, nt_game.head_seq)
    replayed = state_at(nt_game, nt_game.head_seq, head=False)

    assert len(queries.captured_queries) == 0
    assert _hash(nt_game, state) == _hash(nt_game, replayed) == nt_game.head_hash


def test_a_cached_head_is_used_only_under_its_own_hash(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    ruleset = ruleset_get(nt_game.ruleset_id)
    seq, digest = nt_game.head_seq, nt_game.head_hash
    assert headcache.get(nt_game.pk, seq, ruleset.version, digest) is not None
    assert headcache.get(nt_game.pk, seq, ruleset.version, "0" * 64) is None  # another state
    assert headcache.get(nt_game.pk, seq, ruleset.version + 1, digest) is None  # another engine
    assert headcache.get(nt_game.pk, seq - 1, ruleset.version, digest) is None

    stale = Game.objects.get(pk=nt_game.pk)
    stale.head_hash = "0" * 64  # a game row whose hash the cache does not hold: read the table
    with CaptureQueriesContext(connection) as queries:
        state = state_at(stale, seq)
    assert len(queries.captured_queries) == 1
    assert _hash(nt_game, state) == digest


def test_a_cache_hit_is_a_fresh_copy(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    first = state_at(nt_game, nt_game.head_seq)
    ruleset = ruleset_get(nt_game.ruleset_id)
    dumped = ruleset.dump(first)
    assert isinstance(dumped, dict)
    first.units.clear()  # type: ignore[attr-defined]
    again = state_at(nt_game, nt_game.head_seq)
    assert ruleset.dump(again) == dumped
