"""The worker reconnects to the broker at a steady short interval (not Celery's back-off to
30 s), and asks for the recovery of waiting orders each time it has connected."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.test import override_settings

from pbem.celery import app
from pbem.worker import Consumer, RecoverOnConnect


class FakeConnection:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def ensure_connection(self, *args: Any, **kwargs: Any) -> FakeConnection:
        self.calls.append(kwargs)
        return self

    def as_uri(self) -> str:
        return "redis://127.0.0.1:6379/0"


@override_settings(PBEM={"BROKER_PROBE_MS": 1000})
def test_the_consumer_retries_every_second() -> None:
    consumer = Consumer.__new__(Consumer)  # only what ensure_connected reads
    consumer.app = app
    consumer.first_connection_attempt = False
    conn = FakeConnection()

    assert consumer.ensure_connected(conn) is conn
    [call] = conn.calls
    assert (call["interval_start"], call["interval_step"], call["interval_max"]) == (1.0, 0, 1.0)
    assert "callback" in call  # Celery's own arguments are kept


def test_every_connection_asks_for_recovery() -> None:
    asked: list[str] = []
    task = SimpleNamespace(apply_async=lambda: asked.append("play.intakes_recover"))
    consumer = SimpleNamespace(app=SimpleNamespace(tasks={"play.intakes_recover": task}))
    step = RecoverOnConnect.__new__(RecoverOnConnect)
    step.start(consumer)
    step.start(consumer)  # a reconnection starts the consumer's steps again
    assert asked == ["play.intakes_recover", "play.intakes_recover"]


def test_a_broker_gone_again_while_asking_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    def refuse() -> None:
        raise ConnectionError("Connection refused")

    consumer = SimpleNamespace(
        app=SimpleNamespace(tasks={"play.intakes_recover": SimpleNamespace(apply_async=refuse)})
    )
    RecoverOnConnect.__new__(RecoverOnConnect).start(consumer)
    assert "could not ask for recovery" in caplog.text


def test_the_step_is_registered_and_the_consumer_configured() -> None:
    assert RecoverOnConnect in app.steps["consumer"]
    assert app.conf.worker_consumer == "pbem.worker:Consumer"
    assert app.conf.beat_schedule["play-intakes-recover"]["task"] == "play.intakes_recover"
