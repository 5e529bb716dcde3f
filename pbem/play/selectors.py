"""Who may read what: every read decision of the platform in one place.

Selectors read; they never write (writes are the services'). The API and the notifications ask
here, so a seat, a spectator and a stranger see the same thing over every channel:

- **reader role** (`reader_role`): the seat a caller reads a game as. A role they hold; their only
  role when they name none; `@observer` (the spectators' public view) when they hold no seat or
  ask for it, and only if the game admits spectators.
- **acting role** (`acting_role`): the seat an order is for. The one named (the order service
  refuses a seat the caller does not hold), else their only role, else their only prompted role.
- **private games** (`may_read_game`): a game created with `spectators` false shows its detail,
  view, log and verification only to its members (seat holders, invited users, the creator);
  its clock only to its seated players and its creator (`may_read_clock`).
- **log audience** (`line_readable`, `event_lines_for`): a stored log line is readable by `role`
  when its audience is null (everyone) or a list naming the role. The engine writes each hidden
  fact once per audience, so this filter is all the platform needs: no line is ever rewritten.
- **numbering** (`numbering_for`): which events a role may know exist, and the log's numbering
  as that role sees it. Some actions are a side's secret: the engine names their kinds
  (`Ruleset.private_kinds()`, in Napoleon's Triumph the standing instructions
  `set_defense_plan`). Whether and when a side filed one must not show anywhere another role
  looks: not as an event, not as a gap in the numbering, not in a count. So an event of a private
  kind is *visible* to its own role and to every role that receives one of its log lines (a
  standing instruction that at once answered an open decision has public lines: its effect is
  public, so is the event); to anyone else it does not exist. Every other event is visible to
  everyone who may read the game. A role's numbering (`role_seq`) counts only the events visible
  to it: event 1 is 1 for all, and a hidden event never leaves a gap. The API, emails and
  webhooks number events this way; the global `Event.seq` stays the log's own key and is never
  shown to a role that cannot see all.

A refusal is a ServiceError the API answers with a 4xx: `ReadForbidden` (403) or `InvalidField`
(400 naming the field).
"""

from __future__ import annotations

import uuid
from bisect import bisect_right
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch
from django.utils.translation import gettext_lazy

from games.core.protocol import JSON, OBSERVER, OMNISCIENT, SETUP_KIND, SYSTEM
from games.core.umpire import UMPIRE
from pbem.play.errors import NOT_YOUR_SEAT, SEVERAL_ROLES, InvalidField, ReadForbidden, say
from pbem.play.hot_sql import game_with_head
from pbem.play.models import Event, Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at

NO_SPECTATORS = gettext_lazy("this game admits no spectators and you hold no seat in it")
SEES_ALL = frozenset({OMNISCIENT, UMPIRE})  # roles that know every event and read every line

# --- games ---------------------------------------------------------------------------------------


def game_find(pk: uuid.UUID, *, head: bool = False) -> Game | None:
    """The game with this id, its seats and their users prefetched; with `head` (the order
    path), its head state joined in the same query and the seats without their users (the order
    path reads only roles, user ids and acceptance; read by SQL written once, pbem.play.hot_sql).
    None when there is none."""
    if head:
        return game_with_head(pk)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return next(iter(Game.objects.prefetch_related(seats).filter(pk=pk)[:1]), None)


def games_for(user: User, *, open_seats: bool = False) -> list[Game]:
    """The games in which `user` holds (or is offered) a seat, newest first; with `open_seats`,
    also the active games with a seat nobody holds."""
    games = Game.objects.prefetch_related("seats__user")
    found = {g.pk: g for g in games.filter(seats__user=user).distinct()}
    if open_seats:
        for g in games.filter(seats__user__isnull=True, status=Game.Status.ACTIVE).distinct():
            found.setdefault(g.pk, g)
    return sorted(found.values(), key=lambda g: g.created_at, reverse=True)


def umpire_queue(user: User) -> list[Game]:
    """The active games in which `user` holds the umpire seat (accepted) and the engine waits for
    the umpire (`@umpire` prompted), the nearest deadline first (games without one last)."""
    games = Game.objects.filter(
        seats__user=user,
        seats__role=UMPIRE,
        seats__accepted_at__isnull=False,
        status=Game.Status.ACTIVE,
    ).distinct()
    waiting = [g for g in games if UMPIRE in (g.active_roles or [])]
    return sorted(waiting, key=lambda g: (g.deadline_at is None, g.deadline_at or g.created_at))


# --- roles ---------------------------------------------------------------------------------------


def roles_of(game: Game, user: User) -> list[str]:
    """The roles `user` holds or is offered in `game`, sorted (from the prefetched seats)."""
    return sorted(s.role for s in game.seats.all() if s.user_id == user.pk)


def is_member(game: Game, user: User) -> bool:
    """Holds (or is invited to) a seat of the game, or created it."""
    return game.created_by_id == user.pk or any(s.user_id == user.pk for s in game.seats.all())


