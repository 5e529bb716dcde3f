"""/api/v1/webhooks: subscribe, with the secret shown once; bad URLs are 400, never 500; list
your endpoints without their secrets; delete your own (anyone else's is 404)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from pbem.notify.models import Notification, WebhookEndpoint
from pbem.notify.transports import webhook
from pbem.play.services.games import game_create


def test_subscribe_returns_the_secret_and_stores_the_endpoint(alice_client: APIClient) -> None:
    r = alice_client.post(
        "/api/v1/webhooks",
        {"url": "https://hooks.example.org/pbem", "events": ["your_turn"]},
        format="json",
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert len(body["secret"]) == 64  # generated: 32 random bytes in hex
    assert body["events"] == ["your_turn"]
    endpoint = WebhookEndpoint.objects.get(pk=body["id"])
    assert endpoint.user.username == "alice"
    assert endpoint.secret == body["secret"]


def test_private_addresses_and_unknown_events_are_refused(alice_client: APIClient) -> None:
    private = alice_client.post("/api/v1/webhooks", {"url": "http://127.0.0.1:9/x"}, format="json")
    assert private.status_code == 400
    assert private.json()["code"] == "bad_webhook"
    unknown = alice_client.post(
        "/api/v1/webhooks",
        {"url": "https://hooks.example.org/x", "events": ["everything"]},
        format="json",
    )
    assert unknown.status_code == 400
    assert "unknown events" in unknown.json()["detail"]
    assert (
        alice_client.post("/api/v1/webhooks", {"url": "not a url"}, format="json").status_code
        == 400
    )
    assert not WebhookEndpoint.objects.exists()


def test_anonymous_cannot_subscribe(db: None) -> None:
    r = APIClient().post("/api/v1/webhooks", {"url": "https://hooks.example.org/x"}, format="json")
    assert r.status_code in (401, 403)


# --- GET /api/v1/webhooks and DELETE /api/v1/webhooks/{id} ---------------------------------------


def _subscribe(client: APIClient, url: str, events: list[str] | None = None) -> dict[str, Any]:
    r = client.post("/api/v1/webhooks", {"url": url, "events": events or []}, format="json")
    assert r.status_code == 201, r.content
    body: dict[str, Any] = r.json()
    return body


def test_the_list_shows_only_your_endpoints_and_never_a_secret(
    alice_client: APIClient, bob_client: APIClient
) -> None:
    first = _subscribe(alice_client, "https://hooks.example.org/1", ["your_turn"])
    second = _subscribe(alice_client, "https://hooks.example.org/2")
    _subscribe(bob_client, "https://hooks.example.org/bob")

    r = alice_client.get("/api/v1/webhooks")

    assert r.status_code == 200, r.content
    listed = r.json()
    assert [e["id"] for e in listed] == [first["id"], second["id"]]
    assert listed[0]["url"] == "https://hooks.example.org/1"
    assert listed[0]["events"] == ["your_turn"]
    assert listed[0]["active"] is True
    assert listed[0]["failures"] == 0
    assert listed[0]["created_at"]
    for entry in listed:
        assert "secret" not in entry
    text = r.content.decode()
    assert first["secret"] not in text
    assert second["secret"] not in text


def test_you_delete_your_endpoint_and_its_outbox_rows(
    alice_client: APIClient, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook, "host_check", lambda host, resolve=True: None)  # no network
    monkeypatch.setattr(webhook, "post", lambda url, body, headers, timeout: 200)
    hook = _subscribe(alice_client, "https://hooks.example.org/1")
    endpoint = WebhookEndpoint.objects.get(pk=hook["id"])
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
        accepted=True,
    )  # alice moves first: told by mail and by this webhook
    assert Notification.objects.filter(endpoint=endpoint, game=game).exists()

    r = alice_client.delete(f"/api/v1/webhooks/{hook['id']}")

    assert r.status_code == 204, r.content
    assert not WebhookEndpoint.objects.filter(pk=hook["id"]).exists()
    assert not Notification.objects.filter(channel="webhook").exists()
    assert Notification.objects.filter(channel="email", user=alice).exists()  # mail stays
    assert alice_client.get("/api/v1/webhooks").json() == []
    again = alice_client.delete(f"/api/v1/webhooks/{hook['id']}")
    assert again.status_code == 404


def test_someone_elses_endpoint_is_404_and_stays(
    alice_client: APIClient, bob_client: APIClient
) -> None:
    hook = _subscribe(alice_client, "https://hooks.example.org/1")

    r = bob_client.delete(f"/api/v1/webhooks/{hook['id']}")

    assert r.status_code == 404
    assert r.json()["code"] == "not_found"
    assert WebhookEndpoint.objects.filter(pk=hook["id"]).exists()


@pytest.mark.parametrize("webhook_id", ["999999", "0", "-1", "abc", "9" * 30])
def test_an_unknown_or_malformed_id_is_404(alice_client: APIClient, webhook_id: str) -> None:
    r = alice_client.delete(f"/api/v1/webhooks/{webhook_id}")

    assert r.status_code == 404
    assert r.json()["code"] == "not_found"
    assert "webhook" in r.json()["detail"]


def test_anonymous_cannot_list_or_delete(db: None) -> None:
    assert APIClient().get("/api/v1/webhooks").status_code in (401, 403)
    assert APIClient().delete("/api/v1/webhooks/1").status_code in (401, 403)
