"""German and English: the profile's language first, else the browser's; the language switch
works signed out (Django's set_language) and signed in (kept in the profile); the German
catalogue translates every UI string and its compiled form is current."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from pbem.notify.language import language_of, language_set
from pbem.play.models import Game

PO = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"


def test_german_from_the_browser(client: Client, db: None) -> None:
    german = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    html = german.content.decode()
    assert '<html lang="de">' in html
    assert "Passwort vergessen?" in html
    english = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Forgot your password?" in english.content.decode()


def test_the_profile_language_goes_first(alice: User, alice_client: Client, game: Game) -> None:
    language_set(alice, "de")
    html = alice_client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Deine Entscheidung" in html
    assert "Die Lage in Worten" in html
    assert "Your decision</h2>" not in html  # (the engine's report stays English)
    lobby = alice_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Meine Partien" in lobby


def test_the_language_switch_signed_out_and_in(client: Client, alice: User) -> None:
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="language-form"' in page
    assert '<select id="language-select" name="language">' in page
    switched = client.post("/i18n/language", {"language": "de", "next": "/accounts/login/"})
    assert switched.status_code == 302
    assert switched["Location"] == "/accounts/login/"
    after = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Passwort vergessen?" in after
    # signed in, the choice is kept in the profile
    client.force_login(alice)
    client.post("/i18n/language", {"language": "en", "next": "/"})
    assert language_of(alice) == "en"
    client.post("/i18n/language", {"language": "de", "next": "/"})
    assert language_of(alice) == "de"
    fresh = Client()
    fresh.force_login(alice)  # another browser: no cookie, the profile decides
    assert "Meine Partien" in fresh.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def po_entries() -> list[tuple[str, str, str]]:
    """(msgctxt or "", msgid, first msgstr) of every entry of the German catalogue."""
    text = PO.read_text(encoding="utf-8")
    entries = []
    for block in text.split("\n\n")[1:]:
        fields: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            m = re.match(
                r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[0\])?|msgstr\[\d\]) "(.*)"$', line
            )
            if m:
                current = m.group(1)
                fields[current] = m.group(2)
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        msgstr = fields.get("msgstr", fields.get("msgstr[0]", ""))
        entries.append((fields.get("msgctxt", ""), fields.get("msgid", ""), msgstr))
    return entries


def unescape(s: str) -> str:
    return s.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def test_every_string_is_translated_and_compiled() -> None:
    entries = po_entries()
    assert len(entries) > 150
    assert all(msgstr for _c, _msgid, msgstr in entries), [m for _c, m, s in entries if not s]
    assert "#, fuzzy" not in PO.read_text(encoding="utf-8").split("\n\n", 1)[1]
    with translation.override("de"):
        for context, msgid, msgstr in entries:
            found = (
                translation.pgettext(unescape(context), unescape(msgid))
                if context
                else translation.gettext(unescape(msgid))
            )
            assert found == unescape(msgstr), msgid


def test_the_engines_refusals_and_descriptions_in_german(
    alice: User, alice_client: Client, game: Game
) -> None:
    language_set(alice, "de")
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {
            "role": "allied",
            "kind": "allied_setup",
            "payload-allied_setup": '{"corps": [{"commander": "X9", "units": []}]}',
        },
    )
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "&#x27;X9&#x27; ist keiner deiner Kommandeure" in html
    assert "die Partie aufgeben" in html  # the description of `resign` in the form
    language_set(alice, "en")
    english = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "give up the game" in english
    assert "die Partie aufgeben" not in english
