"""Email delivery: Django's email API (locmem here), three templates per kind, deterministic
Message-ID threaded per game, each row delivered once, retries with backoff, a permanent failure
after N attempts, and the sweep that re-enqueues due rows."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
import time_machine
from anymail.exceptions import AnymailAPIError, AnymailInvalidAddress, AnymailRecipientsRefused
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone
from pytest_django.fixtures import Settings

from pbem.notify import services
from pbem.notify.models import Notification
from pbem.notify.services import backoff, notification_deliver, outbox_sweep
from pbem.notify.tasks import notification_deliver_task
from pbem.notify.transports.base import TransportError
from pbem.notify.transports.email import EmailTransport, mail_send
from pbem.play.models import Game
from tests.pbem.notify.nf_helpers import play

pytestmark = pytest.mark.django_db


def _row(game: Game) -> Notification:
    play(game, 1)
    return Notification.objects.get(channel="email")


def _fail_with(monkeypatch: pytest.MonkeyPatch, error: Exception) -> list[int]:
    calls: list[int] = []

    def deliver(self: EmailTransport, message: object) -> None:
        calls.append(self.notification.pk)
        raise error

    monkeypatch.setattr(EmailTransport, "deliver", deliver)
    return calls


def test_a_mail_has_three_parts_and_a_threaded_message_id(game: Game, bob: User) -> None:
    n = _row(game)
    assert notification_deliver(notification_id=n.pk) == "sent"
    (sent,) = mail.outbox
    assert sent.to == [bob.email]
    assert sent.subject == "[notify test] Your turn as French army (event 2)"
    assert "It is your turn as French army (french)" in sent.body
    assert f"/api/v1/games/{game.pk}/view" in sent.body
    assert isinstance(sent, EmailMultiAlternatives)
    (html, mimetype) = sent.alternatives[0]
    assert mimetype == "text/html"
    assert "<b>French army (french)</b>" in str(html)
    headers = sent.message()
    assert headers["Message-ID"] == f"<{game.pk}.2.french.your_turn@localhost>"
    assert headers["In-Reply-To"] == f"<{game.pk}@localhost>"
    assert headers["References"] == f"<{game.pk}@localhost>"
    n.refresh_from_db()
    assert (n.status, n.attempts, n.sent_at is not None) == ("sent", 1, True)


def test_the_mail_domain_comes_from_settings(game: Game, settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "MAIL_DOMAIN": "pbem.example.org"}
    notification_deliver(notification_id=_row(game).pk)
    assert mail.outbox[0].message()["Message-ID"].endswith("@pbem.example.org>")


def test_delivering_the_same_row_twice_sends_one_mail(game: Game) -> None:
    n = _row(game)
    notification_deliver_task.delay(n.pk)
    notification_deliver_task.delay(n.pk)
    assert notification_deliver(notification_id=n.pk) == "skipped"
    assert len(mail.outbox) == 1
    n.refresh_from_db()
    assert n.attempts == 1


def test_a_row_claimed_by_another_worker_is_left_alone(game: Game) -> None:
    n = _row(game)
    Notification.objects.filter(pk=n.pk).update(status="sending", claimed_at=timezone.now())
    assert notification_deliver(notification_id=n.pk) == "skipped"
    assert mail.outbox == []


def test_a_failure_is_retried_with_exponential_backoff(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = _row(game)
    calls = _fail_with(monkeypatch, TransportError("smtp down"))
    before = timezone.now()
    assert notification_deliver(notification_id=n.pk) == "retry"
    n.refresh_from_db()
    assert (n.status, n.attempts, n.last_error) == ("pending", 1, "smtp down")
    assert n.next_attempt_at is not None
    assert n.next_attempt_at - before >= timedelta(seconds=59)
    # the re-enqueued task ran at once (eager) but the row is not due yet: nothing happened
    assert calls == [n.pk]
    assert notification_deliver(notification_id=n.pk) == "skipped"
    later = n.next_attempt_at + timedelta(seconds=1)
    assert notification_deliver(notification_id=n.pk, now=later) == "retry"
    n.refresh_from_db()
    assert n.attempts == 2
    assert n.next_attempt_at is not None
    assert n.next_attempt_at - later >= timedelta(seconds=119)  # doubled
    assert [backoff(a).total_seconds() for a in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert backoff(30) == timedelta(hours=6)


def test_a_row_fails_for_good_after_the_last_attempt(
    game: Game, monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    settings.PBEM = {**settings.PBEM, "NOTIFY_MAX_ATTEMPTS": 3}
    n = _row(game)
    _fail_with(monkeypatch, TransportError("smtp down"))
    now = timezone.now()
    outcomes = []
    for _ in range(4):
        outcomes.append(notification_deliver(notification_id=n.pk, now=now))
        now += timedelta(hours=7)
    assert outcomes == ["retry", "retry", "failed", "skipped"]
    n.refresh_from_db()
    assert (n.status, n.attempts) == ("failed", 3)


def test_a_permanent_error_fails_at_once(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    n = _row(game)
    _fail_with(monkeypatch, TransportError("no such mailbox", permanent=True))
    assert notification_deliver(notification_id=n.pk) == "failed"
    n.refresh_from_db()
    assert (n.status, n.attempts, n.last_error) == ("failed", 1, "no such mailbox")


def test_an_unexpected_error_is_recorded_and_retried(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = _row(game)
    _fail_with(monkeypatch, ValueError("a bug"))
    assert notification_deliver(notification_id=n.pk) == "retry"
    n.refresh_from_db()
    assert n.last_error == "ValueError: a bug"


def test_the_sweep_delivers_due_rows_and_leaves_others(game: Game) -> None:
    play(game, 3)
    rows = list(Notification.objects.order_by("pk"))
    assert len(rows) >= 2
    future = timezone.now() + timedelta(hours=1)
    Notification.objects.filter(pk=rows[0].pk).update(next_attempt_at=future, attempts=1)
    assert outbox_sweep() == len(rows) - 1
    assert len(mail.outbox) == len(rows) - 1
    assert Notification.objects.get(pk=rows[0].pk).status == "pending"
    with time_machine.travel(future + timedelta(minutes=5), tick=False):
        assert outbox_sweep() == 1
        assert len(mail.outbox) == len(rows)
        assert outbox_sweep() == 0


def test_the_sweep_gives_back_claims_of_dead_workers(game: Game) -> None:
    n = _row(game)
    long_ago = timezone.now() - timedelta(hours=1)
    Notification.objects.filter(pk=n.pk).update(status="sending", claimed_at=long_ago)
    assert outbox_sweep() == 1
    n.refresh_from_db()
    assert n.status == "sent"
    assert len(mail.outbox) == 1


def test_the_sweep_pushes_a_poison_row_forward_and_goes_on(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(game, 3)
    first, *rest = Notification.objects.order_by("pk").values_list("pk", flat=True)
    real_delay = notification_deliver_task.delay

    def delay(pk: int) -> object:
        if pk == first:
            raise RuntimeError("cannot enqueue")
        return real_delay(pk)

    monkeypatch.setattr(notification_deliver_task, "delay", delay)
    now = timezone.now()
    assert outbox_sweep(now=now) == len(rest)
    poison = Notification.objects.get(pk=first)
    assert poison.status == "pending"
    assert poison.next_attempt_at is not None
    assert poison.next_attempt_at > now
    assert Notification.objects.filter(status="sent").count() == len(rest)


def test_email_switched_off_after_planning_is_honoured(game: Game, bob: User) -> None:
    n = _row(game)
    services.notification_pref_set(user=bob, email_enabled=False)
    assert notification_deliver(notification_id=n.pk) == "failed"
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("error", "permanent"),
    [
        (AnymailRecipientsRefused("all recipients refused"), True),
        (AnymailInvalidAddress("not an address"), True),
        (AnymailAPIError("the ESP answered 503"), False),
        (smtplib.SMTPRecipientsRefused({"a@b": (550, b"no such mailbox")}), True),
        (smtplib.SMTPServerDisconnected("gone"), False),
    ],
)
def test_refused_addresses_are_permanent_and_other_failures_retried(
    monkeypatch: pytest.MonkeyPatch, error: Exception, permanent: bool
) -> None:
    def send(self: object, fail_silently: bool = False) -> int:
        raise error

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", send)

    with pytest.raises(TransportError) as failed:
        mail_send(to="a@b.example", subject="s", text="t", html="<p>t</p>", headers={})

    assert failed.value.permanent is permanent
