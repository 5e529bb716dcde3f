"""Accepted orders per second through the whole order path against a bare DRF endpoint inserting
one row into the same PostgreSQL (target ratio whole/bare >= 0.5).

    DATABASE_URL=postgres://pbem:pbem@127.0.0.1:5432/pbem_bench \\
        .venv/bin/python bench/order_path.py [--orders 300] [--mode both|eager|broker]

It creates the database named in DATABASE_URL when missing (the role needs CREATEDB), migrates
it, creates the table `bench_row` and two users with tokens, and refuses SQLite unless
`--allow-sqlite`. DEBUG is off.

Whole path: POST /api/v1/games/{id}/actions with a legal order for the prompted seat of a
Napoleon's Triumph game (DEC2, small Austerlitz board). Two modes, by default both, one after
the other in their own processes, with a side-by-side table at the end:
- eager, Celery eager (the embedded default): the request stores the intake, validates at the
  head, and runs the `play.order_apply` task, which validates again and appends the event with
  its outbox rows, all inside the request (201);
- broker (production's shape; `--broker URL`, default redis://127.0.0.1:6392/0): the bench
  starts a `celery -A pbem worker -Q turns,mail`
  process (and redis-server when nothing answers at URL); the request stores the intake,
  validates at the head, enqueues the task and answers 202 — an accepted order. The bench then
  waits, untimed, until the worker has applied it, so the next order is legal at the new head.
The order is picked with the engine's `random_action` before the request, from a state the
bench tracks itself, so only the request is timed. A new game starts when one ends or after
`--per-game` orders. Bare: POST /bench/bare (the bench-only URLconf bench/order_path_urls.py)
with the same body and token; DRF with the same authentication and permission classes parses
the body and inserts one row.

Both sides are driven in-process by DRF's APIClient (one per thread): no socket, no HTTP server
and no WSGI worker model in the numbers, so the ratio compares what the application does per
request; a real server adds about the same fixed cost to both sides and would only move the
ratio towards 1. The two sides are interleaved (each order goes through the whole path, then its
body to the bare endpoint), so load from other processes on a shared machine falls on both alike.
orders/s = requests / seconds spent inside the timed requests (summed over clients).
`--profile N` runs N more whole-path requests under cProfile and prints the top 25 functions by
cumulative time (BENCH_PROFILE_DUMP=FILE also saves the raw stats; BENCH_PROFILE_CPU=1 counts
CPU time instead of wall time). The last line is `ratio whole/bare = X.XX (target >= 0.5)`, for
the broker mode when both run.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.broker import BrokerAndWorker  # after the path is set

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
for _name in ("CELERY_BROKER_URL", "REDIS_URL"):  # eager unless the broker mode names one
    os.environ.pop(_name, None)
DEFAULT_BROKER = "redis://127.0.0.1:6392/0"
MODES = ("eager", "broker")

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from games.core.protocol import Action, Ruleset
    from games.core.rng import Rng
    from pbem.play.models import Game

RULESET_ID = "napoleons_triumph"
SCENARIO = "DEC2"
OPTIONS = {"board": "austerlitz"}
ACTION_TRIES = 20
ACCEPTED = (201, 202)
HOST = "localhost"  # in settings.ALLOWED_HOSTS (the test client's "testserver" is not)


@dataclass
class Request:
    """One timed request: where, what, as whom (computed before the clock starts)."""

    path: str
    body: dict[str, Any]
    auth: str


@dataclass
class Tally:
    """The outcome of one side in one client."""

    seconds: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    refused: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.seconds += other.seconds
        self.statuses += other.statuses
        self.refused += other.refused


def ensure_database() -> None:
    """Create the PostgreSQL database of DATABASE_URL if it does not exist yet."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    import psycopg

    params = connection.get_connection_params()
    name = connection.settings_dict["NAME"]
    try:
        psycopg.connect(**params).close()
        return
    except psycopg.OperationalError as e:
        if "does not exist" not in str(e):
            raise
    params["dbname"] = "postgres"
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    print(f"created database {name}", flush=True)


