"""Deadlines (issue 5 item 5, architecture 8.6): time per turn, absences, pauses, reminders, sweeps.

The clock. Whenever whose turn it is changes (`deadline_on_event`), the game starts a clock for
the prompted roles: a *budget* of present time (`turn_hours`) counted from `deadline_started_at`.
The clock does not run while a user holding a prompted role is on a declared absence, so
`deadline_at` is the moment the budget is used up, counting only time outside those absences
(`clock_deadline`). All arithmetic is in aware UTC datetimes; an absence is whole local days in
the user's time zone, converted to UTC with zoneinfo (a local day is 23 or 25 hours long across a
daylight-saving change).

At the deadline, `turn_resolve` (services/turns.py) applies the game's missed-turn policy. The
database decides what is overdue, not the broker: `deadlines_sweep` finds due games with one
indexed query and enqueues `play.turn_resolve` for each; `stuck_turns_sweep` re-enqueues intakes
whose task was lost; `reminders_sweep` records and sends a "deadline soon" reminder once per head.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from uuid import UUID
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.core.protocol import SYSTEM
from pbem.play.errors import GameNotActive, NotYourSeat, ServiceError
from pbem.play.models import (
    Absence,
    Event,
    Game,
    MissedTurnPolicy,
    OrderIntake,
    PauseRequest,
    Seat,
)

logger = logging.getLogger(__name__)

Interval = tuple[datetime, datetime]
STUCK_AFTER = timedelta(minutes=5)
ABSENCE_FIRST_DAY = date(2000, 1, 1)
ABSENCE_LAST_DAY = date(2999, 12, 31)


class BadDeadlineRequest(ServiceError):
    status = 400
    code = "bad_deadline_request"


class AbsenceNotFound(ServiceError):
    status = 404
    code = "not_found"


class GameNotPaused(ServiceError):
    status = 409
    code = "game_not_paused"


# --- arithmetic ---------------------------------------------------------------------------------


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone `name`; BadDeadlineRequest (400) for an unknown or malformed name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise BadDeadlineRequest(f"unknown time zone {name!r}") from None


def local_days_utc(starts_on: date, ends_on: date, tz: str) -> Interval:
    """Whole local days `starts_on`..`ends_on` (inclusive) in zone `tz`, as a UTC interval
    [first local midnight, the local midnight after the last day)."""
    zone = zone_of(tz)
    start = datetime.combine(starts_on, time(0), tzinfo=zone).astimezone(UTC)
    end = datetime.combine(ends_on + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)
    return start, end


def absence_interval(absence: Absence) -> Interval:
    """The UTC interval of an absence, never earlier than its declaration (no retroactive time).
    A zone name that is not (or no longer) known counts as UTC: this never raises, because it
    runs inside `event_append`."""
    try:
        start, end = local_days_utc(absence.starts_on, absence.ends_on, absence.tz)
    except BadDeadlineRequest:
        logger.warning("absence %s: unknown time zone %r, counted as UTC", absence.pk, absence.tz)
        start, end = local_days_utc(absence.starts_on, absence.ends_on, "UTC")
    declared = absence.created_at.astimezone(UTC) if absence.created_at else start
    return max(start, declared), end


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, non-overlapping union of intervals (empty ones dropped)."""
    out: list[Interval] = []
    for a, b in sorted(i for i in intervals if i[1] > i[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def clock_deadline(start: datetime, budget: timedelta, absent: Sequence[Interval]) -> datetime:
    """The moment `budget` of present time has passed since `start`, the clock stopping during
    the (merged, sorted) `absent` intervals: each absence overlapping the running clock extends
    the deadline by the overlap, including absences the extension itself reaches."""
    remaining, t = budget, start
    for a, b in absent:
        if b <= t:
            continue
        if a > t:
            gap = a - t
            if gap >= remaining:
                return t + remaining
            remaining -= gap
        t = b
    return t + remaining


def present_time(start: datetime, end: datetime, absent: Sequence[Interval]) -> timedelta:
    """Time between `start` and `end` outside the `absent` intervals."""
    if end <= start:
        return timedelta(0)
    total = end - start
    for a, b in absent:
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            total -= hi - lo
    return total


# --- who is prompted, and their absences --------------------------------------------------------


def _prompted_user_ids(game: Game, roles: Sequence[str]) -> list[int]:
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


def clock_for_roles(
    game: Game, start: datetime, budget: timedelta, roles: Sequence[str]
) -> datetime:
    return clock_deadline(start, budget, absences_for(_prompted_user_ids(game, roles), start))


def deadline_compute(*, game: Game, now: datetime) -> datetime | None:
    """`now` + turn_hours, extended by the declared absences of the users holding the prompted
    roles (`game.active_roles`); None when the game has no deadline (turn_hours 0, not active,
    nobody prompted)."""
    if game.turn_hours <= 0 or game.status != Game.Status.ACTIVE or not game.active_roles:
        return None
    return clock_for_roles(game, now, timedelta(hours=game.turn_hours), list(game.active_roles))


def _remaining(game: Game, now: datetime) -> timedelta | None:
    """Present time left on the running clock (None when no clock runs)."""
    if game.deadline_at is None:
        return None
    if game.deadline_started_at is None or game.deadline_budget_seconds is None:
        return max(game.deadline_at - now, timedelta(0))
    start = game.deadline_started_at
    absent = absences_for(_prompted_user_ids(game, list(game.deadline_roles)), start)
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


_NO_CLOCK: dict[str, object] = {
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
        fields = dict(_NO_CLOCK)
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
    return timedelta(minutes=int(settings.PBEM.get("DEADLINE_CHANGE_GRACE_MINUTES", 60)))


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
    absent = absences_for(_prompted_user_ids(game, list(game.deadline_roles or [])), start)
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
    the game has started). A paused game's remaining time moves the same way. The seated players
    other than the creator are told (notification `deadline_changed`) when a value changed."""
    if game.created_by_id != user.pk:
        raise NotYourSeat("only the game's creator changes its deadlines")
    if turn_hours is not None and not 0 <= turn_hours <= 24 * 365:
        raise BadDeadlineRequest("turn_hours must be between 0 and 8760")
    if missed_turn_policy is not None and missed_turn_policy not in MissedTurnPolicy.values:
        raise BadDeadlineRequest(
            f"missed_turn_policy must be one of {sorted(MissedTurnPolicy.values)}"
        )
    with transaction.atomic():
        row = Game.objects.select_for_update().get(pk=game.pk)
        fields: dict[str, object] = {}
        if turn_hours is not None and turn_hours != row.turn_hours:
            fields["turn_hours"] = turn_hours
            if turn_hours == 0:
                fields.update(_NO_CLOCK)
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
        _notify_deadline_changed(game, user.pk)
    return game


def _notify_deadline_changed(game: Game, changed_by: int) -> None:
    """Tell the other seated players, when the notify app offers `notify_deadline_changed`; a
    failure is logged and never undoes the change."""
    if not apps.is_installed("pbem.notify"):
        return
    module = importlib.import_module("pbem.notify.services")
    notify = getattr(module, "notify_deadline_changed", None)
    if not callable(notify):
        return
    try:
        notify(game=game, changed_by=changed_by)
    except Exception:
        logger.exception("notify: deadline change of game %s not notified", game.pk)


def seat_substitute_set(*, game: Game, user: User, role: str, substitute: User | None) -> Seat:
    """The holder of `role` names (or clears) the user who takes the seat over at a missed
    deadline when the game's policy is `substitute`."""
    seat = Seat.objects.filter(game=game, role=role, user=user).first()
    if seat is None:
        raise NotYourSeat(f"you do not hold the seat {role!r} in this game")
    if substitute is not None:
        if substitute.pk == user.pk:
            raise BadDeadlineRequest("you cannot be your own substitute")
        if Seat.objects.filter(game=game, user=substitute).exists():
            raise BadDeadlineRequest("the substitute already holds a seat in this game")
    Seat.objects.filter(pk=seat.pk).update(substitute=substitute)
    seat.refresh_from_db()
    return seat


# --- absences -----------------------------------------------------------------------------------


def absence_declare(*, user: User, starts_on: date, ends_on: date, tz: str) -> Absence:
    """Declare an absence in advance: whole local days in zone `tz`. While it lasts, the deadline
    clocks of the user's turns stop; running clocks are extended at once. Time before the
    declaration never counts as absent."""
    zone = zone_of(tz)
    if ends_on < starts_on:
        raise BadDeadlineRequest("an absence ends on or after the day it starts")
    if starts_on < ABSENCE_FIRST_DAY or ends_on > ABSENCE_LAST_DAY:
        # far dates overflow the clock arithmetic (datetime's year 1..9999)
        raise BadDeadlineRequest(
            f"an absence lies between {ABSENCE_FIRST_DAY} and {ABSENCE_LAST_DAY}"
        )
    today = timezone.now().astimezone(zone).date()
    if ends_on < today:
        raise BadDeadlineRequest("an absence is declared in advance; this one is over")
    with transaction.atomic():  # a failing recompute must not leave the absence stored
        absence = Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on, tz=tz)
        _recompute_for_user(user.pk)
    return absence


def absence_cancel(*, user: User, absence_id: int) -> None:
    """Withdraw one of your absences; running clocks are recomputed."""
    deleted, _ = Absence.objects.filter(pk=absence_id, user=user).delete()
    if not deleted:
        raise AbsenceNotFound("no such absence of yours")
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
        if user_id not in _prompted_user_ids(game, roles) or game.deadline_budget_seconds is None:
            continue
        assert game.deadline_started_at is not None
        budget = timedelta(seconds=game.deadline_budget_seconds)
        deadline = clock_for_roles(game, game.deadline_started_at, budget, roles)
        Game.objects.filter(
            pk=game.pk, head_seq=game.head_seq, deadline_started_at=game.deadline_started_at
        ).update(deadline_at=deadline)


# --- pause --------------------------------------------------------------------------------------


def _seated_user_ids(game: Game) -> set[int]:
    return {
        uid
        for uid in Seat.objects.filter(game=game, user__isnull=False).values_list(
            "user_id", flat=True
        )
        if uid is not None
    }


def pause_request(*, game: Game, user: User) -> bool:
    """Ask to pause the game. When every seated user has asked, the game is paused: its clock
    stops and the present time left is kept. Returns True when the game is now paused."""
    seated = _seated_user_ids(game)
    if user.pk not in seated:
        raise NotYourSeat("only a seated player can ask for a pause")
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(f"the game is {game.status}")
    try:
        with transaction.atomic():
            PauseRequest.objects.get_or_create(game=game, user=user)
    except IntegrityError:
        pass  # the same user asked twice at once: one request
    agreed = set(PauseRequest.objects.filter(game=game).values_list("user_id", flat=True))
    if not seated <= agreed:
        return False
    now = timezone.now()
    left = _remaining(game, now)
    with transaction.atomic():
        paused = Game.objects.filter(
            pk=game.pk, status=Game.Status.ACTIVE, head_seq=game.head_seq
        ).update(
            status=Game.Status.PAUSED,
            paused_at=now,
            paused_remaining_seconds=None if left is None else int(left.total_seconds()),
            deadline_at=None,
        )
        if paused == 1:
            PauseRequest.objects.filter(game=game).delete()
    game.refresh_from_db()
    return game.status == Game.Status.PAUSED


def pause_withdraw(*, game: Game, user: User) -> None:
    """Withdraw your request to pause (before everyone has agreed)."""
    PauseRequest.objects.filter(game=game, user=user).delete()


def pause_resume(*, game: Game, user: User) -> Game:
    """Any seated player resumes a paused game; the clock restarts with the time that was left."""
    if user.pk not in _seated_user_ids(game):
        raise NotYourSeat("only a seated player can resume the game")
    game.refresh_from_db()
    if game.status != Game.Status.PAUSED:
        raise GameNotPaused(f"the game is {game.status}, not paused")
    now = timezone.now()
    roles = sorted(str(r) for r in game.active_roles or [])
    fields: dict[str, object] = {
        "status": Game.Status.ACTIVE,
        "paused_at": None,
        "paused_remaining_seconds": None,
    }
    if game.turn_hours > 0 and roles and game.all_seats_accepted():
        left = game.paused_remaining_seconds
        budget = timedelta(hours=game.turn_hours) if left is None else timedelta(seconds=left)
        fields.update(clock_fields(game, start=now, budget=budget, roles=roles))
    else:
        fields.update(_NO_CLOCK)
    Game.objects.filter(pk=game.pk, status=Game.Status.PAUSED).update(**fields)
    game.refresh_from_db()
    return game


# --- sweeps -------------------------------------------------------------------------------------


def _batch() -> int:
    return int(settings.PBEM.get("SWEEP_BATCH", 500))


def games_due(*, now: datetime, limit: int | None = None) -> list[tuple[UUID, int]]:
    """(game id, head seq) of active games whose deadline has passed: ONE query on the
    `deadline_at` index, so its cost grows with the due games, not with all games."""
    rows = (
        Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now)
        .order_by("deadline_at")
        .values_list("pk", "head_seq")
    )
    return list(rows[: limit or _batch()])


