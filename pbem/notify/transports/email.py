"""Email through Django's email API: the console backend by default, locmem in tests, SMTP with
EMAIL_HOST/..., or an ESP through django-anymail (EMAIL_BACKEND plus ANYMAIL_* variables).

Each mail has a deterministic Message-ID `<{game}.{seq}.{role}.{kind}@{domain}>` (`seq` in the
recipient role's numbering) and points In-Reply-To/References at the game's thread root
`<{game}@{domain}>`, so mail clients thread a game and a duplicate is recognisable;
`X-PBEM-Delivery` is the row's opaque delivery id (services.delivery_id).
"""

from __future__ import annotations

import smtplib
from collections.abc import Mapping

from anymail.exceptions import AnymailError, AnymailInvalidAddress, AnymailRecipientsRefused
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from pbem.conf import DEFAULTS, pbem_settings
from pbem.notify.transports.base import Message, Transport, TransportError


def mail_domain() -> str:
    return str(pbem_settings.MAIL_DOMAIN or DEFAULTS["MAIL_DOMAIN"])


def message_id(game_id: str, seq: int, role: str, kind: str) -> str:
    return f"<{game_id}.{seq}.{role}.{kind}@{mail_domain()}>"


def news_tag(message: Message) -> str:
    """The kind, with the tag that tells apart repeated news at one head (the dedupe key's last
    part, e.g. `deadline_changed.1767225600000000`): every mail keeps its own Message-ID."""
    last = message.dedupe_key.rsplit(":", 1)[-1]
    return last if last.startswith(f"{message.kind}.") else message.kind


def thread_root(game_id: str) -> str:
    return f"<{game_id}@{mail_domain()}>"


def mail_send(*, to: str, subject: str, text: str, html: str, headers: Mapping[str, str]) -> None:
    """Send one multipart mail; raise TransportError (permanent when the address is refused)."""
    if not to:
        raise TransportError("the user has no email address", permanent=True)
    mail = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers=dict(headers),
    )
    mail.attach_alternative(html, "text/html")
    try:
        mail.send(fail_silently=False)
    except (smtplib.SMTPRecipientsRefused, AnymailRecipientsRefused, AnymailInvalidAddress) as e:
        raise TransportError(f"recipient refused: {e}", permanent=True) from e
    except (smtplib.SMTPException, OSError, AnymailError) as e:  # ESP and network: retried
        raise TransportError(f"mail not sent: {e}") from e


class EmailTransport(Transport):
    channel = "email"

    def deliver(self, message: Message) -> None:
        root = thread_root(message.game_id)
        headers = {
            "Message-ID": message_id(message.game_id, message.seq, message.role, news_tag(message)),
            "In-Reply-To": root,
            "References": root,
            "X-PBEM-Delivery": message.delivery_id,
        }
        if message.reply_to:  # orders by email: a reply goes to the seat's signed address
            headers["Reply-To"] = message.reply_to
        mail_send(
            to=self.notification.user.email,
            subject=message.subject,
            text=message.text,
            html=message.html,
            headers=headers,
        )
