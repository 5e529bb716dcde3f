"""Messages stored while the broker was down, or whose worker died, are processed again: the
beat task re-enqueues every `received` message older than a minute. Processing is idempotent
(per-line Idempotency-Keys, and a message left `received` only until its outcome is written)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from pbem.mailin.models import InboundMessage
from pbem.play.publisher import publish

STALE_AFTER = timedelta(minutes=1)
BATCH = 200


def inbound_sweep() -> int:
    cutoff = timezone.now() - STALE_AFTER
    ids = list(
        InboundMessage.objects.filter(status=InboundMessage.Status.RECEIVED, created_at__lt=cutoff)
        .order_by("created_at")
        .values_list("pk", flat=True)[:BATCH]
    )
    for pk in ids:
        publish("mailin.inbound_process", str(pk))
    return len(ids)
