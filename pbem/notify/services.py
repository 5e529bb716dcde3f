"""Notification services (architecture 8.8): plan outbox rows in the event's transaction,
deliver each exactly once, retry with backoff, sweep what was lost (the digest every N hours
and the user's email preference live in pbem.notify.digest).

- `notifications_plan` is called by `pbem.play.services.log.event_append` inside the event's
  transaction. At most one kind per seat per event (game_over > turn_begins > your_turn >
  turn_resolved); the acting role is never told of its own action, except of `turn_begins`
  (see `kinds_for_event`); a seat with no user gets nothing. Rows are unique by
  `f"{event_id}:{channel_id}:{kind}"`, so planning twice is harmless.
- Side channels (team digest L7): a message carries the recipient role's event number (its own
  numbering, which counts no event hidden from it), never the global seq, and an opaque delivery
  id (`delivery_id`, from that numbering), never the dedupe key (it holds the server-wide event
  id).
- `notify_game_started` tells the first movers at the start (event 1 has no `event_append`);
  `notify_deadline_changed` tells the other seats of a new turn clock (a tag per change).
- `notification_deliver` claims a row with `UPDATE .. SET status='sending' WHERE status='pending'`
  and goes on only if one row changed; the outcome is recorded with `.update()` as well.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.core.umpire import RULING_KIND, UMPIRE
from pbem.conf import pbem_settings
from pbem.notify.content import notification_content
from pbem.notify.digest import digest_send as digest_send  # re-export: notify.tasks calls it here
from pbem.notify.digest import notification_pref_set as notification_pref_set  # re-export: tests
from pbem.notify.models import Kind, Notification, NotificationPref, WebhookEndpoint
from pbem.notify.notice import notice_roles
from pbem.notify.transports import transport_class
from pbem.notify.transports.base import Message, TransportError
from pbem.notify.transports.webhook import host_check, host_of
from pbem.play.enqueue import enqueue, enqueue_later
from pbem.play.errors import ServiceError, say
from pbem.play.models import Event, Game, Seat
from pbem.play.publisher import publish
from pbem.play.selectors import line_audience

logger = logging.getLogger(__name__)

CLAIM_SLACK = timedelta(seconds=5)  # a countdown task may run a moment before its due time
SENDING_TIMEOUT = timedelta(minutes=15)  # a claim older than this belonged to a dead worker
REENQUEUE_AFTER = timedelta(minutes=2)  # the sweep leaves a freshly queued row alone
BACKOFF_CAP = timedelta(hours=6)


class WebhookRejected(ServiceError):
    status = 400
    code = "bad_webhook"


class WebhookNotFound(ServiceError):
    status = 404
    code = "not_found"


def _knob(name: str, default: int) -> int:
    return int(getattr(pbem_settings, name, default))


# --- planning ---------------------------------------------------------------------------------


def ruling_readers(log: object) -> frozenset[str] | None:
    """The roles a ruling's log line is for (None: everyone)."""
    lines = log if isinstance(log, list) else []
    audiences = [line_audience(line) for line in lines]
    if not audiences or any(a is None for a in audiences):
        return None
    return frozenset().union(*[a for a in audiences if a is not None])


def kinds_for_event(
    *,
    event: Event,
    seat_roles: Iterable[str],
    prompted_before: Sequence[str],
    prompted_after: Sequence[str],
    finished: bool,
    notice_roles: Collection[str] = (),
) -> dict[str, str]:
    """role -> the one kind of news that seat gets for this event (none for most seats).

    game_over > turn_begins > your_turn > turn_resolved. `notice_roles` are the roles a public
    notice names (pbem.notify.notice): each gets `turn_begins`, the acting role too. That is no
    news of its own action: a turn start tells every seat of the team the same thing (L5) and
    carries each one's delivered written order, which the actor has no other mail for; leaving
    the actor out would make the set of mails depend on who acted. (A seat that ends the other
    side's turn is never in the starting team anyway; the actor can be named only when his own
    action starts his team's turn, e.g. the CinC closing the night conference, NT-TEAM-9.)"""
    roles = sorted(set(seat_roles))
    if finished:
        return dict.fromkeys(roles, Kind.GAME_OVER)
    if event.kind == RULING_KIND:  # the seats the ruling is for: the others never learn of it
        readers = ruling_readers(event.log)
        return {r: Kind.RULING for r in roles if r != UMPIRE and (readers is None or r in readers)}
    out: dict[str, str] = {}
    newly = set(prompted_after) - set(prompted_before)
    named = set(notice_roles)
    for role in roles:
        if role in named:
            out[role] = Kind.TURN_BEGINS  # L5: one mail per seat of the team, same subject
            continue
        if role == event.role:
            continue  # never tell a player of their own action
        if role in newly:
            out[role] = Kind.YOUR_TURN
        elif event.turn_ended:
            out[role] = Kind.TURN_RESOLVED
    return out


