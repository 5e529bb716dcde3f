"""The digest (issue 14 item 6): a player in many games chooses one mail every N hours listing
every game with news for them, instead of one mail per notification, and answers it with
orders for several games at once.

- A user in digest mode (`NotificationPref.mode` "daily_digest", the API's "digest") has their
  email rows planned with status `digest` (pbem.notify.services `_rows_to`): held, not sent.
- Windows: `digest_hours` (1..168, default 24) long, counted from the Unix epoch in UTC, so the
  window holding `now` starts at floor(now / N hours) (`window_start`). Beat runs `digest_send`
  every 15 minutes; a user is due when rows were held before the start of their current window
  and no mail went out in it yet. The mail carries every row held before that start: news of a
  window goes out at the start of the next one, one mail per window at most, none for a window
  with nothing held.
- Exactly once: the unique (user, window_start) DigestRun row is the claim (a second run,
  concurrent or later, fails to insert it and sends nothing); the held rows are then claimed with
  a conditional UPDATE (`digest` -> `sending`). A send that failed for a passing reason gives
  both back (the rows to `digest`, the run deleted), so the next run tries again; a permanent
  failure (no address, refused) fails the rows, as a single mail's would.
- The mail: one section per (game, role), sorted by game id then role, each headed by the line
  `== game <game id> as <role> ==` (pbem.mailin.reading `sections` reads these headers in the
  reply: they are the same in every language), with its held notifications rendered as their
  own mails would be (the latest few; the position in words only in the last), and `Reply-To`
  the user's signed address (pbem.notify.reply_address `user_address`). It is written in the
  user's language (pbem.notify.language), its items too. Bounded: at most SECTIONS_MAX
  sections (the games whose news waited longest; the others stay held for the next window) and
  ITEMS_MAX notifications shown per section (the older ones are counted, and sent with the
  mail).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pbem.notify.content import game_label, notification_context, render, role_label, role_names
from pbem.notify.language import in_language_of
from pbem.notify.models import (
    DIGEST_HOURS_DEFAULT,
    DIGEST_HOURS_MAX,
    DIGEST_HOURS_MIN,
    DigestRun,
    Kind,
    Notification,
    NotificationPref,
)
from pbem.notify.reply_address import user_address
from pbem.notify.transports.base import TransportError
from pbem.notify.transports.email import mail_domain, mail_send
from pbem.play.errors import InvalidField, say
from pbem.play.models import Game

logger = logging.getLogger(__name__)

SECTIONS_MAX = 50  # (game, role) sections in one mail; the rest wait for the next window
ITEMS_MAX = 5  # notifications shown in full per section (the latest); older ones are counted
SCAN_MAX = 5000  # held rows looked at per user and run
EMAIL_OFF = "email is switched off for this user"
# what a digest item leaves out: the seat's own reply address (a reply to the digest goes to the
# user's address, by section) and, in all but a section's last item, the position in words
NO_REPLY = {"reply_address": ""}
NO_REPORT = {"reply_address": "", "report_text": "", "report_deadline": None}
# what an item that cannot be rendered is called instead of its subject (in the user's language)
KIND_NAMES: dict[str, Promise] = {
    Kind.YOUR_TURN: gettext_lazy("Your turn"),
    Kind.TURN_RESOLVED: gettext_lazy("Turn resolved"),
    Kind.TURN_BEGINS: gettext_lazy("Your turn begins"),
    Kind.DEADLINE_SOON: gettext_lazy("Deadline soon"),
    Kind.DEADLINE_CHANGED: gettext_lazy("The turn clock changed"),
    Kind.GAME_OVER: gettext_lazy("Game over"),
    Kind.INVITATION: gettext_lazy("Invitation"),
    Kind.INVITATION_DECLINED: gettext_lazy("Invitation declined"),
    Kind.RULING: gettext_lazy("The umpire's ruling"),
}


def window_start(now: datetime, hours: int) -> datetime:
    """floor(now / hours) in UTC: the start of the `hours`-long window that holds `now`, the
    windows counted from the Unix epoch (24-hour windows start at midnight UTC)."""
    period = hours * 3600
    seconds = math.floor(now.timestamp())
    return datetime.fromtimestamp(seconds - seconds % period, tz=UTC)


def section_header(game_id: object, role: str) -> str:
    """The line that heads a game's section, in the digest and in a reply to it (contract with
    pbem.mailin.reading `sections`)."""
    return f"== game {game_id} as {role} =="


def digest_send(*, now: datetime | None = None) -> int:
    """Send every due digest (see the module docstring); returns the number of mails sent. One
    user's failure is logged and does not stop the others (their next run tries again)."""
    now = now or timezone.now()
    users = sorted(
        set(
            Notification.objects.filter(
                status=Notification.Status.DIGEST, created_at__lt=now
            ).values_list("user_id", flat=True)
        )
    )
    prefs = {p.user_id: p for p in NotificationPref.objects.filter(user_id__in=users)}
    sent = 0
    for user_id in users:
        try:
            sent += _digest_one(user_id, prefs.get(user_id), now)
        except Exception:
            logger.exception("notify: digest for user %s failed; the next run tries again", user_id)
    return sent


