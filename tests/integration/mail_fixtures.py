"""Real SMTP for the integration suite (issue 14 item 5): a local sink that collects what the
server sends, the SMTP listener `manage.py pbem_smtpd` as a process, and a raw sender.

- `smtp_sink_server` (session): an aiosmtpd sink on a free 127.0.0.1 port collecting every message
  as an `email.message.EmailMessage` (policy default) carrying its envelope (`SunkMessage`).
  The server processes send to it when started with `sink_env(sink.port)` in their environment.
- `smtp_sink` (per test): the same sink, emptied at the start of the test.
- `smtpd_process` (session): `manage.py pbem_smtpd --port 0` started with the worker's environment
  (the test database, the tests' Redis); yields `(host, port)` once it printed its ready line.
- `mail_send_raw(host, port, raw, mail_from, rcpt_to)`: send bytes as they are with smtplib.

Wiring (tests/integration/conftest.py): import the fixtures there, make the session `worker`
(and `web_server`, if the web tier should mail too) depend on `smtp_sink_server` and add
`sink_env(smtp_sink_server.port)` to its environment after `_server_env(...)`.
"""

from __future__ import annotations

import os
import re
import signal
import smtplib
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from pbem.mailin.smtpd import AnyPortController

if TYPE_CHECKING:
    from tests.integration.conftest import Worker

ROOT = Path(__file__).resolve().parents[2]
SINK_MAX_BYTES = 16 * 1024 * 1024  # the sink's own bound on one message
SMTPD_READY = re.compile(r"^pbem_smtpd listening on (?P<host>\S+):(?P<port>\d+)$", re.MULTILINE)
SMTPD_READY_SECONDS = 60.0


class SunkMessage(EmailMessage):
    """A message the sink received, parsed with the default policy, with its SMTP envelope."""

    envelope_from: str = ""
    envelope_to: tuple[str, ...] = ()