def deadlines_sweep(*, now: datetime | None = None) -> int:
    """Enqueue `play.turn_resolve(game, head)` for every due game; a game whose resolution fails
    is logged and skipped (a poison row never stops the others). Returns the number enqueued."""
    from pbem.play.tasks import turn_resolve_task

    done = 0
    for game_id, head in games_due(now=now or timezone.now()):
        try:
            turn_resolve_task.delay(str(game_id), head)
            done += 1
        except Exception:
            logger.exception("deadlines sweep: game %s at %s failed; skipped", game_id, head)
    return done


def intakes_stuck(*, now: datetime, limit: int | None = None) -> list[UUID]:
    """Intakes still `received` 5 minutes after submission (their task was lost), oldest first;
    paused games wait for their resume."""
    rows = (
        OrderIntake.objects.filter(
            status=OrderIntake.Status.RECEIVED, created_at__lt=now - STUCK_AFTER
        )
        .exclude(game__status=Game.Status.PAUSED)
        .order_by("created_at")
        .values_list("pk", flat=True)
    )
    return list(rows[: limit or _batch()])


def stuck_turns_sweep(*, now: datetime | None = None) -> int:
    """Re-enqueue `play.order_apply` for stuck intakes (the task is idempotent). A game that
    waits only for the system cannot occur in Napoleon's Triumph, so nothing else is resolved."""
    from pbem.play.tasks import order_apply_task

    done = 0
    for intake_id in intakes_stuck(now=now or timezone.now()):
        try:
            order_apply_task.delay(str(intake_id))
            done += 1
        except Exception:
            logger.exception("stuck sweep: intake %s failed; skipped", intake_id)
    return done


