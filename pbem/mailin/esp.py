"""The ESP inbound transport for orders by email (issue 14 item 3): django-anymail's inbound
webhooks (`/anymail/<esp>/inbound/`, e.g. `/anymail/postmark/inbound/`) send the signal
`anymail.signals.inbound`; the receiver here stores the message as one InboundMessage, exactly
as the SMTP listener does (`inbound_store`, transport "esp"), and its processing follows by task.

Security: an inbound webhook is a public URL. anymail checks HTTP basic auth against
`ANYMAIL["WEBHOOK_SECRET"]` (the variable `ANYMAIL_WEBHOOK_SECRET=user:password`, see
pbem/envconf.py; the ESP is given `https://user:password@host/anymail/<esp>/inbound/`) and
answers 400 to a post without it. anymail itself only warns when no secret is configured; this
receiver refuses such a post instead (400 as well, nothing stored), so the webhook is closed
until a secret is set.

What the ESP is answered: 200 once stored, and 200 too for a duplicate (stored before) and for a
message above PBEM MAX_MAIL_BYTES or one whose bytes cannot be rebuilt (dropped with a log line:
the ESP accepted the mail already, so a refusal would only make it post again); 500 on a
database error (the ESP retries later). Bodies above DATA_UPLOAD_MAX_MEMORY_SIZE (PBEM
MAX_BODY_BYTES, 256 KiB) are refused by Django with 400 before anymail reads them.
"""

from __future__ import annotations

import logging
from email.policy import compat32
from typing import Any

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.utils import get_anymail_setting

from pbem.mailin.store import MailTooLarge, inbound_store

logger = logging.getLogger(__name__)

DISPATCH_UID = "pbem.mailin.esp.esp_inbound"


def _raw(message: Any) -> bytes | None:
    """The message's bytes as the ESP gave them (parsed and serialised again): with the default
    policy, else with the lenient compat32 for headers the default policy cannot fold; None when
    neither can."""
    for policy in (None, compat32):
        try:
            out = message.as_bytes() if policy is None else message.as_bytes(policy=policy)
        except Exception:  # noqa: S112  (a malformed message: try the lenient policy, then drop)
            continue
        return bytes(out)
    return None


def _recipients(message: Any) -> list[str]:
    """The envelope recipient when the ESP gives it, else the To addresses."""
    envelope_recipient = getattr(message, "envelope_recipient", None)
    if envelope_recipient:
        return [str(envelope_recipient)]
    try:
        return [str(a.addr_spec) for a in message.to if a.addr_spec]
    except Exception:  # an unparsable To header: no recipient, the reader refuses the message
        return []


def esp_inbound(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """Receiver of `anymail.signals.inbound`: store the posted message (see the module text)."""
    if not get_anymail_setting("webhook_secret", default=None):
        logger.error(
            "mailin esp: an inbound %s post refused: set ANYMAIL_WEBHOOK_SECRET=user:password",
            esp_name,
        )
        raise AnymailWebhookValidationFailure(
            "the inbound webhook is closed: no ANYMAIL WEBHOOK_SECRET is configured"
        )
    message = event.message
    raw = _raw(message)
    if raw is None:
        logger.warning(
            "mailin esp: an inbound %s message could not be serialised; dropped", esp_name
        )
        return
    envelope_from = str(getattr(message, "envelope_sender", None) or "")
    try:
        inbound_store(
            raw, transport="esp", envelope_from=envelope_from, envelope_to=_recipients(message)
        )
    except MailTooLarge as e:
        logger.warning(
            "mailin esp: an inbound %s message from %r dropped: %s", esp_name, envelope_from, e
        )


def connect() -> None:
    """Connect the receiver (from the mailin app's ready(); connecting twice is harmless)."""
    inbound.connect(esp_inbound, dispatch_uid=DISPATCH_UID)
