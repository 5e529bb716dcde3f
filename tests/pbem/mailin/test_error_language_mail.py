"""A refusal of the platform's order path (a service error, not an engine's rule) in the answer
to orders by email: written in the sender's language, recorded in English (pbem.mailin.process
`_service_errors` / `_service_sentences`, pbem.mailin.replies)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as django_mail
from django.utils import translation

from pbem.mailin.process import LineOutcome, _service_errors, _service_sentences
from pbem.mailin.replies import _line_context
from pbem.notify.language import language_set
from pbem.play.errors import GAME_IS, NotYourSeat, game_status_word, say
from pbem.play.models import Game, Seat
from tests.pbem.mailin.ml_helpers import address_of, deliver, game_in_turn, mail, players, prompted

pytestmark = pytest.mark.django_db

PENDING_EN = "accept your invitation to the seat '{role}' first"
PENDING_DE = "nimm zuerst deine Einladung zum Platz '{role}' an"


def _answer_for(language: str) -> tuple[dict[str, Any], str, str]:
    """A player whose seat invitation is still open mails an order: the order path refuses it
    (invitation_pending). The outcome recorded and the answer's text."""
    alice, bob = players()
    game = game_in_turn(alice, bob)
    role = prompted(game)
    seat = Seat.objects.select_related("user").get(game=game, role=role)
    assert seat.user is not None
    language_set(seat.user, language)
    Seat.objects.filter(pk=seat.pk).update(accepted_at=None)
    django_mail.outbox.clear()
    to = address_of(game, role)
    row = deliver(mail(frm=seat.user.email, to=to, body="end turn\n"), to)
    (answer,) = django_mail.outbox  # the answer, and nothing else
    return row.outcome, str(answer.body), role


def _line_error(outcome: dict[str, Any]) -> dict[str, str]:
    (part,) = outcome["seats"]
    (line,) = part["lines"]
    (error,) = line["errors"]
    return dict(error)


def test_a_german_sender_reads_the_platforms_refusal_in_german() -> None:
    outcome, text, role = _answer_for("de")
    error = _line_error(outcome)
    assert error == {"rule": "invitation_pending", "message": PENDING_EN.format(role=role)}
    assert PENDING_DE.format(role=role) in text
    assert PENDING_EN.format(role=role) not in text
    assert "invitation_pending" in text  # the code is never translated


def test_an_english_sender_reads_the_old_english() -> None:
    outcome, text, role = _answer_for("en")
    assert _line_error(outcome)["message"] == PENDING_EN.format(role=role)
    assert PENDING_EN.format(role=role) in text


def test_a_service_error_is_recorded_in_english_and_answered_in_the_readers_language() -> None:
    error = NotYourSeat(say(GAME_IS, status=game_status_word(Game.Status.FINISHED)))
    line = LineOutcome(line=1, text="end turn", status="refused")
    with translation.override("de"):
        line.errors = _service_errors(error)
        line.sentences = _service_sentences(error)
        assert line.errors == [{"rule": "not_your_seat", "message": "the game is finished"}]
        assert _line_context(line)["errors"][0]["message"] == "die Partie ist beendet"
    with translation.override("en"):
        assert _line_context(line)["errors"][0]["message"] == "the game is finished"
