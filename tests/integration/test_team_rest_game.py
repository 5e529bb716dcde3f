"""A 2-vs-2 Napoleon's Triumph team game (DEC2, board austerlitz, rulebook chapter 19) created,
played and finished only through the REST API, against gunicorn, a Celery worker, PostgreSQL and
Redis, with written orders crossing turns (issue 13 item 6).

Four users (made in the database with their tokens, as the other integration tests do: sign-up
needs a mailbox) hold the seats allied-1, allied-2 (AL) and french-1, french-2 (F). One creates the
game, the others accept their invitations. Then, until the game is over, every seat's view, inbox
and new events are read; a prompted seat picks a random action from its view (team_rest_client)
and the worker applies it. Whenever a commander-in-chief may write (`write_order` among his
actions) he writes one order a team turn to his subordinate, its text built from the board's
toponyms. At every poll (digest napoleons-triumph-team.md 3.4.6, 3.5, T41):

* NT-TEAM-22: the recipient's inbox holds an order written in team turn k exactly from the start
  of his team's turn k+1 (not during turn k, nor the other side's turn);
* NT-TEAM-23: no seat but the author and, once delivered, the recipient has its text or canonical
  form in its view, inbox or events; `write_order` events are in their author's stream only;

and after the game: NT-TEAM-26, the archive shows every written order to every seat; the game is
finished and its log verifies.
"""

from __future__ import annotations

