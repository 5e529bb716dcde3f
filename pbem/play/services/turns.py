"""Resolving a missed turn at its deadline, idempotently (architecture 8.6).

`turn_resolve(game_id, after_seq)` acts only if the game is active, still at `after_seq` and its
deadline has passed. It applies the game's missed-turn policy:

- `extend_once`: the first miss of a turn pushes the deadline by `turn_hours` (no event);
- `substitute`: a prompted seat with a substitute is handed over and a new clock starts (no event);
- otherwise (`apply_defaults`, a second miss, no substitute): the system action `.deadline`,
  which the engine resolves with its documented defaults, appended as event `after_seq + 1` with
  `source_ref=".deadline@<after_seq>"`. A duplicate or racing run appends nothing (compare-and-set
  on the head plus the unique source_ref).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games.core.protocol import DEADLINE_KIND, SYSTEM, Action
from pbem.play.models import Event, Game, MissedTurnPolicy, Seat
from pbem.play.services.absences import clock_for_roles
from pbem.play.services.commit import action_commit
from pbem.play.services.deadlines import clock_fields, deadline_on_event

logger = logging.getLogger(__name__)


class _Lost(Exception):
    """Another worker changed the game first: roll back and do nothing."""


def turn_resolve(*, game_id: UUID | str, after_seq: int) -> Event | None:
    """Apply the missed-turn policy of a game whose deadline has passed at head `after_seq`.
    Returns the `.deadline` event when one was appended, else None."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.head_seq != after_seq:
        return None  # unknown, paused, over, or overtaken by new events: nothing to do
    now = timezone.now()
    if game.deadline_at is None or game.deadline_at > now:
        return None  # not due (a duplicate message after an extension or handover)
    clock_key = game.deadline_set_at_seq if game.deadline_set_at_seq is not None else after_seq
    policy = game.missed_turn_policy
    if policy == MissedTurnPolicy.EXTEND_ONCE and game.extended_once_at_seq != clock_key:
        _extend(game, after_seq, clock_key, reason="first miss of this turn (extend_once)")
        return None
    if policy == MissedTurnPolicy.SUBSTITUTE and _hand_over(game, after_seq, now):
        return None
    commit = action_commit(
        game=game,
        action=Action(SYSTEM, DEADLINE_KIND, {}),
        source="worker",
        source_ref=f".deadline@{after_seq}",
        at_seq=after_seq,
    )
    if commit.rejections:
        # e.g. Napoleon's Triumph set-up (NT-19) has no default: the clock runs again, so the
        # player is reminded each turn_hours, and the sweep does not retry every minute.
        logger.warning(
            "game %s at %s: the engine has no default (%s); deadline extended",
            game.pk,
            after_seq,
            "; ".join(f"{r.rule}: {r.message}" for r in commit.rejections),
        )
        _extend(game, after_seq, game.extended_once_at_seq, reason="no engine default")
        return None
    if commit.event is None or commit.existed:
        return None  # another worker won; it appended the same event
    deadline_on_event(game=game, event=commit.event)  # a no-op if event_append already did it
    return commit.event


def _extend(game: Game, after_seq: int, extended_key: int | None, *, reason: str) -> None:
    """Push the deadline by turn_hours of present time (conditional: one run extends)."""
    extra = timedelta(hours=max(game.turn_hours, 1))
    assert game.deadline_at is not None
    fields: dict[str, object]
    if game.deadline_started_at is not None and game.deadline_budget_seconds is not None:
        budget = timedelta(seconds=game.deadline_budget_seconds) + extra
        roles = list(game.deadline_roles or game.active_roles or [])
        fields = {
            "deadline_at": clock_for_roles(game, game.deadline_started_at, budget, roles),
            "deadline_budget_seconds": int(budget.total_seconds()),
        }
    else:
        fields = {"deadline_at": game.deadline_at + extra}
    deadline = fields["deadline_at"]
    assert isinstance(deadline, datetime)
    if deadline <= timezone.now():  # the clock stood still too long: give a whole turn from now
        fields = clock_fields(
            game,
            start=timezone.now(),
            budget=extra,
            roles=list(game.active_roles or []),
        )
    fields["extended_once_at_seq"] = extended_key
    fields["reminder_sent_for_seq"] = None
    changed = Game.objects.filter(
        pk=game.pk, head_seq=after_seq, deadline_at=game.deadline_at
    ).update(**fields)
    if changed == 1:
        logger.info("game %s at %s: deadline extended (%s)", game.pk, after_seq, reason)


def _hand_over(game: Game, after_seq: int, now: datetime) -> bool:
    """Hand each prompted seat that has a usable substitute to that substitute and start a new
    clock. False when no prompted seat has one (the caller applies the defaults)."""
    roles = list(game.active_roles or [])
    seated = set(
        Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
    )
    seats = [
        s
        for s in Seat.objects.filter(game=game, role__in=roles, substitute__isnull=False)
        if s.substitute_id not in seated
    ]
    if not seats:
        return False
    try:
        with transaction.atomic():
            for seat in seats:
                moved = Seat.objects.filter(
                    pk=seat.pk, user=seat.user, substitute_id=seat.substitute_id
                ).update(user_id=seat.substitute_id, substitute=None, joined_at=now)
                if moved != 1:
                    raise _Lost
            fields = clock_fields(
                game, start=now, budget=timedelta(hours=max(game.turn_hours, 1)), roles=roles
            )
            changed = Game.objects.filter(
                pk=game.pk, head_seq=after_seq, deadline_at=game.deadline_at
            ).update(**fields)
            if changed != 1:
                raise _Lost
    except _Lost:
        return True  # another worker handled this miss
    for seat in seats:
        logger.info(
            "game %s: seat %s handed from user %s to substitute %s at a missed deadline",
            game.pk,
            seat.role,
            seat.user_id,
            seat.substitute_id,
        )
    return True
