"""URL routes. Today: a health check and the list of available rulesets."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


@require_GET
def index(request: HttpRequest) -> JsonResponse:
    from games import registry  # lazy: keep engine import cost off startup

    return JsonResponse({"rulesets": registry.available()})


urlpatterns = [
    path("", index, name="index"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
