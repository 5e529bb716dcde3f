"""The auction for sides (NT-134, NT-135) through the API: two neutral seats,
one prompt at a time, and after the side choice the seats play the sides they won or left."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.protocol import Action
from pbem.play.models import Game


def test_an_auction_game_is_played_through_the_api(
    api: Any, alice_client: APIClient, bob_client: APIClient, bob: User
) -> None:
    """NT-134: "Die Spieler bieten abwechselnd." (L637); NT-135: "Der andere erhält den Zuschlag:
    Er wählt seine Seite" (L638)."""
    options = {**api.options, "balance": "auction"}
    data = api.create_game(alice_client, {"player_1": "alice", "player_2": "bob"}, options=options)
    clients = {"player_1": alice_client, "player_2": bob_client}
    gid = data["id"]
    first = Game.objects.get(pk=gid).active_roles
    assert len(first) == 1
    other = "player_2" if first[0] == "player_1" else "player_1"
    bidder = clients[first[0]].get(f"/api/v1/games/{gid}/view").json()
    assert [a["kind"] for a in bidder["actions"]] == ["auction_bid", "auction_pass"]
    assert clients[other].get(f"/api/v1/games/{gid}/view").json()["actions"] == []
    wrong = api.submit(clients[other], gid, _action(other, "auction_bid", {"amount": 1}))
    assert wrong.status_code in (409, 422), wrong.content
    bid = api.submit(clients[first[0]], gid, _action(first[0], "auction_bid", {"amount": 2}))
    assert bid.status_code == 201, bid.content
    low = api.submit(clients[other], gid, _action(other, "auction_bid", {"amount": 2}))
    assert low.status_code == 422, low.content
    assert low.json()["errors"][0]["rule"] == "NT-134"
    assert api.submit(clients[other], gid, _action(other, "auction_pass", {})).status_code == 201
    choice = _action(first[0], "auction_choose_side", {"side": "F"})
    chosen = api.submit(clients[first[0]], gid, choice)
    assert chosen.status_code == 201, chosen.content
    assert Game.objects.get(pk=gid).active_roles == [other]  # the Allies set up first


def _action(role: str, kind: str, payload: dict[str, Any]) -> Action:
    return Action(role, kind, payload)
