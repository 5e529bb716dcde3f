"""Workers SIGKILLed under concurrent load: thirty clients play ten games
through gunicorn while a gunicorn worker, a Celery pool child and then the whole Celery worker are
killed with SIGKILL. A client whose connection is reset by the killed process sends the same
order again with the same Idempotency-Key, as a real client would.

Nothing is swept by hand: gunicorn's master replaces its worker, Celery replaces its pool child
(acks_late + reject_on_worker_lost put the child's task back on the queue), and the restarted
worker resolves what was accepted while it was down, or lost with it, by itself. At the end no
answer was a 5xx, every accepted order was applied or rejected, none twice, each retry named the
same intake as its first answer, and every game's log is gapless and replays to its hashes."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.db import connections
from django.db.models import Count

from games.core.protocol import Action
from games.core.rng import Rng
from pbem.play.models import Event, Game, OrderIntake
from tests.integration.conftest import Beat, Http, WebServer, Worker
from tests.integration.it_helpers import (
    assert_log_sound,
    choose,
    create_game,
    fault_line,
    report,
    submit,
    users,
    wait_settled,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GAMES, CLIENTS = 10, 30
ORACLE_READERS = 6  # test threads reading the oracle's state at once (PostgreSQL sessions)
RESENDS = 40  # connection errors in a row a client tolerates for one request
PROGRESS = 20  # orders accepted after each fault before the next one (the load goes on)
SETTLE_SECONDS = 3.0  # how long a client polls its accepted order before playing on
DEADLINE = 90.0  # generous bound on every wait: CI is a busy 2-core machine
# a request cut by the killed process: no answer at all, so the client sends it again
RESET = (requests.ConnectionError, requests.exceptions.ChunkedEncodingError)


def _wait(until: Callable[[], bool], what: str, seconds: float = DEADLINE) -> float:
    """Poll `until` every 50 ms; returns the seconds it took, fails after `seconds`."""
    started = time.monotonic()
    while not until():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(0.05)
    return time.monotonic() - started


def _children(pid: int) -> set[int]:
    """The live (not zombie) child processes of `pid`, from /proc/*/stat."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended meanwhile
            continue
        state, ppid = text[text.rindex(")") + 2 :].split()[:2]
        if int(ppid) == pid and state != "Z":
            out.add(int(stat.parent.name))
    return out


def _kill_child(parent: int, expected: int, what: str) -> tuple[int, float]:
    """SIGKILL one of `parent`'s `expected` children, wait until the parent has replaced it;
    returns the victim's pid and the seconds the replacement took."""
    _wait(lambda: len(_children(parent)) == expected, f"{expected} {what} processes")
    victim = max(_children(parent))  # the youngest: the others may have been replaced already
    os.kill(victim, signal.SIGKILL)
    took = _wait(
        lambda: len(kids := _children(parent)) == expected and victim not in kids,
        f"the killed {what} to be replaced",
    )
    return victim, took


def _intake_of(response: requests.Response) -> str | None:
    """The intake an answer names: the body's intake (201/202) or its id (a 4xx)."""
    try:
        body = response.json()
    except ValueError:
        return None
    intake = body.get("intake") if isinstance(body, dict) else None
    if isinstance(intake, dict):
        intake = intake.get("id")
    return None if intake is None else str(intake)


@dataclass
class Load:
    """The clients' shared tally."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    oracle: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(ORACLE_READERS)
    )
    answers: Counter[int] = field(default_factory=Counter)
    accepted: set[str] = field(default_factory=set)
    keys: dict[tuple[int, str], str] = field(default_factory=dict)  # (user, key) -> intake
    resets: int = 0
    resent_answered: int = 0  # requests answered only after a reset and a resend
    retries: int = 0
    retries_other_status: int = 0  # same intake, another status (the worker decided meanwhile)
    mismatches: list[str] = field(default_factory=list)
    errors_5xx: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def count(self) -> int:
        with self.lock:
            return len(self.accepted)

    def send(self, http: Http, game_id: str, action: Action, key: str) -> requests.Response:
        """POST the order; on a reset send the same key and body again until it is answered."""
        for attempt in range(RESENDS):
            try:
                response: requests.Response = submit(http, game_id, action, key)
            except RESET:
                with self.lock:
                    self.resets += 1
                time.sleep(0.05 * min(attempt + 1, 10))  # a client's backoff before resending
                continue
            with self.lock:
                self.answers[response.status_code] += 1
                if attempt:
                    self.resent_answered += 1
                if response.status_code >= 500:
                    self.errors_5xx.append(f"{key}: {response.status_code} {response.text[:200]}")
            return response
        raise AssertionError(f"{key}: no answer after {RESENDS} connection errors")

    def await_outcome(self, http: Http, intake_id: str) -> None:
        """Poll the accepted order a while, as a player waiting for the result would."""
        until = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < until and not self.stop.is_set():
            try:
                response = http.get(f"/api/v1/intakes/{intake_id}")
            except RESET:
                with self.lock:
                    self.resets += 1
                continue
            if response.status_code >= 500:
                with self.lock:
                    self.answers[response.status_code] += 1
                    self.errors_5xx.append(f"GET {intake_id}: {response.status_code}")
            elif response.status_code == 200 and response.json()["status"] != "received":
                return
            time.sleep(0.1)

    def play(self, i: int, game_id: str, clients: dict[str, Http]) -> None:
        rng = Rng(4000 + i)
        n = 0
        while not self.stop.is_set():
            with self.oracle:  # the test's own reads, bounded: the sessions are for the server
                try:
                    game = Game.objects.get(pk=game_id)
                    if game.status != Game.Status.ACTIVE or not game.active_roles:
                        return
                    role = str(rng.choice(sorted(game.active_roles)))
                    action = choose(game_id, role, rng)
                finally:
                    connections.close_all()
            if action is None:
                self.stop.wait(0.05)
                continue
            n += 1
            key = f"kill-{i}-{n}"
            http = clients[role]
            first = self.send(http, game_id, action, key)
            again = self.send(http, game_id, action, key)  # a client retry: the first answer
            intake, retried = _intake_of(first), _intake_of(again)
            with self.lock:
                self.retries += 1
                if retried != intake:
                    self.mismatches.append(f"{key}: {intake} then {retried}")
                elif again.status_code != first.status_code:
                    self.retries_other_status += 1
                if intake is not None:
                    self.keys[(http.user.pk, key)] = intake
                if first.status_code in (201, 202) and intake is not None:
                    self.accepted.add(intake)
            if first.status_code == 202 and intake is not None:
                self.await_outcome(http, intake)

    def client(self, i: int, game_id: str, clients: dict[str, Http]) -> None:
        try:
            self.play(i, game_id, clients)
        except Exception as e:
            with self.lock:
                self.failures.append(f"client {i}: {e!r}")
        finally:
            connections.close_all()


def _worker_lost(log: Path, offset: int) -> int:
    """How many tasks the worker's log reports cut short by a killed pool child since `offset`
    (acks_late + reject_on_worker_lost put each back on the queue)."""
    with log.open("rb") as f:
        f.seek(offset)
        return f.read().count(b"Task handler raised error: WorkerLostError")


def test_workers_sigkilled_under_load_lose_and_duplicate_nothing(
    running_worker: Worker,
    web_server: WebServer,
    http_for: Callable[..., Http],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    players = users("kills", 2 * GAMES)
    game_ids = []
    for g in range(GAMES):
        allied, french = players[2 * g], players[2 * g + 1]
        game_ids.append(create_game(http_for(allied), allied, french))
    seats = [(players[2 * g], players[2 * g + 1]) for g in range(GAMES)]
    clients = [
        {"allied": http_for(seats[i % GAMES][0]), "french": http_for(seats[i % GAMES][1])}
        for i in range(CLIENTS)
    ]
    (tmp_path / "beat").mkdir()
    beat = Beat(dict(running_worker.env, PBEM_RECOVER_SECONDS="2"), tmp_path / "beat")
    beat.start()
    load = Load()
    threads = [
        threading.Thread(target=load.client, args=(i, game_ids[i % GAMES], clients[i]))
        for i in range(CLIENTS)
    ]
    started = time.monotonic()
    pending: set[str] = set()
    recovered = float("nan")
    settled_error = ""
    try:
        for t in threads:
            t.start()
        _wait(lambda: load.count() >= PROGRESS, "the load to get going")

        # (a) a gunicorn worker: its master forks a new one; its clients' requests are reset
        assert web_server.proc is not None
        before = load.count()
        web_victim, web_respawn = _kill_child(web_server.proc.pid, 3, "gunicorn worker")
        _wait(lambda: load.count() >= before + PROGRESS, "orders after the gunicorn kill")

        # (b) a Celery pool child: the pool forks a new one; its task is delivered again
        assert running_worker.proc is not None
        offset = running_worker.log.stat().st_size
        before = load.count()
        pool_victim, pool_respawn = _kill_child(running_worker.proc.pid, 2, "celery pool")
        _wait(lambda: load.count() >= before + PROGRESS, "orders after the pool-child kill")
        lost_tasks = _worker_lost(running_worker.log, offset)

        # (c) the whole worker: orders are still accepted while none runs, then it restarts
        before = load.count()
        running_worker.kill()
        down = time.monotonic()
        _wait(lambda: load.count() >= before + PROGRESS, "orders accepted while no worker runs")
        running_worker.start()
        ready = time.monotonic()
        down_seconds = ready - down
        accepted_down = load.count() - before
        pending = {
            str(pk)
            for pk in OrderIntake.objects.filter(
                game_id__in=game_ids, status=OrderIntake.Status.RECEIVED
            ).values_list("id", flat=True)
        }
        connections.close_all()
        load.stop.set()

        def resolved() -> bool:
            left = OrderIntake.objects.filter(pk__in=pending, status=OrderIntake.Status.RECEIVED)
            return not left.exists()

        try:
            _wait(resolved, "the orders pending at the worker's restart to be resolved")
            recovered = time.monotonic() - ready
        except AssertionError as e:
            settled_error = str(e)
        for t in threads:
            t.join(timeout=DEADLINE)
        assert not any(t.is_alive() for t in threads), "a client thread did not stop"
        if not settled_error:
            try:
                wait_settled(game_ids, DEADLINE)
            except AssertionError as e:
                settled_error = str(e)
    finally:
        load.stop.set()
        beat.stop()
    elapsed = time.monotonic() - started

    statuses = Counter(
        OrderIntake.objects.filter(pk__in=load.accepted).values_list("status", flat=True)
    )
    appended = Event.objects.filter(game_id__in=game_ids, source_ref__startswith="intake:")
    twice = appended.values("source_ref").annotate(n=Count("id")).filter(n__gt=1).count()
    stored = {
        (user, key): str(pk)
        for user, key, pk in OrderIntake.objects.filter(game_id__in=game_ids)
        .exclude(idempotency_key="")
        .values_list("user_id", "idempotency_key", "id")
    }
    other_intake = [k for k, intake in load.keys.items() if stored.get(k) != intake]
    report(
        capsys,
        fault_line(
            "worker kills",
            accepted=len(load.accepted),
            applied=statuses["applied"],
            rejected=statuses["rejected"],
            lost=statuses["received"] + len(load.accepted) - sum(statuses.values()),
            duplicated=twice + len(load.mismatches) + len(other_intake),
            errors_5xx=len(load.errors_5xx),
            recovered_seconds=recovered,
            extra=(
                f"SIGKILLed gunicorn worker {web_victim} (replaced in {web_respawn:.1f} s), "
                f"celery pool child {pool_victim} (replaced in {pool_respawn:.1f} s, "
                f"{lost_tasks} running tasks cut short and requeued), the whole celery worker "
                f"(down {down_seconds:.1f} s, {accepted_down} orders accepted meanwhile, "
                f"{len(pending)} pending at its restart); {CLIENTS} clients on {GAMES} games, "
                f"answers {dict(sorted(load.answers.items()))}, {load.resets} connection resets "
                f"({load.resent_answered} requests answered after resending the same key), "
                f"{load.retries} key retries ({load.retries_other_status} answered another "
                f"status for the same intake); {elapsed:.1f} s"
            ),
        ),
    )

    assert not load.failures, load.failures[:5]
    assert not settled_error, f"{settled_error}\n{running_worker.tail()}"
    assert not load.errors_5xx, load.errors_5xx[:5]
    assert set(load.answers) <= {201, 202, 409, 422}, load.answers
    assert not load.mismatches, load.mismatches[:5]  # every retry named its first intake
    # ... with the first answer's status: a 202 stays a 202 whatever the worker decided since
    assert load.retries_other_status == 0
    assert not other_intake, other_intake[:5]  # one stored intake per key: what was answered
    assert statuses["received"] == 0  # 0 lost: every accepted order applied or rejected
    assert sum(statuses.values()) == len(load.accepted)
    assert twice == 0
    for game_id in game_ids:
        assert_log_sound(game_id)  # gapless, each intake appended at most once, replays
    applied = OrderIntake.objects.filter(game_id__in=game_ids, status=OrderIntake.Status.APPLIED)
    assert appended.count() == applied.count()
