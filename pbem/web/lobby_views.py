"""The lobby: my games (those waiting for me first, with whose turn it is and the deadline in
my time zone), invitations to answer, open games to join, and creating a game from what the
ruleset declares. "/" asked for JSON only (`Accept: application/json`) still answers the list
of rulesets, as it did before there were pages."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core.protocol import JSON
from games.core.umpire import UMPIRE
from pbem.play.errors import ServiceError
from pbem.play.models import Game
from pbem.play.rulesets import UnknownRuleset, enabled, ruleset_get
from pbem.play.selectors import can_read_game, game_find, games_for, roles_of, umpire_queue
from pbem.play.services.games import (
    MAX_UMPIRES,
    game_create,
    seat_accept,
    seat_decline,
    seat_join,
)
from pbem.web.language import localized
from pbem.web.options import (
    OPTIONS_JSON,
    option_fields,
    options_from,
    setup_problem,
)
from pbem.web.options import (
    PREFIX as OPTION_PREFIX,
)
from pbem.web.saved_scenarios import SavedScenario, saved_choices, saved_scenario
from pbem.web.schema_fields import FieldError
from pbem.web.seat_page import role_names

TITLE_MAX = 120


@dataclass(frozen=True, slots=True)
class LobbyRow:
    game: Game
    title: str
    ruleset_title: str
    my_roles: list[str]  # role names
    waiting_for_me: bool
    whose_turn: list[str]  # names of the prompted roles
    deadline: datetime | None
    open_roles: list[tuple[str, str]]  # (role id, name)
    pending: list[tuple[str, str]]  # my invitations in this game: (role id, name)


def _ruleset_title(ruleset_id: str) -> str:
    try:
        return str(ruleset_get(ruleset_id).title)
    except UnknownRuleset:
        return ruleset_id


def lobby_row(game: Game, user: User) -> LobbyRow:
    names = role_names(game)
    seats = list(game.seats.all())
    readable = can_read_game(game, user)
    active = game.status == Game.Status.ACTIVE
    accepted = [s.role for s in seats if s.user_id == user.pk and not s.pending]
    prompted = [str(r) for r in game.active_roles] if readable and active else []
    return LobbyRow(
        game=game,
        title=game.title or _ruleset_title(game.ruleset_id),
        ruleset_title=_ruleset_title(game.ruleset_id),
        my_roles=[names.get(r, r) for r in roles_of(game, user)],
        waiting_for_me=any(r in prompted for r in accepted),
        whose_turn=[names.get(r, r) for r in prompted],
        deadline=game.deadline_at if readable and active else None,
        open_roles=[(s.role, names.get(s.role, s.role)) for s in seats if s.user_id is None],
        pending=[
            (s.role, names.get(s.role, s.role)) for s in seats if s.user_id == user.pk and s.pending
        ],
    )


def lobby_rows(user: User) -> tuple[list[LobbyRow], list[LobbyRow]]:
    """(my games, waiting for me first, then newest first; open games I may join)."""
    mine: list[LobbyRow] = []
    open_games: list[LobbyRow] = []
    for game in games_for(user, open_seats=True):  # newest first
        row = lobby_row(game, user)
        (mine if row.my_roles or game.created_by_id == user.pk else open_games).append(row)
    mine.sort(key=lambda r: not r.waiting_for_me)  # stable: newest first within each group
    return mine, [r for r in open_games if r.open_roles]


def wants_json(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


@localized
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    if wants_json(request):  # the machine-readable index "/" answered before the pages
        return JsonResponse({"rulesets": enabled()})
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        return render(request, "web/welcome.html")
    mine, open_games = lobby_rows(user)
    rulings = [lobby_row(g, user) for g in umpire_queue(user)]  # the umpire's queue (issue 17)
    return render(
        request, "web/lobby.html", {"mine": mine, "open_games": open_games, "rulings": rulings}
    )


# --- creating a game ------------------------------------------------------------------------


def _pick(value: str, allowed: list[str]) -> str:
    return value if value in allowed else allowed[0]


def create_context(
    data: dict[str, str], errors: dict[str, list[str]], user: User | None = None
) -> dict[str, Any]:
    """The create page's fields. The scenarios are the ruleset's own, then the saved scenarios
    `user` may play (`saved:<id>`, pbem.web.saved_scenarios), whose document `saved` holds."""
    rulesets = enabled()
    ruleset_id = _pick(data.get("ruleset", ""), rulesets)
    ruleset = ruleset_get(ruleset_id)
    scenarios = [(str(s), str(s)) for s in ruleset.scenarios()]
    scenarios += [
        (v, _("%(title)s (saved)") % {"title": t}) for v, t in saved_choices(user, ruleset_id)
    ]
    scenario = _pick(data.get("scenario", ""), [v for v, _label in scenarios])
    saved = saved_scenario(user, ruleset_id, scenario)
    try:
        if saved is not None:
            roles = [(r.id, r.name) for r in ruleset.roles(saved.scenario, saved.options())]
        else:
            roles = [(r.id, r.name) for r in ruleset.roles(scenario, {})]
    except ValueError:
        roles = []
    return {
        "rulesets": [(r, _ruleset_title(r)) for r in rulesets],
        "ruleset": ruleset_id,
        "scenarios": scenarios,
        "scenario": scenario,
        "saved": saved,
        "roles": roles,
        "option_fields": option_fields(ruleset),
        "data": data,
        "errors": errors,
        "general_errors": errors.get("", []),
        "options_json": OPTIONS_JSON,
        "umpire_role": UMPIRE,
        "umpire_counts": list(range(MAX_UMPIRES + 1)),
    }


def _umpire_count(data: dict[str, str], seat: str, errors: dict[str, list[str]]) -> int:
    """The number of umpire seats asked for (0 to MAX_UMPIRES); at least 1 when the creator
    takes the umpire's seat."""
    try:
        n = int(data.get("umpires", "0") or "0")
    except ValueError:
        n = -1
    if not 0 <= n <= MAX_UMPIRES:
        between = _("Between 0 and %(n)d.") % {"n": MAX_UMPIRES}
        errors.setdefault("umpires", []).append(between)
        return 0
    return max(n, 1) if seat == UMPIRE else n


