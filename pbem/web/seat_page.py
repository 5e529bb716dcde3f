"""What one reader's game page shows, computed ONLY from what their seat may see: the engine's
`view`, `report_text` and `actions` for the reader's role, and the log as `pbem.play.selectors`
lets that role read it (the API's lines and numbering). The full state is read once, handed to
those engine functions, and never reaches a template.

`page_role` picks the role: the one asked for (`?role=`, among the reader's seats or
`@observer`), else the reader's only seat, else their prompted seat, else their first; a
stranger reads as `@observer` when the game admits spectators (403 otherwise, as the API)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from games.core.protocol import JSON, OBSERVER
from pbem.play.errors import ReadForbidden
from pbem.play.models import Event, Game, PauseRequest
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import (
    NO_SPECTATORS,
    event_read,
    numbering_for,
    reader_role,
    roles_of,
)
from pbem.play.services.log import state_at
from pbem.web.board import board_svg
from pbem.web.order_entry import ActionForm, action_forms


def role_names(game: Game) -> dict[str, str]:
    """role id -> the ruleset's name for it (the role id when the ruleset cannot say)."""
    try:
        infos = ruleset_get(game.ruleset_id).roles(game.scenario, game.options)
    except (ValueError, LookupError):
        return {}
    return {r.id: r.name for r in infos}


def page_role(game: Game, user: User | AnonymousUser, requested: str | None = None) -> str:
    """The role this reader's page shows (see the module's docstring); ReadForbidden (403)."""
    if not isinstance(user, User):
        if requested not in (None, "", OBSERVER) or not game.spectators:
            raise ReadForbidden(NO_SPECTATORS)
        return OBSERVER
    mine = roles_of(game, user)
    if requested or len(mine) <= 1:
        return reader_role(game, user, requested or None)
    prompted = [r for r in mine if r in game.active_roles]
    return prompted[0] if prompted else mine[0]


@dataclass(frozen=True, slots=True)
class LogEvent:
    seq: int  # numbered as the reader's role sees the log
    kind: str
    role: str
    lines: list[str]


@dataclass(slots=True)
class LogTurn:
    number: int
    events: list[LogEvent] = field(default_factory=list)  # newest first


def log_turns(game: Game, role: str, mine: list[str]) -> list[LogTurn]:
    """The log up to the loaded head as `role` may read it, grouped by turn (a turn ends with
    an event the engine marked `turn_ended`), newest turn and newest event first."""
    numbering = numbering_for(game, [role])
    events = Event.objects.filter(game=game, seq__lte=game.head_seq).order_by("seq")
    turns = [LogTurn(1)]
    for event in events:
        if not numbering.is_visible(event.seq):
            continue  # another side's secret: not listed, not counted
        read = event_read(event, role, mine, numbering)
        turns[-1].events.append(LogEvent(read.seq, read.kind, read.role, read.lines))
        if event.turn_ended:
            turns.append(LogTurn(turns[-1].number + 1))
    for turn in turns:
        turn.events.reverse()
    return [t for t in reversed(turns) if t.events]


@dataclass(frozen=True, slots=True)
class SeatPage:
    game: Game
    role: str
    role_name: str
    my_roles: list[str]
    acting: bool  # the reader holds this seat (accepted) in an active game
    pending: bool  # the reader was invited to this seat and has not accepted yet
    report: str
    view_json: str  # the view as the API gives it, when the ruleset has no words for it
    board: str
    prompt_text: str
    prompt_kinds: list[tuple[str, str]]
    forms: list[ActionForm]
    log: list[LogTurn]
    position: int
    role_names: dict[str, str]
    waiting_for: list[str]  # the names of the prompted roles
    pause_asked: bool  # the reader asked for a pause
    result: str

    @property
    def finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED

    @property
    def default_kind(self) -> str:
        """The kind the order form offers first: the first prompted one."""
        return next((f.kind for f in self.forms if not f.any_time), "")

    def as_context(self) -> dict[str, Any]:
        return {"page": self, "game": self.game}


def seat_page(game: Game, user: User | AnonymousUser, role: str) -> SeatPage:
    """The page of `game` as `role` (already allowed by `page_role`) sees it at the loaded head."""
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    mine = roles_of(game, user) if isinstance(user, User) else []
    seat = next((s for s in game.seats.all() if s.role == role and s.role in mine), None)
    active = game.status == Game.Status.ACTIVE
    acting = seat is not None and not seat.pending and active
    view: JSON = ruleset.view(state, role)
    report = ruleset.report_text(state, role)
    prompt = ruleset.prompts(state).get(role) if acting else None
    specs = [a.to_json() for a in ruleset.actions(state, role)] if acting else []
    names = role_names(game)
    result = ruleset.result(state) if game.status == Game.Status.FINISHED else None
    asked = isinstance(user, User) and PauseRequest.objects.filter(game=game, user=user).exists()
    return SeatPage(
        game=game,
        role=role,
        role_name=names.get(role, _("spectator") if role == OBSERVER else role),
        my_roles=mine,
        acting=acting,
        pending=seat is not None and seat.pending,
        report=report,
        view_json="" if report else json.dumps(view, indent=2, sort_keys=True),
        board=board_svg(game.ruleset_id, view),
        prompt_text="" if prompt is None else prompt.text,
        prompt_kinds=[] if prompt is None else [(k, str(v)) for k, v in prompt.kinds.items()],
        forms=action_forms(specs),
        log=log_turns(game, role, mine),
        position=numbering_for(game, [role]).role_seq(game.head_seq),
        role_names=names,
        waiting_for=[names.get(str(r), str(r)) for r in game.active_roles] if active else [],
        pause_asked=asked,
        result="" if result is None else result.summary,
    )
