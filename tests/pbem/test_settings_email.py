"""Email configured by environment: every ANYMAIL_<NAME> variable lands in settings.ANYMAIL, and
our email transport sends through an anymail backend that reads those settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from pytest_django.fixtures import Settings

from pbem.envconf import anymail_settings
from pbem.notify.models import Notification
from pbem.notify.transports.base import Message
from pbem.notify.transports.email import EmailTransport

ROOT = Path(__file__).resolve().parents[2]


def test_every_anymail_variable_becomes_a_key() -> None:
    env = {
        "ANYMAIL_MAILGUN_API_KEY": " key-123 ",
        "ANYMAIL_MAILGUN_SENDER_DOMAIN": "mg.example.org",
        "ANYMAIL_WEBHOOK_SECRET": "user:pass",
        "ANYMAIL_": "no name: skipped",
        "ANYMAIL_POSTMARK_SERVER_TOKEN": "",  # blank: skipped
        "EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend",  # not ANYMAIL_: not read
        "PATH": "/usr/bin",
    }
    assert anymail_settings(env) == {
        "MAILGUN_API_KEY": "key-123",
        "MAILGUN_SENDER_DOMAIN": "mg.example.org",
        "WEBHOOK_SECRET": "user:pass",
    }


def test_booleans_json_and_numbers_are_typed() -> None:
    env = {
        "ANYMAIL_IGNORE_UNSUPPORTED_FEATURES": "True",
        "ANYMAIL_DEBUG_API_REQUESTS": "false",
        "ANYMAIL_SEND_DEFAULTS": '{"tags": ["pbem"], "track_clicks": false}',
        "ANYMAIL_REQUESTS_TIMEOUT": "12.5",
        "ANYMAIL_MAILJET_API_KEY": "12345",  # a numeric-looking secret stays a string
    }
    assert anymail_settings(env) == {
        "IGNORE_UNSUPPORTED_FEATURES": True,
        "DEBUG_API_REQUESTS": False,
        "SEND_DEFAULTS": {"tags": ["pbem"], "track_clicks": False},
        "REQUESTS_TIMEOUT": 12.5,
        "MAILJET_API_KEY": "12345",
    }


@pytest.mark.parametrize(
    ("var", "value"),
    [("ANYMAIL_SEND_DEFAULTS", "{tags: pbem}"), ("ANYMAIL_REQUESTS_TIMEOUT", "soon")],
)
def test_a_malformed_value_is_a_configuration_error(var: str, value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=var):
        anymail_settings({var: value})


def test_the_settings_module_reads_the_environment() -> None:
    """Settings run once at import, so check them in a fresh interpreter."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pbem.settings",
        "EMAIL_BACKEND": "anymail.backends.mailgun.EmailBackend",
        "ANYMAIL_MAILGUN_API_KEY": "key-abc",
        "EMAIL_TIMEOUT": "7",
    }
    code = (
        "import json; from django.conf import settings as s; "
        "print(json.dumps([s.EMAIL_BACKEND, s.ANYMAIL, s.EMAIL_TIMEOUT]))"
    )
    out = subprocess.run(  # noqa: S603  (our interpreter, our code)
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    backend, anymail, timeout = json.loads(out.stdout.strip().splitlines()[-1])
    assert backend == "anymail.backends.mailgun.EmailBackend"
    assert anymail["MAILGUN_API_KEY"] == "key-abc"
    assert timeout == 7


def test_the_email_transport_sends_through_anymail(settings: Settings) -> None:
    """anymail's test backend records what it would post to the ESP, including SEND_DEFAULTS
    taken from the ANYMAIL dict, so this checks the env -> ANYMAIL -> backend chain."""
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.ANYMAIL = anymail_settings({"ANYMAIL_SEND_DEFAULTS": '{"tags": ["pbem"]}'})
    user = User(username="bob", email="bob@example.org")
    transport = EmailTransport(Notification(user=user, role="french", channel="email"))
    transport.deliver(
        Message(
            dedupe_key="g1:2:french:your_turn:email",
            delivery_id="0123456789abcdef0123456789abcdef",
            kind="your_turn",
            game_id="g1",
            seq=2,
            role="french",
            subject="Your turn",
            text="It is your turn as french",
            html="<p>It is your turn as <b>french</b></p>",
            view_url="http://localhost:8000/api/v1/games/g1/view",
        )
    )
    (sent,) = mail.outbox
    params = getattr(sent, "anymail_test_params")  # noqa: B009  (set by anymail at send)
    assert params["to"][0].addr_spec == "bob@example.org"
    assert params["subject"] == "Your turn"
    assert params["tags"] == ["pbem"]
    assert params["html_body"] == "<p>It is your turn as <b>french</b></p>"
    assert params["extra_headers"]["Message-ID"] == "<g1.2.french.your_turn@localhost>"
    assert params["extra_headers"]["X-PBEM-Delivery"] == "0123456789abcdef0123456789abcdef"
    assert getattr(sent, "anymail_status").status == {"sent"}  # noqa: B009
