"""A private PostgreSQL server for the tests that stop and restart the database.

The suite's own cluster (DATABASE_URL, port 5432) is shared by parallel CI runs and by the test
process itself, so a fault test must never restart it. `PrivatePostgres` runs a throw-away
cluster of its own instead: `initdb` into a fresh directory, `pg_ctl start` on a free port
(TCP on 127.0.0.1 only, its socket inside the data directory), one database migrated by
`manage.py migrate`; `stop()`, `start()` and `restart()` for the fault, `cleanup()` to stop it
and remove the directory. PostgreSQL refuses to run as root, and CI runs as root: then every
server command runs as the `postgres` user (`runuser`), in a directory that user owns.

Every command runs with a timeout, its output appended to one log; a failing command raises
with the end of that log and of the server's own log.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
USER = "pbem"  # the cluster's superuser (initdb -U), trusted on 127.0.0.1 and the socket


def postgres_bindir() -> Path:
    """The bin directory of the highest PostgreSQL version installed under /usr/lib/postgresql."""
    found: list[tuple[tuple[int, ...], Path]] = []
    for bindir in Path("/usr/lib/postgresql").glob("*/bin"):
        version = tuple(int(n) for n in re.findall(r"\d+", bindir.parent.name))
        if version and (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file():
            found.append((version, bindir))
    if not found:
        pytest.fail("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    return max(found)[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PrivatePostgres:
    """A PostgreSQL cluster of its own on a free port, with one migrated database."""

    def __init__(self, dbname: str = "pbem_outage") -> None:
        self.bindir = postgres_bindir()
        self.dbname = dbname
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0  # PostgreSQL refuses to run as root
        # not under pytest's tmp_path: /tmp/pytest-of-root is mode 700, closed to `postgres`
        self.base = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
        if self.as_postgres:
            pw = pwd.getpwnam("postgres")
            os.chown(self.base, pw.pw_uid, pw.pw_gid)
        self.datadir = self.base / "data"
        self.server_log = self.base / "postgres.log"  # written by the server (pg_ctl -l)
        self.log = self.base / "commands.log"  # each command's output, written by us
        self.running = False

    # --- URLs ---------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The database's URL, for DATABASE_URL (no password: the cluster trusts 127.0.0.1)."""
        return f"postgres://{USER}@127.0.0.1:{self.port}/{self.dbname}"

    @property
    def conninfo(self) -> str:
        return f"host=127.0.0.1 port={self.port} user={USER} dbname={self.dbname}"

    def connect(self, timeout: float = 5) -> psycopg.Connection[tuple[object, ...]]:
        """A new autocommit connection to the database (the caller closes it)."""
        return psycopg.connect(self.conninfo, autocommit=True, connect_timeout=max(1, int(timeout)))

    def accepts(self) -> bool:
        """Whether the server accepts a connection to the database now."""
        try:
            with self.connect(timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.OperationalError:
            return False

    # --- commands -----------------------------------------------------------------------------

    def tail(self, lines: int = 30) -> str:
        out = []
        for path in (self.log, self.server_log):
            if path.exists():
                text = path.read_text(errors="replace").splitlines()[-lines:]
                out.append(f"--- {path.name}\n" + "\n".join(text))
        return "\n".join(out)

    def run(
        self,
        argv: list[str],
        *,
        timeout: float = 60,
        server: bool = False,
        env: dict[str, str] | None = None,
    ) -> str:
        """Run one command (as `postgres` when `server` and we are root); its output goes to the
        log and is returned; a failure or a timeout raises with the end of the logs."""
        if server and self.as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        with self.log.open("a") as log:
            log.write(f"$ {' '.join(argv)}\n")
        try:
            done = subprocess.run(  # noqa: S603  (a fixed argv, no user input)
                argv,
                cwd=ROOT if not server else self.base,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as e:
            with self.log.open("a") as log:
                log.write(f"{e.output!r}\n(timed out after {timeout} s)\n")
            raise AssertionError(
                f"{argv[0:6]} timed out after {timeout} s\n{self.tail()}"
            ) from None
        output = done.stdout + done.stderr
        with self.log.open("a") as log:
            log.write(output + f"(exit {done.returncode})\n")
        if done.returncode != 0:
            raise AssertionError(f"{argv[0:6]} exited {done.returncode}\n{self.tail()}")
        return done.stdout

    def pg_ctl(self, *args: str, timeout: float = 60) -> None:
        self.run(
            [str(self.bindir / "pg_ctl"), "-D", str(self.datadir), *args],
            timeout=timeout,
            server=True,
        )

    def manage(self, *args: str, timeout: float = 120) -> str:
        """`manage.py ARGS` on this database; returns its standard output."""
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="pbem.settings",
            PBEM_ENV="test",
            DATABASE_URL=self.url,
            PBEM_DB_CONN_MAX_AGE="0",
        )
        return self.run([sys.executable, "manage.py", *args], timeout=timeout, env=env)

    # --- life cycle ---------------------------------------------------------------------------

    def setup(self) -> None:
        """initdb, start, create the database and migrate it."""
        self.run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(self.datadir),
                "-A",
                "trust",
                "-U",
                USER,
                "--no-sync",
                "-E",
                "UTF8",
            ],
            timeout=120,
            server=True,
        )
        self.start()
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres",
            autocommit=True,
            connect_timeout=5,
        ) as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')
        self.manage("migrate", "--noinput", timeout=300)

    def start(self) -> None:
        """Start the server and wait (pg_ctl -w) until it accepts connections."""
        options = " ".join(
            [
                f"-p {self.port}",
                "-c listen_addresses=127.0.0.1",
                f"-c unix_socket_directories={self.datadir}",
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
            ]
        )
        self.pg_ctl(
            "start", "-w", "-t", "60", "-l", str(self.server_log), "-o", options, timeout=90
        )
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (fast: roll back open transactions, close every connection)."""
        self.pg_ctl("stop", "-w", "-t", "60", "-m", mode, timeout=90)
        self.running = False

    def restart(self) -> None:
        self.stop()
        self.start()

    def cleanup(self) -> None:
        """Stop the server if it runs, then remove its directory."""
        try:
            if self.running or (self.datadir / "postmaster.pid").exists():
                self.pg_ctl("stop", "-w", "-t", "30", "-m", "immediate", timeout=60)
        finally:
            self.running = False
            shutil.rmtree(self.base, ignore_errors=True)


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private, migrated PostgreSQL, stopped and removed on exit: the body of a module- or
    session-scoped fixture (`with private_postgres() as pg: yield pg`)."""
    if shutil.which("runuser") is None and os.geteuid() == 0:
        pytest.fail("running as root needs runuser to start PostgreSQL as `postgres`")
    server = PrivatePostgres()
    try:
        server.setup()
        yield server
    finally:
        server.cleanup()


def wait_until(until: Callable[[], object], seconds: float, what: str, step: float = 0.05) -> float:
    """Wait for a condition with a deadline; the seconds it took."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if until():
            return time.monotonic() - start
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")
