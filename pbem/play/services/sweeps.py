"""The beat sweeps: the database decides what is overdue, not the broker.

`deadlines_sweep` finds due games with one indexed query and enqueues `play.turn_resolve` for
each; `stuck_turns_sweep` re-enqueues intakes whose task was lost and asks a worker to perform the
system's step of a game the engine left waiting on it (`play.system_step`); `reminders_sweep`
records a "deadline soon" reminder once per head and sends `hooks.REMINDER_DUE`. A row that fails
is logged and skipped: a poison row never stops the others.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.core.protocol import SYSTEM
from pbem.conf import pbem_settings
from pbem.play import hooks
from pbem.play.enqueue import enqueue
from pbem.play.models import Game, OrderIntake

logger = logging.getLogger(__name__)

STUCK_AFTER = timedelta(minutes=5)


def _batch() -> int:
    return int(pbem_settings.SWEEP_BATCH)


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
    done = 0
    for game_id, head in games_due(now=now or timezone.now()):
        try:
            enqueue("play.turn_resolve", str(game_id), head)
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


def games_waiting_on_system(*, limit: int | None = None) -> list[tuple[UUID, int]]:
    """(game id, head seq) of active games whose head prompts the system role (a draw or dice
    roll the engine itself performs): no player acts there, so a worker must."""
    rows = (
        Game.objects.filter(status=Game.Status.ACTIVE, active_roles__icontains=SYSTEM)
        .order_by("updated_at")
        .values_list("pk", "head_seq", "active_roles")
    )
    return [(pk, seq) for pk, seq, roles in rows[: limit or _batch()] if SYSTEM in (roles or [])]


def stuck_turns_sweep(*, now: datetime | None = None) -> int:
    """Re-enqueue `play.order_apply` for stuck intakes (the task is idempotent), and enqueue
    `play.system_step(game, head)` for every game waiting on the system (idempotent too: the
    step is appended once per head). Returns the number enqueued."""
    done = 0
    for intake_id in intakes_stuck(now=now or timezone.now()):
        try:
            enqueue("play.order_apply", str(intake_id))
            done += 1
        except Exception:
            logger.exception("stuck sweep: intake %s failed; skipped", intake_id)
    for game_id, head in games_waiting_on_system():
        try:
            enqueue("play.system_step", str(game_id), head)
            done += 1
        except Exception:
            logger.exception("stuck sweep: system step of game %s failed; skipped", game_id)
    return done


def games_reminder_due(*, now: datetime) -> list[tuple[UUID, int, list[str]]]:
    """Active games whose deadline falls within REMINDER_HOURS and whose reminder for the current
    head has not been sent."""
    hours = int(pbem_settings.REMINDER_HOURS)
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
    """Record a reminder once per head (conditional update) and send `hooks.REMINDER_DUE` for the
    prompted roles in the same transaction (notify writes the reminders' outbox rows). Returns
    the count of reminders recorded."""
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
                hooks.send(hooks.REMINDER_DUE, game=Game.objects.get(pk=game_id), roles=roles)
            done += 1
        except Exception:
            logger.exception("reminders sweep: game %s failed; skipped", game_id)
    return done
