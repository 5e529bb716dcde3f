"""Test helpers for umpired games on the server: a Napoleon's Triumph game with an umpire seat,
and an action submitted and applied (the worker's half run at once when it waits)."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.core.protocol import JSON
from games.core.umpire import UMPIRE
from pbem.play.models import Game, OrderIntake
from pbem.play.services.games import game_create
from pbem.play.services.orders import order_apply, order_submit


def umpired_game(allied: User, french: User | None, umpire: User, **extra: object) -> Game:
    """DEC2 on the small board, the seats accepted, `umpire` in the seat `@umpire`."""
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": allied, "french": french, UMPIRE: umpire},
        creator=allied,
        accepted=True,
        **extra,  # type: ignore[arg-type]
    )


def submit_applied(game: Game, user: User, role: str, kind: str, payload: JSON) -> OrderIntake:
    """Submit one action as `user` for `role`; apply it if it waits for a worker; the intake as
    it ends (the game refreshed). The order service's refusals propagate."""
    intake = order_submit(game=game, user=user, role=role, kind=kind, payload=payload, source="api")
    if intake.status == OrderIntake.Status.RECEIVED:
        order_apply(intake_id=intake.pk)
        intake.refresh_from_db()
    game.refresh_from_db()
    return intake
