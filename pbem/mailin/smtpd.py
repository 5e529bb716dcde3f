"""The SMTP listener for orders by email (issue 14 item 3): an aiosmtpd handler that stores each
message first and answers its peer at once.

Only our reply addresses are accepted at RCPT (`recipient_ours`), so mail to anyone else is
refused before its data is sent and the server is never an open relay. At DATA the message's
bytes are stored as one InboundMessage (`inbound_store`, which enqueues its processing after
commit) and the peer gets `250` only once the row is committed: a peer that sees `250` may forget
the message. A database error answers `451` (the sending MTA retries later) instead of taking the
server down; a message above PBEM `MAX_MAIL_BYTES` is refused with `552` (aiosmtpd refuses it
while reading when it exceeds `data_size_limit`, `inbound_store` after).

The Django ORM is synchronous: `inbound_store` runs through `sync_to_async(thread_sensitive=True)`,
always in the same worker thread, which drops stale or broken connections before and after each
message as Django does around a request (a long-running listener outlives a database restart).
"""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from django.db import DatabaseError, close_old_connections

from pbem.conf import pbem_settings
from pbem.mailin.store import MAX_RECIPIENTS, MailTooLarge, inbound_store, recipient_ours

logger = logging.getLogger(__name__)

# aiosmtpd's default (5 s) is short on a busy machine; a port in use makes start() wait it out
READY_SECONDS = 15.0

STORED = "250 2.0.0 stored"
NO_MAILBOX = "550 5.1.1 no such mailbox"
TOO_MANY_RECIPIENTS = "452 4.5.3 too many recipients"
TOO_LARGE = "552 5.3.4 message too large"
TRY_LATER = "451 4.3.0 temporary failure, try again later"


def _store(raw: bytes, envelope_from: str, envelope_to: list[str]) -> None:
    """Store one message (synchronous: runs in the thread-sensitive executor thread)."""
    close_old_connections()
    try:
        inbound_store(raw, transport="smtp", envelope_from=envelope_from, envelope_to=envelope_to)
    finally:
        close_old_connections()


class InboundHandler:
    """aiosmtpd handler: RCPT accepts our reply addresses only, DATA stores the message."""

    async def handle_RCPT(
        self,
        _server: SMTP,
        _session: Session,
        envelope: Envelope,
        address: str,
        _rcpt_options: list[str],
    ) -> str:
        # MAX_RECIPIENTS (20) per message, as stored; more get 452 (RFC 5321 4.5.3.1.10: the
        # client sends them again in another transaction)
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return TOO_MANY_RECIPIENTS
        try:
            ours = recipient_ours(address)
        except Exception:  # a reader bug must not end the session: the address is refused
            logger.exception("mailin smtpd: could not read recipient %r", address[:320])
            ours = False
        if not ours:
            return NO_MAILBOX
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, _server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        mail_from = envelope.mail_from or ""
        try:
            await sync_to_async(_store, thread_sensitive=True)(
                raw, mail_from, list(envelope.rcpt_tos)
            )
        except MailTooLarge:
            logger.info("mailin smtpd: %d bytes from %r refused: too large", len(raw), mail_from)
            return TOO_LARGE
        except DatabaseError:
            logger.exception("mailin smtpd: database error; the peer will retry")
            return TRY_LATER
        except Exception:  # never crash the server: the peer retries, the log says why
            logger.exception("mailin smtpd: message from %r not stored", mail_from)
            return TRY_LATER
        logger.info(
            "mailin smtpd: stored %d bytes from %r (peer %s) to %s",
            len(raw),
            mail_from,
            session.peer,
            envelope.rcpt_tos,
        )
        return STORED


class AnyPortController(Controller):
    """aiosmtpd's threaded Controller that also binds port 0 (a free port the system picks):
    aiosmtpd 1.4 connects to `self.port` to check the server is up, so the bound port is read
    from the listening socket first."""

    def _trigger_server(self) -> None:
        if self.port == 0 and isinstance(self.server, asyncio.Server):
            self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]


def server_start(host: str, port: int) -> Controller:
    """Start the listener on `host:port` in a background thread (port 0: a free port, then read
    from `.port`); stop it with `.stop()`. Messages above MAX_MAIL_BYTES are refused while read."""
    controller = AnyPortController(
        InboundHandler(),
        hostname=host,
        port=port,
        data_size_limit=int(pbem_settings.MAX_MAIL_BYTES),
        ready_timeout=READY_SECONDS,
    )
    controller.start()
    return controller