class Player:
    """Plays games through the API for one client: picks the next legal order from a state it
    tracks itself (never through the server's state cache), starts new games as needed."""

    def __init__(self, users: dict[str, User], tokens: dict[str, str], seed: int, per_game: int):
        from games.core.rng import Rng
        from pbem.play.rulesets import ruleset_get

        self.ruleset: Ruleset[object] = ruleset_get(RULESET_ID)
        self.users, self.tokens, self.per_game = users, tokens, per_game
        self.rng = Rng(seed)
        self.games = 0
        self._new_game()

    def _new_game(self) -> None:
        from pbem.play.services.games import game_create

        self.game: Game = game_create(
            ruleset_id=RULESET_ID,
            scenario=SCENARIO,
            options=OPTIONS,
            seats=dict(self.users),
            creator=self.users["allied"],
            title="bench order_path",
            accepted=True,
        )
        self.state: object = self.ruleset.setup(
            _config(self.game), _rng_for(self.game, 1)
        )  # event 1 is the set-up
        self.in_game = 0
        self.games += 1
        self.pending: Action | None = None

    def next_request(self) -> Request:
        from games.core.protocol import Action, random_legal_action

        for _ in range(3):
            if self.in_game >= self.per_game:
                self._new_game()
            prompts = self.ruleset.prompts(self.state)
            roles = sorted(prompts)
            if roles:
                role = roles[self.rng.below(len(roles))]
                action = random_legal_action(self.ruleset, self.state, role, self.rng, ACTION_TRIES)
                if action is not None:
                    self.pending = Action(action.role, action.kind, action.payload)
                    body = {"role": role, "kind": action.kind, "payload": action.payload}
                    path = f"/api/v1/games/{self.game.pk}/actions"
                    return Request(path, body, f"Token {self.tokens[role]}")
            self._new_game()  # over, or nothing to play: a fresh game
        raise RuntimeError("no legal order found in three fresh games")

    def after(self, status: int, content: bytes) -> None:
        """Follow the game after an answer: with a broker, wait (untimed) until the worker has
        decided the intake; then apply the order locally and check the head hash."""
        from games.core.canonical import state_hash
        from pbem.play.models import Game, OrderIntake
        from pbem.play.services.log import state_at

        action, self.pending = self.pending, None
        head = self.game.head_seq
        if status == 202:
            intake = json.loads(content)["intake"]["id"]
            deadline = time.monotonic() + 60
            while OrderIntake.objects.filter(pk=intake, status="received").exists():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the worker did not apply intake {intake} within 60 s")
                time.sleep(0.002)
        self.game.refresh_from_db()
        if status not in ACCEPTED or action is None:
            return
        self.in_game += 1
        step = self.ruleset.apply(self.state, action, _rng_for(self.game, head + 1))
        if self.game.head_seq == head + 1 and (
            state_hash(self.ruleset.dump(step.state)) == self.game.head_hash
        ):
            self.state = step.state
        else:  # not applied yet (202) or something else appended: read the log
            self.state = state_at(self.game, self.game.head_seq, verify=False)
        if self.game.status != Game.Status.ACTIVE:
            self.in_game = self.per_game  # a new game next time


def _config(game: Game) -> Any:
    from pbem.play.services.log import config_of

    return config_of(game)


def _rng_for(game: Game, seq: int) -> Rng:
    from pbem.play.services.log import rng_for

    return rng_for(game, seq)


def _client() -> APIClient:
    from rest_framework.test import APIClient

    return APIClient(SERVER_NAME=HOST)


def _post(client: APIClient, req: Request) -> tuple[int, float, bytes]:
    t0 = time.perf_counter()
    resp = client.post(req.path, req.body, format="json", HTTP_AUTHORIZATION=req.auth)
    elapsed = time.perf_counter() - t0
    return resp.status_code, elapsed, resp.content


def _record(tally: Tally, status: int, elapsed: float, content: bytes) -> None:
    tally.statuses[status] += 1
    if status in ACCEPTED:
        tally.seconds.append(elapsed)
    elif len(tally.refused) < 5:
        tally.refused.append(f"{status} {content[:300]!r}")


