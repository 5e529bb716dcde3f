"""The Celery application (Django wiring): settings under CELERY_*, tasks autodiscovered."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")

app = Celery("pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# On every (re)connection to the broker the worker asks for the orders no worker took.
from pbem.worker import RecoverOnConnect  # noqa: E402  (the app must exist first)

app.steps["consumer"].add(RecoverOnConnect)
