"""Reading inbound mail (no database): the order lines of real-looking replies from common mail
clients, the mails that must never be answered, and bytes that are not mail at all."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mailin.reading import (
    MAX_ORDER_LINES,
    Mail,
    Section,
    html_text,
    mail_read,
    order_lines,
    sections,
)

GAME_A = "3f2c1a9e-8d7b-4c6a-9e5f-0a1b2c3d4e5f"
GAME_B = "00000000-0000-4000-8000-0000000000b2"
REPORT = """Austerlitz, turn 3 (Allied)
Your blocks: Kutuzov at Pratzen, Bagration at Holubice.
Deadline: 2025-12-02 08:00 UTC
--\x20
pbem turn server"""


def _mail(body: str = "", **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "Alice Allied <Alice@Example.COM>")
    msg["To"] = "play+s12.1.abcdefghijklmnopqrst@turns.example.org"
    msg["Subject"] = headers.pop("Subject", "Re: Austerlitz: your turn")
    msg["Date"] = format_datetime(datetime(2025, 12, 1, 10, 0, tzinfo=UTC))
    if "Message-ID" not in headers:
        msg["Message-ID"] = "<CAF=reply.1@mail.gmail.com>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    if body:
        msg.set_content(body)
    return msg


def _read(msg: EmailMessage, envelope_from: str = "") -> Mail:
    return mail_read(msg.as_bytes(), envelope_from)


def _texts(mail: Mail) -> list[str]:
    return [text for _, text in mail.lines]


def test_a_gmail_reply_keeps_the_orders_above_the_quoted_report() -> None:
    quoted = "\n".join(f"> {line}" for line in REPORT.splitlines())
    body = (
        "Kutuzov to Pratzen.\n"
        "\n"
        "# my plan: hold the heights\n"
        "Bagration attacks Holubice;\n"
        "\n"
        "On Mon, Dec 1, 2025 at 9:12 AM pbem <play+s12.1.abcdefghijklmnopqrst@turns.example.org>\n"
        "wrote:\n"
        "\n"
        f"{quoted}\n"
    )
    mail = _read(_mail(body, In_Reply_To="<game.3.AL.turn@turns.example.org>"))
    assert mail.lines == ((1, "Kutuzov to Pratzen."), (4, "Bagration attacks Holubice;"))
    assert mail.from_addr == "alice@example.com"
    assert mail.message_id == "CAF=reply.1@mail.gmail.com"
    assert mail.in_reply_to == "game.3.AL.turn@turns.example.org"
    assert mail.subject == "Re: Austerlitz: your turn"
    assert mail.automatic == ""
    assert not mail.attachments_only
    assert mail.problems == ()


def test_an_attribution_without_quoted_lines_below_still_ends_the_orders() -> None:
    body = "Kutuzov to Pratzen\nOn 01/12/2025 09:12, pbem wrote:\nKutuzov holds\n"
    assert order_lines(body) == [(1, "Kutuzov to Pratzen")]


def test_a_reply_written_below_the_quote_is_read() -> None:
    body = (
        "On 01/12/2025 09:12, pbem wrote:\n"
        "> Your blocks: Kutuzov at Pratzen\n"
        ">\n"
        "\n"
        "Kutuzov to Pratzen\n"
        "-- \n"
        "Alice\n"
    )
    assert order_lines(body) == [(5, "Kutuzov to Pratzen")]


def test_outlook_original_message_and_its_quote_header_end_the_orders() -> None:
    classic = (
        "Kutuzov to Pratzen\r\n\r\n-----Original Message-----\r\nFrom: pbem\r\nKutuzov holds\r\n"
    )
    assert order_lines(classic) == [(1, "Kutuzov to Pratzen")]
    modern = (
        "Kutuzov to Pratzen\n\n"
        "________________________________\n"
        "From: pbem <play+s12.1.abcdefghijklmnopqrst@turns.example.org>\n"
        "Sent: Monday, December 1, 2025 09:12\n"
        "Subject: Austerlitz: your turn\n\n"
        "Kutuzov holds\n"
    )
    assert order_lines(modern) == [(1, "Kutuzov to Pratzen")]
    no_rule = "Kutuzov to Pratzen\nFrom: pbem\nSent: Monday\nKutuzov holds\n"
    assert order_lines(no_rule) == [(1, "Kutuzov to Pratzen")]


def test_a_german_thunderbird_reply() -> None:
    body = (
        "Kutuzov nach Pratzen\n"
        "\n"
        "Am 01.12.25 um 09:12 schrieb pbem:\n"
        "> Austerlitz, turn 3 (Allied)\n"
        "> Kutuzov at Pratzen\n"
    )
    mail = _read(_mail(body))
    assert _texts(mail) == ["Kutuzov nach Pratzen"]
    gmail_de = (
        "Bagration hält\nAm Mo., 1. Dez. 2025 um 09:12 Uhr schrieb pbem <x@y.org>:\nHolubice\n"
    )
    assert order_lines(gmail_de) == [(1, "Bagration hält")]
    french = (
        "Kutuzov à Pratzen\nLe lun. 1 déc. 2025 à 09:12, pbem <x@y.org> a écrit\xa0:\nPratzen\n"
    )
    assert order_lines(french) == [(1, "Kutuzov à Pratzen")]


def test_an_html_only_mail_is_read_as_text_without_its_quote() -> None:
    html = (
        "<html><head><style>p { color: red; }</style><title>Re</title></head><body>"
        '<div dir="ltr">Kutuzov to&nbsp;Pratzen<br>Bagration\n   attacks Holubice</div>'
        "<div><br></div><p>Liechtenstein&#x20;holds</p>"
        "<script>alert('x')</script>"
        '<div class="gmail_quote"><div class="gmail_attr">On Mon, Dec 1, 2025 pbem wrote:<br></div>'
        '<blockquote class="gmail_quote"><div>Your blocks: <b>Kutuzov</b> at Pratzen</div>'
        "<blockquote>older quote</blockquote>still quoted</blockquote></div>"
        "<p>-- <br>Alice</p></body></html>"
    )
    msg = _mail()
    msg.set_content(html, subtype="html")
    mail = _read(msg)
    assert _texts(mail) == [
        "Kutuzov to Pratzen",
        "Bagration attacks Holubice",
        "Liechtenstein holds",
    ]
    assert "color" not in mail.body
    assert "alert" not in mail.body
    assert "quoted" not in mail.body


def test_html_pre_keeps_its_lines() -> None:
    assert html_text("<pre>Kutuzov to Pratzen\nBagration holds</pre>") == (
        "Kutuzov to Pratzen\nBagration holds"
    )
    assert html_text("<p>unclosed <b>tags <blockquote>q") == "unclosed tags"


def test_the_plain_part_of_an_alternative_wins_over_the_html_part() -> None:
    msg = _mail("Kutuzov to Pratzen\n")
    msg.add_alternative("<p>Something else</p>", subtype="html")
    assert _texts(_read(msg)) == ["Kutuzov to Pratzen"]
    empty_plain = _mail(" \n")
    empty_plain.add_alternative("<p>Kutuzov holds</p>", subtype="html")
    assert _texts(_read(empty_plain)) == ["Kutuzov holds"]


RAW_QP = b"""\
From: =?utf-8?q?Fran=C3=A7ois?= <francois@example.fr>
To: play+s12.1.abcdefghijklmnopqrst@turns.example.org
Subject: =?utf-8?q?Re=3A_=C5=BDur=C3=A1=C5=88?=
Message-ID: <qp.1@example.fr>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

