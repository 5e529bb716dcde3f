"""The one-way seam: play sends its hooks (pbem.play.hooks), notify connects its receivers in
NotifyConfig.ready(); play imports neither notify nor its own tasks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.db import transaction
from django.dispatch import Signal

from pbem.notify import receivers
from pbem.notify.models import Notification
from pbem.play import hooks
from pbem.play.models import Event, Game
from pbem.play.services.games import game_start_if_ready
from tests.pbem.notify.nf_helpers import play

PLAY = Path(hooks.__file__).parent


class Boom(Exception):
    pass


def _boom(sender: object, **kwargs: Any) -> None:
    raise Boom("receiver failed")


@pytest.fixture
def boom_on() -> Iterator[list[Signal]]:
    """Connect a failing receiver to the signals the test appends to the list."""
    signals: list[Signal] = []
    yield signals
    for signal in signals:
        signal.disconnect(_boom)


def test_notify_connects_a_receiver_to_every_hook_in_ready() -> None:
    try:
        for signal, receiver in receivers.RECEIVERS:
            assert signal.has_listeners(sender=Game)
            # disconnect() answers whether the receiver was connected
            assert signal.disconnect(dispatch_uid=f"pbem.notify.receivers.{receiver.__name__}")
    finally:
        receivers.connect()
    hooked = {s for s, _ in receivers.RECEIVERS}
    declared = {v for v in vars(hooks).values() if isinstance(v, Signal)}
    assert hooked == declared


def test_connecting_again_adds_no_second_receiver() -> None:
    before = len(hooks.EVENT_APPENDED.receivers)
    receivers.connect()
    assert len(hooks.EVENT_APPENDED.receivers) == before


def test_the_outbox_rows_commit_with_the_event(game: Game) -> None:
    play(game, 3)
    assert Notification.objects.filter(game=game).exists()


def test_the_outbox_rows_roll_back_with_the_event(game: Game) -> None:
    head, rows = game.head_seq, Notification.objects.count()
    planned: list[int] = []

    def fail_after_appending() -> None:
        with transaction.atomic():
            assert play(game, 3)  # events appended and rows planned, inside this transaction
            planned.append(Notification.objects.count())
            raise Boom("the event's transaction fails")

    with pytest.raises(Boom):
        fail_after_appending()
    assert planned[0] > rows
    assert Notification.objects.count() == rows
    assert not Event.objects.filter(game=game, seq__gt=head).exists()


def test_a_failing_event_receiver_rolls_the_event_back(game: Game, boom_on: list[Signal]) -> None:
    hooks.EVENT_APPENDED.connect(_boom, weak=False)
    boom_on.append(hooks.EVENT_APPENDED)
    head = game.head_seq
    with pytest.raises(Boom):
        play(game, 1)
    assert not Event.objects.filter(game=game, seq__gt=head).exists()


def test_a_failing_announcement_receiver_is_logged_and_never_blocks(
    game: Game, boom_on: list[Signal], caplog: pytest.LogCaptureFixture
) -> None:
    hooks.GAME_STARTED.connect(_boom, weak=False)
    boom_on.append(hooks.GAME_STARTED)
    assert game_start_if_ready(game) is True
    assert "receiver failed" in caplog.text


def test_play_reaches_neither_notify_nor_importlib() -> None:
    for path in PLAY.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        text = path.read_text()
        assert "importlib" not in text, path
        assert "from pbem.notify" not in text, path
        assert "import pbem.notify" not in text, path


def test_the_tasks_are_registered_for_sending_by_name() -> None:
    names = {"play.order_apply", "play.turn_resolve", "play.system_step", "notify.deliver"}
    assert names <= set(current_app.tasks)
