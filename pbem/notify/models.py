"""The notification outbox and what a user subscribes to (architecture 8.8).

A Notification row is written in the same transaction as the event that causes it; its unique
`dedupe_key` (`f"{event_id}:{channel_id}:{kind}"`) makes planning twice harmless. Workers claim a
row with a conditional UPDATE (`pending` -> `sending`) and record the outcome the same way.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

DIGEST_HOURS_MIN, DIGEST_HOURS_MAX = 1, 168  # an hour to a week
DIGEST_HOURS_DEFAULT = 24


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn"
    TURN_RESOLVED = "turn_resolved"
    TURN_BEGINS = "turn_begins"  # a public notice names the seat: e.g. its team's turn (L5)
    DEADLINE_SOON = "deadline_soon"
    DEADLINE_CHANGED = "deadline_changed"  # the creator changed the time per turn or the policy
    GAME_OVER = "game_over"
    INVITATION = "invitation"  # a seat is offered to you: accept or decline
    INVITATION_DECLINED = "invitation_declined"  # to the creator: the seat is open again
    RULING = "ruling"  # the umpire ruled, for this seat (games.core.umpire)


class WebhookEndpoint(models.Model):
    """A user's HTTPS endpoint; `events` lists the kinds it wants (empty = all kinds)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=200)  # the HMAC-SHA256 key; never serialised back
    events = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0)  # consecutive failed deliveries
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "pk"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.user_id}: {self.url}"

    def wants(self, kind: str) -> bool:
        return not self.events or kind in self.events


class NotificationPref(models.Model):
    """How a user wants email: one mail per notification, or a digest every `digest_hours`, and
    in which language (one row per user, created on first use).

    The digest's stored mode value stays `daily_digest` (rows written before the digest took a
    period keep their meaning); the API calls it `digest` (pbem.api.notification_prefs).

    `language` is the user's language, the one place it is stored: their mails are written in it
    and pbem.web shows their pages in it (read and written through pbem.notify.language); blank
    means none chosen (mails in settings.LANGUAGE_CODE, pages in the browser's language)."""

    class Mode(models.TextChoices):
        INSTANT = "instant"
        DAILY_DIGEST = "daily_digest", "Digest"  # one mail every `digest_hours` (API: "digest")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_pref"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.INSTANT)
    email_enabled = models.BooleanField(default=True)
    # the digest's period: windows of this many hours counted from the Unix epoch in UTC
    digest_hours = models.PositiveSmallIntegerField(
        default=DIGEST_HOURS_DEFAULT,
        validators=[MinValueValidator(DIGEST_HOURS_MIN), MaxValueValidator(DIGEST_HOURS_MAX)],
    )
    language = models.CharField(max_length=8, blank=True, default="")  # "" = none chosen

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(digest_hours__gte=DIGEST_HOURS_MIN, digest_hours__lte=DIGEST_HOURS_MAX),
                name="notify_pref_digest_hours_range",
            )
        ]

    def __str__(self) -> str:
        email = "on" if self.email_enabled else "off"
        return f"{self.user_id}: {self.mode} every {self.digest_hours} h, email {email}"


class Notification(models.Model):
    """One outbox row: one kind of news about one event for one seat over one channel."""

    class Channel(models.TextChoices):
        EMAIL = "email"
        WEBHOOK = "webhook"

    class Status(models.TextChoices):
        PENDING = "pending"  # waiting for a worker (or for next_attempt_at after a failure)
        SENDING = "sending"  # claimed by a worker
        SENT = "sent"
        FAILED = "failed"  # permanent failure, or out of attempts
        DIGEST = "digest"  # held for the user's daily digest

    # events are never deleted (append-only triggers); CASCADE only lets test flushes through
    event = models.ForeignKey("play.Event", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("play.Game", on_delete=models.CASCADE, related_name="notifications")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    role = models.CharField(max_length=60)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    endpoint = models.ForeignKey(
        WebhookEndpoint,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    dedupe_key = models.CharField(max_length=200, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)  # when `sending` began
    enqueued_at = models.DateTimeField(null=True, blank=True)  # last hand-off to the queue
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(
                fields=["status", "next_attempt_at"],
                name="notify_due_idx",
                condition=Q(status__in=["pending", "sending"]),
            ),
            models.Index(
                fields=["user", "created_at"],
                name="notify_digest_idx",
                condition=Q(status="digest"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} as {self.role} via {self.channel}: {self.status}"


class DigestRun(models.Model):
    """One digest mail per user per window: the unique (user, window_start) row is the claim.

    `window_start` is the start of the window the mail was sent in (floor(now / hours) in UTC,
    pbem.notify.digest.window_start); the mail carries what was held before it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    window_start = models.DateTimeField()
    hours = models.PositiveSmallIntegerField(default=DIGEST_HOURS_DEFAULT)  # the window's length
    count = models.PositiveIntegerField(default=0)  # notifications the mail carried
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "window_start"], name="notify_digest_user_window_uniq"
            )
        ]

    def __str__(self) -> str:
        return f"digest for {self.user_id} at {self.window_start:%Y-%m-%d %H:%M} UTC"
