"""A whole Napoleon's Triumph game played by email alone (issue 14 item 5): real SMTP in and out.

The server's parts run as in production: `manage.py pbem_smtpd` takes the players' mail, a Celery
worker (its mail going to a local SMTP sink) reads and applies it and sends the turn reports and
the answers; PostgreSQL and Redis behind them. The players only read the sink and write to the
listener (email_player.py). Figures are printed for the CI log."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from games.core.rng import Rng
from pbem.mailin.models import InboundMessage
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.services.games import game_create
from tests.integration.conftest import Worker
from tests.integration.email_player import MailPlayers, text_of
from tests.integration.it_helpers import SMALL, assert_log_sound, report, users
from tests.integration.mail_fixtures import SmtpSink, SunkMessage, mail_send_raw

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

MAX_ORDERS = 1500


def _game(players: list[Any]) -> Game:
    allied, french = players
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options=SMALL,
        seats={"allied": allied, "french": french},
        creator=allied,
        title="by email",
        accepted=True,
    )


def _two_players(
    prefix: str, sink: SmtpSink, smtpd: tuple[str, int], seed: int
) -> tuple[Game, MailPlayers]:
    """A new two-player game and its players, who know only their mailboxes."""
    allied, french = users(prefix, 2)
    game = _game([allied, french])
    emails = {"allied": allied.email, "french": french.email}
    return game, MailPlayers(str(game.pk), emails, sink, smtpd, Rng(seed))


def test_a_whole_game_by_email(
    mail_worker: Worker,
    smtp_sink: SmtpSink,
    smtpd_process: tuple[str, int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    game, players = _two_players("mailer", smtp_sink, smtpd_process, seed=20261126)
    players.wait_for_news()  # the first turn report
    while players.sent < MAX_ORDERS:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        if not players.step():
            players.wait_for_news()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"not over after {players.sent} orders by mail"
    for address in players.emails.values():  # both are told how it ended
        smtp_sink.wait_for(_game_over_to(address), timeout=120)
    # every order came by mail, and each was applied once
    intakes = OrderIntake.objects.filter(game=game)
    assert intakes.exclude(source="email").count() == 0
    by_mail = Event.objects.filter(game=game, source="email").count()
    assert intakes.filter(status="applied").count() == by_mail >= players.sent
    applied = InboundMessage.objects.filter(status="applied").count()
    assert applied == players.sent
    events = assert_log_sound(str(game.pk))
    report(
        capsys,
        f"email game: {players.sent} orders by mail, {events} events, {len(smtp_sink)} mails"
        f" sent by the server, {time.monotonic() - started:.1f} s",
    )


def _game_over_to(address: str) -> Callable[[SunkMessage], bool]:
    def told(m: SunkMessage) -> bool:
        return address in m.envelope_to and ".game_over@" in str(m["Message-ID"])

    return told


def test_bad_mail_over_smtp_is_answered_and_changes_nothing(
    mail_worker: Worker,
    smtp_sink: SmtpSink,
    smtpd_process: tuple[str, int],
) -> None:
    """Forged and replayed mail over the real listener: answered with the reason, nothing
    applied; the replay is stored once."""
    game, players = _two_players("badmail", smtp_sink, smtpd_process, seed=7)
    players.wait_for_news()
    (role, report_mail) = next(iter(players.pending.items()))
    other = "french" if role == "allied" else "allied"
    # the right address from the wrong mailbox
    before = Event.objects.filter(game=game).count()
    players.emails[role], real = players.emails[other], players.emails[role]
    answer = players.write(role, report_mail, "end turn")
    players.emails[role] = real
    assert "[not applied]" in str(answer["Subject"])
    assert "wrong_sender" in text_of(answer)
    assert Event.objects.filter(game=game).count() == before
    # a message sent twice with the same Message-ID (a retry): stored once
    raw = (
        f"From: {real}\r\nTo: {report_mail['Reply-To']}\r\nSubject: x\r\n"
        f"Message-ID: <twice@players.example>\r\n\r\nfly to the moon\r\n"
    ).encode()
    rcpt = str(report_mail["Reply-To"])
    mail_send_raw(*smtpd_process, raw, real, rcpt)
    mail_send_raw(*smtpd_process, raw, real, rcpt)
    smtp_sink.wait_for(lambda m: "twice@players.example" in str(m["In-Reply-To"]), timeout=120)
    assert InboundMessage.objects.filter(message_id="twice@players.example").count() == 1
    assert Event.objects.filter(game=game).count() == before
