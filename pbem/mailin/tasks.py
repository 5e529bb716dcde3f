"""Thin Celery tasks on the `mail` queue (route `mailin.*`): fetch by id, call a service."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

DB_ERRORS = (OperationalError, InterfaceError)


@shared_task(name="mailin.inbound_process", acks_late=True, autoretry_for=DB_ERRORS, max_retries=5)
def inbound_process_task(message_id: str, **extra: Any) -> str:
    from pbem.mailin.inbound import inbound_process

    return inbound_process(message_id=str(message_id))


@shared_task(name="mailin.inbound_sweep", acks_late=True, autoretry_for=DB_ERRORS)
def inbound_sweep_task(**extra: Any) -> int:
    from pbem.mailin.sweep import inbound_sweep

    return inbound_sweep()
