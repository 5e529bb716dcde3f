"""The notice convention (games.core.protocol.LogEntry): a PUBLIC log line's `data` may carry
`{"notice": {"roles": [role, ...], "title": str}}`; every listed role gets one `turn_begins`
notification about the event, all with the same subject (team play L5, SRV-9).

Only public lines count: a notice on a line with an audience is ignored, so a notice can never
tell anybody of something they may not read. Nothing here reads a role's view or private lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.protocol import JSON
from pbem.play.selectors import line_audience


@dataclass(frozen=True, slots=True)
class Notice:
    roles: tuple[str, ...]
    title: str


def _notice_of(entry: JSON) -> Notice | None:
    if not isinstance(entry, dict) or line_audience(entry) is not None:
        return None
    data = entry.get("data")
    raw = data.get("notice") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        return None
    roles, title = raw.get("roles"), raw.get("title")
    if not isinstance(roles, list) or not isinstance(title, str) or not title.strip():
        return None
    return Notice(tuple(str(r) for r in roles), title.strip())


def notices_of(log: JSON) -> list[Notice]:
    """The well-formed notices of an event's stored log, in log order."""
    if not isinstance(log, list):
        return []
    return [n for n in (_notice_of(entry) for entry in log) if n is not None]


def notice_roles(log: JSON) -> set[str]:
    """Every role named by a notice of this log."""
    return {role for n in notices_of(log) for role in n.roles}


def notice_title(log: JSON, role: str) -> str:
    """The title of the first notice naming `role` ("" if none does)."""
    return next((n.title for n in notices_of(log) if role in n.roles), "")
