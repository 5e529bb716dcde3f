"""The SMTP listener (pbem.mailin.smtpd, `manage.py pbem_smtpd`) over real sockets, and the
integration suite's mail fixtures (tests/integration/mail_fixtures.py) that drive it.

A real aiosmtpd Controller with `InboundHandler` listens on a free 127.0.0.1 port; smtplib talks
to it. The handler stores through `sync_to_async` in another thread, so these tests commit for
real (`transaction=True`) and that thread sees the rows.
"""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.core.management import CommandError, call_command
from django.db import OperationalError

from pbem.mailin import smtpd
from pbem.mailin.models import InboundMessage
from pbem.mailin.smtpd import server_start
from pbem.notify.reply_address import user_address
from tests.integration.mail_fixtures import SmtpdOutput, SmtpSink, SunkMessage, mail_send_raw

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]
SENDER = "alice@example.org"


def mail(to: str, body: str = "move 1\r\n.dot line\r\n", *, message_id: str = "") -> bytes:
    """A plain text message with CRLF line ends, as it travels over SMTP."""
    msg = EmailMessage(policy=SMTP_POLICY)
    msg["From"] = SENDER
    msg["To"] = to
    msg["Subject"] = "orders"
    msg["Message-ID"] = message_id or make_msgid(domain="example.org")
    msg.set_content(body)
    return msg.as_bytes()


def max_mail_bytes(settings: Any, limit: int) -> None:
    settings.PBEM = {**settings.PBEM, "MAX_MAIL_BYTES": limit}


@pytest.fixture
def listener() -> Iterator[Controller]:
    controller = server_start("127.0.0.1", 0)
    yield controller
    controller.stop()


def smtp(controller: Controller) -> smtplib.SMTP:
    client = smtplib.SMTP("127.0.0.1", int(controller.port), timeout=60)
    client.ehlo("client.example.org")
    return client


def test_a_mail_to_a_reply_address_is_stored_as_sent(listener: Controller) -> None:
    to = user_address(user_pk=7)
    raw = mail(to)
    with smtp(listener) as client:
        assert client.mail(SENDER)[0] == 250
        assert client.rcpt(to) == (250, b"2.1.5 OK")
        assert client.data(raw) == (250, b"2.0.0 stored")
    row = InboundMessage.objects.get()
    assert row.transport == "smtp"
    assert bytes(row.raw) == raw  # dot-stuffing undone, CRLF kept: the bytes as sent
    assert row.envelope_from == SENDER
    assert row.envelope_to == [to]


def test_other_recipients_are_refused_at_rcpt(listener: Controller) -> None:
    foreign = ["bob@example.org", "someone@localhost", "play@localhost"]
    with smtp(listener) as client:
        client.mail(SENDER)
        for address in foreign:
            assert client.rcpt(address) == (550, b"5.1.1 no such mailbox")
        # no recipient was accepted: DATA is refused and nothing is stored
        with pytest.raises(smtplib.SMTPDataError) as refused:
            client.data(mail(foreign[0]))
        assert refused.value.smtp_code == 503
    assert not InboundMessage.objects.exists()


def test_at_most_twenty_recipients(listener: Controller) -> None:
    addresses = [user_address(user_pk=pk) for pk in range(1, 22)]
    with smtp(listener) as client:
        refused = client.sendmail(SENDER, addresses, mail(addresses[0]))
    assert refused == {addresses[20]: (452, b"4.5.3 too many recipients")}
    assert InboundMessage.objects.get().envelope_to == addresses[:20]


def test_the_same_message_twice_is_stored_once(listener: Controller) -> None:
    to = user_address(user_pk=3)
    raw = mail(to, message_id="<same@example.org>")
    with smtp(listener) as client:
        for _ in range(2):
            client.mail(SENDER)
            client.rcpt(to)
            assert client.data(raw) == (250, b"2.0.0 stored")
    assert InboundMessage.objects.count() == 1


