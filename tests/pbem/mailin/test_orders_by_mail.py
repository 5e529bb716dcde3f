"""Orders by email, end to end in one process (issue 14 items 2 and 4): a mail stored as the SMTP
listener stores it, read by the task's service, its orders through the API's order path, and the
answer. Every bad mail changes nothing: the event count stays, and the answer names why."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail
from pytest_django.fixtures import Settings

from pbem.mailin.models import InboundMessage
from pbem.mailin.store import MailTooLarge, inbound_store
from pbem.notify.reply_address import address_read, seat_address
from pbem.play.models import Game, OrderIntake, Seat
from tests.pbem.mailin.ml_helpers import (
    address_of,
    deliver,
    events,
    game_in_turn,
    legal,
    mail,
    other,
    players,
    prompted,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    alice, bob = players()
    g = game_in_turn(alice, bob)
    django_mail.outbox.clear()
    return g


def _player(game: Game, role: str) -> User:
    seat = Seat.objects.select_related("user").get(game=game, role=role)
    assert seat.user is not None
    return seat.user


def _answer() -> EmailMessage:
    assert len(django_mail.outbox) == 1, [m.subject for m in django_mail.outbox]
    out = django_mail.outbox[0]
    msg = EmailMessage()
    for k, v in out.extra_headers.items():
        msg[k] = v
    msg["Subject"] = out.subject
    msg["To"] = ", ".join(out.to)
    msg.set_content(out.body)
    return msg


def test_an_order_by_mail_is_applied_through_the_order_path(game: Game) -> None:
    role = prompted(game)
    assert legal(game, role, "end_turn")
    player = _player(game, role)
    to = address_of(game, role)
    before = events(game)
    raw = mail(frm=f"Player <{player.email}>", to=to, body="end turn\n\n-- \nMarshal\n")
    row = deliver(raw, to)
    assert row.status == InboundMessage.Status.APPLIED, row.outcome
    assert events(game) > before
    intake = OrderIntake.objects.get(game=game, idempotency_key__startswith=f"mail:{row.pk}:")
    assert (intake.source, intake.kind, intake.status) == ("email", "end_turn", "applied")
    answer = _answer()
    assert answer["To"] == player.email
    assert "[applied]" in answer["Subject"]
    assert answer["Auto-Submitted"] == "auto-replied"
    assert answer["In-Reply-To"].strip("<>") == row.message_id
    assert address_read(answer["Reply-To"]).pk == Seat.objects.get(game=game, role=role).pk
    assert "line 1: end turn" in answer.get_content()
    seq = intake.event.seq if intake.event is not None else 0
    assert f"  -> applied (event {seq})\n" in answer.get_content()  # no hidden events here


def test_the_same_message_twice_is_stored_and_applied_once(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    raw = mail(frm=player.email, to=to, body="end turn")
    row = deliver(raw, to)
    after = events(game)
    assert inbound_store(raw, transport="esp", envelope_from="", envelope_to=[to]) is None
    from pbem.mailin.inbound import inbound_process

    assert inbound_process(message_id=str(row.pk)) == InboundMessage.Status.APPLIED
    assert events(game) == after
    assert InboundMessage.objects.count() == 1
    assert OrderIntake.objects.filter(game=game, source="email").count() == 1


def _refused(game: Game, raw: bytes, to: str, code: str) -> InboundMessage:
    before = events(game)
    intakes = OrderIntake.objects.filter(game=game).count()
    row = deliver(raw, to)
    assert row.status == InboundMessage.Status.REJECTED, row.outcome
    assert row.outcome["code"] == code, row.outcome
    assert events(game) == before
    assert OrderIntake.objects.filter(game=game).count() == intakes
    answer = _answer()
    assert "[not applied]" in answer["Subject"]
    assert f"({code})" in answer.get_content()
    assert "Nothing in any game changed" in answer.get_content()
    return row


def test_bad_addresses_and_senders_change_nothing(game: Game, settings: Settings) -> None:
    role = prompted(game)
    player = _player(game, role)
    good = address_of(game, role)
    cases = 0
    # 1. an address that is not a reply address of ours
    _refused(game, mail(frm=player.email, to="play@elsewhere.example", body="end turn"),
             "play@elsewhere.example", "unknown_address")  # fmt: skip
    django_mail.outbox.clear()
    cases += 1
    # 2. a forged mac
    local, domain = good.split("@")
    forged = f"{local[:-4]}aaaa@{domain}"
    _refused(game, mail(frm=player.email, to=forged, body="end turn"), forged, "forged_address")
    django_mail.outbox.clear()
    cases += 1
    # 3. the other seat's pk under this seat's mac
    seat = Seat.objects.get(game=game, role=other(role))
    token = local.split("+", 1)[1].split(".")
    swapped = f"play+s{seat.pk}.{token[1]}.{token[2]}@{domain}"
    _refused(game, mail(frm=player.email, to=swapped, body="end turn"), swapped, "forged_address")
    django_mail.outbox.clear()
    cases += 1
    # 4. the right address from the other player's mailbox
    intruder = _player(game, other(role))
    _refused(game, mail(frm=intruder.email, to=good, body="end turn"), good, "wrong_sender")
    django_mail.outbox.clear()
    cases += 1
    # 5. an account whose address was never verified (inactive)
    User.objects.filter(pk=player.pk).update(is_active=False)
    _refused(game, mail(frm=player.email, to=good, body="end turn"), good, "wrong_sender")
    User.objects.filter(pk=player.pk).update(is_active=True)
    django_mail.outbox.clear()
    cases += 1
    # 6. an address signed with a key since retired
    settings.PBEM = {**settings.PBEM, "REPLY_KEY_VERSION": 2, "REPLY_KEY_OLDEST": 2}
    _refused(game, mail(frm=player.email, to=good, body="end turn"), good, "expired_address")
    django_mail.outbox.clear()
    cases += 1
    assert cases == 6


def test_bad_bodies_change_nothing(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    # 7. empty body; 8. only quoted text of the report; 9. an attachment only
    _refused(game, mail(frm=player.email, to=to, body="\n\n"), to, "empty")
    django_mail.outbox.clear()
    quoted = "On Mon, 1 Dec 2026, pbem wrote:\n> end turn\n> move F05 to Telnitz\n"
    _refused(game, mail(frm=player.email, to=to, body=quoted), to, "empty")
    django_mail.outbox.clear()
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = player.email, to, "orders"
    msg["Message-ID"] = "<att-only@client.example>"
    msg.add_attachment(b"end turn\n", maintype="application", subtype="octet-stream",
                       filename="orders.txt")  # fmt: skip
    _refused(game, msg.as_bytes(), to, "attachments_only")
    django_mail.outbox.clear()
    # 10. more order lines than a message may carry
    _refused(game, mail(frm=player.email, to=to, body="end turn\n" * 201), to, "too_long")
    django_mail.outbox.clear()


def _line_refused(game: Game, raw: bytes, to: str, rule: str) -> InboundMessage:
    before = events(game)
    row = deliver(raw, to)
    assert row.status == InboundMessage.Status.REJECTED, row.outcome
    (seat,) = row.outcome["seats"]
    refused = [o for o in seat["lines"] if o["status"] == "refused"]
    assert refused, seat
    assert refused[0]["errors"][0]["rule"] == rule, refused
    assert events(game) == before
    text = _answer().get_content()
    assert f"line {refused[0]['line']}:" in text
    assert f"{rule}:" in text
    return row


def test_garbage_and_out_of_turn_are_refused_with_rule_and_line(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    # 11. garbage text: the engine's form error NT-0, naming the mail's own line number
    row = _line_refused(
        game, mail(frm=player.email, to=to, body="# my orders\n\nfly to the moon\n"), to, "NT-0"
    )
    assert row.outcome["seats"][0]["lines"][-1]["line"] == 3
    django_mail.outbox.clear()
    # 12. orders out of turn: the other seat's player, from their own address
    waiting = other(role)
    _line_refused(
        game,
        mail(frm=_player(game, waiting).email, to=address_of(game, waiting), body="end turn"),
        address_of(game, waiting),
        _out_of_turn_rule(game, waiting),
    )


def _out_of_turn_rule(game: Game, role: str) -> str:
    """The rule id the order path names for an order of a seat that is not prompted."""
    from games.core.protocol import Action
    from pbem.play.rulesets import ruleset_get
    from pbem.play.services.log import head_read

    state = head_read(game)
    (first, *_) = ruleset_get(game.ruleset_id).validate(state, Action(role, "end_turn", {}))
    return first.rule


def test_automatic_mail_is_never_answered(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    before = events(game)
    for headers in (
        {"Auto-Submitted": "auto-replied"},  # 13. an out-of-office reply
        {"Precedence": "bulk"},  # 14. a list or bulk mail
        {"X-Autoreply": "yes"},  # 15.
    ):
        row = deliver(mail(frm=player.email, to=to, body="end turn", headers=headers), to)
        assert row.status == InboundMessage.Status.IGNORED, headers
        assert not row.reply_sent
    # 16. a bounce from the mailer daemon (empty envelope sender)
    row = deliver(mail(frm="MAILER-DAEMON@mx.example", to=to, body="end turn"), to, "<>")
    assert row.status == InboundMessage.Status.IGNORED
    assert events(game) == before
    assert django_mail.outbox == []


def test_html_only_and_quoted_printable_mail_is_read(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    html = "<html><body><p>end turn</p><blockquote>&gt; old report</blockquote></body></html>"
    row = deliver(mail(frm=player.email, to=to, body=None, html=html), to)  # 17. HTML only
    assert row.status == InboundMessage.Status.APPLIED, row.outcome


def test_a_paused_or_finished_game_takes_no_orders(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)  # 18.
    before = events(game)
    row = deliver(mail(frm=player.email, to=to, body="end turn"), to)
    assert row.status == InboundMessage.Status.REJECTED
    assert events(game) == before


def test_a_too_large_mail_is_not_stored(settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "MAX_MAIL_BYTES": 1000}  # 19.
    with pytest.raises(MailTooLarge):
        inbound_store(b"x" * 1001, transport="smtp", envelope_from="", envelope_to=["a@b"])
    assert InboundMessage.objects.count() == 0


def test_the_turn_report_carries_the_seat_reply_address(game: Game) -> None:
    """The next your-turn mail is the report a player answers: Reply-To is their seat's address."""
    from pbem.notify.models import Notification
    from pbem.notify.services import notification_deliver

    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    assert deliver(mail(frm=player.email, to=to, body="end turn"), to).status == "applied"
    rows = Notification.objects.filter(game=game, kind="your_turn", channel="email").order_by("pk")
    assert rows, "no your-turn mail planned"
    n = rows.last()
    assert n is not None
    django_mail.outbox.clear()
    notification_deliver(notification_id=n.pk)
    (sent,) = django_mail.outbox
    seat = Seat.objects.get(game=game, role=n.role)
    assert sent.extra_headers["Reply-To"] == seat_address(
        game_id=game.pk, role=n.role, seat_pk=seat.pk
    )
    assert "Orders by email: reply to this mail" in sent.body
    assert "Your position (as your seat sees it)" in sent.body