def can_read_game(game: Game, user: User) -> bool:
    """A game admitting spectators is readable by anyone; a private one by its members."""
    return game.spectators or is_member(game, user)


def may_read_game(game: Game, user: User) -> None:
    """403 (`ReadForbidden`) for a private game and a caller who is not a member."""
    if not can_read_game(game, user):
        raise ReadForbidden(NO_SPECTATORS)


def may_read_clock(game: Game, user: User) -> None:
    """The seated players and the creator (who sets the clock) may read it; others get 403."""
    seated = any(s.user_id == user.pk for s in game.seats.all())
    if not seated and game.created_by_id != user.pk:
        raise ReadForbidden(gettext_lazy("only the players of this game may read its deadline"))


def may_act(game: Game, user: User) -> None:
    """403 (`ReadForbidden`) for a caller who holds no seat of the game (a seat's own requests:
    orders, withdrawing a pause request)."""
    if not any(s.user_id == user.pk for s in game.seats.all()):
        raise ReadForbidden(gettext_lazy("you hold no seat in this game"))


def reader_role(game: Game, user: User, requested: str | None = None) -> str:
    """The role `user` reads `game` as: `requested` if they hold it (403 otherwise); when none is
    named, their only role (400 naming `role` when they hold several). `@observer` is open to
    anyone when the game admits spectators, and is what a caller without a seat gets."""
    mine = roles_of(game, user)
    if requested == OBSERVER or (not requested and not mine):
        if not game.spectators:
            raise ReadForbidden(NO_SPECTATORS)
        return OBSERVER
    if requested:
        if requested not in mine:
            raise ReadForbidden(say(NOT_YOUR_SEAT, role=repr(requested)))
        return requested
    if len(mine) > 1:
        raise InvalidField("role", say(SEVERAL_ROLES, roles=mine))
    return mine[0]


def reader_roles(game: Game, user: User) -> list[str]:
    """The roles whose numbering a caller sees where no role is named (a game's detail, its
    verification): their seats, or `@observer` when they hold none."""
    return roles_of(game, user) or [OBSERVER]


def reader_position(game: Game, user: User, requested: str | None = None) -> tuple[str, int]:
    """The role `user` reads `game` as, and how many events that role may know exist: the
    position an answer read as that role depends on (pbem.api.etags.seat_etag)."""
    role = reader_role(game, user, requested)
    return role, numbering_for(game, [role]).role_seq(game.head_seq)


def acting_role(game: Game, user: User, requested: str | None = None) -> str:
    """The role an order from `user` is for: the one named (the order service refuses a seat the
    caller does not hold, 403), else their only role, else the only one of their roles that is
    prompted now. 403 when they hold none; 400 naming `role` when it stays ambiguous."""
    if requested:
        return requested
    may_act(game, user)
    mine = roles_of(game, user)
    if len(mine) == 1:
        return mine[0]
    prompted = [r for r in mine if r in game.active_roles]
    if len(prompted) == 1:
        return prompted[0]
    raise InvalidField("role", say(SEVERAL_ROLES, roles=mine))


# --- the log -------------------------------------------------------------------------------------


def line_audience(entry: JSON) -> frozenset[str] | None:
    """The roles a stored log line is meant for; None for everyone. The one place that reads a
    line's `audience` (the engine writes null or a list of roles, `@omniscient` among them)."""
    audience = entry.get("audience") if isinstance(entry, dict) else []
    if audience is None:
        return None
    return frozenset(str(r) for r in audience) if isinstance(audience, list) else frozenset()


def line_readable(entry: JSON, role: str) -> bool:
    """May `role` read this stored log line? Its audience is null (everyone) or lists the role;
    the umpire reads every line (games.core.umpire)."""
    if not isinstance(entry, dict):
        return False
    audience = line_audience(entry)
    return audience is None or role in audience or role == UMPIRE


def event_readers(role: str, log: JSON) -> set[str]:
    """The roles that may know a private-kind event exists: its own role and every role named in
    an audience of its log lines (a line for everyone makes it public: {"*"})."""
    readers = {role}
    for entry in log if isinstance(log, list) else []:
        if not isinstance(entry, dict):
            continue
        audience = line_audience(entry)
        if audience is None:
            return {"*"}
        readers.update(r for r in audience if r != OMNISCIENT)
    return readers


def visible(readers: set[str], roles: Collection[str]) -> bool:
    """Is an event with these `readers` visible to a caller reading as `roles`? The omniscient
    role and the umpire see every event."""
    return "*" in readers or any(r in readers for r in roles) or bool(SEES_ALL & set(roles))


def private_kinds_of(game: Game) -> frozenset[str]:
    return frozenset(ruleset_get(game.ruleset_id).private_kinds())


