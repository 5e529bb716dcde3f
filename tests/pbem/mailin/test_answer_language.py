"""The answer to orders by email is written in the sender's language (pbem.mailin.replies): the
user the reply address belongs to, once the mail is known to come from them; English for anyone
else. The lines programs and mail clients read stay the same in every language: the `Re:` of the
subject, each game's `== game <id> as <role> ==` line, rule ids, event numbers, the quoted order
lines, the reply address and the `X-PBEM-Outcome` header.

The German catalog is written apart from the code: a German rendering is checked against
`translation.override("de")` + gettext of the template's msgids (true whether or not the catalog
has them yet), plus the sentences translated already; one test asserts literal German and runs
once the catalog translates the answer's msgids."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext, ngettext_lazy

from pbem.mailin import replies
from pbem.mailin.models import InboundMessage
from pbem.mailin.process import Outcome, Sentence, message_outcome
from pbem.mailin.reading import mail_read, sections
from pbem.mailin.store import inbound_store
from pbem.notify.content import view_url
from pbem.notify.language import language_set
from pbem.notify.reply_address import seat_address, user_address
from pbem.play.models import Game, Seat
from tests.pbem.mailin.ml_helpers import (
    address_of,
    deliver,
    game_in_turn,
    legal,
    mail,
    other,
    players,
    prompted,
)

pytestmark = pytest.mark.django_db

NOT_TRIED = "not tried: an earlier line was refused"
WAITING_YOU = "Waiting for: %(roles)s (that is you)"  # translated already (notify's details)
SEE_GAME = "See the game: %(url)s"  # translated already


def de(msgid: str) -> str:
    """`msgid` as the German catalog has it (the msgid itself while it is not translated)."""
    with translation.override("de"):
        return gettext(msgid)


def _translated(msgid: str) -> bool:
    try:
        return de(msgid) != msgid
    except Exception:  # no translations loaded at all: not translated
        return False


# the catalog translates the answer's own sentences (run `./dev messages` and translate them)
translated = _translated(NOT_TRIED) and _translated("refused")


@pytest.fixture
def game() -> Game:
    alice, bob = players()
    g = game_in_turn(alice, bob)
    django_mail.outbox.clear()
    return g


@pytest.fixture
def languages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """(template, language active while it was rendered) for every template the answer
    renders: what the answer was written in, whether or not the catalog translates it yet."""
    seen: list[tuple[str, str]] = []

    def spy(name: str, context: dict[str, Any]) -> str:
        seen.append((name, translation.get_language()))
        return render_to_string(name, context)

    monkeypatch.setattr("pbem.mailin.replies.render_to_string", spy)
    return seen


def _player(game: Game, role: str) -> User:
    seat = Seat.objects.select_related("user").get(game=game, role=role)
    assert seat.user is not None
    return seat.user


@dataclass
class Answer:
    subject: str
    text: str
    html: str
    headers: dict[str, str]


def _sent() -> Answer:
    assert len(django_mail.outbox) == 1, [m.subject for m in django_mail.outbox]
    out = django_mail.outbox.pop()
    assert isinstance(out, EmailMultiAlternatives)
    (html, _kind), *_ = out.alternatives
    return Answer(str(out.subject), str(out.body), str(html), dict(out.extra_headers))


def _three_lines(game: Game) -> tuple[InboundMessage, Any, Outcome, User, str]:
    """`end turn` three times from the prompted player: applied, refused (out of turn), not
    tried. Decided once; the answer can then be written for it in any language."""
    role = prompted(game)
    assert legal(game, role, "end_turn")
    player = _player(game, role)
    to = address_of(game, role)
    raw = mail(frm=player.email, to=to, body="end turn\nend turn\nend turn\n", subject="Your turn")
    row = inbound_store(raw, transport="smtp", envelope_from="", envelope_to=[to])
    assert row is not None
    read = mail_read(bytes(row.raw), row.envelope_from)
    outcome = message_outcome(row, read)
    assert [o.status for o in outcome.seats[0].lines] == ["applied", "refused", "not_tried"]
    return row, read, outcome, player, role


def _answer_in(language: str, game: Game) -> tuple[Answer, Outcome, str]:
    row, read, outcome, player, role = _three_lines(game)
    language_set(player, language)
    assert replies.answer_send(row, read, outcome)
    return _sent(), outcome, role


def _machine_lines(answer: Answer, game: Game) -> list[str]:
    """What a program reads in an answer: the subject's `Re:`, the headers, the `== game ==`
    lines (as pbem.mailin.reading reads them), and per order line the quoted text, its event
    numbers and rule ids."""
    numbered = list(enumerate(answer.text.splitlines(), 1))
    markers = [f"{s.game} {s.role}" for s in sections(numbered) if s.game is not None]
    quoted = [line.split(": ", 1)[1] for line in answer.text.splitlines() if ": end turn" in line]
    numbers = re.findall(
        r"\d+", " ".join(line for line in answer.text.splitlines() if "->" in line)
    )
    # a refusal's line "     <rule>: <message>" (not a report's continuation lines, which the
    # language changes: they are indented further and name no rule)
    rules = [m.group(1) for m in re.finditer(r"(?m)^ {5}(\S+): ", answer.text)]
    keep = ("Reply-To", "Auto-Submitted", "X-PBEM-Outcome", "In-Reply-To", "References")
    return [
        answer.subject.split(" [")[0],
        *(f"{k}: {answer.headers.get(k)}" for k in keep),
        *markers,
        *quoted,
        *numbers,
        *rules,
        str(f"<pre>== game {game.pk} as " in answer.html),
    ]


def test_an_answer_to_a_german_player_is_written_in_german(
    game: Game, languages: list[tuple[str, str]]
) -> None:
    answer, outcome, _role = _answer_in("de", game)
    assert languages == [
        ("mailin/answer-subject.txt", "de"),
        ("mailin/answer-body.txt", "de"),
        ("mailin/answer-body.html", "de"),
    ]
    part = outcome.seats[0]
    event = part.lines[0].events[0]
    with translation.override("de"):
        applied = ngettext("applied (event %(events)s)", "applied (events %(events)s)", 1) % {
            "events": event
        }
        assert f"[{gettext('refused')}]" in answer.subject
        assert (
            gettext("line %(line)s") % {"line": 3} + ": end turn\n  -> " + gettext(NOT_TRIED)
            in answer.text
        )
        assert f"  -> {applied}\n" in answer.text
        assert gettext("REFUSED") in answer.text
        # sentences the catalog translates already: the mail is German, not English
        url = view_url(game.pk)
        assert gettext(SEE_GAME) % {"url": url} in answer.text
        assert gettext(SEE_GAME) != SEE_GAME
    assert SEE_GAME % {"url": url} not in answer.text
    assert "Waiting for:" not in answer.text
    assert answer.headers["X-PBEM-Outcome"] == "refused"


def test_an_answer_to_an_english_player_is_written_in_english(
    game: Game, languages: list[tuple[str, str]]
) -> None:
    answer, outcome, _role = _answer_in("en", game)
    assert {language for _name, language in languages} == {"en"}
    event = outcome.seats[0].lines[0].events[0]
    assert answer.subject == "Re: Your turn [refused]"
    assert f"line 1: end turn\n  -> applied (event {event})\n" in answer.text
    assert f"line 3: end turn\n  -> {NOT_TRIED}" in answer.text
    assert "REFUSED" in answer.text
    assert SEE_GAME % {"url": view_url(game.pk)} in answer.text
    assert "Waiting for: " in answer.text
    assert "<strong>refused</strong>" in answer.html


def test_a_player_with_no_language_is_answered_in_english(
    game: Game, languages: list[tuple[str, str]]
) -> None:
    answer, _outcome, _role = _answer_in("", game)
    assert {language for _name, language in languages} == {"en"}
    assert "Waiting for: " in answer.text


def test_the_lines_programs_read_are_the_same_in_every_language(game: Game) -> None:
    row, read, outcome, player, role = _three_lines(game)
    written = {}
    for language in ("en", "de"):
        language_set(player, language)
        assert replies.answer_send(row, read, outcome)
        written[language] = _sent()
    english, german = written["en"], written["de"]
    assert english.text != german.text  # two languages indeed
    machine = _machine_lines(english, game)
    assert machine == _machine_lines(german, game)
    part = outcome.seats[0]
    refused = part.lines[1].errors[0]["rule"]
    assert machine[0] == "Re: Your turn"
    assert f"{game.pk} {role}" in machine  # the section line, read back by `sections`
    assert machine.count("end turn") == 3
    assert str(part.lines[0].events[0]) in machine
    assert refused in machine
    assert "X-PBEM-Outcome: refused" in machine
    seat = Seat.objects.get(game=game, role=role)
    assert f"Reply-To: {seat_address(game_id=game.pk, role=role, seat_pk=seat.pk)}" in machine
    for answer in (english, german):
        lines = answer.text.splitlines()
        assert f"== game {game.pk} as {role} ==" in lines
        assert f"     {refused}: " in answer.text
        assert f"<code>{refused}</code>" in answer.html


def test_the_digest_reply_is_answered_in_german_with_the_same_header_lines(
    languages: list[tuple[str, str]],
) -> None:
    alice, bob = players()
    one, two = game_in_turn(alice, bob), game_in_turn(alice, bob)
    role = prompted(one)
    holder = _player(one, role)
    assert _player(two, prompted(two)) == holder
    language_set(holder, "de")
    django_mail.outbox.clear()
    to = user_address(user_pk=holder.pk)
    body = f"== game {one.pk} as {role} ==\nend turn\n\n== game {two.pk} as {role} ==\nend turn\n"
    row = deliver(mail(frm=holder.email, to=to, body=body), to)
    assert row.status == InboundMessage.Status.APPLIED, row.outcome
    answer = _sent()
    assert {language for _name, language in languages} == {"de"}
    numbered = list(enumerate(answer.text.splitlines(), 1))
    got = [(s.game, s.role) for s in sections(numbered) if s.game is not None]
    assert got == [(str(one.pk), role), (str(two.pk), role)]
    assert answer.headers["Reply-To"] == to
    with translation.override("de"):
        assert f"[{gettext('applied')}]" in answer.subject


def test_a_refusal_of_a_known_sender_gives_the_reason_in_their_language(
    game: Game, languages: list[tuple[str, str]]
) -> None:
    role = prompted(game)
    player = _player(game, role)
    language_set(player, "de")
    to = address_of(game, role)
    row = deliver(mail(frm=player.email, to=to, body="# only a comment\n"), to)
    assert row.outcome["code"] == "empty"
    assert row.outcome["reason"] == "the mail holds no order lines"  # recorded in English
    answer = _sent()
    assert {language for _name, language in languages} == {"de"}
    with translation.override("de"):
        reason = gettext("the mail holds no order lines")
        sentence = gettext("Your mail was not applied: %(reason)s (%(code)s).")
        assert sentence % {"reason": reason, "code": "empty"} in answer.text
        assert gettext("Nothing in any game changed.") in answer.text
        assert f"[{gettext('not applied')}]" in answer.subject
    assert answer.headers["X-PBEM-Outcome"] == "not_applied"


@pytest.mark.parametrize("case", ["unknown_address", "wrong_sender"])
def test_a_mail_from_no_known_user_is_answered_in_english(
    game: Game, languages: list[tuple[str, str]], case: str
) -> None:
    """Even from the address of a German player, and to the reply address of one: an answer to
    someone not known to be the address's player tells nothing about either."""
    role = prompted(game)
    player, opponent = _player(game, role), _player(game, other(role))
    language_set(player, "de")
    language_set(opponent, "de")
    if case == "unknown_address":
        to, frm = "play@elsewhere.example", player.email
    else:  # the opponent writes to the player's seat address
        to, frm = address_of(game, role), opponent.email
    row = deliver(mail(frm=frm, to=to, body="end turn"), to)
    assert row.outcome["code"] == case
    answer = _sent()
    assert {language for _name, language in languages} == {"en"}
    assert f"Your mail was not applied: {row.outcome['reason']} ({case})." in answer.text
    assert "Nothing in any game changed." in answer.text
    assert answer.subject.endswith("[not applied]")


