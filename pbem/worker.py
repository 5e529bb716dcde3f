"""The Celery worker's side of an outage: reconnect to the broker quickly, and on every
(re)connection ask for the accepted orders that no worker took.

Celery's consumer backs off between reconnection attempts to the broker by 2, 4, 6 ... up to 30
seconds, so after a one-minute Redis outage the worker could come back 10-15 s late.
`Consumer` (settings `CELERY_WORKER_CONSUMER`) retries every BROKER_PROBE_MS instead: a worker
talks to one broker, and a try is one refused connect. `RecoverOnConnect`, a consumer bootstep,
runs each time the consumer starts, which is after every (re)connection, and sends
`play.intakes_recover`: the orders accepted while the broker or the worker was down, whose
messages were given up or lost, are applied within seconds (pbem.play.services.recovery).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps
from celery.worker.consumer import Consumer as CeleryConsumer  # type: ignore[import-untyped]

from pbem.conf import pbem_settings

logger = logging.getLogger(__name__)
RECOVER_TASK = "play.intakes_recover"


def reconnect_seconds() -> float:
    return max(0.1, int(pbem_settings.BROKER_PROBE_MS) / 1000)


class Consumer(CeleryConsumer):  # type: ignore[misc]
    """Celery's consumer, reconnecting to the broker at a steady short interval."""

    def ensure_connected(self, conn: Any) -> Any:
        ensure = conn.ensure_connection
        every = reconnect_seconds()

        def steady(*args: Any, **kwargs: Any) -> Any:
            kwargs.update(interval_start=every, interval_step=0, interval_max=every)
            return ensure(*args, **kwargs)

        conn.ensure_connection = steady
        return super().ensure_connected(conn)


class RecoverOnConnect(bootsteps.StartStopStep):
    """After the consumer (re)connected: ask for the orders nobody took (see the module's text)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, c: Any) -> None:
        try:
            c.app.tasks[RECOVER_TASK].apply_async()
        except Exception:  # the broker went away again: the next connection asks again
            logger.exception("could not ask for recovery after connecting")
            return
        logger.info("connected to the broker: recovery of waiting orders asked")
