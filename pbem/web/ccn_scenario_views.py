"""The Commands & Colors: Napoleonics scenario pages under /ccn/scenarios/: my scenarios and the
shared ones, a new one from the example (digest 9), upload, the editor, download, delete.

The editor is one form that carries the whole YAML document: every edit (terrain of a hex, a unit
or leader placed or removed, the sides, the fixed deal; `pbem.web.ccn_scenario_edit`) is applied
by the server to the posted text and the page comes back with the board redrawn
(`board_svg.render`) and the engine loader's verdict, every problem as ``path: rule: message``.
Nothing is stored until "Save", and "Save" refuses an invalid document (no drafts): the stored
text is always one the loader accepts. Without JavaScript every edit is a form post; the script
only lets a click (or Enter) on a hex choose it and fills the fields from what stands there.

Privacy: a scenario is visible to its owner, and to every signed-in user when `shareable`; any
other gets 404, never 403, so a private scenario's existence does not show. Only the owner edits
and deletes (others, for a shared one: 403). Nothing from a request names a file.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q
from django.forms import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.commands_colors_napoleonics.board_svg import render as render_board
from games.commands_colors_napoleonics.hexes import DIRECTIONS
from pbem.web.ccn_scenario_edit import (
    EDITS,
    FROM_DOCUMENT,
    SIDES,
    EditRefused,
    Verdict,
    apply_edit,
    board_view,
    check_text,
    example_text,
    form_initial,
    hex_contents,
    read_document,
    title_of,
)
from pbem.web.ccn_scenario_forms import EditorForm, UploadForm
from pbem.web.language import localized
from pbem.web.models import CcnScenario

MAX_SCENARIOS_PER_USER = 100


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _visible(request: HttpRequest, pk: int) -> CcnScenario:
    """The scenario if the reader may see it (owner, or shareable), else 404."""
    found = (
        CcnScenario.objects.filter(pk=pk)
        .filter(Q(owner=_user(request)) | Q(shareable=True))
        .select_related("owner")
        .first()
    )
    if found is None:
        raise Http404(_("No such scenario."))
    return found


def _owned(request: HttpRequest, pk: int) -> CcnScenario | HttpResponse:
    """The scenario if the reader owns it; 404 when they may not see it, 403 when shared."""
    found = _visible(request, pk)
    if found.owner_id != _user(request).pk:
        message = _("Only the owner may change or delete this scenario.")
        return render(request, "web/forbidden.html", {"message": message}, status=403)
    return found


def _too_many(request: HttpRequest) -> bool:
    return CcnScenario.objects.filter(owner=_user(request)).count() >= MAX_SCENARIOS_PER_USER


def _refuse_too_many(request: HttpRequest) -> HttpResponse:
    messages.error(
        request,
        _("You have %(n)s scenarios, the most allowed; delete one first.")
        % {"n": MAX_SCENARIOS_PER_USER},
    )
    return redirect("web:ccn-scenarios")


@localized
@login_required
@require_http_methods(["GET"])
def scenario_list(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    mine = CcnScenario.objects.filter(owner=user).only("title", "shareable", "updated")[:200]
    shared = (
        CcnScenario.objects.filter(shareable=True)
        .exclude(owner=user)
        .select_related("owner")
        .only("title", "updated", "owner__username")[:200]
    )
    return render(
        request,
        "web/ccn/scenario_list.html",
        {"mine": mine, "shared": shared, "limit": MAX_SCENARIOS_PER_USER},
    )


@localized
@login_required
@require_POST
def scenario_new(request: HttpRequest) -> HttpResponse:
    """A new scenario, a copy of the shipped example (digest 9); then its editor."""
    if _too_many(request):
        return _refuse_too_many(request)
    text = example_text()
    scenario = CcnScenario.objects.create(
        owner=_user(request), title=title_of(read_document(text)), text=text
    )
    return redirect("web:ccn-scenario-edit", pk=scenario.pk)


@localized
@login_required
@require_http_methods(["GET", "POST"])
def scenario_upload(request: HttpRequest) -> HttpResponse:
    """A YAML file (or pasted text) stored when the loader accepts it; otherwise the page shows
    every problem and keeps the text to correct."""
    form = UploadForm(request.POST or None, request.FILES or None)
    verdict: Verdict | None = None
    if request.method == "POST" and form.is_valid():
        if _too_many(request):
            return _refuse_too_many(request)
        try:
            text = form.document_text()
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            verdict = check_text(text)
            if verdict.valid:
                scenario = CcnScenario.objects.create(
                    owner=_user(request),
                    title=title_of(read_document(text)),
                    text=text,
                    shareable=bool(form.cleaned_data.get("shareable")),
                )
                messages.success(request, _("The scenario is valid and saved."))
                return redirect("web:ccn-scenario-edit", pk=scenario.pk)
            form = UploadForm({"text": text, "shareable": form.cleaned_data.get("shareable") or ""})
    status = 400 if request.method == "POST" else 200
    return render(
        request, "web/ccn/scenario_upload.html", {"form": form, "verdict": verdict}, status=status
    )


@localized
@login_required
@require_http_methods(["GET"])
def scenario_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The read-only page: the board and the text (owner, or anyone for a shared one)."""
    scenario = _visible(request, pk)
    view = board_view(scenario.text)
    return render(
        request,
        "web/ccn/scenario_detail.html",
        {
            "scenario": scenario,
            "board_svg": render_board(view) if view is not None else "",
            "is_owner": scenario.owner_id == _user(request).pk,
        },
    )


