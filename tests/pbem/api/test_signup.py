"""Sign-up over HTTP: POST /users makes an inactive account and mails a
signed, single-use verification token; POST /users/verify activates it and returns the API
token. No enumeration of addresses; Django's password validators; throttled."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from pbem.play.services import accounts

SITE = "http://localhost:8931"
GOOD = {"username": "newbie", "email": "newbie@example.org", "password": "a-long-Passphrase-42"}
TOKEN = re.compile(r"token=([\w:.\-]+)")


@pytest.fixture(autouse=True)
def _site_and_throttle(settings: Settings) -> None:
    settings.PBEM_SITE_URL = SITE
    settings.PBEM = {**settings.PBEM, "SITE_URL": SITE}
    cache.clear()  # the sign-up limit counts per client address


def signup(body: dict[str, Any]) -> Any:
    return APIClient().post("/api/v1/users", body, format="json")


def mailed_token(to: str) -> str:
    [message] = [m for m in mail.outbox if m.to == [to]]
    found = TOKEN.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


def test_signup_makes_an_inactive_user_and_mails_a_link_on_the_site_url(db: None) -> None:
    response = signup(GOOD)

    assert response.status_code == 202, response.content
    user = User.objects.get(username="newbie")
    assert user.is_active is False
    assert user.email == "newbie@example.org"
    assert user.check_password(GOOD["password"])
    [message] = mail.outbox
    assert message.to == ["newbie@example.org"]
    assert f"{SITE}/api/v1/users/verify?token=" in message.body
    assert ":8000" not in message.body
    assert GOOD["password"] not in message.body


def test_verify_activates_once_and_returns_a_working_api_token(db: None) -> None:
    signup(GOOD)
    token = mailed_token("newbie@example.org")

    response = APIClient().post("/api/v1/users/verify", {"token": token}, format="json")

    assert response.status_code == 200, response.content
    out = response.json()
    assert out["username"] == "newbie"
    assert User.objects.get(username="newbie").is_active is True
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {out['token']}")
    assert client.get("/api/v1/games").status_code == 200
    again = APIClient().post("/api/v1/users/verify", {"token": token}, format="json")
    assert again.status_code == 400
    assert again.json()["code"] == "bad_token"


def test_following_the_mailed_link_activates_nothing(db: None) -> None:
    signup(GOOD)
    token = mailed_token("newbie@example.org")

    response = APIClient().get("/api/v1/users/verify", {"token": token})

    assert response.status_code == 200
    assert response.json()["url"] == f"{SITE}/api/v1/users/verify"
    assert response.json()["token"] == token
    assert User.objects.get(username="newbie").is_active is False


@pytest.mark.parametrize(
    "token",
    ["", "nonsense", "eyJ1IjoxfQ:forged:signature"],
)
def test_a_forged_or_empty_token_is_400(db: None, token: str) -> None:
    signup(GOOD)

    response = APIClient().post("/api/v1/users/verify", {"token": token}, format="json")

    assert response.status_code == 400
    assert User.objects.get(username="newbie").is_active is False


def test_an_expired_token_is_400(db: None, settings: Settings) -> None:
    signup(GOOD)
    token = mailed_token("newbie@example.org")
    settings.PASSWORD_RESET_TIMEOUT = -1  # every token is older than that

    response = APIClient().post("/api/v1/users/verify", {"token": token}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "bad_token"
    assert "expired" in response.json()["detail"]


def test_a_taken_email_gets_the_same_answer_and_its_owner_a_note(db: None) -> None:
    User.objects.create_user("owner", "Taken@Example.org", "pw-owner-long-enough")
    first = signup(GOOD)

    response = signup({**GOOD, "username": "squatter", "email": "taken@example.org"})

    assert response.status_code == first.status_code == 202
    assert response.json() == first.json()
    assert not User.objects.filter(username="squatter").exists()
    [note] = [m for m in mail.outbox if m.to == [User.objects.get(username="owner").email]]
    assert "already has an account" in note.body
    assert "token=" not in note.body  # an active account gets no activation link


def test_a_taken_username_is_400_naming_the_field(db: None) -> None:
    User.objects.create_user("NewBie", "other@example.org")

    response = signup(GOOD)

    assert response.status_code == 400
    assert "username" in str(response.json())
    assert "taken" in str(response.json())
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"password": "password"}, "password"),  # too common
        ({"password": "12345678901"}, "password"),  # numeric
        ({"password": "short"}, "password"),
        ({"password": "newbie-example"}, "password"),  # too like the username
        ({"email": "not-an-address"}, "email"),
        ({"username": "has space"}, "username"),
        ({"username": ""}, "username"),
        ({"username": "x" * 151}, "username"),
    ],
)
def test_bad_input_is_400_naming_the_field(db: None, change: dict[str, str], field: str) -> None:
    response = signup({**GOOD, **change})

    assert response.status_code == 400, response.content
    assert field in str(response.json())
    assert not User.objects.filter(email="newbie@example.org").exists()
    assert mail.outbox == []


def test_a_missing_field_is_400(db: None) -> None:
    response = signup({"username": "newbie", "email": "newbie@example.org"})
    assert response.status_code == 400
    assert "password" in str(response.json())


def test_a_mail_failure_keeps_nothing_and_is_503(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise OSError("connection refused")

    monkeypatch.setattr(accounts, "send_mail", broken)

    response = signup(GOOD)

    assert response.status_code == 503
    assert response.json()["code"] == "mail_unavailable"
    assert not User.objects.filter(username="newbie").exists()


def test_signup_is_rate_limited_per_address(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"signup": "2/hour"})
    cache.clear()

    codes = [
        signup({**GOOD, "username": f"u{i}", "email": f"u{i}@example.org"}).status_code
        for i in range(3)
    ]

    assert codes == [202, 202, 429]
    assert User.objects.filter(username__in=["u0", "u1", "u2"]).count() == 2


def test_an_unverified_account_signing_up_again_gets_a_fresh_link(db: None) -> None:
    signup(GOOD)
    mail.outbox.clear()

    response = signup({**GOOD, "username": "other-name"})

    assert response.status_code == 202
    token = mailed_token("newbie@example.org")
    verified = APIClient().post("/api/v1/users/verify", {"token": token}, format="json")
    assert verified.status_code == 200
    assert verified.json()["username"] == "newbie"  # the name chosen first
    assert not User.objects.filter(username="other-name").exists()
