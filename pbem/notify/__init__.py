"""Outbound notifications (architecture 8.8): an outbox written in the event's
transaction, delivered by email and signed webhooks on the `mail` queue, each exactly once."""

from __future__ import annotations
