"""The digest at its default period (24 hours): a user in digest mode gets one mail a day, at
the start of the UTC day, with every notification held for them before it, and nothing more that
day. Other periods, claims and the mail's sections: test_digest_hours.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail

from pbem.notify.digest import ITEMS_MAX, digest_send, notification_pref_set
from pbem.notify.models import DigestRun, Notification, NotificationPref
from pbem.play.models import Game
from tests.pbem.notify.nf_helpers import play

pytestmark = pytest.mark.django_db
DAY1 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY2 = datetime(2026, 3, 3, tzinfo=UTC)  # the start of the next 24-hour window


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
        assert digest_send() == 0  # held during today's window: it goes out when it ends
    with time_machine.travel(DAY2 + timedelta(minutes=1), tick=False):
        assert digest_send() == 1
        assert digest_send() == 0  # once per day, however often beat runs it
    (digest,) = mail.outbox
    assert digest.to == [bob.email]
    assert digest.subject == "pbem: 1 game waiting for you"
    assert digest.body.count("It is your turn as French army (french)") == min(held, ITEMS_MAX)
    assert digest.message()["Message-ID"] == f"<digest.{bob.pk}.20260303T0000@localhost>"
    assert Notification.objects.filter(user=bob, status="sent").count() == held
    assert Notification.objects.filter(user=alice, status="pending").count() == instant
    assert DigestRun.objects.get(user=bob).count == held

    with time_machine.travel(DAY2 + timedelta(hours=12), tick=False):
        play(game, 6, seed=4)  # held for the next day's digest
        assert digest_send() == 0
    with time_machine.travel(DAY2 + timedelta(days=1), tick=False):
        assert digest_send() == 1
    assert len(mail.outbox) == 2
    assert Notification.objects.filter(user=bob, status="digest").count() == 0


def test_a_failed_digest_is_tried_again_later(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.notify import digest

    notification_pref_set(user=bob, mode=NotificationPref.Mode.DAILY_DIGEST)
    with time_machine.travel(DAY1, tick=False):
        play(game, 4, seed=3)
    held = Notification.objects.filter(user=bob, status="digest").count()
    assert held >= 1

    def broken(**kwargs: object) -> None:
        raise OSError("smtp down")

    monkeypatch.setattr(digest, "mail_send", broken)
    with time_machine.travel(DAY2, tick=False):
        assert digest_send() == 0
    assert Notification.objects.filter(user=bob, status="digest").count() == held
    assert DigestRun.objects.count() == 0
    monkeypatch.undo()
    with time_machine.travel(DAY2 + timedelta(minutes=15), tick=False):  # the next beat run
        assert digest_send() == 1
    assert len(mail.outbox) == 1
