"""Fixtures for the play app: two players, a Napoleon's Triumph game on the small board, and a
helper that plays random legal orders through the real order path."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game, OrderIntake, Seat, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply, order_submit

Play = Callable[..., list[Event]]


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice_t", "alice@example.com")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob_t", "bob@example.com")


@pytest.fixture
def nt_game(alice: User, bob: User) -> Game:
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
        title="test",
        accepted=True,
    )


def play_random(
    game: Game, actions: int = 0, *, seed: int = 7, until_turn_ends: int = 0
) -> list[Event]:
    """Submit `actions` random legal orders (or go on until `until_turn_ends` turns have ended),
    each through order_submit and, when it is still waiting for a worker, order_apply."""
    ruleset = ruleset_get(game.ruleset_id)
    rng = Rng(seed)
    holders = {s.role: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    events: list[Event] = []
    ended = 0
    while len(events) < 500:
        if actions and len(events) >= actions:
            break
        if until_turn_ends and ended >= until_turn_ends:
            break
        game.refresh_from_db()
        state = state_at(game, game.head_seq, verify=False)
        prompts = ruleset.prompts(state)
        assert prompts, "the game ended"
        role = sorted(prompts)[0]
        user = holders[role]
        assert user is not None
        action = random_legal_action(ruleset, state, role, rng)
        assert action is not None
        intake = order_submit(
            game=game,
            user=user,
            role=role,
            kind=action.kind,
            payload=action.payload,
            source="api",
        )
        if intake.status == OrderIntake.Status.RECEIVED:
            order_apply(intake_id=intake.pk)
            intake.refresh_from_db()
        assert intake.status == OrderIntake.Status.APPLIED, intake.errors
        assert intake.event is not None
        events.append(intake.event)
        ended += intake.event.turn_ended
    game.refresh_from_db()
    return events


@pytest.fixture
def play() -> Play:
    return play_random


@pytest.fixture
def event_log_flushable(transactional_db: None) -> Iterator[None]:
    """For `transaction=True` tests: the flush that empties the database after such a test would
    hit the append-only triggers on play_event, so before it runs this fixture lifts the triggers,
    deletes the events (and what protects them) and puts the triggers back.
    SQLite only: on PostgreSQL the flush is a TRUNCATE, refused even on an empty table."""
    yield
    if connection.vendor != "sqlite":
        return
    triggers = importlib.import_module("pbem.play.migrations.0002_event_append_only_triggers")
    with connection.cursor() as cursor:
        for sql in triggers.SQLITE_DROP:
            cursor.execute(sql)
        try:
            with transaction.atomic():
                OrderIntake.objects.all().delete()
                Snapshot.objects.all().delete()
                Event.objects.all().delete()
        finally:
            for sql in triggers.SQLITE:
                cursor.execute(sql)
