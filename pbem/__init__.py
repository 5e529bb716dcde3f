"""pbem: the Django platform (persistence, API, notifications) around the pure `games` engines."""

from __future__ import annotations

from pbem.celery import app as celery_app

__all__ = ["celery_app"]
