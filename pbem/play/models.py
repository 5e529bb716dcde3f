"""Games, seats and the append-only event log (architecture 8.4).

An Event is never updated or deleted: the model refuses it, and database triggers (migration
0002) refuse UPDATE and DELETE on PostgreSQL and SQLite. State is rebuilt from the newest
Snapshot plus the events after it; snapshots are a cache that can be dropped at will.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.core.umpire import UMPIRE
from pbem.conf import pbem_settings
from pbem.play.json_text import JSONTextField


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete an event."""


def default_turn_hours() -> int:
    """The time per turn of a new game: pbem_settings.DEADLINE_DEFAULT_HOURS (72)."""
    return int(pbem_settings.DEADLINE_DEFAULT_HOURS)


class MissedTurnPolicy(models.TextChoices):
    """What happens when a prompted player submits nothing before the deadline."""

    APPLY_DEFAULTS = "apply_defaults"  # the engine's documented defaults (`.deadline`)
    EXTEND_ONCE = "extend_once"  # first miss of a turn: one more turn_hours, then defaults
    SUBSTITUTE = "substitute"  # the seat's substitute takes over; defaults if there is none


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        PAUSED = "paused"
        FINISHED = "finished"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset_id = models.CharField(max_length=40)
    ruleset_version = models.PositiveIntegerField()
    scenario = models.CharField(max_length=80)
    options = models.JSONField(default=dict, blank=True)
    title = models.CharField(max_length=120, blank=True)
    # users without a seat may read the observer's view and the public log lines (NT-147)
    spectators = models.BooleanField(default=True)
    # may one user hold several seats (hot seat)? Never by default
    hot_seat = models.BooleanField(default=False)
    seed = models.BinaryField(max_length=32, editable=False)  # secret until the game is over
    seed_commitment = models.CharField(max_length=64)  # sha256(seed), published at creation
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    head_seq = models.PositiveIntegerField(default=0)  # last appended seq: the CAS column
    head_hash = models.CharField(max_length=64, blank=True)
    # events of the ruleset's private kinds appended so far: the dice key counts the others
    private_events = models.PositiveIntegerField(default=0)
    active_roles = models.JSONField(default=list, blank=True)  # who is prompted now
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # --- deadlines (pbem.play.services.deadlines) ---
    turn_hours = models.PositiveIntegerField(default=default_turn_hours)  # 0 = no deadline
    missed_turn_policy = models.CharField(
        max_length=16, choices=MissedTurnPolicy.choices, default=MissedTurnPolicy.APPLY_DEFAULTS
    )
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)  # the sweep's index
    deadline_started_at = models.DateTimeField(null=True, blank=True)  # the clock's start
    deadline_budget_seconds = models.PositiveIntegerField(null=True, blank=True)  # present time
    deadline_roles = models.JSONField(default=list, blank=True)  # roles the clock runs for
    deadline_set_at_seq = models.PositiveIntegerField(null=True, blank=True)
    extended_once_at_seq = models.PositiveIntegerField(null=True, blank=True)
    reminder_sent_for_seq = models.PositiveIntegerField(null=True, blank=True)
    paused_remaining_seconds = models.PositiveIntegerField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.ruleset_id} {self.scenario} {self.id}"

    def all_seats_accepted(self) -> bool:
        """Is every seat taken by a user who accepted it? Until then the game has not started:
        no deadline clock runs (one query)."""
        waiting = Q(user__isnull=True) | Q(accepted_at__isnull=True)
        return not Seat.objects.filter(waiting, game_id=self.pk).exists()


