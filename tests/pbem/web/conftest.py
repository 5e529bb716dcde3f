"""Fixtures for the pages: players with passwords, logged-in test clients, a small Napoleon's
Triumph game, and a helper that plays random legal orders through the real order path."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply, order_submit

SMALL = {"board": "austerlitz"}


@pytest.fixture(autouse=True)
def _commit_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """on_commit callbacks run at once (tests never commit): eager Celery applies orders."""

    def run_now(func: Callable[[], object], using: str | None = None, robust: bool = False) -> None:
        func()

    monkeypatch.setattr(transaction, "on_commit", run_now)


def make_user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", f"pw-{name}-long-enough")


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def mallory(db: None) -> User:
    return make_user("mallory")


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice_client(alice: User) -> Client:
    return client_of(alice)


@pytest.fixture
def bob_client(bob: User) -> Client:
    return client_of(bob)


@pytest.fixture
def mallory_client(mallory: User) -> Client:
    return client_of(mallory)


def new_game(allied: User | None, french: User | None, **extra: object) -> Game:
    creator = allied or french
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options=SMALL,
        seats={"allied": allied, "french": french},
        creator=creator,
        title=str(extra.pop("title", "test")),
        accepted=True,
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    """alice plays the Allies, bob the French; the Allies set up first."""
    return new_game(alice, bob)


def play_random(game: Game, actions: int, seed: int = 7) -> list[Event]:
    """`actions` random legal orders, each through the order path (source "web")."""
    ruleset = ruleset_get(game.ruleset_id)
    rng = Rng(seed)
    holders = {s.role: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    events: list[Event] = []
    while len(events) < actions:
        game.refresh_from_db()
        state = state_at(game, game.head_seq)
        prompts = ruleset.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[0]
        user = holders[role]
        assert user is not None
        action = random_legal_action(ruleset, state, role, rng)
        assert action is not None
        intake = order_submit(
            game=game, user=user, role=role, kind=action.kind, payload=action.payload, source="web"
        )
        if intake.status == OrderIntake.Status.RECEIVED:
            order_apply(intake_id=intake.pk)
            intake.refresh_from_db()
        assert intake.status == OrderIntake.Status.APPLIED, intake.errors
        assert intake.event is not None
        events.append(intake.event)
    game.refresh_from_db()
    return events