def _rows_for(event: Event, kinds: dict[str, str], tag: str = "") -> list[Notification]:
    """The outbox rows telling each seat in `kinds` its kind of news about `event`. `tag` tells
    apart news that may come more than once at the same head (`deadline_changed`): it is added
    to the dedupe key after the kind (`...:deadline_changed.<tag>`)."""
    if not kinds:
        return []
    seats = list(
        Seat.objects.filter(game_id=event.game_id, role__in=kinds, user__isnull=False)
        .exclude(accepted_at__isnull=True)  # an invitation not accepted yet gets no game news
        .select_related("user")
        .order_by("role")
    )
    told = [(seat.user, seat.role, kinds[seat.role]) for seat in seats if seat.user is not None]
    return _rows_to(event, told, f".{tag}" if tag else "")


def _rows_for_user(event: Event, user: User, role: str, kind: str, tag: str) -> list[Notification]:
    """The rows telling one user (seated or not) `kind` of news about `role`."""
    return _rows_to(event, [(user, role, kind)], f".{tag}")


def _rows_to(
    event: Event, told: Sequence[tuple[User, str, str]], suffix: str
) -> list[Notification]:
    """The rows telling each (user, role, kind) its news about `event`: by email unless the user
    switched it off (held for the daily digest if so chosen), and by each active webhook that
    wants the kind. Dedupe keys: `{event}:email.{role}:{kind}{suffix}` (`{role}` is
    `@umpire.{user}` for an umpire: a game may have several) and
    `{event}:webhook.{hook}.{role}:{kind}{suffix}`."""
    users = {user.pk for user, _, _ in told}
    prefs = {p.user_id: p for p in NotificationPref.objects.filter(user_id__in=users)}
    hooks: dict[int, list[WebhookEndpoint]] = {}
    for hook in WebhookEndpoint.objects.filter(user_id__in=users, active=True).order_by("pk"):
        hooks.setdefault(hook.user_id, []).append(hook)
    rows: list[Notification] = []
    for user, role, kind in told:
        common = {"event": event, "game_id": event.game_id, "user": user, "role": role}
        # a game may have several umpires, each told under the one role: keyed by the user too
        seat = f"{role}.{user.pk}" if role == UMPIRE else role
        pref = prefs.get(user.pk)
        if user.email and (pref is None or pref.email_enabled):
            digest = pref is not None and pref.mode == NotificationPref.Mode.DAILY_DIGEST
            rows.append(
                Notification(
                    **common,
                    channel=Notification.Channel.EMAIL,
                    kind=kind,
                    dedupe_key=f"{event.pk}:email.{seat}:{kind}{suffix}",
                    status=Notification.Status.DIGEST if digest else Notification.Status.PENDING,
                )
            )
        for hook in hooks.get(user.pk, []):
            if hook.wants(kind):
                rows.append(
                    Notification(
                        **common,
                        channel=Notification.Channel.WEBHOOK,
                        endpoint=hook,
                        kind=kind,
                        dedupe_key=f"{event.pk}:webhook.{hook.pk}.{role}:{kind}{suffix}",
                    )
                )
    return rows


def _store(rows: list[Notification]) -> list[int]:
    """Insert the rows (a dedupe key seen before is skipped) and enqueue the pending ones after
    commit. Returns the ids of the pending rows."""
    if not rows:
        return []
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        Notification.objects.filter(
            dedupe_key__in=[r.dedupe_key for r in rows],
            status=Notification.Status.PENDING,
            attempts=0,
        ).values_list("pk", flat=True)
    )
    if ids:
        transaction.on_commit(lambda: _flush_enqueue(ids))
    return ids


def _flush_enqueue(ids: list[int]) -> None:
    """After commit, off the request thread (pbem.play.publisher): a broker that is down never
    holds the request; the outbox sweep finds the rows."""
    try:
        publish("notify.outbox_flush", ids)
    except Exception:  # the broker is down (a publish at once): the sweep will find the rows
        logger.warning("notify: outbox flush of %d rows not enqueued", len(ids))


