"""Transport registry: channel -> dotted path, imported lazily (healthchecks' TRANSPORTS).
`settings.PBEM["TRANSPORTS"]` (read as `pbem_settings.TRANSPORTS`) adds or replaces classes by
import string (DRF style)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.utils.module_loading import import_string

from pbem.conf import pbem_settings

if TYPE_CHECKING:
    from pbem.notify.transports.base import Transport

TRANSPORTS: dict[str, str] = {
    "email": "pbem.notify.transports.email.EmailTransport",
    "webhook": "pbem.notify.transports.webhook.WebhookTransport",
}


def transport_class(channel: str) -> type[Transport]:
    """The Transport class for a channel; KeyError for an unknown one."""
    paths = {**TRANSPORTS, **dict(pbem_settings.TRANSPORTS or {})}
    return cast("type[Transport]", import_string(paths[channel]))
