"""PostgreSQL restarts under load.

gunicorn, a Celery worker and beat run on a PRIVATE PostgreSQL (private_postgres.py here: the
suite's shared cluster must not be restarted) with production's persistent connections
(PBEM_DB_CONN_MAX_AGE=60). Sixteen HTTP players, one per seat of eight games, play through the API
(read the prompt, send a listed order with an Idempotency-Key, follow the intake) while the
database is stopped, held down for a few seconds and started again. The clients tolerate the
outage: they resend the same key after a 503 or a connection error.

Then: every answer >= 500 was a 503 with Retry-After and the code `database_unavailable`; every
order answered 202 is applied or rejected, none appended twice; the logs are gapless and replay
(`manage.py pbem_verify`); gunicorn and the worker are the processes started before the restart
(they reconnected by themselves); an order sent after the restart is applied; beat still sends
`play.intakes_recover`. The test process's ORM stays on pytest-django's database: the private one
is reached only over HTTP, through management commands and with psycopg.
"""

from __future__ import annotations

import os
import random  # noqa: TID251  (the clients' choices: seeded, need not replay the engine)
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from django.conf import settings

from tests.integration.conftest import Beat, RedisServer, WebServer, Worker
from tests.integration.it_helpers import fault_line, report
from tests.integration.private_postgres import PrivatePostgres, private_postgres, wait_until

pytestmark = [pytest.mark.integration]

GAMES = 8
HOLD_SECONDS = 5.0  # how long the database stays down
LOAD_AFTER_SECONDS = 10.0  # load kept up after it is back
SETTLE_SECONDS = 120.0
# the servers here use their own Redis database number, so that they never share queues with the
# session's worker on pytest-django's database (a task for an intake it cannot find)
BROKER_DB = 3
RECOVER_RECEIVED = re.compile(rb"Task play\.intakes_recover\[[^\]]+\] received")


def _broker_url(redis_server: RedisServer) -> str:
    url = urlsplit(str(settings.CELERY_BROKER_URL))
    return urlunsplit((url.scheme, f"127.0.0.1:{redis_server.port}", f"/{BROKER_DB}", "", ""))


