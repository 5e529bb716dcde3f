"""A pause all seats agree to: it needs every seated player, stops the clock and keeps the time
that was left for the resume."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from pbem.play.errors import GameNotActive, NotYourSeat
from pbem.play.models import Game, PauseRequest
from pbem.play.services.absences import absence_declare
from pbem.play.services.deadlines import deadline_start
from pbem.play.services.orders import order_submit
from pbem.play.services.pause import (
    GameNotPaused,
    pause_request,
    pause_resume,
    pause_withdraw,
)
from tests.pbem.deadlines.dl_helpers import T0

H = timedelta(hours=1)


def test_a_pause_needs_every_seat(
    game: Game, u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 10 * H)
    assert pause_request(game=game, user=u1) is False
    assert pause_request(game=game, user=u1) is False  # asking twice is still one voice
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.deadline_at == T0 + 72 * H
    assert pause_request(game=game, user=u2) is True
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    assert game.deadline_at is None
    assert game.paused_remaining_seconds == int((62 * H).total_seconds())
    assert not PauseRequest.objects.filter(game=game).exists()


def test_a_withdrawn_request_does_not_count(game: Game, u1: User, u2: User) -> None:
    pause_request(game=game, user=u1)
    pause_withdraw(game=game, user=u1)
    assert pause_request(game=game, user=u2) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_only_seated_players_pause_or_resume(game: Game, u3: User) -> None:
    with pytest.raises(NotYourSeat):
        pause_request(game=game, user=u3)
    with pytest.raises(NotYourSeat):
        pause_resume(game=game, user=u3)


def test_resume_keeps_the_remaining_time(
    game: Game, u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 10 * H)
    pause_request(game=game, user=u1)
    pause_request(game=game, user=u2)
    clock.move_to(T0 + 10 * H + timedelta(days=5))
    game = pause_resume(game=game, user=u2)
    assert game.status == Game.Status.ACTIVE
    assert game.deadline_at == T0 + 10 * H + timedelta(days=5) + 62 * H
    assert game.paused_remaining_seconds is None
    with pytest.raises(GameNotPaused):
        pause_resume(game=game, user=u1)


def test_resume_counts_absences_only_once(
    game: Game, u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    absence_declare(user=u1, starts_on=date(2026, 3, 3), ends_on=date(2026, 3, 3), tz="UTC")
    deadline_start(game=game)
    game.refresh_from_db()
    assert game.deadline_at == T0 + 96 * H
    clock.move_to(T0 + 36 * H)  # 12 present hours, then 24 absent: 60 present hours left
    pause_request(game=game, user=u1)
    pause_request(game=game, user=u2)
    game.refresh_from_db()
    assert game.paused_remaining_seconds == int((60 * H).total_seconds())
    clock.move_to(T0 + 100 * H)
    game = pause_resume(game=game, user=u1)
    assert game.deadline_at == T0 + 160 * H


def test_no_orders_while_paused(game: Game, u1: User, u2: User) -> None:
    pause_request(game=game, user=u1)
    pause_request(game=game, user=u2)
    with pytest.raises(GameNotActive):
        order_submit(game=game, user=u1, role="allied", kind="end_turn", payload={}, source="api")
    with pytest.raises(GameNotActive):
        pause_request(game=game, user=u1)
