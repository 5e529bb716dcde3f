"""Issue 10 item 1: `options.board` names a shipped board, never a file. POST /api/v1/games with a
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


def test_board_data_is_refused_by_name(alice_client: APIClient, alice: User) -> None:
    response = create(alice_client, {"board": "austerlitz", "board_data": {"meta": "zz9-secret"}})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "NT-19" in detail
    assert "board_data" in detail
    assert "zz9-secret" not in response.content.decode()


def test_a_shipped_board_id_is_accepted(alice_client: APIClient, alice: User) -> None:
    response = create(alice_client, {"board": "austerlitz"})
    assert response.status_code == 201, response.content
