"""The layout editor (pbem.web.layout_views): a staff page with a draggable handle per locale and
a check that recomputes the cells from posted points and answers the problems, the figures and
the layout file's text. Only staff may use it; bad input is a 400 with a message, never a 500."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client

from games.napoleons_triumph.board import SHIPPED, board_named
from games.napoleons_triumph.layout import (
    approach_edges,
    check,
    layout_for,
    layout_from_points,
    parse_layout,
)
from tests.pbem.web.conftest import client_of, make_user

BOARD = "austerlitz"
PAGE = f"/staff/layout/{BOARD}/"
CHECK = f"/staff/layout/{BOARD}/check"


@pytest.fixture
def staff(db: None) -> User:
    user = make_user("owner")
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def staff_client(staff: User) -> Client:
    return client_of(staff)


def committed_points(board: str = BOARD) -> dict[str, list[float]]:
    layout = layout_for(board)
    assert layout is not None
    return {str(lid): [x, y] for lid, (x, y) in layout.points.items()}


def post(client: Client, body: object, board: str = BOARD, language: str = "en") -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        f"/staff/layout/{board}/check",
        data=data,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


# -- who may see it ----------------------------------------------------------------------------


@pytest.mark.parametrize("board", SHIPPED)
def test_staff_see_a_handle_per_locale(staff_client: Client, board: str) -> None:
    response = staff_client.get(f"/staff/layout/{board}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    handles = re.findall(
        r'<g class="handle" data-locale="(\d+)" data-x="([\d.]+)" '
        r'data-y="([\d.]+)"',
        html,
    )
    locales = board_named(board).locales
    assert sorted(int(lid) for lid, _x, _y in handles) == sorted(locales)
    layout = layout_for(board)
    assert layout is not None
    for lid, x, y in handles:
        assert (float(x), float(y)) == layout.points[int(lid)]
    # the map is drawn from the committed layout, and the editor's data names the check URL
    assert html.count('class="locale') >= len(locales)
    data = re.search(r'<script id="layout-editor" type="application/json">(.*?)</script>', html)
    assert data is not None
    editor = json.loads(data.group(1))
    assert editor["check_url"] == f"/staff/layout/{board}/check"
    assert editor["filename"] == f"{board}-layout.yaml"
    assert len(editor["approaches"]) == len(approach_edges(board_named(board)))
    assert 'id="layout-photo-file"' in html
    assert 'id="layout-check"' in html
    assert "web/layout.js" in html


def test_others_are_refused(alice_client: Client, client: Client, db: None) -> None:
    assert alice_client.get(PAGE).status_code == 403
    refused = post(alice_client, {"points": committed_points()})
    assert refused.status_code == 403
    assert "yaml" not in refused.json()
    anonymous = client.get(PAGE)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/?next=")
    assert post(client, {"points": committed_points()}).status_code == 302


@pytest.mark.parametrize(
    "name", ["nowhere", "austerlitz-layout", "..%2F..%2Fsettings", "%2Fetc%2Fpasswd"]
)
def test_an_unknown_board_is_404(staff_client: Client, name: str) -> None:
    assert staff_client.get(f"/staff/layout/{name}/").status_code == 404
    assert post(staff_client, {"points": {}}, board=name).status_code == 404


def test_the_check_needs_a_csrf_token(staff: User) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(staff)
    assert post(strict, {"points": committed_points()}).status_code == 403
    page = strict.get(PAGE).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    ok = strict.post(
        CHECK,
        data=json.dumps({"points": committed_points()}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token.group(1),
    )
    assert ok.status_code == 200


# -- the check ---------------------------------------------------------------------------------


@pytest.mark.parametrize("board", SHIPPED)
def test_the_committed_points_check_as_committed(staff_client: Client, board: str) -> None:
    response = post(staff_client, {"points": committed_points(board)}, board=board)
    assert response.status_code == 200
    answer = response.json()
    committed = layout_for(board)
    assert committed is not None
    problems, figures = check(committed, board_named(board))
    assert answer["figures"] == {
        "locales": figures.locales,
        "approaches": figures.approaches,
        "crossings": figures.crossings,
        "overlaps": figures.overlaps,
        "apart": figures.apart,
    }
    assert answer["problems"] == problems
    assert answer["filename"] == f"{board}-layout.yaml"
    parsed = parse_layout(yaml.safe_load(answer["yaml"]))
    assert parsed.board == board
    assert dict(parsed.points) == dict(committed.points)
    recomputed = layout_from_points(board_named(board), committed.points)
    assert dict(parsed.cells) == dict(recomputed.cells)
    assert parsed.outline == committed.outline
    assert answer["svg"].startswith("<svg")
    assert 'data-locale="1"' in answer["svg"]


def test_a_swapped_pair_of_points_reports_crossings(staff_client: Client) -> None:
    points = committed_points()
    baseline = post(staff_client, {"points": points}).json()["figures"]["crossings"]
    board = board_named(BOARD)
    # swap two locales that share an approach and have many others: their approaches now cross
    edges = approach_edges(board)
    degree = Counter(lid for _aid, a, b in edges for lid in (a, b))
    a, b = max(((a, b) for _aid, a, b in edges), key=lambda ab: degree[ab[0]] + degree[ab[1]])
    points[str(a)], points[str(b)] = points[str(b)], points[str(a)]
    answer = post(staff_client, {"points": points}).json()
    assert answer["figures"]["crossings"] > baseline
    assert any(p.endswith(" cross") for p in answer["problems"])
    moved = parse_layout(yaml.safe_load(answer["yaml"]))
    assert list(moved.points[a]) == points[str(a)]


def test_a_point_on_another_reports_problems_not_errors(staff_client: Client) -> None:
    points = committed_points()
    points["2"] = list(points["1"])
    response = post(staff_client, {"points": points})
    assert response.status_code == 200
    assert response.json()["problems"]


def bad_bodies() -> list[tuple[str, object]]:
    good = committed_points()
    missing = dict(good)
    del missing["1"]
    extra = dict(good, **{"999": [1.0, 1.0]})
    text = dict(good, **{"1": ["10", "20"]})
    flag = dict(good, **{"1": [True, 20]})
    triple = dict(good, **{"1": [1, 2, 3]})
    outside = dict(good, **{"1": [-5, 20]})
    far = dict(good, **{"1": [10, 1e9]})
    named = dict(good, **{"one": [10, 20]})
    twice = json.dumps({"points": good})[:-2] + ', "1": [5, 5]}}'
    padded = json.dumps({"points": good})[:-2] + ', "01": [5, 5]}}'
    return [
        ("not JSON", "{points:"),
        ("not UTF-8", b"\xff\xfe{}"),
        ("a list", [1, 2]),
        ("no points", {"pts": good}),
        ("points a list", {"points": [[1, 2]]}),
        ("missing locale", {"points": missing}),
        ("unknown locale", {"points": extra}),
        ("strings", {"points": text}),
        ("booleans", {"points": flag}),
        ("three numbers", {"points": triple}),
        ("outside", {"points": outside}),
        ("far outside", {"points": far}),
        ("a name", {"points": named}),
        ("NaN", json.dumps({"points": good}).replace("[167.4", "[NaN", 1)),
        ("Infinity", json.dumps({"points": good}).replace("[167.4", "[Infinity", 1)),
        ("a locale twice", twice),
        ("a locale twice, padded", padded),
        ("deep", "[" * 100_000),
        ("too large", {"points": good, "padding": "x" * 100_000}),
    ]


@pytest.mark.parametrize(("what", "body"), bad_bodies(), ids=[w for w, _b in bad_bodies()])
def test_bad_input_is_400_with_a_message(staff_client: Client, what: str, body: object) -> None:
    response = post(staff_client, body)
    assert response.status_code == 400, what
    error = response.json()["error"]
    assert isinstance(error, str)
    assert error


def test_bad_input_names_the_trouble(staff_client: Client) -> None:
    good = committed_points()
    missing = dict(good)
    del missing["7"]
    assert "7" in post(staff_client, {"points": missing}).json()["error"]
    assert "999" in post(staff_client, {"points": dict(good, **{"999": [1, 1]})}).json()["error"]


def test_get_on_the_check_is_refused(staff_client: Client) -> None:
    assert staff_client.get(CHECK).status_code == 405


def test_the_page_and_errors_in_german(staff_client: Client) -> None:
    html = staff_client.get(PAGE, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in html
    assert "Prüfen und herunterladen" in html
    assert "Foto deines Spielplans" in html
    assert "Check and download" not in html
    good = committed_points()
    del good["3"]
    error = post(staff_client, {"points": good}, language="de").json()["error"]
    assert error == "Diese Orte haben keinen Punkt: 3."


def test_not_staff_in_german(alice_client: Client) -> None:
    html = alice_client.get(PAGE, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Nur Mitarbeiter" in html
