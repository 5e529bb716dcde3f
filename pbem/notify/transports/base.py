"""The transport interface (healthchecks' pattern): one class per channel, one `deliver`."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.notify.models import Notification


class TransportError(Exception):
    """A delivery failed. `permanent` (unknown mailbox, 410 Gone, refused address) means
    retrying cannot help: the row fails at once and a webhook endpoint is disabled."""

    def __init__(self, message: str, permanent: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.permanent = permanent


@dataclass(frozen=True)
class Message:
    """What a transport sends: rendered only from the recipient role's view (content.py)."""

    dedupe_key: str  # internal only: it holds the server-wide event id (never sent)
    delivery_id: str  # opaque and stable per outbox row: what receivers deduplicate on
    kind: str
    game_id: str
    seq: int  # in the recipient role's numbering (team digest L7), never the global seq
    role: str
    subject: str
    text: str
    html: str
    view_url: str
    reply_to: str = ""  # the seat's signed reply address: email only (issue 14)


class Transport:
    channel = ""

    def __init__(self, notification: Notification) -> None:
        self.notification = notification

    def deliver(self, message: Message) -> None:
        """Send `message` or raise TransportError."""
        raise NotImplementedError
