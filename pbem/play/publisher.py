"""Handing committed work to the broker off the request thread, and noticing when it is down.

An accepted order is committed (its intake row) before it is published, so the publish itself
need not hold the web request: `publish(name, *args)` puts the message on a small in-process
queue and returns at once; one daemon thread per process sends it with the task's `delay`. A
client gets its 202 without waiting for Redis, and reads never touch the broker.

A circuit breaker keeps an outage cheap. When a send fails (the broker down: the send is bounded
by BROKER_TIMEOUT_MS, see settings), the thread marks the broker down and from then on gives up
each queued message at once instead of trying it: the order it carries is stored, `received`.
Every BROKER_PROBE_MS it tries one message, `play.intakes_recover`; once that is sent the broker
is back, and that very task finds the intakes whose messages were given up and applies them, per
game in the order they were accepted (pbem.play.services.recovery). So an outage costs the
seconds it lasts, not the 5 minutes of the stuck-turns sweep, which stays the last resort (for
a process stopped before its thread sent what it had queued, say). At exit the thread is given
`DRAIN_SECONDS`. With `CELERY_TASK_ALWAYS_EAGER` (the embedded default and the unit tests) and
with the setting `PUBLISH_IN_BACKGROUND` false, `publish` sends at once, on the caller's thread.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from pbem.conf import pbem_settings
from pbem.play.enqueue import enqueue

logger = logging.getLogger(__name__)
QUEUE_SIZE = 10_000  # messages; beyond it they are given up (their intakes are recovered)
DRAIN_SECONDS = 2.0
PROBE = ("play.intakes_recover", ())  # sent when the broker was down: tests it and recovers

Message = tuple[str, tuple[Any, ...]]
Send = Callable[[str, tuple[Any, ...]], None]


def _send(name: str, args: tuple[Any, ...]) -> None:
    enqueue(name, *args)


def _probe_seconds() -> float:
    return int(pbem_settings.BROKER_PROBE_MS) / 1000


class Publisher:
    """One queue and one sending thread per process (started on first use, again after a fork),
    with the circuit breaker of the module's text."""

    def __init__(self, send: Send = _send, clock: Callable[[], float] = time.monotonic) -> None:
        self._send = send
        self._clock = clock
        self._lock = threading.Lock()
        self._pid = -1
        self._queue: queue.Queue[Message] = queue.Queue(QUEUE_SIZE)
        self.down_since: float | None = None  # when a send last failed; None: the broker is up
        self.given_up = 0  # messages given up since then
        self._last_try = 0.0

    @property
    def broker_down(self) -> bool:
        return self.down_since is not None

    def publish(self, name: str, args: tuple[Any, ...]) -> bool:
        """Queue the message; False (logged) when the queue is full."""
        self._ensure_thread()
        try:
            self._queue.put_nowait((name, args))
        except queue.Full:
            logger.warning("publish queue full: %s%r given up; it will be recovered", name, args)
            return False
        return True

    def handle(self, message: Message | None) -> None:
        """One step of the sending thread: send `message`, or (the broker down) give it up and,
        when BROKER_PROBE_MS has passed, try the probe. `None`: nothing arrived, only probe."""
        if self.down_since is None:
            if message is not None:
                self._try(*message)
            return
        if message is not None:
            self.given_up += 1  # stored as a `received` intake: the probe's task recovers it
        if self._clock() - self._last_try >= _probe_seconds():
            self._try(*PROBE)

    def _try(self, name: str, args: tuple[Any, ...]) -> None:
        self._last_try = self._clock()
        try:
            self._send(name, args)
        except Exception as exc:  # the broker is down or refused
            if self.down_since is None:
                self.down_since = self._last_try
                self.given_up = 1 if (name, args) != PROBE else 0
                logger.warning("broker down (%s): giving up messages until it answers", exc)
            return
        if self.down_since is not None:
            logger.warning(
                "broker back after %.1f s: %d messages were given up; recovery asked",
                self._last_try - self.down_since,
                self.given_up,
            )
            self.down_since = None
            self.given_up = 0

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
            self.down_since = None
            threading.Thread(target=self._run, name="pbem-publisher", daemon=True).start()
            self._pid = os.getpid()

    def _run(self) -> None:
        while True:
            wait = _probe_seconds() if self.down_since is not None else None
            try:
                message: Message | None = self._queue.get(timeout=wait)
            except queue.Empty:
                message = None
            try:
                self.handle(message)
            except Exception:  # never let the thread die
                logger.exception("publisher: %r not handled", message)
            finally:
                if message is not None:
                    self._queue.task_done()


_publisher = Publisher()


def publish(name: str, *args: Any) -> None:
    """Send task `name` with `args`: in the background (see the module's text), or at once when
    Celery runs eagerly or background publishing is switched off."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not pbem_settings.PUBLISH_IN_BACKGROUND:
        _send(name, args)
        return
    _publisher.publish(name, args)


def broker_down() -> bool:
    """Whether this process found the broker down at its last send (and has not seen it back)."""
    return _publisher.broker_down


@atexit.register
def _drain_at_exit() -> None:
    if not _publisher.drain(DRAIN_SECONDS):
        logger.warning("publisher: messages left unsent at exit; they will be recovered")
