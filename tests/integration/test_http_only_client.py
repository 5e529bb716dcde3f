"""A client written only against the OpenAPI document plays a whole game.

The players (tests/integration/api_only_client.py) know nothing but HTTP: they create the game,
accept the invitation, read the board and each view, and choose every order at random among the
choices the prompt enumerates, for both seats, until the game is finished. The worker process
applies every order. Only the users and their tokens are made directly in the database (sign-up
needs a mailbox)."""

from __future__ import annotations

import random  # noqa: TID251  (an outside client: seeded, need not replay the engine)
import time
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.integration import api_only_client as client_module
from tests.integration.api_only_client import (
    ApiClient,
    Player,
    check_operations,
    play_to_the_end,
)
from tests.integration.it_helpers import assert_log_sound, imported_roots, users

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_client_imports_nothing_of_the_server() -> None:
    roots = imported_roots(client_module.__file__)
    assert roots <= {
        "__future__",
        "random",
        "time",
        "dataclasses",
        "typing",
        "jsonschema",
        "requests",
    }, roots


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_by_a_client_that_knows_only_the_api(
    seed: int, running_worker: Any, web: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = web
    check_operations(base)
    allied, french = users(f"hc{seed}_", 2)
    clients = {
        u.username: ApiClient(base, Token.objects.get_or_create(user=u)[0].key)
        for u in (allied, french)
    }
    created = clients[allied.username].post(
        "/api/v1/games",
        {
            "ruleset": "napoleons_triumph",
            "scenario": "DEC2",
            "options": {"board": "austerlitz"},
            "seats": {"allied": allied.username, "french": french.username},
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    accepted = clients[french.username].post(f"/api/v1/games/{game_id}/seats/french/accept", None)
    assert accepted.status_code == 200, accepted.text
    board = clients[french.username].get("/api/v1/rulesets/napoleons_triumph/boards/austerlitz")
    assert board["locales"]
    assert board["approaches"]

    rng = random.Random(seed)
    players = [
        Player(clients[allied.username], game_id, "allied", random.Random(rng.random())),
        Player(clients[french.username], game_id, "french", random.Random(rng.random())),
    ]
    started = time.monotonic()
    game = play_to_the_end(players)
    seconds = time.monotonic() - started

    assert game["status"] == "finished"
    assert all(p.orders > 0 for p in players)
    head = assert_log_sound(game_id)
    kinds: dict[str, int] = {}
    for p in players:
        for k, n in p.kinds.items():
            kinds[k] = kinds.get(k, 0) + n
    with capsys.disabled():
        print(  # noqa: T201
            f"\n[integration] api-only client, seed {seed}: "
            f"{sum(p.orders for p in players)} orders "
            f"({', '.join(f'{p.role} {p.orders}' for p in players)}), head {head}, "
            f"{seconds:.1f} s; kinds {dict(sorted(kinds.items()))}"
        )
