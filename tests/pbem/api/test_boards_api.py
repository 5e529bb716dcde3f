"""The board over the API, cacheable, typed in the schema, and consistent with the
engine's own board (a client can check adjacency without the engine)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.napoleons_triumph.board import board_named

BASE = "/api/v1/rulesets/napoleons_triumph/boards"


@pytest.fixture
def anonymous(db: None) -> APIClient:
    return APIClient()


def test_the_board_list(anonymous: APIClient) -> None:
    response = anonymous.get(BASE)
    assert response.status_code == 200
    body = response.json()
    assert body["ruleset"] == "napoleons_triumph"
    assert {"austerlitz", "austerlitz-published"} <= set(body["boards"])
    assert response["Cache-Control"] == "public, max-age=3600"
    assert response["ETag"].startswith('"')


@pytest.mark.parametrize("board_id", ["austerlitz", "austerlitz-published"])
def test_a_board_is_consistent_with_the_engine(anonymous: APIClient, board_id: str) -> None:
    response = anonymous.get(f"{BASE}/{board_id}")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    board = board_named(board_id)
    assert body["id"] == board_id
    assert [loc["id"] for loc in body["locales"]] == sorted(board.locales)
    assert len(body["approaches"]) == len(board.approaches)
    # adjacency from the answer alone equals the engine's, passable and not
    adjacent: dict[int, set[int]] = {lid: set() for lid in board.locales}
    passable: dict[int, set[int]] = {lid: set() for lid in board.locales}
    for ap in body["approaches"]:
        adjacent[ap["a"]].add(ap["b"])
        adjacent[ap["b"]].add(ap["a"])
        if not ap["impassable"]:
            passable[ap["a"]].add(ap["b"])
            passable[ap["b"]].add(ap["a"])
        assert board.between(ap["a"], ap["b"]) == ap["id"]
        side = board.side(ap["id"], ap["a"])
        assert ap["a_side"]["penalties"] == sorted(side.penalties)
        assert ap["a_side"]["width"] == ("wide" if side.width == 2 else "narrow")
    for lid in board.locales:
        assert tuple(sorted(adjacent[lid])) == board.neighbours(lid)
        assert tuple(sorted(passable[lid])) == board.passable_neighbours(lid)
    by_id = {loc["id"]: loc for loc in body["locales"]}
    for lid, loc in board.locales.items():
        assert by_id[lid]["capacity"] == loc.capacity
        assert by_id[lid]["name"] == loc.name
        assert by_id[lid]["neighbours"] == list(board.neighbours(lid))
    # every road crossing, and the approaches say which roads cross them
    crossings = [(c["approach"], r["id"]) for r in body["roads"] for c in r["crossings"]]
    assert len(crossings) == len(board.crossings)
    roads_of = {ap["id"]: set(ap["roads"]) for ap in body["approaches"]}
    assert all(road in roads_of[aid] for aid, road in crossings)
    assert {t["id"] for t in body["toponyms"]} == {t.id for t in board.toponyms}
    assert {s["id"] for s in body["scenarios"]} == set(board.scenarios)
    # the order of battle only as counts: no server unit id is published
    assert sum(row["count"] for row in body["army"]["F"]) == len(board.army["F"])
    assert "F01" not in response.content.decode()


def test_etag_and_304(anonymous: APIClient) -> None:
    first = anonymous.get(f"{BASE}/austerlitz")
    etag = first["ETag"]
    assert first["Cache-Control"] == "public, max-age=3600"
    again = anonymous.get(f"{BASE}/austerlitz", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert not again.content
    weak = anonymous.get(f"{BASE}/austerlitz", HTTP_IF_NONE_MATCH=f'"other", W/{etag}')
    assert weak.status_code == 304
    stale = anonymous.get(f"{BASE}/austerlitz", HTTP_IF_NONE_MATCH='"stale"')
    assert stale.status_code == 200
    other = anonymous.get(f"{BASE}/austerlitz-published")
    assert other["ETag"] != etag
    assert anonymous.get(BASE, HTTP_IF_NONE_MATCH=anonymous.get(BASE)["ETag"]).status_code == 304


@pytest.mark.parametrize(
    "url",
    [
        f"{BASE}/nope",
        f"{BASE}/{'x' * 300}",
        f"{BASE}/..%2F..%2Fetc%2Fpasswd",
        "/api/v1/rulesets/chess/boards",
        f"/api/v1/rulesets/{'y' * 300}/boards/austerlitz",
    ],
)
def test_unknown_ruleset_or_board_is_a_404(anonymous: APIClient, url: str) -> None:
    response = anonymous.get(url)
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "not_found"
    assert "xxxxxxxxxx" not in body["detail"]
    assert "yyyyyyyyyy" not in body["detail"]
    assert "root:" not in response.content.decode()


def test_the_schema_types_the_board(db: None) -> None:
    doc = APIClient().get("/api/schema/", {"format": "json"}).json()
    detail = doc["paths"]["/api/v1/rulesets/{ruleset_id}/boards/{board}"]["get"]
    assert {"200", "304", "404"} <= set(detail["responses"])
    ref = detail["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    board = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"locales", "approaches", "roads", "toponyms"} <= set(board["properties"])
    schemas = doc["components"]["schemas"]
    assert "from" in schemas["Crossing"]["properties"]
    assert "class" in schemas["Road"]["properties"]
    assert "label" in schemas["Locale"]["properties"]
    assert "/api/v1/rulesets/{ruleset_id}/boards" in doc["paths"]
