"""Redis and a Celery worker for a bench run in production's shape (bench/order_path.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


class BrokerAndWorker:
    """Redis at the broker URL (a private redis-server is started when nothing answers there)
    and one `celery -A pbem worker -Q turns,mail` process on the bench database, for the
    duration of the run."""

    def __init__(self, url: str) -> None:
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        if parts.scheme != "redis":
            raise SystemExit(f"--broker takes a redis:// URL, not {url!r}")
        self.url, self.port = url, parts.port or 6379
        self.procs: list[subprocess.Popen[bytes]] = []
        self.log = Path(tempfile.mkdtemp(prefix="pbem-bench-")) / "worker.log"

    def _redis_up(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping())
        except redis.exceptions.ConnectionError:
            return False

    def _wait(self, until: Any, what: str) -> None:
        deadline = time.monotonic() + 60
        while not until():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}; see {self.log}")
            time.sleep(0.1)

    def __enter__(self) -> BrokerAndWorker:
        from django.db import connection

        if not self._redis_up():
            self.procs.append(
                subprocess.Popen(  # noqa: S603  (a fixed argv)
                    ["redis-server", "--port", str(self.port), "--save", "", "--bind", "127.0.0.1"],  # noqa: S607
                    stdout=subprocess.DEVNULL,
                )
            )
            self._wait(self._redis_up, f"redis on port {self.port}")
        db = connection.settings_dict
        env = dict(os.environ)
        env.update(
            DATABASE_URL=(
                f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
            ),
            CELERY_BROKER_URL=self.url,
            EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        )
        argv = [sys.executable, "-m", "celery", "-A", "pbem", "worker", "-Q", "turns,mail"]
        argv += ["-c", "1", "-l", "info", "--without-gossip", "--without-mingle"]
        self.procs.append(
            subprocess.Popen(  # noqa: S603  (a fixed argv)
                argv,
                env=env,
                cwd=Path(__file__).resolve().parent.parent,
                stdout=self.log.open("wb"),
                stderr=subprocess.STDOUT,
            )
        )
        self._wait(lambda: b" ready." in self.log.read_bytes(), "the celery worker")
        print(f"worker ready (log {self.log})", flush=True)
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in reversed(self.procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
