"""Helpers for the deadline tests: an NT game on the small board, random legal orders through
the real order path (order_submit, then the worker's half when it is still waiting)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.models import User

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from pbem.play.models import Game, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply, order_submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday, far from any DST change


def new_game(u1: User, u2: User) -> Game:
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": u1, "french": u2},
        creator=u1,
        accepted=True,
    )


def play_one(game: Game, seed: int = 11) -> None:
    """One random legal order by the first prompted role, through order_submit (+ the worker)."""
    ruleset = ruleset_get(game.ruleset_id)
    game.refresh_from_db()
    state = state_at(game, game.head_seq)
    role = sorted(ruleset.prompts(state))[0]
    seat = Seat.objects.select_related("user").get(game=game, role=role)
    assert seat.user is not None
    action = random_legal_action(ruleset, state, role, Rng(seed), tries=50)
    assert action is not None
    intake = order_submit(
        game=game,
        user=seat.user,
        role=role,
        kind=action.kind,
        payload=action.payload,
        source="api",
    )
    if intake.status == OrderIntake.Status.RECEIVED:
        order_apply(intake_id=intake.pk)
    game.refresh_from_db()


def play_setup(game: Game) -> None:
    """Both set-ups (a `.deadline` during set-up is refused by the engine, NT-19)."""
    for _ in range(2):
        play_one(game)
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    assert not any("setup" in kind for p in ruleset.prompts(state).values() for kind in p.kinds), (
        "set-up is not finished"
    )
