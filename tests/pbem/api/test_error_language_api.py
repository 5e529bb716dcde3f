"""The API's refusals in the caller's language (pbem.api.exceptions `answer_language`): the
signed-in user's profile language first, else the request's Accept-Language, else English. The
human texts (`detail`, each `message`) change; `code`, `rule`, `path` and the status never do."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import translation
from rest_framework.test import APIClient

from games.core.protocol import Action
from pbem.notify.language import language_set
from pbem.play.engine_text import engine_text
from pbem.play.errors import NOT_YOUR_SEAT, NotYourSeat, say


def _not_your_seat(api: Any, client: APIClient, game: dict[str, Any], **headers: str) -> Any:
    response = api.submit(client, game["id"], api.random_action(game["id"], "allied"), **headers)
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "not_your_seat"
    return body


def test_a_refusal_is_english_by_default_and_german_for_accept_language_de(
    api: Any, bob_client: APIClient, game: dict[str, Any]
) -> None:
    english = _not_your_seat(api, bob_client, game)
    assert english["detail"] == "you do not hold the seat 'allied' in this game"  # as it was
    german = _not_your_seat(api, bob_client, game, **{"Accept-Language": "de-DE,de;q=0.9"})
    assert german["detail"] == "du hast den Platz 'allied' in dieser Partie nicht"
    assert german["errors"] == english["errors"] == []


def test_the_profile_language_goes_before_the_browsers(
    api: Any, bob: User, bob_client: APIClient, game: dict[str, Any]
) -> None:
    language_set(bob, "de")
    body = _not_your_seat(api, bob_client, game, **{"Accept-Language": "en"})
    assert body["detail"] == "du hast den Platz 'allied' in dieser Partie nicht"
    language_set(bob, "en")
    body = _not_your_seat(api, bob_client, game, **{"Accept-Language": "de"})
    assert body["detail"] == "you do not hold the seat 'allied' in this game"


def test_an_out_of_turn_order_names_its_rule_in_german(
    api: Any, bob_client: APIClient, game: dict[str, Any]
) -> None:
    order = Action("french", "french_setup", {"corps": []})
    english = api.submit(bob_client, game["id"], order).json()
    german = api.submit(bob_client, game["id"], order, **{"Accept-Language": "de"}).json()
    assert english["code"] == german["code"] == "not_your_turn"
    (first, *_) = english["errors"]
    assert english["detail"] == f"it is not french's turn: {first['message']}"
    reason = engine_text(first["message"], "de")
    assert reason != first["message"]  # the engine's refusal has its German
    assert german["detail"] == f"french ist nicht am Zug: {reason}"
    assert [e["rule"] for e in german["errors"]] == [e["rule"] for e in english["errors"]]
    assert [e["path"] for e in german["errors"]] == [e["path"] for e in english["errors"]]
    assert german["errors"][0]["message"] == reason


def test_a_bad_game_request_in_german(alice_client: APIClient) -> None:
    body = {"ruleset": "napoleons_triumph", "scenario": "NOPE", "seats": {"allied": "alice"}}
    english = alice_client.post("/api/v1/games", body, format="json")
    german = alice_client.post("/api/v1/games", body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 400
    e, g = english.json(), german.json()
    assert e["code"] == g["code"] == "bad_game"
    assert e["detail"].startswith("unknown scenario 'NOPE'; napoleons_triumph has (")
    assert g["detail"].startswith("unbekanntes Szenario 'NOPE'; napoleons_triumph hat (")
    assert [x["rule"] for x in e["errors"]] == [x["rule"] for x in g["errors"]] == ["bad_game"]


def test_a_service_error_reads_its_message_when_read() -> None:
    error = NotYourSeat(say(NOT_YOUR_SEAT, role="'french'"))
    with translation.override("de"):
        assert error.message == "du hast den Platz 'french' in dieser Partie nicht"
        assert error.english == "you do not hold the seat 'french' in this game"
        assert str(error) == error.message
    with translation.override("en"):
        assert error.message == "you do not hold the seat 'french' in this game"
    assert error.code == "not_your_seat"
    assert error.status == 403
