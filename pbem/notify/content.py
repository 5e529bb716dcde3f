"""What a notification says, built ONLY from what the recipient's role may see (architecture 8.7):
the engine's `view(state, role)` at the event, and the event's log lines whose audience is
everyone or includes the role. Never the event's kind, payload or acting role, never raw state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from games.core.protocol import JSON
from pbem.notify.models import Notification
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at

SUMMARY_SKIP = {"viewer", "ruleset"}  # the recipient knows who they are and what they play
SUMMARY_MAX = 12
LOG_MAX = 40


@dataclass(frozen=True)
class Content:
    """One rendered notification: mail parts, and the plain text a webhook carries."""

    subject: str
    text: str
    html: str
    view_url: str
    context: dict[str, Any]


def visible_log(event: Event, role: str) -> list[str]:
    """The event's log lines `role` may read: audience null (everyone) or containing the role."""
    lines: list[str] = []
    for entry in event.log or []:
        if not isinstance(entry, dict):
            continue
        audience = entry.get("audience")
        if audience is None or (isinstance(audience, list) and role in audience):
            text = entry.get("text")
            if isinstance(text, str) and text:
                lines.append(text)
    return lines[:LOG_MAX]


def _scalar(value: JSON) -> bool:
    return value is None or isinstance(value, bool | int | str)


def view_summary(view: JSON) -> list[tuple[str, str]]:
    """A short, ruleset-agnostic digest of a view: its top-level scalars and flat objects
    (phase, round, morale, result, ...). Everything shown comes from the view itself."""
    if not isinstance(view, dict):
        return []
    out: list[tuple[str, str]] = []
    for key in sorted(view):
        if key in SUMMARY_SKIP:
            continue
        value = view[key]
        if value is None or value == "":
            continue
        if _scalar(value):
            out.append((key.replace("_", " "), str(value)))
        elif isinstance(value, dict) and value and all(_scalar(v) for v in value.values()):
            flat = ", ".join(f"{k}={v}" for k, v in sorted(value.items()))
            out.append((key.replace("_", " "), flat))
        if len(out) >= SUMMARY_MAX:
            break
    return out


def view_url(game_id: object) -> str:
    site = str(settings.PBEM.get("SITE_URL", "http://localhost:8000")).rstrip("/")
    return f"{site}/api/v1/games/{game_id}/view"


def game_label(game: Game) -> str:
    return game.title or f"{game.ruleset_id} {game.scenario}"


def role_view(game: Game, seq: int, role: str) -> JSON:
    """The engine's view for `role` of the state after event `seq`."""
    ruleset = ruleset_get(game.ruleset_id)
    return ruleset.view(state_at(game, seq), role)


def notification_context(n: Notification) -> dict[str, Any]:
    event, game = n.event, n.game
    view = role_view(game, event.seq, n.role)
    return {
        "kind": n.kind,
        "game_id": str(game.pk),
        "game_title": game_label(game),
        "seq": event.seq,
        "role": n.role,
        "summary": view_summary(view),
        "log_lines": visible_log(event, n.role),
        "view_url": view_url(game.pk),
        # the recipient's own clock, not game state
        "deadline_at": game.deadline_at if n.kind == "deadline_soon" else None,
    }


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render(template_base: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """The three templates of a kind (healthchecks' naming): subject, text body, HTML body."""
    subject = _one_line(render_to_string(f"notify/{template_base}-subject.txt", context))
    text = render_to_string(f"notify/{template_base}-body.txt", context).strip() + "\n"
    html = render_to_string(f"notify/{template_base}-body.html", context)
    return subject, text, html


def notification_content(n: Notification) -> Content:
    context = notification_context(n)
    subject, text, html = render(n.kind, context)
    return Content(
        subject=subject, text=text, html=html, view_url=context["view_url"], context=context
    )
