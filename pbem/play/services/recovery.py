"""Accepted orders that no worker took, found in the database and applied in the order received.

An accepted order is committed (its intake, `received`) before its message is sent, so a broker
outage can lose the message but never the order. `intakes_recover` finds the intakes still
`received` (older than `min_age_seconds`, not resent within `resend_gap_seconds`), marks them
`resent_at` and enqueues one `play.game_intakes_apply` per game; `game_intakes_apply` applies that
game's waiting intakes oldest first, so orders of one game are tried in the order they were
accepted. Both are idempotent: an intake applied meanwhile by its own message is skipped.

Who asks for it: the Celery worker each time it (re)connects to the broker (pbem.worker), a web
process's publisher when the broker it found down answers again (pbem.play.publisher), both with
no age and no gap; and beat every RECOVER_SECONDS for intakes waiting over RECOVER_AFTER_SECONDS.
The 5-minute stuck-turns sweep (pbem.play.services.sweeps) stays the last resort.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.db.models import Q
from django.utils import timezone

from pbem.conf import pbem_settings
from pbem.play.enqueue import enqueue
from pbem.play.models import Game, OrderIntake
from pbem.play.services.orders import order_apply

logger = logging.getLogger(__name__)

RESEND_GAP_SECONDS = 60  # beat resends a waiting intake at most this often


def intakes_waiting(
    *, now: datetime, min_age_seconds: float, resend_gap_seconds: float
) -> list[tuple[UUID, UUID]]:
    """(intake, game) of intakes still `received`, oldest first, on the status index."""
    rows = (
        OrderIntake.objects.filter(
            status=OrderIntake.Status.RECEIVED,
            created_at__lte=now - timedelta(seconds=min_age_seconds),
        )
        .filter(
            Q(resent_at__isnull=True)
            | Q(resent_at__lte=now - timedelta(seconds=resend_gap_seconds))
        )
        .exclude(game__status=Game.Status.PAUSED)
        .order_by("created_at")
        .values_list("pk", "game_id")
    )
    return list(rows[: int(pbem_settings.SWEEP_BATCH)])


def intakes_recover(
    *,
    min_age_seconds: float = 0,
    resend_gap_seconds: float = 0,
    now: datetime | None = None,
) -> int:
    """Enqueue `play.game_intakes_apply` for each game with waiting intakes (see the module's
    text); returns the number of games. An enqueue that fails is logged and left to the next run."""
    now = now or timezone.now()
    waiting = intakes_waiting(
        now=now, min_age_seconds=min_age_seconds, resend_gap_seconds=resend_gap_seconds
    )
    games = list(dict.fromkeys(game for _, game in waiting))  # in the order of their oldest
    OrderIntake.objects.filter(pk__in=[pk for pk, _ in waiting]).update(resent_at=now)
    sent = 0
    for game_id in games:
        try:
            enqueue("play.game_intakes_apply", str(game_id))
            sent += 1
        except Exception:
            logger.exception("recover: game %s not enqueued; the next run retries", game_id)
    if waiting:
        logger.info("recover: %d waiting intakes in %d games sent again", len(waiting), sent)
    return sent


def game_intakes_apply(*, game_id: UUID | str) -> int:
    """Apply the game's `received` intakes oldest first; stop at one the game left waiting (a
    paused or busy game), so none is applied before an older one. Returns how many were
    decided (applied or rejected)."""
    decided = 0
    waiting = (
        OrderIntake.objects.filter(game_id=game_id, status=OrderIntake.Status.RECEIVED)
        .order_by("created_at")
        .values_list("pk", flat=True)
    )
    for intake_id in list(waiting):
        order_apply(intake_id=intake_id)
        status = OrderIntake.objects.filter(pk=intake_id).values_list("status", flat=True).first()
        if status == OrderIntake.Status.RECEIVED:
            break  # left waiting: the older order goes first, next time
        decided += 1
    return decided
