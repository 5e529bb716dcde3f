"""POST /api/v1/webhooks: subscribe, with the secret shown once; bad URLs are 400, never 500."""

from __future__ import annotations

from rest_framework.test import APIClient

from pbem.notify.models import WebhookEndpoint


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
