"""One error shape for every 4xx: {"code", "detail", "errors": [{"rule",
"message", "path"}]}, with JSON-pointer paths for field errors; unknown fields and unknown
action kinds are named; a hypothesis test posts any JSON and never gets a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from pbem.api.exceptions import exception_handler, validation_entries
from pbem.play.models import Game, OrderIntake


def assert_shape(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) - {"intake"} == {"code", "detail", "errors"}, body
    assert isinstance(body["code"], str)
    assert body["code"]
    assert isinstance(body["detail"], str)
    assert isinstance(body["errors"], list)
    for e in body["errors"]:
        assert set(e) == {"rule", "message", "path"}, e
        assert all(isinstance(v, str) for v in e.values())
        assert e["path"] == "" or e["path"].startswith("/")
    if code is not None:
        assert body["code"] == code, body
    return body


def _actions(game: dict[str, Any]) -> str:
    return f"/api/v1/games/{game['id']}/actions"


def _post(client: APIClient, url: str, text: str) -> Any:
    return client.post(url, data=text, content_type="application/json")


def test_a_body_that_is_not_an_object_is_a_400_about_the_body(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    for text in ("[1, 2]", '"end_turn"', "5", "null"):
        body = assert_shape(_post(alice_client, _actions(game), text), 400, "invalid")
        assert body["errors"], text
        assert body["errors"][0]["path"] == ""
        assert "non_field_errors" not in json.dumps(body)
    games = assert_shape(_post(alice_client, "/api/v1/games", "[1, 2]"), 400, "invalid")
    assert games["errors"][0]["path"] == ""


def test_a_field_error_names_its_path_and_rule(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    body = assert_shape(_post(alice_client, _actions(game), '{"kind": 5}'), 400, "invalid")
    by_path = {e["path"]: e for e in body["errors"]}
    assert set(by_path) == {"/kind", "/payload"}
    assert by_path["/kind"]["rule"] == "invalid"
    assert by_path["/payload"]["rule"] == "required"
    assert "/kind" in body["detail"]


def test_a_nested_field_error_is_a_json_pointer(alice_client: APIClient, alice: Any) -> None:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz"},
        "seats": {"allied": 5},
    }
    answer = assert_shape(alice_client.post("/api/v1/games", body, format="json"), 400)
    assert any(e["path"].startswith("/seats") for e in answer["errors"]), answer


def test_unknown_fields_in_an_order_are_a_400_naming_each(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    text = '{"kind": "end_turn", "payload": {}, "bogus": 1, "a/b": 2}'
    body = assert_shape(_post(alice_client, _actions(game), text), 400, "invalid")
    assert {(e["rule"], e["path"]) for e in body["errors"]} == {
        ("unknown_field", "/bogus"),
        ("unknown_field", "/a~1b"),  # RFC 6901 escaping
    }
    assert "'bogus'" in body["detail"]
    assert not OrderIntake.objects.exists()


def test_unknown_fields_in_a_payload_are_a_400_invalid_payload(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    """The engine's schema of `end_turn` refuses unknown keys; nothing is stored."""
    text = '{"kind": "end_turn", "payload": {"bogus": 1}}'
    body = assert_shape(_post(alice_client, _actions(game), text), 400, "invalid_payload")
    assert body["errors"]
    assert all(e["rule"] == "schema" for e in body["errors"])
    assert any("bogus" in e["path"] or "bogus" in e["message"] for e in body["errors"]), body
    assert not OrderIntake.objects.exists()
    assert api.head_seq(game["id"]) == 1


def test_an_unknown_kind_is_a_422_even_out_of_turn_or_without_a_seat(
    api: Any, bob_client: APIClient, mallory_client: APIClient, game: dict[str, Any]
) -> None:
    """The Allies set up first: Bob (French) and Mallory (no seat) are not prompted."""
    text = '{"role": "french", "kind": "bogus", "payload": {}}'
    for client in (bob_client, mallory_client):
        body = assert_shape(_post(client, _actions(game), text), 422, "unknown_kind")
        assert body["errors"][0]["rule"] == "unknown_kind"
        assert body["errors"][0]["path"] == "/kind"
    assert not OrderIntake.objects.exists()
    assert api.head_seq(game["id"]) == 1


def test_every_4xx_status_has_the_shape(
    api: Any,
    alice_client: APIClient,
    mallory_client: APIClient,
    game: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = _actions(game)
    assert_shape(APIClient().get("/api/v1/games"), 401, "not_authenticated")
    action = api.random_action(game["id"], "allied")
    order = {"role": "allied", "kind": action.kind, "payload": action.payload}
    assert_shape(mallory_client.post(url, order, format="json"), 403, "not_your_seat")
    assert_shape(alice_client.get("/api/v1/games/nope"), 404, "not_found")
    assert_shape(alice_client.get(url), 405, "method_not_allowed")
    assert_shape(
        alice_client.get("/api/v1/games", HTTP_ACCEPT="application/xml"), 406, "not_acceptable"
    )
    assert_shape(
        alice_client.post(url, data="kind=x", content_type="text/plain"),
        415,
        "unsupported_media_type",
    )
    Game.objects.filter(pk=game["id"]).update(status=Game.Status.FINISHED)
    assert_shape(alice_client.post(url, order, format="json"), 409, "game_not_active")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"verify": "1/hour"})
    verify = f"/api/v1/games/{game['id']}/verify"
    alice_client.get(verify)
    throttled = alice_client.get(verify)
    assert_shape(throttled, 429, "throttled")
    assert throttled["Retry-After"]


