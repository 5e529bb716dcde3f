"""The order path (architecture 8.5): intake, pre-check at the head, a worker applies it once.

`order_submit` first checks the order is well formed for the ruleset (`payload_errors`: an
unknown kind is a 422 `unknown_kind`, a payload off its schema a 400 `invalid_payload`; nothing
is stored, whoever asks and whoever's turn it is), then stores it as an OrderIntake, checks it
with the engine's `validate` at the current head (an order that is illegal now is refused at
once: 422 with the rule ids, and the game does not change), then hands it to the
`play.order_apply` task after commit. The task validates again at the head of the log and appends
the event exactly once (compare-and-set on the game's head, unique source_ref per intake); a
duplicate or stale delivery does nothing.

Idempotency: an intake stored with an Idempotency-Key keeps `request_hash`, the sha256 of the
canonical JSON of `{game, role, kind, payload}`. A retry with the same key and the same request
gets the first answer again; with another request it is a 422 `idempotency_key_reused` naming
the first intake, and nothing is stored (as Stripe does). Intakes stored before the hash existed
(empty `request_hash`) cannot be compared: a retry with their key gets their answer, as before.
"The first answer" is the first answer's status: an order refused at submission (`refusal` set)
is refused again with the same 409/422; an order that was accepted (202) is accepted again, with
the intake as it stands now, so a worker's later rejection shows in its `status` and `errors`
rather than turning the retry into a 422 the first request never got.

When the worker finds that the game moved on from the head the order was accepted at and the
order is no longer legal, its rejection begins with `game_moved_on`, saying so plainly, before
the engine's reasons.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy
from kombu.exceptions import OperationalError as KombuOperationalError

from games.core.canonical import state_hash
from games.core.protocol import JSON, Action, Rejection, validate_owned
from games.core.umpire import RULING_KIND, ruling_problems
from pbem.conf import pbem_settings
from pbem.play.errors import (
    GAME_IS,
    NOT_PROMPTED,
    NOT_YOUR_SEAT,
    GameNotActive,
    IdempotencyKeyReused,
    InvalidPayload,
    InvitationPending,
    NotYourSeat,
    NotYourTurn,
    OrderRejected,
    UnknownKind,
    engine_says,
    game_status_word,
    say,
)
from pbem.play.hot_sql import insert_row
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.publisher import broker_down, publish
from pbem.play.rulesets import ruleset_get
from pbem.play.services.commit import action_commit
from pbem.play.services.log import head_read

logger = logging.getLogger(__name__)
REFUSED_ILLEGAL = "illegal"
REFUSED_NOT_YOUR_TURN = "not_your_turn"


def _errors(rejections: tuple[Rejection, ...] | list[Rejection]) -> list[JSON]:
    return [r.to_json() for r in rejections]


def order_submit(
    *,
    game: Game,
    user: User,
    role: str,
    kind: str,
    payload: JSON,
    source: str,
    idempotency_key: str = "",
) -> OrderIntake:
    """Store and pre-check an order for `role`; raises UnknownKind (422), InvalidPayload (400),
    IdempotencyKeyReused (422), NotYourSeat (403), NotYourTurn (409), GameNotActive (409) or
    OrderRejected (422). Returns the intake (applied at once when Celery runs eagerly, else
    `received` until the worker applies it)."""
    digest = request_hash(game, role, kind, payload) if idempotency_key else ""
    if idempotency_key:
        existing = OrderIntake.objects.filter(user=user, idempotency_key=idempotency_key).first()
        if existing is not None:
            return _answer_again(existing, digest)  # a retried request: the same answer
    ruleset = ruleset_get(game.ruleset_id)
    malformed = tuple(ruleset.payload_errors(kind, payload))  # before seats, turns and storing
    unknown = [r for r in malformed if r.rule == "unknown_kind"]
    if unknown:
        raise UnknownKind(unknown)
    if malformed:
        raise InvalidPayload(malformed)
    # the game's seats (prefetched by the API, else one query)
    if not any(s.role == role and s.user_id == user.pk for s in game.seats.all()):
        raise NotYourSeat(say(NOT_YOUR_SEAT, role=repr(role)))
    if any(s.role == role and s.accepted_at is None for s in game.seats.all()):
        pending = gettext_lazy("accept your invitation to the seat {role} first")
        raise InvitationPending(say(pending, role=repr(role)))
    if kind == RULING_KIND:  # the roles a ruling names: the game's (a state need not know them)
        seats = [s.role for s in game.seats.all()]
        named = tuple(r for r in ruling_problems(payload, seats) if r.path.startswith("/aud"))
        if named:
            raise OrderRejected(list(named))
    state = head_read(game)  # also refreshes the game's status and head
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(say(GAME_IS, status=game_status_word(game.status)))
    head = game.head_seq
    action = Action(role, kind, payload)
    # `state` (and the head state row loaded with `game`, which it shares lists with) is used
    # for nothing else: the engine may validate on it without a copy
    rejections = tuple(validate_owned(ruleset, state, action))
    if rejections:
        if Game.headstate.related.is_cached(game):  # consumed: read the head again
            Game.headstate.related.delete_cached_value(game)
        # an umpire's refusal (UMP-n) is about what an umpire may send, never whose turn it is
        umpires = any(r.rule.startswith("UMP-") for r in rejections)
        prompted = umpires or role in ruleset.prompts(head_read(game))
        fields = {
            "status": OrderIntake.Status.REJECTED,
            "errors": _errors(rejections),
            "refusal": REFUSED_ILLEGAL if prompted else REFUSED_NOT_YOUR_TURN,
            "request_hash": digest,
        }
        intake, first = _intake_create(
            game, user, role, kind, payload, source, idempotency_key, head, fields
        )
        return _answer_again(intake, digest)  # raises; for a raced key, the first answer stands
    checked = {"request_hash": digest, "checked_engine_version": ruleset.version}
    intake, first = _intake_create(
        game, user, role, kind, payload, source, idempotency_key, head, checked
    )
    if not first:
        return _answer_again(intake, digest)  # the same key raced in: the first answer stands
    intake_id = str(intake.pk)
    # after the intake's commit (at once in autocommit; eager Celery applies it right here)
    transaction.on_commit(lambda: _enqueue(intake_id))
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return OrderIntake.objects.select_related("event").get(pk=intake.pk)
    return intake


def request_hash(game: Game, role: str, kind: str, payload: JSON) -> str:
    """What a retry with the same Idempotency-Key must repeat: sha256 of canonical JSON."""
    return state_hash({"game": str(game.pk), "role": role, "kind": kind, "payload": payload})


def _answer_again(intake: OrderIntake, digest: str = "") -> OrderIntake:
    """The answer for an intake, the first time and for every retry with its Idempotency-Key:
    raises IdempotencyKeyReused (422) when the retry is another request than the first (unless
    either hash is unknown), NotYourTurn (409) or OrderRejected (422) for a refused order, else
    returns it."""
    if digest and intake.request_hash and digest != intake.request_hash:
        reused = gettext_lazy(
            "the Idempotency-Key {key} was first used for another request"
            " (intake {intake}, {role} {kind} at {at}); send a new key for a new order"
        )
        message = say(
            reused,
            key=repr(intake.idempotency_key),
            intake=intake.pk,
            role=intake.role,
            kind=intake.kind,
            at=intake.created_at.isoformat(),
        )
        raise IdempotencyKeyReused(message, str(intake.pk))
    if intake.status != OrderIntake.Status.REJECTED or not intake.refusal:
        return intake  # accepted (202) the first time: the same answer, as the intake stands
    rejections = [
        Rejection(str(e.get("rule", "")), str(e.get("message", "")), str(e.get("path", "")))
        for e in intake.errors
        if isinstance(e, dict)
    ]
    if intake.refusal == REFUSED_NOT_YOUR_TURN:
        first = engine_says(rejections[0].message) if rejections else NOT_PROMPTED
        turn = gettext_lazy("it is not {role}'s turn: {reason}")
        raise NotYourTurn(say(turn, role=intake.role, reason=first), rejections)
    raise OrderRejected(rejections, str(intake.pk))


def _intake_create(
    game: Game,
    user: User,
    role: str,
    kind: str,
    payload: JSON,
    source: str,
    key: str,
    head: int,
    extra: Mapping[str, object],
) -> tuple[OrderIntake, bool]:
    """Create the intake; with an Idempotency-Key that another request stored first (a race),
    return that one instead (False) rather than failing on the unique constraint."""
    if not key:  # nothing to race on: one INSERT (SQL written once), no transaction around it
        intake = OrderIntake(
            game=game,
            role=role,
            user=user,
            kind=kind,
            payload=payload if payload is not None else {},
            source=source,
            idempotency_key=key,
            head_seq=head,
            **extra,
        )
        return insert_row(intake), True
    try:
        with transaction.atomic():
            intake = OrderIntake.objects.create(
                game=game,
                role=role,
                user=user,
                kind=kind,
                payload=payload if payload is not None else {},
                source=source,
                idempotency_key=key,
                head_seq=head,
                **extra,
            )
        return intake, True
    except IntegrityError:
        if not key:
            raise
        return OrderIntake.objects.get(user=user, idempotency_key=key), False


def _enqueue(intake_id: str) -> None:
    """Hand the intake to a worker (pbem.play.publisher: in the background, so the broker never
    holds the request). With the broker down the order stays safely `received` (it is committed
    already) and is recovered once the broker is back (pbem.play.services.recovery), so the
    client still gets its 202 rather than a 500."""
    try:
        publish("play.order_apply", intake_id)
    except KombuOperationalError:
        logger.warning("intake %s not enqueued (broker down); it will be recovered", intake_id)


def intake_note(intake: OrderIntake) -> str | None:
    """What a player should know of a `received` order that waits: accepted while this server's
    work queue was down, or waiting longer than usual; None when nothing is amiss."""
    if intake.status != OrderIntake.Status.RECEIVED or settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    if broker_down():
        return (
            "accepted while the server's work queue is unavailable: the order is stored and"
            " will be checked at the game's head and applied, in the order received, within"
            " seconds of the queue's return"
        )
    waited = (timezone.now() - intake.created_at).total_seconds()
    if waited > int(pbem_settings.RECOVER_AFTER_SECONDS):
        return (
            f"waiting for a worker for {waited:.0f} s, longer than usual: the order is stored"
            " and will be checked at the game's head and applied in the order received"
        )
    return None


def order_apply(*, intake_id: UUID | str) -> Event | None:
    """The worker's half: validate at the head and append exactly once (`action_commit`, which
    skips the validation when the game is still at the head the submission checked it at, with
    the same engine version). Idempotent."""
    intake = OrderIntake.objects.select_related("game").filter(pk=intake_id).first()
    if intake is None or intake.status != OrderIntake.Status.RECEIVED:
        return None  # unknown, or already handled: a duplicate delivery does nothing
    game = intake.game
    if game.status == Game.Status.PAUSED:
        return None  # stays received; the stuck-turns sweep brings it back after the pause
    checked = intake.checked_engine_version == ruleset_get(game.ruleset_id).version
    commit = action_commit(
        game=game,
        action=Action(intake.role, intake.kind, intake.payload),
        source=intake.source,
        source_ref=f"intake:{intake.pk}",
        actor_id=intake.user_id,
        checked_at=intake.head_seq if checked else None,
    )
    if commit.rejections:
        moved_on = _moved_on(intake, game) if game.head_seq != intake.head_seq else []
        _mark(intake, OrderIntake.Status.REJECTED, errors=moved_on + _errors(commit.rejections))
        return None
    if commit.event is None:
        logger.warning("intake %s: the game stayed busy; the sweep will retry", intake.pk)
        return None
    _mark(intake, OrderIntake.Status.APPLIED, event=commit.event)
    return commit.event


def order_apply_now(intake: OrderIntake, patience_s: float = 60.0) -> OrderIntake:
    """Apply an accepted intake in this process, for a caller whose next order must be read at
    the new head (the lines of a mail, the lines of the page's text box); the task sent for it
    then finds it done. Waits out a busy game (another worker holds it) for `patience_s`; the
    intake as it ends (still `received` if the game stayed busy)."""
    deadline = time.monotonic() + patience_s
    pause = 0.05
    while intake.status == OrderIntake.Status.RECEIVED and time.monotonic() < deadline:
        order_apply(intake_id=intake.pk)
        intake.refresh_from_db()
        if intake.status == OrderIntake.Status.RECEIVED:
            time.sleep(pause)  # another worker holds the game: back off
            pause = min(pause * 2, 1.0)
    return intake


def _moved_on(intake: OrderIntake, game: Game) -> list[JSON]:
    """The plain first reason of a worker's rejection when the game changed in between."""
    moved = game.head_seq - intake.head_seq
    message = (
        f"the game moved on before this order could be applied: it was accepted at event"
        f" {intake.head_seq} and checked again at event {game.head_seq}"
        f" ({moved} event{'s' if moved != 1 else ''} later), where it is no longer legal"
    )
    return [Rejection("game_moved_on", message, "").to_json()]


def _mark(
    intake: OrderIntake,
    status: str,
    event: Event | None = None,
    errors: list[JSON] | None = None,
) -> None:
    """Record the outcome by a conditional update: only a `received` intake changes."""
    fields: dict[str, object] = {"status": status}
    if event is not None:
        fields["event"] = event
    if errors is not None:
        fields["errors"] = errors
    OrderIntake.objects.filter(pk=intake.pk, status=OrderIntake.Status.RECEIVED).update(**fields)
