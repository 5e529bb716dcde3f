"""The task's service for one stored message: read it, decide, apply, answer, record.

`process` decides and applies, `replies` writes the answer; this module runs them in order and
records the outcome on the InboundMessage with a conditional update (only a `received` row
changes), so a message whose outcome is recorded is never processed or answered again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from pbem.mailin.models import InboundMessage
from pbem.mailin.process import message_outcome
from pbem.mailin.reading import mail_read
from pbem.mailin.replies import answer_send

STRANGER_CODES = frozenset({"unknown_address", "forged_address", "expired_address", "wrong_sender"})
STRANGER_ANSWERS = 5  # an hour, per sender address


def inbound_process(*, message_id: str) -> str:
    """The task's service: read, decide, apply, answer. Returns the final status."""
    row = InboundMessage.objects.filter(pk=message_id).first()
    if row is None or row.status != InboundMessage.Status.RECEIVED:
        return "" if row is None else row.status  # unknown, or done before: nothing again
    mail = mail_read(bytes(row.raw), row.envelope_from)
    if mail.automatic:
        _finish(row, InboundMessage.Status.IGNORED, {"code": "automatic", "reason": mail.automatic})
        return InboundMessage.Status.IGNORED
    outcome = message_outcome(row, mail)
    status = InboundMessage.Status.APPLIED if outcome.ok else InboundMessage.Status.REJECTED
    record = {**outcome.to_json(), "sender": mail.from_addr}
    sent = False if _muted(outcome.code, mail.from_addr) else answer_send(row, mail, outcome)
    _finish(row, status, record, reply_sent=sent)
    return status


def _muted(code: str, sender: str) -> bool:
    """A sender who is not a known player (a forged, unknown or expired address, a wrong sender)
    gets at most STRANGER_ANSWERS answers an hour: the server must not become a reflector for
    mail with a forged From address (backscatter). The refusal is still recorded."""
    if code not in STRANGER_CODES:
        return False
    answered = InboundMessage.objects.filter(
        created_at__gte=timezone.now() - timedelta(hours=1),
        reply_sent=True,
        outcome__sender=sender,
        outcome__code__in=sorted(STRANGER_CODES),
    ).count()
    return answered >= STRANGER_ANSWERS


def _finish(
    row: InboundMessage, status: str, outcome: dict[str, Any], reply_sent: bool = False
) -> None:
    InboundMessage.objects.filter(pk=row.pk, status=InboundMessage.Status.RECEIVED).update(
        status=status, outcome=outcome, reply_sent=reply_sent, processed_at=timezone.now()
    )
