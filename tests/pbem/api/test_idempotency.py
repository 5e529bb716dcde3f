"""Idempotency-Key: the same key with the same order gets the first answer
again; with another order it is a 422 `idempotency_key_reused` naming the first intake, and
nothing is stored. Intakes stored before the request hash existed keep the old behaviour."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.canonical import state_hash
from games.core.protocol import Action
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services import orders

KEY = {"Idempotency-Key": "order-1"}


def _reused(response: Any, first_intake: str) -> None:
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["code"] == "idempotency_key_reused"
    assert body["intake"] == first_intake
    assert first_intake in body["detail"]
    assert body["errors"][0]["rule"] == "idempotency_key_reused"


def test_the_same_key_and_order_answers_as_before_and_stores_the_hash(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **KEY)
    again = api.submit(alice_client, game["id"], action, **KEY)

    assert first.status_code == again.status_code == 201
    assert again.json()["intake"]["id"] == first.json()["intake"]["id"]
    intake = OrderIntake.objects.get()
    expected = {
        "game": game["id"],
        "role": "allied",
        "kind": action.kind,
        "payload": action.payload,
    }
    assert intake.request_hash == state_hash(expected)
    assert Event.objects.filter(game_id=game["id"]).count() == 2


def test_the_same_key_with_another_order_is_a_422_and_stores_nothing(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **KEY)
    assert first.status_code == 201
    first_id = first.json()["intake"]["id"]

    other = Action("allied", "allied_setup", {"corps": []})
    _reused(api.submit(alice_client, game["id"], other, **KEY), first_id)
    assert OrderIntake.objects.count() == 1
    assert api.head_seq(game["id"]) == 2


def test_the_key_is_reused_when_only_the_payload_order_is_the_same(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    """Canonical JSON: the same payload with its keys in another order is the same request."""
    url = f"/api/v1/games/{game['id']}/actions"
    one = '{"kind": "allied_setup", "payload": {"corps": []}, "role": "allied"}'
    two = '{"role": "allied", "payload": {"corps": []}, "kind": "allied_setup"}'
    first = alice_client.post(url, data=one, content_type="application/json", headers=KEY)
    second = alice_client.post(url, data=two, content_type="application/json", headers=KEY)
    assert first.status_code == second.status_code == 422
    assert second.json()["code"] == "order_rejected"
    assert second.json()["intake"] == first.json()["intake"]


def test_leaving_the_role_out_is_the_same_request(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **KEY)
    url = f"/api/v1/games/{game['id']}/actions"
    body = {"kind": action.kind, "payload": action.payload}
    again = alice_client.post(url, body, format="json", headers=KEY)
    assert again.status_code == 201
    assert again.json()["intake"]["id"] == first.json()["intake"]["id"]


def test_a_refused_order_retried_with_another_body_is_reused_not_the_refusal(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    bad = Action("allied", "allied_setup", {"corps": []})
    first = api.submit(alice_client, game["id"], bad, **KEY)
    assert first.status_code == 422
    assert first.json()["code"] == "order_rejected"

    good = api.random_action(game["id"], "allied")
    _reused(api.submit(alice_client, game["id"], good, **KEY), first.json()["intake"])
    assert api.head_seq(game["id"]) == 1


def test_the_same_key_in_another_game_is_reused(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    other = api.create_game(alice_client, {"allied": "alice", "french": None})
    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **KEY)
    _reused(api.submit(alice_client, other["id"], action, **KEY), first.json()["intake"]["id"])
    assert api.head_seq(other["id"]) == 1


def test_keys_are_per_user(
    api: Any, alice_client: APIClient, mallory_client: APIClient, mallory: User
) -> None:
    mine = api.create_game(alice_client, {"allied": "alice", "french": None})
    theirs = api.create_game(mallory_client, {"allied": "mallory", "french": None})
    a = api.submit(alice_client, mine["id"], api.random_action(mine["id"], "allied"), **KEY)
    m = api.submit(mallory_client, theirs["id"], api.random_action(theirs["id"], "allied"), **KEY)
    assert a.status_code == m.status_code == 201
    assert OrderIntake.objects.count() == 2


def test_an_old_intake_without_a_hash_answers_any_retry_as_before(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **KEY)
    OrderIntake.objects.update(request_hash="")  # stored before the hash existed

    other = Action("allied", "allied_setup", {"corps": []})
    again = api.submit(alice_client, game["id"], other, **KEY)
    assert again.status_code == 201
    assert again.json()["intake"]["id"] == first.json()["intake"]["id"]
    assert OrderIntake.objects.count() == 1


def test_a_raced_key_with_another_order_is_reused(
    api: Any,
    alice: User,
    alice_client: APIClient,
    game: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two requests with one key pass the first look-up together; the second one to insert hits
    the unique constraint and must compare the hashes too (the race path in _intake_create)."""
    g = Game.objects.get(pk=game["id"])
    real = ruleset_get(g.ruleset_id)
    racer: dict[str, OrderIntake] = {}

    class Racing:
        """The real ruleset; the other request stores its intake during the first's checks."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def payload_errors(self, kind: str, payload: Any) -> Any:
            if not racer:
                racer["intake"] = OrderIntake.objects.create(
                    game=g,
                    role="allied",
                    user=alice,
                    kind="end_turn",
                    payload={},
                    source="api",
                    idempotency_key=KEY["Idempotency-Key"],
                    request_hash=orders.request_hash(g, "allied", "end_turn", {}),
                    head_seq=1,
                )
            return real.payload_errors(kind, payload)

    monkeypatch.setattr(orders, "ruleset_get", lambda ruleset_id: Racing())
    action = api.random_action(game["id"], "allied")
    response = api.submit(alice_client, game["id"], action, **KEY)

    _reused(response, str(racer["intake"].pk))
    assert OrderIntake.objects.count() == 1
    assert api.head_seq(game["id"]) == 1