def run_pair(player: Player, n: int, label: str) -> tuple[Tally, Tally]:
    """`n` orders for one client, each sent through the whole path and then, with the same body
    and token, to the bare endpoint: interleaved, so load from other processes on the machine
    falls on both sides alike."""
    from django.db import connections

    from bench.order_path_urls import BARE_PATH

    client, whole, bare = _client(), Tally(), Tally()
    step = max(1, n // 5)
    try:
        for i in range(1, n + 1):
            req = player.next_request()
            status, elapsed, content = _post(client, req)
            _record(whole, status, elapsed, content)
            player.after(status, content)
            status, elapsed, content = _post(client, Request(f"/{BARE_PATH}", req.body, req.auth))
            _record(bare, status, elapsed, content)
            if i % step == 0 or i == n:
                print(
                    f"  {label}: {i}/{n}, game {player.games} at event {player.game.head_seq}, "
                    f"mean whole {_ms(whole.seconds)} ms, bare {_ms(bare.seconds)} ms",
                    flush=True,
                )
    finally:
        if threading.current_thread() is not threading.main_thread():
            connections.close_all()
    return whole, bare


def _ms(seconds: list[float]) -> str:
    return f"{statistics.fmean(seconds) * 1000:.2f}" if seconds else "-"


def in_threads(count: int, work: Any) -> tuple[list[tuple[Tally, Tally]], float]:
    """Run `work(index)` in `count` threads (or inline for one); the tallies and the wall time."""
    results: list[tuple[Tally, Tally] | None] = [None] * count
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            results[i] = work(i)
        except BaseException as e:  # report it from the main thread
            errors.append(e)

    t0 = time.perf_counter()
    if count == 1:
        results[0] = work(0)
    else:
        threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return [r for r in results if r is not None], wall


def summary(name: str, tallies: list[Tally]) -> float:
    """Print one side's line; return its orders/s (per client: requests over time in them)."""
    total = Tally()
    for t in tallies:
        total.add(t)
    rate = sum(len(t.seconds) / sum(t.seconds) for t in tallies if t.seconds)
    ms = sorted(s * 1000 for s in total.seconds)
    p50 = statistics.median(ms) if ms else 0.0
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))] if ms else 0.0
    refused = sum(n for code, n in total.statuses.items() if code not in ACCEPTED)
    print(
        f"{name}: {len(ms)} accepted, {refused} refused, {rate:.1f} orders/s, "
        f"mean {_ms(total.seconds)} ms, p50 {p50:.2f} ms, p95 {p95:.2f} ms, "
        f"statuses {dict(sorted(total.statuses.items()))}"
    )
    for line in total.refused:
        print(f"  refused: {line}")
    return rate


