from __future__ import annotations

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "pbem.notify"
    label = "notify"
    verbose_name = "Notifications: outbox, email and webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # notify learns of play's events through play's hooks (pbem.play.hooks): play never
        # imports notify. Importing the tasks registers them for sending by name.
        from pbem.notify import receivers, tasks  # noqa: F401

        receivers.connect()
