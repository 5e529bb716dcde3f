"""A ruling is news only for the seats it names (games.core.umpire): they get a `ruling` mail with
its text, in their language; a seat it does not name gets nothing (no row, no count), nor does
the umpire; a public ruling goes to every player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail

from games.core.protocol import JSON
from games.core.umpire import RULING_KIND, UMPIRE
from pbem.notify.language import language_set
from pbem.notify.models import Kind, Notification
from pbem.notify.services import notification_deliver
from pbem.play.models import Game, OrderIntake
from tests.support.umpired import submit_applied, umpired_game

pytestmark = pytest.mark.django_db


def _users() -> tuple[User, User, User]:
    return tuple(  # type: ignore[return-value]
        User.objects.create_user(n, f"{n}@example.com") for n in ("anna_r", "bruno_r", "ulla_r")
    )


def _rule(game: Game, umpire: User, payload: JSON) -> None:
    intake = submit_applied(game, umpire, UMPIRE, RULING_KIND, payload)
    assert intake.status == OrderIntake.Status.APPLIED, intake.errors


def test_a_ruling_tells_its_audience_only() -> None:
    anna, bruno, ulla = _users()
    language_set(anna, "de")
    game = umpired_game(anna, bruno, ulla, title="Umpired")
    before = set(Notification.objects.values_list("pk", flat=True))
    mail.outbox.clear()
    _rule(game, ulla, {"text": "The stream is fordable.", "audience": ["allied"]})
    rows = Notification.objects.exclude(pk__in=before)
    assert [(n.role, n.kind) for n in rows] == [("allied", Kind.RULING)]
    (row,) = rows
    mail.outbox.clear()
    assert notification_deliver(notification_id=row.pk) == "sent"
    (sent,) = mail.outbox
    assert sent.to == ["anna_r@example.com"]
    assert "Schiedsrichter" in sent.subject
    assert "The stream is fordable." in sent.body
    before = set(Notification.objects.values_list("pk", flat=True))
    _rule(game, ulla, {"text": "Play on."})
    rows = Notification.objects.exclude(pk__in=before)
    assert sorted((n.role, n.kind) for n in rows) == [
        ("allied", Kind.RULING),
        ("french", Kind.RULING),
    ]
