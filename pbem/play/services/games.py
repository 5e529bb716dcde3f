"""Creating games, invitations and taking seats (a seat is offered, never imposed).

A seat named at creation for a user other than the creator is an *invitation*: the user accepts
it (`seat_accept`) or declines it (`seat_decline`, which frees the seat and tells the creator).
The creator seating themself, and anyone joining an open seat, is accepted at once. A game
*starts* when every seat is taken and accepted (`game_start_if_ready`): only then does its
deadline clock run and the first player get "your turn". Without `hot_seat` one user holds at
most one seat of a game.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Collection, Mapping, Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.core.canonical import state_hash
from games.core.protocol import JSON, SCENARIO_DOCUMENT, GameConfig, SetupError
from games.core.rng import Rng
from games.core.umpire import UMPIRE
from pbem.play import hooks
from pbem.play.errors import GameNotActive, SeatTaken, ServiceError, engine_says, say
from pbem.play.models import Game, Seat
from pbem.play.rulesets import UnknownRuleset, enabled, ruleset_get
from pbem.play.services.deadlines import deadline_start
from pbem.play.services.log import setup_append

logger = logging.getLogger(__name__)
MAX_UMPIRES = 4  # umpire seats of one game (issue 17: "one or more umpires")


NOT_INVITED = gettext_lazy("you are not invited to the seat {role} of this game")


class BadGameRequest(ServiceError):
    status = 400
    code = "bad_game"


class OneSeatPerUser(ServiceError):
    """A user would hold two seats of a game created without `hot_seat`."""

    status = 409
    code = "one_seat_per_user"


class OneSeatPerUserAtCreate(OneSeatPerUser):
    status = 400


class NotInvited(ServiceError):
    status = 403
    code = "not_invited"


class AlreadyAccepted(ServiceError):
    status = 409
    code = "already_accepted"


def _one_seat_each(users: Collection[User | None], hot_seat: bool) -> None:
    """Without hot seat, no user may be named for two seats."""
    if hot_seat:
        return
    seen: set[int] = set()
    for user in users:
        if user is None:
            continue
        if user.pk in seen:
            twice = gettext_lazy(
                "{user} is named for several seats; one user holds at most one seat "
                'unless the game is created with "hot_seat": true'
            )
            raise OneSeatPerUserAtCreate(say(twice, user=user.username))
        seen.add(user.pk)


def _umpires_check(umpires: Sequence[User | None], players: Sequence[User | None]) -> None:
    """A game has at most MAX_UMPIRES umpire seats, each user holds at most one of them, and
    no umpire plays a seat of the game (UMP-5), even in a hot-seat game."""
    if len(umpires) > MAX_UMPIRES:
        too_many = gettext_lazy("a game has at most {n} umpires")
        raise BadGameRequest(say(too_many, n=MAX_UMPIRES))
    named = [u for u in umpires if u is not None]
    for i, umpire in enumerate(named):
        if any(u is not None and u.pk == umpire.pk for u in named[:i]):
            twice = gettext_lazy("{user} is named for two umpire seats")
            raise OneSeatPerUserAtCreate(say(twice, user=umpire.username))
        if any(u is not None and u.pk == umpire.pk for u in players):
            umpiring = gettext_lazy("{user} cannot umpire a game they play (UMP-5)")
            raise BadGameRequest(say(umpiring, user=umpire.username))


def _setup_refused(e: SetupError) -> BadGameRequest:
    """The engine's refusal of a scenario or options, naming its rule (e.g. NT-19)."""
    r = e.rejection
    said = engine_says(r.message)
    message = say("{rule} ({path}): {message}", rule=r.rule, path=r.path, message=said)
    cannot = gettext_lazy("the game cannot be set up: {reason}")
    return BadGameRequest(say(cannot, reason=message if r.rule else said))


