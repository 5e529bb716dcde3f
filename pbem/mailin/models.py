"""Inbound mail (issue 14): every message is stored first, exactly as it came, then processed.

`dedupe_key` is sha256 of (Message-ID, first recipient): the same message delivered twice (an
SMTP retry, an ESP's webhook retry, a second MX) is stored once and applied once. A message
without a Message-ID is keyed by the hash of its bytes instead.
"""

from __future__ import annotations

import uuid

from django.db import models


class InboundMessage(models.Model):
    class Transport(models.TextChoices):
        SMTP = "smtp"  # manage.py pbem_smtpd
        ESP = "esp"  # an ESP's inbound webhook (django-anymail)

    class Status(models.TextChoices):
        RECEIVED = "received"  # stored, waiting for the task
        APPLIED = "applied"  # every order line was applied
        REJECTED = "rejected"  # refused (the outcome says why); nothing or only a prefix applied
        IGNORED = "ignored"  # an auto-reply, bounce or list mail: never answered (mail loops)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    transport = models.CharField(max_length=8, choices=Transport.choices)
    raw = models.BinaryField()  # bounded by PBEM MAX_MAIL_BYTES before it is stored
    envelope_from = models.CharField(max_length=320, blank=True)
    envelope_to = models.JSONField(default=list)
    message_id = models.CharField(max_length=998, blank=True)
    dedupe_key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED)
    # what was done: {"code": ..., "reason": ..., "lines": [{"line", "text", "status", ...}], ...}
    outcome = models.JSONField(default=dict, blank=True)
    reply_sent = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"inbound {self.pk} via {self.transport}: {self.status}"