class SmtpSink:
    """An in-process SMTP server that accepts everything and keeps it in memory, in order."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._messages: list[SunkMessage] = []
        self._controller: Controller | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # --- aiosmtpd handler hook ------------------------------------------------------------------

    async def handle_DATA(self, _server: SMTP, _session: Session, envelope: Envelope) -> str:
        parser = BytesParser(_class=SunkMessage, policy=default_policy)
        message = parser.parsebytes(envelope.original_content or b"")
        assert isinstance(message, SunkMessage)
        message.envelope_from = envelope.mail_from or ""
        message.envelope_to = tuple(envelope.rcpt_tos)
        with self._cond:
            self._messages.append(message)
            self._cond.notify_all()
        return "250 OK"

    # --- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        self._controller = AnyPortController(
            self, hostname=self.host, port=0, data_size_limit=SINK_MAX_BYTES, ready_timeout=30
        )
        self._controller.start()
        self.port = int(self._controller.port)

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    # --- reading --------------------------------------------------------------------------------

    def __len__(self) -> int:
        with self._cond:
            return len(self._messages)

    @property
    def messages(self) -> list[SunkMessage]:
        """Every message received since the last clear(), oldest first (a copy)."""
        with self._cond:
            return list(self._messages)

    def messages_to(self, address: str) -> list[SunkMessage]:
        """The messages whose envelope names `address` (case-insensitive), oldest first."""
        wanted = address.strip().lower()
        return [m for m in self.messages if wanted in {a.lower() for a in m.envelope_to}]

    def clear(self) -> None:
        with self._cond:
            self._messages.clear()

    def summary(self) -> str:
        """One line per message received: envelope sender, recipients and subject."""
        lines = [
            f"  {i}: from {m.envelope_from!r} to {list(m.envelope_to)} subject {m['Subject']!r}"
            for i, m in enumerate(self.messages)
        ]
        return "\n".join(lines) if lines else "  (nothing)"

    def wait_for(
        self,
        predicate: Callable[[SunkMessage], bool],
        timeout: float = 120,
        *,
        after: int = 0,
    ) -> SunkMessage:
        """The first message (from index `after`, e.g. `len(sink)` taken before acting) that
        satisfies `predicate`, waiting for it up to `timeout` seconds; AssertionError with what
        did arrive when none does."""

        def found() -> SunkMessage | None:
            return next((m for m in self._messages[after:] if predicate(m)), None)

        with self._cond:
            if self._cond.wait_for(lambda: found() is not None, timeout=timeout):
                message = found()
                assert message is not None
                return message
        raise AssertionError(
            f"no matching message within {timeout:.0f} s; the sink received:\n{self.summary()}"
        )


def sink_env(port: int, host: str = "127.0.0.1") -> dict[str, str]:
    """The variables that make a server process (worker, gunicorn) send its mail to the sink."""
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": host,
        "EMAIL_PORT": str(port),
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": "false",
        "EMAIL_USE_SSL": "false",
        "EMAIL_TIMEOUT": "30",
    }


def mail_send_raw(
    host: str, port: int, raw_bytes: bytes, mail_from: str, rcpt_to: str | Sequence[str]
) -> dict[str, tuple[int, bytes]]:
    """Send `raw_bytes` with smtplib, line ends made CRLF as on the wire (smtplib leaves bytes
    as they are, and a message with bare LF ends is one over-long line to an SMTP server).
    Returns the recipients refused while others were accepted (smtplib's sendmail); raises
    smtplib.SMTPRecipientsRefused when all are refused, SMTPDataError on a refused DATA."""
    recipients = [rcpt_to] if isinstance(rcpt_to, str) else list(rcpt_to)
    wire = re.sub(rb"\r?\n", b"\r\n", raw_bytes)
    with smtplib.SMTP(host, port, timeout=60) as client:
        return client.sendmail(mail_from, recipients, wire)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def smtp_sink_server() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    sink.start()
    yield sink
    sink.stop()


@pytest.fixture
def smtp_sink(smtp_sink_server: SmtpSink) -> SmtpSink:
    """The session's sink, emptied for this test."""
    smtp_sink_server.clear()
    return smtp_sink_server


class SmtpdOutput:
    """Copies the listener's output to its log line by line (a thread that drains the pipe for
    the process's life) and signals when the ready line or the end of the output is seen."""

    def __init__(self, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.proc = proc
        self.log = log
        self.address: tuple[str, int] | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._copy, daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        assert self.proc.stdout is not None
        with self.log.open("ab") as out:
            for line in self.proc.stdout:
                out.write(line)
                out.flush()
                found = SMTPD_READY.match(line.decode(errors="replace").strip())
                if found and self.address is None:
                    self.address = (found["host"], int(found["port"]))
                    self._done.set()
        self._done.set()  # end of output: the process exited

    def ready(self) -> tuple[str, int]:
        """(host, port) once the ready line came (at most SMTPD_READY_SECONDS)."""
        if not self._done.wait(SMTPD_READY_SECONDS):
            raise AssertionError(f"pbem_smtpd not ready within {SMTPD_READY_SECONDS:.0f} s")
        if self.address is None:
            self._thread.join(timeout=10)
            tail = self.log.read_text(errors="replace")[-4000:]
            raise AssertionError(f"pbem_smtpd exited before it was ready:\n{tail}")
        return self.address

    def finished(self, timeout: float) -> None:
        """Wait until the whole output is in the log (the process closed it)."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise AssertionError(f"pbem_smtpd's output still open after {timeout:.0f} s")


@pytest.fixture(scope="session")
def smtpd_process(
    worker: Worker, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, int]]:
    """`manage.py pbem_smtpd` on a free port with the worker's environment (test database,
    Redis), in its own process group; yields (host, port) once ready, SIGTERM at the end."""
    log = tmp_path_factory.mktemp("smtpd") / "smtpd.log"
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "pbem_smtpd", "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT,
        env=dict(worker.env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield SmtpdOutput(proc, log).ready()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=20)


@pytest.fixture
def mail_worker(
    worker: Worker, transactional_db: None, smtp_sink_server: SmtpSink, tmp_path: Path
) -> Iterator[Worker]:
    """The session worker stopped, and one sending its mail to the sink in its place (the other
    integration tests count mails in the session worker's console log)."""
    from pbem.celery import app
    from tests.integration.conftest import Worker as WorkerProcess

    if worker.proc is not None:
        worker.stop()
    app.control.purge()
    env = dict(worker.env)
    env.update(sink_env(smtp_sink_server.port))
    mailer = WorkerProcess(env, tmp_path / "mail-worker.log")
    mailer.start()
    try:
        yield mailer
    finally:
        mailer.stop()
        worker.start()