def test_a_sentence_is_recorded_in_english_and_shown_in_the_active_language() -> None:
    """process.Sentence, with msgids the catalog translates already."""
    one = Sentence(gettext_lazy(WAITING_YOU), {"roles": "Kutuzov"})
    assert str(one) == "Waiting for: Kutuzov (that is you)"
    with translation.override("de"):
        assert str(one) == "Waiting for: Kutuzov (that is you)"  # the record: English always
        assert one.text() == gettext(WAITING_YOU) % {"roles": "Kutuzov"}
        assert one.text() != str(one)
    single = "Time per turn: %(hours)s hour; at a missed deadline: %(policy)s."
    plural = "Time per turn: %(hours)s hours; at a missed deadline: %(policy)s."
    for hours in (1, 2):
        said = Sentence(ngettext_lazy(single, plural, "hours"), {"hours": hours, "policy": "x"})
        assert str(said) == (single if hours == 1 else plural) % {"hours": hours, "policy": "x"}
        with translation.override("de"):
            assert said.text() == ngettext(single, plural, hours) % {"hours": hours, "policy": "x"}
            assert said.text() != str(said)


@pytest.mark.skipif(not translated, reason="the German catalog does not translate the answer yet")
def test_the_german_answer_reads_german_once_the_catalog_has_it(game: Game) -> None:
    answer, _outcome, _role = _answer_in("de", game)
    assert "[abgelehnt]" in answer.subject
    assert "nicht versucht" in answer.text
    assert "ABGELEHNT" in answer.text
    assert "not tried" not in answer.text
