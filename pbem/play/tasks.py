"""Thin Celery tasks: fetch by id, call a service (architecture 8.6). Unknown kwargs are
tolerated so web and workers of different versions can run side by side."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)


@shared_task(
    name="play.order_apply",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
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
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def turn_resolve_task(game_id: str, after_seq: int, **extra: Any) -> None:
    if extra:
        logger.warning("turn_resolve got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.turns import turn_resolve

    turn_resolve(game_id=game_id, after_seq=int(after_seq))


@shared_task(name="play.deadlines_sweep", acks_late=True, autoretry_for=(OperationalError,))
def deadlines_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("deadlines_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import deadlines_sweep

    return deadlines_sweep()


@shared_task(name="play.reminders_sweep", acks_late=True, autoretry_for=(OperationalError,))
def reminders_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("reminders_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import reminders_sweep

    return reminders_sweep()


@shared_task(name="play.stuck_turns_sweep", acks_late=True, autoretry_for=(OperationalError,))
def stuck_turns_sweep_task(**extra: Any) -> int:
    if extra:
        logger.warning("stuck_turns_sweep got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.sweeps import stuck_turns_sweep

    return stuck_turns_sweep()


@shared_task(
    name="play.system_step",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def system_step_task(game_id: str, after_seq: int, **extra: Any) -> None:
    if extra:
        logger.warning("system_step got unexpected kwargs %s", sorted(extra))
    from pbem.play.services.system_steps import system_step_apply

    system_step_apply(game_id=game_id, after_seq=int(after_seq))
