"""Smoke tests: the project boots, passes Django's checks and answers its health check."""

from __future__ import annotations

from django.core.management import call_command
from django.test import Client


def test_healthz_answers_ok(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"ok": True}


def test_django_system_checks_pass() -> None:
    call_command("check")
