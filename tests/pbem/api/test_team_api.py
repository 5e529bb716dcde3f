"""The team-play endpoints (pbem.api.team; digest napoleons-triumph-team.md 3.8, table 3.5.1):
inbox, outbox, commitments, archive and the conference chat, and the seat ETags (L6), in a 2v2
game played through the API. The CinC writes "Telnitz angreifen" to his subordinate whenever he
may; each order reaches the recipient's inbox at his team's next turn (NT-TEAM-22) and nobody
else's (NT-TEAM-23); the archive opens when the game is over (NT-TEAM-26)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.protocol import Action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team.engine import data_of
from pbem.play.models import Event, Game
from pbem.play.services.commit import action_commit
from pbem.play.services.log import state_at
from tests.pbem.api.conftest import client_for

ROLES = {"al1": "AL", "al2": "AL", "fr1": "F", "fr2": "F"}
ORDER_TEXT = "Telnitz angreifen"


@pytest.fixture
def team_game(alice: User, bob: User) -> dict[str, Any]:
    users = {
        "al1": alice,
        "al2": User.objects.create_user("carol_t", "carol@example.com"),
        "fr1": bob,
        "fr2": User.objects.create_user("dave_t", "dave@example.com"),
    }
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz", "team_play": True, "roles": ROLES},
        "seats": {role: u.username for role, u in users.items()},
    }
    clients = {role: client_for(u) for role, u in users.items()}
    created = clients["al1"].post("/api/v1/games", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for role in ("al2", "fr1", "fr2"):
        answer = clients[role].post(f"/api/v1/games/{gid}/seats/{role}/accept")
        assert answer.status_code == 200, answer.content
    return {"id": gid, "clients": clients}


def get(client: APIClient, path: str, role: str, **headers: Any) -> Any:
    sep = "&" if "?" in path else "?"
    return client.get(f"{path}{sep}role={role}", **headers)


def head(gid: str) -> GameState:
    game = Game.objects.get(pk=gid)
    state = state_at(game, game.head_seq)
    assert isinstance(state, GameState)
    return state


def step(tg: dict[str, Any], rng: Rng, *, write: bool = True) -> tuple[str, str] | None:
    """One action of a prompted seat through the API: the CinC's written order first when he
    may write one and has not yet this part; else a random legal action. Returns (author,
    recipient) of a written order, else None."""
    gid, clients = tg["id"], tg["clients"]
    state = head(gid)
    prompts = RULESET.prompts(state)
    role = sorted(prompts)[rng.below(len(prompts))]
    kinds = prompts[role].kinds
    view = get(clients[role], f"/api/v1/games/{gid}/view", role).json()
    drafts = view["view"]["team"].get("drafts") or {}
    if write and "write_order" in kinds and not drafts:
        team = next(t for t in view["view"]["team"]["teams"] if role in t["members"])
        recipient = next(r for r in team["ranks"] if r != role)
        order = {"recipient": recipient, "text": ORDER_TEXT}
        draft: dict[str, Any] = {"role": role, "kind": "write_order", "payload": order}
        answer = clients[role].post(f"/api/v1/games/{gid}/actions", draft, format="json")
        assert answer.status_code == 201, answer.content
        return role, recipient
    action = RULESET.random_action(state, role, rng)
    assert action is not None, role
    if action.kind == "write_order":
        return None  # only the scripted order above: its timing is what the test follows
    move = {"role": role, "kind": action.kind, "payload": action.payload}
    answer = clients[role].post(f"/api/v1/games/{gid}/actions", move, format="json")
    assert answer.status_code == 201, answer.content
    return None


def inbox_texts(tg: dict[str, Any], role: str) -> list[str | None]:
    answer = get(tg["clients"][role], f"/api/v1/games/{tg['id']}/team/orders/inbox", role)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["role"] == role
    for item in body["orders"]:
        assert set(item) == {"turn_written", "turn_readable", "order", "text", "text_de"}
        assert item["turn_readable"] == item["turn_written"] + 1
    return [item["text_de"] for item in body["orders"]]


def test_an_order_reaches_only_its_recipient_at_his_teams_next_turn(
    team_game: dict[str, Any],
) -> None:
    gid, clients = team_game["id"], team_game["clients"]
    rng = Rng(11)
    written: list[tuple[str, str, int]] = []  # author, recipient, team turn written
    checked = 0
    for _ in range(600):
        if head(gid).phase == "over" or len(written) >= 3:
            break
        done = step(team_game, rng)
        started = data_of(head(gid)).started
        if done is not None:
            author, recipient = done
            written.append((author, recipient, int(started[ROLES[author]])))
        for role in ROLES:  # each order in its recipient's inbox from k + 1, in nobody else's
            due = [w for w in written if w[1] == role and started[ROLES[w[0]]] > w[2]]
            assert inbox_texts(team_game, role).count(ORDER_TEXT) == len(due), (role, written)
            checked += 1
    assert len(written) >= 2, "the CinC wrote fewer than two orders: pick another seed"
    assert checked > 50
    started = data_of(head(gid)).started
    delivered = [w for w in written if started[ROLES[w[0]]] > w[2]]
    assert delivered, "no order delivered yet: play longer"
    authors = {w[0] for w in written}  # the CinCs (ranks made them so)
    for author in authors:
        outbox = get(clients[author], f"/api/v1/games/{gid}/team/orders/outbox", author).json()
        assert any(s["order"] and s["order"]["text_de"] == ORDER_TEXT for s in outbox["sent"])
    for other in set(ROLES) - authors:
        assert get(clients[other], f"/api/v1/games/{gid}/team/orders/outbox", other).json() == {
            "role": other,
            "drafts": {},
            "sent": [],
        }


def test_commitments_are_public_one_per_subordinate_and_turn(team_game: dict[str, Any]) -> None:
    gid, clients = team_game["id"], team_game["clients"]
    rng = Rng(5)
    for _ in range(300):
        step(team_game, rng, write=rng.below(2) == 0)
        if len(Event.objects.filter(game_id=gid, kind="end_part")) >= 6:
            break
    answers = [
        get(c, f"/api/v1/games/{gid}/orders/commitments", role).json()
        for role, c in clients.items()
    ]
    assert all(a == answers[0] for a in answers), "every seat reads the same commitments"
    groups = answers[0]["commitments"]
    assert groups, "no team turn was sealed"
    for g in groups:
        assert g["side"] in ("AL", "F")
        assert len(g["digests"]) == 1  # team size - 1, empty slots included (L2)
        assert all(re.fullmatch(r"[0-9a-f]{64}", d) for d in g["digests"])


def test_archive_is_409_until_the_game_is_over_then_every_slot(team_game: dict[str, Any]) -> None:
    gid, clients = team_game["id"], team_game["clients"]
    rng = Rng(2)
    for _ in range(40):
        step(team_game, rng)
    for role, client in clients.items():
        answer = get(client, f"/api/v1/games/{gid}/orders/archive", role)
        assert answer.status_code == 409, answer.content
        assert answer.json()["code"] == "game_not_over"
        assert "NT-TEAM-26" in answer.json()["detail"]
    game = Game.objects.get(pk=gid)
    for i in range(3000):  # to the end through the order path's service (the API is slower)
        state = state_at(game, game.head_seq)
        assert isinstance(state, GameState)
        if state.phase == "over":
            break
        prompts = RULESET.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = RULESET.random_action(state, role, rng)
        assert action is not None
        commit = action_commit(
            game=game,
            action=Action(role, action.kind, action.payload),
            source="api",
            source_ref=f"t{i}",
        )
        assert not commit.rejections, commit.rejections
        game.refresh_from_db()
    assert head(gid).phase == "over"
    slots = data_of(head(gid)).slots
    answers = [get(c, f"/api/v1/games/{gid}/orders/archive", r) for r, c in clients.items()]
    assert all(a.status_code == 200 for a in answers)
    orders = answers[0].json()["orders"]
    assert all(a.json() == answers[0].json() for a in answers)
    assert len(orders) == len(slots) > 0
    digests = {
        d
        for g in get(clients["fr1"], f"/api/v1/games/{gid}/orders/commitments", "fr1").json()[
            "commitments"
        ]
        for d in g["digests"]
    }
    assert {o["commitment"] for o in orders} == digests  # 3.4.5: recomputable by anyone
    for o in orders:  # T46: anyone recomputes each commitment with the digest's own formula
        fields = ("side", "author", "recipient", "turn", "order")
        payload = {"v": 1, "game": "napoleons_triumph", **{k: o[k] for k in fields}}
        canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        recomputed = hashlib.sha256(bytes.fromhex(o["nonce"]) + canonical.encode("utf-8"))
        assert recomputed.hexdigest() == o["commitment"]


def test_chat_is_open_in_the_conference_only_and_only_to_the_team(
    team_game: dict[str, Any],
) -> None:
    gid, clients = team_game["id"], team_game["clients"]
    path = f"/api/v1/games/{gid}/team/conference/messages"
    assert get(clients["al1"], path, "al1").json()["open"] is True
    said = clients["al1"].post(path, {"role": "al1", "text": "I take the Pratzen."}, format="json")
    assert said.status_code == 201, said.content
    assert said.json()["event"]["kind"] == "chat_message"
    mate = get(clients["al2"], path, "al2").json()
    assert [m["text"] for m in mate["messages"]] == ["I take the Pratzen."]
    for enemy in ("fr1", "fr2"):
        assert get(clients[enemy], path, enemy).json()["messages"] == []
    rng = Rng(9)
    while any(t["conference"] for t in head_view(team_game)["teams"]):
        step(team_game, rng, write=False)
    assert get(clients["al1"], path, "al1").json()["open"] is False
    refused = clients["al1"].post(path, {"role": "al1", "text": "Now attack!"}, format="json")
    assert refused.status_code == 409, refused.content  # digest 3.4.4's 409 team_chat_closed
    assert [e["rule"] for e in refused.json()["errors"]] == ["NT-TEAM-13"]
    too_long = clients["al1"].post(path, {"role": "al1", "text": "x" * 4001}, format="json")
    assert too_long.status_code == 400


def head_view(tg: dict[str, Any]) -> Any:
    return get(tg["clients"]["fr1"], f"/api/v1/games/{tg['id']}/view", "fr1").json()["view"]["team"]


def test_a_game_without_team_play_has_no_team_endpoints(
    alice_client: APIClient, game: dict[str, Any]
) -> None:
    gid = game["id"]
    for path in ("team/orders/inbox", "team/orders/outbox", "orders/archive"):
        answer = alice_client.get(f"/api/v1/games/{gid}/{path}")
        assert answer.status_code == 404, (path, answer.content)
    said = alice_client.post(
        f"/api/v1/games/{gid}/team/conference/messages", {"text": "hi"}, format="json"
    )
    assert said.status_code == 404


def test_seat_etags_move_only_with_events_the_seat_may_know(team_game: dict[str, Any]) -> None:
    """L6, NT-TEAM-T44: a written order moves its author's ETag and nobody else's; a public event
    moves everyone's; a current ETag gets 304 with no body."""
    gid, clients = team_game["id"], team_game["clients"]
    rng = Rng(4)
    paths = ("view", "events", "team/orders/inbox")
    while "write_order" not in next(iter(RULESET.prompts(head(gid)).values())).kinds:
        step(team_game, rng, write=False)

    def tags() -> dict[tuple[str, str], str]:
        out = {}
        for role, client in clients.items():
            for p in paths:
                answer = get(client, f"/api/v1/games/{gid}/{p}", role)
                assert answer.status_code == 200
                out[(role, p)] = answer["ETag"]
        return out

    before = tags()
    for (role, p), tag in before.items():
        again = get(clients[role], f"/api/v1/games/{gid}/{p}", role, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304
        assert not again.content
    written = step(team_game, rng)
    assert written is not None
    author = written[0]
    after = tags()
    for key, tag in before.items():
        assert (after[key] == tag) == (key[0] != author), key
    ended = clients[author].post(
        f"/api/v1/games/{gid}/actions",
        {"role": author, "kind": "end_part", "payload": {}},
        format="json",
    )
    assert ended.status_code == 201, ended.content
    moved = tags()
    assert all(moved[k] != after[k] for k in moved)  # a public event: everyone's answers move


def test_an_orders_answer_numbers_its_event_as_its_own_seat_reads_the_log(
    team_game: dict[str, Any],
) -> None:
    """The global seq counts another seat's written order; the answer to an order and its intake
    never show it (they would tell the subordinate that his CinC wrote)."""
    gid, clients = team_game["id"], team_game["clients"]
    rng = Rng(4)
    written = None
    while written is None:
        written = step(team_game, rng)
    author = written[0]
    ended = clients[author].post(
        f"/api/v1/games/{gid}/actions",
        {"role": author, "kind": "end_part", "payload": {}},
        format="json",
    )
    assert ended.status_code == 201, ended.content
    state = head(gid)
    role = next(iter(RULESET.prompts(state)))
    assert role != author
    action = RULESET.random_action(state, role, rng)
    assert action is not None
    body = {"role": role, "kind": action.kind, "payload": action.payload}
    answer = clients[role].post(f"/api/v1/games/{gid}/actions", body, format="json")
    assert answer.status_code == 201, answer.content
    events = get(clients[role], f"/api/v1/games/{gid}/events", role).json()
    seq = answer.json()["event"]["seq"]
    assert seq == events[-1]["seq"] == len(events)
    assert seq < Game.objects.get(pk=gid).head_seq  # the written order is hidden from this seat
    intake = clients[role].get(f"/api/v1/intakes/{answer.json()['intake']['id']}").json()
    assert intake["event_seq"] == seq


def test_the_games_detail_names_each_seats_team(team_game: dict[str, Any]) -> None:
    detail = team_game["clients"]["fr2"].get(f"/api/v1/games/{team_game['id']}").json()
    assert {s["role"]: s["team"] for s in detail["seats"]} == ROLES
