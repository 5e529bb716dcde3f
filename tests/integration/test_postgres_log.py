"""Integration tests on a real PostgreSQL (marker `integration`; `./dev test` starts the server):
the database itself refuses to change the log, and concurrent writers append exactly once."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, connections, transaction

from games.core.protocol import Action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from pbem.play.errors import StaleHead
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import event_append, rng_for, state_at
from pbem.play.services.orders import order_apply

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _game(tag: str) -> Game:
    a = User.objects.create(username=f"a_{tag}")
    f = User.objects.create(username=f"f_{tag}")
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": a, "french": f},
        creator=a,
        accepted=True,
    )


def test_postgres_refuses_update_and_delete_of_events() -> None:
    game = _game("trig")
    before = list(Event.objects.filter(game=game).values_list("seq", "kind", "state_hash"))
    for sql in ("UPDATE play_event SET kind = 'forged'", "DELETE FROM play_event"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute(sql)
    after = list(Event.objects.filter(game=game).values_list("seq", "kind", "state_hash"))
    assert after == before


def test_racing_appends_at_one_head_admit_exactly_one() -> None:
    """Compare-and-set on the game's head: 8 threads append at the same head, one wins."""
    game = _game("race")
    state = state_at(game, game.head_seq)
    assert isinstance(state, GameState)
    action = RULESET.random_action(state, "allied", Rng(1))
    assert action is not None
    step = ruleset_get(game.ruleset_id).apply(state, action, rng_for(game, 2))
    wins: list[int] = []
    stale: list[int] = []
    barrier = threading.Barrier(8)

    def append(i: int) -> None:
        try:
            barrier.wait()
            g = Game.objects.get(pk=game.pk)
            event_append(
                game=g, after_seq=1, action=action, step=step, source="api", source_ref=f"race-{i}"
            )
            wins.append(i)
        except (StaleHead, DatabaseError):
            stale.append(i)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=append, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    assert len(stale) == 7
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]


def test_one_intake_applied_by_many_workers_is_one_event() -> None:
    """A task delivered several times at once (acks_late redelivery): one event, gapless."""
    game = _game("dup")
    user = game.seats.get(role="allied").user
    assert user is not None
    state = state_at(game, game.head_seq)
    assert isinstance(state, GameState)
    action = RULESET.random_action(state, "allied", Rng(2))
    assert isinstance(action, Action)
    intake = OrderIntake.objects.create(
        game=game,
        role="allied",
        user=user,
        kind=action.kind,
        payload=action.payload,
        source="api",
        head_seq=1,
    )
    barrier = threading.Barrier(6)

    def work() -> None:
        try:
            barrier.wait()
            order_apply(intake_id=intake.pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    intake.refresh_from_db()
    assert intake.status == OrderIntake.Status.APPLIED
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    assert Event.objects.filter(game=game, source_ref=f"intake:{intake.pk}").count() == 1


def test_the_order_paths_game_read_equals_the_orms_on_postgres() -> None:
    """pbem.play.hot_sql's SQL and converters on PostgreSQL (jsonb, timestamptz, uuid)."""
    from tests.support.hot_read_check import assert_read_as_orm

    game = _game("hot")
    game.deadline_at = game.created_at
    game.save(update_fields=["deadline_at"])
    hot = assert_read_as_orm(game.pk)
    assert hot.headstate.seq == 1
    assert isinstance(hot.headstate.state, dict)
