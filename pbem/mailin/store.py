"""Store an inbound message first, process it later (issue 14 item 3).

Both transports (the SMTP listener `pbem_smtpd` and an ESP's inbound webhook) call
`inbound_store` with the message's bytes: one InboundMessage row, then the task
`mailin.inbound_process` after commit. Nothing is read or answered here, so a transport answers
its peer at once and a worker that is down loses nothing (the sweep in `tasks` finds rows left
`received`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from email.parser import BytesHeaderParser
from email.policy import default as default_policy

from django.db import IntegrityError, transaction

from pbem.conf import pbem_settings
from pbem.mailin.models import InboundMessage
from pbem.notify.reply_address import BadAddress, address_read
from pbem.play.publisher import publish

logger = logging.getLogger(__name__)
MAX_RECIPIENTS = 20


class MailTooLarge(Exception):
    """The message is larger than PBEM MAX_MAIL_BYTES: refused, nothing stored."""


def recipient_ours(address: str) -> bool:
    """Whether `address` is one of our reply addresses (our domain and local-part prefix);
    its signature is checked later, when the message is read."""
    try:
        address_read(address)
    except BadAddress as e:
        return e.code not in ("not_ours", "malformed")
    return True


def _message_id(raw: bytes) -> str:
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(raw[: 64 * 1024])
        value = headers.get("Message-ID", "")
    except Exception:  # any header the parser chokes on: keyed by the bytes instead
        return ""
    return " ".join(str(value).split()).strip("<>")[:900]


def dedupe_key(raw: bytes, message_id: str, envelope_to: Sequence[str]) -> str:
    """sha256 of (Message-ID, first recipient), or of the bytes when there is no Message-ID."""
    first = (envelope_to[0] if envelope_to else "").strip().lower()
    basis = f"id:{message_id}\0{first}".encode() if message_id else b"raw:" + raw
    return hashlib.sha256(basis).hexdigest()


def inbound_store(
    raw: bytes, *, transport: str, envelope_from: str, envelope_to: Sequence[str]
) -> InboundMessage | None:
    """Store one message and enqueue its processing; None when it was stored before."""
    if len(raw) > int(pbem_settings.MAX_MAIL_BYTES):
        raise MailTooLarge(f"{len(raw)} bytes, more than {pbem_settings.MAX_MAIL_BYTES}")
    recipients = [str(a)[:320] for a in list(envelope_to)[:MAX_RECIPIENTS]]
    message_id = _message_id(raw)
    key = dedupe_key(raw, message_id, recipients)
    try:
        with transaction.atomic():
            row = InboundMessage.objects.create(
                transport=transport,
                raw=raw,
                envelope_from=(envelope_from or "")[:320],
                envelope_to=recipients,
                message_id=message_id,
                dedupe_key=key,
            )
            row_id = str(row.pk)
            transaction.on_commit(lambda: _enqueue(row_id))
    except IntegrityError:
        logger.info(
            "mailin: message %r to %s stored before; not stored again", message_id, recipients
        )
        return None
    return row


def _enqueue(row_id: str) -> None:
    try:
        publish("mailin.inbound_process", row_id)
    except Exception:  # the broker is down: the sweep finds the row
        logger.warning("mailin: message %s not enqueued; the sweep will find it", row_id)
