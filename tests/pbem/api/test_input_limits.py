"""Bounded input: a body over the size limit is a 413, JSON nested deeper than
the limit a 400 `too_deep`; neither is stored nor echoed, and nothing is ever a 500."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from pytest_django.fixtures import Settings
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from pbem.api.exceptions import exception_handler
from pbem.api.parsers import BoundedJSONParser, RequestTooLarge, nesting_depth_check
from pbem.play.models import Game, OrderIntake

SMALL_ANSWER = 2048  # bytes: an answer to a refused large input never echoes it


def _post(client: APIClient, url: str, text: str) -> Any:
    return client.post(url, data=text, content_type="application/json")


def _assert_shape(body: dict[str, Any], code: str) -> None:
    assert set(body) >= {"code", "detail", "errors"}
    assert body["code"] == code
    for e in body["errors"]:
        assert set(e) == {"rule", "message", "path"}


def test_5000_nested_brackets_in_a_payload_are_a_400_too_deep(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    text = '{"kind": "allied_setup", "payload": {"corps": ' + "[" * 5000 + "]" * 5000 + "}}"
    response = _post(alice_client, f"/api/v1/games/{game['id']}/actions", text)

    assert response.status_code == 400, response.content[:300]
    _assert_shape(response.json(), "too_deep")
    assert "32" in response.json()["detail"]
    assert len(response.content) < SMALL_ANSWER
    assert not OrderIntake.objects.exists()
    assert api.head_seq(game["id"]) == 1


def test_deep_json_is_refused_on_every_endpoint(alice_client: APIClient, alice: Any) -> None:
    text = '{"ruleset": "napoleons_triumph", "options": ' + "[" * 100 + "]" * 100 + "}"
    response = _post(alice_client, "/api/v1/games", text)
    assert response.status_code == 400
    _assert_shape(response.json(), "too_deep")
    assert not Game.objects.exists()


def test_a_5mb_order_is_a_413_not_stored_not_echoed(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    huge = {"kind": "allied_setup", "payload": {"corps": [{"commander": "x" * (5 * 1024 * 1024)}]}}
    response = _post(alice_client, f"/api/v1/games/{game['id']}/actions", json.dumps(huge))

    assert response.status_code == 413
    _assert_shape(response.json(), "too_large")
    assert "65536" in response.json()["detail"]  # names the limit, not the body
    assert len(response.content) < SMALL_ANSWER
    assert not OrderIntake.objects.exists()
    assert api.head_seq(game["id"]) == 1


def test_orders_have_a_lower_limit_than_the_rest_of_the_api(
    api: Any, alice_client: APIClient, game: dict[str, Any]
) -> None:
    """100 KiB: over the order limit (64 KiB), under the API's (256 KiB)."""
    filler = "x" * (100 * 1024)
    order = _post(
        alice_client,
        f"/api/v1/games/{game['id']}/actions",
        json.dumps({"kind": "end_turn", "payload": {}, "note": filler}),
    )
    assert order.status_code == 413
    create = _post(
        alice_client,
        "/api/v1/games",
        json.dumps({"ruleset": "napoleons_triumph", "scenario": "DEC2", "title": filler}),
    )
    assert create.status_code == 400  # parsed, then refused on its fields
    assert len(create.content) < SMALL_ANSWER  # the title's error does not echo it
    paths = {e["path"] for e in create.json()["errors"]}
    assert "/title" in paths


def test_the_limit_is_a_setting(alice_client: APIClient, settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "MAX_BODY_BYTES": 100}
    response = _post(alice_client, "/api/v1/games", json.dumps({"title": "t" * 200}))
    assert response.status_code == 413
    assert "100 bytes" in response.json()["detail"]


def test_the_depth_limit_is_a_setting(alice_client: APIClient, settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "MAX_JSON_DEPTH": 2}
    deep = _post(alice_client, "/api/v1/games", '{"options": {"a": {"b": 1}}}')
    assert deep.status_code == 400
    assert deep.json()["code"] == "too_deep"
    shallow = _post(alice_client, "/api/v1/games", '{"options": {"a": 1}}')
    assert shallow.status_code == 400
    assert shallow.json()["code"] == "invalid"  # parsed; the fields are missing


def test_the_depth_scan_counts_brackets_only_outside_strings() -> None:
    nesting_depth_check('{"a": "[[[[[[[[[[", "b": "\\"[[[[[["}', 2)  # strings do not count
    nesting_depth_check("[[[]]]", 3)
    with pytest.raises(ParseError) as caught:
        nesting_depth_check("[[[[]]]]", 3)
    assert caught.value.detail.code == "too_deep"  # type: ignore[union-attr]


def test_the_depth_scan_is_linear_on_escapes_and_quotes() -> None:
    """An escaped backslash ends its escape; many unterminated quotes and backslashes cost a
    linear pass (a backtracking string regex took over a minute on this input)."""
    with pytest.raises(ParseError):
        nesting_depth_check('"\\\\" [[[[', 3)  # the string is "\\": the brackets count
    started = time.monotonic()
    nesting_depth_check('"\\' * 100_000, 32)
    assert time.monotonic() - started < 10


def test_the_parser_reads_no_more_than_the_limit_whatever_the_content_length() -> None:
    class View:
        max_body_bytes = 10

    stream = io.BytesIO(b'{"a": "' + b"x" * 1000 + b'"}')
    with pytest.raises(RequestTooLarge):
        BoundedJSONParser().parse(stream, "application/json", {"view": View()})
    assert stream.tell() == 11  # limit + 1 bytes, never the rest


@pytest.mark.parametrize(
    "text",
    [
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": -Infinity}',
        '{"a": 1e999}',
        '{"a": "nul \\u0000"}',
        '{"nul \\u0000": 1}',
        '{"a": "\\ud800"}',
        '{"a": ' + "9" * 5000 + "}",
    ],
)
def test_json_that_cannot_be_stored_is_a_400(
    alice_client: APIClient, game: dict[str, Any], text: str
) -> None:
    response = _post(alice_client, f"/api/v1/games/{game['id']}/actions", text)
    assert response.status_code == 400, response.content
    _assert_shape(response.json(), "parse_error")
    assert not OrderIntake.objects.exists()


def test_django_request_data_too_big_is_a_413_in_the_shape() -> None:
    response = exception_handler(RequestDataTooBig("too big"), {})
    assert response is not None
    assert response.status_code == 413
    assert response.data["code"] == "too_large"
    assert response.data["errors"] == []


def test_a_large_unknown_field_name_or_value_is_not_echoed(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    url = f"/api/v1/games/{game['id']}/actions"
    name = "n" * 30000
    response = _post(alice_client, url, json.dumps({"kind": "end_turn", "payload": {}, name: 1}))
    assert response.status_code == 400
    assert len(response.content) < SMALL_ANSWER
    payload = {"corps": [{"commander": "c" * 30000, "units": []}]}
    order = _post(alice_client, url, json.dumps({"kind": "allied_setup", "payload": payload}))
    assert order.status_code in (400, 422)
    assert len(order.content) < 4 * SMALL_ANSWER
    many = {f"f{i}": 1 for i in range(500)}
    unknown = _post(alice_client, url, json.dumps({"kind": "end_turn", "payload": {}, **many}))
    assert unknown.status_code == 400
    assert len(unknown.json()["errors"]) == 50
    assert "more errors not shown" in unknown.json()["detail"]
