"""Thin Celery tasks: fetch by id, call a service (architecture 8.6). Unknown kwargs are
tolerated so web and workers of different versions can run side by side. A database error (the
database restarting: `OperationalError`, or `InterfaceError` for a connection it closed) is
retried with backoff; every task is idempotent."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)
DB_ERRORS = (OperationalError, InterfaceError)


@shared_task(
    name="play.order_apply",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def order_apply_task(intake_id: str, **extra: Any) -> None:
    if extra:
        logger.warning("order_apply got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.orders import order_apply

    order_apply(intake_id=intake_id)


# --- deadlines: beat runs the sweeps (settings.CELERY_BEAT_SCHEDULE) ---------------------------


@shared_task(
    name="play.turn_resolve",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def turn_resolve_task(game_id: str, after_seq: int, **extra: Any) -> None:
    if extra:
        logger.warning("turn_resolve got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.turns import turn_resolve

    turn_resolve(game_id=game_id, after_seq=int(after_seq))


@shared_task(name="play.deadlines_sweep", acks_late=True, autoretry_for=DB_ERRORS)
def deadlines_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("deadlines_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import deadlines_sweep

    return deadlines_sweep()


@shared_task(name="play.reminders_sweep", acks_late=True, autoretry_for=DB_ERRORS)
def reminders_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("reminders_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import reminders_sweep

    return reminders_sweep()


@shared_task(name="play.stuck_turns_sweep", acks_late=True, autoretry_for=DB_ERRORS)
def stuck_turns_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("stuck_turns_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import stuck_turns_sweep

    return stuck_turns_sweep()


@shared_task(
    name="play.system_step",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def system_step_task(game_id: str, after_seq: int, **extra: Any) -> None:
    if extra:
        logger.warning("system_step got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.system_steps import system_step_apply

    system_step_apply(game_id=game_id, after_seq=int(after_seq))


# --- recovery: accepted orders no worker took (pbem.play.services.recovery) ----------------------


@shared_task(
    name="play.intakes_recover",
    acks_late=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def intakes_recover_task(
    min_age_seconds: float = 0, resend_gap_seconds: float | None = None, **extra: Any
) -> int:
    if extra:
        logger.warning("intakes_recover got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.recovery import RESEND_GAP_SECONDS, intakes_recover

    if resend_gap_seconds is None:  # beat's runs (an age) space resends; a reconnection's not
        resend_gap_seconds = RESEND_GAP_SECONDS if min_age_seconds else 0
    return intakes_recover(
        min_age_seconds=float(min_age_seconds), resend_gap_seconds=float(resend_gap_seconds)
    )


@shared_task(
    name="play.game_intakes_apply",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def game_intakes_apply_task(game_id: str, **extra: Any) -> int:
    if extra:
        logger.warning("game_intakes_apply got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.recovery import game_intakes_apply

    return game_intakes_apply(game_id=game_id)
