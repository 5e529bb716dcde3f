"""A short game played through the API; each seat sees its own view and its own log lines."""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.protocol import OBSERVER
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from pbem.play.models import Event, Game
from pbem.play.services.log import state_at


def test_a_short_game_played_through_the_api(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    clients = {"allied": alice_client, "french": bob_client}

    answers = api.play(clients, game["id"], 6)

    assert [a.json()["event"]["seq"] for a in answers] == [2, 3, 4, 5, 6, 7]
    assert [a.json()["event"]["kind"] for a in answers][:2] == ["allied_setup", "french_setup"]
    seqs = list(Event.objects.filter(game_id=game["id"]).values_list("seq", flat=True))
    assert seqs == list(range(1, 8))
    detail = alice_client.get(f"/api/v1/games/{game['id']}").json()
    assert detail["head_seq"] == 7
    mine = {g["id"]: g for g in bob_client.get("/api/v1/games").json()}
    assert mine[game["id"]]["your_turn"] == ("french" in detail["active_roles"])


def test_each_role_gets_its_own_view_and_prompt(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    api.play({"allied": alice_client, "french": bob_client}, game["id"], 2)

    allied = alice_client.get(f"/api/v1/games/{game['id']}/view")
    french = bob_client.get(f"/api/v1/games/{game['id']}/view", {"role": "french"})
    assert allied.status_code == french.status_code == 200
    a, f = allied.json(), french.json()
    assert (a["role"], f["role"]) == ("allied", "french")
    assert a["seq"] == f["seq"] == 3
    assert a["view"]["viewer"]["role"] == "allied"
    assert f["view"]["viewer"]["role"] == "french"
    # After both set-ups the Allies are prompted to play: the French see no prompt.
    assert a["prompt"] is not None
    assert "end_turn" in a["prompt"]["kinds"]
    assert f["prompt"] is None

    allied_ids = {u["id"] for u in a["view"]["units"]}
    assert allied_ids
    french_text = json.dumps(f["view"])
    leaked = sorted(uid for uid in allied_ids if f'"{uid}"' in french_text)
    assert leaked == [], f"the French view names Allied units {leaked}"


def test_the_view_is_refused_for_seats_the_caller_does_not_hold(
    alice_client: APIClient, mallory_client: APIClient, game: dict[str, Any]
) -> None:
    url = f"/api/v1/games/{game['id']}/view"
    assert alice_client.get(url, {"role": "french"}).status_code == 403
    assert alice_client.get(url, {"role": "@omniscient"}).status_code == 403
    assert mallory_client.get(url, {"role": "allied"}).status_code == 403


def test_a_spectator_reads_only_the_public_view_and_log(
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
    game: dict[str, Any],
) -> None:
    api.play({"allied": alice_client, "french": bob_client}, game["id"], 4)
    g = Game.objects.get(pk=game["id"])
    state = state_at(g, g.head_seq)
    assert isinstance(state, GameState)

    view = mallory_client.get(f"/api/v1/games/{game['id']}/view")
    events = mallory_client.get(f"/api/v1/games/{game['id']}/events")

    assert view.status_code == events.status_code == 200
    assert view.json()["role"] == OBSERVER
    assert view.json()["prompt"] is None
    assert view.json()["view"] == json.loads(json.dumps(RULESET.view(state, OBSERVER)))
    text = json.dumps(view.json()["view"])
    unit_ids = [u.id for u in state.units.values()]
    assert unit_ids
    assert not [u for u in unit_ids if f'"{u}"' in text]
    entries = [e for ev in Event.objects.filter(game=g) for e in ev.log]
    readable = {e["text"] for e in entries if e["audience"] is None or OBSERVER in e["audience"]}
    private = {e["text"] for e in entries if e["audience"] and OBSERVER not in e["audience"]}
    lines = {line for e in events.json() for line in e["lines"]}
    assert lines == readable
    assert not lines & (private - readable)
    said = " ".join(lines)
    assert not [u for u in unit_ids if re.search(rf"\b{re.escape(u)}\b", said)]
    assert all(e["payload"] is None for e in events.json() if e["kind"] != ".setup")


def test_a_game_without_spectators_refuses_users_without_a_seat(
    api: Any, alice_client: APIClient, bob: User, mallory_client: APIClient
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": "bob"}, spectators=False)

    assert data["spectators"] is False
    assert mallory_client.get(f"/api/v1/games/{data['id']}/view").status_code == 403
    assert mallory_client.get(f"/api/v1/games/{data['id']}/events").status_code == 403


def test_a_caller_with_two_roles_must_name_one(
    api: Any, alice_client: APIClient, alice: User
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": "alice"}, hot_seat=True)
    url = f"/api/v1/games/{data['id']}/view"
    assert alice_client.get(url).status_code == 400
    assert alice_client.get(url, {"role": "french"}).json()["role"] == "french"
    events = f"/api/v1/games/{data['id']}/events"
    assert alice_client.get(events).status_code == 400
    # An order goes to the one prompted role when none is named.
    action = api.random_action(data["id"], "allied")
    response = alice_client.post(
        f"/api/v1/games/{data['id']}/actions",
        {"kind": action.kind, "payload": action.payload},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["intake"]["role"] == "allied"


def test_the_log_shows_each_seat_only_its_own_lines(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    api.play({"allied": alice_client, "french": bob_client}, game["id"], 4)

    private: dict[str, set[str]] = {"allied": set(), "french": set()}
    public: set[str] = set()
    for ev in Event.objects.filter(game_id=game["id"]):
        for entry in ev.log:
            if entry["audience"] is None:
                public.add(entry["text"])
            for role in private:
                if entry["audience"] is not None and role in entry["audience"]:
                    private[role].add(entry["text"])
    assert private["allied"] - private["french"], "the game should have private lines by now"

    for role, client in (("allied", alice_client), ("french", bob_client)):
        response = client.get(f"/api/v1/games/{game['id']}/events", {"role": role})
        assert response.status_code == 200
        events = response.json()
        assert [e["seq"] for e in events] == [1, 2, 3, 4, 5]
        lines = {line for e in events for line in e["lines"]}
        other = "french" if role == "allied" else "allied"
        forbidden = private[other] - private[role] - public
        assert forbidden
        assert not lines & forbidden
        assert lines == public | private[role]
        for e in events:
            assert set(e) == {"seq", "kind", "role", "created_at", "lines", "payload"}
            if e["kind"] == ".setup" or e["role"] == role:
                assert e["payload"] is not None
            else:
                assert e["payload"] is None, f"{role} sees the payload of {e['kind']}"


def test_the_log_after_a_seq(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    api.play({"allied": alice_client, "french": bob_client}, game["id"], 2)
    url = f"/api/v1/games/{game['id']}/events"

    assert [e["seq"] for e in alice_client.get(url, {"after": 1}).json()] == [2, 3]
    assert alice_client.get(url, {"after": 3}).json() == []
    assert alice_client.get(url, {"after": 99}).json() == []
    assert alice_client.get(url, {"after": ""}).status_code == 200  # blank = from the start
    for bad in ("-1", "x", "1.5", "1e3"):
        response = alice_client.get(url, {"after": bad})
        assert response.status_code == 400, bad
