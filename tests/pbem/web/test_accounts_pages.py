"""Accounts in the browser: sign up -> the mailed link -> active and logged in; log in and
out; password reset by mail; the profile (time zone, language, notifications, a new address
only once verified, the API token regenerated, absences)."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from pbem.notify.language import language_of
from pbem.notify.models import NotificationPref
from pbem.play.models import Absence
from pbem.web.models import Profile


def link_in(body: str, path: str) -> str:
    found = re.search(rf"https?://[^/\s]+({re.escape(path)}\S*)", body)
    assert found, body
    return found.group(1)


def test_sign_up_verify_and_log_in(client: Client, db: None) -> None:
    answer = client.post(
        "/accounts/signup/",
        {"username": "carol", "email": "carol@example.org", "password": "a-long-password-9"},
    )
    assert answer.status_code == 200
    assert b'id="signup-sent"' in answer.content
    user = User.objects.get(username="carol")
    assert not user.is_active
    link = link_in(str(mail.outbox[-1].body), "/accounts/verify/")
    page = client.get(link)  # a scanner following the link activates nothing
    assert page.status_code == 200
    assert b'id="verify-form"' in page.content
    user.refresh_from_db()
    assert not user.is_active
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode())
    assert token
    done = client.post("/accounts/verify/", {"token": token.group(1)})
    assert done.status_code == 302
    assert done["Location"] == "/"
    user.refresh_from_db()
    assert user.is_active
    lobby = client.get("/")
    assert b"Log out (carol)" in lobby.content
    # the link works once
    again = client.post("/accounts/verify/", {"token": token.group(1)})
    assert again.status_code == 400
    assert b'class="error"' in again.content
    # out, and in again with the password
    assert client.post("/accounts/logout/").status_code == 302
    assert b"Log out" not in client.get("/").content
    logged = client.post("/accounts/login/", {"username": "carol", "password": "a-long-password-9"})
    assert logged.status_code == 302
    assert logged["Location"] == "/"


def test_sign_up_refusals_show_next_to_the_field(client: Client, alice: User) -> None:
    taken = client.post(
        "/accounts/signup/",
        {"username": "alice", "email": "new@example.org", "password": "a-long-password-9"},
    )
    assert taken.status_code == 400
    assert b"this username is taken" in taken.content
    weak = client.post(
        "/accounts/signup/", {"username": "dora", "email": "dora@example.org", "password": "1"}
    )
    assert weak.status_code == 400
    assert b'class="error"' in weak.content
    assert not User.objects.filter(username="dora").exists()


def test_password_reset_by_mail(client: Client, alice: User) -> None:
    sent = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert sent.status_code == 302
    link = link_in(str(mail.outbox[-1].body), "/accounts/password/reset/")
    form = client.get(link, follow=True)
    assert form.status_code == 200
    assert b'id="password-set-form"' in form.content
    url = form.redirect_chain[-1][0] if form.redirect_chain else link
    done = client.post(
        url, {"new_password1": "another-long-pass-7", "new_password2": "another-long-pass-7"}
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another-long-pass-7")


def test_profile_settings(alice: User, alice_client: Client) -> None:
    page = alice_client.get("/accounts/profile/")
    assert page.status_code == 200
    token = Token.objects.get(user=alice).key
    assert token.encode() in page.content
    saved = alice_client.post(
        "/accounts/profile/",
        {
            "form": "profile",
            "email": "alice@example.org",
            "time_zone": "Europe/Berlin",
            "language": "de",
        },
    )
    assert saved.status_code == 302
    assert Profile.objects.get(user=alice).time_zone == "Europe/Berlin"
    assert language_of(alice) == "de"  # stored once, by notify: the pages' and the mails'
    assert NotificationPref.objects.get(user=alice).language == "de"
    prefs = alice_client.post(
        "/accounts/profile/",
        {"form": "notifications", "mode": "daily_digest", "digest_hours": "12"},
    )
    assert prefs.status_code == 302
    pref = NotificationPref.objects.get(user=alice)
    assert (pref.mode, pref.digest_hours, pref.email_enabled) == ("daily_digest", 12, False)
    assert pref.language == "de"  # the notification choices leave the language alone
    bad = alice_client.post(
        "/accounts/profile/", {"form": "notifications", "mode": "instant", "digest_hours": "999"}
    )
    assert bad.status_code == 400
    assert NotificationPref.objects.get(user=alice).digest_hours == 12
    # a new API token: the old one stops working
    assert alice_client.post("/accounts/profile/token").status_code == 302
    assert Token.objects.get(user=alice).key != token


def test_the_profile_language_leads_the_pages_in_every_browser(
    alice: User, alice_client: Client
) -> None:
    def lobby(client: Client) -> str:
        return client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    def saved(language: str) -> None:
        form = {"form": "profile", "email": alice.email, "time_zone": "UTC", "language": language}
        assert alice_client.post("/accounts/profile/", form).status_code == 302

    fresh = Client()
    fresh.force_login(alice)  # another browser: no language cookie
    assert "My games" in lobby(fresh)
    saved("de")
    assert language_of(alice) == "de"
    assert "Meine Partien" in lobby(fresh)
    page = alice_client.get("/accounts/profile/").content.decode()
    assert '<option value="de" selected>' in page  # the form shows the stored choice
    saved("")  # as my browser says
    assert language_of(alice) == ""
    assert "My games" in lobby(fresh)
    # the signed-in language switch stores the choice in the same place
    alice_client.post("/i18n/language", {"language": "de", "next": "/"})
    assert language_of(alice) == "de"
    assert "Meine Partien" in lobby(fresh)


def test_a_new_address_counts_only_once_verified(alice: User, alice_client: Client) -> None:
    alice_client.post(
        "/accounts/profile/",
        {"form": "profile", "email": "alice@new.example", "time_zone": "UTC", "language": ""},
    )
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    message = mail.outbox[-1]
    assert message.to == ["alice@new.example"]
    link = link_in(str(message.body), "/accounts/email/confirm/")
    assert alice_client.get(link).status_code == 200
    token = link.split("token=", 1)[1]
    assert alice_client.post("/accounts/email/confirm/", {"token": token}).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    again = alice_client.post("/accounts/email/confirm/", {"token": token})
    assert again.status_code == 400
    forged = alice_client.post("/accounts/email/confirm/", {"token": token[:-3] + "xyz"})
    assert forged.status_code == 400


def test_absences_declared_and_withdrawn(alice: User, alice_client: Client) -> None:
    made = alice_client.post(
        "/accounts/profile/",
        {"form": "absence", "starts_on": "2999-01-02", "ends_on": "2999-01-05"},
    )
    assert made.status_code == 302
    absence = Absence.objects.get(user=alice)
    backwards = alice_client.post(
        "/accounts/profile/",
        {"form": "absence", "starts_on": "2999-01-05", "ends_on": "2999-01-02"},
    )
    assert backwards.status_code == 400
    assert alice_client.post(f"/accounts/profile/absences/{absence.pk}/withdraw").status_code == 302
    assert not Absence.objects.filter(user=alice).exists()


def test_pages_need_a_login(client: Client, db: None) -> None:
    for url in ("/accounts/profile/", "/games/new"):
        answer = client.get(url)
        assert answer.status_code == 302
        assert answer["Location"].startswith("/accounts/login/")