Soult attacks =C5=BDur=C3=A1=C5=88 with the cavalry of the Guard and a ver=
y long line that the mail client broke=20
Vandamme to Pratzen.=20
=20
Le 1 d=C3=A9c. 2025 =C3=A0 09:12, pbem a =C3=A9crit=C2=A0:
> Your blocks
"""


def test_quoted_printable_with_soft_breaks_and_utf8_toponyms() -> None:
    mail = mail_read(RAW_QP)
    assert mail.lines == (
        (
            1,
            "Soult attacks Žuráň with the cavalry of the Guard and a very long line "
            "that the mail client broke",
        ),
        (2, "Vandamme to Pratzen."),
    )
    assert mail.subject == "Re: Žuráň"
    assert mail.from_addr == "francois@example.fr"
    assert mail.problems == ()


def test_a_base64_body_in_a_declared_charset() -> None:
    text = "Soult attacks Žuráň\r\nVandamme to Sokolnitz\r\n"
    raw = (
        b"From: bob@example.com\r\nMessage-ID: <b64.1@example.com>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=iso-8859-2\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(text.encode("iso-8859-2"))
    )
    mail = mail_read(raw)
    assert _texts(mail) == ["Soult attacks Žuráň", "Vandamme to Sokolnitz"]
    assert mail.problems == ()


def test_a_wrong_or_unknown_charset_is_replaced_and_named() -> None:
    raw = (
        b"From: bob@example.com\nContent-Type: text/plain; charset=utf-8\n\nSoult \xff\xfe holds\n"
    )
    mail = mail_read(raw)
    assert _texts(mail) == ["Soult \ufffd\ufffd holds"]
    assert "undecodable" in mail.problems
    raw = b"From: bob@example.com\nContent-Type: text/plain; charset=x-klingon\n\nSoult holds\n"
    mail = mail_read(raw)
    assert _texts(mail) == ["Soult holds"]
    assert "unknown_charset" in mail.problems


def test_a_forwarded_report_below_the_players_text_is_not_orders() -> None:
    gmail = (
        "Kutuzov to Pratzen\n\n"
        "---------- Forwarded message ---------\n"
        "From: pbem <play@turns.example.org>\n"
        "Kutuzov holds\n"
    )
    assert order_lines(gmail) == [(1, "Kutuzov to Pratzen")]
    apple = "Kutuzov to Pratzen\n\nBegin forwarded message:\n\nKutuzov holds\n"
    assert order_lines(apple) == [(1, "Kutuzov to Pratzen")]
    thunderbird = "Kutuzov to Pratzen\n-------- Forwarded Message --------\nKutuzov holds\n"
    assert order_lines(thunderbird) == [(1, "Kutuzov to Pratzen")]


def test_a_message_attached_as_rfc822_is_never_the_body() -> None:
    inner = _mail("Kutuzov holds\n", From="pbem@turns.example.org")
    msg = _mail("Kutuzov to Pratzen\n")
    msg.add_attachment(inner)
    mail = _read(msg)
    assert _texts(mail) == ["Kutuzov to Pratzen"]
    assert not mail.attachments_only
    only_forward = _mail()
    only_forward.set_content(inner)
    mail = _read(only_forward)
    assert mail.lines == ()
    assert mail.attachments_only


def test_the_signature_ends_the_orders_and_comments_and_blanks_are_skipped() -> None:
    body = (
        "\ufeffKutuzov to Pratzen.\n  # a comment\n\n\tBagration holds;  \n--\nAlice\n"
        "Kutuzov holds\n"
    )
    assert order_lines(body) == [(1, "Kutuzov to Pratzen."), (4, "Bagration holds;")]
    assert order_lines("Kutuzov holds\n-- \nAlice") == [(1, "Kutuzov holds")]
    assert order_lines("Kutuzov holds\n--- \nDoctorow holds") == [
        (1, "Kutuzov holds"),
        (2, "---"),
        (3, "Doctorow holds"),
    ]


def test_too_many_lines_are_cut_one_past_the_bound_and_long_lines_kept_whole() -> None:
    body = "\n".join(f"Kutuzov holds {n}" for n in range(MAX_ORDER_LINES * 3))
    lines = order_lines(body)
    assert len(lines) == MAX_ORDER_LINES + 1
    assert lines[-1] == (MAX_ORDER_LINES + 1, f"Kutuzov holds {MAX_ORDER_LINES}")
    long_line = "Kutuzov " + "x" * 5000
    assert order_lines(long_line) == [(1, long_line)]


@pytest.mark.parametrize(
    ("header", "value", "why"),
    [
        ("Auto-Submitted", "auto-replied", "Auto-Submitted: auto-replied"),
        ("Auto-Submitted", "Auto-Generated; owner-email=x@y", "Auto-Submitted: auto-generated"),
        ("Precedence", "bulk", "Precedence: bulk"),
        ("Precedence", "Junk", "Precedence: junk"),
        ("Precedence", "list", "Precedence: list"),
        ("X-Autoreply", "yes", "X-Autoreply"),
        ("X-Autorespond", "Out of office", "X-Autorespond"),
        ("List-Id", "<austerlitz.lists.example.org>", "List-Id"),
        ("Return-Path", "<>", "Return-Path"),
    ],
)
def test_auto_replies_are_automatic(header: str, value: str, why: str) -> None:
    mail = _read(_mail("I am away until Monday.\n", **{header.replace("-", "_"): value}))
    assert why in mail.automatic


def test_a_person_is_not_automatic() -> None:
    mail = _read(_mail("Kutuzov holds\n", Auto_Submitted="no", Precedence="first-class"))
    assert mail.automatic == ""


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.com", "postmaster@example.com"])
def test_mail_from_the_mail_system_is_automatic(sender: str) -> None:
    assert "sent by" in _read(_mail("Undeliverable\n", From=sender)).automatic


def test_the_null_envelope_sender_is_automatic_an_unknown_one_is_not() -> None:
    msg = _mail("Kutuzov holds\n")
    assert "envelope" in _read(msg, envelope_from="<>").automatic
    assert _read(msg, envelope_from="").automatic == ""
    assert _read(msg, envelope_from="alice@example.com").automatic == ""


def test_a_bounce_is_automatic() -> None:
    raw = b"""\