def notifications_plan(
    *,
    event: Event,
    prompted_before: Sequence[str],
    prompted_after: Sequence[str],
    finished: bool,
) -> list[int]:
    """Create the outbox rows for `event` inside the caller's transaction (a savepoint: a failure
    here is logged and never blocks the game). Returns the ids of rows to deliver now."""
    try:
        with transaction.atomic():
            seat_roles = Seat.objects.filter(game_id=event.game_id).values_list("role", flat=True)
            kinds = kinds_for_event(
                event=event,
                seat_roles=seat_roles,
                prompted_before=prompted_before,
                prompted_after=prompted_after,
                finished=finished,
                notice_roles=notice_roles(event.log),
            )
            return _store(_rows_for(event, kinds))
    except Exception:
        logger.exception("notify: planning for event %s failed", event.pk)
        return []


def notify_deadline_soon(*, game: Game, roles: Sequence[str]) -> list[int]:
    """Reminders for `roles` (called by the deadlines' reminders sweep, in its transaction);
    one per seat per head event, deduplicated like every other row."""
    event = Event.objects.filter(game=game, seq=game.head_seq).first()
    if event is None:
        return []
    kinds = {role: str(Kind.DEADLINE_SOON) for role in roles}
    with transaction.atomic():
        return _store(_rows_for(event, kinds))


def notify_game_started(*, game: Game) -> list[int]:
    """Tell the roles prompted at the head that it is their turn, as soon as the game starts.

    Call it once the game is active and its seats are filled: `game_create` does when every seat
    has a user at creation; a path that fills the last seat later (an accepted invitation) calls
    it then. The rows hang on the head event with the same dedupe keys as the `your_turn` that
    event would have planned, so a second call (or a player told already) sends nothing new; a
    later event tells only the roles newly prompted by it, so the first mover is told once.
    A failure is logged and never blocks the game. Returns the ids of the rows to deliver."""
    try:
        with transaction.atomic():
            row = Game.objects.filter(pk=game.pk).first()
            if row is None or row.status != Game.Status.ACTIVE:
                return []
            event = Event.objects.filter(game=row, seq=row.head_seq).first()
            if event is None:
                return []
            kinds = {str(role): str(Kind.YOUR_TURN) for role in row.active_roles or []}
            return _store(_rows_for(event, kinds))
    except Exception:
        logger.exception("notify: start notifications for game %s failed", game.pk)
        return []


def notify_deadline_changed(*, game: Game, changed_by: int | None = None) -> list[int]:
    """Tell the seated players (except `changed_by`, a user id: who made the change knows) that
    the game's time per turn or missed-turn policy changed. Called by
    `pbem.play.services.deadlines.deadline_settings_set` through `hooks.DEADLINE_CHANGED` after
    the change; the mail states the
    settings and the deadline as they stand when it is sent. Each change is its own news (a
    timestamp tag in the dedupe key), so two changes at one head send two notes."""
    event = Event.objects.filter(game=game, seq=game.head_seq).first()
    if event is None:
        return []
    seats = Seat.objects.filter(game=game, user__isnull=False)
    if changed_by is not None:
        seats = seats.exclude(user_id=changed_by)
    kinds = {role: str(Kind.DEADLINE_CHANGED) for role in seats.values_list("role", flat=True)}
    tag = str(int(timezone.now().timestamp() * 1_000_000))
    with transaction.atomic():
        return _store(_rows_for(event, kinds, tag=tag))


# --- invitations: a seat is offered, never imposed (pbem.play.services.games calls these) -------


def notify_invitation(*, seat: Seat) -> list[int]:
    """Tell the user named for `seat` that it is offered to them (accept or decline). The mail
    says only the game, the role and who invited them: never the seat's view."""
    if seat.user is None:
        return []
    event = Event.objects.filter(game_id=seat.game_id).order_by("-seq").first()
    if event is None:
        return []
    with transaction.atomic():
        rows = _rows_for_user(event, seat.user, seat.role, Kind.INVITATION, f"u{seat.user.pk}")
        return _store(rows)


def notify_invitation_declined(*, seat: Seat, invitee: User) -> list[int]:
    """Tell the game's creator that `invitee` declined `seat` (now open again)."""
    game = Game.objects.select_related("created_by").get(pk=seat.game_id)
    creator = game.created_by
    if creator is None or creator.pk == invitee.pk:
        return []
    event = Event.objects.filter(game=game, seq=game.head_seq).first()
    if event is None:
        return []
    with transaction.atomic():
        kind = Kind.INVITATION_DECLINED
        return _store(_rows_for_user(event, creator, seat.role, kind, f"u{invitee.pk}"))


# --- delivery ---------------------------------------------------------------------------------


