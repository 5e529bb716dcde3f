"""Helpers for the orders-by-email tests: two players, an NT game played past its set-up, and
mails built as a mail client would send them."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from django.contrib.auth.models import User

from games.core.protocol import JSON, Action
from pbem.mailin.inbound import inbound_process
from pbem.mailin.models import InboundMessage
from pbem.mailin.store import inbound_store
from pbem.notify.reply_address import seat_address
from pbem.play.models import Event, Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import head_read
from tests.pbem.notify.nf_helpers import nt_game, play, user


def players() -> tuple[User, User]:
    return user("ml_alice"), user("ml_bob")


def game_in_turn(allied: User, french: User) -> Game:
    """A game whose set-up is done (random legal set-ups through the event log)."""
    game = nt_game(allied, french, title="mail test")
    for seed in range(1, 40):
        state = head_read(game)
        if getattr(state, "phase", "") == "turn":
            return game
        play(game, 1, seed=seed)
    raise AssertionError("the set-up did not end")


def prompted(game: Game) -> str:
    state = head_read(game)
    (role,) = sorted(ruleset_get(game.ruleset_id).prompts(state))
    return role


def other(role: str) -> str:
    return "french" if role == "allied" else "allied"


def address_of(game: Game, role: str) -> str:
    seat = Seat.objects.get(game=game, role=role)
    return seat_address(game_id=game.pk, role=role, seat_pk=seat.pk)


def legal(game: Game, role: str, kind: str, payload: JSON = None) -> bool:
    state = head_read(game)
    action = Action(role, kind, {} if payload is None else payload)
    return not list(ruleset_get(game.ruleset_id).validate(state, action))


def mail(
    *,
    frm: str,
    to: str,
    body: str | None,
    subject: str = "Re: Your turn",
    headers: dict[str, str] | None = None,
    html: str | None = None,
    message_id: str | None = None,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = frm
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain="client.example")
    for k, v in (headers or {}).items():
        msg[k] = v
    if body is not None:
        msg.set_content(body)
    if html is not None:
        if body is None:
            msg.set_content(html, subtype="html")
        else:
            msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


def deliver(raw: bytes, to: str, envelope_from: str = "") -> InboundMessage:
    """Store as the SMTP listener does, then run the task's service; the row as it ends."""
    row = inbound_store(raw, transport="smtp", envelope_from=envelope_from, envelope_to=[to])
    assert row is not None, "stored before"
    inbound_process(message_id=str(row.pk))
    row.refresh_from_db()
    return row


def events(game: Game) -> int:
    return Event.objects.filter(game=game).count()
