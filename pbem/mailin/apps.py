from __future__ import annotations

from django.apps import AppConfig


class MailinConfig(AppConfig):
    """Orders by email: inbound mail is stored first (one InboundMessage per message, from the SMTP
    listener or an ESP's inbound webhook), then read and answered by a task on the `mail` queue."""

    name = "pbem.mailin"
    label = "mailin"
    verbose_name = "Orders by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # registers the Celery task that reads a stored message (sent by name after commit)
        from pbem.mailin import tasks  # noqa: F401

        try:
            from pbem.mailin import esp
        except ImportError:  # pragma: no cover - the ESP receiver is optional
            return
        esp.connect()
