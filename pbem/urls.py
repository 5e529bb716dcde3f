"""URL routes: the pages (pbem.web, at the root: "/" is the lobby, and still the list of
rulesets for a client asking only for JSON), a health check, the admin, the REST API and its
schema, and the ESP webhooks (django-anymail) that deliver inbound mail."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.decorators.http import require_GET
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


handler404 = "pbem.api.exceptions.not_found"  # JSON in the API's error shape under /api/

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("pbem.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    # ESP webhooks (django-anymail): inbound mail at anymail/<esp>/inbound/ (pbem.mailin.esp)
    path("anymail/", include("anymail.urls")),
    path("", include("pbem.web.urls")),
]