@dataclass
class _Section:
    game_id: str
    role: str
    rows: list[Notification] = field(default_factory=list)


def _digest_one(user_id: int, pref: NotificationPref | None, now: datetime) -> int:
    hours = pref.digest_hours if pref is not None else DIGEST_HOURS_DEFAULT
    start = window_start(now, hours)
    held = Q(user_id=user_id, status=Notification.Status.DIGEST, created_at__lt=start)
    if not Notification.objects.filter(held).exists():
        return 0  # nothing waited since before this window: no mail, no claim
    if pref is not None and not pref.email_enabled:  # switched off since: as a delivery would
        Notification.objects.filter(held).update(
            status=Notification.Status.FAILED, last_error=EMAIL_OFF
        )
        return 0
    run = window_claim(user_id, start, hours)
    if run is None:
        return 0  # this window's digest is out already (or going out now)
    ids = _chosen(held)
    Notification.objects.filter(held, pk__in=ids).update(
        status=Notification.Status.SENDING, attempts=F("attempts") + 1, claimed_at=now
    )
    claimed = Q(pk__in=ids, status=Notification.Status.SENDING, claimed_at=now)
    rows = list(
        Notification.objects.filter(claimed)
        .select_related("event", "game", "user")
        .order_by("created_at", "pk")
    )
    if not rows:
        run.delete()
        return 0
    try:
        _mail(rows[0].user, rows, start, hours)
    except TransportError as e:
        if not e.permanent:
            _given_back(claimed, run, e.message)
            raise
        # no address, or refused for good: failed like a single mail, never retried in a loop
        Notification.objects.filter(claimed).update(
            status=Notification.Status.FAILED, last_error=e.message[:2000]
        )
        logger.warning("notify: digest for user %s failed for good: %s", user_id, e.message)
        return 0
    except Exception as e:
        _given_back(claimed, run, f"{type(e).__name__}: {e}")
        raise
    Notification.objects.filter(claimed).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), last_error=""
    )
    DigestRun.objects.filter(pk=run.pk).update(count=len(rows))
    return 1


def _given_back(claimed: Q, run: DigestRun, error: str) -> None:
    """A send that may work later: the rows are held again and the window is free again, so the
    next run (a quarter of an hour later) tries again."""
    Notification.objects.filter(claimed).update(
        status=Notification.Status.DIGEST, last_error=error[:2000]
    )
    run.delete()


def window_claim(user_id: int, start: datetime, hours: int) -> DigestRun | None:
    """Take the user's window: insert its DigestRun row, or None when another run has it."""
    try:
        with transaction.atomic():
            return DigestRun.objects.create(user_id=user_id, window_start=start, hours=hours)
    except IntegrityError:
        return None


def _chosen(held: Q) -> list[int]:
    """The held rows this mail takes: those of the SECTIONS_MAX (game, role) pairs whose oldest
    held row is oldest (so no game waits for ever behind others)."""
    rows = (
        Notification.objects.filter(held)
        .order_by("created_at", "pk")
        .values_list("pk", "game_id", "role")[:SCAN_MAX]
    )
    keys: dict[tuple[str, str], list[int]] = {}
    for pk, game_id, role in rows:
        key = (str(game_id), role)
        if key in keys or len(keys) < SECTIONS_MAX:
            keys.setdefault(key, []).append(pk)
    return [pk for pks in keys.values() for pk in pks]


