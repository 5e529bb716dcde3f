"""NT-19: `options.board` names a shipped board, never a file. POST /api/v1/games with a
path answers 400 naming rule NT-19, with no file content and the same message whether or not the
file exists."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.napoleons_triumph.board import DATA_DIR
from pbem.play.models import Game

PATHS = ["/etc/passwd", "../../etc/passwd", "/nonexistent.yaml", str(DATA_DIR / "austerlitz.yaml")]


def create(client: APIClient, options: dict[str, Any]) -> Any:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": options,
        "seats": {"allied": "alice"},
    }
    return client.post("/api/v1/games", body, format="json")


@pytest.mark.parametrize("path", PATHS)
def test_a_board_path_is_a_400_without_file_content(
    alice_client: APIClient, alice: User, path: str
) -> None:
    response = create(alice_client, {"board": path})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "bad_game"
    assert "NT-19" in body["detail"]
    assert "/options/board" in body["detail"]
    assert "austerlitz, austerlitz-published" in body["detail"]
    text = response.content.decode()
    assert "root:" not in text  # the first bytes of /etc/passwd
    assert "No such file" not in text
    assert "schema" not in text
    assert "nt-board" not in text
    assert path not in text
    assert not Game.objects.exists()


def test_existing_and_missing_paths_answer_identically(
    alice_client: APIClient, alice: User
) -> None:
    bodies = {create(alice_client, {"board": p}).content for p in PATHS}
    assert len(bodies) == 1


def test_board_and_board_data_together_are_refused(alice_client: APIClient, alice: User) -> None:
    response = create(alice_client, {"board": "austerlitz", "board_data": {"meta": "zz9-secret"}})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "NT-19" in detail
    assert "board_data" in detail
    assert "zz9-secret" not in response.content.decode()
    assert not Game.objects.exists()


def test_a_board_given_as_data_is_accepted_and_replays(
    alice_client: APIClient, alice: User
) -> None:
    """A fragment board as data (scenario DEC2) makes a game whose state names the board
    `custom-<sha256>` and whose view works after the board cache is cleared; a broken one is a
    400 naming NT-19 and the place of each error."""
    from games.napoleons_triumph import board_data
    from games.napoleons_triumph.positions import custom_board_id
    from tests.support.napoleons_triumph import PAIR_APPROACHES, PAIR_LOCALES, fragment_doc

    doc = fragment_doc(
        "api-pair",
        PAIR_LOCALES,
        PAIR_APPROACHES,
        commanders=[("soult", "F", "X", False), ("kutuzov", "AL", "Y", False)],
        scenario="DEC2",
    )
    options = {"board_data": doc, "board_fragment": True}
    response = create(alice_client, options)
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    board_data.clear_cache()
    view = alice_client.get(f"/api/v1/games/{game_id}/view")
    assert view.status_code == 200, view.content
    assert view.json()["view"]["board"] == custom_board_id(doc, fragment=True)
    doc["locales"][0]["capacity"] = "lots"  # type: ignore[call-overload,index]
    bad = create(alice_client, options)
    assert bad.status_code == 400
    detail = bad.json()["detail"]
    assert "NT-19" in detail
    assert "/options/board_data" in detail
    assert "locale 1 (locales[0]): field 'capacity' must be an integer" in detail


def test_a_shipped_board_id_is_accepted(alice_client: APIClient, alice: User) -> None:
    response = create(alice_client, {"board": "austerlitz"})
    assert response.status_code == 201, response.content
