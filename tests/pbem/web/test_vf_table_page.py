"""The game page of a Valour & Fortitude game shows the table (issue 17, point 6): the registry
names `games.valour_fortitude.table_svg:render`, the page embeds its SVG beside the view in
words, with every unit marked by `data-piece`, own/enemy from the seat's side and by side only
for the umpire."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from games.core.umpire import UMPIRE
from pbem.play.models import Game
from pbem.play.services.games import game_create
from tests.pbem.web.conftest import client_of

pytestmark = pytest.mark.django_db

UNITS = [f"U-{side}{n}" for side in "AB" for n in range(1, 10)]


@pytest.fixture
def vf_game(alice: User, bob: User, mallory: User) -> Game:
    return game_create(
        ruleset_id="valour_fortitude",
        scenario="starter",
        options={"turn_limit": 2},
        seats={"A": alice, "B": bob, UMPIRE: mallory},
        creator=alice,
        accepted=True,
    )


def board_of(user: User, game: Game) -> str:
    answer = client_of(user).get(f"/games/{game.pk}/")
    assert answer.status_code == 200, answer.content[:2000]
    html = answer.content.decode()
    found = re.search(r'<div id="board"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no board on the page"
    return found.group(1)


def piece_classes(svg: str) -> dict[str, str]:
    return {
        piece: cls
        for cls, piece in re.findall(r'<g class="(block[^"]*)" data-piece="([^"]+)"', svg)
    }


def test_a_seat_sees_the_table_with_its_own_units(vf_game: Game, alice: User, bob: User) -> None:
    for user, side in ((alice, "A"), (bob, "B")):
        svg = board_of(user, vf_game)
        assert '<svg xmlns="http://www.w3.org/2000/svg"' in svg
        assert 'class="vf-table"' in svg
        pieces = piece_classes(svg)
        assert sorted(pieces) == sorted(UNITS)
        for uid, cls in pieces.items():
            expected = "own" if uid.startswith(f"U-{side}") else "enemy"
            assert expected in cls.split(), (side, uid, cls)
        assert svg.count('data-terrain="') == 7


def test_the_umpire_sees_the_table_by_side_only(vf_game: Game, mallory: User) -> None:
    pieces = piece_classes(board_of(mallory, vf_game))
    assert sorted(pieces) == sorted(UNITS)
    for uid, cls in pieces.items():
        assert not {"own", "enemy"} & set(cls.split()), (uid, cls)
        assert f"side-{uid[2]}" in cls.split()
