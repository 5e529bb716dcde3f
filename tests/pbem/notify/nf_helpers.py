"""Helpers for the notification tests: an NT game on the small board, random legal actions
appended through the real event log (the engine's apply, then `event_append`, which plans the
outbox rows in its transaction)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.contrib.auth.models import User

from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng
from pbem.notify.reply_address import seat_address
from pbem.play.models import Event, Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import event_append, rng_for, state_at

ALLIED_ID = re.compile(r"\bA\d{2}\b")  # internal Allied unit ids: A01..A44
FRENCH_ID = re.compile(r"\bF\d{2}\b")  # internal French unit ids: F01..


def user(name: str, email: str | None = None) -> User:
    u, _ = User.objects.get_or_create(
        username=name, defaults={"email": f"{name}@example.com" if email is None else email}
    )
    return u


def nt_game(allied: User | None, french: User | None, title: str = "notify test") -> Game:
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": allied, "french": french},
        creator=allied,
        title=title,
        accepted=True,
    )


def random_action(game: Game, state: object, rng: Rng) -> Action | None:
    ruleset = ruleset_get(game.ruleset_id)
    prompts = sorted(ruleset.prompts(state))
    if not prompts:
        return None
    role = rng.choice(prompts)
    return random_legal_action(ruleset, state, role, rng, tries=50)


def play(game: Game, actions: int, seed: int = 7, *, until_turn_ends: int = 0) -> list[Event]:
    """Append up to `actions` random legal actions (or stop once `until_turn_ends` turns have
    ended, or the game is over). Each goes through `event_append`, as the worker's does."""
    ruleset = ruleset_get(game.ruleset_id)
    rng = Rng(seed)
    game.refresh_from_db()
    state = state_at(game, game.head_seq, verify=False)
    events: list[Event] = []
    ended = 0
    while len(events) < actions:
        if until_turn_ends and ended >= until_turn_ends:
            break
        action = random_action(game, state, rng)
        if action is None:
            break
        game.refresh_from_db()  # event_append reads the prompted roles before from the game
        step = ruleset.apply(state, action, rng_for(game, game.head_seq + 1))
        event = event_append(
            game=game, after_seq=game.head_seq, action=action, step=step, source="api"
        )
        state = step.state
        events.append(event)
        ended += event.turn_ended
    game.refresh_from_db()
    return events


def reply_addresses_named(text: str, game_ids: Iterable[object]) -> str:
    """`text` with each seat's signed reply address of these games replaced by its role's name:
    twin games differ in their seats' pks and macs as in their ids, never by what is hidden."""
    for seat in Seat.objects.filter(game_id__in=list(game_ids)):
        address = seat_address(game_id=seat.game_id, role=seat.role, seat_pk=seat.pk)
        text = text.replace(address, f"<reply address of {seat.role}>")
    return text
