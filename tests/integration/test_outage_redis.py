"""Redis, the broker, down for a minute under concurrent load, with gunicorn, a Celery worker and
beat running as in production. While it is down the web tier answers as fast as ever (orders are
stored and answered 202, reads are unaffected); once it is back the orders accepted meanwhile are
applied or refused within seconds, in the order they were accepted, with nothing lost or
duplicated; no test code runs a sweep."""

from __future__ import annotations

import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from django.db import connections

from games.core.rng import Rng
from pbem.play.models import OrderIntake
from tests.integration.conftest import Beat, Worker
from tests.integration.it_helpers import (
    assert_log_sound,
    choose,
    create_game,
    fault_line,
    report,
    submit,
    users,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GAMES = 8  # two players each, each player a client thread
READERS = 4  # threads that only read views, as spectators and idle players do
DOWN_SECONDS = float(os.environ.get("PBEM_IT_REDIS_DOWN_SECONDS", "60"))
RECOVER_LIMIT = 15.0  # seconds after Redis is back by which every order accepted is decided
P95_LIMIT = 1.0  # seconds: web answers while Redis is down
POLL = 0.2  # seconds between a client's reads
IMPATIENT = 5.0  # seconds a player waits for an order's outcome before sending another


@pytest.fixture
def beat(worker: Worker, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Beat]:
    b = Beat(dict(worker.env), tmp_path_factory.mktemp("beat"))
    b.start()
    yield b
    b.stop()


@dataclass
class Load:
    """What the clients saw: each answer with its time, and the orders accepted."""

    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    answers: list[tuple[float, float, int]] = field(default_factory=list)  # (t, seconds, status)
    accepted: dict[str, float] = field(default_factory=dict)  # intake id -> when
    noted: set[str] = field(default_factory=set)  # intakes answered with an outage note
    errors: list[str] = field(default_factory=list)
    oracle: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(4)
    )

    def timed(self, call: Callable[..., requests.Response], *args: Any) -> requests.Response:
        started = time.monotonic()
        response = call(*args)
        with self.lock:
            self.answers.append((started, time.monotonic() - started, response.status_code))
        return response


def _player(load: Load, game_id: str, role: str, http: Any, seed: int) -> None:
    """Play `role`: when prompted, send an order (with a key) and wait for it by reading; after
    IMPATIENT seconds without an outcome, send another for the same prompt (they pile up while
    the broker is down, and all but the first that still fits are refused once it is back)."""
    rng = Rng(seed)
    k = 0
    try:
        while not load.stop.is_set():
            game = load.timed(http.get, f"/api/v1/games/{game_id}")
            body = game.json()
            if body.get("status") != "active" or role not in body.get("active_roles", []):
                time.sleep(POLL)
                continue
            with load.oracle:  # the test's own database reads stand in for reading the view
                action = choose(game_id, role, rng)
                connections.close_all()
            if action is None:
                time.sleep(POLL)
                continue
            k += 1
            response = load.timed(submit, http, game_id, action, f"{game_id}-{role}-{k}")
            if response.status_code != 202:
                time.sleep(POLL)  # refused at once (the game moved on): read again
                continue
            intake = response.json()["intake"]
            with load.lock:
                load.accepted[intake["id"]] = time.monotonic()
                if intake.get("note") and "unavailable" in intake["note"]:
                    load.noted.add(intake["id"])
            waiting_since = time.monotonic()
            while not load.stop.is_set():  # wait for it as a player would: by reading
                out = load.timed(http.get, f"/api/v1/intakes/{intake['id']}").json()
                if out["status"] != "received":
                    break
                if time.monotonic() - waiting_since > IMPATIENT:
                    break  # an impatient player sends another order for the same prompt
                time.sleep(POLL)
    except Exception as e:
        with load.lock:
            load.errors.append(f"{role} in {game_id}: {e!r}")
    finally:
        connections.close_all()


def _reader(load: Load, game_ids: list[str], http: Any) -> None:
    i = 0
    try:
        while not load.stop.is_set():
            load.timed(http.get, f"/api/v1/games/{game_ids[i % len(game_ids)]}/view")
            i += 1
            time.sleep(POLL)
    except Exception as e:
        with load.lock:
            load.errors.append(f"reader: {e!r}")


def _p95(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=20)[-1] if len(seconds) >= 2 else max(seconds)