def backoff(attempts: int) -> timedelta:
    """Delay before attempt `attempts + 1`: base * 2**(attempts - 1), capped at six hours."""
    base = _knob("NOTIFY_BACKOFF_SECONDS", 60)
    return min(timedelta(seconds=base * 2 ** max(attempts - 1, 0)), BACKOFF_CAP)


def delivery_basis(n: Notification, role_seq: int) -> str:
    """What a row's delivery id is made of: the game, the event's number in the recipient role's
    numbering (team digest L7) and the rest of the dedupe key (channel, role, kind, tag), never
    the dedupe key's server-wide event id, whose steps would count events hidden from the role.
    Two rows one role cannot tell apart by their events get the same basis (a duplicate to it)."""
    rest = n.dedupe_key.split(":", 1)[-1]
    return f"{n.game_id}:{role_seq}:{rest}"


def delivery_id(basis: str) -> str:
    """The opaque id receivers deduplicate on (`X-PBEM-Delivery`), the same for every retry of
    one row: HMAC-SHA256 of its basis under SECRET_KEY, 32 hex digits."""
    mac = hmac.new(settings.SECRET_KEY.encode(), basis.encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def message_build(n: Notification) -> Message:
    content = notification_content(n)
    seq = int(content.context["seq"])  # the recipient's numbering, not the global seq (L7)
    return Message(
        dedupe_key=n.dedupe_key,
        delivery_id=delivery_id(delivery_basis(n, seq)),
        kind=n.kind,
        game_id=str(n.game_id),
        seq=seq,
        role=n.role,
        subject=content.subject,
        text=content.text,
        html=content.html,
        view_url=content.view_url,
        reply_to=content.reply_to,
    )


def notification_deliver(*, notification_id: int, now: datetime | None = None) -> str:
    """Deliver one outbox row once: "sent", "retry", "failed", or "skipped" when the row was not
    pending and due (already sent, claimed by another worker, or waiting for its backoff)."""
    now = now or timezone.now()
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now + CLAIM_SLACK)
    claimed = Notification.objects.filter(
        due, pk=notification_id, status=Notification.Status.PENDING
    ).update(status=Notification.Status.SENDING, attempts=F("attempts") + 1, claimed_at=now)
    if claimed != 1:
        return "skipped"
    n = Notification.objects.select_related("event", "game", "user", "endpoint").get(
        pk=notification_id
    )
    try:
        if n.channel == Notification.Channel.EMAIL and not _email_wanted(n.user):
            raise TransportError("email is switched off for this user", permanent=True)
        transport_class(n.channel)(n).deliver(message_build(n))
    except TransportError as e:
        return _failed(n, e.message, now=now, permanent=e.permanent)
    except Exception as e:  # a bug or an engine error: retried, bounded by max attempts
        logger.exception("notify: delivering %s failed", n.pk)
        return _failed(n, f"{type(e).__name__}: {e}", now=now, permanent=False)
    Notification.objects.filter(pk=n.pk, status=Notification.Status.SENDING).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), last_error="", next_attempt_at=None
    )
    if n.endpoint_id is not None:
        WebhookEndpoint.objects.filter(pk=n.endpoint_id).update(failures=0)
    return "sent"


def _email_wanted(user: User) -> bool:
    pref = NotificationPref.objects.filter(user=user).first()
    return pref is None or pref.email_enabled


def _failed(n: Notification, error: str, *, now: datetime, permanent: bool) -> str:
    if n.endpoint_id is not None:
        _endpoint_failed(n.endpoint_id, permanent=permanent)
    if permanent or n.attempts >= _knob("NOTIFY_MAX_ATTEMPTS", 6):
        Notification.objects.filter(pk=n.pk, status=Notification.Status.SENDING).update(
            status=Notification.Status.FAILED, last_error=error[:2000], next_attempt_at=None
        )
        logger.warning("notify: %s failed for good after %d attempts: %s", n.pk, n.attempts, error)
        return "failed"
    delay = backoff(n.attempts)
    due = now + delay
    Notification.objects.filter(pk=n.pk, status=Notification.Status.SENDING).update(
        status=Notification.Status.PENDING,
        last_error=error[:2000],
        next_attempt_at=due,
        enqueued_at=due,  # queued for that moment: the sweep waits REENQUEUE_AFTER beyond it
    )
    _enqueue_deliver(n.pk, countdown=delay.total_seconds())
    return "retry"


