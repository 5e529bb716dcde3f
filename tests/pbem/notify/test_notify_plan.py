"""Planning the outbox: who is told what about an event, exactly once, in the event's
transaction; never the actor about their own action, never an empty seat."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from pbem.notify.content import notification_content
from pbem.notify.models import Notification, NotificationPref, WebhookEndpoint
from pbem.notify.services import (
    kinds_for_event,
    notification_pref_set,
    notifications_plan,
    notify_deadline_soon,
)
from pbem.play.models import Event, Game
from pbem.play.services.sweeps import reminders_sweep
from tests.pbem.notify.nf_helpers import nt_game, play, user

pytestmark = pytest.mark.django_db
CaptureOnCommit = Callable[..., AbstractContextManager[list[Callable[[], object]]]]


def _fake_event(role: str, turn_ended: bool = False) -> Event:
    return SimpleNamespace(role=role, kind="move", turn_ended=turn_ended)  # type: ignore[return-value]


def test_a_newly_prompted_role_is_told_it_is_their_turn() -> None:
    kinds = kinds_for_event(
        event=_fake_event("allied"),
        seat_roles=["allied", "french"],
        prompted_before=["allied"],
        prompted_after=["french"],
        finished=False,
    )
    assert kinds == {"french": "your_turn"}


def test_the_actor_is_never_told_of_their_own_action() -> None:
    kinds = kinds_for_event(
        event=_fake_event("allied", turn_ended=True),
        seat_roles=["allied", "french"],
        prompted_before=["french"],
        prompted_after=["allied"],
        finished=False,
    )
    assert kinds == {"french": "turn_resolved"}


def test_a_role_still_prompted_gets_no_new_your_turn() -> None:
    kinds = kinds_for_event(
        event=_fake_event("french"),
        seat_roles=["allied", "french"],
        prompted_before=["allied", "french"],
        prompted_after=["allied"],
        finished=False,
    )
    assert kinds == {}


def test_a_turn_end_tells_the_other_seats_once_each() -> None:
    """your_turn wins over turn_resolved: one kind per seat per event."""
    kinds = kinds_for_event(
        event=_fake_event("@system", turn_ended=True),
        seat_roles=["allied", "french"],
        prompted_before=["allied"],
        prompted_after=["french"],
        finished=False,
    )
    assert kinds == {"allied": "turn_resolved", "french": "your_turn"}


def test_game_over_tells_every_seat_the_actor_included() -> None:
    kinds = kinds_for_event(
        event=_fake_event("allied", turn_ended=True),
        seat_roles=["allied", "french"],
        prompted_before=["allied"],
        prompted_after=[],
        finished=True,
    )
    assert kinds == {"allied": "game_over", "french": "game_over"}


def test_the_allied_set_up_tells_the_french_player_only(game: Game, bob: User) -> None:
    hook = WebhookEndpoint.objects.create(user=bob, url="https://example.com/h", secret="s")
    (event,) = play(game, 1)
    rows = list(Notification.objects.filter(event=event).order_by("channel"))
    assert [(n.role, n.kind, n.channel, n.user_id, n.status) for n in rows] == [
        ("french", "your_turn", "email", bob.pk, "pending"),
        ("french", "your_turn", "webhook", bob.pk, "pending"),
    ]
    assert rows[0].dedupe_key == f"{event.pk}:email.french:your_turn"
    assert rows[1].dedupe_key == f"{event.pk}:webhook.{hook.pk}.french:your_turn"
    assert rows[1].endpoint_id == hook.pk


def test_planning_twice_for_one_event_adds_nothing(game: Game) -> None:
    (event,) = play(game, 1)
    before = Notification.objects.count()
    notifications_plan(
        event=event, prompted_before=["allied"], prompted_after=["french"], finished=False
    )
    notifications_plan(event=event, prompted_before=[], prompted_after=["french"], finished=True)
    assert before == 1
    assert Notification.objects.filter(kind="your_turn").count() == 1
    assert Notification.objects.filter(kind="game_over").count() == 2  # a different kind


def test_a_seat_with_no_user_gets_nothing(alice: User) -> None:
    open_game = nt_game(alice, None)
    play(open_game, 1)  # the Allied set-up prompts the (open) French seat
    assert Notification.objects.count() == 0


def test_a_user_without_email_gets_webhooks_only(alice: User) -> None:
    mute = user("nf_mute", email="")
    WebhookEndpoint.objects.create(user=mute, url="https://example.com/h", secret="s")
    play(nt_game(alice, mute), 1)
    # alice, the first mover, was told at the start by email; the muted French seat by webhook
    assert list(Notification.objects.filter(user=mute).values_list("channel", flat=True)) == [
        "webhook"
    ]


def test_email_switched_off_means_no_email_rows(game: Game, bob: User) -> None:
    notification_pref_set(user=bob, email_enabled=False)
    play(game, 1)
    assert Notification.objects.count() == 0


def test_an_endpoint_gets_only_the_kinds_it_asked_for(game: Game, bob: User) -> None:
    WebhookEndpoint.objects.create(
        user=bob, url="https://example.com/h", secret="s", events=["game_over"]
    )
    WebhookEndpoint.objects.create(
        user=bob, url="https://example.com/i", secret="s", events=[], active=False
    )
    play(game, 1)
    assert list(Notification.objects.values_list("channel", flat=True)) == ["email"]


def test_digest_mode_holds_email_rows_but_not_webhooks(game: Game, bob: User) -> None:
    notification_pref_set(user=bob, mode=NotificationPref.Mode.DAILY_DIGEST)
    WebhookEndpoint.objects.create(user=bob, url="https://example.com/h", secret="s")
    play(game, 1)
    statuses = dict(Notification.objects.values_list("channel", "status"))
    assert statuses == {"email": "digest", "webhook": "pending"}


def test_no_player_is_ever_told_of_their_own_action(game: Game) -> None:
    events = play(game, 60, seed=5)
    assert Notification.objects.count() > 10
    for event in events:
        roles = set(Notification.objects.filter(event=event).values_list("role", flat=True))
        assert event.role not in roles or event.game.status == Game.Status.FINISHED
        kinds = Notification.objects.filter(event=event).values_list("role", "kind")
        assert len(kinds) == len(set(kinds))  # one kind per seat (and channel) per event
    assert any(e.turn_ended for e in events)
    turn_ends = [e for e in events if e.turn_ended]
    assert Notification.objects.filter(event__in=turn_ends).exists()


def test_an_eager_order_is_mailed_after_commit(
    game: Game, bob: User, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        play(game, 1)
    assert callbacks  # the flush was deferred to after the commit
    (sent,) = mail.outbox
    assert sent.to == [bob.email]
    assert "Your turn" in sent.subject
    assert Notification.objects.get().status == Notification.Status.SENT


def test_a_planning_failure_never_blocks_the_game(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.notify import services

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "_rows_for", boom)
    (event,) = play(game, 1)
    assert event.seq == 2
    assert Notification.objects.count() == 0


def test_the_deadline_reminder_tells_the_prompted_seat_once(game: Game, bob: User) -> None:
    play(game, 1)  # the French player is prompted now
    Notification.objects.all().delete()
    deadline = timezone.now() + timedelta(hours=2)
    Game.objects.filter(pk=game.pk).update(deadline_at=deadline)
    assert reminders_sweep() == 1  # the deadlines' sweep calls notify_deadline_soon
    assert reminders_sweep() == 0
    (row,) = Notification.objects.all()
    assert (row.role, row.kind, row.user_id, row.event.seq) == (
        "french",
        "deadline_soon",
        bob.pk,
        2,
    )
    game.refresh_from_db()
    notify_deadline_soon(game=game, roles=["french"])  # the same head: nothing new
    assert Notification.objects.count() == 1
    text = notification_content(row).text
    assert "Your deadline as French army (french)" in text
    assert deadline.strftime("%Y-%m-%d %H:%M") in text
