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
