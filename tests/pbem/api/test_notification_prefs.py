"""`/api/v1/users/me/notifications` (pbem.api.notification_prefs): the caller's email
preference, instant or a digest every N hours, and their language; 400 naming the field, 401
without a token, only the caller's own; documented in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from pbem.notify.language import language_of, language_set, mail_language
from pbem.notify.models import NotificationPref

URL = "/api/v1/users/me/notifications"
DEFAULTS = {"mode": "instant", "digest_hours": 24, "email_enabled": True, "language": ""}


def stored(user: User) -> tuple[str, int, bool] | None:
    pref = NotificationPref.objects.filter(user=user).first()
    return None if pref is None else (pref.mode, pref.digest_hours, pref.email_enabled)


def test_a_new_user_reads_the_defaults(alice_client: APIClient, alice: User) -> None:
    response = alice_client.get(URL)
    assert response.status_code == 200
    assert response.json() == DEFAULTS
    assert stored(alice) is None  # reading creates nothing


@pytest.mark.parametrize("method", ["patch", "put"])
def test_choosing_a_digest_every_6_hours(alice_client: APIClient, alice: User, method: str) -> None:
    send = getattr(alice_client, method)
    response = send(URL, {"mode": "digest", "digest_hours": 6}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {**DEFAULTS, "mode": "digest", "digest_hours": 6}
    assert stored(alice) == ("daily_digest", 6, True)  # the stored value kept from before
    assert alice_client.get(URL).json() == response.json()

    again = send(URL, {"email_enabled": False}, format="json")  # the others keep their value
    assert again.json() == {**DEFAULTS, "mode": "digest", "digest_hours": 6, "email_enabled": False}
    back = send(URL, {"mode": "instant"}, format="json")
    assert back.json() == {**DEFAULTS, "digest_hours": 6, "email_enabled": False}
    assert stored(alice) == ("instant", 6, False)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"digest_hours": 0}, "digest_hours"),
        ({"digest_hours": 169}, "digest_hours"),
        ({"digest_hours": -1}, "digest_hours"),
        ({"digest_hours": 10**30}, "digest_hours"),
        ({"digest_hours": "12"}, "digest_hours"),
        ({"digest_hours": 12.0}, "digest_hours"),
        ({"digest_hours": True}, "digest_hours"),
        ({"digest_hours": None}, "digest_hours"),
        ({"mode": "daily_digest"}, "mode"),  # the stored word is not the API's
        ({"mode": "x" * 10_000}, "mode"),
        ({"mode": 1}, "mode"),
        ({"email_enabled": "yes"}, "email_enabled"),
        ({"email_enabled": 1}, "email_enabled"),
        ({"mode": "digest", "hours": 6}, "hours"),  # an unknown field
        ({"language": "fr"}, "language"),  # not one of settings.LANGUAGES
        ({"language": "DE"}, "language"),
        ({"language": "de-at"}, "language"),
        ({"language": "x" * 10_000}, "language"),
        ({"language": None}, "language"),
        ({"language": 1}, "language"),
        ({"language": ["de"]}, "language"),
        ({"mode": "digest", "language": "fr"}, "language"),  # the good field is not applied
    ],
)
def test_a_bad_field_is_a_400_naming_it_and_changes_nothing(
    alice_client: APIClient, alice: User, body: dict[str, Any], field: str
) -> None:
    alice_client.patch(URL, {"digest_hours": 12, "language": "en"}, format="json")
    before = stored(alice)
    response = alice_client.patch(URL, body, format="json")
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "invalid"
    assert [e["path"] for e in data["errors"]] == [f"/{field}"]
    assert len(response.content) < 2000  # a long input is not echoed back
    assert stored(alice) == before
    assert language_of(alice) == "en"


@pytest.mark.parametrize("method", ["patch", "put"])
def test_choosing_a_language(alice_client: APIClient, alice: User, method: str) -> None:
    """`language` is the one stored choice (pbem.notify.language): the API reads what the profile
    page wrote, and the mails follow what the API writes."""
    send = getattr(alice_client, method)
    response = send(URL, {"language": "de"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {**DEFAULTS, "language": "de"}
    assert (language_of(alice), mail_language(alice)) == ("de", "de")
    assert alice_client.get(URL).json()["language"] == "de"
    # the other fields keep their value, and a change of them keeps the language
    both = send(URL, {"mode": "digest", "digest_hours": 6}, format="json").json()
    assert both == {**DEFAULTS, "mode": "digest", "digest_hours": 6, "language": "de"}
    assert language_of(alice) == "de"
    # "" is no choice: the mails are in English (settings.LANGUAGE_CODE)
    none = send(URL, {"language": ""}, format="json")
    assert none.json()["language"] == ""
    assert (language_of(alice), mail_language(alice)) == ("", "en")
    assert stored(alice) == ("daily_digest", 6, True)


def test_the_api_reads_the_language_the_profile_stored(
    alice_client: APIClient, alice: User, bob: User
) -> None:
    language_set(alice, "de")  # as the profile page stores it
    assert alice_client.get(URL).json() == {**DEFAULTS, "language": "de"}
    assert language_of(bob) == ""  # only hers


def test_an_unknown_language_is_a_400_naming_the_codes_allowed(
    alice_client: APIClient, alice: User, settings: Any
) -> None:
    alice_client.patch(URL, {"language": "de"}, format="json")
    response = alice_client.patch(URL, {"language": "fr"}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["path"] == "/language"
    for code, _name in settings.LANGUAGES:
        assert code in error["message"]
    assert "fr" not in error["message"]  # names the allowed codes, does not echo the input
    assert language_of(alice) == "de"


@pytest.mark.parametrize("body", ["[]", '"digest"', "6", "null", "{", "not json"])
def test_a_body_that_is_not_an_object_is_a_400(
    alice_client: APIClient, alice: User, body: str
) -> None:
    response = alice_client.put(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] in {"invalid", "parse_error"}
    assert stored(alice) is None


@pytest.mark.parametrize("method", ["get", "put", "patch"])
def test_without_a_token_it_is_a_401(bob: User, method: str) -> None:
    response = getattr(APIClient(), method)(URL, {"mode": "digest"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert "WWW-Authenticate" in response.headers
    assert stored(bob) is None


def test_a_bad_token_is_a_401(bob: User) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert client.patch(URL, {"mode": "digest"}, format="json").status_code == 401
    assert stored(bob) is None


def test_each_user_sets_only_their_own(
    alice_client: APIClient, bob_client: APIClient, alice: User, bob: User
) -> None:
    alice_client.patch(URL, {"mode": "digest", "digest_hours": 2}, format="json")
    assert bob_client.get(URL).json() == DEFAULTS
    bob_client.patch(URL, {"digest_hours": 48}, format="json")
    assert alice_client.get(URL).json()["digest_hours"] == 2
    assert stored(alice) == ("daily_digest", 2, True)
    assert stored(bob) == ("instant", 48, True)
    # there is no way to name another user
    other = alice_client.patch(f"/api/v1/users/{bob.pk}/notifications", {"digest_hours": 1})
    assert other.status_code == 404
    assert stored(bob) == ("instant", 48, True)


def test_the_schema_documents_the_endpoint(db: None) -> None:
    doc = APIClient().get("/api/schema/", {"format": "json"}).json()
    ops = doc["paths"][URL]
    assert {"get", "put", "patch"} <= set(ops)
    for method in ("put", "patch"):
        assert {"200", "400", "401"} <= set(ops[method]["responses"])
        error = ops[method]["responses"]["400"]["content"]["application/json"]["schema"]
        assert error["$ref"].endswith("/ErrorOutput")
    assert "401" in ops["get"]["responses"]
    schemas = doc["components"]["schemas"]
    out = schemas["NotificationPrefs"]
    assert set(out["properties"]) == {"mode", "digest_hours", "email_enabled", "language"}
    assert {"mode", "digest_hours", "email_enabled", "language"} <= set(out["required"])
    for name in ("NotificationPrefsUpdateRequest", "PatchedNotificationPrefsUpdateRequest"):
        hours = schemas[name]["properties"]["digest_hours"]
        assert (hours["minimum"], hours["maximum"]) == (1, 168)
        assert "required" not in schemas[name]  # every field optional, PUT as PATCH
        assert "language" in schemas[name]["properties"]
    for name in ("NotificationPrefs", "NotificationPrefsUpdateRequest"):
        language = schemas[name]["properties"]["language"]
        refs = [v["$ref"].rsplit("/", 1)[-1] for v in language.get("oneOf", [])]
        allowed = {code for ref in refs for code in schemas[ref]["enum"]}
        assert allowed == {"en", "de", ""}, language
        assert "Deutsch" in language["description"]
