"""Private games: with `"spectators": false`, a user without a seat gets 403
from the game's detail, view, log, verification and clock; the open-games listing shows such a
game only as far as taking an open seat needs."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.test import APIClient

PARTS = ["", "/view", "/events", "/verify", "/deadline"]


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()  # /verify is rate-limited per user


def get(client: APIClient, game_id: str, part: str) -> Any:
    return client.get(f"/api/v1/games/{game_id}{part}")


@pytest.mark.parametrize("part", PARTS)
def test_a_non_member_gets_403_from_every_read_of_a_private_game(
    part: str, api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": "bob"}, spectators=False)

    response = get(mallory_client, data["id"], part)

    assert response.status_code == 403, response.content
    assert "seat" in response.json()["detail"] or "players" in response.json()["detail"]
    assert get(alice_client, data["id"], part).status_code == 200


@pytest.mark.parametrize("part", ["", "/view", "/events", "/verify"])
def test_a_public_game_stays_readable_by_anyone(
    part: str, api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": "bob"})

    assert get(mallory_client, data["id"], part).status_code == 200


def test_an_invited_user_may_read_the_private_game_before_answering(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = api.create_game(
        alice_client, {"allied": "alice", "french": "bob"}, accept=False, spectators=False
    )

    detail = get(bob_client, data["id"], "")

    assert detail.status_code == 200
    assert detail.json()["redacted"] is False
    assert {s["role"]: s["pending"] for s in detail.json()["seats"]}["french"] is True


def test_a_creator_without_a_seat_reads_detail_verify_and_clock_but_no_view(
    api: Any, mallory_client: APIClient, alice: User, bob: User
) -> None:
    data = api.create_game(mallory_client, {"allied": "alice", "french": "bob"}, spectators=False)

    for part in ("", "/verify", "/deadline"):
        assert get(mallory_client, data["id"], part).status_code == 200, part
    for part in ("/view", "/events"):
        assert get(mallory_client, data["id"], part).status_code == 403, part


def test_the_open_listing_shows_a_private_game_only_as_far_as_joining_needs(
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
) -> None:
    private = api.create_game(
        alice_client, {"allied": "alice", "french": None}, spectators=False, title="Secret"
    )

    listed = {g["id"]: g for g in mallory_client.get("/api/v1/games", {"open": 1}).json()}

    row = listed[private["id"]]
    assert row["redacted"] is True
    assert row["title"] == "Secret"
    assert row["spectators"] is False
    assert row["seats"] == [
        {"role": "allied", "team": "AL", "username": None, "pending": False, "open": False},
        {"role": "french", "team": "F", "username": None, "pending": False, "open": True},
    ]
    assert row["head_seq"] is None
    assert row["seed_commitment"] is None
    assert row["active_roles"] == []
    assert "alice" not in str(row)
    # a member sees it whole
    mine = {g["id"]: g for g in alice_client.get("/api/v1/games").json()}[private["id"]]
    assert mine["redacted"] is False
    assert mine["seats"][0]["username"] == "alice"
    assert mine["head_seq"] == 1
    # and anyone may take the open seat; from then on they are a member
    joined = bob_client.post(f"/api/v1/games/{private['id']}/seats/french/join")
    assert joined.status_code == 200
    assert joined.json()["redacted"] is False
    assert get(bob_client, private["id"], "").status_code == 200
    assert get(bob_client, private["id"], "/view").status_code == 200


def test_a_declined_invitee_is_no_member_any_more(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = api.create_game(
        alice_client, {"allied": "alice", "french": "bob"}, accept=False, spectators=False
    )
    bob_client.post(f"/api/v1/games/{data['id']}/seats/french/decline")

    assert get(bob_client, data["id"], "").status_code == 403
    assert get(bob_client, data["id"], "/verify").status_code == 403
