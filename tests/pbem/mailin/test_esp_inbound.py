"""The ESP inbound transport (pbem.mailin.esp): Postmark's inbound webhook, posted with Django's
test client as Postmark posts it (JSON with the raw MIME in `RawEmail`, HTTP basic auth with the
ANYMAIL WEBHOOK_SECRET), stores one InboundMessage; without the secret nothing is stored.
"""

from __future__ import annotations

import base64
import json
import logging
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from pbem.mailin.models import InboundMessage

pytestmark = pytest.mark.django_db

SECRET = "postmark:webhook-s3cret"
URL = "/anymail/postmark/inbound/"
TO = "play+u7.1.abcdefghijklmnopqrst@localhost"


@pytest.fixture(autouse=True)
def webhook_secret(settings: Any) -> None:
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}


def raw_mail(*, body: str = "move 1\n", message_id: str = "<m1@example.org>") -> str:
    msg = EmailMessage()
    msg["From"] = "Alice <alice@example.org>"
    msg["To"] = TO
    msg["Subject"] = "Re: your turn"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg.as_string()


def postmark_body(raw: str, *, recipient: str | None = TO) -> str:
    """What Postmark posts with "Include raw email content" on (fields anymail reads)."""
    event: dict[str, Any] = {
        "FromFull": {"Email": "alice@example.org", "Name": "Alice"},
        "ToFull": [{"Email": TO, "Name": ""}],
        "Subject": "Re: your turn",
        "MessageID": "22c74902-a0c1-4511-804f-341342852c90",
        "Headers": [{"Name": "Return-Path", "Value": "<bounce+alice@example.org>"}],
        "RawEmail": raw,
    }
    if recipient is not None:
        event["OriginalRecipient"] = recipient
    return json.dumps(event)


def post(client: Client, body: str, auth: str | None = SECRET) -> Any:
    headers = {}
    if auth is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
    return client.post(URL, body, content_type="application/json", headers=headers)


def test_the_url_is_anymails() -> None:
    assert reverse("anymail:postmark_inbound_webhook") == URL


def test_a_good_post_stores_one_message(client: Client) -> None:
    response = post(client, postmark_body(raw_mail()))
    assert response.status_code == 200
    row = InboundMessage.objects.get()
    assert row.transport == "esp"
    assert row.envelope_from == "bounce+alice@example.org"  # Postmark's Return-Path
    assert row.envelope_to == [TO]
    stored = message_from_bytes(bytes(row.raw), policy=default_policy)
    assert stored["Message-ID"] == "<m1@example.org>"
    assert stored["To"] == TO
    assert stored.get_content() == "move 1\n"


def test_without_an_envelope_recipient_the_to_addresses_are_used(client: Client) -> None:
    assert post(client, postmark_body(raw_mail(), recipient=None)).status_code == 200
    assert InboundMessage.objects.get().envelope_to == [TO]


def test_a_post_delivered_twice_is_stored_once(client: Client) -> None:
    body = postmark_body(raw_mail())
    assert post(client, body).status_code == 200
    assert post(client, body).status_code == 200
    assert InboundMessage.objects.count() == 1


@pytest.mark.parametrize("auth", [None, "postmark:wrong", "someone:webhook-s3cret"])
def test_a_post_without_the_secret_is_refused(client: Client, auth: str | None) -> None:
    response = post(client, postmark_body(raw_mail()), auth=auth)
    assert response.status_code == 400  # anymail: AnymailWebhookValidationFailure
    assert not InboundMessage.objects.exists()


@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailInsecureWebhookWarning")
def test_with_no_secret_configured_the_webhook_is_closed(client: Client, settings: Any) -> None:
    settings.ANYMAIL = {}
    response = post(client, postmark_body(raw_mail()), auth=SECRET)
    assert response.status_code == 400
    assert not InboundMessage.objects.exists()


def test_a_message_too_large_is_dropped_with_a_log_line(
    client: Client, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.PBEM = {**settings.PBEM, "MAX_MAIL_BYTES": 2048}
    with caplog.at_level(logging.WARNING, logger="pbem.mailin.esp"):
        response = post(client, postmark_body(raw_mail(body=("x" * 70 + "\n") * 60)))
    # the ESP has accepted the mail already: 200 so that it does not post it again
    assert response.status_code == 200
    assert not InboundMessage.objects.exists()
    assert "dropped" in caplog.text


def test_a_body_above_djangos_upload_limit_is_refused(client: Client, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 8192
    response = post(client, postmark_body(raw_mail(body=("y" * 70 + "\n") * 200)))
    assert response.status_code == 400  # RequestDataTooBig, before anymail reads the body
    assert not InboundMessage.objects.exists()
