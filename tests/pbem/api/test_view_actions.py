"""The view lists every action the seat may take now, with its schema and legal choices, and the
OpenAPI document types the view, the prompt and each action kind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.extensions import OpenApiSerializerExtension
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from games.core.protocol import Action
from games.core.rng import Rng
from pbem.api.openapi import order_submit_schema, register_order_request
from pbem.api.orders import OrderSubmitApi

ANY_TIME = ["resign", "set_defense_plan"]


def _view(client: APIClient, game_id: str, role: str | None = None) -> dict[str, Any]:
    url = f"/api/v1/games/{game_id}/view" + (f"?role={role}" if role else "")
    response = client.get(url)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def test_the_prompted_seat_gets_schemas_and_legal_payloads_and_the_any_time_kinds(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    allied = _view(alice_client, game["id"])
    prompt = allied["prompt"]
    assert prompt["kinds"] == {"allied_setup": "organise and place your corps"}
    assert [a["kind"] for a in prompt["actions"]] == ["allied_setup"]
    assert [a["kind"] for a in allied["actions"]] == ["allied_setup", *ANY_TIME]
    assert [a["any_time"] for a in allied["actions"]] == [False, True, True]
    setup = prompt["actions"][0]
    assert setup["schema"]["additionalProperties"] is False
    assert setup["choices"]["payloads"]
    for payload in setup["choices"]["payloads"]:
        Draft202012Validator(setup["schema"]).validate(payload)

    french = _view(bob_client, game["id"])  # not prompted: only what is allowed at any time
    assert french["prompt"] is None
    assert [a["kind"] for a in french["actions"]] == ANY_TIME
    assert all(a["any_time"] for a in french["actions"])

    # a listed payload goes through the order path as it is
    order = Action("allied", "allied_setup", setup["choices"]["payloads"][0])
    response = api.submit(alice_client, game["id"], order)
    assert response.status_code == 201, response.content


def test_an_outsider_sees_the_public_view_with_no_actions(
    game: dict[str, Any], mallory_client: APIClient
) -> None:
    view = _view(mallory_client, game["id"])
    assert view["role"] == "@observer"
    assert view["prompt"] is None
    assert view["actions"] == []


def test_a_game_played_only_from_the_listed_payloads_goes_on(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    """Both seats pick a random prompted kind with payloads and a random payload, 30 times."""
    clients = {"allied": alice_client, "french": bob_client}
    rng = Rng(3)
    kinds: set[str] = set()
    for _ in range(30):
        detail = alice_client.get(f"/api/v1/games/{game['id']}").json()
        role = detail["active_roles"][0]
        view = _view(clients[role], game["id"], role)
        offered = [a for a in view["prompt"]["actions"] if a["choices"]["payloads"]]
        assert offered
        action = rng.choice(offered)
        payload = rng.choice(action["choices"]["payloads"])
        body = {"role": role, "kind": action["kind"], "payload": payload}
        response = clients[role].post(f"/api/v1/games/{game['id']}/actions", body, format="json")
        assert response.status_code == 201, (body, response.content)
        kinds.add(action["kind"])
    assert {"allied_setup", "french_setup"} <= kinds


def _schema_doc() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    doc: dict[str, Any] = response.json()
    return doc


def test_the_openapi_document_types_the_view_the_prompt_and_each_action(db: None) -> None:
    schemas = _schema_doc()["components"]["schemas"]
    view = schemas["GameView"]["properties"]
    assert view["actions"]["items"]["$ref"].endswith("/ActionSpec")
    assert "phase" in view["view"]["properties"]  # the engine's view schema, not {}
    assert view["view"]["additionalProperties"] is False
    spec = schemas["ActionSpec"]["properties"]
    assert set(spec) == {"kind", "description", "schema", "choices", "any_time"}
    assert set(spec["choices"]["properties"]) == {"payloads", "complete"}
    assert spec["schema"]["type"] == "object"
    prompt = schemas["Prompt"]["properties"]
    assert prompt["actions"]["items"]["$ref"].endswith("/ActionSpec")
    assert prompt["kinds"]["additionalProperties"]["type"] == "string"


@pytest.fixture
def order_extension() -> Iterator[type[OpenApiSerializerExtension]]:
    ext = register_order_request(OrderSubmitApi.InputSerializer)
    yield ext
    OpenApiSerializerExtension._registry.remove(ext)


def test_the_order_body_is_one_alternative_per_action_kind(
    db: None, order_extension: type[OpenApiSerializerExtension]
) -> None:
    body = order_submit_schema()
    kinds = [alt["properties"]["kind"]["enum"][0] for alt in body["oneOf"]]
    assert "corps_move" in kinds
    assert "set_defense_plan" in kinds
    assert len(kinds) == len(set(kinds))
    validator = Draft202012Validator(body)
    assert validator.is_valid({"kind": "end_turn", "payload": {}})
    attach = {"commander": "k", "unit": "A1"}
    assert validator.is_valid({"role": "allied", "kind": "attach", "payload": attach})
    assert not validator.is_valid({"kind": "end_turn", "payload": {"x": 1}})
    assert not validator.is_valid({"kind": "attach", "payload": {}})
    assert not validator.is_valid({"kind": "bogus", "payload": {}})

    published = _schema_doc()["components"]["schemas"]["OrderSubmitRequest"]
    assert len(published["oneOf"]) == len(kinds)
