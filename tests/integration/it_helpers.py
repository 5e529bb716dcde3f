"""Helpers for driving games over HTTP in the integration suite, and the log checks they end with.

Orders are chosen by the engine on the state read from the database (a test oracle standing in
for a player who reads their view); every change to a game goes through the REST API and the
worker process.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Count

from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import seat_accept
from pbem.play.services.log import state_at
from pbem.play.services.verify import game_verify

SMALL = {"board": "austerlitz"}


def users(prefix: str, n: int) -> list[User]:
    return [
        User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.org", "pw") for i in range(n)
    ]


def create_game(http: Any, allied: User, french: User) -> str:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": SMALL,
        "seats": {"allied": allied.username, "french": french.username},
    }
    response = http.post("/api/v1/games", body)
    assert response.status_code == 201, response.text
    game_id = str(response.json()["id"])
    # the French seat is an invitation: its holder accepts it (the API path is tested elsewhere)
    seat_accept(game=Game.objects.get(pk=game_id), role="french", user=french)
    return game_id


def choose(game_id: str, role: str, rng: Rng) -> Action | None:
    """A random legal order for `role` at the current head, or None if it has none."""
    game = Game.objects.get(pk=game_id)
    state = state_at(game, game.head_seq, verify=False)
    return random_legal_action(ruleset_get(game.ruleset_id), state, role, rng, tries=5)


def submit(http: Any, game_id: str, action: Action, key: str = "") -> Any:
    body = {"role": action.role, "kind": action.kind, "payload": action.payload}
    headers = {"Idempotency-Key": key} if key else {}
    return http.post(f"/api/v1/games/{game_id}/actions", body, headers=headers)


def wait_intake(http: Any, intake_id: str, seconds: float = 60) -> dict[str, Any]:
    """Poll GET /api/v1/intakes/{id} until the worker has decided it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        response = http.get(f"/api/v1/intakes/{intake_id}")
        assert response.status_code == 200, response.text
        out: dict[str, Any] = response.json()
        if out["status"] != "received":
            return out
        time.sleep(0.02)
    raise AssertionError(f"intake {intake_id} still received after {seconds} s")


def wait_settled(game_ids: list[str], seconds: float = 120) -> None:
    """Wait until no intake of these games is still `received`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not OrderIntake.objects.filter(
            game_id__in=game_ids, status=OrderIntake.Status.RECEIVED
        ).exists():
            return
        time.sleep(0.1)
    left = OrderIntake.objects.filter(game_id__in=game_ids, status=OrderIntake.Status.RECEIVED)
    raise AssertionError(f"{left.count()} intakes still received after {seconds} s")


def assert_log_sound(game_id: str) -> int:
    """Gapless seq from 1 to the head, each intake appended at most once and only when applied,
    and the whole log replays from the seed to the stored hashes. Returns the head."""
    game = Game.objects.get(pk=game_id)
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.head_seq + 1)), "the log has a gap or a duplicate seq"
    twice = (
        Event.objects.filter(game=game, source_ref__startswith="intake:")
        .values("source_ref")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not twice.exists(), f"intakes appended twice: {list(twice)}"
    applied = OrderIntake.objects.filter(game=game, status=OrderIntake.Status.APPLIED)
    from_intakes = Event.objects.filter(game=game, source_ref__startswith="intake:")
    assert from_intakes.count() == applied.count()
    assert set(applied.values_list("event_id", flat=True)) == set(
        from_intakes.values_list("id", flat=True)
    )
    report = game_verify(game=game)
    assert report.ok, report.messages
    return game.head_seq


def imported_roots(path: str) -> set[str]:
    """The top-level modules a Python file imports (an outside client must import nothing of
    the server: only the standard library and `requests`)."""
    tree = ast.parse(Path(path).read_text())
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    return {name.split(".")[0] for name in imported}


def report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """Print a line of figures into the CI log (outside pytest's capture)."""
    with capsys.disabled():
        print(f"\n[integration] {line}")  # noqa: T201  (figures for the CI log)


def fault_line(
    fault: str,
    *,
    accepted: int,
    applied: int,
    rejected: int,
    lost: int,
    duplicated: int,
    errors_5xx: int,
    recovered_seconds: float,
    extra: str = "",
) -> str:
    """The one line each fault test prints: the same figures in the same order for every fault."""
    line = (
        f"fault {fault}: accepted {accepted}, applied {applied}, rejected {rejected}, "
        f"lost {lost}, duplicated {duplicated}, 5xx {errors_5xx}, "
        f"recovered in {recovered_seconds:.1f} s"
    )
    return f"{line}; {extra}" if extra else line
