"""The digest every N hours (issue 14 item 6, pbem.notify.digest): windows of N hours counted
from the Unix epoch in UTC, one mail per window and user at most (the DigestRun claim, also
when two runs overlap), none for a window with nothing held; one section per game and role
headed by `== game <id> as <role> ==` (the reply parser's contract), sorted; Reply-To the user's
signed address."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

import pytest
import time_machine
from celery.schedules import crontab
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMessage as DjangoMail
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction

from pbem.mailin.reading import mail_read, sections
from pbem.notify import digest
from pbem.notify.digest import (
    digest_send,
    notification_pref_set,
    section_header,
    window_start,
)
from pbem.notify.models import DigestRun, Notification, NotificationPref
from pbem.notify.reply_address import address_read, seat_address, user_mac_ok
from pbem.notify.tasks import digest_send_task
from pbem.notify.transports.base import TransportError
from pbem.notify.transports.email import mail_send
from pbem.play.errors import InvalidField
from pbem.play.models import Game, Seat
from pbem.play.services.games import game_create
from tests.pbem.notify.nf_helpers import nt_game, play

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
T0 = datetime(2026, 3, 2, 9, 40, tzinfo=UTC)  # a Monday; inside the 9:00, 6:00, 0:00 windows
HEADER = re.compile(r"^== game (\S+) as (\S+) ==$", re.MULTILINE)


def travel(when: datetime) -> time_machine.travel:
    return time_machine.travel(when, tick=False)


def digest_mode(user: User, hours: int = 24) -> None:
    notification_pref_set(user=user, mode=NotificationPref.Mode.DAILY_DIGEST, digest_hours=hours)


def held(user: User) -> int:
    return Notification.objects.filter(user=user, status=Notification.Status.DIGEST).count()


def mails_to(user: User) -> list[DjangoMail]:
    return [m for m in mail.outbox if m.to == [user.email]]


def text_of(m: DjangoMail) -> str:
    return str(m.body)


def html_of(m: DjangoMail) -> str:
    assert isinstance(m, EmailMultiAlternatives)
    (html, mimetype), *_ = m.alternatives
    assert mimetype == "text/html"
    return str(html)


def held_sections(user: User) -> list[tuple[str, str]]:
    rows = Notification.objects.filter(user=user, status=Notification.Status.DIGEST)
    return sorted({(str(g), r) for g, r in rows.values_list("game_id", "role")})


# --- windows ------------------------------------------------------------------------------------


@pytest.mark.parametrize("hours", [1, 5, 6, 24, 168])
def test_a_window_starts_at_floor_of_now_by_its_hours_in_utc(hours: int) -> None:
    period = timedelta(hours=hours)
    when = T0
    for _ in range(400):  # every 47 minutes for about 13 days
        start = window_start(when, hours)
        assert start == EPOCH + ((when - EPOCH) // period) * period
        assert start <= when < start + period
        assert start.tzinfo == UTC
        when += timedelta(minutes=47)


def test_windows_of_1_6_24_and_168_hours_by_example() -> None:
    now = datetime(2026, 3, 2, 13, 47, 12, tzinfo=UTC)
    assert window_start(now, 1) == datetime(2026, 3, 2, 13, tzinfo=UTC)
    assert window_start(now, 6) == datetime(2026, 3, 2, 12, tzinfo=UTC)
    assert window_start(now, 24) == datetime(2026, 3, 2, tzinfo=UTC)
    week = window_start(now, 168)  # the epoch was a Thursday
    assert (week.weekday(), week.hour) == (3, 0)
    assert week == datetime(2026, 2, 26, tzinfo=UTC)
    berlin = now.astimezone(ZoneInfo("Europe/Berlin"))  # the same instant in another zone
    assert window_start(berlin, 6) == window_start(now, 6)


# --- one mail per window --------------------------------------------------------------------------


@pytest.mark.parametrize("hours", [1, 6, 24])
def test_one_mail_per_window_with_what_was_held_before_it(
    game: Game, alice: User, bob: User, hours: int
) -> None:
    digest_mode(bob, hours)
    period = timedelta(hours=hours)
    first = window_start(T0, hours)
    with travel(T0):
        play(game, 8, seed=3)
    n1 = held(bob)
    assert n1 >= 1
    assert Notification.objects.filter(user=bob).exclude(status="digest").count() == 0

    with travel(T0 + timedelta(minutes=5)):
        assert digest_send() == 0  # held in this window: it goes out when the window ends
    with travel(first + period - timedelta(seconds=1)):
        assert digest_send() == 0
    assert mail.outbox == []

    second = first + period
    with travel(second):
        assert digest_send() == 1
        assert digest_send() == 0  # beat again in the same instant
    with travel(second + timedelta(minutes=15)):
        assert digest_send() == 0  # the next beat run, same window
    assert list(DigestRun.objects.values_list("user_id", "window_start", "hours", "count")) == [
        (bob.pk, second, hours, n1)
    ]
    assert held(bob) == 0
    assert Notification.objects.filter(user=bob, status="sent").count() == n1

    with travel(second + timedelta(minutes=20)):
        play(game, 6, seed=4)  # news during the second window ...
    n2 = held(bob)
    assert n2 >= 1
    with travel(second + period - timedelta(minutes=1)):
        assert digest_send() == 0
    with travel(second + period):
        assert digest_send() == 1  # ... goes out at the start of the third
    with travel(second + 2 * period + timedelta(minutes=30)):
        assert digest_send() == 0  # a window with nothing held: no mail, no claim

    sent = mails_to(bob)
    assert [m.message()["Message-ID"] for m in sent] == [
        f"<digest.{bob.pk}.{second:%Y%m%dT%H%M}@localhost>",
        f"<digest.{bob.pk}.{second + period:%Y%m%dT%H%M}@localhost>",
    ]
    assert len(mail.outbox) == 2  # alice (instant) got no digest
    assert DigestRun.objects.filter(user=bob).count() == 2
    assert sum(DigestRun.objects.values_list("count", flat=True)) == n1 + n2


def test_nothing_is_sent_for_an_empty_window(game: Game, alice: User, bob: User) -> None:
    digest_mode(bob, 1)
    with travel(T0):
        play(game, 4, seed=3)
    assert held(alice) == 0  # alice gets instant mail: never a digest
    Notification.objects.filter(user=bob).delete()  # bob had news, but none is held
    for hour in range(1, 5):
        with travel(T0 + timedelta(hours=hour)):
            assert digest_send() == 0
    assert mail.outbox == []
    assert DigestRun.objects.count() == 0


def test_a_new_period_applies_from_the_next_run(game: Game, bob: User) -> None:
    digest_mode(bob, 24)
    with travel(T0):
        play(game, 4, seed=3)
    assert held(bob) >= 1
    with travel(T0 + timedelta(minutes=30)):
        assert digest_send() == 0  # the day's window has not ended
        notification_pref_set(user=bob, digest_hours=1)
        assert digest_send() == 1  # held before 10:00, the start of its 1-hour window
    (run,) = DigestRun.objects.all()
    assert (run.window_start, run.hours) == (datetime(2026, 3, 2, 10, tzinfo=UTC), 1)


def test_held_news_of_a_user_who_switched_email_off_fails_unsent(game: Game, bob: User) -> None:
    digest_mode(bob, 6)
    with travel(T0):
        play(game, 4, seed=3)
    n = held(bob)
    assert n >= 1
    notification_pref_set(user=bob, email_enabled=False)
    with travel(T0 + timedelta(hours=6)):
        assert digest_send() == 0
    assert mail.outbox == []
    failed = Notification.objects.filter(user=bob, status="failed")
    assert failed.count() == n
    assert set(failed.values_list("last_error", flat=True)) == {digest.EMAIL_OFF}
    assert DigestRun.objects.count() == 0


def test_a_user_without_an_address_fails_the_held_news_once(game: Game, bob: User) -> None:
    """A permanent failure (no address) fails the rows like a single mail's: not retried every
    quarter hour for ever."""
    digest_mode(bob, 1)
    with travel(T0):
        play(game, 4, seed=3)
    n = held(bob)
    assert n >= 1
    User.objects.filter(pk=bob.pk).update(email="")
    with travel(T0 + timedelta(hours=1)):
        assert digest_send() == 0
    with travel(T0 + timedelta(hours=2)):
        assert digest_send() == 0
    assert mail.outbox == []
    failed = Notification.objects.filter(user=bob, status="failed")
    assert failed.count() == n
    assert set(failed.values_list("last_error", flat=True)) == {"the user has no email address"}


def test_a_passing_failure_is_tried_again_at_the_next_run(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest_mode(bob, 6)
    with travel(T0):
        play(game, 4, seed=3)
    n = held(bob)

    def server_away(**kwargs: object) -> None:
        raise TransportError("mail not sent: connection refused")

    monkeypatch.setattr(digest, "mail_send", server_away)
    with travel(T0 + timedelta(hours=6)):
        assert digest_send() == 0
    assert held(bob) == n
    assert DigestRun.objects.count() == 0  # the window is free again
    monkeypatch.setattr(digest, "mail_send", mail_send)
    with travel(T0 + timedelta(hours=6, minutes=15)):
        assert digest_send() == 1
    assert len(mails_to(bob)) == 1
    assert Notification.objects.filter(user=bob, status="sent").count() == n


# --- exactly once when runs overlap -------------------------------------------------------------


def test_a_run_overlapping_a_send_in_progress_sends_nothing(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second run starts while the first is handing its mail to the mail server: the
    window's claim is taken and the rows are claimed, so it sends nothing."""
    digest_mode(bob, 6)
    with travel(T0):
        play(game, 6, seed=3)
    n = held(bob)
    assert n >= 1
    inner: list[int] = []
    real_send = mail_send

    def send_while_another_run_starts(**kwargs: object) -> None:
        inner.append(digest_send())
        real_send(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(digest, "mail_send", send_while_another_run_starts)
    with travel(T0 + timedelta(hours=6)):
        assert digest_send() == 1
    assert inner == [0]
    assert len(mails_to(bob)) == 1
    assert Notification.objects.filter(user=bob, status="sent").count() == n
    assert DigestRun.objects.get().count == n


def test_two_runs_that_both_found_the_user_due_send_one_mail(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both runs found the user due; the other one takes the window and sends before this one
    tries to: this one's claim fails on the unique (user, window_start) and it sends nothing."""
    digest_mode(bob, 1)
    with travel(T0):
        play(game, 6, seed=3)
    n = held(bob)
    assert n >= 1
    real_claim: Callable[..., DigestRun | None] = digest.window_claim
    other: list[int] = []
    claims: list[bool] = []

    def other_run_first(*args: object) -> DigestRun | None:
        if not other:
            other.append(-1)  # the other run's own claim goes straight through
            other[0] = digest_send()  # the other worker, all the way through
        run = real_claim(*args)
        claims.append(run is not None)
        return run

    monkeypatch.setattr(digest, "window_claim", other_run_first)
    with travel(T0 + timedelta(hours=1)):
        assert digest_send() == 0
    assert other == [1]
    assert claims == [True, False]  # the other's claim, then this one's refused
    assert len(mails_to(bob)) == 1
    assert Notification.objects.filter(user=bob, status="sent").count() == n
    assert DigestRun.objects.count() == 1


def test_news_committed_late_waits_for_the_next_window(game: Game, bob: User) -> None:
    """A row written before the window started but seen only after its mail went out (its
    transaction committed late) is not a second mail in the same window: the claim holds."""
    digest_mode(bob, 1)
    with travel(T0):
        play(game, 4, seed=3)
    with travel(T0 + timedelta(hours=1)):
        assert digest_send() == 1
    with travel(T0 + timedelta(hours=1, minutes=5)):
        play(game, 4, seed=4)
    late = Notification.objects.filter(user=bob, status="digest")
    n = late.count()
    assert n >= 1
    late.update(created_at=datetime(2026, 3, 2, 9, 59, tzinfo=UTC))  # before the 10:00 window
    with travel(T0 + timedelta(hours=1, minutes=15)):
        assert digest_send() == 0
    with travel(T0 + timedelta(hours=2)):
        assert digest_send() == 1
    assert len(mails_to(bob)) == 2
    assert DigestRun.objects.order_by("window_start").last().count == n  # type: ignore[union-attr]


# --- the mail -----------------------------------------------------------------------------------


def three_games(alice: User, bob: User) -> list[Game]:
    """Bob holds the French seat of one game, the Allied seat of another, and both seats of a
    hot-seat game; each game has news for him."""
    g1 = nt_game(alice, bob, "first")
    g2 = nt_game(bob, alice, "second")
    g3 = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": bob, "french": bob},
        creator=bob,
        title="third",
        hot_seat=True,
        accepted=True,
    )
    for i, g in enumerate((g1, g2, g3)):
        play(g, 6, seed=11 + i)
    return [g1, g2, g3]


def test_one_section_per_game_and_role_sorted_with_the_exact_header_lines(
    alice: User, bob: User
) -> None:
    digest_mode(bob, 6)
    with travel(T0):
        games = three_games(alice, bob)
    expected = held_sections(bob)
    assert {g for g, _ in expected} == {str(g.pk) for g in games}
    hot = str(games[2].pk)
    assert [r for g, r in expected if g == hot] == ["allied", "french"]  # both seats have news
    with travel(T0 + timedelta(hours=6)):
        assert digest_send() == 1
    (sent,) = mails_to(bob)
    assert sent.subject == "pbem: 3 games waiting for you"
    text = text_of(sent)
    html = html_of(sent)
    assert HEADER.findall(text) == expected  # sorted by game id, then role
    headers = [line for line in text.splitlines() if line.startswith("== game")]
    assert headers == [f"== game {g} as {r} ==" for g, r in expected]
    assert headers == [section_header(g, r) for g, r in expected]
    positions = [html.index(f"<pre>{h}</pre>") for h in headers]
    assert positions == sorted(positions)
    assert "Reply to this mail with orders under each game's header line" in text
    assert "Reply to this mail with orders under each game's header line" in html
    for g in games:  # each game's own news is in the mail, as its own mail would say it
        assert f'"{g.title}"' in text


def test_the_reply_to_is_the_users_signed_address(alice: User, bob: User) -> None:
    digest_mode(bob, 6)
    with travel(T0):
        three_games(alice, bob)
    with travel(T0 + timedelta(hours=6)):
        digest_send()
    (sent,) = mails_to(bob)
    message = sent.message()
    target = address_read(message["Reply-To"])
    assert (target.kind, target.pk) == ("user", bob.pk)
    assert user_mac_ok(target)
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["Reply-To"] in text_of(sent)
    for seat in Seat.objects.filter(user=bob):  # a seat's own address is not offered here
        address = seat_address(game_id=seat.game_id, role=seat.role, seat_pk=seat.pk)
        assert address not in text_of(sent)


def test_a_reply_with_orders_under_the_headers_reads_back_by_game(alice: User, bob: User) -> None:
    """The player copies each header line into the reply, writes orders below it and leaves the
    digest quoted under it: the reply parser finds one section per game and role, with its
    orders and nothing of the quoted digest."""
    digest_mode(bob, 6)
    with travel(T0):
        three_games(alice, bob)
    with travel(T0 + timedelta(hours=6)):
        digest_send()
    (sent,) = mails_to(bob)
    headers = [line for line in text_of(sent).splitlines() if line.startswith("== game")]
    written = [f"{h}\nend turn {i}\n" for i, h in enumerate(headers)]
    quoted = "\n".join(f"> {line}" for line in text_of(sent).splitlines())
    reply = EmailMessage()
    reply["From"] = bob.email
    reply["To"] = sent.message()["Reply-To"]
    reply["Subject"] = f"Re: {sent.subject}"
    reply["Message-ID"] = "<reply.1@example.com>"
    reply.set_content("\n".join(written) + "\nOn Mon, 2 Mar 2026, pbem wrote:\n" + quoted + "\n")
    got = sections(mail_read(reply.as_bytes(), bob.email).lines)
    assert [(s.game, s.role, [t for _, t in s.lines]) for s in got] == [
        (g, r, [f"end turn {i}"]) for i, (g, r) in enumerate(HEADER.findall(text_of(sent)))
    ]


def test_a_full_mail_leaves_the_other_games_for_the_next_window(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most SECTIONS_MAX sections: those whose news waited longest; the rest wait."""
    monkeypatch.setattr(digest, "SECTIONS_MAX", 1)
    digest_mode(bob, 1)
    with travel(T0):
        older = nt_game(bob, alice, "older")  # bob moves first: news at its start
    with travel(T0 + timedelta(minutes=5)):
        newer = nt_game(bob, alice, "newer")
    with travel(T0 + timedelta(hours=1)):
        assert digest_send() == 1
    assert HEADER.findall(text_of(mails_to(bob)[0])) == [(str(older.pk), "allied")]
    assert held_sections(bob) == [(str(newer.pk), "allied")]
    with travel(T0 + timedelta(hours=1, minutes=15)):
        assert digest_send() == 0  # not a second mail in the same window
    with travel(T0 + timedelta(hours=2)):
        assert digest_send() == 1
    assert HEADER.findall(text_of(mails_to(bob)[1])) == [(str(newer.pk), "allied")]
    assert held(bob) == 0


def test_older_news_of_a_game_is_counted_and_sent_with_the_mail(
    game: Game, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(digest, "ITEMS_MAX", 2)
    digest_mode(bob, 6)
    with travel(T0):
        play(game, 14, seed=3)
    n = held(bob)
    assert n >= 4
    with travel(T0 + timedelta(hours=6)):
        assert digest_send() == 1
    (sent,) = mails_to(bob)
    assert f"({n - 2} earlier notifications of this game not shown)" in text_of(sent)
    assert text_of(sent).count("\n-- [notify test]") == 2  # the two latest, in full
    assert Notification.objects.filter(user=bob, status="sent").count() == n
    assert DigestRun.objects.get().count == n


# --- the beat entry, the task and the preference -------------------------------------------------


def test_beat_runs_the_digest_task_every_quarter_hour(game: Game, bob: User) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["notify-digest-send"]
    assert entry["task"] == "notify.digest_send" == digest_send_task.name
    assert entry["schedule"] == crontab(minute="0,15,30,45")
    digest_mode(bob, 6)
    with travel(T0):
        play(game, 4, seed=3)
    with travel(T0 + timedelta(hours=6)):
        assert digest_send_task() == 1
    assert len(mails_to(bob)) == 1


@pytest.mark.parametrize("hours", [0, 169, -1, 1000])
def test_a_period_outside_1_to_168_hours_is_refused(bob: User, hours: int) -> None:
    digest_mode(bob, 6)
    with pytest.raises(InvalidField) as refused:
        notification_pref_set(user=bob, digest_hours=hours)
    assert refused.value.field == "digest_hours"
    assert "from 1 to 168" in refused.value.message
    assert NotificationPref.objects.get(user=bob).digest_hours == 6
    with pytest.raises(IntegrityError), transaction.atomic():  # the database refuses it too
        NotificationPref.objects.filter(user=bob).update(digest_hours=max(hours, 0))


@pytest.mark.parametrize("hours", [1, 168])
def test_the_bounds_are_allowed(bob: User, hours: int) -> None:
    assert notification_pref_set(user=bob, digest_hours=hours).digest_hours == hours