def _editor_context(
    scenario: CcnScenario, form: EditorForm, text: str, verdict: Verdict, **extra: Any
) -> dict[str, Any]:
    view = board_view(text)
    return {
        "scenario": scenario,
        "form": form,
        "board_svg": render_board(view) if view is not None else "",
        "verdict": verdict,
        "hexes": hex_contents(text),
        "sides": SIDES,
        "directions": [d.value for d in DIRECTIONS],
        **extra,
    }


@localized
@login_required
@require_http_methods(["GET", "POST"])
def scenario_edit(request: HttpRequest, pk: int) -> HttpResponseBase:
    owned = _owned(request, pk)
    if isinstance(owned, HttpResponse):
        return owned
    scenario = owned
    if request.method == "GET":
        initial = {
            **form_initial(scenario.text),
            "document": scenario.text,
            "shareable": scenario.shareable,
        }
        form = EditorForm(initial=initial)
        return render(
            request,
            "web/ccn/scenario_edit.html",
            _editor_context(scenario, form, scenario.text, check_text(scenario.text)),
        )
    form = EditorForm(request.POST)
    if not form.is_valid():
        posted = form.cleaned_data.get("document")
        text = posted if isinstance(posted, str) else scenario.text
        context = _editor_context(scenario, form, text, check_text(text))
        return render(request, "web/ccn/scenario_edit.html", context, status=400)
    data = form.cleaned_data
    op, text = str(data["op"]), str(data["document"])
    edit_error = ""
    if op in EDITS:
        try:
            text = apply_edit(text, op, data)
        except EditRefused as exc:
            edit_error = str(exc)
    verdict = check_text(text)
    if op == "save":
        if verdict.valid:
            scenario.text = text
            scenario.title = title_of(read_document(text))
            scenario.shareable = bool(data.get("shareable"))
            scenario.save()
            messages.success(request, _("The scenario is valid and saved."))
            return redirect("web:ccn-scenario-edit", pk=scenario.pk)
        edit_error = _("Not saved: the scenario has problems (listed below).")
    # the next page shows the edited text and keeps the other fields as they were sent
    kept = {k: v for k, v in data.items() if k not in FROM_DOCUMENT}
    shown = EditorForm(initial={**kept, **form_initial(text), "document": text})
    status = 400 if edit_error else 200
    context = _editor_context(scenario, shown, text, verdict, edit_error=edit_error)
    return render(request, "web/ccn/scenario_edit.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def scenario_download(request: HttpRequest, pk: int) -> HttpResponse:
    scenario = _visible(request, pk)
    name = (slugify(scenario.title)[:60] or "scenario") + ".yaml"
    response = HttpResponse(scenario.text, content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@localized
@login_required
@require_http_methods(["GET", "POST"])
def scenario_delete(request: HttpRequest, pk: int) -> HttpResponse:
    owned = _owned(request, pk)
    if isinstance(owned, HttpResponse):
        return owned
    if request.method == "POST":
        owned.delete()
        messages.success(request, _("The scenario is deleted."))
        return redirect("web:ccn-scenarios")
    return render(request, "web/ccn/scenario_delete.html", {"scenario": owned})