From: Mail Delivery System <mailer@mx.example.com>
To: play+s12.1.abcdefghijklmnopqrst@turns.example.org
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Kutuzov to Pratzen could not be delivered.
--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.com
Final-Recipient: rfc822; alice@example.com
Action: failed
Status: 5.1.1
--B--
"""
    mail = mail_read(raw)
    assert "multipart/report" in mail.automatic
    nested = raw.replace(b"multipart/report; report-type=delivery-status", b"multipart/mixed")
    assert "message/delivery-status" in mail_read(nested).automatic


def test_an_attachment_without_text_is_attachments_only() -> None:
    msg = _mail()
    msg.add_attachment(b"%PDF-1.4 orders", maintype="application", subtype="pdf", filename="o.pdf")
    mail = _read(msg)
    assert mail.attachments_only
    assert mail.lines == ()
    assert mail.body == ""
    text_file = _mail()
    text_file.add_attachment("Kutuzov holds\n", filename="orders.txt")
    assert _read(text_file).attachments_only
    with_text = _mail("Kutuzov holds\n")
    with_text.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="map.png")
    mail = _read(with_text)
    assert not mail.attachments_only
    assert _texts(mail) == ["Kutuzov holds"]


def test_no_message_id_and_an_empty_mail() -> None:
    mail = mail_read(b"From: alice@example.com\nSubject: hi\n\nKutuzov holds\n")
    assert mail.message_id == ""
    assert _texts(mail) == ["Kutuzov holds"]
    empty = mail_read(b"")
    assert empty.lines == ()
    assert empty.from_addr == ""
    assert not empty.attachments_only


def test_a_reply_to_and_an_unreadable_from() -> None:
    mail = _read(_mail("x\n", Reply_To="Team <Team@Example.org>"))
    assert mail.reply_to_addr == "team@example.org"
    broken = mail_read(b"From: <<<@@>>\nReply-To: nobody\n\nKutuzov holds\n")
    assert broken.from_addr == ""
    assert broken.reply_to_addr == ""


@pytest.mark.parametrize(
    "raw",
    [
        b"\x00\xff\xfe garbage \x80\x81\r\n\r\n\xc3\x28",
        b"Content-Type: multipart/mixed; boundary=\n\n--\n--",
        b'Content-Type: text/plain; charset="\xff"\nContent-Transfer-Encoding: base64\n\n!!!!',
        b"From: =?utf-8?b?!!!?= <\xff@\xfe>\nMessage-ID: <<<\n\n",
        b"Content-Type: multipart/alternative; boundary=a\n\n"
        + b"--a\nContent-Type: multipart/mixed; boundary=a\n\n" * 200,
    ],
)
def test_garbage_bytes_give_a_mail_not_an_exception(raw: bytes) -> None:
    mail = mail_read(raw)
    assert isinstance(mail, Mail)
    assert all(len(text) <= len(raw) for _, text in mail.lines)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=2000),
        st.lists(
            st.sampled_from(
                [
                    b"From: a@b.c\n",
                    b"Content-Type: multipart/mixed; boundary=x\n",
                    b"Content-Type: text/html; charset=utf-16\n",
                    b"Content-Transfer-Encoding: base64\n",
                    b"Content-Transfer-Encoding: quoted-printable\n",
                    b"Content-Disposition: attachment; filename*=utf-8''%ff\n",
                    b"\n",
                    b"--x\n",
                    b"--x--\n",
                    b"<blockquote><p>=C3=\n",
                    b"Kutuzov holds\n",
                    b"\xff\xfe\x00",
                    b"Auto-Submitted: \xff\n",
                ]
            ),
            max_size=40,
        ).map(b"".join),
    )
)
def test_mail_read_never_raises(raw: bytes) -> None:
    mail = mail_read(raw, envelope_from="<>")
    assert isinstance(mail, Mail)
    assert mail.lines == tuple(order_lines(mail.body))


def test_sections_split_a_digest_reply_by_game() -> None:
    body = (
        "I am late, sorry\n"
        f"== game {GAME_A.upper()} as AL ==\n"
        "Kutuzov to Pratzen\n"
        "Bagration holds\n"
        f"GAME {GAME_B} AS F:\n"
        "Soult attacks Zuran\n"
        f"game {GAME_B}\n"
        f"== Game {GAME_A} ==\n"
    )
    parts = sections(order_lines(body))
    assert parts == [
        Section(game=None, role=None, lines=((1, "I am late, sorry"),)),
        Section(game=GAME_A, role="AL", lines=((3, "Kutuzov to Pratzen"), (4, "Bagration holds"))),
        Section(game=GAME_B, role="F", lines=((6, "Soult attacks Zuran"),)),
        Section(game=GAME_B, role=None, lines=()),
        Section(game=GAME_A, role=None, lines=()),
    ]


def test_sections_without_headers_and_not_quite_headers() -> None:
    lines = order_lines("Kutuzov to Pratzen\ngame 1234 as AL\n== game of the year ==\n")
    assert sections(lines) == [Section(game=None, role=None, lines=tuple(lines))]
    assert sections([]) == []
    quoted = order_lines(f"> == game {GAME_A} as AL ==\nKutuzov holds\n")
    assert sections(quoted) == [Section(game=None, role=None, lines=((2, "Kutuzov holds"),))]


def test_inputs_the_stdlib_parses_in_quadratic_time_are_bounded() -> None:
    long_subject = (
        b"From: alice@example.com\nSubject: " + b"Austerlitz " * 50_000 + b"\n\nKutuzov holds\n"
    )
    mail = mail_read(long_subject)
    assert mail.subject.startswith("Austerlitz Austerlitz")
    assert len(mail.subject) <= 998
    assert _texts(mail) == ["Kutuzov holds"]
    boundaries = (
        b"From: alice@example.com\nContent-Type: multipart/mixed; boundary=a\n\n"
        + b"--a\nContent-Type: multipart/mixed; boundary=a\n\n" * 5_000
    )
    mail = mail_read(boundaries)
    assert mail.problems == ("too_many_parts",)
    assert mail.from_addr == "alice@example.com"
    assert mail.lines == ()


def test_undeclared_8bit_text_is_read_as_utf8() -> None:
    """A client that sends UTF-8 without declaring a charset (the default would be US-ASCII):
    the toponyms must survive (Olmützer Straße), not become replacement characters."""
    raw = "From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\n\r\nDefend Olmützer Straße\r\n"
    mail = mail_read(raw.encode())
    assert mail.lines == ((1, "Defend Olmützer Straße"),)
    assert "undecodable" not in mail.problems