def test_an_illegal_order_is_a_422_in_the_shape_with_its_intake(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    text = '{"kind": "allied_setup", "payload": {"corps": []}}'
    body = assert_shape(_post(alice_client, _actions(game), text), 422, "order_rejected")
    assert OrderIntake.objects.get(pk=body["intake"]).status == OrderIntake.Status.REJECTED


def test_the_handler_flattens_drf_and_django_errors() -> None:
    nested = ValidationError({"seats": {"french": ["unknown user"]}, "corps": [{}, {"x": ["bad"]}]})
    response = exception_handler(nested, {})
    assert response is not None
    assert [(e["path"], e["message"]) for e in response.data["errors"]] == [
        ("/seats/french", "unknown user"),
        ("/corps/1/x", "bad"),
    ]
    django = exception_handler(DjangoValidationError({"title": ["too long"]}), {})
    assert django is not None
    assert django.status_code == 400
    assert django.data["errors"] == [{"rule": "invalid", "message": "too long", "path": "/title"}]
    plain = exception_handler(DjangoValidationError("bad value"), {})
    assert plain is not None
    assert plain.data["errors"][0]["path"] == ""
    throttled = exception_handler(Throttled(wait=7), {})
    assert throttled is not None
    assert throttled.status_code == 429
    assert throttled["Retry-After"] == "7"
    assert throttled.data["code"] == "throttled"
    assert throttled.data["errors"] == []


def test_validation_entries_keep_drf_codes() -> None:
    exc = ValidationError({"kind": ["This field is required."]}, code="required")
    assert validation_entries(exc.detail) == [
        {"rule": "required", "message": "This field is required.", "path": "/kind"}
    ]


def test_the_openapi_schema_documents_the_error_shape(db: None) -> None:
    doc = APIClient().get("/api/schema/", {"format": "json"}).json()
    schemas = doc["components"]["schemas"]
    error = schemas["ErrorOutput"]
    assert set(error["required"]) >= {"code", "detail", "errors"}
    rejection = schemas["RejectionOutput"]
    assert set(rejection["required"]) == {"rule", "message", "path"}
    actions = doc["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    assert {"400", "413", "422"} <= set(actions)
    content = doc["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]
    assert set(content) == {"application/json"}


JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
KINDS = st.sampled_from(["end_turn", "allied_setup", "french_setup", "command", "bogus"])
ORDERS = st.fixed_dictionaries(
    {"kind": KINDS | JSON_VALUES, "payload": JSON_VALUES},
    optional={"role": st.sampled_from(["allied", "french"]) | JSON_VALUES, "extra": JSON_VALUES},
)
GAMES = st.fixed_dictionaries(
    {
        "ruleset": st.just("napoleons_triumph") | JSON_VALUES,
        "scenario": st.sampled_from(["DEC2", "NOPE"]) | JSON_VALUES,
        "seats": st.just({"allied": "alice", "french": None}) | JSON_VALUES,
    },
    optional={
        "options": st.just({"board": "austerlitz"}) | JSON_VALUES,
        "title": JSON_VALUES,
        "spectators": JSON_VALUES,
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=JSON_VALUES | ORDERS | GAMES)
def test_any_json_body_answers_in_the_shape_never_a_500(
    alice_client: APIClient, game: dict[str, Any], body: Any
) -> None:
    text = json.dumps(body)
    for url in (_actions(game), "/api/v1/games"):
        response = _post(alice_client, url, text)
        assert response.status_code < 500, (url, text, response.content[:300])
        if response.status_code >= 400:
            assert_shape(response, response.status_code)


def test_an_unknown_api_url_is_a_404_in_the_shape(alice_client: APIClient) -> None:
    assert_shape(alice_client.get("/api/v1/no-such-thing"), 404, "not_found")
    assert_shape(alice_client.post("/api/v1/games/x/y/z", {}, format="json"), 404, "not_found")
    page = alice_client.get("/no-such-page")
    assert page.status_code == 404
    assert not page["Content-Type"].startswith("application/json")


def test_an_order_the_eager_worker_refuses_is_a_422_in_the_shape(
    api: Any, alice_client: APIClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-check passed but the worker, at a newer head, refused it (a race)."""
    from pbem.play.services import orders

    def refuse(intake_id: str) -> None:
        error = {"rule": "NT-35", "message": "not prompted any more", "path": ""}
        OrderIntake.objects.filter(pk=intake_id).update(
            status=OrderIntake.Status.REJECTED, errors=[error]
        )

    monkeypatch.setattr(orders, "_enqueue", refuse)
    response = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    body = assert_shape(response, 422, "order_rejected")
    assert body["errors"] == [{"rule": "NT-35", "message": "not prompted any more", "path": ""}]
    assert OrderIntake.objects.get(pk=body["intake"]).status == OrderIntake.Status.REJECTED
