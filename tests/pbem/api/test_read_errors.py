"""The answers to a read or an order the caller may not make (pbem.play.selectors' refusals), byte
for byte: the 403 of a seat not held, of a private game and of a clock read by an outsider, the
403 of an order from a user without a seat, and the 400 naming `role` when a caller holding
several seats names none."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

SEVERAL = "you hold several roles ['allied', 'french']; say which one"


def _forbidden(detail: str) -> dict[str, Any]:
    return {"code": "permission_denied", "detail": detail, "errors": []}


def test_a_seat_not_held_is_403(api: Any, alice_client: APIClient, bob: User) -> None:
    gid = api.create_game(alice_client, {"allied": "alice", "french": "bob"})["id"]
    for path in ("view", "events"):
        answer = alice_client.get(f"/api/v1/games/{gid}/{path}?role=french")
        assert answer.status_code == 403
        assert answer.json() == _forbidden("you do not hold the seat 'french' in this game")


def test_a_private_game_is_403_to_an_outsider_everywhere(
    api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    game = api.create_game(alice_client, {"allied": "alice", "french": "bob"}, spectators=False)
    gid = game["id"]
    no_spectators = _forbidden("this game admits no spectators and you hold no seat in it")
    for path in ("", "/view", "/events", "/verify"):
        answer = mallory_client.get(f"/api/v1/games/{gid}{path}")
        assert answer.status_code == 403, path
        assert answer.json() == no_spectators, path
    clock = mallory_client.get(f"/api/v1/games/{gid}/deadline")
    assert clock.status_code == 403
    assert clock.json() == _forbidden("only the players of this game may read its deadline")


def test_an_order_from_a_user_without_a_seat_is_403(
    api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    gid = api.create_game(alice_client, {"allied": "alice", "french": "bob"})["id"]
    body = {"kind": "pass", "payload": {}}
    answer = mallory_client.post(f"/api/v1/games/{gid}/actions", body, format="json")
    assert answer.status_code == 403
    assert answer.json() == _forbidden("you hold no seat in this game")


def test_several_seats_and_no_role_named_is_a_400_on_role(
    api: Any, alice_client: APIClient
) -> None:
    gid = api.create_game(alice_client, {"allied": "alice", "french": "alice"}, hot_seat=True)[
        "id"
    ]
    expected = {
        "code": "invalid",
        "detail": f"invalid request: /role: {SEVERAL}",
        "errors": [{"rule": "invalid", "message": SEVERAL, "path": "/role"}],
    }
    for path in ("view", "events"):
        answer = alice_client.get(f"/api/v1/games/{gid}/{path}")
        assert answer.status_code == 400, path
        assert answer.content == alice_client.get(f"/api/v1/games/{gid}/{path}").content
        assert answer.json() == expected, path
    named = alice_client.get(f"/api/v1/games/{gid}/view?role=french")
    assert named.status_code == 200
    assert named.json()["role"] == "french"


def test_withdrawing_a_pause_request_without_a_seat_is_403(
    api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    gid = api.create_game(alice_client, {"allied": "alice", "french": "bob"})["id"]
    answer = mallory_client.delete(f"/api/v1/games/{gid}/pause")
    assert answer.status_code == 403
    assert answer.json() == _forbidden("you hold no seat in this game")
