"""Publishing to the broker in the background: the caller never waits for the broker; a broker
found down is not tried again for every message (they are given up: their orders are stored) but
probed until it answers, and then asked to recover them; a forked process starts its own thread."""

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


class Broker:
    """A fake broker that can be down, and a clock the test moves."""

    def __init__(self) -> None:
        self.up = True
        self.now = 0.0
        self.tried: list[tuple[str, tuple[Any, ...]]] = []
        self.sent: list[tuple[str, tuple[Any, ...]]] = []

    def send(self, name: str, args: tuple[Any, ...]) -> None:
        self.tried.append((name, args))
        if not self.up:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((name, args))


def test_a_broker_found_down_is_not_tried_again_for_every_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broker = Broker()
    pub = Publisher(broker.send, clock=lambda: broker.now)
    broker.up = False
    pub.handle(("play.order_apply", ("a",)))
    assert pub.broker_down
    assert "broker down" in caplog.text
    for i in range(50):  # the outage goes on: each message is given up without a try
        broker.now += 0.01
        pub.handle(("play.order_apply", (f"m{i}",)))
    assert broker.tried == [("play.order_apply", ("a",))]
    assert pub.given_up == 51


def test_the_probe_finds_the_broker_back_and_asks_for_recovery(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broker = Broker()
    pub = Publisher(broker.send, clock=lambda: broker.now)
    broker.up = False
    pub.handle(("play.order_apply", ("a",)))
    broker.now += 1.0  # BROKER_PROBE_MS (1000) later: one probe, still down
    pub.handle(None)
    assert broker.tried[-1] == publisher.PROBE
    assert pub.broker_down
    broker.now += 0.5
    pub.handle(None)  # too soon for another probe
    assert len(broker.tried) == 2
    broker.up = True
    pub.handle(("play.order_apply", ("b",)))  # given up: the probe is not due yet
    broker.now += 0.5
    pub.handle(None)
    assert broker.sent == [publisher.PROBE]  # the recovery task: it finds "a" and "b" stored
    assert not pub.broker_down
    assert "broker back after 2.0 s: 2 messages were given up; recovery asked" in caplog.text
    pub.handle(("play.order_apply", ("c",)))
    assert broker.sent[-1] == ("play.order_apply", ("c",))  # sent again as usual


def test_the_thread_probes_while_no_message_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publisher, "_probe_seconds", lambda: 0.01)
    broker = Broker()
    broker.up = False
    probed = threading.Event()

    def send(name: str, args: tuple[Any, ...]) -> None:
        if (name, args) == publisher.PROBE:
            probed.set()
        broker.send(name, args)

    pub = Publisher(send)
    pub.publish("play.order_apply", ("a",))
    assert probed.wait(DEADLINE)  # no further message was published: the thread probed anyway
    assert pub.broker_down


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
