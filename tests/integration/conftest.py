"""The real parts for the integration suite: PostgreSQL (DATABASE_URL, set by `./dev test`), a
Redis server and a Celery worker process that this conftest starts, stops and kills.

The web tier is gunicorn (`pbem.wsgi`, gthread workers), started by the `web_server` fixture as
production runs it; it sends its tasks to Redis (CELERY_BROKER_URL) and the worker process consumes
the `turns` and `mail` queues, both on pytest-django's test database. Nothing runs eagerly here.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

ROOT = Path(__file__).resolve().parents[2]

# real SMTP (orders by email): the sink the server mails to, the listener, a raw sender
from tests.integration.mail_fixtures import (  # noqa: E402, F401
    mail_worker,
    smtp_sink,
    smtp_sink_server,
    smtpd_process,
)


def _wait(until: Callable[[], bool], seconds: float, what: str, step: float = 0.05) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if until():
            return
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("integration tests need PostgreSQL: set DATABASE_URL (./dev test does)")


# --- Redis --------------------------------------------------------------------------------------


class RedisServer:
    """A private redis-server on the broker URL's port, with an append-only file so that a stop
    and start keeps its data (as a production Redis with persistence would)."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port = port
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.exceptions.ConnectionError:
            return False

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (./dev test installs it with apt-get)")
        self.proc = subprocess.Popen(  # noqa: S603  (a fixed argv, no user input)
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--dir",
                str(self.workdir),
            ],
            stdout=(self.workdir / "redis.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        _wait(self.ping, 20, f"redis on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
            self.proc = None
        _wait(lambda: not self.ping(), 10, "redis to stop")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    url = urlsplit(str(settings.CELERY_BROKER_URL))
    if url.scheme != "redis" or url.hostname not in {"127.0.0.1", "localhost"}:
        pytest.fail("set CELERY_BROKER_URL=redis://127.0.0.1:PORT/0 (./dev test does)")
    server = RedisServer(url.port or 6379, tmp_path_factory.mktemp("redis"))
    if server.ping():
        pytest.fail(f"something already listens on port {server.port}; pick another port")
    server.start()
    yield server
    server.stop()


# --- the Celery worker process ------------------------------------------------------------------


class ProcessGroup:
    """A server process the tests start in its own process group, logging to a file."""

    log: Path
    proc: subprocess.Popen[bytes] | None

    def stop(self) -> None:
        if self.proc is None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)
        self.proc = None

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def spawn(self, argv: list[str], env: dict[str, str]) -> None:
        """Start `python -m ARGV...` from the repository root in a new process group, its output
        appended to the log."""
        self.proc = subprocess.Popen(  # noqa: S603  (a fixed argv, no user input)
            [sys.executable, "-m", *argv],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


class Worker(ProcessGroup):
    """`celery -A pbem worker -Q turns,mail` in its own process group (so SIGKILL reaches the
    pool's children too), on the test database; mail goes to its log (console backend)."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        offset = self.log.stat().st_size if self.log.exists() else 0
        self.spawn(
            [
                "celery",
                "-A",
                "pbem",
                "worker",
                "-Q",
                "turns,mail",
                "-c",
                "2",
                "-l",
                "info",
                "-n",
                f"it{self.starts}@%h",
                "--without-gossip",
                "--without-mingle",
            ],
            self.env,
        )

        def ready() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"the worker exited:\n{self.tail()}")
            with self.log.open("rb") as f:
                f.seek(offset)
                return b" ready." in f.read()

        _wait(ready, 60, "the celery worker to be ready")

    def kill(self) -> None:
        """SIGKILL the whole worker: main process and pool children, no chance to clean up."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)
        self.proc = None


class Beat(ProcessGroup):
    """`celery -A pbem beat` (the sweeps' clock), its schedule file in a temporary directory, in
    its own process group; it sends to the tests' Redis like the web tier."""

    def __init__(self, env: dict[str, str], workdir: Path) -> None:
        self.env = env
        self.workdir = workdir
        self.log = workdir / "beat.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        offset = self.log.stat().st_size if self.log.exists() else 0
        self.spawn(
            [
                "celery",
                "-A",
                "pbem",
                "beat",
                "-l",
                "info",
                "-s",
                str(self.workdir / "schedule"),
                "--pidfile=",
            ],
            self.env,
        )

        def started() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"beat exited:\n{self.tail()}")
            with self.log.open("rb") as f:
                f.seek(offset)
                return b"beat: Starting" in f.read()

        _wait(started, 60, "celery beat to start")


