"""Absences: whole local days, declared in advance, during which a player's deadline clocks stop.

The clock of a turn (`clock_for_roles`) is the turn's budget of present time counted from its
start, the clock standing still while a user holding a prompted role is absent (arithmetic in
pbem.play.clock). Declaring or withdrawing an absence recomputes the running clocks at once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from functools import reduce
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.core.umpire import UMPIRE
from pbem.play import clock
from pbem.play.clock import Interval, clock_deadline, intersect, merge
from pbem.play.errors import ServiceError, say
from pbem.play.models import Absence, Game, Seat

logger = logging.getLogger(__name__)

ABSENCE_FIRST_DAY = date(2000, 1, 1)
ABSENCE_LAST_DAY = date(2999, 12, 31)


class BadDeadlineRequest(ServiceError):
    status = 400
    code = "bad_deadline_request"


class AbsenceNotFound(ServiceError):
    status = 404
    code = "not_found"


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone `name`; BadDeadlineRequest (400) for an unknown or malformed name."""
    try:
        return clock.zone_of(name)
    except clock.UnknownTimeZone:  # pbem.play.clock words it so, in English
        unknown = gettext_lazy("unknown time zone {zone}")
        raise BadDeadlineRequest(say(unknown, zone=repr(name))) from None


def absence_interval(absence: Absence) -> Interval:
    """The UTC interval of an absence, never earlier than its declaration (no retroactive time).
    A zone name that is not (or no longer) known counts as UTC: this never raises, because it
    runs inside `event_append`."""
    try:
        start, end = clock.local_days_utc(absence.starts_on, absence.ends_on, absence.tz)
    except clock.UnknownTimeZone:
        logger.warning("absence %s: unknown time zone %r, counted as UTC", absence.pk, absence.tz)
        start, end = clock.local_days_utc(absence.starts_on, absence.ends_on, "UTC")
    declared = absence.created_at.astimezone(UTC) if absence.created_at else start
    return max(start, declared), end


def prompted_user_ids(game: Game, roles: Sequence[str]) -> list[int]:
    """The users seated in `roles` of `game`."""
    return [
        uid
        for uid in Seat.objects.filter(
            game=game, role__in=list(roles), user__isnull=False
        ).values_list("user_id", flat=True)
        if uid is not None
    ]


def absences_for(user_ids: Sequence[int], since: datetime) -> list[Interval]:
    """Merged UTC intervals of the users' absences that end after `since`."""
    if not user_ids:
        return []
    rows = Absence.objects.filter(
        user_id__in=list(user_ids), ends_on__gte=since.date() - timedelta(1)
    )
    return merge(i for i in (absence_interval(a) for a in rows) if i[1] > since)


def absent_for_roles(game: Game, roles: Sequence[str], since: datetime) -> list[Interval]:
    """When the clock of `roles` stops: while any player holding one of them is away, and, for
    the umpire's role, only while every umpire of the game is away (a game may have several
    umpires, issue 17: one covers for another)."""
    seats = Seat.objects.filter(game=game, role__in=list(roles), user__isnull=False)
    players: set[int] = set()
    umpires: set[int] = set()
    for role, uid in seats.values_list("role", "user_id"):
        (umpires if role == UMPIRE else players).add(uid)
    absent = absences_for(sorted(players), since)
    if umpires:
        each = [absences_for([uid], since) for uid in sorted(umpires)]
        together = reduce(intersect, each[1:], each[0])
        absent = merge([*absent, *together])
    return absent


def clock_for_roles(
    game: Game, start: datetime, budget: timedelta, roles: Sequence[str]
) -> datetime:
    """The deadline of a clock of `budget` started at `start` for the users holding `roles`."""
    return clock_deadline(start, budget, absent_for_roles(game, roles, start))


def absence_declare(*, user: User, starts_on: date, ends_on: date, tz: str) -> Absence:
    """Declare an absence in advance: whole local days in zone `tz`. While it lasts, the deadline
    clocks of the user's turns stop; running clocks are extended at once. Time before the
    declaration never counts as absent."""
    zone = zone_of(tz)
    if ends_on < starts_on:
        raise BadDeadlineRequest(gettext_lazy("an absence ends on or after the day it starts"))
    if starts_on < ABSENCE_FIRST_DAY or ends_on > ABSENCE_LAST_DAY:
        # far dates overflow the clock arithmetic (datetime's year 1..9999)
        between = gettext_lazy("an absence lies between {first} and {last}")
        raise BadDeadlineRequest(say(between, first=ABSENCE_FIRST_DAY, last=ABSENCE_LAST_DAY))
    today = timezone.now().astimezone(zone).date()
    if ends_on < today:
        raise BadDeadlineRequest(
            gettext_lazy("an absence is declared in advance; this one is over")
        )
    with transaction.atomic():  # a failing recompute must not leave the absence stored
        absence = Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on, tz=tz)
        _recompute_for_user(user.pk)
    return absence


def absence_cancel(*, user: User, absence_id: int) -> None:
    """Withdraw one of your absences; running clocks are recomputed."""
    deleted, _ = Absence.objects.filter(pk=absence_id, user=user).delete()
    if not deleted:
        raise AbsenceNotFound(gettext_lazy("no such absence of yours"))
    _recompute_for_user(user.pk)


def _recompute_for_user(user_id: int) -> None:
    """Recompute the running clocks of the active games where `user_id` is prompted."""
    games = Game.objects.filter(
        status=Game.Status.ACTIVE,
        deadline_at__isnull=False,
        deadline_started_at__isnull=False,
        seats__user_id=user_id,
    ).distinct()
    for game in games:
        roles = list(game.deadline_roles or [])
        if user_id not in prompted_user_ids(game, roles) or game.deadline_budget_seconds is None:
            continue
        assert game.deadline_started_at is not None
        budget = timedelta(seconds=game.deadline_budget_seconds)
        deadline = clock_for_roles(game, game.deadline_started_at, budget, roles)
        Game.objects.filter(
            pk=game.pk, head_seq=game.head_seq, deadline_started_at=game.deadline_started_at
        ).update(deadline_at=deadline)
