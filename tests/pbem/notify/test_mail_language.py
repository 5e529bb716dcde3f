"""Mails in the recipient's language: the one stored language (NotificationPref.language, read
and written through pbem.notify.language) picks German or English for every mail notify writes;
no choice means English. What a program reads (the digest's section headers, reply addresses,
the order examples and the `ORDER` line, game ids and role ids) and what the engine wrote (its
report, prompts and log) are the same in both languages. pbem.web's 0002 moved the language out
of the web profile: the migration copies every chosen language here, and back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.template.loader import render_to_string
from django.utils import translation

from pbem.mailin.reading import mail_read, order_lines, sections
from pbem.notify.content import notification_content, render
from pbem.notify.digest import digest_context, digest_send, notification_pref_set
from pbem.notify.language import language_of, language_set, mail_language
from pbem.notify.models import Notification, NotificationPref
from pbem.notify.services import notification_deliver
from pbem.play.engine_text import engine_text
from pbem.play.errors import InvalidField
from pbem.play.models import Event, Game
from pbem.play.services.games import game_create
from tests.pbem.notify.nf_helpers import play

DAY1 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY2 = datetime(2026, 3, 3, tzinfo=UTC)  # the start of the next 24-hour window
EXAMPLES = ("move <unit> to <place>", "corps <commander> to <place> blocking <place>", "end turn")


def delivered(n: Notification) -> EmailMultiAlternatives:
    """Deliver the row through the real path and return the one mail it sent."""
    mail.outbox.clear()
    assert notification_deliver(notification_id=n.pk) == "sent"
    (sent,) = mail.outbox
    assert isinstance(sent, EmailMultiAlternatives)
    return sent


def html_of(sent: EmailMultiAlternatives) -> str:
    return str(sent.alternatives[0][0])


# --- the one stored language ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_language_is_stored_once_in_the_notification_pref(alice: User) -> None:
    assert language_of(alice) == ""
    assert mail_language(alice) == "en"  # nothing chosen: English
    language_set(alice, "de")
    pref = NotificationPref.objects.get(user=alice)  # created with the other defaults
    assert (pref.language, pref.mode, pref.email_enabled, pref.digest_hours) == (
        "de",
        NotificationPref.Mode.INSTANT,
        True,
        24,
    )
    assert (language_of(alice), mail_language(alice)) == ("de", "de")
    notification_pref_set(user=alice, mode=NotificationPref.Mode.DAILY_DIGEST, digest_hours=6)
    assert language_of(alice) == "de"  # the email choices leave the language alone
    language_set(alice, "")
    assert (language_of(alice), mail_language(alice)) == ("", "en")
    assert NotificationPref.objects.get(user=alice).mode == NotificationPref.Mode.DAILY_DIGEST
    with pytest.raises(InvalidField):
        language_set(alice, "fr")
    assert language_of(alice) == ""
    assert mail_language(None) == "en"  # a mail to no user


@pytest.mark.django_db
def test_a_stored_language_no_longer_offered_writes_english(alice: User) -> None:
    NotificationPref.objects.create(user=alice, language="fr")  # e.g. settings.LANGUAGES shrank
    assert language_of(alice) == "fr"
    assert mail_language(alice) == "en"


# --- each kind of mail ---------------------------------------------------------------------


@pytest.mark.django_db
def test_your_turn_in_german_and_in_english(game: Game, bob: User) -> None:
    play(game, 1)
    n = Notification.objects.get(user=bob, channel="email", kind="your_turn")
    language_set(bob, "de")
    german = delivered(n)
    assert german.subject == "[notify test] Du bist am Zug als French army (Ereignis 2)"
    assert "Du bist am Zug als French army (french) in „notify test“ (Partie " in german.body
    assert "(das bist du)" in german.body
    assert f"Zur Partie: http://localhost:8000/api/v1/games/{game.pk}/view" in german.body
    assert "Befehle per E-Mail: antworte auf diese Mail" in german.body
    assert "It is your turn" not in german.body
    assert "Du bist am Zug als <b>French army (french)</b> in &bdquo;" in html_of(german)
    assert "Deine Lage (wie dein Platz sie sieht)" in html_of(german)

    language_set(bob, "")
    english = delivered_again(n)
    assert english.subject == "[notify test] Your turn as French army (event 2)"
    assert 'It is your turn as French army (french) in "notify test"' in english.body
    assert "Du bist" not in english.body

    # what a program wrote is the same in both; the engine's report in each one's language
    assert german.extra_headers["Reply-To"] == english.extra_headers["Reply-To"]
    assert german.extra_headers["Message-ID"] == english.extra_headers["Message-ID"]
    report = notification_content(n).context["report_text"]
    assert report
    assert report in english.body
    assert engine_text(report, "de") in german.body
    assert engine_text(report, "de") != report  # the engine's sentences have German
    examples = []
    for sent in (german, english):
        assert german.extra_headers["Reply-To"] in sent.body
        assert str(game.pk) in sent.body
        examples.append([line for line in sent.body.splitlines() if line.strip() in EXAMPLES])
    assert examples[0] == examples[1]
    assert {line.strip() for line in examples[0]} == set(EXAMPLES)


def delivered_again(n: Notification) -> EmailMultiAlternatives:
    """The same row delivered once more (put back to pending, as a retry would find it)."""
    Notification.objects.filter(pk=n.pk).update(status=Notification.Status.PENDING)
    return delivered(n)


@pytest.mark.django_db
def test_turn_resolved_in_german_and_in_english(game: Game, alice: User) -> None:
    play(game, 12, seed=3)
    event = Event.objects.filter(game=game, turn_ended=True).order_by("seq").first()
    assert event is not None
    n = Notification.objects.create(
        event=event,
        game=game,
        user=alice,
        role="allied",
        channel=Notification.Channel.EMAIL,
        kind="turn_resolved",
        dedupe_key=f"{event.pk}:email.allied:turn_resolved",
    )
    language_set(alice, "de")
    german = delivered(n)
    assert german.subject.startswith("[notify test] Zug ausgewertet (Ereignis ")
    assert "In „notify test“ wurde ein Zug ausgewertet (Partie " in german.body
    assert "Du spielst Allied army (allied)." in german.body
    assert "Du spielst <b>Allied army (allied)</b>." in html_of(german)
    assert "A turn was resolved" not in german.body

    language_set(alice, "")
    english = delivered_again(n)
    assert english.subject.startswith("[notify test] Turn resolved (event ")
    assert 'A turn was resolved in "notify test"' in english.body
    assert "You play Allied army (allied)." in english.body
    # the same event number in both
    assert german.subject.rsplit(" ", 1)[1] == english.subject.rsplit(" ", 1)[1]


@pytest.mark.django_db
def test_an_invitation_in_german_and_in_english(alice: User, bob: User) -> None:
    carol = User.objects.create_user("nf_carol", "nf_carol@example.com")
    language_set(bob, "de")  # carol chose nothing
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": bob, "french": carol},
        creator=alice,
        title="invited",
    )
    german = delivered(Notification.objects.get(user=bob, kind="invitation", channel="email"))
    english = delivered(Notification.objects.get(user=carol, kind="invitation", channel="email"))
    assert german.subject == "[invited] Du bist eingeladen, Allied army zu spielen"
    assert "nf_alice lädt dich ein, Allied army (allied) in „invited“ (Partie " in german.body
    assert "Bis du annimmst, wird nichts für dich gespielt." in german.body
    assert english.subject == "[invited] You are invited to play French army"
    assert 'nf_alice invites you to play French army (french) in "invited"' in english.body
    seats = f"http://localhost:8000/api/v1/games/{game.pk}/seats"
    assert f"  annehmen: POST {seats}/allied/accept\n" in german.body
    assert f"  ablehnen: POST {seats}/allied/decline" in german.body
    assert f"  accept:  POST {seats}/french/accept\n" in english.body
    assert f"<code>POST {seats}/allied/accept</code>" in html_of(german)


@pytest.fixture
def held_for_bob(game: Game, bob: User) -> list[Notification]:
    """bob in digest mode with a day of news held for him."""
    notification_pref_set(user=bob, mode=NotificationPref.Mode.DAILY_DIGEST)
    with time_machine.travel(DAY1, tick=False):
        play(game, 12, seed=3)
    rows = Notification.objects.filter(user=bob, status=Notification.Status.DIGEST)
    held = list(rows.select_related("event", "game", "user").order_by("created_at", "pk"))
    assert len(held) >= 2
    return held


@pytest.mark.django_db
def test_a_digest_in_german_is_read_back_by_game(
    game: Game, bob: User, held_for_bob: list[Notification]
) -> None:
    language_set(bob, "de")
    with time_machine.travel(DAY2 + timedelta(minutes=1), tick=False):
        assert digest_send() == 1
    (digest,) = mail.outbox
    assert isinstance(digest, EmailMultiAlternatives)
    assert digest.subject == "pbem: 1 Partie wartet auf dich"
    body = str(digest.body)
    assert body.startswith(f"Deine pbem-Zusammenfassung: {len(held_for_bob)} Benachrichtigungen")
    assert "aus 1 Partie (höchstens eine Mail alle 24 Stunden;" in body
    assert "Du bist am Zug als French army (french)" in body  # the items in German too
    assert "Antworte auf diese Mail mit Befehlen unter der Kopfzeile jeder Partie" in body
    address = digest.extra_headers["Reply-To"]
    assert f"Deine Antwort geht an {address}" in body
    assert "Antworte auf diese Mail" in html_of(digest)
    headers = [line for line in body.splitlines() if line.startswith("== game")]
    assert headers == [f"== game {game.pk} as french =="]
    # bob answers under the German digest's header line, the digest quoted below
    reply = EmailMessage()
    reply["From"] = bob.email
    reply["To"] = address
    reply["Subject"] = f"Re: {digest.subject}"
    quoted = "\n".join(f"> {line}" for line in body.splitlines())
    reply.set_content(f"{headers[0]}\nend turn\n\nAm Mo., 3. März 2026 schrieb pbem:\n{quoted}\n")
    got = sections(mail_read(reply.as_bytes(), bob.email).lines)
    assert [(s.game, s.role, [t for _, t in s.lines]) for s in got] == [
        (str(game.pk), "french", ["end turn"])
    ]


@pytest.mark.django_db
def test_the_digest_lines_a_program_reads_are_the_same_in_both_languages(
    game: Game, held_for_bob: list[Notification]
) -> None:
    parts = {}
    for language in ("en", "de"):
        with translation.override(language):
            parts[language] = render("digest", digest_context(held_for_bob, DAY2, 24))
    (en_subject, en, en_html), (de_subject, de, de_html) = parts["en"], parts["de"]
    assert (en_subject, de_subject) == (
        "pbem: 1 game waiting for you",
        "pbem: 1 Partie wartet auf dich",
    )
    assert en != de

    def read(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("== game", "----"))]

    assert read(en) == read(de) == [f"== game {game.pk} as french ==", "----"]
    by_reader = [[(s.game, s.role) for s in sections(order_lines(t)) if s.game] for t in (en, de)]
    assert by_reader[0] == by_reader[1] == [(str(game.pk), "french")]
    address = digest_context(held_for_bob, DAY2, 24)["reply_address"]
    for text in (en, de, en_html, de_html):
        assert address in text
    assert f"<pre>== game {game.pk} as french ==</pre>" in de_html
    assert "<code>== game</code>" in de_html


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_order_examples_and_the_order_line_stay_as_the_reader_reads_them(
    language: str,
) -> None:
    """The Napoleon's Triumph report shows orders in the form the server reads them (the
    commands, `ORDER <rank>: <text>` for a commander-in-chief): never translated."""
    context = {"reply_address": "play+s1.1.x@pbem.test", "written_order": {"cinc": True}}
    with translation.override(language):
        text = render_to_string("notify/napoleons_triumph/_report.txt", context)
        html = render_to_string("notify/napoleons_triumph/_report.html", context)
    lines = text.splitlines()
    for example in EXAMPLES:
        assert f"    {example}" in lines
    assert "    ORDER 2: Telnitz angreifen" in lines
    assert "<code>ORDER 2: Telnitz angreifen</code>" in html
    assert "<pre>move &lt;unit&gt; to &lt;place&gt;" in html
    assert ("Oberbefehlshaber" in text) is (language == "de")
    assert ("commander-in-chief" in text) is (language == "en")


# --- the move out of the web profile (pbem.web 0002) ---------------------------------------

BEFORE = [("web", "0001_initial"), ("notify", "0005_digest_hours")]
AFTER = [("web", "0002_profile_language_to_notify"), ("notify", "0006_notificationpref_language")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_each_chosen_language_and_back() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        OldUser = old.get_model("auth", "User")
        OldProfile = old.get_model("web", "Profile")
        OldPref = old.get_model("notify", "NotificationPref")
        german = OldUser.objects.create(username="mig_de")
        english = OldUser.objects.create(username="mig_en")
        browser = OldUser.objects.create(username="mig_browser")
        OldProfile.objects.create(user=german, language="de", time_zone="Europe/Berlin")
        OldProfile.objects.create(user=english, language="en")
        OldProfile.objects.create(user=browser, language="")
        OldPref.objects.create(user=english, mode="daily_digest", digest_hours=12)

        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        Pref = new.get_model("notify", "NotificationPref")
        Profile = new.get_model("web", "Profile")
        got = {p.user.username: (p.language, p.mode, p.digest_hours) for p in Pref.objects.all()}
        assert got == {
            "mig_de": ("de", "instant", 24),  # created with the defaults
            "mig_en": ("en", "daily_digest", 12),  # kept its email choices
        }  # no choice, no row
        assert "language" not in {f.name for f in Profile._meta.get_fields()}
        assert Profile.objects.get(user__username="mig_de").time_zone == "Europe/Berlin"
        Pref.objects.filter(user__username="mig_en").update(language="de")  # chosen since

        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        languages = dict(
            old.get_model("web", "Profile").objects.values_list("user__username", "language")
        )
        assert languages == {"mig_de": "de", "mig_en": "de", "mig_browser": ""}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
