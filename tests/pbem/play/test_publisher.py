"""Publishing to the broker in the background: the caller never waits for the broker, a failed
send is logged and leaves the work to the sweep, a forked process starts its own thread."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import override_settings

from pbem.play import publisher
from pbem.play.publisher import Publisher

DEADLINE = 30.0  # seconds; generous for a busy CI machine


def test_publish_returns_before_the_broker_answers() -> None:
    release, sent = threading.Event(), []

    def slow_send(name: str, args: tuple[Any, ...]) -> None:
        assert release.wait(DEADLINE)
        sent.append((name, args))

    pub = Publisher(slow_send)
    assert pub.publish("play.order_apply", ("a",))
    assert pub.publish("play.order_apply", ("b",))
    assert sent == []  # the caller went on while the broker had not answered
    release.set()
    assert pub.drain(DEADLINE)
    assert sent == [("play.order_apply", ("a",)), ("play.order_apply", ("b",))]  # in order


def test_a_failed_send_is_logged_and_the_next_one_still_goes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent: list[tuple[Any, ...]] = []

    def flaky(name: str, args: tuple[Any, ...]) -> None:
        if args == ("down",):
            raise ConnectionError("broker down")
        sent.append(args)

    pub = Publisher(flaky)
    pub.publish("play.order_apply", ("down",))
    pub.publish("play.order_apply", ("up",))
    assert pub.drain(DEADLINE)
    assert sent == [("up",)]
    assert "not sent; the sweep will retry" in caplog.text


def test_a_full_queue_refuses_instead_of_blocking(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publisher, "QUEUE_SIZE", 1)
    sending, release = threading.Event(), threading.Event()

    def stuck(name: str, args: tuple[Any, ...]) -> None:
        sending.set()
        assert release.wait(DEADLINE)

    pub = Publisher(stuck)
    assert pub.publish("t", (0,))
    assert sending.wait(DEADLINE)  # the thread holds message 0: the queue is empty again
    assert pub.publish("t", (1,))  # fills the queue of one
    assert not pub.publish("t", (2,))  # refused at once, the caller is not held
    release.set()
    assert pub.drain(DEADLINE)


def test_a_forked_process_starts_its_own_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[Any, ...]] = []
    pub = Publisher(lambda name, args: sent.append(args))
    pub.publish("t", (1,))
    assert pub.drain(DEADLINE)
    monkeypatch.setattr("pbem.play.publisher.os.getpid", lambda: -42)  # as in a child after fork
    pub.publish("t", (2,))
    assert pub.drain(DEADLINE)
    assert sent == [(1,), (2,)]


def test_eager_celery_and_the_switch_send_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(publisher, "_send", lambda name, args: sent.append((name, args)))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        publisher.publish("play.order_apply", "x")
    assert sent == [("play.order_apply", ("x",))]
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, PBEM={"PUBLISH_IN_BACKGROUND": False}):
        publisher.publish("play.order_apply", "y")
    assert sent[-1] == ("play.order_apply", ("y",))  # sent before publish returned
