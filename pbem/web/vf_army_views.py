"""The Valour & Fortitude army page, /vf/armies/check (issue 17 item 3): a player pastes their army
(YAML or JSON, the document `games.valour_fortitude.armies` describes) and gets its cost against
the list it names and every problem, each as ``path: rule: message`` (VF-230..VF-240). Nothing is
stored; nothing from the request names a file."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from games.valour_fortitude.armies import army_lists
from games.valour_fortitude.army_check import ARMY_MAX_BYTES, ArmyReport, army_report
from pbem.web.language import localized

EXAMPLE = """army_list: france_1812_1815
points_limit: 250
cinc: {id: L-F0, named_general: napoleon}
brigades:
- id: BR-F1
  bg: {id: L-F1}
  units:
  - {id: U-F1, profile: linieninfanterie, figures: 24}
  - {id: U-F2, profile: linieninfanterie, figures: 24}
"""


@localized
@login_required
@require_http_methods(["GET", "POST"])
def army_check(request: HttpRequest) -> HttpResponse:
    text = EXAMPLE
    report: ArmyReport | None = None
    if request.method == "POST":
        text = str(request.POST.get("army", ""))
        report = army_report(text)
    lists = sorted((a.id, a.name_en) for a in army_lists().values())
    context = {"text": text, "report": report, "lists": lists, "max_kib": ARMY_MAX_BYTES // 1024}
    return render(request, "web/vf/army_check.html", context)
