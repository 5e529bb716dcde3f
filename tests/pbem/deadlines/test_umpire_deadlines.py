"""Deadlines for the umpire seat (issue 17: "umpire deadlines and absences work like players'"):
a Valour & Fortitude game whose engine waits for `@umpire` to rule on proposed facts. When the
umpire's deadline passes, the engine's default applies exactly once (the proposals stand, V-14)
and the game goes on; with the substitute policy the umpire's substitute takes the seat over and
rules in their place; the umpire's declared absence stops the umpire's clock. The clock runs
for the umpire's seat exactly as for a player's."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from games.core.umpire import UMPIRE
from pbem.play.errors import NotYourSeat
from pbem.play.models import Event, Game, MissedTurnPolicy, OrderIntake, Seat
from pbem.play.services.absences import absence_declare
from pbem.play.services.deadlines import deadline_start, seat_substitute_set
from pbem.play.services.games import game_create
from pbem.play.services.orders import order_submit
from pbem.play.services.turns import turn_resolve
from tests.pbem.deadlines.dl_helpers import T0, play_one

H = timedelta(hours=1)


@pytest.fixture
def umpire(db: None) -> User:
    return User.objects.create_user("dl_umpire", "umpire@example.com")


@pytest.fixture
def umpired(u1: User, u2: User, umpire: User, clock: time_machine.Coordinates) -> Game:
    """A V&F starter game, played until the engine waits for the umpire's ruling."""
    game = game_create(
        ruleset_id="valour_fortitude",
        scenario="starter",
        options={"turn_limit": 2},
        seats={"A": u1, "B": u2, UMPIRE: umpire},
        creator=u1,
        accepted=True,
    )
    for seed in range(60):
        game.refresh_from_db()
        if game.active_roles == [UMPIRE]:
            return game
        play_one(game, seed=seed)
    raise AssertionError("the umpire was never prompted")


def test_a_missed_umpire_deadline_lets_the_proposals_stand_once(
    umpired: Game, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=umpired)
    umpired.refresh_from_db()
    assert umpired.deadline_roles == [UMPIRE]  # the umpire's own clock
    head = umpired.head_seq
    clock.move_to(T0 + 72 * H)
    event = turn_resolve(game_id=umpired.pk, after_seq=head)
    assert event is not None
    assert (event.seq, event.kind, event.role) == (head + 1, ".deadline", "@system")
    assert turn_resolve(game_id=umpired.pk, after_seq=head) is None  # a duplicate message
    assert Event.objects.filter(game=umpired, kind=".deadline").count() == 1
    umpired.refresh_from_db()
    assert umpired.head_seq == head + 1  # the step was resolved on the proposals; play goes on


def test_the_umpires_substitute_takes_the_seat_over_and_rules(
    umpired: Game, umpire: User, clock: time_machine.Coordinates
) -> None:
    deputy = User.objects.create_user("dl_deputy", "deputy@example.com")
    Game.objects.filter(pk=umpired.pk).update(missed_turn_policy=MissedTurnPolicy.SUBSTITUTE)
    seat_substitute_set(game=umpired, user=umpire, role=UMPIRE, substitute=deputy)
    deadline_start(game=umpired)
    head = umpired.head_seq
    clock.move_to(T0 + 75 * H)
    assert turn_resolve(game_id=umpired.pk, after_seq=head) is None  # no default: a new umpire
    seat = Seat.objects.get(game=umpired, role=UMPIRE)
    assert seat.user == deputy
    assert Event.objects.filter(game=umpired, kind=".deadline").count() == 0
    intake = order_submit(
        game=umpired, user=deputy, role=UMPIRE, kind="confirm", payload={}, source="api"
    )
    assert intake.status in (OrderIntake.Status.RECEIVED, OrderIntake.Status.APPLIED)
    with pytest.raises(NotYourSeat):
        order_submit(
            game=umpired, user=umpire, role=UMPIRE, kind="confirm", payload={}, source="api"
        )


def test_the_umpires_absence_stops_the_umpires_clock(
    umpired: Game, umpire: User, u1: User, clock: time_machine.Coordinates
) -> None:
    """A day of absence declared by the umpire while the rules wait for them extends the running
    deadline by that day; a player's absence changes nothing while it is not their turn."""
    deadline_start(game=umpired)
    umpired.refresh_from_db()
    before = umpired.deadline_at
    assert before is not None
    absence_declare(user=u1, starts_on=date(2026, 3, 3), ends_on=date(2026, 3, 3), tz="UTC")
    umpired.refresh_from_db()
    assert umpired.deadline_at == before
    absence_declare(user=umpire, starts_on=date(2026, 3, 3), ends_on=date(2026, 3, 3), tz="UTC")
    umpired.refresh_from_db()
    assert umpired.deadline_at == before + 24 * H