def _env(database_url: str, broker_url: str, email_backend: str) -> dict[str, str]:
    """A server process's environment on the private database (the pattern of conftest's
    `_server_env`), with production's persistent connections."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="pbem.settings",
        PBEM_ENV="test",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        EMAIL_BACKEND=email_backend,
        PBEM_DB_CONN_MAX_AGE="60",
        PBEM_RECOVER_SECONDS="2",
        PYTHONUNBUFFERED="1",
    )
    return env


# --- the clients ---------------------------------------------------------------------------------


@dataclass
class Tally:
    """What every client saw, shared by the threads (under `lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[int] = field(default_factory=Counter)
    bad_5xx: list[str] = field(default_factory=list)  # >= 500 and not a proper 503
    answers_503: int = 0
    connection_errors: int = 0
    accepted: set[str] = field(default_factory=set)  # intake ids answered 201/202
    by_key: dict[str, set[str]] = field(default_factory=dict)  # Idempotency-Key -> intake ids
    applied_seen: int = 0
    failures: list[str] = field(default_factory=list)  # a client thread's own error

    def answer(self, method: str, path: str, response: requests.Response) -> None:
        with self.lock:
            self.statuses[response.status_code] += 1
            if response.status_code < 500:
                return
            if response.status_code == 503:
                self.answers_503 += 1
            code = ""
            try:
                body = response.json()
                code = body.get("code", "") if isinstance(body, dict) else ""
            except ValueError:
                pass
            proper = (
                response.status_code == 503
                and bool(response.headers.get("Retry-After"))
                and code == "database_unavailable"
            )
            if not proper:
                self.bad_5xx.append(
                    f"{method} {path} -> {response.status_code} "
                    f"Retry-After={response.headers.get('Retry-After')!r} {response.text[:200]!r}"
                )

    def connection_error(self) -> None:
        with self.lock:
            self.connection_errors += 1


class Client:
    """One user's HTTP session that never raises on an outage: None for a connection error."""

    def __init__(self, base: str, token: str, tally: Tally) -> None:
        self.base = base
        self.tally = tally
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> requests.Response | None:
        try:
            response = self.session.request(
                method, self.base + path, json=body, headers=headers, timeout=30
            )
        except requests.RequestException:
            self.tally.connection_error()
            return None
        self.tally.answer(method, path, response)
        return response


def _pause(response: requests.Response | None, rng: random.Random) -> float:
    """How long a client waits before trying again: the server's Retry-After, capped so that the
    load goes on, or a short back-off after a connection error."""
    if response is not None and response.headers.get("Retry-After", "").isdigit():
        return min(float(response.headers["Retry-After"]), 1.0) * rng.uniform(0.5, 1.0)
    return rng.uniform(0.1, 0.3)


class Seat(threading.Thread):
    """A player's loop for one seat: read the view; when prompted, send a listed order with a
    fresh Idempotency-Key (the same key again after a 503 or a connection error) and follow
    its intake until it is decided."""

    def __init__(
        self, client: Client, game_id: str, role: str, seed: int, stop: threading.Event
    ) -> None:
        super().__init__(name=f"seat-{game_id[:8]}-{role}", daemon=True)
        self.client = client
        self.game_id = game_id
        self.role = role
        self.rng = random.Random(seed)
        self.stop_event = stop

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                self.turn()
        except Exception as e:  # reported by the test, not lost in a thread
            with self.client.tally.lock:
                self.client.tally.failures.append(f"{self.name}: {e!r}")

    def turn(self) -> None:
        path = f"/api/v1/games/{self.game_id}"
        response = self.client.call("GET", f"{path}/view?role={self.role}")
        if response is None or response.status_code != 200:
            self.stop_event.wait(_pause(response, self.rng))
            return
        prompt = response.json()["prompt"]
        offered = [
            a
            for a in (prompt or {}).get("actions", [])
            if not a["any_time"] and a["choices"] and a["choices"]["payloads"]
        ]
        if not offered:  # not this seat's turn (or the game is over)
            self.stop_event.wait(0.1)
            return
        action = self.rng.choice(offered)
        body = {
            "role": self.role,
            "kind": action["kind"],
            "payload": self.rng.choice(action["choices"]["payloads"]),
        }
        key = str(uuid.uuid4())
        intake_id = self.send(f"{path}/actions", body, key)
        if intake_id is not None:
            self.follow(intake_id)

    def send(self, path: str, body: dict[str, Any], key: str) -> str | None:
        """POST the order until it has a definite answer; the intake's id when accepted."""
        deadline = time.monotonic() + 60  # the database is down for seconds, not a minute
        while time.monotonic() < deadline:
            response = self.client.call("POST", path, body, {"Idempotency-Key": key})
            if response is None or response.status_code == 503:
                time.sleep(_pause(response, self.rng))
                continue
            if response.status_code in (201, 202):
                intake_id = str(response.json()["intake"]["id"])
                with self.client.tally.lock:
                    self.client.tally.accepted.add(intake_id)
                    self.client.tally.by_key.setdefault(key, set()).add(intake_id)
                return intake_id
            return None  # refused (409 not your turn, 422 ...): read the view again
        raise AssertionError(f"an order got no answer but 503s for 60 s: {body}")

    def follow(self, intake_id: str) -> None:
        """Poll the intake until it is decided (or the load ends: the test checks it later)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self.stop_event.is_set():
            response = self.client.call("GET", f"/api/v1/intakes/{intake_id}")
            if response is not None and response.status_code == 200:
                if response.json()["status"] == "applied":
                    with self.client.tally.lock:
                        self.client.tally.applied_seen += 1
                if response.json()["status"] != "received":
                    return
                self.stop_event.wait(0.03)
            else:
                self.stop_event.wait(_pause(response, self.rng))


# --- the private database, read directly --------------------------------------------------------


def _query(pg: PrivatePostgres, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with pg.connect() as conn:
        return list(conn.execute(sql, params).fetchall())


def _received(pg: PrivatePostgres, games: list[str]) -> int:
    rows = _query(
        pg,
        "SELECT count(*) FROM play_orderintake WHERE status = 'received' "
        "AND game_id = ANY(%s::uuid[])",
        games,
    )
    return int(rows[0][0])


def _log_offset(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def _logged_since(path: Path, offset: int, pattern: re.Pattern[bytes]) -> bool:
    with path.open("rb") as f:
        f.seek(offset)
        return pattern.search(f.read()) is not None


@pytest.fixture(scope="module")
def pg() -> Iterator[PrivatePostgres]:
    with private_postgres() as server:
        yield server


# --- the test ------------------------------------------------------------------------------------


def test_postgres_restart_under_load(
    pg: PrivatePostgres,
    redis_server: RedisServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broker = _broker_url(redis_server)
    web = WebServer(
        _env(pg.url, broker, "django.core.mail.backends.locmem.EmailBackend"),
        tmp_path / "gunicorn.log",
    )
    console_mail = "django.core.mail.backends.console.EmailBackend"  # into the worker's log
    worker = Worker(_env(pg.url, broker, console_mail), tmp_path / "worker.log")
    beat_dir = tmp_path / "beat"
    beat_dir.mkdir()
    beat = Beat(_env(pg.url, broker, console_mail), beat_dir)
    processes = (web, worker, beat)
    try:
        web.start()
        worker.start()
        beat.start()
        _run(pg, web, worker, beat, capsys)
    except BaseException:
        for p in processes:
            print(f"--- {type(p).__name__} log\n{p.tail(60)}")  # noqa: T201  (shown on failure)
        print(f"--- postgres\n{pg.tail()}")  # noqa: T201
        raise
    finally:
        for p in processes:
            try:
                p.stop()
            except ProcessLookupError:  # it exited by itself (the failure says why)
                p.proc = None


def _run(
    pg: PrivatePostgres,
    web: WebServer,
    worker: Worker,
    beat: Beat,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tally = Tally()
    # users and tokens on the private database (the token is the command's last line)
    with ThreadPoolExecutor(2) as pool:
        allied_token, french_token = (
            out.strip().splitlines()[-1]
            for out in pool.map(lambda name: pg.manage("pbem_user", name), ["pg_al", "pg_fr"])
        )
    allied = Client(web.url, allied_token, tally)
    french = Client(web.url, french_token, tally)

    games: list[str] = []
    for _ in range(GAMES):
        created = allied.call(
            "POST",
            "/api/v1/games",
            {
                "ruleset": "napoleons_triumph",
                "scenario": "DEC2",
                "options": {"board": "austerlitz"},
                "seats": {"allied": "pg_al", "french": "pg_fr"},
            },
        )
        assert created is not None
        assert created.status_code == 201, created.text
        game_id = str(created.json()["id"])
        accepted = french.call("POST", f"/api/v1/games/{game_id}/seats/french/accept")
        assert accepted is not None
        assert accepted.status_code == 200, accepted.text
        games.append(game_id)

    pids = (web.proc and web.proc.pid, worker.proc and worker.proc.pid)
    booted = web.log.read_text(errors="replace").count("Booting worker")
    stop = threading.Event()
    seats = [
        Seat(client, game_id, role, seed=i * 2 + j, stop=stop)
        for i, game_id in enumerate(games)
        for j, (client, role) in enumerate(((allied, "allied"), (french, "french")))
    ]
    for seat in seats:
        seat.start()
    try:
        # the load runs: orders are being applied before the fault
        wait_until(lambda: tally.applied_seen >= 2 * GAMES, 60, "orders applied before the fault")

        # the fault: stop PostgreSQL (fast: open transactions roll back, connections close)
        errors_before = tally.answers_503 + tally.connection_errors + len(tally.bad_5xx)
        stopped_at = time.monotonic()
        stop_offset = _log_offset(worker.log)
        stopped_wall = datetime.now(UTC)
        pg.stop()
        wait_until(
            lambda: (
                tally.answers_503 + tally.connection_errors + len(tally.bad_5xx) > errors_before
            ),
            30,
            "the clients to see the outage",
        )
        stop.wait(max(0.0, stopped_at + HOLD_SECONDS - time.monotonic()))  # hold it down
        pg.start()  # pg_ctl -w: it accepts connections again
        back_at = datetime.now(UTC)
        back_mono = time.monotonic()
        outage = back_mono - stopped_at
        worker_offset = _log_offset(worker.log)

        stop.wait(LOAD_AFTER_SECONDS)  # the load goes on after the restart
    finally:
        stop.set()
        for seat in seats:
            seat.join(timeout=90)
    assert not any(seat.is_alive() for seat in seats), "a client thread did not end"
    assert not tally.failures, tally.failures

    # every accepted order is decided, within a generous deadline, by the worker alone
    settled = wait_until(lambda: _received(pg, games) == 0, SETTLE_SECONDS, "no intake received")
    settled_after = time.monotonic() - back_mono

    # beat still sends the recovery task after the restart (C2)
    wait_until(
        lambda: _logged_since(worker.log, worker_offset, RECOVER_RECEIVED),
        60,
        "the worker to receive play.intakes_recover after the restart",
    )

    # the answers: nothing >= 500 but a proper 503
    assert not tally.bad_5xx, tally.bad_5xx[:10]
    assert tally.answers_503 + tally.connection_errors > 0, "the clients never saw the outage"

    # lost: an order answered 201/202 that is missing or still undecided
    accepted_ids = sorted(tally.accepted)
    rows = dict(
        _query(
            pg,
            "SELECT id::text, status FROM play_orderintake WHERE id = ANY(%s::uuid[])",
            accepted_ids,
        )
    )
    lost = [i for i in accepted_ids if rows.get(i) not in ("applied", "rejected")]
    applied = sum(1 for i in accepted_ids if rows.get(i) == "applied")
    rejected = sum(1 for i in accepted_ids if rows.get(i) == "rejected")
    # duplicated: one key answered with two intakes, one intake appended twice, an applied
    # intake without its event (or an event without its applied intake), a gap in a log
    keys_twice = [k for k, ids in tally.by_key.items() if len(ids) > 1]
    twice = _query(
        pg,
        "SELECT game_id::text, source_ref, count(*) FROM play_event "
        "WHERE source_ref <> '' AND game_id = ANY(%s::uuid[]) GROUP BY 1, 2 HAVING count(*) > 1",
        games,
    )
    # applied intakes without their own event; events of intakes without their applied intake
    unmatched = _query(
        pg,
        "SELECT i.id::text FROM play_orderintake i LEFT JOIN play_event e ON e.id = i.event_id "
        "WHERE i.game_id = ANY(%s::uuid[]) AND i.status = 'applied' "
        "AND (e.id IS NULL OR e.source_ref <> 'intake:' || i.id::text)",
        games,
    ) + _query(
        pg,
        "SELECT e.source_ref FROM play_event e LEFT JOIN play_orderintake i "
        "ON i.event_id = e.id AND i.status = 'applied' "
        "WHERE e.game_id = ANY(%s::uuid[]) AND e.source_ref LIKE 'intake:%%' AND i.id IS NULL",
        games,
    )
    gaps = _query(
        pg,
        "SELECT g.id::text, g.head_seq, count(e.id), min(e.seq), max(e.seq) FROM play_game g "
        "LEFT JOIN play_event e ON e.game_id = g.id WHERE g.id = ANY(%s::uuid[]) "
        "GROUP BY 1, 2 HAVING count(e.id) <> g.head_seq OR count(DISTINCT e.seq) <> count(e.id) "
        "OR min(e.seq) <> 1 OR max(e.seq) <> g.head_seq",
        games,
    )
    duplicated = len(keys_twice) + sum(int(r[2]) - 1 for r in twice) + len(unmatched)

    # recovery: from PostgreSQL accepting connections to the first order applied after it
    first = _query(
        pg,
        "SELECT min(created_at) FROM play_event "
        "WHERE game_id = ANY(%s::uuid[]) AND source_ref LIKE 'intake:%%' AND created_at > %s",
        games,
        back_at,
    )[0][0]
    recovered = (first - back_at).total_seconds() if first is not None else float("nan")
    # an order sent after the restart, applied
    sent_after = _query(
        pg,
        "SELECT count(*) FROM play_orderintake "
        "WHERE game_id = ANY(%s::uuid[]) AND status = 'applied' AND created_at > %s",
        games,
        back_at,
    )[0][0]

    # orders accepted before the stop and applied after the restart
    carried = _query(
        pg,
        "SELECT count(*) FROM play_orderintake i JOIN play_event e ON e.id = i.event_id "
        "WHERE i.game_id = ANY(%s::uuid[]) AND i.created_at < %s AND e.created_at > %s",
        games,
        stopped_wall,
        back_at,
    )[0][0]
    # tasks the worker retried on a database error since the stop (C1), for the figures
    with worker.log.open("rb") as f:
        f.seek(stop_offset)
        retried = len(re.findall(rb"\] retry: ", f.read()))

    # the logs replay from their seeds
    with ThreadPoolExecutor(2) as pool:
        verified = list(pool.map(lambda g: pg.manage("pbem_verify", g), games))

    report(
        capsys,
        fault_line(
            "postgres restart",
            accepted=len(accepted_ids),
            applied=applied,
            rejected=rejected,
            lost=len(lost),
            duplicated=duplicated,
            errors_5xx=len(tally.bad_5xx),
            recovered_seconds=recovered,
            extra=(
                f"down {outage:.1f} s, all settled {settled_after:.1f} s after it was back "
                f"(waited {settled:.1f} s after the load), 503s {tally.answers_503}, "
                f"connection errors {tally.connection_errors}, task retries {retried}, "
                f"accepted before and applied after the restart {carried}, "
                f"answers {dict(sorted(tally.statuses.items()))}"
            ),
        ),
    )
    assert not lost, f"accepted but not decided: {lost[:10]}"
    assert not keys_twice, f"one Idempotency-Key, several intakes: {keys_twice[:5]}"
    assert not twice, f"appended twice: {twice[:5]}"
    assert not unmatched, f"applied intakes and their events do not match: {unmatched[:5]}"
    assert not gaps, f"logs with a gap or a duplicate seq: {gaps}"
    assert all("verification OK" in out for out in verified), verified
    # an order sent after the restart was applied: the workers reconnected by themselves
    assert first is not None, "no order was applied after the restart"
    assert sent_after > 0, "no order sent after the restart was applied"
    # the same gunicorn and worker, no gunicorn worker replaced
    for name, p in (("gunicorn", web), ("worker", worker), ("beat", beat)):
        assert p.proc is not None, name
        assert p.proc.poll() is None, f"{name} exited:\n{p.tail()}"
    assert (web.proc and web.proc.pid, worker.proc and worker.proc.pid) == pids
    assert web.log.read_text(errors="replace").count("Booting worker") == booted, web.tail()
