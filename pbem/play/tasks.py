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