def _endpoint_failed(endpoint_id: int, *, permanent: bool) -> None:
    """Count a failed delivery; a permanent error, or too many in a row, disables the endpoint."""
    WebhookEndpoint.objects.filter(pk=endpoint_id).update(failures=F("failures") + 1)
    endpoint = WebhookEndpoint.objects.filter(pk=endpoint_id, active=True)
    if not permanent:
        endpoint = endpoint.filter(failures__gte=_knob("WEBHOOK_MAX_FAILURES", 20))
    if endpoint.update(active=False):
        logger.warning("notify: webhook endpoint %s disabled", endpoint_id)


def _enqueue_deliver(notification_id: int, countdown: float = 0.0) -> None:
    try:
        enqueue_later("notify.deliver", (notification_id,), countdown=countdown)
    except Exception:
        logger.exception("notify: %s not enqueued; the sweep will retry", notification_id)


def outbox_flush(*, notification_ids: Sequence[int]) -> int:
    """Hand freshly planned rows to the delivery task, one task per row."""
    now = timezone.now()
    ids = list(
        Notification.objects.filter(
            pk__in=list(notification_ids), status=Notification.Status.PENDING
        ).values_list("pk", flat=True)
    )
    Notification.objects.filter(pk__in=ids).update(enqueued_at=now)
    for pk in ids:
        _enqueue_deliver(pk)
    return len(ids)


def outbox_sweep(*, now: datetime | None = None) -> int:
    """Beat's safety net: give back claims of dead workers, then re-enqueue due pending rows
    (poison-row guard: a row that fails to enqueue is logged and pushed forward)."""
    now = now or timezone.now()
    stale = Notification.objects.filter(
        status=Notification.Status.SENDING, claimed_at__lt=now - SENDING_TIMEOUT
    ).update(status=Notification.Status.PENDING, next_attempt_at=now, enqueued_at=None)
    if stale:
        logger.warning("notify: %d stale claims given back", stale)
    due = (
        Q(status=Notification.Status.PENDING)
        & (Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        & (Q(enqueued_at__isnull=True) | Q(enqueued_at__lte=now - REENQUEUE_AFTER))
    )
    batch = _knob("SWEEP_BATCH", 500)
    ids = list(
        Notification.objects.filter(due)
        .order_by("next_attempt_at", "pk")[:batch]
        .values_list("pk", flat=True)
    )
    done = 0
    for pk in ids:
        try:
            if Notification.objects.filter(due, pk=pk).update(enqueued_at=now) != 1:
                continue
            enqueue("notify.deliver", pk)
            done += 1
        except Exception:
            logger.exception("notify: sweep could not enqueue %s; pushed forward", pk)
            Notification.objects.filter(pk=pk).update(next_attempt_at=now + REENQUEUE_AFTER)
    return done


# --- subscriptions and preferences (for the API) ----------------------------------------------


def webhook_subscribe(
    *, user: User, url: str, secret: str = "", events: Sequence[str] = ()
) -> WebhookEndpoint:
    """Subscribe `user` to webhooks at `url` for `events` (kinds; empty = all). A blank secret
    is generated (return it to the caller once). Raises WebhookRejected (400)."""
    url = url.strip()
    if len(url) > 500:
        raise WebhookRejected(gettext_lazy("the URL is longer than 500 characters"))
    try:
        host_check(host_of(url), resolve=False)  # names are checked again at every delivery
    except TransportError as e:
        raise WebhookRejected(e.message) from None
    unknown = sorted(set(events) - set(Kind.values))
    if unknown:
        raise WebhookRejected(
            say(
                gettext_lazy("unknown events {unknown}; known: {known}"),
                unknown=unknown,
                known=sorted(Kind.values),
            )
        )
    secret = secret or secrets.token_hex(32)
    if len(secret) > 200:
        raise WebhookRejected(gettext_lazy("the secret is longer than 200 characters"))
    return WebhookEndpoint.objects.create(
        user=user, url=url, secret=secret, events=sorted(set(events))
    )


def webhooks_of(*, user: User) -> list[WebhookEndpoint]:
    """The user's webhook endpoints, oldest first (active or disabled by failures)."""
    return list(WebhookEndpoint.objects.filter(user=user).order_by("pk"))


def webhook_delete(*, user: User, endpoint_id: int) -> None:
    """Delete one of the user's endpoints and its outbox rows (nothing more is sent to it; a
    delivery already under way finishes). Someone else's endpoint, or an unknown id, is
    WebhookNotFound (404): the answer never tells whether another user's endpoint exists."""
    deleted, _ = WebhookEndpoint.objects.filter(pk=endpoint_id, user=user).delete()
    if not deleted:
        raise WebhookNotFound(
            say(gettext_lazy("you have no webhook {webhook}"), webhook=endpoint_id)
        )
