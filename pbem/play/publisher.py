"""Handing committed work to the broker off the request thread.

An accepted order is committed (its intake row) before it is published, so the publish itself
need not hold the web request: `publish(name, *args)` puts the message on a small in-process
queue and returns; one daemon thread per process sends it with the task's `delay`. A client gets
its 202 without waiting for Redis, and a broker that is slow or down never holds a web worker.

What may be lost is only the message, never the order: a message that cannot be sent (broker
down, queue full, the process stopped before its thread sent it) leaves the intake `received`,
and the stuck-turns sweep enqueues it again. At exit the thread is given `DRAIN_SECONDS` to send
what is queued. With `CELERY_TASK_ALWAYS_EAGER` (the embedded default and the unit tests) and
with the setting `PUBLISH_IN_BACKGROUND` false (pbem.conf), `publish` sends at once, on the
caller's thread.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings

from pbem.conf import pbem_settings
from pbem.play.enqueue import enqueue

logger = logging.getLogger(__name__)
QUEUE_SIZE = 10_000  # messages; beyond it the sweep takes over
DRAIN_SECONDS = 2.0

Send = Callable[[str, tuple[Any, ...]], None]


def _send(name: str, args: tuple[Any, ...]) -> None:
    enqueue(name, *args)


class Publisher:
    """One queue and one sending thread per process (started on first use, again after a fork)."""

    def __init__(self, send: Send = _send) -> None:
        self._send = send
        self._lock = threading.Lock()
        self._pid = -1
        self._queue: queue.Queue[tuple[str, tuple[Any, ...]]] = queue.Queue(QUEUE_SIZE)

    def publish(self, name: str, args: tuple[Any, ...]) -> bool:
        """Queue the message; False (logged) when the queue is full."""
        self._ensure_thread()
        try:
            self._queue.put_nowait((name, args))
        except queue.Full:
            logger.warning("publish queue full: %s%r not sent; the sweep will retry", name, args)
            return False
        return True

    def drain(self, timeout: float) -> bool:
        """Wait until every queued message was handled (sent or given up); False on timeout."""
        done = threading.Event()

        def wait() -> None:
            self._queue.join()
            done.set()

        if self._pid != os.getpid():
            return self._queue.unfinished_tasks == 0
        threading.Thread(target=wait, daemon=True).start()
        return done.wait(timeout)

    def _ensure_thread(self) -> None:
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            # a forked child inherits the parent's queue but not its thread: start afresh
            self._queue = queue.Queue(QUEUE_SIZE)
            threading.Thread(target=self._run, name="pbem-publisher", daemon=True).start()
            self._pid = os.getpid()

    def _run(self) -> None:
        while True:
            name, args = self._queue.get()
            try:
                self._send(name, args)
            except Exception:  # the broker is down or refused: the intake waits for the sweep
                logger.exception("%s%r not sent; the sweep will retry", name, args)
            finally:
                self._queue.task_done()


_publisher = Publisher()


def publish(name: str, *args: Any) -> None:
    """Send task `name` with `args`: in the background (see the module's text), or at once when
    Celery runs eagerly or background publishing is switched off."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not pbem_settings.PUBLISH_IN_BACKGROUND:
        _send(name, args)
        return
    _publisher.publish(name, args)


@atexit.register
def _drain_at_exit() -> None:
    if not _publisher.drain(DRAIN_SECONDS):
        logger.warning("publisher: messages left unsent at exit; the sweep will retry them")
