"""Pausing a game: when every seated player has asked, the clock stops and keeps the present time
left; any seated player resumes it, and the clock restarts with that time."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from pbem.play.errors import (
    GAME_IS,
    GameNotActive,
    NotYourSeat,
    ServiceError,
    game_status_word,
    say,
)
from pbem.play.models import Game, PauseRequest, Seat
from pbem.play.services.deadlines import NO_CLOCK, clock_fields, clock_remaining


class GameNotPaused(ServiceError):
    status = 409
    code = "game_not_paused"


def _seated_user_ids(game: Game) -> set[int]:
    return {
        uid
        for uid in Seat.objects.filter(game=game, user__isnull=False).values_list(
            "user_id", flat=True
        )
        if uid is not None
    }


def pause_request(*, game: Game, user: User) -> bool:
    """Ask to pause the game. When every seated user has asked, the game is paused: its clock
    stops and the present time left is kept. Returns True when the game is now paused."""
    seated = _seated_user_ids(game)
    if user.pk not in seated:
        raise NotYourSeat(gettext_lazy("only a seated player can ask for a pause"))
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(say(GAME_IS, status=game_status_word(game.status)))
    try:
        with transaction.atomic():
            PauseRequest.objects.get_or_create(game=game, user=user)
    except IntegrityError:
        pass  # the same user asked twice at once: one request
    agreed = set(PauseRequest.objects.filter(game=game).values_list("user_id", flat=True))
    if not seated <= agreed:
        return False
    now = timezone.now()
    left = clock_remaining(game, now)
    with transaction.atomic():
        paused = Game.objects.filter(
            pk=game.pk, status=Game.Status.ACTIVE, head_seq=game.head_seq
        ).update(
            status=Game.Status.PAUSED,
            paused_at=now,
            paused_remaining_seconds=None if left is None else int(left.total_seconds()),
            deadline_at=None,
        )
        if paused == 1:
            PauseRequest.objects.filter(game=game).delete()
    game.refresh_from_db()
    return game.status == Game.Status.PAUSED


def pause_withdraw(*, game: Game, user: User) -> None:
    """Withdraw your request to pause (before everyone has agreed)."""
    PauseRequest.objects.filter(game=game, user=user).delete()


def pause_resume(*, game: Game, user: User) -> Game:
    """Any seated player resumes a paused game; the clock restarts with the time that was left."""
    if user.pk not in _seated_user_ids(game):
        raise NotYourSeat(gettext_lazy("only a seated player can resume the game"))
    game.refresh_from_db()
    if game.status != Game.Status.PAUSED:
        not_paused = gettext_lazy("the game is {status}, not paused")
        raise GameNotPaused(say(not_paused, status=game_status_word(game.status)))
    now = timezone.now()
    roles = sorted(str(r) for r in game.active_roles or [])
    fields: dict[str, object] = {
        "status": Game.Status.ACTIVE,
        "paused_at": None,
        "paused_remaining_seconds": None,
    }
    if game.turn_hours > 0 and roles and game.all_seats_accepted():
        left = game.paused_remaining_seconds
        budget = timedelta(hours=game.turn_hours) if left is None else timedelta(seconds=left)
        fields.update(clock_fields(game, start=now, budget=budget, roles=roles))
    else:
        fields.update(NO_CLOCK)
    Game.objects.filter(pk=game.pk, status=Game.Status.PAUSED).update(**fields)
    game.refresh_from_db()
    return game
