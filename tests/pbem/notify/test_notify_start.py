"""The first player to move is told at once when the game starts: a
"your turn" at event 1 for the roles prompted at the head, as soon as every seat is taken and
accepted, and never a second one for the same turn."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest
from django.contrib.auth.models import User
from django.core import mail

from pbem.notify.models import Notification, WebhookEndpoint
from pbem.notify.services import notify_game_started
from pbem.play.models import Game
from pbem.play.services.games import game_create, seat_accept, seat_join
from tests.pbem.notify.nf_helpers import nt_game, play

pytestmark = pytest.mark.django_db
CaptureOnCommit = Callable[..., AbstractContextManager[list[Callable[[], object]]]]


def _your_turn(user: User) -> list[tuple[int, str, str]]:
    rows = Notification.objects.filter(user=user, kind="your_turn").order_by("event__seq", "pk")
    return [(n.event.seq, n.role, n.channel) for n in rows]


def test_the_first_mover_is_told_at_once_when_the_game_starts(
    alice: User, bob: User, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    WebhookEndpoint.objects.create(user=alice, url="https://hooks.example.org/a", secret="s")
    with django_capture_on_commit_callbacks(execute=True):
        game = nt_game(alice, bob)

    assert game.active_roles == ["allied"]  # the Allied set-up comes first
    assert _your_turn(alice) == [(1, "allied", "email"), (1, "allied", "webhook")]
    assert not Notification.objects.filter(user=bob).exists()  # not bob's turn: nothing
    (sent,) = mail.outbox
    assert sent.to == [alice.email]
    assert sent.subject == "[notify test] The game has started: your turn as Allied army (event 1)"
    assert 'The game "notify test" has started. It is your turn as Allied army (allied)' in (
        sent.body
    )
    assert "Set up your army." in sent.body  # the recipient's own prompt
    assert "Waiting for: Allied army (allied) (that is you)" in sent.body


def test_the_first_mover_is_told_once(alice: User, bob: User) -> None:
    game = nt_game(alice, bob)

    before = Notification.objects.count()
    notify_game_started(game=game)  # a second call plans nothing new
    assert Notification.objects.count() == before
    events = play(game, 1)  # alice's set-up: now it is bob's turn

    assert [e.role for e in events] == ["allied"]
    assert _your_turn(alice) == [(1, "allied", "email")]
    assert _your_turn(bob) == [(2, "french", "email")]


def test_an_open_seat_holds_the_news_until_the_last_seat_is_taken(alice: User, bob: User) -> None:
    game = nt_game(alice, None)
    assert not Notification.objects.exists()  # the game has not started

    seat_join(game=game, role="french", user=bob)

    assert _your_turn(alice) == [(1, "allied", "email")]
    assert _your_turn(bob) == []


def test_an_accepted_invitation_starts_the_game_and_tells_the_first_mover(
    alice: User, bob: User
) -> None:
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
        title="invited",
    )
    assert _your_turn(alice) == []  # bob has not accepted yet: no game, no turn

    seat_accept(game=game, role="french", user=bob)
    seat_accept(game=game, role="french", user=bob)  # accepting again starts nothing new

    assert _your_turn(alice) == [(1, "allied", "email")]


def test_a_game_that_is_not_active_is_not_announced(alice: User, bob: User) -> None:
    game = nt_game(alice, bob)
    Notification.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    assert notify_game_started(game=game) == []
    assert not Notification.objects.exists()


def test_a_seat_without_a_user_or_an_email_gets_no_mail(alice: User) -> None:
    mute = User.objects.create_user("nf_start_mute", email="")
    game = nt_game(mute, alice)  # the muted user holds the first mover's seat (allied)

    assert game.active_roles == ["allied"]
    assert not Notification.objects.filter(user=mute).exists()  # no address, no webhook
    assert not Notification.objects.filter(user=alice).exists()  # not her turn
