"""An umpired Valour & Fortitude game played whole over the API (issue 17, "Tests"): two players
and two umpires (a game may have several: the deputy is a co-umpire and answers every other
umpire prompt), gunicorn, a Celery worker applying every order, PostgreSQL and Redis.

The players send their sealed order sheets and the umpire answers the engine's prompts over HTTP
(`POST .../actions`, the intake polled until applied); which order, the engine's own random
player chooses on the state the server stored (the automatic umpire confirms every proposal), as
the other whole-game tests' oracles do. Along the way the umpire overrides one proposed fact
(`.correction`, read from the umpire's own view of the pending proposals) and issues one ruling
for side A only, which A reads in its events and B never sees. The game ends at the scenario's
turn limit with a result; then the log replays and `manage.py pbem_verify` passes."""

from __future__ import annotations

import random  # noqa: TID251  (an outside client's seeds, need not replay the engine)
import time
from functools import partial
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import QuerySet
from rest_framework.authtoken.models import Token

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from games.core.umpire import CORRECTION_KIND, RULING_KIND, UMPIRE
from pbem.notify.models import Notification
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.integration.api_only_client import ApiClient, Player, check_operations
from tests.integration.it_helpers import assert_log_sound, report, users
from tests.integration.private_postgres import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

MAX_ORDERS = 600  # two turns a side of the starter scenario take about 60 orders
RULING = "The hedge by the farm counts as a linear obstacle for the rest of the game."


def send(player: Player, game_id: str, role: str, kind: str, payload: Any) -> dict[str, Any]:
    """One order over HTTP, waited for until the worker applied it."""
    body = {"role": role, "kind": kind, "payload": payload}
    response = player.client.post(f"/api/v1/games/{game_id}/actions", body)
    assert response.status_code in (201, 202), f"{body} -> {response.text}"
    intake = response.json()["intake"]
    outcome: dict[str, Any] = player.wait(intake["id"]) if response.status_code == 202 else intake
    assert outcome["status"] == "applied", f"{body} -> {outcome}"
    player.orders += 1
    return outcome


def _more_than_one(rows: QuerySet[Notification]) -> bool:
    return rows.count() > 1


def flipped(pending: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A correction of the first proposed yes/no fact: the umpire rules the other way."""
    for fact in pending:
        if fact.get("kind") == "bool":
            reason = f"measured on the table: {fact['note'] or fact['fact']}"[:200]
            return {"fact": fact["key"], "value": not fact["value"], "reason": reason}
    return None


def test_an_umpired_vf_game_over_the_api(
    running_worker: Any, web: str, capsys: pytest.CaptureFixture[str]
) -> None:
    check_operations(web)
    side_a, side_b, umpire, deputy = users("vfu_", 4)
    clients = {
        u.username: ApiClient(web, Token.objects.get_or_create(user=u)[0].key)
        for u in (side_a, side_b, umpire, deputy)
    }
    created = clients[side_a.username].post(
        "/api/v1/games",
        {
            "ruleset": "valour_fortitude",
            "scenario": "starter",
            "options": {"turn_limit": 2},
            "seats": {"A": side_a.username, "B": side_b.username, UMPIRE: umpire.username},
            "co_umpires": [deputy.username],
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for role, user in (("B", side_b), (UMPIRE, umpire), (UMPIRE, deputy)):
        accepted = clients[user.username].post(f"/api/v1/games/{game_id}/seats/{role}/accept", None)
        assert accepted.status_code == 200, accepted.text
    players = {
        role: Player(clients[user.username], game_id, role, random.Random(n))
        for n, (role, user) in enumerate((("A", side_a), ("B", side_b), (UMPIRE, umpire)))
    }
    second = Player(clients[deputy.username], game_id, UMPIRE, random.Random(3))

    ruleset = ruleset_get("valour_fortitude")
    rng = Rng(17)
    corrected: dict[str, Any] | None = None
    ruled = False
    started = time.monotonic()
    for _ in range(MAX_ORDERS):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            break
        state = state_at(game, game.head_seq, verify=False)
        role = sorted(ruleset.prompts(state))[0]
        if role == UMPIRE and corrected is None:
            seen = players[UMPIRE].client.get(f"/api/v1/games/{game_id}/view?role=%40umpire")
            corrected = flipped(seen["view"]["pending"] or [])
            if corrected is not None:
                send(players[UMPIRE], game_id, UMPIRE, CORRECTION_KIND, corrected)
                continue
        if role == UMPIRE and corrected is not None and not ruled:
            ruling = {"text": RULING, "rule": "VF-187", "audience": ["A"]}
            send(players[UMPIRE], game_id, UMPIRE, RULING_KIND, ruling)
            ruled = True
            continue
        action = random_legal_action(ruleset, state, role, rng)
        assert action is not None, f"{role} is prompted but the engine offers nothing"
        sender = players[role]
        if role == UMPIRE and (players[UMPIRE].orders + second.orders) % 2:
            sender = second  # either umpire may answer
        send(sender, game_id, role, action.kind, action.payload)
    else:
        raise AssertionError(f"the game did not end within {MAX_ORDERS} orders")
    seconds = time.monotonic() - started

    assert corrected is not None, "the umpire was never asked about a yes/no fact"
    assert ruled
    assert second.orders > 0
    for each in (umpire, deputy):  # both umpires are told when the rules wait for the umpire
        told = Notification.objects.filter(game_id=game_id, user=each, kind="your_turn")
        wait_until(partial(_more_than_one, told), 120, f"news for {each.username}")
    result = players["B"].client.get(f"/api/v1/games/{game_id}/view?role=B")["result"]
    assert result is not None

    # the ruling: in A's events, the umpire's; B never learns it exists
    def lines(role: str) -> list[str]:
        events = players[role].client.get(f"/api/v1/games/{game_id}/events?role={role}")
        return [line for e in events for line in e["lines"]]

    assert any(RULING in line for line in lines("A"))
    assert any(RULING in line for line in lines(UMPIRE))
    assert not any(RULING in line for line in lines("B"))
    kinds = [e["kind"] for e in players["B"].client.get(f"/api/v1/games/{game_id}/events?role=B")]
    assert RULING_KIND not in kinds
    assert CORRECTION_KIND in [
        e["kind"]
        for e in players[UMPIRE].client.get(f"/api/v1/games/{game_id}/events?role=%40umpire")
    ]

    head = assert_log_sound(game_id)
    out = StringIO()
    call_command("pbem_verify", game_id, stdout=out)
    assert "verification OK" in out.getvalue(), out.getvalue()
    orders = sum(p.orders for p in players.values()) + second.orders
    umpires = f"umpire {players[UMPIRE].orders}, co-umpire {second.orders}"
    report(
        capsys,
        f"umpired V&F over the API: {orders} orders ({umpires}), head "
        f"{head}, result {result['winners']} ({result['summary']}), {seconds:.1f} s",
    )
