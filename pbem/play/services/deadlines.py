"""Deadlines: the time per turn and the clock that runs it.

Whenever whose turn it is changes (`deadline_on_event`), the game starts a clock for the prompted
roles: a *budget* of present time (`turn_hours`) counted from `deadline_started_at`. The clock
does not run while a user holding a prompted role is on a declared absence (services/absences.py),
so `deadline_at` is the moment the budget is used up, counting only time outside those absences
(arithmetic in pbem.play.clock).

At the deadline, `turn_resolve` (services/turns.py) applies the game's missed-turn policy; the
beat sweeps that find due games are in services/sweeps.py, pausing in services/pause.py.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.core.protocol import SYSTEM
from pbem.conf import pbem_settings
from pbem.play import hooks
from pbem.play.clock import clock_deadline, present_time
from pbem.play.errors import NOT_YOUR_SEAT, NotYourSeat, say
from pbem.play.models import Event, Game, MissedTurnPolicy, Seat
from pbem.play.services.absences import (
    BadDeadlineRequest,
    absent_for_roles,
    clock_for_roles,
)

logger = logging.getLogger(__name__)


def deadline_compute(*, game: Game, now: datetime) -> datetime | None:
    """`now` + turn_hours, extended by the declared absences of the users holding the prompted
    roles (`game.active_roles`); None when the game has no deadline (turn_hours 0, not active,
    nobody prompted)."""
    if game.turn_hours <= 0 or game.status != Game.Status.ACTIVE or not game.active_roles:
        return None
    return clock_for_roles(game, now, timedelta(hours=game.turn_hours), list(game.active_roles))


def clock_remaining(game: Game, now: datetime) -> timedelta | None:
    """Present time left on the running clock (None when no clock runs)."""
    if game.deadline_at is None:
        return None
    if game.deadline_started_at is None or game.deadline_budget_seconds is None:
        return max(game.deadline_at - now, timedelta(0))
    start = game.deadline_started_at
    absent = absent_for_roles(game, list(game.deadline_roles), start)
    used = present_time(start, now, absent)
    return max(timedelta(seconds=game.deadline_budget_seconds) - used, timedelta(0))


def clock_fields(
    game: Game, *, start: datetime, budget: timedelta, roles: Sequence[str]
) -> dict[str, object]:
    return {
        "deadline_at": clock_for_roles(game, start, budget, roles),
        "deadline_started_at": start,
        "deadline_budget_seconds": int(budget.total_seconds()),
        "deadline_roles": sorted(roles),
        "reminder_sent_for_seq": None,
    }


NO_CLOCK: dict[str, object] = {
    "deadline_at": None,
    "deadline_started_at": None,
    "deadline_budget_seconds": None,
    "deadline_roles": [],
}


# --- setting the deadline -----------------------------------------------------------------------


def deadline_on_event(*, game: Game, event: Event) -> datetime | None:
    """Set the deadline after `event` was appended (call it from `event_append`, inside or after
    its transaction; idempotent). A new clock starts when whose turn it is changes: the turn ended,
    the system acted, the prompted roles differ from the clock's, or no clock runs. A finished or
    paused game, or one without a time per turn, has no deadline. Returns the deadline."""
    row = Game.objects.filter(pk=game.pk).first()
    if row is None or row.head_seq != event.seq:
        return None  # a newer event has been appended; it sets its own deadline
    if row.deadline_set_at_seq == event.seq:
        return row.deadline_at  # done already (a second call does nothing)
    if not row.all_seats_accepted():
        return None  # not started: no clock until every seat is taken and accepted (games.py)
    roles = sorted(str(r) for r in row.active_roles or [])
    fields: dict[str, object]
    if row.status != Game.Status.ACTIVE or row.turn_hours <= 0 or not roles:
        fields = dict(NO_CLOCK)
    elif (
        event.turn_ended
        or event.role == SYSTEM
        or roles != sorted(row.deadline_roles or [])
        or row.deadline_at is None
    ):
        now = timezone.now()
        budget = timedelta(hours=row.turn_hours)
        fields = clock_fields(row, start=now, budget=budget, roles=roles)
    else:
        # the same players' turn goes on: the clock keeps running, and so does the reminder
        # already sent for it (else another side's secret event would cause a second one)
        if row.reminder_sent_for_seq is not None and row.reminder_sent_for_seq == event.seq - 1:
            Game.objects.filter(pk=row.pk, head_seq=event.seq).update(
                reminder_sent_for_seq=event.seq
            )
        return row.deadline_at
    fields["deadline_set_at_seq"] = event.seq
    Game.objects.filter(pk=row.pk, head_seq=event.seq).update(**fields)
    deadline = fields["deadline_at"]
    for name, value in fields.items():
        setattr(game, name, value)
    return deadline if isinstance(deadline, datetime) else None


def deadline_start(*, game: Game) -> datetime | None:
    """Start the clock for the current head (a new game, or a game without one). Idempotent."""
    event = Event.objects.filter(game=game, seq=game.head_seq).first()
    if event is None:
        return None
    game.refresh_from_db()
    if game.deadline_set_at_seq == event.seq:
        return game.deadline_at
    return deadline_on_event(game=game, event=event)


def change_grace() -> timedelta:
    """The least time a change of `turn_hours` leaves on a running clock (never a deadline in
    the past): `PBEM["DEADLINE_CHANGE_GRACE_MINUTES"]`, default 60."""
    return timedelta(minutes=int(pbem_settings.DEADLINE_CHANGE_GRACE_MINUTES))


def _clock_moved(game: Game, now: datetime, delta: timedelta) -> dict[str, object]:
    """The fields that move the running clock of `game` by `delta` of turn time: the turn's
    budget grows or shrinks by it, so the deadline becomes the turn's start + the new time per
    turn (plus the absences it spans), but never less than `change_grace()` from `now`. A paused
    game keeps its remaining time moved the same way. No clock, no change."""
    grace = change_grace()
    if game.status == Game.Status.PAUSED and game.paused_remaining_seconds is not None:
        left = max(timedelta(seconds=game.paused_remaining_seconds) + delta, grace)
        return {"paused_remaining_seconds": int(left.total_seconds())}
    if (
        game.status != Game.Status.ACTIVE
        or game.deadline_at is None
        or game.deadline_started_at is None
        or game.deadline_budget_seconds is None
    ):
        return {}
    start = game.deadline_started_at
    absent = absent_for_roles(game, list(game.deadline_roles or []), start)
    used = present_time(start, now, absent)
    budget = max(timedelta(seconds=game.deadline_budget_seconds) + delta, used + grace)
    budget = timedelta(seconds=int(budget.total_seconds()))
    return {
        "deadline_at": clock_deadline(start, budget, absent),
        "deadline_budget_seconds": int(budget.total_seconds()),
    }


def deadline_settings_set(
    *,
    game: Game,
    user: User,
    turn_hours: int | None = None,
    missed_turn_policy: str | None = None,
) -> Game:
    """The creator sets the time per turn (0 = none) and the missed-turn policy.

    A new time per turn applies to the running turn at once: its deadline moves to the turn's
    start + the new time per turn (the budget changes by the difference; absences still stop
    the clock), but never closer than `change_grace()` (default one hour) from now. 0 stops the
    running clock at once; from 0 to some hours a clock starts now for the prompted players (once
    the game has started). A paused game's remaining time moves the same way. When a value changed,
    `hooks.DEADLINE_CHANGED` is announced (notify tells the other seated players)."""
    if game.created_by_id != user.pk:
        raise NotYourSeat(gettext_lazy("only the game's creator changes its deadlines"))
    if turn_hours is not None and not 0 <= turn_hours <= 24 * 365:
        raise BadDeadlineRequest(gettext_lazy("turn_hours must be between 0 and 8760"))
    if missed_turn_policy is not None and missed_turn_policy not in MissedTurnPolicy.values:
        policies = sorted(MissedTurnPolicy.values)
        raise BadDeadlineRequest(
            say(gettext_lazy("missed_turn_policy must be one of {policies}"), policies=policies)
        )
    with transaction.atomic():
        row = Game.objects.select_for_update().get(pk=game.pk)
        fields: dict[str, object] = {}
        if turn_hours is not None and turn_hours != row.turn_hours:
            fields["turn_hours"] = turn_hours
            if turn_hours == 0:
                fields.update(NO_CLOCK)
            elif row.turn_hours > 0:
                delta = timedelta(hours=turn_hours - row.turn_hours)
                fields.update(_clock_moved(row, timezone.now(), delta))
        if missed_turn_policy is not None and missed_turn_policy != row.missed_turn_policy:
            fields["missed_turn_policy"] = missed_turn_policy
        if fields:
            Game.objects.filter(pk=row.pk).update(**fields)
    game.refresh_from_db()
    if (
        game.turn_hours > 0
        and game.deadline_at is None
        and game.status == Game.Status.ACTIVE
        and game.all_seats_accepted()
    ):
        Game.objects.filter(pk=game.pk).update(deadline_set_at_seq=None)
        deadline_start(game=game)
        game.refresh_from_db()
    if fields:
        hooks.announce(hooks.DEADLINE_CHANGED, game=game, changed_by=user.pk)
    return game


def seat_substitute_set(*, game: Game, user: User, role: str, substitute: User | None) -> Seat:
    """The holder of `role` names (or clears) the user who takes the seat over at a missed
    deadline when the game's policy is `substitute`."""
    seat = Seat.objects.filter(game=game, role=role, user=user).first()
    if seat is None:
        raise NotYourSeat(say(NOT_YOUR_SEAT, role=repr(role)))
    if substitute is not None:
        if substitute.pk == user.pk:
            raise BadDeadlineRequest(gettext_lazy("you cannot be your own substitute"))
        if Seat.objects.filter(game=game, user=substitute).exists():
            raise BadDeadlineRequest(
                gettext_lazy("the substitute already holds a seat in this game")
            )
    Seat.objects.filter(pk=seat.pk).update(substitute=substitute)
    seat.refresh_from_db()
    return seat
