"""The order path's game read by SQL written once (pbem.play.hot_sql) equals the ORM's, and the
order path reads a game in two queries (SQLite here; PostgreSQL in tests/integration)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pbem.play.hot_sql import game_with_head
from pbem.play.models import Event, Game, HeadState, Seat
from pbem.play.services.games import game_create
from tests.support.hot_read_check import assert_read_as_orm

pytestmark = pytest.mark.django_db
Play = Callable[..., list[Event]]


def test_a_played_game_reads_as_the_orm_reads_it(nt_game: Game, play: Play) -> None:
    play(nt_game, 6)
    game = assert_read_as_orm(nt_game.pk)
    assert game.head_seq == 7
    assert game.headstate.seq == 7
    assert isinstance(game.headstate.state, dict)
    assert "units" in game.headstate.state


def test_open_seats_invitations_and_no_head_state(alice: User, bob: User) -> None:
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": None},
        creator=alice,
        title="open",
    )
    Seat.objects.filter(game=game, role="allied").update(accepted_at=None)
    assert_read_as_orm(game.pk)
    HeadState.objects.filter(game=game).delete()  # a cache: absent is allowed
    assert_read_as_orm(game.pk)


def test_an_unknown_game_is_none() -> None:
    assert game_with_head(uuid.uuid4()) is None


def test_the_order_path_reads_its_game_in_two_queries(nt_game: Game) -> None:
    with CaptureQueriesContext(connection) as queries:
        game = game_with_head(nt_game.pk)
        assert game is not None
        roles = [s.role for s in game.seats.all()]
        head = game.headstate.seq
    assert len(queries) == 2
    assert roles == ["allied", "french"]
    assert head == 1


def test_insert_row_stores_what_create_stores(nt_game: Game, alice: User) -> None:
    from django.db.models.signals import post_save, pre_save

    from pbem.play.hot_sql import insert_row
    from pbem.play.models import OrderIntake

    assert not pre_save.has_listeners(OrderIntake)
    assert not post_save.has_listeners(OrderIntake)  # insert_row sends no signals
    fields = {
        "game": nt_game,
        "role": "allied",
        "user": alice,
        "kind": "allied_setup",
        "payload": {"corps": [{"id": "Ü", "n": [1, 2]}]},
        "source": "api",
        "head_seq": 1,
        "errors": [{"rule": "NT-21", "message": "x"}],
        "checked_engine_version": 2,
    }
    hot = insert_row(OrderIntake(**fields))
    orm = OrderIntake.objects.create(**fields)
    assert not hot._state.adding
    assert hot._state.db == "default"
    read_hot = OrderIntake.objects.get(pk=hot.pk)
    read_orm = OrderIntake.objects.get(pk=orm.pk)
    skip = {"id", "created_at", "updated_at"}
    names = [f.attname for f in OrderIntake._meta.concrete_fields if f.attname not in skip]
    assert {n: getattr(read_hot, n) for n in names} == {n: getattr(read_orm, n) for n in names}
    assert {n: getattr(read_hot, n) for n in names} == {n: getattr(hot, n) for n in names}
    assert read_hot.created_at == hot.created_at
    assert read_hot.created_at is not None
