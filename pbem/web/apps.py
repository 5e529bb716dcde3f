from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    """The browser: server-rendered pages (templates/web/), progressively enhanced with htmx.
    Every page renders from the same per-seat view as the API (pbem.play.selectors)."""

    name = "pbem.web"
    label = "web"
    verbose_name = "Web pages"
    default_auto_field = "django.db.models.BigAutoField"
