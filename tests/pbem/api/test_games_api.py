"""Games endpoints: create, list, detail, join, rulesets; their 4xx answers."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from pbem.play.models import Event, Game
from pbem.play.rulesets import enabled


def test_creating_a_game_answers_201_with_seats_and_turn(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    assert game["ruleset"] == "napoleons_triumph"
    assert game["scenario"] == "DEC2"
    assert game["options"] == {"board": "austerlitz"}
    assert game["title"] == "Austerlitz"
    assert game["status"] == "active"
    assert game["head_seq"] == 1
    assert len(game["seed_commitment"]) == 64
    assert "seed" not in game
    assert game["seats"] == [
        {"role": "allied", "team": "AL", "username": "alice", "pending": False, "open": False},
        {"role": "french", "team": "F", "username": "bob", "pending": False, "open": False},
    ]
    assert game["started"] is True
    assert game["hot_seat"] is False
    assert game["active_roles"] == ["allied"]
    assert game["your_roles"] == ["allied"]
    assert game["your_turn"] is True
    assert Event.objects.get(game_id=game["id"], seq=1).kind == ".setup"


def test_the_creator_need_not_hold_a_seat(api: Any, mallory_client: APIClient, alice: User) -> None:
    data = api.create_game(mallory_client, {"allied": "alice", "french": None})
    assert data["your_roles"] == []
    assert data["your_turn"] is False
    assert data["seats"][1] == {
        "role": "french",
        "team": "F",
        "username": None,
        "pending": False,
        "open": True,
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": {"allied": "nobody"}}, "seats"),
        ({"scenario": "NOPE"}, "detail"),
        ({"ruleset": "chess"}, "detail"),
        ({"seats": {"emperor": None}}, "detail"),
        ({"options": {"board": "nope"}}, "detail"),
        ({"options": {"board": 5}}, "detail"),
        ({"options": "austerlitz"}, "options"),
        ({"seats": ["alice"]}, "seats"),
        ({"seats": None}, "seats"),
        ({"title": "x" * 500}, "title"),
    ],
)
def test_a_bad_create_request_is_a_400(
    alice_client: APIClient, alice: User, body: dict[str, Any], field: str
) -> None:
    full: dict[str, Any] = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz"},
        "seats": {"allied": "alice"},
    }
    full.update(body)
    response = alice_client.post("/api/v1/games", full, format="json")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert set(answer) >= {"code", "detail", "errors"}
    if field != "detail":  # a field error names the field as a JSON pointer
        assert any(e["path"].startswith(f"/{field}") for e in answer["errors"]), answer
    assert not Game.objects.exists()


def test_a_missing_field_or_malformed_body_is_a_400(alice_client: APIClient) -> None:
    response = alice_client.post("/api/v1/games", {"ruleset": "napoleons_triumph"}, format="json")
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} >= {"/scenario", "/seats"}
    response = alice_client.post("/api/v1/games", data="{not json", content_type="application/json")
    assert response.status_code == 400
    response = alice_client.post("/api/v1/games", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400


def test_anonymous_callers_are_refused(db: None) -> None:
    assert APIClient().get("/api/v1/games").status_code == 401
    assert APIClient().get("/api/v1/rulesets").status_code == 401


def test_the_list_shows_my_games_and_whose_turn(
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
    game: dict[str, Any],
) -> None:
    other = api.create_game(mallory_client, {"allied": "mallory", "french": None})

    mine = alice_client.get("/api/v1/games").json()
    assert [g["id"] for g in mine] == [game["id"]]
    assert mine[0]["your_turn"] is True

    bobs = bob_client.get("/api/v1/games").json()
    assert [(g["id"], g["your_roles"], g["your_turn"]) for g in bobs] == [
        (game["id"], ["french"], False)
    ]

    with_open = alice_client.get("/api/v1/games", {"open": "1"}).json()
    assert {g["id"] for g in with_open} == {game["id"], other["id"]}
    assert alice_client.get("/api/v1/games", {"open": "maybe"}).status_code == 400


def test_the_detail_of_a_game(mallory_client: APIClient, game: dict[str, Any]) -> None:
    response = mallory_client.get(f"/api/v1/games/{game['id']}")
    assert response.status_code == 200
    assert response.json()["id"] == game["id"]
    assert response.json()["your_roles"] == []


@pytest.mark.parametrize("game_id", [str(uuid.uuid4()), "not-a-uuid", "123"])
def test_an_unknown_or_malformed_game_id_is_a_404(alice_client: APIClient, game_id: str) -> None:
    for url in (
        f"/api/v1/games/{game_id}",
        f"/api/v1/games/{game_id}/view",
        f"/api/v1/games/{game_id}/events",
    ):
        response = alice_client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == "not_found"
    response = alice_client.post(f"/api/v1/games/{game_id}/seats/allied/join")
    assert response.status_code == 404
    response = alice_client.post(
        f"/api/v1/games/{game_id}/actions", {"kind": "end_turn", "payload": {}}, format="json"
    )
    assert response.status_code == 404


def test_joining_an_open_seat(
    api: Any, alice_client: APIClient, bob_client: APIClient, mallory_client: APIClient, alice: User
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": None})
    url = f"/api/v1/games/{data['id']}/seats/french/join"

    response = bob_client.post(url)
    assert response.status_code == 200
    assert response.json()["your_roles"] == ["french"]
    assert response.json()["seats"][1] == {
        "role": "french",
        "team": "F",
        "username": "bob",
        "pending": False,
        "open": False,
    }

    taken = mallory_client.post(url)
    assert taken.status_code == 409
    assert taken.json()["code"] == "seat_taken"

    no_role = mallory_client.post(f"/api/v1/games/{data['id']}/seats/emperor/join")
    assert no_role.status_code == 400
    assert no_role.json()["code"] == "bad_game"


def test_the_rulesets_with_scenarios_and_roles(alice_client: APIClient) -> None:
    response = alice_client.get("/api/v1/rulesets")
    assert response.status_code == 200
    listed = {r["id"]: r for r in response.json()}
    assert sorted(listed) == enabled()
    nt = listed["napoleons_triumph"]
    scenarios = {s["id"]: s for s in nt["scenarios"]}
    assert "DEC2" in scenarios
    assert {r["id"] for r in scenarios["DEC2"]["roles"]} == {"allied", "french"}
