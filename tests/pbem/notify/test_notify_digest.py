"""Daily digest: a user in `daily_digest` mode gets one mail per day with every notification
held for them, and nothing more that day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail

from pbem.notify.models import DigestRun, Notification, NotificationPref
from pbem.notify.services import digest_send, notification_pref_set
from pbem.play.models import Game
from tests.pbem.notify.nf_helpers import play

pytestmark = pytest.mark.django_db
DAY1 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_a_digest_user_gets_one_mail_per_day_with_everything(
    game: Game, alice: User, bob: User
) -> None:
    notification_pref_set(user=bob, mode=NotificationPref.Mode.DAILY_DIGEST)
    with time_machine.travel(DAY1, tick=False):
        play(game, 12, seed=3)
        held = Notification.objects.filter(user=bob, status="digest").count()
        instant = Notification.objects.filter(user=alice, status="pending").count()
        assert held >= 2
        assert instant >= 1
        assert Notification.objects.filter(user=bob).exclude(status="digest").count() == 0
    with time_machine.travel(DAY1 + timedelta(hours=10), tick=False):
        assert digest_send() == 1
        assert digest_send() == 0  # once per day, however often beat runs it
    (digest,) = mail.outbox
    assert digest.to == [bob.email]
    assert digest.subject == f"Your games today: {held} notifications"
    assert digest.body.count("It is your turn as French army (french)") == held
    assert digest.message()["Message-ID"] == f"<digest.{bob.pk}.2026-03-02@localhost>"
    assert Notification.objects.filter(user=bob, status="sent").count() == held
    assert Notification.objects.filter(user=alice, status="pending").count() == instant
    assert DigestRun.objects.get(user=bob).count == held

    with time_machine.travel(DAY1 + timedelta(hours=12), tick=False):
        play(game, 6, seed=4)  # held for the next day's digest
        assert digest_send() == 0
    with time_machine.travel(DAY1 + timedelta(days=1), tick=False):
        assert digest_send() == 1
    assert len(mail.outbox) == 2
    assert Notification.objects.filter(user=bob, status="digest").count() == 0


def test_a_failed_digest_is_tried_again_later(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.notify import services

    notification_pref_set(user=bob, mode=NotificationPref.Mode.DAILY_DIGEST)
    play(game, 4, seed=3)
    held = Notification.objects.filter(user=bob, status="digest").count()
    assert held >= 1

    def broken(**kwargs: object) -> None:
        raise OSError("smtp down")

    monkeypatch.setattr(services, "mail_send", broken)
    assert digest_send() == 0
    assert Notification.objects.filter(user=bob, status="digest").count() == held
    assert DigestRun.objects.count() == 0
    monkeypatch.undo()
    assert digest_send() == 1
    assert len(mail.outbox) == 1
