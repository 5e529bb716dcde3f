"""NT-TEAM: team roles (rulebook chapter 19) are not built, so a game whose
`options.roles` gives a side more than one role is refused with 400 naming NT-TEAM, whichever
roles the seats name; a renaming with one role per side still creates its seats."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from pbem.play.models import Game, Seat

TEAM = {"allied-1": "AL", "allied-2": "AL", "french": "F"}


def create(client: APIClient, roles: dict[str, str], seats: dict[str, str | None]) -> Any:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz", "roles": roles},
        "seats": seats,
    }
    return client.post("/api/v1/games", body, format="json")


@pytest.mark.parametrize("seats", [{"allied": "alice"}, {"allied-1": "alice"}, {}])
def test_team_roles_are_a_400_naming_nt_team(
    alice_client: APIClient, alice: User, seats: dict[str, str | None]
) -> None:
    response = create(alice_client, TEAM, seats)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "bad_game"
    assert "NT-TEAM" in body["detail"]
    assert "/options/roles" in body["detail"]
    assert "team play" in body["detail"]
    assert not Game.objects.exists()


def test_one_role_per_side_is_honoured(alice_client: APIClient, alice: User) -> None:
    response = create(alice_client, {"red": "AL", "blue": "F"}, {"red": "alice"})
    assert response.status_code == 201, response.content
    game = Game.objects.get()
    assert sorted(Seat.objects.filter(game=game).values_list("role", flat=True)) == [
        "blue",
        "red",
    ]
    assert game.active_roles == ["red"]
