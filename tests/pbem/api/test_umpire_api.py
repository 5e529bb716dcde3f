"""The umpire over the API: a game created with an `@umpire` seat (invited and accepted like any
seat); the umpire reads the omniscient view; a ruling is an action (`.ruling`) its audience alone
sees in the events; the queue endpoint answers; refusals name their UMP rule."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.protocol import OMNISCIENT
from games.core.umpire import RULING_KIND, UMPIRE
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.pbem.api.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def ursula(db: None) -> User:
    return User.objects.create_user("ursula_api", "ursula@example.com")


def _lines(client: APIClient, game_id: str) -> list[str]:
    events = client.get(f"/api/v1/games/{game_id}/events").json()
    return [line for e in events for line in e["lines"]]


def test_an_umpired_game_over_the_api(
    api: Any, alice_client: APIClient, bob_client: APIClient, ursula: User
) -> None:
    game = api.create_game(alice_client, {"allied": "alice", "french": "bob", UMPIRE: "ursula_api"})
    assert {s["role"] for s in game["seats"]} == {"allied", "french", UMPIRE}
    umpire = client_for(ursula)
    seen = umpire.get(f"/api/v1/games/{game['id']}/view").json()
    assert seen["role"] == UMPIRE
    g = Game.objects.get(pk=game["id"])
    inner = ruleset_get(g.ruleset_id).inner  # type: ignore[attr-defined]
    assert seen["view"] == inner.view(state_at(g, g.head_seq), OMNISCIENT)
    assert any(a["kind"] == RULING_KIND for a in seen["actions"])

    french_events = bob_client.get(f"/api/v1/games/{game['id']}/events").json()
    body = {
        "role": UMPIRE,
        "kind": RULING_KIND,
        "payload": {
            "text": "Reinforcements may enter late.",
            "rule": "NT-60",
            "audience": ["allied"],
        },
    }
    ruled = umpire.post(f"/api/v1/games/{game['id']}/actions", body, format="json")
    assert ruled.status_code == 201, ruled.content
    assert "Umpire's ruling on NT-60: Reinforcements may enter late." in _lines(
        alice_client, game["id"]
    )
    assert bob_client.get(f"/api/v1/games/{game['id']}/events").json() == french_events

    refused = alice_client.post(
        f"/api/v1/games/{game['id']}/actions",
        {"role": "allied", "kind": RULING_KIND, "payload": {"text": "mine"}},
        format="json",
    )
    assert refused.status_code == 422
    assert [e["rule"] for e in refused.json()["errors"]] == ["UMP-2"]
    action = api.random_action(game["id"], "allied")
    as_umpire = umpire.post(
        f"/api/v1/games/{game['id']}/actions",
        {"role": UMPIRE, "kind": action.kind, "payload": action.payload},
        format="json",
    )
    assert as_umpire.status_code == 422
    assert [e["rule"] for e in as_umpire.json()["errors"]] == ["UMP-4"]
    malformed = umpire.post(
        f"/api/v1/games/{game['id']}/actions",
        {"role": UMPIRE, "kind": RULING_KIND, "payload": {"text": ""}},
        format="json",
    )
    assert malformed.status_code == 400
    assert umpire.get("/api/v1/umpire/queue").json() == []
    Game.objects.filter(pk=game["id"]).update(active_roles=[UMPIRE])
    queue = umpire.get("/api/v1/umpire/queue").json()
    assert [q["game"] for q in queue] == [game["id"]]
    assert alice_client.get("/api/v1/umpire/queue").json() == []
