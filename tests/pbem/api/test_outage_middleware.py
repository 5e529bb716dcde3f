"""Outside the API's views a database outage is a 503 with Retry-After as well, never a 500."""

from __future__ import annotations

import json

import pytest
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import path


def _refused(request: HttpRequest) -> HttpResponse:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')


def _closed(request: HttpRequest) -> HttpResponse:
    raise InterfaceError("connection already closed")


def _bug(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [path("refused", _refused), path("closed", _closed), path("bug", _bug)]


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize("url", ["/refused", "/closed"])
def test_a_plain_view_hitting_a_database_outage_answers_503(url: str) -> None:
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = json.loads(response.content)
    assert body["code"] == "database_unavailable"
    assert body["errors"] == []


@override_settings(ROOT_URLCONF=__name__)
def test_other_errors_stay_500_so_bugs_stay_visible() -> None:
    response = Client(raise_request_exception=False).get("/bug")
    assert response.status_code == 500
