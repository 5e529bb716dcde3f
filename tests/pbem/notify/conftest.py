"""Fixtures for the notification tests: two players with email addresses, an NT game on the
small board, and a local HTTP server that records webhook deliveries."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.fixtures import Settings

from pbem.notify.models import Notification
from pbem.play.models import Game
from tests.pbem.notify.nf_helpers import nt_game, user


@pytest.fixture
def alice(db: None) -> User:
    """Holds the Allied seat."""
    return user("nf_alice")


@pytest.fixture
def bob(db: None) -> User:
    """Holds the French seat."""
    return user("nf_bob")


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    """A started game whose start notification (alice's first "your turn", at event 1) is
    dropped, so these tests see only what later events plan (test_notify_start.py covers it)."""
    g = nt_game(alice, bob)
    Notification.objects.filter(game=g, event__seq=1).delete()
    return g


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class HookServer:
    url: str
    received: list[Received] = field(default_factory=list)
    statuses: deque[int] = field(default_factory=deque)  # answers to give, then 200


class _Server(ThreadingHTTPServer):
    hook: HookServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        hook = self.server.hook
        hook.received.append(Received(dict(self.headers.items()), body))
        status = hook.statuses.popleft() if hook.statuses else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def allow_private(settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "ALLOW_PRIVATE_WEBHOOKS": True}


@pytest.fixture
def hook_server() -> Iterator[HookServer]:
    """A webhook receiver on 127.0.0.1 (a loopback address: tests that deliver to it also use
    `allow_private`)."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.hook = HookServer(url=f"http://127.0.0.1:{server.server_address[1]}/hook")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.hook
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