@dataclass(frozen=True, slots=True)
class Numbering:
    """The log as a set of roles sees it: the global seqs hidden from them, sorted."""

    hidden: tuple[int, ...]

    def is_visible(self, seq: int) -> bool:
        i = bisect_right(self.hidden, seq)
        return not (i and self.hidden[i - 1] == seq)

    def role_seq(self, seq: int) -> int:
        """The number of events up to and including `seq` that these roles can see."""
        return seq - bisect_right(self.hidden, seq)

    def global_seq(self, role_seq: int) -> int:
        """The global seq of the `role_seq`-th visible event (0 -> 0)."""
        seq = role_seq
        for h in self.hidden:  # few: one per standing instruction filed
            if h <= seq:
                seq += 1
            else:
                break
        return seq


def numbering_for(game: Game, roles: Iterable[str]) -> Numbering:
    """One query (on the kind index of a game's events): the private-kind events hidden from
    `roles` (the caller's seats, or `@observer`)."""
    roles = set(roles)
    kinds = private_kinds_of(game)
    if not kinds or SEES_ALL & roles:
        return Numbering(())
    rows = Event.objects.filter(game=game, kind__in=kinds).values_list("seq", "role", "log")
    hidden = sorted(seq for seq, role, log in rows if not visible(event_readers(role, log), roles))
    return Numbering(tuple(hidden))


def log_lines_for(log: JSON, role: str) -> list[str]:
    """The texts of the stored log lines `role` may read, in log order."""
    lines: list[str] = []
    for entry in log if isinstance(log, list) else []:
        if isinstance(entry, dict) and line_readable(entry, role):
            lines.append(str(entry.get("text", "")))
    return lines


def event_lines_for(event: Event, role: str) -> list[str]:
    """The lines of one event's log `role` may read (the API's `lines`, a notification's log)."""
    return log_lines_for(event.log, role)


@dataclass(frozen=True, slots=True)
class EventRead:
    """One event as a reader sees it: numbered in their numbering, only their lines, the payload
    only when it is their own order or the platform's (set-up, system actions)."""

    seq: int
    kind: str
    role: str
    created_at: datetime
    lines: list[str]
    payload: JSON


def event_read(event: Event, role: str, mine: Iterable[str], numbering: Numbering) -> EventRead:
    """`event` as `role` reads it; `mine` are the caller's seats (whose orders they may read)."""
    public_payload = (
        event.kind == SETUP_KIND
        or event.role == SYSTEM
        or event.role in set(mine)
        or role == UMPIRE  # the umpire reads every seat's orders
    )
    return EventRead(
        seq=numbering.role_seq(event.seq),
        kind=event.kind,
        role=event.role,
        created_at=event.created_at,
        lines=event_lines_for(event, role),
        payload=event.payload if public_payload else None,
    )


def events_for(
    game: Game, user: User, requested: str | None = None, after: int = 0
) -> list[EventRead]:
    """The log after `after` as `user` reads it (as `reader_role(requested)`): `after` and every
    `seq` count only the events that role may know exist."""
    role = reader_role(game, user, requested)
    mine = roles_of(game, user)
    numbering = numbering_for(game, [role])
    # up to the head loaded with `game` only: an event appended since (a secret one, say) is
    # not in the numbering read above, so listing it could show what this role may not know
    events = Event.objects.filter(
        game=game, seq__gt=numbering.global_seq(after), seq__lte=game.head_seq
    ).order_by("seq")
    return [event_read(e, role, mine, numbering) for e in events if numbering.is_visible(e.seq)]


# --- the view ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game at its head as one role sees it: the engine's view, the role's prompt (text,
    kinds, the prompted actions) and every action it may take now (any-time ones too)."""

    role: str
    seq: int
    view: JSON
    prompt: dict[str, Any] | None
    actions: list[dict[str, JSON]]
    result: dict[str, JSON] | None = None  # the game's end (winners, summary): public, once over


def view_for(game: Game, user: User, requested: str | None = None) -> SeatView:
    """The head of `game` as `user` reads it (as `reader_role(requested)`)."""
    role = reader_role(game, user, requested)
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    prompt = ruleset.prompts(state).get(role)
    actions = [a.to_json() for a in ruleset.actions(state, role)]
    ended = ruleset.result(state) if game.status == Game.Status.FINISHED else None
    return SeatView(
        role=role,
        seq=numbering_for(game, [role]).role_seq(game.head_seq),
        view=ruleset.view(state, role),
        prompt=None
        if prompt is None
        else {
            "text": prompt.text,
            "kinds": {k: str(v) for k, v in prompt.kinds.items()},
            "actions": [a for a in actions if not a["any_time"]],
        },
        actions=actions,
        result=None
        if ended is None
        else {"winners": list[JSON](ended.winners), "summary": ended.summary},
    )


__all__ = [
    "EventRead",
    "Numbering",
    "SeatView",
    "acting_role",
    "can_read_game",
    "event_lines_for",
    "event_read",
    "event_readers",
    "events_for",
    "game_find",
    "games_for",
    "is_member",
    "line_audience",
    "line_readable",
    "log_lines_for",
    "may_act",
    "may_read_clock",
    "may_read_game",
    "numbering_for",
    "private_kinds_of",
    "reader_position",
    "reader_role",
    "reader_roles",
    "roles_of",
    "view_for",
    "visible",
]