def count_queries(player: Player) -> tuple[int, int]:
    """SQL statements of one whole-path request and of one bare request (untimed)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.order_path_urls import BARE_PATH

    client = _client()
    req = player.next_request()
    with CaptureQueriesContext(connection) as whole:
        status, _, content = _post(client, req)
    player.after(status, content)
    with CaptureQueriesContext(connection) as bare:
        _post(client, Request(f"/{BARE_PATH}", req.body, req.auth))
    if os.environ.get("BENCH_SHOW_SQL"):
        for q in whole.captured_queries:
            print("  whole SQL:", q["sql"][:160])
    return len(whole.captured_queries), len(bare.captured_queries)


def profile(player: Player, n: int) -> None:
    """Top 25 by cumulative time over `n` more whole-path requests (only the request itself runs
    under the profiler, not the choice of the order)."""
    client = _client()
    # BENCH_PROFILE_CPU=1: this process's CPU time, not wall time (steadier on a busy machine)
    cpu = bool(os.environ.get("BENCH_PROFILE_CPU"))
    prof = cProfile.Profile(time.process_time) if cpu else cProfile.Profile()
    statuses: Counter[int] = Counter()
    for _ in range(n):
        req = player.next_request()
        prof.enable()
        status, _, content = _post(client, req)
        prof.disable()
        statuses[status] += 1
        player.after(status, content)
    print(f"profile of {n} whole-path requests (statuses {dict(statuses)}):")
    stats = pstats.Stats(prof, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)
    if os.environ.get("BENCH_PROFILE_DUMP"):
        prof.dump_stats(os.environ["BENCH_PROFILE_DUMP"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--orders", type=int, default=300, help="timed requests per side (all clients)")
    ap.add_argument("--threads", type=int, default=1, help="clients, one thread each")
    ap.add_argument("--per-game", type=int, default=60, help="orders before a new game starts")
    ap.add_argument("--warmup", type=int, default=20, help="untimed requests per side first")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random orders")
    ap.add_argument(
        "--mode",
        choices=("both", *MODES),
        default="both",
        help="both (default): eager, then broker, each in its own process, side by side",
    )
    ap.add_argument(
        "--broker",
        metavar="URL",
        default=DEFAULT_BROKER,
        help="the broker mode's redis:// URL: orders go to a worker this bench starts (and Redis, "
        "if nothing answers there); the timed request ends at the 202",
    )
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="profile N more orders")
    ap.add_argument("--allow-sqlite", action="store_true", help="run on SQLite anyway")
    args = ap.parse_args()
    if args.mode == "both":
        return both_modes(sys.argv[1:])
    if args.mode == "broker":  # before Django reads its settings
        os.environ["CELERY_BROKER_URL"] = args.broker

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import override_settings
    from rest_framework.authtoken.models import Token

    if connection.vendor != "postgresql" and not args.allow_sqlite:
        print(
            f"refusing to run on {connection.vendor}: the comparison is meant for PostgreSQL "
            "(set DATABASE_URL=postgres://..., or pass --allow-sqlite)",
            file=sys.stderr,
        )
        return 2
    ensure_database()
    call_command("migrate", verbosity=0)
    from bench.order_path_urls import bench_table_create

    bench_table_create()
    server = (
        connection.cursor().connection.info.server_version
        if connection.vendor == "postgresql"
        else 0
    )
    users: dict[str, User] = {}
    tokens: dict[str, str] = {}
    for role in ("allied", "french"):
        user, _ = User.objects.get_or_create(username=f"bench_{role}")
        users[role] = user
        tokens[role] = Token.objects.get_or_create(user=user)[0].key
    connection.close()  # each thread opens its own; the main one reopens on demand

    threads = max(1, args.threads)
    per_client = max(1, args.orders // threads)
    print(
        f"order path bench: {connection.vendor} {server or ''} "
        f"db {connection.settings_dict['NAME']}, {threads} client(s) x {per_client} orders, "
        "in-process APIClient, "
        + (f"broker {args.broker} and a worker" if args.mode == "broker" else "celery eager"),
        flush=True,
    )
    with (
        BrokerAndWorker(args.broker) if args.mode == "broker" else contextlib.nullcontext(),
        override_settings(ROOT_URLCONF="bench.order_path_urls", DEBUG=False),
    ):
        players = [
            Player(users, tokens, args.seed * 1000 + i, args.per_game) for i in range(threads)
        ]
        if args.warmup:
            run_pair(players[0], args.warmup, "warm-up")

        def pair(i: int) -> tuple[Tally, Tally]:
            return run_pair(players[i], per_client, f"client {i}")

        tallies, wall = in_threads(threads, pair)
        q_whole, q_bare = count_queries(players[0])
        if args.profile:
            profile(players[0], args.profile)

    print(f"SQL statements per request: whole {q_whole}, bare {q_bare}")
    games = sum(p.games for p in players)
    print(f"games played: {games}; wall {wall:.1f}s")
    rate_bare = summary("bare  (1 row insert)", [b for _, b in tallies])
    rate_whole = summary("whole (order path) ", [w for w, _ in tallies])
    ratio = rate_whole / rate_bare if rate_bare else 0.0
    result = {"mode": args.mode, "bare": rate_bare, "whole": rate_whole, "ratio": ratio}
    print(f"{RESULT} {json.dumps(result)}")
    print(f"ratio whole/bare = {ratio:.2f} (target >= 0.5)")
    return 0


RESULT = "mode result:"


def both_modes(argv: list[str]) -> int:
    """Run the eager and the broker mode one after the other, each in its own process (Celery's
    mode is fixed when Django starts), echo their output, then compare them side by side. The
    last line is the broker mode's ratio: production's shape."""
    results: dict[str, dict[str, Any]] = {}
    for mode in MODES:
        print(f"== mode {mode} ==", flush=True)
        child = subprocess.Popen(  # noqa: S603  (this script, with the caller's arguments)
            [sys.executable, __file__, *argv, "--mode", mode],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        for line in child.stdout:
            print(f"  [{mode}] {line}", end="", flush=True)
            if line.startswith(RESULT):
                results[mode] = json.loads(line[len(RESULT) :])
        if child.wait() != 0 or mode not in results:
            print(f"mode {mode} failed (exit {child.returncode})", file=sys.stderr)
            return 1
    print("mode     bare orders/s   whole orders/s   ratio whole/bare")
    for mode in MODES:
        r = results[mode]
        print(f"{mode:8s} {r['bare']:13.1f}   {r['whole']:14.1f}   {r['ratio']:16.2f}")
    print(f"ratio whole/bare = {results['broker']['ratio']:.2f} (target >= 0.5) with a broker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