def games_reminder_due(*, now: datetime) -> list[tuple[UUID, int, list[str]]]:
    """Active games whose deadline falls within REMINDER_HOURS and whose reminder for the current
    head has not been sent."""
    hours = int(settings.PBEM.get("REMINDER_HOURS", 12))
    rows = (
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            deadline_at__gt=now,
            deadline_at__lte=now + timedelta(hours=hours),
        )
        .exclude(reminder_sent_for_seq=F("head_seq"))
        .order_by("deadline_at")
        .values_list("pk", "head_seq", "active_roles")
    )
    return [(pk, seq, [str(r) for r in roles or []]) for pk, seq, roles in rows[: _batch()]]


def reminders_sweep(*, now: datetime | None = None) -> int:
    """Record a reminder once per head (conditional update) and, when the notify app offers
    `notify_deadline_soon`, notify the prompted roles in the same transaction. Returns the count
    of reminders recorded."""
    done = 0
    for game_id, seq, roles in games_reminder_due(now=now or timezone.now()):
        try:
            with transaction.atomic():
                claimed = (
                    Game.objects.filter(pk=game_id, head_seq=seq)
                    .exclude(reminder_sent_for_seq=seq)
                    .update(reminder_sent_for_seq=seq)
                )
                if claimed != 1:
                    continue
                _notify_deadline_soon(game_id, roles)
            done += 1
        except Exception:
            logger.exception("reminders sweep: game %s failed; skipped", game_id)
    return done


def _notify_deadline_soon(game_id: UUID, roles: list[str]) -> None:
    if not apps.is_installed("pbem.notify"):
        return
    module = importlib.import_module("pbem.notify.services")
    notify = getattr(module, "notify_deadline_soon", None)
    if callable(notify):
        notify(game=Game.objects.get(pk=game_id), roles=roles)