def _database_url() -> str:
    """The URL of the test database pytest-django created (test_<name>), for the worker."""
    db = connection.settings_dict
    user = quote(str(db["USER"]))
    password = quote(str(db["PASSWORD"]))
    return f"postgres://{user}:{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _server_env(database_url: str, email_backend: str) -> dict[str, str]:
    """The environment of a server process on the test database and the tests' Redis."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="pbem.settings",
        PBEM_ENV="test",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=str(settings.CELERY_BROKER_URL),
        EMAIL_BACKEND=email_backend,
        PBEM_DB_CONN_MAX_AGE="0",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="session")
def worker(
    django_db_setup: None,
    django_db_blocker: Any,
    redis_server: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Worker]:
    with django_db_blocker.unblock():
        url = _database_url()
    base = tmp_path_factory.mktemp("worker")
    env = _server_env(url, "django.core.mail.backends.console.EmailBackend")  # into its log
    w = Worker(env, base / "worker.log")
    w.start()
    yield w
    w.stop()


@pytest.fixture
def running_worker(worker: Worker, transactional_db: None) -> Iterator[Worker]:
    """The worker, (re)started if a previous test left it stopped, its queues emptied; on failure
    the test report shows the end of its log."""
    from pbem.celery import app

    if worker.proc is None:
        worker.start()
    app.control.purge()
    yield worker
    if worker.proc is None:
        worker.start()


# --- the web tier: gunicorn, as production runs it ------------------------------------------------


class WebServer(ProcessGroup):
    """`gunicorn pbem.wsgi` (gthread workers, a production-sized backlog) on a free port, on the
    test database and the tests' Redis, in its own process group, as in production: pytest-django's
    live server is a development server whose small listen backlog reset connections under fifty
    concurrent clients: that measured the test server, not ours."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.spawn(
            [
                "gunicorn",
                "pbem.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "3",
                "--worker-class",
                "gthread",
                "--threads",
                "8",
                "--backlog",
                "2048",
                "--timeout",
                "120",
                "--keep-alive",
                "300",
                "--access-logfile",
                "-",
                "--error-logfile",
                "-",
            ],
            self.env,
        )

        def ready() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise AssertionError(f"gunicorn exited:\n{self.tail()}")
            try:
                return requests.get(f"{self.url}/healthz", timeout=5).status_code == 200
            except requests.RequestException:
                return False

        _wait(ready, 60, "gunicorn to answer /healthz")


@pytest.fixture(scope="session")
def web_server(
    django_db_setup: None,
    django_db_blocker: Any,
    redis_server: RedisServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[WebServer]:
    with django_db_blocker.unblock():
        url = _database_url()
    env = _server_env(url, "django.core.mail.backends.locmem.EmailBackend")
    web = WebServer(env, tmp_path_factory.mktemp("web") / "gunicorn.log")
    web.start()
    yield web
    web.stop()


@pytest.fixture
def web(web_server: WebServer, transactional_db: None) -> str:
    """The base URL of the running gunicorn (the test's rows are committed: it sees them)."""
    if web_server.proc is None or web_server.proc.poll() is not None:
        web_server.start()
    return web_server.url


# --- HTTP clients -------------------------------------------------------------------------------


class Http:
    """A user's HTTP client for the live server (token auth, JSON)."""

    def __init__(self, base: str, user: User) -> None:
        token, _ = Token.objects.get_or_create(user=user)
        self.base = base
        self.user = user
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token.key}"

    def get(self, path: str, **kw: Any) -> requests.Response:
        return self.session.get(self.base + path, timeout=60, **kw)

    def post(self, path: str, body: Any, **kw: Any) -> requests.Response:
        return self.session.post(self.base + path, json=body, timeout=60, **kw)


@pytest.fixture
def http_for(web: str) -> Callable[[User], Http]:
    def make(user: User) -> Http:
        return Http(web, user)

    return make
