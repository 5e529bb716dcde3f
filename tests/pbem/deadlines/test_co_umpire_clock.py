"""The umpire's clock with several umpires (issue 17): every umpire is told when the rules wait
for the umpire and finds the game in their queue; any one of them may answer; the umpire's
clock stops only while every umpire is away (one covers for another), where a player's clock
stops while its player is away."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from games.core.umpire import UMPIRE
from pbem.notify.models import Notification
from pbem.play.models import Game, OrderIntake
from pbem.play.selectors import umpire_queue
from pbem.play.services.absences import absence_declare
from pbem.play.services.deadlines import deadline_start
from pbem.play.services.games import game_create
from pbem.play.services.orders import order_apply, order_submit
from tests.pbem.deadlines.dl_helpers import play_one

H = timedelta(hours=1)


@pytest.fixture
def chief(db: None) -> User:
    return User.objects.create_user("co_chief", "chief@example.com")


@pytest.fixture
def deputy(db: None) -> User:
    return User.objects.create_user("co_deputy", "deputy@example.com")


@pytest.fixture
def umpired(
    u1: User, u2: User, chief: User, deputy: User, clock: time_machine.Coordinates
) -> Game:
    """A V&F starter game with two umpires, played until the engine waits for the umpire."""
    game = game_create(
        ruleset_id="valour_fortitude",
        scenario="starter",
        options={"turn_limit": 2},
        seats={"A": u1, "B": u2, UMPIRE: chief},
        creator=u1,
        accepted=True,
        co_umpires=[deputy],
    )
    for seed in range(60):
        game.refresh_from_db()
        if game.active_roles == [UMPIRE]:
            return game
        play_one(game, seed=seed)
    raise AssertionError("the umpire was never prompted")


def test_both_umpires_are_told_and_either_answers(
    umpired: Game, chief: User, deputy: User
) -> None:
    for umpire in (chief, deputy):
        assert umpired in umpire_queue(umpire)
        told = Notification.objects.filter(user=umpire, game=umpired, kind="your_turn")
        assert told.exists(), umpire.username
    head = umpired.head_seq
    intake = order_submit(
        game=umpired, user=deputy, role=UMPIRE, kind="confirm", payload={}, source="api"
    )
    if intake.status == OrderIntake.Status.RECEIVED:
        order_apply(intake_id=intake.pk)
    umpired.refresh_from_db()
    assert umpired.head_seq > head


def test_the_umpires_clock_stops_only_while_every_umpire_is_away(
    umpired: Game, chief: User, deputy: User
) -> None:
    deadline_start(game=umpired)
    umpired.refresh_from_db()
    before = umpired.deadline_at
    assert before is not None
    # the chief is away on the 3rd and 4th: the deputy is there, the clock runs on
    absence_declare(user=chief, starts_on=date(2026, 3, 3), ends_on=date(2026, 3, 4), tz="UTC")
    umpired.refresh_from_db()
    assert umpired.deadline_at == before
    # the deputy is away on the 4th and 5th: both are away on the 4th only
    absence_declare(user=deputy, starts_on=date(2026, 3, 4), ends_on=date(2026, 3, 5), tz="UTC")
    umpired.refresh_from_db()
    assert umpired.deadline_at == before + 24 * H