def _sections(rows: Sequence[Notification]) -> list[_Section]:
    by_key: dict[tuple[str, str], _Section] = {}
    for n in rows:
        key = (str(n.game_id), n.role)
        by_key.setdefault(key, _Section(game_id=key[0], role=key[1])).rows.append(n)
    return [by_key[key] for key in sorted(by_key)]


def _item(n: Notification, *, last: bool) -> dict[str, str]:
    """One notification as its own mail would say it, less what the digest leaves out."""
    try:
        context = {**notification_context(n), **(NO_REPLY if last else NO_REPORT)}
        subject, text, html = render(n.kind, context)
    except Exception:  # one notification that cannot be told must not hold back the rest
        logger.exception("notify: digest item %s could not be rendered", n.pk)
        name = KIND_NAMES.get(n.kind)
        subject = str(name) if name is not None else n.kind.replace("_", " ")
        return {"subject": subject, "text": _("(not available)") + "\n", "html": ""}
    return {"subject": subject, "text": text, "html": html}


def _section_context(section: _Section) -> dict[str, Any]:
    game: Game = section.rows[0].game
    shown = section.rows[-ITEMS_MAX:]
    return {
        "header": section_header(section.game_id, section.role),
        "game_id": section.game_id,
        "role": section.role,
        "game_title": game_label(game),
        "role_label": role_label(role_names(game), section.role),
        "items": [_item(n, last=i == len(shown) - 1) for i, n in enumerate(shown)],
        "earlier": len(section.rows) - len(shown),
    }


def digest_context(rows: Sequence[Notification], start: datetime, hours: int) -> dict[str, Any]:
    """What the digest templates may say (rows of one user, each with its event and game)."""
    sections = [_section_context(s) for s in _sections(rows)]
    return {
        "sections": sections,
        "games": len({s["game_id"] for s in sections}),
        "notifications": len(rows),
        "hours": hours,
        "window_start": start,
        "next_at": start + timedelta(hours=hours),
        "reply_address": user_address(user_pk=rows[0].user_id),
    }


def _mail(user: User, rows: Sequence[Notification], start: datetime, hours: int) -> None:
    with in_language_of(user):  # the digest and every item in it, in the user's language
        context = digest_context(rows, start, hours)
        subject, text, html = render("digest", context)
    mail_send(
        to=user.email,
        subject=subject,
        text=text,
        html=html,
        headers={
            "Message-ID": f"<digest.{user.pk}.{start:%Y%m%dT%H%M}@{mail_domain()}>",
            "Reply-To": context["reply_address"],
            "Auto-Submitted": "auto-generated",  # RFC 3834: auto-responders stay silent
        },
    )


# --- the user's choice ----------------------------------------------------------------------


def notification_pref_set(
    *,
    user: User,
    mode: str | None = None,
    email_enabled: bool | None = None,
    digest_hours: int | None = None,
) -> NotificationPref:
    """Set how `user` gets email: instant or a digest every `digest_hours` (1..168), or none.
    Raises InvalidField (400 naming the field). A change of mode applies to news planned from
    then on; rows held already still go out in the next digest."""
    if mode is not None and mode not in NotificationPref.Mode.values:
        modes = sorted(NotificationPref.Mode.values)
        raise InvalidField("mode", say(gettext_lazy("mode must be one of {modes}"), modes=modes))
    if digest_hours is not None and not DIGEST_HOURS_MIN <= digest_hours <= DIGEST_HOURS_MAX:
        bounds = gettext_lazy("digest_hours must be from {low} to {high}, not {hours}")
        raise InvalidField(
            "digest_hours",
            say(bounds, low=DIGEST_HOURS_MIN, high=DIGEST_HOURS_MAX, hours=digest_hours),
        )
    pref, _ = NotificationPref.objects.get_or_create(user=user)
    fields: dict[str, object] = {}
    if mode is not None:
        fields["mode"] = mode
    if email_enabled is not None:
        fields["email_enabled"] = email_enabled
    if digest_hours is not None:
        fields["digest_hours"] = digest_hours
    if fields:
        NotificationPref.objects.filter(pk=pref.pk).update(**fields)
        pref.refresh_from_db()
    return pref