def test_a_form_error_anywhere_refuses_the_mail_before_any_order(game: Game) -> None:
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    before = events(game)
    row = deliver(mail(frm=player.email, to=to, body="end turn\nfly to the moon\n"), to)
    assert row.status == InboundMessage.Status.REJECTED
    lines = row.outcome["seats"][0]["lines"]
    assert [(o["line"], o["status"]) for o in lines] == [(1, "not_tried"), (2, "refused")]
    assert events(game) == before


def test_the_first_refused_order_stops_the_rest(game: Game) -> None:
    """Orders apply one by one at the head each leaves: `end turn` twice applies the first, and
    the second is refused as out of turn (nothing after it is tried)."""
    role = prompted(game)
    player = _player(game, role)
    to = address_of(game, role)
    before = events(game)
    row = deliver(mail(frm=player.email, to=to, body="end turn\nend turn\nend turn\n"), to)
    assert row.status == InboundMessage.Status.REJECTED
    lines = row.outcome["seats"][0]["lines"]
    assert [o["status"] for o in lines] == ["applied", "refused", "not_tried"]
    assert lines[1]["errors"][0]["rule"] == _out_of_turn_rule(game, role)
    assert events(game) > before
    text = _answer().get_content()
    assert "line 3: end turn\n  -> not tried: an earlier line was refused" in text


def test_a_stranger_gets_few_answers_an_hour(game: Game) -> None:
    """Forged mail is refused every time, but answered at most 5 times an hour per sender: the
    server is no reflector for mail with a forged From address."""
    from pbem.mailin.inbound import STRANGER_ANSWERS

    to = "play+s999999.1.aaaaaaaaaaaaaaaaaaaa@localhost"
    rows = [
        deliver(mail(frm="victim@example.net", to=to, body="end turn"), to)
        for _ in range(STRANGER_ANSWERS + 3)
    ]
    assert all(r.status == InboundMessage.Status.REJECTED for r in rows)
    assert [r.reply_sent for r in rows] == [True] * STRANGER_ANSWERS + [False] * 3
    assert len(django_mail.outbox) == STRANGER_ANSWERS
    # a player's own mail is still answered
    role = prompted(game)
    player = _player(game, role)
    own_address = address_of(game, role)
    own = deliver(mail(frm=player.email, to=own_address, body="end turn"), own_address)
    assert own.status == InboundMessage.Status.APPLIED
    assert own.reply_sent
