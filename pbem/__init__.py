"""pbem: the Django platform (persistence, API, notifications) around the pure `games` engines."""

from __future__ import annotations
