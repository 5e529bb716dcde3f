"""Team roles (rulebook chapter 19). Without `options.team_play` a game whose `options.roles`
gives a side more than one role is refused with 400 naming NT-TEAM, whichever roles the seats
name; a renaming with one role per side still creates its seats. With `team_play` a team game is
created with a seat per role, and played through the API nobody but its author ever lists a
written order's event."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from pbem.play.models import Event, Game, Seat
from pbem.play.services.log import state_at
from tests.pbem.api.conftest import client_for

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
    assert "team_play" in body["detail"]
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


def test_a_team_game_is_played_through_the_api_and_written_orders_stay_their_authors(
    alice_client: APIClient, alice: User, bob: User
) -> None:
    carol = User.objects.create_user("carol_t", "carol@example.com")
    dave = User.objects.create_user("dave_t", "dave@example.com")
    users = {"al1": alice, "al2": carol, "fr1": bob, "fr2": dave}
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {
            "board": "austerlitz",
            "team_play": True,
            "roles": {"al1": "AL", "al2": "AL", "fr1": "F", "fr2": "F"},
        },
        "seats": {role: u.username for role, u in users.items()},
    }
    created = alice_client.post("/api/v1/games", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    clients = {role: client_for(u) for role, u in users.items()}
    for role in ("al2", "fr1", "fr2"):
        answer = clients[role].post(f"/api/v1/games/{gid}/seats/{role}/accept")
        assert answer.status_code == 200, answer.content
    rng = Rng(3)
    for _ in range(400):
        game = Game.objects.get(pk=gid)
        if game.status != Game.Status.ACTIVE:
            break
        role = sorted(game.active_roles)[rng.below(len(game.active_roles))]
        state = state_at(game, game.head_seq)
        assert isinstance(state, GameState)
        action = RULESET.random_action(state, role, rng)
        assert action is not None, role
        order = {"role": role, "kind": action.kind, "payload": action.payload}
        answer = clients[role].post(f"/api/v1/games/{gid}/actions", order, format="json")
        assert answer.status_code == 201, answer.content
    written = Event.objects.filter(game_id=gid, kind="write_order")
    assert written.exists(), "no written order in 400 actions: pick another seed"
    authors = set(written.values_list("role", flat=True))
    for role, client in clients.items():
        events = client.get(f"/api/v1/games/{gid}/events?role={role}").json()
        listed = [e for e in events if e["kind"] == "write_order"]
        if role in authors:
            assert listed
            assert all(e["role"] == role for e in listed)
        else:
            assert listed == [], f"{role} lists a written order it did not write"