import json
import random  # noqa: TID251  (an outside client: seeded, need not replay the engine)
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.integration import team_rest_client as client_module
from tests.integration.it_helpers import imported_roots, report, users
from tests.integration.team_rest_client import (
    CONFERENCES,
    Api,
    Composed,
    Gazetteer,
    Move,
    chat_move,
    conference_move,
    is_over,
    order_move,
    own_team,
    play_move,
    prompted_kinds,
    submit,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROLES = {"allied-1": "AL", "allied-2": "AL", "french-1": "F", "french-2": "F"}
SEED = 13
DEADLINE_SECONDS = 15 * 60  # generous: a busy 2-core machine; a game takes about 200 actions
STEP_CAP = 2000


def test_the_team_client_imports_nothing_of_the_server() -> None:
    assert imported_roots(client_module.__file__) <= {
        "__future__",
        "random",
        "time",
        "dataclasses",
        "typing",
        "requests",
    }


# --- the written orders of the game and what each seat may see of them ----------------------------


def order_key(order: Any) -> tuple[str, frozenset[str]] | None:
    """(verb, toponyms) of an engine order json (3.4.3), None for an empty slot."""
    if not isinstance(order, dict):
        return None
    return str(order["verb"]), frozenset(str(t) for t in order["toponyms"])


@dataclass(frozen=True)
class Written:
    """A written order as applied: its author's side and team turn k (NT-TEAM-22: readable by
    its recipient from k+1), the text sent and the canonical form the author's view shows."""

    side: str
    author: str
    recipient: str
    turn: int
    text: str
    canonical: dict[str, Any]

    @property
    def key(self) -> tuple[str, frozenset[str]] | None:
        return order_key(self.canonical)

    def strings(self) -> tuple[str, ...]:
        return (self.text, str(self.canonical["text_de"]), str(self.canonical["text_en"]))


def mentions(answer: Any, order: Written) -> bool:
    """Whether a JSON answer holds the order's text (as sent or canonical, in any string) or its
    canonical form (a {verb, toponyms} object)."""
    if isinstance(answer, dict):
        if "verb" in answer and "toponyms" in answer and order_key(answer) == order.key:
            return True
        return any(mentions(v, order) for v in answer.values())
    if isinstance(answer, list):
        return any(mentions(v, order) for v in answer)
    if isinstance(answer, str):
        return any(s in answer for s in order.strings())
    return False


def inbox_items(api: Api, game_id: str, role: str, seat_view: dict[str, Any], k1: bool) -> Any:
    """The role's inbox as (turn written, turn readable, order) triples, with the raw answer:
    contract K1 (GET team/orders/inbox) when the server has it, else the view's team.inbox."""
    if k1:
        answer = api.get_json(f"/api/v1/games/{game_id}/team/orders/inbox?role={role}")
        assert answer["role"] == role
        items = [(i["turn_written"], i["turn_readable"], i["order"]) for i in answer["orders"]]
        return answer, items
    raw = seat_view["view"]["team"]["inbox"]
    return raw, [(i["turn"], i["readable_from_turn"], i["order"]) for i in raw]


@dataclass
class Referee:
    """What the test has seen: the team turns started, the orders written, each seat's events;
    `check` judges one poll of every seat."""

    api: dict[str, Api]
    game_id: str
    k1: bool
    started: dict[str, int] = field(default_factory=dict)  # side -> latest team turn begun
    orders: list[Written] = field(default_factory=list)
    delivered: set[int] = field(default_factory=set)  # indexes into orders
    # T41: the sides whose turn it was at polls that found an order not yet in its inbox
    pending_during: dict[int, set[str]] = field(default_factory=dict)
    last_seq: dict[str, int] = field(default_factory=dict)
    write_events: dict[str, int] = field(default_factory=dict)  # role -> write_order events
    polls: int = 0

    def note_turn(self, seat_view: dict[str, Any]) -> None:
        """A side's team turn k has begun once a view shows it active in round k (3.4.6: the
        delivery is in the transaction that starts it)."""
        view = seat_view["view"]
        if view["team"]["phase"] == "play" and view["phase"] == "turn":
            side, k = str(view["active"]), int(view["round"]["index"])
            self.started[side] = max(self.started.get(side, 0), k)

    def is_delivered(self, order: Written) -> bool:
        return self.started.get(order.side, 0) >= order.turn + 1  # NT-TEAM-22

    def new_events(self, role: str) -> list[dict[str, Any]]:
        after = self.last_seq.get(role, 0)
        events: list[dict[str, Any]] = self.api[role].get_json(
            f"/api/v1/games/{self.game_id}/events?role={role}&after={after}"
        )
        if events:
            self.last_seq[role] = int(events[-1]["seq"])
        return events

    def check(self, views: dict[str, dict[str, Any]]) -> None:
        self.polls += 1
        over = any(is_over(v) for v in views.values())
        self.note_turn(views["allied-1"])
        active = str(views["allied-1"]["view"]["active"])
        for role, seat_view in views.items():
            raw_inbox, items = inbox_items(self.api[role], self.game_id, role, seat_view, self.k1)
            events = self.new_events(role)
            for e in events:  # NT-TEAM-23: a write_order event is its author's alone
                if e["kind"] == "write_order":
                    assert e["role"] == role, f"{role} lists {e['role']}'s write_order: {e}"
                    self.write_events[role] = self.write_events.get(role, 0) + 1
            if over:
                continue  # NT-TEAM-26: from now on the archive shows everything to everyone
            held = {order_key(o): (w, r) for w, r, o in items if o is not None}
            for n, order in enumerate(self.orders):
                readable = role == order.author or (
                    role == order.recipient and self.is_delivered(order)
                )
                if role == order.recipient:  # NT-TEAM-22, T41
                    assert (order.key in held) == self.is_delivered(order), (
                        f"turn {order.turn} order to {role} (started {self.started}): "
                        f"in his inbox {order.key in held}; inbox {items}"
                    )
                    if order.key in held:
                        assert held[order.key] == (order.turn, order.turn + 1), held[order.key]
                        self.delivered.add(n)
                    else:
                        self.pending_during.setdefault(n, set()).add(active)
                if not readable:  # NT-TEAM-23: nobody else, at any poll
                    for what, answer in (("view", seat_view), ("inbox", raw_inbox)):
                        assert not mentions(answer, order), f"{role}'s {what} shows {order}"
                    assert not mentions(events, order), f"{role}'s events show {order}"
            mine = {order.key for order in self.orders if order.recipient == role}
            assert set(held) <= mine, f"{role}'s inbox holds orders not his: {items}"


# --- the players ----------------------------------------------------------------------------------


def written_now(seat_view: dict[str, Any], written: set[tuple[str, int]]) -> bool:
    team = own_team(seat_view)
    return (team["side"], int(seat_view["view"]["round"]["index"])) in written


def next_move(
    seat_view: dict[str, Any],
    rng: random.Random,
    gazetteer: Gazetteer,
    written: set[tuple[str, int]],
) -> tuple[Move, Composed | None] | None:
    """The seat's move now: in a conference one that moves it on (now and then a chat line);
    in play a written order first when the CinC may write and has not this team turn, else a
    random listed action."""
    if seat_view["view"]["team"]["phase"] in CONFERENCES:
        move = chat_move(seat_view, rng) or conference_move(seat_view, rng)
        return None if move is None else (move, None)
    if "write_order" in prompted_kinds(seat_view) and not written_now(seat_view, written):
        team = own_team(seat_view)
        assert team["ranks"], team
        assert team["ranks"][0] == seat_view["role"], team  # NT-TEAM-17: the CinC writes
        composed = gazetteer.compose(rng.choice(team["ranks"][1:]), rng)
        return order_move(seat_view, composed), composed
    move = play_move(seat_view, rng)
    return None if move is None else (move, None)


def record_order(seat_view: dict[str, Any], composed: Composed, after: dict[str, Any]) -> Written:
    """The applied order as its author's view now shows the draft (3.4.3 canonical form)."""
    drafts = after["view"]["team"]["drafts"]
    canonical = drafts[composed.recipient]
    assert order_key(canonical) == (composed.verb, composed.toponyms), (composed, canonical)
    return Written(
        side=own_team(seat_view)["side"],
        author=seat_view["role"],
        recipient=composed.recipient,
        turn=int(seat_view["view"]["round"]["index"]),
        text=composed.text,
        canonical=canonical,
    )


def setup_game(base: str) -> tuple[str, dict[str, Api]]:
    holders = dict(zip(ROLES, users("team_rest_", len(ROLES)), strict=True))
    api = {r: Api(base, Token.objects.get_or_create(user=u)[0].key) for r, u in holders.items()}
    created = api["allied-1"].post(
        "/api/v1/games",
        {
            "ruleset": "napoleons_triumph",
            "scenario": "DEC2",
            "options": {"board": "austerlitz", "team_play": True, "roles": ROLES},
            "seats": {r: u.username for r, u in holders.items()},
        },
    )
    assert created.status_code == 201, created.text
    game_id = str(created.json()["id"])
    for role in ROLES:
        if role != "allied-1":
            accepted = api[role].post(f"/api/v1/games/{game_id}/seats/{role}/accept", None)
            assert accepted.status_code == 200, accepted.text
    return game_id, api


def has_k1(api: dict[str, Api], game_id: str) -> bool:
    """Contract K1 (GET team/orders/inbox) is served: 200 to the seat for a team game, 404
    before it lands. When it is, another user may not read that seat's inbox (NT-TEAM-23)."""
    path = f"/api/v1/games/{game_id}/team/orders/inbox?role=allied-2"
    status = api["allied-2"].get(path).status_code
    assert status in (200, 404), status
    if status == 404:
        return False
    for role in ("allied-1", "french-1"):
        refused = api[role].get(path)
        assert refused.status_code == 403, f"{role} reads allied-2's inbox: {refused.text}"
    return True


def assert_archive_closed(api: Api, game_id: str) -> None:
    """NT-TEAM-26 (K1): no archive while the game runs."""
    answer = api.get(f"/api/v1/games/{game_id}/orders/archive")
    assert answer.status_code == 409, answer.text
    assert answer.json()["code"] == "game_not_over", answer.text


def archive_keys(api: Api, game_id: str, role: str, k1: bool) -> set[Any]:
    """NT-TEAM-26: the archive's written orders as (side, recipient, turn, key)."""
    if k1:
        slots = api.get_json(f"/api/v1/games/{game_id}/orders/archive")["orders"]
    else:
        slots = api.get_json(f"/api/v1/games/{game_id}/view?role={role}")["view"]["team"]["archive"]
    return {
        (s["side"], s["recipient"], s["turn"], order_key(s["order"]))
        for s in slots
        if s["order"] is not None
    }


def wait_finished(api: Api, game_id: str, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game: dict[str, Any] = api.get_json(f"/api/v1/games/{game_id}")
        if game["status"] == "finished":
            return game
        time.sleep(0.05)  # a poll interval, not a synchronisation
    raise AssertionError(f"game {game_id} not finished after {seconds} s")


# --- the game ---------------------------------------------------------------------------------


def test_a_2v2_team_game_over_rest_with_written_orders_crossing_turns(
    running_worker: Any, web: str, capsys: pytest.CaptureFixture[str]
) -> None:
    started_at = time.monotonic()
    game_id, api = setup_game(web)
    board = api["french-1"].get_json("/api/v1/rulesets/napoleons_triumph/boards/austerlitz")
    gazetteer = Gazetteer(board)
    k1 = has_k1(api, game_id)
    referee = Referee(api, game_id, k1)
    rng = random.Random(SEED)
    written: set[tuple[str, int]] = set()
    kinds: dict[str, int] = {}
    rejected: dict[str, int] = {}
    actions = 0
    deadline = started_at + DEADLINE_SECONDS

    for _ in range(STEP_CAP):
        assert time.monotonic() < deadline, f"no end after {DEADLINE_SECONDS} s, {actions} actions"
        views = {r: api[r].get_json(f"/api/v1/games/{game_id}/view?role={r}") for r in ROLES}
        referee.check(views)
        if any(is_over(v) for v in views.values()):
            break
        options = []
        for role in ROLES:
            found = next_move(views[role], rng, gazetteer, written)
            if found is not None:
                options.append(found)
        assert options, {r: views[r]["prompt"] for r in ROLES}
        move, composed = rng.choice(options)
        outcome = submit(api[move.role], game_id, move)
        actions += 1
        kinds[move.kind] = kinds.get(move.kind, 0) + 1
        if outcome["status"] == "rejected":  # a random payload may be refused, with its rule
            assert outcome["errors"], outcome
            assert all(e["rule"] for e in outcome["errors"]), outcome
            assert composed is None, f"a well-formed written order refused: {outcome}"
            rejected[move.kind] = rejected.get(move.kind, 0) + 1
            continue
        assert outcome["status"] == "applied", outcome
        if composed is not None:
            seat_view = views[move.role]
            after = api[move.role].get_json(f"/api/v1/games/{game_id}/view?role={move.role}")
            referee.orders.append(record_order(seat_view, composed, after))
            written.add((own_team(seat_view)["side"], int(seat_view["view"]["round"]["index"])))
            if k1:
                assert_archive_closed(api[move.role], game_id)
    else:
        raise AssertionError(f"no end within {STEP_CAP} steps")

    seconds = time.monotonic() - started_at
    game = wait_finished(api["allied-1"], game_id)
    assert game["status"] == "finished"
    assert len(referee.orders) >= 4, "too few written orders to judge the timing"
    assert referee.delivered, "no written order was delivered during the game"
    crossed = {o.side for n, o in enumerate(referee.orders) if n in referee.delivered}
    assert crossed == {"AL", "F"}, f"orders delivered only for {crossed}"
    for n in referee.delivered:  # T41: not readable in the writing turn nor the other side's
        assert referee.pending_during[n] == {"AL", "F"}, (referee.orders[n], referee.pending_during)
    # the author's stream lists each of his written orders (and only his: Referee.check)
    for role in ROLES:
        authored = sum(1 for o in referee.orders if o.author == role)
        assert referee.write_events.get(role, 0) == authored, (role, referee.write_events)
    # NT-TEAM-26: every written order, to every seat
    expected = {(o.side, o.recipient, o.turn, o.key) for o in referee.orders}
    for role in ROLES:
        assert archive_keys(api[role], game_id, role, k1) == expected, role
    verified = api["french-2"].get_json(f"/api/v1/games/{game_id}/verify")
    assert verified["ok"], verified
    assert verified["commitment_ok"], verified
    assert verified["seed"], verified  # revealed: the game is finished

    report(
        capsys,
        f"team REST game, seed {SEED}: {actions} actions ({sum(rejected.values())} rejected "
        f"{dict(sorted(rejected.items()))}), {len(referee.orders)} written orders, "
        f"{len(referee.delivered)} delivered during play, {referee.polls} polls of 4 seats, "
        f"inbox via {'K1' if k1 else 'view team.inbox'}, {seconds:.1f} s; "
        f"kinds {json.dumps(dict(sorted(kinds.items())))}",
    )