def game_create(
    *,
    ruleset_id: str,
    scenario: str,
    options: Mapping[str, JSON],
    seats: Mapping[str, User | None],
    creator: User | None,
    title: str = "",
    spectators: bool = True,
    hot_seat: bool = False,
    accepted: bool = False,
    co_umpires: Sequence[User | None] = (),
) -> Game:
    """Create a game: a secret seed with its published sha256 commitment, the seats, and event 1
    (`.setup`, whose payload is scenario and options, never the seed).

    A seat named for a user other than `creator` is an invitation the user is told of at once,
    unless `accepted` (operators, the demo and tests seat users directly). Without `hot_seat` a
    user is named for at most one seat (400 `one_seat_per_user`). The game starts (its clock
    runs) once every seat is taken and accepted."""
    try:
        ruleset = ruleset_get(ruleset_id)
    except UnknownRuleset:  # pbem.play.rulesets words it so, in English
        no_such = gettext_lazy("unknown ruleset {ruleset}; this server offers {offered}")
        raise BadGameRequest(say(no_such, ruleset=repr(ruleset_id), offered=enabled())) from None
    # a scenario document in the options names its own scenario: the engine checks the two agree
    if scenario not in ruleset.scenarios() and SCENARIO_DOCUMENT not in options:
        unknown_scenario = gettext_lazy("unknown scenario {scenario}; {ruleset} has {scenarios}")
        raise BadGameRequest(
            say(
                unknown_scenario,
                scenario=repr(scenario),
                ruleset=ruleset_id,
                scenarios=ruleset.scenarios(),
            )
        )
    try:
        roles = [r.id for r in ruleset.roles(scenario, options)]
    except SetupError as e:
        raise _setup_refused(e) from None
    umpires = [*([seats[UMPIRE]] if UMPIRE in seats else []), *co_umpires]
    _umpires_check(umpires, [u for r, u in seats.items() if r != UMPIRE])
    _one_seat_each([u for r, u in seats.items() if r != UMPIRE], hot_seat)
    seed = secrets.token_bytes(32)
    game = Game(
        ruleset_id=ruleset_id,
        ruleset_version=ruleset.version,
        scenario=scenario,
        options=dict(options),
        title=title,
        spectators=spectators,
        hot_seat=hot_seat,
        seed=seed,
        seed_commitment=hashlib.sha256(seed).hexdigest(),
        created_by=creator if creator is not None and creator.pk else None,
    )
    try:
        config = GameConfig(scenario, dict(options), tuple(sorted(roles)))
        state = ruleset.setup(config, Rng.for_event(seed, 1))
    except SetupError as e:  # the engine refusing its scenario or options is a 400, not a 500
        raise _setup_refused(e) from None
    # after set-up, which names a refused option first; an umpire seat is every game's to have
    unknown = sorted(set(seats) - set(roles) - {UMPIRE})
    if unknown:
        unknown_roles = gettext_lazy("unknown roles {unknown}; this game has {roles}")
        raise BadGameRequest(say(unknown_roles, unknown=unknown, roles=roles))
    dumped = ruleset.dump(state)
    digest = state_hash(dumped)
    with transaction.atomic():
        game.head_seq = 1
        game.head_hash = digest
        game.active_roles = sorted(ruleset.prompts(state))
        game.save()
        now = timezone.now()
        invited: list[Seat] = []
        held = [(role, seats.get(role)) for role in roles] + [(UMPIRE, u) for u in umpires]
        for role, user in held:
            own = user is not None and creator is not None and user.pk == creator.pk
            seat = Seat.objects.create(
                game=game,
                role=role,
                user=user,
                joined_at=now if user else None,
                accepted_at=now if user is not None and (accepted or own) else None,
            )
            if seat.pending:
                invited.append(seat)
        setup_append(
            game=game,
            state=state,
            dumped=dumped,
            digest=digest,
            actor_id=creator.pk if creator is not None else None,
        )
        for seat in invited:
            hooks.announce(hooks.SEAT_INVITED, seat=seat)
    game_start_if_ready(game)
    return game


def game_start_if_ready(game: Game) -> bool:
    """Start the game once every seat is taken and accepted: its deadline clock starts (from
    now, with the game's current `turn_hours`) and the prompted players are told it is their
    turn. Idempotent; returns whether the game has started."""
    if not game.all_seats_accepted():
        return False
    deadline_start(game=game)
    hooks.announce(hooks.GAME_STARTED, game=game)
    return True


def _seat_of(game: Game, role: str, user: User | None = None) -> Seat:
    """The seat of `role`; of the umpire's seats (a game may have several), `user`'s own."""
    seats = Seat.objects.filter(game=game, role=role).select_related("user")
    seat = (seats.filter(user=user).first() if user is not None else None) or seats.first()
    if seat is None:
        raise BadGameRequest(say(gettext_lazy("this game has no role {role}"), role=repr(role)))
    return seat


def _lock(game: Game) -> None:
    """Serialise seat changes of one game (a row lock on PostgreSQL; SQLite locks the file)."""
    list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True))


