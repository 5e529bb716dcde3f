"""A client that knows only the published API: HTTP, the OpenAPI document, and what the view's
prompt says (each action's JSON Schema and enumerated legal choices). It imports nothing from
`games` or `pbem` (test_http_only_client.py checks that), so it plays as an outside program would.
"""

from __future__ import annotations

import random  # noqa: TID251  (an outside client: seeded, need not replay the engine)
import time
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import requests

# the operations this client calls, as the OpenAPI document must name them
OPERATIONS = {
    ("post", "/api/v1/games"),
    ("get", "/api/v1/games/{game_id}"),
    ("post", "/api/v1/games/{game_id}/seats/{role}/accept"),
    ("get", "/api/v1/games/{game_id}/view"),
    ("post", "/api/v1/games/{game_id}/actions"),
    ("get", "/api/v1/intakes/{intake_id}"),
    ("get", "/api/v1/rulesets/{ruleset_id}/boards/{board}"),
}


@dataclass
class ApiClient:
    base: str
    token: str
    session: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.session.headers["Authorization"] = f"Token {self.token}"

    def get(self, path: str) -> Any:
        response = self.session.get(self.base + path, timeout=60)
        assert response.status_code == 200, f"GET {path}: {response.status_code} {response.text}"
        return response.json()

    def post(self, path: str, body: Any) -> requests.Response:
        return self.session.post(self.base + path, json=body, timeout=60)


def check_operations(base: str) -> dict[str, Any]:
    """The OpenAPI document, after checking it publishes every operation this client uses."""
    schema: dict[str, Any] = requests.get(f"{base}/api/schema/?format=json", timeout=60).json()
    published = {(m, p) for p, ops in schema["paths"].items() for m in ops}
    missing = OPERATIONS - published
    assert not missing, f"the OpenAPI document lacks {sorted(missing)}"
    return schema


@dataclass
class Player:
    """One seat's player: reads its view, picks a random listed action and payload, sends it."""

    client: ApiClient
    game_id: str
    role: str
    rng: random.Random
    orders: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def act(self) -> bool:
        """One order if this seat is prompted now; False when it is not."""
        view = self.client.get(f"/api/v1/games/{self.game_id}/view?role={self.role}")
        prompt = view["prompt"]
        if prompt is None:
            return False
        offered = [
            a
            for a in prompt["actions"]
            if not a["any_time"] and a["choices"] and a["choices"]["payloads"]
        ]
        assert offered, f"{self.role} is prompted but offered no listed order: {prompt}"
        action = self.rng.choice(offered)
        payload = self.rng.choice(action["choices"]["payloads"])
        jsonschema.validate(payload, action["schema"])  # the listed choice fits its schema
        body = {"role": self.role, "kind": action["kind"], "payload": payload}
        response = self.client.post(f"/api/v1/games/{self.game_id}/actions", body)
        assert response.status_code in (201, 202), f"{body} -> {response.text}"
        intake = response.json()["intake"]
        outcome = self.wait(intake["id"]) if response.status_code == 202 else intake
        assert outcome["status"] == "applied", f"{body} -> {outcome}"
        self.orders += 1
        self.kinds[action["kind"]] = self.kinds.get(action["kind"], 0) + 1
        return True

    def wait(self, intake_id: str, seconds: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            out: dict[str, Any] = self.client.get(f"/api/v1/intakes/{intake_id}")
            if out["status"] != "received":
                return out
            time.sleep(0.02)
        raise AssertionError(f"intake {intake_id} still received after {seconds} s")


def play_to_the_end(players: list[Player], max_orders: int = 3000) -> dict[str, Any]:
    """Let the players act in turn until the game is finished; returns the game's detail."""
    watcher = players[0]
    for _ in range(max_orders):
        game: dict[str, Any] = watcher.client.get(f"/api/v1/games/{watcher.game_id}")
        if game["status"] == "finished":
            return game
        acted = [p.act() for p in players if p.role in game["active_roles"]]
        assert any(acted), f"nobody could act: active {game['active_roles']}"
    raise AssertionError(f"the game did not end within {max_orders} orders")