class Seat(models.Model):
    """One role held by one user; an open seat has no user yet. A seat named for a user other
    than the game's creator is an *invitation* (`accepted_at` null) until that user accepts it;
    declining frees the seat (user null)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    role = models.CharField(max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    joined_at = models.DateTimeField(null=True, blank=True)  # seated (invited or joined)
    accepted_at = models.DateTimeField(null=True, blank=True)  # null: invited, not accepted yet
    substitute = models.ForeignKey(  # takes the seat over at a missed deadline (policy substitute)
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="substitute_seats",
    )

    class Meta:
        constraints = [
            # one seat per role, except the umpire's: a game may have several umpires (issue 17),
            # each a seat of the role `@umpire`, held by different users
            models.UniqueConstraint(
                fields=["game", "role"], condition=~Q(role=UMPIRE), name="seat_game_role_uniq"
            ),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(role=UMPIRE, user__isnull=False),
                name="seat_game_umpire_user_uniq",
            ),
        ]
        ordering = ["game_id", "role"]  # by the column: "game" would join Game for its ordering

    def __str__(self) -> str:
        return f"{self.role} in {self.game_id}"

    @property
    def pending(self) -> bool:
        """An invitation the named user has not accepted yet."""
        return self.user_id is not None and self.accepted_at is None


class Event(models.Model):
    """APPEND-ONLY: one applied action, its log lines with audiences, and the state hash after."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    role = models.CharField(max_length=60)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    payload = models.JSONField(default=dict, blank=True)
    log = models.JSONField(default=list, blank=True)
    state_hash = models.CharField(max_length=64)
    engine_version = models.PositiveIntegerField()
    turn_ended = models.BooleanField(default=False)
    source = models.CharField(max_length=12)  # api | web | email | worker | admin | system
    source_ref = models.CharField(max_length=120, blank=True)  # idempotency key / intake id
    rng_key = models.BigIntegerField(null=True, blank=True)  # the dice key; null: its seq
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq_uniq"),
            models.UniqueConstraint(
                fields=["game", "source_ref"],
                condition=~Q(source_ref=""),
                name="event_game_source_ref_uniq",
            ),
        ]
        # a role's numbering looks up the game's private-kind events (pbem.play.selectors)
        indexes = [models.Index(fields=["game", "kind"], name="event_game_kind_idx")]
        ordering = ["game_id", "seq"]  # by the column: "game" would join Game for its ordering

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("events are append-only: an event is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("events are append-only: an event is never deleted")


class Snapshot(models.Model):
    """A cache of the engine state after event `seq`; deletable and rebuildable."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    engine_version = models.PositiveIntegerField()
    state = models.JSONField()
    state_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seq", "engine_version"], name="snapshot_game_seq_version_uniq"
            )
        ]

    def __str__(self) -> str:
        return f"snapshot {self.game_id}@{self.seq}"


class HeadState(models.Model):
    """The engine state after the game's newest event: a cache written in the same transaction
    as that event, so web and workers read the head with one query instead of the newest
    snapshot plus a replay. Used only when its seq is the head the reader asks for."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True)
    seq = models.PositiveIntegerField()
    engine_version = models.PositiveIntegerField()
    state = JSONTextField()  # a cache never queried into: text, orjson (pbem.play.json_text)
    state_hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"head state {self.game_id}@{self.seq}"


class OrderIntake(models.Model):
    """Every submission (API, web, email) with its outcome; the worker applies it exactly once."""

    class Status(models.TextChoices):
        RECEIVED = "received"  # stored, pre-checked, waiting for the worker
        APPLIED = "applied"  # appended as an event
        REJECTED = "rejected"  # illegal when submitted (4xx) or when the worker tried it

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="intakes")
    role = models.CharField(max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="intakes"
    )
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict, blank=True)
    source = models.CharField(max_length=12)
    idempotency_key = models.CharField(max_length=120, blank=True)
    # sha256 of the request (role, kind, payload) sent with the Idempotency-Key: a retry with the
    # same key but another body is refused
    request_hash = models.CharField(max_length=64, blank=True, default="")
    head_seq = models.PositiveIntegerField()  # the head it was pre-checked at
    # the engine version whose `validate` accepted it at head_seq: while the game is still at
    # that head, the worker need not validate it again (null: validate)
    checked_engine_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED)
    errors = models.JSONField(default=list, blank=True)
    # why it was refused when submitted, so a retry with the same Idempotency-Key gets the same
    # answer: "not_your_turn" (409) or "illegal" (422); empty otherwise (a worker's refusal too)
    refusal = models.CharField(max_length=20, blank=True, default="")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # when the recovery last sent it again because no worker had taken it (pbem.play.recovery)
    resent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="intake_user_key_uniq",
            )
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="intake_status_idx")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"intake {self.id} {self.kind} {self.status}"


class PauseRequest(models.Model):
    """One seated user's agreement to pause a game; the game pauses when every seat agrees."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pause_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="pause_request_game_user_uniq")
        ]

    def __str__(self) -> str:
        return f"pause request by {self.user_id} in {self.game_id}"


class Absence(models.Model):
    """A declared absence: whole local days `starts_on`..`ends_on` (inclusive) in the user's time
    zone `tz`. While a prompted player is absent their deadline clock does not run."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    starts_on = models.DateField()
    ends_on = models.DateField()  # inclusive
    tz = models.CharField(max_length=64, default="UTC")  # an IANA zone name (zoneinfo)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "ends_on"], name="absence_user_ends_idx")]
        ordering = ["user", "starts_on"]

    def __str__(self) -> str:
        return f"absence of {self.user_id} {self.starts_on}..{self.ends_on} ({self.tz})"