def _check_one_seat(game: Game, user: User, role: str, seat: Seat | None = None) -> None:
    """`user` may take `seat` (or a seat of `role`) on top of the seats they hold or are offered:
    at most one umpire seat, never an umpire's and a player's (UMP-5), else one seat each unless
    the game is hot-seat."""
    umpiring = Seat.objects.filter(game=game, role=UMPIRE, user=user)
    if seat is not None:
        umpiring = umpiring.exclude(pk=seat.pk)
    if role == UMPIRE and umpiring.exists():
        raise OneSeatPerUser(gettext_lazy("you hold an umpire seat of this game already"))
    other = Seat.objects.filter(game=game, user=user).exclude(role=role).first()
    if other is not None and UMPIRE in (role, other.role):  # even in a hot-seat game
        umpire_too = gettext_lazy(
            "you hold the seat {role} in this game already; the umpire plays no seat (UMP-5)"
        )
        raise OneSeatPerUser(say(umpire_too, role=repr(other.role)))
    if game.hot_seat:
        return
    if other is not None:
        seated = gettext_lazy(
            "you hold the seat {role} in this game already; one user holds at most one "
            "seat of a game not created as hot seat"
        )
        raise OneSeatPerUser(say(seated, role=repr(other.role)))


def seat_join(*, game: Game, role: str, user: User) -> Seat:
    """Take an open seat, accepted at once (conditional update: two joiners cannot both get it).
    Without hot seat a user who holds (or is invited to) a seat of the game cannot join another
    (409 `one_seat_per_user`). The last seat taken starts the game."""
    if game.status == Game.Status.FINISHED:
        raise GameNotActive(gettext_lazy("the game is over"))
    with transaction.atomic():
        _lock(game)
        _check_one_seat(game, user, role)
        now = timezone.now()
        # one open seat of the role (the umpire's role may have several)
        open_seat = Seat.objects.filter(game=game, role=role, user__isnull=True).first()
        taken = 0
        if open_seat is not None:
            taken = Seat.objects.filter(pk=open_seat.pk, user__isnull=True).update(
                user=user, joined_at=now, accepted_at=now
            )
        if taken != 1:
            _seat_of(game, role)  # 400 for a role the game does not have
            raise SeatTaken(say(gettext_lazy("the seat {role} is already taken"), role=repr(role)))
    game_start_if_ready(game)
    return Seat.objects.get(game=game, role=role, user=user)


def seat_accept(*, game: Game, role: str, user: User) -> Seat:
    """The invited user accepts the seat (again: nothing changes). 403 `not_invited` for anyone
    else; the last acceptance starts the game."""
    if game.status == Game.Status.FINISHED:
        raise GameNotActive(gettext_lazy("the game is over"))
    with transaction.atomic():
        _lock(game)
        seat = _seat_of(game, role, user)
        if seat.user_id != user.pk:
            raise NotInvited(say(NOT_INVITED, role=repr(role)))
        if seat.accepted_at is None:
            _check_one_seat(game, user, role, seat)
            Seat.objects.filter(pk=seat.pk, user=user, accepted_at__isnull=True).update(
                accepted_at=timezone.now()
            )
    game_start_if_ready(game)
    return Seat.objects.select_related("user").get(pk=seat.pk)


def seat_decline(*, game: Game, role: str, user: User) -> Seat:
    """The invited user declines: the seat is open again (anyone may join it) and the game's
    creator is told. 403 `not_invited` for anyone else; 409 `already_accepted` once accepted."""
    with transaction.atomic():
        _lock(game)
        seat = _seat_of(game, role, user)
        if seat.user_id != user.pk:
            raise NotInvited(say(NOT_INVITED, role=repr(role)))
        if seat.accepted_at is not None:
            accepted = gettext_lazy(
                "you accepted the seat {role} already; an accepted seat cannot be declined"
            )
            raise AlreadyAccepted(say(accepted, role=repr(role)))
        Seat.objects.filter(pk=seat.pk, user=user, accepted_at__isnull=True).update(
            user=None, joined_at=None, substitute=None
        )
        seat.refresh_from_db()
        hooks.announce(hooks.INVITATION_DECLINED, seat=seat, invitee=user)
    return seat


def invitations_pending(user: User) -> QuerySet[Seat]:
    """The seats offered to `user` not yet accepted, in games that are not over; newest first."""
    return (
        Seat.objects.filter(user=user, accepted_at__isnull=True)
        .exclude(game__status=Game.Status.FINISHED)
        .select_related("game", "game__created_by")
        .order_by("-joined_at", "game_id", "role")
    )
