"""The players of a 2-vs-2 Napoleon's Triumph team game that know only the published API
(tests/integration/test_team_rest_game.py): HTTP, each seat's view (its `team` section and its
prompted actions with their schemas and enumerated choices) and the board's gazetteer.

Like api_only_client.py it imports nothing of `games` or `pbem` (the test checks that): every
move is built from what a seat's own view shows. The engine's kinds come with their `choices`;
the team kinds (rulebook chapter 19) list none, so their payloads are built from the view: the
ranks from the team's members (NT-TEAM-5), the corps from the side's commanders (NT-TEAM-7), and
written orders from the board's toponyms in the grammar of digest 3.4.2 (NT-TEAM-19..21).
"""

from __future__ import annotations

import random  # noqa: TID251  (an outside client: seeded, need not replay the engine)
import time
from dataclasses import dataclass, field
from typing import Any

import requests

CONFERENCES = ("conference_initial", "conference_night")
CHAT_CHANCE = 0.15  # now and then a prompted seat talks in an open conference (NT-TEAM-6)
VERB_WORDS = {  # NT-TEAM-20, 3.4.2: (German, English)
    "ATTACK": ("angreifen", "Attack"),
    "DEFEND": ("verteidigen", "Defend"),
}


@dataclass
class Api:
    """One user's token-authenticated HTTP client."""

    base: str
    token: str
    session: requests.Session = field(default_factory=requests.Session)

    def __post_init__(self) -> None:
        self.session.headers["Authorization"] = f"Token {self.token}"

    def get(self, path: str) -> requests.Response:
        return self.session.get(self.base + path, timeout=60)

    def get_json(self, path: str) -> Any:
        response = self.get(path)
        assert response.status_code == 200, f"GET {path}: {response.status_code} {response.text}"
        return response.json()

    def post(self, path: str, body: Any) -> requests.Response:
        return self.session.post(self.base + path, json=body, timeout=60)

    def wait_intake(self, intake_id: str, seconds: float = 120) -> dict[str, Any]:
        """Poll GET intakes/<id> until the worker has decided it (applied or rejected)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            out: dict[str, Any] = self.get_json(f"/api/v1/intakes/{intake_id}")
            if out["status"] != "received":
                return out
            time.sleep(0.02)  # a poll interval, not a synchronisation
        raise AssertionError(f"intake {intake_id} still received after {seconds} s")


@dataclass(frozen=True)
class Move:
    role: str
    kind: str
    payload: Any


@dataclass(frozen=True)
class Composed:
    """A written order as its author composed it: the text sent and what it must mean."""

    recipient: str
    text: str
    verb: str
    toponyms: frozenset[str]


def own_team(seat_view: dict[str, Any]) -> dict[str, Any]:
    """The reader's team entry of the view's team section."""
    role = seat_view["role"]
    for t in seat_view["view"]["team"]["teams"]:
        if role in t["members"]:
            found: dict[str, Any] = t
            return found
    raise AssertionError(f"{role} is in no team: {seat_view['view']['team']['teams']}")


def cinc_of(team: dict[str, Any]) -> str | None:
    """NT-TEAM-5: rank 1 of a locked rank order."""
    ranks = team["ranks"]
    return None if not ranks else str(ranks[0])


def prompted_kinds(seat_view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    prompt = seat_view["prompt"]
    if prompt is None:
        return {}
    return {a["kind"]: a for a in prompt["actions"] if not a["any_time"]}


def is_over(seat_view: dict[str, Any]) -> bool:
    return bool(seat_view["view"]["phase"] == "over")


class Gazetteer:
    """The board's toponyms (GET rulesets/napoleons_triumph/boards/<board>), and the written
    orders composed from them: a verb and 2-3 toponyms, German or English word order (3.4.2).

    So that no order's text is part of another's (a leak check looks for it in every other
    seat's answers), only names that begin or end no other name are used ("Pratze" is left out
    for "Pratzeberg"), and two orders with the same verb share at most one toponym."""

    def __init__(self, board: dict[str, Any]) -> None:
        names = {str(t["id"]): str(t["name"]) for t in board["toponyms"]}
        folded = {i: n.casefold() for i, n in names.items()}
        self.names = {
            i: n
            for i, n in names.items()
            if not any(
                j != i and (o.startswith(folded[i]) or o.endswith(folded[i]))
                for j, o in folded.items()
            )
        }
        self.used: list[tuple[str, frozenset[str]]] = []

    def compose(self, recipient: str, rng: random.Random) -> Composed:
        ids = sorted(self.names)
        for _ in range(10_000):
            verb = rng.choice(sorted(VERB_WORDS))
            picked = rng.sample(ids, rng.randint(2, 3))
            chosen = frozenset(picked)
            if all(v != verb or len(chosen & old) < 2 for v, old in self.used):
                self.used.append((verb, chosen))
                break
        else:
            raise AssertionError("no fresh order left to compose")
        names = [self.names[i] for i in picked]
        german, english = VERB_WORDS[verb]
        if rng.random() < 0.5:  # "Pratze, Pratzeberg und Aujezd verteidigen"
            text = f"{', '.join(names[:-1])} und {names[-1]} {german}"
        else:  # "Attack Telnitz, Sokolnitz and Aujezd."
            text = f"{english} {', '.join(names[:-1])} and {names[-1]}."
        return Composed(recipient, text, verb, chosen)


def conference_move(seat_view: dict[str, Any], rng: random.Random) -> Move | None:
    """A move that moves the conference on (NT-TEAM-4..7, -9), or None if the seat has none."""
    role = seat_view["role"]
    kinds = prompted_kinds(seat_view)
    team = own_team(seat_view)
    proposal = team.get("proposal")
    if "set_ranks" in kinds and proposal is None:  # NT-TEAM-5
        order = list(team["members"])
        rng.shuffle(order)
        return Move(role, "set_ranks", {"ranks": {r: i + 1 for i, r in enumerate(order)}})
    if "confirm_ranks" in kinds and proposal is not None and role not in team["confirmed"]:
        return Move(role, "confirm_ranks", {"ranks": {r: i + 1 for i, r in enumerate(proposal)}})
    initial = team["conference"] == "initial"
    if "assign_corps" in kinds and initial and team.get("corps_draft") is None:  # NT-TEAM-7
        commanders = sorted(
            c["id"] for c in seat_view["view"]["commanders"] if c["side"] == team["side"]
        )
        rng.shuffle(commanders)
        seats = list(team["ranks"] or proposal or team["members"])
        corps = {c: seats[i % len(seats)] for i, c in enumerate(commanders)}
        return Move(role, "assign_corps", {"corps": corps})
    if "skip_conference" in kinds and rng.random() < 0.5:  # NT-TEAM-9
        return Move(role, "skip_conference", None)
    if "close_conference" in kinds and (not initial or team.get("corps_draft") is not None):
        return Move(role, "close_conference", None)
    return None


def chat_move(seat_view: dict[str, Any], rng: random.Random) -> Move | None:
    if "chat_message" not in prompted_kinds(seat_view) or rng.random() >= CHAT_CHANCE:
        return None
    role = seat_view["role"]
    return Move(role, "chat_message", {"text": f"{role}: hold the line ({rng.randrange(100)})"})


def play_move(seat_view: dict[str, Any], rng: random.Random) -> Move | None:
    """A random listed action: a kind, then one of its enumerated payloads; `end_part`
    (NT-TEAM-32, no payload) is one more kind to draw. Written orders are the caller's."""
    role = seat_view["role"]
    kinds = prompted_kinds(seat_view)
    drawable: list[tuple[str, list[Any]]] = [
        (k, list(a["choices"]["payloads"]))
        for k, a in sorted(kinds.items())
        if a["choices"] and a["choices"]["payloads"]
    ]
    if "end_part" in kinds:
        drawable.append(("end_part", [{}]))
    if not drawable:
        return None
    kind, payloads = rng.choice(drawable)
    return Move(role, kind, rng.choice(payloads))


def order_move(seat_view: dict[str, Any], composed: Composed) -> Move:
    return Move(
        seat_view["role"], "write_order", {"recipient": composed.recipient, "text": composed.text}
    )


def submit(api: Api, game_id: str, move: Move) -> dict[str, Any]:
    """POST the action (202: the worker applies it) and wait for its outcome."""
    body = {"role": move.role, "kind": move.kind, "payload": move.payload}
    response = api.post(f"/api/v1/games/{game_id}/actions", body)
    assert response.status_code in (201, 202), f"{body} -> {response.status_code} {response.text}"
    intake: dict[str, Any] = response.json()["intake"]
    return api.wait_intake(intake["id"]) if response.status_code == 202 else intake
