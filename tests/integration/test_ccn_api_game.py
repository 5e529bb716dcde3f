"""Commands & Colors: Napoleonics played whole over the API (issue 16, "Tests"): the example
scenario of the digest (section 9) on gunicorn, a Celery worker applying every order, PostgreSQL
and Redis. Each order goes over HTTP as an outside client sends it (`POST .../actions`, then the
intake polled until applied); which order, the engine's own random player chooses on the state
the server stored (as the mail and browser tests' oracles do: a uniformly random client takes
thousands of orders to reach a result, the engine's player, which marches on the enemy, a few
hundred). The game ends with a side's victory banners; the log then replays and verifies."""

from __future__ import annotations

import random  # noqa: TID251  (an outside client: seeded, need not replay the engine)
import time
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.integration.api_only_client import ApiClient, Player, check_operations
from tests.integration.it_helpers import assert_log_sound, report, users

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SCENARIO = "example-ford-of-santa-clara"
MAX_ORDERS = 2000  # the engine's player ends the example in about 280 orders (the fuzz's mean)


def play_to_the_end(players: dict[str, Player], game_id: str, rng: Rng) -> int:
    """Each order: the prompted seat, the engine's random choice on the stored head state, sent
    over HTTP and applied by the worker. Returns the number of orders."""
    ruleset = ruleset_get("commands_colors_napoleonics")
    for n in range(MAX_ORDERS):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            return n
        state = state_at(game, game.head_seq, verify=False)
        role = sorted(ruleset.prompts(state))[0]
        action = random_legal_action(ruleset, state, role, rng)
        assert action is not None, f"{role} is prompted but the engine offers nothing"
        player = players[role]
        body = {"role": role, "kind": action.kind, "payload": action.payload}
        response = player.client.post(f"/api/v1/games/{game_id}/actions", body)
        assert response.status_code in (201, 202), f"{body} -> {response.text}"
        intake = response.json()["intake"]
        outcome = player.wait(intake["id"]) if response.status_code == 202 else intake
        assert outcome["status"] == "applied", f"{body} -> {outcome}"
        player.orders += 1
    raise AssertionError(f"the game did not end within {MAX_ORDERS} orders")


def test_a_whole_ccn_game_over_the_api(
    running_worker: Any, web: str, capsys: pytest.CaptureFixture[str]
) -> None:
    check_operations(web)
    top, bottom = users("ccn_", 2)
    clients = {
        u.username: ApiClient(web, Token.objects.get_or_create(user=u)[0].key)
        for u in (top, bottom)
    }
    created = clients[top.username].post(
        "/api/v1/games",
        {
            "ruleset": "commands_colors_napoleonics",
            "scenario": SCENARIO,
            "options": {},
            "seats": {"top": top.username, "bottom": bottom.username},
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    accepted = clients[bottom.username].post(f"/api/v1/games/{game_id}/seats/bottom/accept", None)
    assert accepted.status_code == 200, accepted.text

    # a hand is secret: each seat's view lists its own cards and only the other's count
    views = {
        role: clients[u.username].get(f"/api/v1/games/{game_id}/view?role={role}")["view"]
        for role, u in (("top", top), ("bottom", bottom))
    }
    for role, other in (("top", "bottom"), ("bottom", "top")):
        seats = views[role]["deck"]["seats"]
        assert "hand" in seats[role], seats
        assert "hand" not in seats[other], seats

    players = {
        "top": Player(clients[top.username], game_id, "top", random.Random(1)),
        "bottom": Player(clients[bottom.username], game_id, "bottom", random.Random(2)),
    }
    started = time.monotonic()
    orders = play_to_the_end(players, game_id, Rng(16))
    seconds = time.monotonic() - started
    game = clients[top.username].get(f"/api/v1/games/{game_id}")
    assert game["status"] == "finished"
    result = clients[bottom.username].get(f"/api/v1/games/{game_id}/view?role=bottom")["result"]
    assert result is not None
    assert result["winners"] in (["top"], ["bottom"]), result
    head = assert_log_sound(game_id)
    verified = clients[top.username].get(f"/api/v1/games/{game_id}/verify")
    assert verified["ok"] is True, verified
    report(
        capsys,
        f"C&C over the API: {orders} orders, head {head}, "
        f"winners {result['winners']} ({result['summary']}), {seconds:.1f} s",
    )
