"""The game page, its live part (polled by htmx, 304 while unchanged), orders and pauses.

Every page is drawn by `pbem.web.seat_page` from the reader's seat only. A private game is 403
to a non-member, an unknown one 404, as in the API. An order goes through the one order path;
a refusal shows its rule ids in `#order-errors` (with the status the API would answer), an
accepted order leads back to the page (303), or, asked by htmx, answers the new live part."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from pbem.play.errors import ReadForbidden, ServiceError
from pbem.play.models import Game
from pbem.play.selectors import game_find, may_act, numbering_for, roles_of
from pbem.play.services.pause import pause_request, pause_resume, pause_withdraw
from pbem.web.etags import etag_matches, live_etag
from pbem.web.language import localized
from pbem.web.order_entry import Outcome, Problem, submit_form
from pbem.web.seat_page import page_role, seat_page

ROLE_MAX = 60


def _game(game_id: uuid.UUID) -> Game:
    game = game_find(game_id)
    if game is None:
        raise Http404(_("No such game."))
    return game


def _requested_role(request: HttpRequest) -> str | None:
    role = request.GET.get("role") or request.POST.get("role") or None
    return role[:ROLE_MAX] if role else None


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "web/forbidden.html", {"message": message}, status=403)


def _page_context(request: HttpRequest, game: Game, role: str, **extra: Any) -> dict[str, Any]:
    context = seat_page(game, request.user, role).as_context()
    context.update(extra)
    field_errors: dict[str, list[str]] = {}
    for problem in extra.get("problems", []):
        if problem.field:
            field_errors.setdefault(problem.field, []).append(problem.message)
    context["field_errors"] = field_errors
    return context


def _outcome_message(game: Game, role: str, outcome: Outcome) -> str:
    numbering = numbering_for(game, [role])
    numbers = ", ".join(str(numbering.role_seq(s)) for s in outcome.applied)
    if outcome.applied:
        return ngettext(
            "Your order is applied (event %(events)s).",
            "Your orders are applied (events %(events)s).",
            len(outcome.applied),
        ) % {"events": numbers}
    return _("Your order is accepted and will be applied in a moment.")


def _reader(request: HttpRequest, game_id: uuid.UUID) -> tuple[Game, str, str] | HttpResponse:
    """The game, the role whose page this reader sees and its live tag; or the refusal."""
    game = _game(game_id)
    try:
        role = page_role(game, request.user, _requested_role(request))
    except (ReadForbidden, ServiceError) as e:
        return _forbidden(request, e.message)
    user = request.user
    mine = roles_of(game, user) if isinstance(user, User) else []
    return game, role, live_etag(game, role, mine, user.pk if isinstance(user, User) else None)


@localized
@require_GET
def game_page(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    reader = _reader(request, game_id)
    if isinstance(reader, HttpResponse):
        return reader
    game, role, etag = reader
    return render(request, "web/game.html", _page_context(request, game, role, etag=etag))


@localized
@require_GET
def game_fragment(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The live part of the page; 304 while the reader's tag is current (checked before any
    view is computed)."""
    reader = _reader(request, game_id)
    if isinstance(reader, HttpResponse):
        return reader
    game, role, etag = reader
    headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Cookie"}
    if etag_matches(request, etag):
        return HttpResponse(status=304, headers=headers)
    response = render(request, "web/_live.html", _page_context(request, game, role))
    for key, value in headers.items():
        response[key] = value
    return response


@localized
@login_required
@require_POST
def game_order(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """One order (the form, or text in the engine's notation) for one of the reader's seats."""
    user = request.user
    assert isinstance(user, User)
    game = _game(game_id)
    mine = roles_of(game, user)
    requested = _requested_role(request)
    role = requested or (mine[0] if len(mine) == 1 else "")
    try:  # the page shown with the answer: the seat acting, else what this reader may see
        shown = page_role(game, user, role if role in mine else None)
    except (ReadForbidden, ServiceError) as e:
        return _forbidden(request, e.message)
    data = {k: str(v) for k, v in request.POST.items()}
    if not role:
        outcome = Outcome([], 0, [Problem("role", _("Say which of your seats acts."))], 400)
    else:
        head = game_find(game.pk, head=True) or game  # the order path reads the head loaded here
        forms = seat_page(head, user, role).forms if role in mine else []
        outcome = submit_form(head, user, role, forms, data)
    game = _game(game_id)  # as it stands now
    htmx = bool(getattr(request, "htmx", False))
    if outcome.problems:
        context = _page_context(request, game, shown, problems=outcome.problems, submitted=data)
        if htmx:  # htmx swaps only 2xx answers: the refusal shows in the live part
            return render(request, "web/_live.html", context)
        return render(request, "web/game.html", context, status=outcome.status)
    note = _outcome_message(game, role, outcome)
    if htmx:
        return render(request, "web/_live.html", _page_context(request, game, shown, notice=note))
    messages.success(request, note)
    url = reverse("web:game", args=[game.pk])
    query = "?" + urlencode({"role": role}) if len(mine) > 1 else ""
    return HttpResponseRedirect(url + query, status=303)


PAUSE_ACTIONS = {"request", "withdraw", "resume"}


@localized
@login_required
@require_POST
def game_pause(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Ask for a pause (it starts when every seated player asked), withdraw the request, or
    resume (pbem.play.services.pause): only the game's seated players."""
    user = request.user
    assert isinstance(user, User)
    game = _game(game_id)
    action = request.POST.get("action", "")
    try:
        may_act(game, user)
        if action not in PAUSE_ACTIONS:
            raise ServiceError(_("Unknown action."))
        if action == "request":
            paused = pause_request(game=game, user=user)
            messages.success(
                request, _("The game is paused.") if paused else _("You asked for a pause.")
            )
        elif action == "withdraw":
            pause_withdraw(game=game, user=user)
            messages.success(request, _("You withdrew your request to pause."))
        else:
            pause_resume(game=game, user=user)
            messages.success(request, _("The game runs again."))
    except ReadForbidden as e:
        return _forbidden(request, e.message)
    except ServiceError as e:
        messages.error(request, e.message)
    return HttpResponseRedirect(reverse("web:game", args=[game.pk]), status=303)
