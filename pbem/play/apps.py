from __future__ import annotations

from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "pbem.play"
    label = "play"
    verbose_name = "Games, seats and the event log"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # registers the Celery tasks, which services send by name (pbem.play.enqueue)
        from pbem.play import tasks  # noqa: F401
