"""The platform's refusals on the pages are in the reader's language (the profile's, else the
browser's): a German reader sees German, an English reader the exact English of the service."""

from __future__ import annotations

import html

from django.contrib.auth.models import User
from django.test import Client

from pbem.notify.language import language_set
from pbem.play.models import Game
from tests.pbem.web.conftest import new_game


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def test_a_private_game_refuses_an_outsider_in_their_language(
    alice: User, bob: User, mallory: User, mallory_client: Client
) -> None:
    private = new_game(alice, bob, spectators=False)
    english = mallory_client.get(f"/games/{private.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 403
    assert "this game admits no spectators and you hold no seat in it" in _text(english)
    german = mallory_client.get(f"/games/{private.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 403
    assert "diese Partie lässt keine Zuschauer zu, und du hast keinen Platz in ihr" in _text(german)
    language_set(mallory, "de")  # the profile goes first
    profile = mallory_client.get(f"/games/{private.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "diese Partie lässt keine Zuschauer zu" in _text(profile)


def test_a_pause_refusal_names_the_games_status_in_german(
    alice: User, alice_client: Client, game: Game
) -> None:
    url = f"/games/{game.pk}/pause"
    english = alice_client.post(url, {"action": "resume"}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "the game is active, not paused" in _text(english)
    language_set(alice, "de")
    german = alice_client.post(url, {"action": "resume"}, follow=True)
    assert "die Partie ist aktiv, nicht pausiert" in _text(german)
    assert "not paused" not in _text(german)


def test_an_outsider_asking_for_a_pause_is_refused_in_german(
    mallory: User, mallory_client: Client, game: Game
) -> None:
    language_set(mallory, "de")
    answer = mallory_client.post(f"/games/{game.pk}/pause", {"action": "request"})
    assert answer.status_code == 403
    assert "du hast keinen Platz in dieser Partie" in _text(answer)
