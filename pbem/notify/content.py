"""What a notification says, built ONLY from what the recipient's role may see (architecture 8.7):
the engine's `view(state, role)` at the event, and the event's log lines whose audience is
everyone or includes the role, numbered as that role sees the log: the very lines and numbers the
API shows that role (both read through pbem.play.selectors). Never the event's kind, payload or
acting role, never raw state.

A notification is written in its recipient's language (pbem.notify.language `in_language_of`:
their stored choice, else settings.LANGUAGE_CODE): the templates' own sentences are translated;
what comes from the game (the engine's report, prompts and log lines, role and game names, ids,
addresses) is shown as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string, select_template

from games.core.protocol import JSON
from pbem.conf import DEFAULTS, pbem_settings
from pbem.notify.language import in_language_of
from pbem.notify.models import Kind, Notification
from pbem.notify.notice import notice_title
from pbem.notify.reply_address import seat_address
from pbem.notify.written_order import written_order_block
from pbem.play.models import Event, Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import event_lines_for, numbering_for
from pbem.play.services.log import state_at

SUMMARY_SKIP = {"viewer", "ruleset"}  # the recipient knows who they are and what they play
SUMMARY_MAX = 12
LOG_MAX = 40
# the news a player may answer with orders: the mail carries the seat's view in words and its
# signed reply address (issue 14)
REPORT_KINDS = frozenset({Kind.YOUR_TURN, Kind.TURN_BEGINS, Kind.TURN_RESOLVED, Kind.DEADLINE_SOON})


@dataclass(frozen=True)
class Content:
    """One rendered notification: mail parts, and the plain text a webhook carries."""

    subject: str
    text: str
    html: str
    view_url: str
    context: dict[str, Any]
    reply_to: str = ""  # the seat's signed reply address ("" for news that takes no orders)


def visible_log(event: Event, role: str) -> list[str]:
    """The event's log lines `role` may read (`event_lines_for`: audience null or naming the
    role), blank ones left out, at most LOG_MAX."""
    return [line for line in event_lines_for(event, role) if line][:LOG_MAX]


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


def site_url() -> str:
    """The public address of the site (env PBEM_SITE_URL, default http://localhost:8000; `./dev
    serve` sets it to its own port): every link in a mail or a webhook body starts with it."""
    return str(pbem_settings.SITE_URL or DEFAULTS["SITE_URL"]).rstrip("/")


def view_url(game_id: object) -> str:
    return f"{site_url()}/api/v1/games/{game_id}/view"


def game_label(game: Game) -> str:
    return game.title or f"{game.ruleset_id} {game.scenario}"


def role_names(game: Game) -> dict[str, str]:
    """role id -> the name players know it by (the ruleset's `roles()`, e.g. "French army")."""
    ruleset = ruleset_get(game.ruleset_id)
    return {r.id: r.name or r.id for r in ruleset.roles(game.scenario, game.options)}


def team_names(game: Game) -> dict[str, str]:
    """A side's code in the engine's view (a role's `team`, e.g. "AL") -> its roles' names, so a
    summary speaks of "Allied army", not of "AL"."""
    ruleset = ruleset_get(game.ruleset_id)
    teams: dict[str, list[str]] = {}
    for r in ruleset.roles(game.scenario, game.options):
        if r.team:
            teams.setdefault(r.team, []).append(r.name or r.id)
    return {team: " / ".join(names) for team, names in teams.items()}


def role_label(names: dict[str, str], role: str) -> str:
    """'French army (french)': the name, then the id the API and the orders use."""
    name = names.get(role, role)
    return name if name == role else f"{name} ({role})"


def summary_in_names(
    summary: list[tuple[str, str]], words: dict[str, str]
) -> list[tuple[str, str]]:
    """The summary with side codes replaced by names, as a whole value or as a flat object's
    keys and values (`active: AL` -> `active: Allied army`; `morale: AL=5, F=6` -> ...)."""
    out: list[tuple[str, str]] = []
    for key, value in summary:
        if value in words:
            out.append((key, words[value]))
            continue
        pairs = [part.split("=", 1) for part in value.split(", ")]
        if all(len(pair) == 2 for pair in pairs):
            value = ", ".join(f"{words.get(k, k)}={words.get(v, v)}" for k, v in pairs)
        out.append((key, value))
    return out


def notification_context(n: Notification) -> dict[str, Any]:
    """Everything a template may say. `waiting_for` is whose turn it is after the event, in the
    players' terms: the roles the engine prompts then, by name (public: the game's detail shows
    them too); `prompt_text` is the recipient's own prompt, only when they are prompted."""
    event, game = n.event, n.game
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, event.seq)
    view = ruleset.view(state, n.role)
    prompts = ruleset.prompts(state)
    names = role_names(game)
    own_prompt = prompts.get(n.role)
    clock = n.kind in ("deadline_soon", "deadline_changed")
    return {
        "role_name": names.get(n.role, n.role),
        "role_label": role_label(names, n.role),
        "waiting_for": [role_label(names, r) for r in sorted(prompts)],
        "you_are_prompted": own_prompt is not None,
        "prompt_text": own_prompt.text if own_prompt is not None else "",
        "started": event.seq == 1,  # told when the game starts: nothing has been played yet
        "turn_hours": game.turn_hours,
        "missed_turn_policy": game.missed_turn_policy,
        "deadline_for": [role_label(names, str(r)) for r in game.deadline_roles or []],
        "kind": n.kind,
        "game_id": str(game.pk),
        "game_title": game_label(game),
        # numbered as the recipient sees the log (a side's secret events are not counted)
        "seq": numbering_for(game, [n.role]).role_seq(event.seq),
        "role": n.role,
        "summary": summary_in_names(view_summary(view), {**team_names(game), **names}),
        "log_lines": visible_log(event, n.role),
        "view_url": view_url(game.pk),
        # invitations (a seat is offered, not imposed): where to accept or decline, and who invited
        "seat_url": f"{view_url(game.pk).removesuffix('/view')}/seats/{n.role}",
        "creator": game.created_by.username if game.created_by is not None else "",
        # the game's clock as it stands when the mail is written, not game state
        "deadline_at": game.deadline_at if clock else None,
        **_turn_begins_context(n, view),
        **_report_context(n, state),
    }


def _report_context(n: Notification, state: Any) -> dict[str, Any]:
    """A turn report (issue 14 item 1): the seat's view in words (the engine's `report_text`,
    built from `view(state, role)` only), the deadline, and the signed reply address that takes
    orders; rendered by the ruleset's own template when it has one
    (`notify/<ruleset>/_report.txt`), else by the generic one."""
    game = n.game
    if n.kind not in REPORT_KINDS or game.status != Game.Status.ACTIVE:
        return {"report_text": "", "reply_address": ""}
    ruleset = ruleset_get(game.ruleset_id)
    report = getattr(ruleset, "report_text", None)
    seat = Seat.objects.filter(game_id=game.pk, role=n.role).only("pk").first()
    names = [f"notify/{game.ruleset_id}/_report.txt", "notify/_report.txt"]
    html_names = [f"notify/{game.ruleset_id}/_report.html", "notify/_report.html"]
    return {
        "report_text": report(state, n.role).rstrip() if callable(report) else "",
        "reply_address": (
            "" if seat is None else seat_address(game_id=game.pk, role=n.role, seat_pk=seat.pk)
        ),
        "report_deadline": game.deadline_at,
        "report_template": select_template(names).template.name,
        "report_template_html": select_template(html_names).template.name,
    }


def _turn_begins_context(n: Notification, view: JSON) -> dict[str, Any]:
    """A team turn start (notice convention, L5): the public title shared by every seat of the
    team, and the written-order block from the recipient's own view (team digest 3.8)."""
    if n.kind != Kind.TURN_BEGINS:
        return {}
    block = written_order_block(view, n.role)
    return {
        "notice_title": notice_title(n.event.log, n.role),
        "written_order": None if block is None else block.to_context(),
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
    """The notification as its recipient reads it, in their language (mail and webhook alike)."""
    with in_language_of(n.user if n.user_id is not None else None):
        context = notification_context(n)
        subject, text, html = render(n.kind, context)
    return Content(
        subject=subject,
        text=text,
        html=html,
        view_url=context["view_url"],
        context=context,
        reply_to=context.get("reply_address", ""),
    )
