"""Submitting actions and reading intakes: every status code of the order endpoint."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from games.core.protocol import Action
from pbem.play.models import Event, Game, OrderIntake


def test_an_order_applied_at_once_answers_201_with_the_event(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["event"] == {"seq": 2, "kind": "allied_setup"}
    assert body["intake"]["status"] == "applied"
    assert body["intake"]["event_seq"] == 2
    assert body["intake"]["game"] == game["id"]
    assert body["intake"]["role"] == "allied"
    assert api.head_seq(game["id"]) == 2
    assert Event.objects.get(game_id=game["id"], seq=2).source == "api"


def test_the_role_may_be_left_out_when_the_caller_holds_one(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    response = alice_client.post(
        f"/api/v1/games/{game['id']}/actions",
        {"kind": action.kind, "payload": action.payload},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["intake"]["role"] == "allied"


def test_acting_for_someone_elses_seat_is_a_403(
    api: Any, bob_client: APIClient, mallory_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")

    response = api.submit(bob_client, game["id"], action)  # Bob holds the French seat
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_seat"

    outsider = mallory_client.post(
        f"/api/v1/games/{game['id']}/actions",
        {"kind": action.kind, "payload": action.payload},
        format="json",
    )
    assert outsider.status_code == 403
    assert api.head_seq(game["id"]) == 1


def test_acting_out_of_turn_is_a_409_with_the_rule(
    api: Any, bob_client: APIClient, game: dict[str, Any]
) -> None:
    response = api.submit(bob_client, game["id"], Action("french", "french_setup", {"corps": []}))

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "not_your_turn"
    assert body["errors"]
    assert set(body["errors"][0]) == {"rule", "message", "path"}
    assert api.head_seq(game["id"]) == 1


def test_an_illegal_order_is_a_422_with_the_rule_and_changes_nothing(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    response = api.submit(alice_client, game["id"], Action("allied", "allied_setup", {"corps": []}))

    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "order_rejected"
    assert body["errors"]
    assert all(e["rule"].startswith("NT-") for e in body["errors"])
    assert set(body["errors"][0]) == {"rule", "message", "path"}
    intake = OrderIntake.objects.get(pk=body["intake"])
    assert intake.status == OrderIntake.Status.REJECTED
    assert api.head_seq(game["id"]) == 1
    assert Event.objects.filter(game_id=game["id"]).count() == 1

    unknown_kind = api.submit(alice_client, game["id"], Action("allied", "bogus", None))
    assert unknown_kind.status_code == 422
    assert unknown_kind.json()["code"] == "unknown_kind"
    assert unknown_kind.json()["errors"][0]["rule"] == "unknown_kind"
    assert OrderIntake.objects.count() == 1  # an unknown kind is not stored


@pytest.mark.parametrize(
    "payload", [None, "x", 5, [1, 2], {"corps": "x"}, {"corps": [1]}, {"corps": [{}]}, [[[]]]]
)
def test_odd_payloads_are_refused_never_a_500(
    api: Any, alice_client: APIClient, game: dict[str, Any], payload: Any
) -> None:
    """Off the kind's schema: a 400 `invalid_payload` naming the field; illegal: a 422."""
    response = api.submit(alice_client, game["id"], Action("allied", "allied_setup", payload))
    assert response.status_code in (400, 422), response.content
    body = response.json()
    assert body["code"] == ("invalid_payload" if response.status_code == 400 else "order_rejected")
    assert body["errors"]
    assert all(e["path"].startswith("/payload") for e in body["errors"] if e["rule"] == "schema")


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("{not json", "application/json"),
        ('{"kind": "end_turn", "payload": {}', "application/json"),
        ("[]", "application/json"),
        ('"end_turn"', "application/json"),
        ('{"payload": {}}', "application/json"),
        ('{"kind": "end_turn"}', "application/json"),
        ('{"kind": 5, "payload": {}}', "application/json"),
        ('{"kind": true, "payload": {}}', "application/json"),
        ('{"kind": "end_turn", "payload": {}, "role": 3}', "application/json"),
        ('{"kind": "end_turn", "payload": {}, "role": ["allied"]}', "application/json"),
        ('{"kind": "' + "x" * 100 + '", "payload": {}}', "application/json"),
    ],
)
def test_a_malformed_body_is_a_400(
    api: Any, alice_client: APIClient, game: dict[str, Any], data: str, content_type: str
) -> None:
    url = f"/api/v1/games/{game['id']}/actions"
    response = alice_client.post(url, data=data, content_type=content_type)
    assert response.status_code == 400, response.content
    assert api.head_seq(game["id"]) == 1