def test_a_minute_without_redis_costs_seconds_not_minutes(
    running_worker: Worker,
    beat: Beat,
    redis_server: Any,
    http_for: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    cast = users("outage", 2 * GAMES + 1)
    games: list[tuple[str, dict[str, Any]]] = []
    for g in range(GAMES):
        allied, french = cast[2 * g], cast[2 * g + 1]
        clients = {"allied": http_for(allied), "french": http_for(french)}
        games.append((create_game(clients["allied"], allied, french), clients))
    game_ids = [g for g, _ in games]
    load = Load()
    threads = [
        threading.Thread(target=_player, args=(load, game_id, role, http, 10 * i + j))
        for i, (game_id, clients) in enumerate(games)
        for j, (role, http) in enumerate(clients.items())
    ]
    threads += [
        threading.Thread(target=_reader, args=(load, game_ids, http_for(cast[-1])))
        for _ in range(READERS)
    ]
    for t in threads:
        t.start()

    def accepted_since(t0: float) -> int:
        with load.lock:
            return sum(1 for at in load.accepted.values() if at >= t0)

    try:
        warm = time.monotonic()
        _until(lambda: accepted_since(warm) >= GAMES, 120, "orders applied before the outage")
        redis_server.stop()
        down_at = time.monotonic()
        _until(lambda: time.monotonic() - down_at >= DOWN_SECONDS, DOWN_SECONDS + 5, "the outage")
        redis_server.start()
        up_at = time.monotonic()
        with load.lock:
            during = [pk for pk, at in load.accepted.items() if down_at <= at < up_at]
        decided_at = _watch_decided(during, RECOVER_LIMIT * 4)
        recovered = max(decided_at.values(), default=up_at) - up_at
        after = time.monotonic()
        _until(lambda: accepted_since(after) >= GAMES // 2, 120, "the games to go on afterwards")
    finally:
        load.stop.set()
        for t in threads:
            t.join(timeout=120)

    _until(lambda: not _received(game_ids), 120, "every accepted order to be decided")
    assert not load.errors, load.errors[:5]
    statuses = Counter(OrderIntake.objects.filter(pk__in=during).values_list("status", flat=True))
    in_outage = [s for t, s, _ in load.answers if down_at <= t < up_at]
    codes = Counter(code for _, _, code in load.answers)
    p95, p50 = _p95(in_outage), statistics.median(in_outage)
    for game_id in game_ids:
        assert_log_sound(game_id)  # gapless, each intake appended at most once, replays
    report(
        capsys,
        fault_line(
            f"redis down {DOWN_SECONDS:.0f} s",
            accepted=len(during),
            applied=statuses["applied"],
            rejected=statuses["rejected"],
            lost=statuses["received"],
            duplicated=0,
            errors_5xx=sum(n for code, n in codes.items() if code >= 500),
            recovered_seconds=recovered,
            extra=(
                f"web during the outage: {len(in_outage)} answers, p50 {p50 * 1000:.0f} ms, "
                f"p95 {p95 * 1000:.0f} ms; {len(load.noted)} answered with the outage note; "
                f"answers {dict(codes)}"
            ),
        ),
    )
    assert during, "no order was accepted while Redis was down"
    assert statuses["received"] == 0
    assert all(code < 500 for code in codes), codes
    assert recovered <= RECOVER_LIMIT, f"recovered in {recovered:.1f} s"
    assert p95 < P95_LIMIT, f"p95 {p95:.2f} s while Redis was down"
    assert load.noted, "no order accepted during the outage said so"
    moved_on = OrderIntake.objects.filter(pk__in=during, status=OrderIntake.Status.REJECTED)
    for intake in moved_on:
        assert intake.errors[0]["rule"] == "game_moved_on", intake.errors
    for game_id in game_ids:  # per game, in the order accepted: event seqs follow created_at
        applied = OrderIntake.objects.filter(
            pk__in=during, game_id=game_id, status=OrderIntake.Status.APPLIED
        ).order_by("created_at")
        seqs = [i.event.seq for i in applied.select_related("event") if i.event is not None]
        assert seqs == sorted(seqs), f"game {game_id}: applied out of order {seqs}"


def _until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {seconds:.0f} s waiting for {what}"
        time.sleep(0.1)


def _received(game_ids: list[str]) -> bool:
    waiting = OrderIntake.objects.filter(
        game_id__in=game_ids, status=OrderIntake.Status.RECEIVED
    ).exists()
    connections.close_all()
    return waiting


def _watch_decided(intake_ids: list[str], seconds: float) -> dict[str, float]:
    """When each intake left `received` (polled every 0.1 s), until all did or `seconds`."""
    decided: dict[str, float] = {}
    deadline = time.monotonic() + seconds
    while len(decided) < len(intake_ids) and time.monotonic() < deadline:
        rows = OrderIntake.objects.filter(pk__in=intake_ids).exclude(
            status=OrderIntake.Status.RECEIVED
        )
        now = time.monotonic()
        for pk in rows.values_list("pk", flat=True):
            decided.setdefault(str(pk), now)
        time.sleep(0.1)
    left = set(intake_ids) - set(decided)
    assert not left, f"{len(left)} orders accepted during the outage still waiting"
    return decided