def test_too_large_is_refused_while_read(settings: Any) -> None:
    max_mail_bytes(settings, 4096)
    controller = server_start("127.0.0.1", 0)  # data_size_limit read at start
    try:
        to = user_address(user_pk=1)
        with smtp(controller) as client:
            client.mail(SENDER)  # no SIZE parameter: the limit is met while DATA is read
            client.rcpt(to)
            code, _ = client.data(mail(to, ("x" * 70 + "\r\n") * 80))
    finally:
        controller.stop()
    assert code == 552
    assert not InboundMessage.objects.exists()


def test_too_large_for_the_store_gets_552(listener: Controller, settings: Any) -> None:
    max_mail_bytes(settings, 1024)  # lowered after the listener started: inbound_store refuses
    to = user_address(user_pk=1)
    with smtp(listener) as client:
        client.mail(SENDER)
        client.rcpt(to)
        assert client.data(mail(to, ("y" * 70 + "\r\n") * 20)) == (552, b"5.3.4 message too large")
    assert not InboundMessage.objects.exists()


def test_a_database_error_answers_451_and_the_server_goes_on(
    listener: Controller, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("the database is down")

    to = user_address(user_pk=5)
    raw = mail(to)
    with smtp(listener) as client:
        monkeypatch.setattr(smtpd, "inbound_store", broken)
        client.mail(SENDER)
        client.rcpt(to)
        assert client.data(raw) == (451, b"4.3.0 temporary failure, try again later")
        monkeypatch.undo()
        client.mail(SENDER)  # the sending MTA tries again: stored
        client.rcpt(to)
        assert client.data(raw) == (250, b"2.0.0 stored")
    assert InboundMessage.objects.count() == 1


# --- the integration fixtures -------------------------------------------------------------------


def test_the_sink_collects_messages_with_their_envelope() -> None:
    sink = SmtpSink()
    sink.start()
    try:
        refused = mail_send_raw(
            sink.host, sink.port, mail("x@example.org"), SENDER, "x@example.org"
        )
        assert refused == {}
        mail_send_raw(sink.host, sink.port, mail("y@example.org"), SENDER, ["y@example.org"])
        got = sink.wait_for(lambda m: m["To"] == "y@example.org", timeout=60)
        assert isinstance(got, SunkMessage)
        assert got.envelope_from == SENDER
        assert got.envelope_to == ("y@example.org",)
        assert got.get_content().startswith("move 1")
        assert [m["To"] for m in sink.messages_to("X@example.org")] == ["x@example.org"]
        # `after` skips what had arrived; on a timeout the error lists what did arrive
        with pytest.raises(AssertionError, match=r"the sink received:\n  0: from"):
            sink.wait_for(lambda m: True, timeout=0.5, after=len(sink))
        sink.clear()
        assert len(sink) == 0
        assert sink.messages_to("x@example.org") == []
    finally:
        sink.stop()


# --- manage.py pbem_smtpd -----------------------------------------------------------------------


@pytest.mark.parametrize("stop_with", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_the_command_prints_its_line_serves_and_stops(
    stop_with: signal.Signals, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="pbem.settings_test", PBEM_DATA_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "pbem_smtpd", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        output = SmtpdOutput(proc, tmp_path / "smtpd.log")
        host, port = output.ready()
        assert host == "127.0.0.1"
        with smtplib.SMTP(host, port, timeout=60) as client:
            client.ehlo("client.example.org")
            client.mail(SENDER)
            assert client.rcpt("bob@example.org") == (550, b"5.1.1 no such mailbox")
        proc.send_signal(stop_with)
        assert proc.wait(timeout=60) == 0
        output.finished(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    lines = (tmp_path / "smtpd.log").read_text().splitlines()
    assert lines.count(f"pbem_smtpd listening on 127.0.0.1:{port}") == 1
    assert lines[-1] == "pbem_smtpd stopped"


def test_the_command_refuses_a_bad_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SMTPD_PORT", "twenty-five")
    with pytest.raises(CommandError, match="PBEM_SMTPD_PORT must be a port number"):
        call_command("pbem_smtpd")
    with pytest.raises(CommandError, match="between 0 and 65535"):
        call_command("pbem_smtpd", "--port", "70000")