def test_an_unsupported_media_type_is_a_415(alice_client: APIClient, game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}/actions"
    response = alice_client.post(url, data="kind=end_turn", content_type="text/plain")
    assert response.status_code == 415


def test_an_order_for_an_unknown_game_is_a_404(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    response = api.submit(alice_client, str(uuid.uuid4()), action)
    assert response.status_code == 404


def test_an_order_in_a_finished_game_is_a_409(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    Game.objects.filter(pk=game["id"]).update(status=Game.Status.FINISHED)

    response = api.submit(alice_client, game["id"], action)
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_active"


def test_the_same_idempotency_key_twice_makes_one_event(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")

    first = api.submit(alice_client, game["id"], action, **{"Idempotency-Key": "k-1"})
    second = api.submit(alice_client, game["id"], action, **{"Idempotency-Key": "k-1"})

    assert first.status_code == 201
    assert second.status_code == 201
    assert second.json()["intake"]["id"] == first.json()["intake"]["id"]
    assert Event.objects.filter(game_id=game["id"]).count() == 2
    assert OrderIntake.objects.count() == 1


def test_a_repeated_key_for_a_refused_order_repeats_the_refusal(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    bad = Action("allied", "allied_setup", {"corps": []})
    first = api.submit(alice_client, game["id"], bad, **{"Idempotency-Key": "k-2"})
    second = api.submit(alice_client, game["id"], bad, **{"Idempotency-Key": "k-2"})
    assert first.status_code == second.status_code == 422
    assert second.json()["intake"] == first.json()["intake"]
    assert second.json()["errors"] == first.json()["errors"]


def test_a_repeated_key_for_an_order_out_of_turn_repeats_the_409(
    api: Any, bob_client: APIClient, game: dict[str, Any]
) -> None:
    early = Action("french", "french_setup", {"corps": []})
    first = api.submit(bob_client, game["id"], early, **{"Idempotency-Key": "k-3"})
    second = api.submit(bob_client, game["id"], early, **{"Idempotency-Key": "k-3"})

    assert first.status_code == second.status_code == 409
    assert first.json()["code"] == second.json()["code"] == "not_your_turn"
    assert second.json()["errors"] == first.json()["errors"]
    assert api.head_seq(game["id"]) == 1


def test_an_overlong_idempotency_key_is_a_400(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    action = api.random_action(game["id"], "allied")
    response = api.submit(alice_client, game["id"], action, **{"Idempotency-Key": "k" * 121})
    assert response.status_code == 400
    assert response.json()["errors"][0]["rule"] == "idempotency_key_too_long"
    assert not OrderIntake.objects.exists()


def test_an_order_waiting_for_a_worker_is_a_202(
    api: Any,
    alice_client: APIClient,
    game: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a broker the worker applies the order later: the API answers 202 with the intake,
    and the intake endpoint shows the outcome once the worker ran."""
    queued: list[Any] = []
    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: None)
    monkeypatch.setattr(
        "pbem.play.tasks.order_apply_task.delay", lambda intake_id: queued.append(intake_id)
    )
    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))

    assert response.status_code == 202, response.content
    intake = response.json()["intake"]
    assert response.json()["event"] is None
    assert intake["status"] == "received"
    assert intake["event_seq"] is None

    from pbem.play.services.orders import order_apply

    order_apply(intake_id=intake["id"])
    later = alice_client.get(f"/api/v1/intakes/{intake['id']}")
    assert later.status_code == 200
    assert later.json()["status"] == "applied"
    assert later.json()["event_seq"] == 2


def test_only_its_own_user_reads_an_intake(
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    game: dict[str, Any],
) -> None:
    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    intake_id = response.json()["intake"]["id"]

    mine = alice_client.get(f"/api/v1/intakes/{intake_id}")
    assert mine.status_code == 200
    assert set(mine.json()) >= {"id", "game", "role", "kind", "status", "errors", "event_seq"}
    assert "payload" not in mine.json()

    assert bob_client.get(f"/api/v1/intakes/{intake_id}").status_code == 404
    assert alice_client.get(f"/api/v1/intakes/{uuid.uuid4()}").status_code == 404
    assert alice_client.get("/api/v1/intakes/not-a-uuid").status_code == 404


# --- with a broker: the answer of a retry, and what a waiting order tells its player ------------


def test_a_retry_after_the_worker_refused_repeats_the_202_with_the_outcome(
    api: Any, alice_client: APIClient, game: dict[str, Any], broker_mode: None
) -> None:
    from pbem.play.services.orders import order_apply

    mine = api.random_action(game["id"], "allied", salt=1)
    other = api.random_action(game["id"], "allied", salt=2)
    assert mine.payload != other.payload
    first = api.submit(alice_client, game["id"], mine, **{"Idempotency-Key": "k-moved"})
    racing = api.submit(alice_client, game["id"], other, **{"Idempotency-Key": "k-racing"})
    assert first.status_code == racing.status_code == 202
    assert first.json()["intake"]["status"] == "received"
    order_apply(intake_id=racing.json()["intake"]["id"])  # the other set-up gets in first
    order_apply(intake_id=first.json()["intake"]["id"])  # now refused: the game moved on

    retry = api.submit(alice_client, game["id"], mine, **{"Idempotency-Key": "k-moved"})

    assert retry.status_code == 202  # the first answer, not a 422 it never got
    body = retry.json()["intake"]
    assert body["id"] == first.json()["intake"]["id"]
    assert body["status"] == "rejected"
    assert body["errors"][0]["rule"] == "game_moved_on"
    assert "the game moved on before this order could be applied" in body["errors"][0]["message"]
    assert OrderIntake.objects.count() == 2
    assert api.head_seq(game["id"]) == 2


def test_a_retry_after_the_worker_applied_repeats_the_202(
    api: Any, alice_client: APIClient, game: dict[str, Any], broker_mode: None
) -> None:
    from pbem.play.services.orders import order_apply

    action = api.random_action(game["id"], "allied")
    first = api.submit(alice_client, game["id"], action, **{"Idempotency-Key": "k-ok"})
    order_apply(intake_id=first.json()["intake"]["id"])
    retry = api.submit(alice_client, game["id"], action, **{"Idempotency-Key": "k-ok"})
    assert first.status_code == retry.status_code == 202
    assert retry.json()["intake"]["status"] == "applied"
    assert retry.json()["intake"]["event_seq"] == 2


def test_an_order_accepted_while_the_queue_is_down_says_so(
    api: Any,
    alice_client: APIClient,
    game: dict[str, Any],
    broker_mode: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pbem.play.services.orders.broker_down", lambda: True)
    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    assert response.status_code == 202
    intake = response.json()["intake"]
    assert intake["status"] == "received"
    assert "work queue is unavailable" in intake["note"]
    assert "in the order received" in intake["note"]


def test_an_order_waiting_longer_than_usual_says_so_and_a_fresh_one_does_not(
    api: Any, alice_client: APIClient, game: dict[str, Any], broker_mode: None
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    intake_id = response.json()["intake"]["id"]
    assert response.json()["intake"]["note"] is None
    OrderIntake.objects.filter(pk=intake_id).update(
        created_at=timezone.now() - timedelta(seconds=40)
    )
    later = alice_client.get(f"/api/v1/intakes/{intake_id}").json()
    assert later["note"].startswith("waiting for a worker for 40 s")


def test_the_intake_answer_written_out_equals_the_declared_fields(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    """IntakeOutputSerializer.to_representation is DRF's walk over the declared fields written
    out for speed: the same for an applied, a refused and a waiting intake."""
    from rest_framework import serializers

    from pbem.api.orders import IntakeOutputSerializer

    api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))  # applied
    api.submit(bob_client, game["id"], Action("french", "french_setup", {"corps": []}))  # refused
    waiting = OrderIntake.objects.filter(game_id=game["id"]).first()
    assert waiting is not None
    OrderIntake.objects.create(
        game_id=game["id"], role="allied", user=waiting.user, kind="k", payload={}, head_seq=1
    )
    intakes = list(OrderIntake.objects.filter(game_id=game["id"]).select_related("event", "game"))
    assert {i.status for i in intakes} == {"applied", "rejected", "received"}
    for intake in intakes:
        out = IntakeOutputSerializer(intake)
        assert out.data == serializers.Serializer.to_representation(out, intake)
