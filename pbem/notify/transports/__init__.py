"""Transport registry: channel -> dotted path, imported lazily (healthchecks' TRANSPORTS).
`settings.PBEM["TRANSPORTS"]` adds or replaces classes by import string (DRF style)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from pbem.notify.transports.base import Transport

TRANSPORTS: dict[str, str] = {
    "email": "pbem.notify.transports.email.EmailTransport",
    "webhook": "pbem.notify.transports.webhook.WebhookTransport",
}


def transport_class(channel: str) -> type[Transport]:
    """The Transport class for a channel; KeyError for an unknown one."""
    paths = {**TRANSPORTS, **dict(settings.PBEM.get("TRANSPORTS") or {})}
    return cast("type[Transport]", import_string(paths[channel]))
