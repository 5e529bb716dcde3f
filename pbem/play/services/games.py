"""Creating games and taking seats."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.core.canonical import state_hash
from games.core.protocol import JSON, GameConfig
from games.core.rng import Rng
from pbem.play.errors import GameNotActive, SeatTaken, ServiceError
from pbem.play.models import Event, Game, Seat, Snapshot
from pbem.play.rulesets import UnknownRuleset, ruleset_get
from pbem.play.services.deadlines import deadline_start
from pbem.play.services.log import head_state_put


class BadGameRequest(ServiceError):
    status = 400
    code = "bad_game"


def game_create(
    *,
    ruleset_id: str,
    scenario: str,
    options: Mapping[str, JSON],
    seats: Mapping[str, User | None],
    creator: User | None,
    title: str = "",
    spectators: bool = True,
) -> Game:
    """Create a game: a secret seed with its published sha256 commitment, the seats, and event 1
    (`.setup`, whose payload is scenario and options, never the seed)."""
    try:
        ruleset = ruleset_get(ruleset_id)
    except UnknownRuleset as e:
        raise BadGameRequest(str(e)) from None
    if scenario not in ruleset.scenarios():
        raise BadGameRequest(
            f"unknown scenario {scenario!r}; {ruleset_id} has {ruleset.scenarios()}"
        )
    roles = [r.id for r in ruleset.roles(scenario, options)]
    unknown = sorted(set(seats) - set(roles))
    if unknown:
        raise BadGameRequest(f"unknown roles {unknown}; this game has {roles}")
    seed = secrets.token_bytes(32)
    game = Game(
        ruleset_id=ruleset_id,
        ruleset_version=ruleset.version,
        scenario=scenario,
        options=dict(options),
        title=title,
        spectators=spectators,
        seed=seed,
        seed_commitment=hashlib.sha256(seed).hexdigest(),
        created_by=creator if creator is not None and creator.pk else None,
    )
    try:
        config = GameConfig(scenario, dict(options), tuple(sorted(roles)))
        state = ruleset.setup(config, Rng.for_event(seed, 1))
    except Exception as e:  # an engine refusing its options is a 400, not a 500
        rejection = getattr(e, "rejection", None)
        message = getattr(rejection, "message", None) or str(e)
        raise BadGameRequest(f"the game cannot be set up: {message}") from None
    dumped = ruleset.dump(state)
    digest = state_hash(dumped)
    with transaction.atomic():
        game.head_seq = 1
        game.head_hash = digest
        game.active_roles = sorted(ruleset.prompts(state))
        game.save()
        now = timezone.now()
        for role in roles:
            user = seats.get(role)
            Seat.objects.create(game=game, role=role, user=user, joined_at=now if user else None)
        Event.objects.create(
            game=game,
            seq=1,
            kind=".setup",
            role="@system",
            actor=creator if creator is not None and creator.pk else None,
            payload={"scenario": scenario, "options": dict(options)},
            log=[{"text": f"{ruleset.title}: {scenario} set up.", "audience": None, "data": None}],
            state_hash=digest,
            engine_version=ruleset.version,
            turn_ended=True,
            source="system",
        )
        Snapshot.objects.create(
            game=game, seq=1, engine_version=ruleset.version, state=dumped, state_hash=digest
        )
        head_state_put(game, 1, ruleset.version, dumped, digest)
    deadline_start(game=game)
    return game


def seat_join(*, game: Game, role: str, user: User) -> Seat:
    """Take an open seat (conditional update: two joiners cannot both get it)."""
    if game.status == Game.Status.FINISHED:
        raise GameNotActive("the game is over")
    taken = Seat.objects.filter(game=game, role=role, user__isnull=True).update(
        user=user, joined_at=timezone.now()
    )
    if taken != 1:
        if not Seat.objects.filter(game=game, role=role).exists():
            raise BadGameRequest(f"this game has no role {role!r}")
        raise SeatTaken(f"the seat {role!r} is already taken")
    return Seat.objects.get(game=game, role=role)
