"""Webhooks: a signed JSON POST (HMAC-SHA256 over timestamp + body), retried with backoff after
a 500, delivered once, refused for private addresses unless allowed, and the subscription."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from pbem.notify.models import Notification, WebhookEndpoint
from pbem.notify.services import (
    WebhookRejected,
    delivery_basis,
    delivery_id,
    notification_deliver,
    outbox_sweep,
    webhook_subscribe,
)
from pbem.notify.tasks import notification_deliver_task
from pbem.notify.transports import webhook
from pbem.notify.transports.webhook import ip_is_private
from pbem.play.models import Game
from tests.pbem.notify.conftest import HookServer
from tests.pbem.notify.nf_helpers import play

pytestmark = pytest.mark.django_db
SECRET = "correct horse battery staple"


def _hook_row(game: Game, bob: User, url: str, **fields: object) -> Notification:
    WebhookEndpoint.objects.create(user=bob, url=url, secret=SECRET, **fields)
    play(game, 1)
    Notification.objects.filter(channel="email").delete()  # only the webhook here
    return Notification.objects.get(channel="webhook")


@pytest.mark.usefixtures("allow_private")
def test_the_signature_verifies_and_the_body_has_the_schema(
    game: Game, bob: User, hook_server: HookServer
) -> None:
    n = _hook_row(game, bob, hook_server.url)
    assert notification_deliver(notification_id=n.pk) == "sent"
    (got,) = hook_server.received
    headers = {k.lower(): v for k, v in got.headers.items()}
    assert headers["content-type"] == "application/json"
    # opaque (never the dedupe key, which holds the server-wide event id): 2 is french's seq
    assert headers["x-pbem-delivery"] == delivery_id(delivery_basis(n, 2))
    assert len(headers["x-pbem-delivery"]) == 32
    timestamp = headers["x-pbem-timestamp"]
    assert abs(int(timestamp) - int(timezone.now().timestamp())) < 60
    mac = hmac.new(SECRET.encode(), f"{timestamp}.".encode() + got.body, hashlib.sha256)
    assert hmac.compare_digest(headers["x-pbem-signature"], "sha256=" + mac.hexdigest())
    wrong = hmac.new(b"another secret", f"{timestamp}.".encode() + got.body, hashlib.sha256)
    assert headers["x-pbem-signature"] != "sha256=" + wrong.hexdigest()
    body = json.loads(got.body)
    assert set(body) == {"kind", "game", "seq", "role", "text", "view_url"}
    assert body["kind"] == "your_turn"
    assert body["game"] == str(game.pk)
    assert body["seq"] == 2
    assert body["role"] == "french"
    assert isinstance(body["text"], str)
    assert "It is your turn as French army (french)" in body["text"]
    assert body["view_url"].endswith(f"/api/v1/games/{game.pk}/view")
    n.refresh_from_db()
    assert n.status == "sent"


@pytest.mark.usefixtures("allow_private")
def test_a_500_is_retried_with_backoff_then_delivered(
    game: Game, bob: User, hook_server: HookServer
) -> None:
    n = _hook_row(game, bob, hook_server.url)
    hook_server.statuses.append(500)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert notification_deliver(notification_id=n.pk) == "retry"
        assert outbox_sweep() == 0  # not due yet
    n.refresh_from_db()
    assert (n.status, n.attempts, n.last_error) == ("pending", 1, "webhook answered HTTP 500")
    assert n.next_attempt_at == start + timedelta(seconds=60)
    assert len(hook_server.received) == 1
    assert WebhookEndpoint.objects.get().failures == 1
    with time_machine.travel(start + timedelta(minutes=5), tick=False):
        assert outbox_sweep() == 1
    n.refresh_from_db()
    assert (n.status, n.attempts) == ("sent", 2)
    assert len(hook_server.received) == 2
    # the retry is the same delivery: receivers deduplicate on X-PBEM-Delivery
    keys = {
        v
        for r in hook_server.received
        for k, v in r.headers.items()
        if k.lower() == "x-pbem-delivery"
    }
    assert keys == {delivery_id(delivery_basis(n, 2))}
    assert WebhookEndpoint.objects.get().failures == 0


@pytest.mark.usefixtures("allow_private")
def test_each_notification_is_delivered_once_when_the_task_runs_twice(
    game: Game, bob: User, hook_server: HookServer
) -> None:
    n = _hook_row(game, bob, hook_server.url)
    notification_deliver_task.delay(n.pk)
    notification_deliver_task.delay(n.pk)
    notification_deliver_task.apply(args=(n.pk,), kwargs={"from_a_newer_web": True})
    assert len(hook_server.received) == 1
    n.refresh_from_db()
    assert (n.status, n.attempts) == ("sent", 1)


def test_a_private_address_is_refused_by_default(
    game: Game, bob: User, hook_server: HookServer
) -> None:
    n = _hook_row(game, bob, hook_server.url)
    assert notification_deliver(notification_id=n.pk) == "failed"
    assert hook_server.received == []
    n.refresh_from_db()
    assert "not public" in n.last_error
    assert WebhookEndpoint.objects.get().active is False  # a permanent error disables it


@pytest.mark.usefixtures("allow_private")
def test_410_gone_disables_the_endpoint(game: Game, bob: User, hook_server: HookServer) -> None:
    n = _hook_row(game, bob, hook_server.url)
    hook_server.statuses.append(410)
    assert notification_deliver(notification_id=n.pk) == "failed"
    assert WebhookEndpoint.objects.get().active is False


@pytest.mark.usefixtures("allow_private")
def test_an_unreachable_endpoint_is_a_temporary_error(game: Game, bob: User) -> None:
    n = _hook_row(game, bob, "http://127.0.0.1:9/nothing-listens-here")
    assert notification_deliver(notification_id=n.pk) == "retry"
    n.refresh_from_db()
    assert n.last_error.startswith("webhook not reached")


@pytest.mark.parametrize(
    ("address", "private"),
    [
        ("127.0.0.1", True),
        ("10.1.2.3", True),
        ("192.168.0.10", True),
        ("169.254.169.254", True),  # cloud metadata: link-local
        ("::1", True),
        ("fe80::1", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", True),  # noqa: S104
        ("93.184.216.34", False),
        ("2606:2800:220:1:248:1893:25c8:1946", False),
    ],
)
def test_private_addresses_are_recognised(address: str, private: bool) -> None:
    assert ip_is_private(address) is private


def test_subscribing_stores_an_endpoint(bob: User) -> None:
    hook = webhook_subscribe(
        user=bob, url="https://hooks.example.com/pbem", secret="s3", events=["your_turn"]
    )
    assert (hook.user, hook.url, hook.secret, hook.events, hook.active) == (
        bob,
        "https://hooks.example.com/pbem",
        "s3",
        ["your_turn"],
        True,
    )
    generated = webhook_subscribe(user=bob, url="https://hooks.example.com/x", secret="", events=[])
    assert len(generated.secret) == 64


@pytest.mark.parametrize(
    ("url", "events", "message"),
    [
        ("ftp://example.com/x", [], "not an http(s) URL"),
        ("file:///etc/passwd", [], "not an http(s) URL"),
        ("http://127.0.0.1:8000/x", [], "not public"),
        ("http://localhost/x", [], "not public"),
        ("http://[::1]/x", [], "not public"),
        ("https://example.com/x", ["your_turn", "everything"], "unknown events"),
    ],
)
def test_a_bad_subscription_is_refused(
    bob: User, url: str, events: list[str], message: str
) -> None:
    with pytest.raises(WebhookRejected) as info:
        webhook_subscribe(user=bob, url=url, secret="s", events=events)
    assert message in info.value.message
    assert info.value.status == 400
    assert WebhookEndpoint.objects.count() == 0


@pytest.mark.usefixtures("allow_private")
def test_a_private_subscription_is_allowed_when_configured(bob: User) -> None:
    hook = webhook_subscribe(user=bob, url="http://127.0.0.1:8000/x", secret="s", events=[])
    assert hook.pk is not None


def test_a_name_that_rebinds_to_a_private_address_is_refused_on_connect(
    game: Game, bob: User, hook_server: HookServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name looked public when checked, then resolved to loopback for the connection (DNS
    rebinding): the connected peer is checked too, and nothing is sent."""
    monkeypatch.setattr(webhook, "host_check", lambda host, resolve=True: None)
    n = _hook_row(game, bob, hook_server.url)

    assert notification_deliver(notification_id=n.pk) == "failed"

    assert hook_server.received == []
    n.refresh_from_db()
    assert "private address 127.0.0.1" in n.last_error