def _create(request: HttpRequest, user: User, data: dict[str, str]) -> HttpResponse:
    errors: dict[str, list[str]] = {}
    context = create_context(data, errors, user)
    ruleset = ruleset_get(context["ruleset"])
    if data.get("ruleset") != context["ruleset"] or data.get("scenario") != context["scenario"]:
        errors.setdefault("scenario", []).append(_("Choose a ruleset and a scenario."))
    title = data.get("title", "").strip()
    if len(title) > TITLE_MAX:
        errors.setdefault("title", []).append(_("At most %(n)d characters.") % {"n": TITLE_MAX})
    options: dict[str, JSON] = {}
    try:
        options = options_from(context["option_fields"], data)
    except FieldError as e:
        errors.setdefault(e.name, []).append(e.message)
    saved: SavedScenario | None = context["saved"]
    scenario = context["scenario"] if saved is None else saved.scenario
    if saved is not None:
        options.update(saved.options())
    if not errors:
        problem = setup_problem(ruleset, scenario, options)
        if problem is not None:
            field, message = problem
            known = {f.name for f in context["option_fields"]} | {OPTIONS_JSON}
            if field not in known:  # an option without a field of its own: the JSON box
                field = OPTIONS_JSON if field.startswith(OPTION_PREFIX) else ""
            errors.setdefault(field, []).append(message)
    seat = data.get("seat", "")
    role_ids = [r for r, _name in context["roles"]]
    umpires = _umpire_count(data, seat, errors)
    if not errors:
        try:
            roles = [r.id for r in ruleset.roles(scenario, options)]
            seats: dict[str, User | None] = dict.fromkeys(roles)
            if umpires:  # open umpire seats (issue 17), the creator's own if chosen
                seats[UMPIRE] = None
            if seat:
                if seat not in seats:
                    raise FieldError("seat", _("This game has no such seat."))
                seats[seat] = user
            game = game_create(
                ruleset_id=context["ruleset"],
                scenario=scenario,
                options=options,
                seats=seats,
                creator=user,
                title=title,
                spectators=data.get("spectators") == "on",
                co_umpires=[None] * max(umpires - 1, 0),
            )
        except FieldError as e:
            errors.setdefault(e.name, []).append(e.message)
        except (ServiceError, ValueError) as e:
            errors.setdefault("", []).append(getattr(e, "message", str(e)))
        else:
            messages.success(request, _("The game is created."))
            return HttpResponseRedirect(reverse("web:game", args=[game.pk]))
    context = create_context(data, errors, user)
    context["role_ids"] = role_ids
    return render(request, "web/game_create.html", context, status=400)


@localized
@login_required
@require_http_methods(["GET", "POST"])
def game_create_view(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    if request.method == "POST":
        data = {k: str(v) for k, v in request.POST.items()}
        return _create(request, user, data)
    data = {k: str(v) for k, v in request.GET.items()}
    data.setdefault("spectators", "on")
    return render(request, "web/game_create.html", create_context(data, {}, user))


# --- seats ----------------------------------------------------------------------------------


def _game_or_404(game_id: uuid.UUID) -> Game:
    game = game_find(game_id)
    if game is None:
        raise Http404(_("No such game."))
    return game


SEAT_ACTIONS = {"join": seat_join, "accept": seat_accept, "decline": seat_decline}


@localized
@login_required
@require_POST
def seat_action(request: HttpRequest, game_id: uuid.UUID, role: str, action: str) -> HttpResponse:
    """Join an open seat, or accept or decline an invitation (pbem.play.services.games)."""
    user = request.user
    assert isinstance(user, User)
    game = _game_or_404(game_id)
    service = SEAT_ACTIONS.get(action)
    if service is None:
        raise Http404(_("No such action."))
    try:
        service(game=game, role=role[:60], user=user)
    except ServiceError as e:
        messages.error(request, e.message)
        return HttpResponseRedirect(reverse("web:lobby"))
    if action == "decline":
        messages.info(request, _("You declined the seat."))
        return HttpResponseRedirect(reverse("web:lobby"))
    messages.success(request, _("You hold the seat now."))
    return HttpResponseRedirect(reverse("web:game", args=[game.pk]))
