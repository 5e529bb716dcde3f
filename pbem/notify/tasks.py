"""Thin Celery tasks on the `mail` queue (route `notify.*`): fetch by id, call a service.
Unknown kwargs are tolerated so web and workers of different versions can run side by side."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)
DB_ERRORS = (OperationalError, InterfaceError)  # the database restarting: retried


def _extra(name: str, extra: dict[str, Any]) -> None:
    if extra:
        logger.warning("%s got unexpected kwargs %s", name, sorted(extra))


@shared_task(name="notify.outbox_flush", acks_late=True, autoretry_for=DB_ERRORS)
def outbox_flush_task(notification_ids: list[int], **extra: Any) -> int:
    _extra("notify.outbox_flush", extra)
    from pbem.notify.services import outbox_flush

    return outbox_flush(notification_ids=[int(i) for i in notification_ids])


@shared_task(
    name="notify.deliver",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=DB_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def notification_deliver_task(notification_id: int, **extra: Any) -> str:
    """Delivery retries are the service's own (backoff in the row, re-enqueued with a
    countdown); Celery's autoretry covers only a database that is briefly away."""
    _extra("notify.deliver", extra)
    from pbem.notify.services import notification_deliver

    return notification_deliver(notification_id=int(notification_id))


@shared_task(name="notify.outbox_sweep", acks_late=True, autoretry_for=DB_ERRORS)
def outbox_sweep_task(**extra: Any) -> int:
    _extra("notify.outbox_sweep", extra)
    from pbem.notify.services import outbox_sweep

    return outbox_sweep()


@shared_task(name="notify.digest_send", acks_late=True, autoretry_for=DB_ERRORS)
def digest_send_task(**extra: Any) -> int:
    _extra("notify.digest_send", extra)
    from pbem.notify.services import digest_send

    return digest_send()
