"""Handing work to a worker by task name, so services never import the task modules (which
import the services): `enqueue("play.order_apply", intake_id)`.

The task is looked up in the Celery app's registry and sent with its own `delay`/`apply_async`,
so `CELERY_TASK_ALWAYS_EAGER` (the unit tests) still runs it at once, as calling the task object
did (`app.send_task` would ignore it). The task modules are imported by their app's
`AppConfig.ready()`, which registers them. Errors (e.g. kombu's OperationalError with the broker
down) reach the caller, who decides what a lost enqueue means.
"""

from __future__ import annotations

from typing import Any

from celery import current_app


def enqueue(name: str, *args: Any) -> None:
    """Send task `name` with positional `args` (the task's `delay`)."""
    current_app.tasks[name].delay(*args)


def enqueue_later(name: str, args: tuple[Any, ...], *, countdown: float) -> None:
    """Send task `name` to run no sooner than `countdown` seconds from now (`apply_async`)."""
    current_app.tasks[name].apply_async(args, countdown=countdown)
