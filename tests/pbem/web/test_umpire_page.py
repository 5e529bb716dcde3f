"""The umpire's game page: the omniscient view in words, a ruling sent from the generic form
(built from the `.ruling` schema), shown in the log of its audience only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.core.umpire import UMPIRE
from pbem.play.models import Event, Game
from tests.pbem.web.conftest import client_of
from tests.support.umpired import umpired_game

pytestmark = pytest.mark.django_db


def test_the_umpire_rules_from_the_page(alice: User, bob: User, alice_client: Client) -> None:
    ursula = User.objects.create_user("ursula_w", "ursula@example.com")
    game = umpired_game(alice, bob, ursula)
    umpire = client_of(ursula)
    page = umpire.get(f"/games/{game.pk}/").content.decode()
    french_page = client_of(bob).get(f"/games/{game.pk}/").content.decode()
    assert "F01" in page  # the French pieces, which the Allies do not see placed
    assert 'name=".ruling.text"' in page
    assert 'name=".ruling.text"' not in french_page
    answer = umpire.post(
        f"/games/{game.pk}/order",
        {"role": UMPIRE, "kind": ".ruling", ".ruling.text": "Both sides set up again."},
    )
    assert answer.status_code == 303
    assert Event.objects.filter(game=game, kind=".ruling").count() == 1
    line = "Umpire&#x27;s ruling: Both sides set up again."
    assert line in alice_client.get(f"/games/{game.pk}/").content.decode()
    private = umpire.post(
        f"/games/{game.pk}/order",
        {
            "role": UMPIRE,
            "kind": ".ruling",
            ".ruling.text": "Only for the Allies.",
            ".ruling.audience": '["allied"]',
        },
    )
    assert private.status_code == 303, private.content.decode()[:500]
    assert "Only for the Allies." in alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "Only for the Allies." not in client_of(bob).get(f"/games/{game.pk}/").content.decode()


def test_the_lobby_lists_the_games_waiting_for_my_ruling(
    alice: User, bob: User, alice_client: Client
) -> None:
    """The umpire's queue in the lobby (issue 17): a game whose rules wait for `@umpire` is listed
    for its umpire, linked to the umpire's page; not for the players, not when nothing waits."""
    ursula = User.objects.create_user("ursula_q", "ursula_q@example.com")
    game = umpired_game(alice, bob, ursula, title="the umpired one")
    umpire = client_of(ursula)
    assert 'id="umpire-queue"' not in umpire.get("/").content.decode()  # NT never prompts one
    Game.objects.filter(pk=game.pk).update(active_roles=[UMPIRE])
    page = umpire.get("/").content.decode()
    queue = page[
        page.index('id="umpire-queue"') : page.index("</table>", page.index('id="umpire-queue"'))
    ]
    assert f'data-game="{game.pk}"' in queue
    assert f"/games/{game.pk}/?role=%40umpire" in queue
    assert 'id="umpire-queue"' not in alice_client.get("/").content.decode()


def test_a_game_with_two_umpire_seats_from_the_create_page(
    alice: User, bob: User, alice_client: Client
) -> None:
    """The create page offers umpire seats (0 to 4) and the umpire's seat as the creator's own;
    the open umpire seat is listed in the lobby and joined like any seat."""
    form = alice_client.get("/games/new?ruleset=valour_fortitude").content.decode()
    assert 'name="umpires"' in form
    assert f'<option value="{UMPIRE}"' in form
    made = alice_client.post(
        "/games/new",
        {
            "ruleset": "valour_fortitude",
            "scenario": "starter",
            "title": "Two umpires",
            "seat": UMPIRE,
            "umpires": "2",
            "spectators": "on",
        },
    )
    assert made.status_code == 302, made.content.decode()[:800]
    game = Game.objects.get(title="Two umpires")
    umpires = sorted((s.user_id or 0) for s in game.seats.filter(role=UMPIRE))
    assert umpires == [0, alice.pk]
    lobby = client_of(bob).get("/").content.decode()
    assert f'action="/games/{game.pk}/join/{UMPIRE}"' in lobby
    assert client_of(bob).post(f"/games/{game.pk}/join/{UMPIRE}").status_code == 302
    assert {s.user_id for s in game.seats.filter(role=UMPIRE)} == {alice.pk, bob.pk}
    refused = alice_client.post(
        "/games/new",
        {"ruleset": "valour_fortitude", "scenario": "starter", "title": "Too many", "umpires": "9"},
    )
    assert refused.status_code == 400
    assert "Between 0 and 4." in refused.content.decode()
    assert not Game.objects.filter(title="Too many").exists()
