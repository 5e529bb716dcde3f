from __future__ import annotations

from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "pbem.notify"
    label = "notify"
    verbose_name = "Notifications: outbox, email and webhooks"
    default_auto_field = "django.db.models.BigAutoField"
