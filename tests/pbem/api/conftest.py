"""API test fixtures: a cast of users with tokens (alice and bob play, mallory is an outsider),
token-authenticated clients, a small Napoleon's Triumph game, and helpers to play it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import registry
from games.core.protocol import Action
from games.core.rng import Rng
from pbem.play.models import Game
from pbem.play.services.log import state_at

RULESET = registry.get("napoleons_triumph")
SMALL = {"board": "austerlitz"}
SCENARIO = "DEC2"


def client_for(user: User) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture(autouse=True)
def _commit_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run inside a transaction that never commits, so on_commit callbacks would never fire.
    Run them at once, as they would in autocommit mode on a real server (eager Celery: the
    order is applied inside the request and the API answers 201)."""

    def run_now(func: Callable[[], object], using: str | None = None, robust: bool = False) -> None:
        func()

    monkeypatch.setattr(transaction, "on_commit", run_now)


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.org", "pw-alice")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.org", "pw-bob")


@pytest.fixture
def mallory(db: None) -> User:
    return User.objects.create_user("mallory", "mallory@example.org", "pw-mallory")


@pytest.fixture
def alice_client(alice: User) -> APIClient:
    return client_for(alice)


@pytest.fixture
def bob_client(bob: User) -> APIClient:
    return client_for(bob)


@pytest.fixture
def mallory_client(mallory: User) -> APIClient:
    return client_for(mallory)


class Api:
    """Helpers for driving games through the API (a fixture: test modules cannot import)."""

    scenario = SCENARIO
    options = SMALL

    @staticmethod
    def create_game(
        client: APIClient, seats: dict[str, str | None], accept: bool = True, **extra: Any
    ) -> dict[str, Any]:
        """Create a game through the API; with `accept` (the default) every invited user accepts
        their seat at once and the answer is the game as the creator sees it then."""
        body: dict[str, Any] = {
            "ruleset": "napoleons_triumph",
            "scenario": SCENARIO,
            "options": SMALL,
            "seats": seats,
        }
        body.update(extra)
        response = client.post("/api/v1/games", body, format="json")
        assert response.status_code == 201, response.content
        data: dict[str, Any] = response.json()
        pending = [s for s in data["seats"] if s["pending"]]
        if not accept or not pending:
            return data
        for seat in pending:
            invited = client_for(User.objects.get(username=seat["username"]))
            answer = invited.post(f"/api/v1/games/{data['id']}/seats/{seat['role']}/accept")
            assert answer.status_code == 200, answer.content
        again: dict[str, Any] = client.get(f"/api/v1/games/{data['id']}").json()
        return again

    @staticmethod
    def random_action(game_id: str, role: str, salt: int = 0) -> Action:
        """A legal action for `role`, chosen by the engine on the state read back from the DB."""
        g = Game.objects.get(pk=game_id)
        state = state_at(g, g.head_seq)
        rng = Rng.for_event(b"api-tests".ljust(32, b"."), salt)
        action = RULESET.random_action(state, role, rng)
        assert action is not None
        return action

    @staticmethod
    def submit(client: APIClient, game_id: str, action: Action, **headers: str) -> Any:
        body = {"role": action.role, "kind": action.kind, "payload": action.payload}
        url = f"/api/v1/games/{game_id}/actions"
        return client.post(url, body, format="json", headers=headers)

    @staticmethod
    def head_seq(game_id: str) -> int:
        return Game.objects.get(pk=game_id).head_seq

    def play(self, clients: dict[str, APIClient], game_id: str, steps: int) -> list[Any]:
        """Play `steps` random legal actions, each by the client of the prompted role."""
        answers = []
        for i in range(steps):
            g = Game.objects.get(pk=game_id)
            role = g.active_roles[0]
            response = self.submit(clients[role], game_id, self.random_action(game_id, role, i))
            assert response.status_code == 201, response.content
            answers.append(response)
        return answers


@pytest.fixture
def api() -> Api:
    return Api()


@pytest.fixture
def game(api: Api, alice_client: APIClient, bob: User) -> dict[str, Any]:
    """Alice commands the Allies, Bob the French (he accepted Alice's invitation, so the game
    has started); the Allies set up first."""
    return api.create_game(alice_client, {"allied": "alice", "french": "bob"}, title="Austerlitz")
