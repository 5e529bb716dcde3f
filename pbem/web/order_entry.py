"""The order form: one choice per action a seat may take now, built from the engine's
`actions(state, role)` (kind, description, JSON Schema, legal choices), and the submission of a
form or of text in the engine's notation through the one order path
(`pbem.play.services.orders.order_submit`, source "web").

A kind's payload comes from, in this order: a legal choice picked from the list (`choice-<kind>`),
the raw JSON box (`payload-<kind>`), or the fields generated from its schema (`<kind>.<field>`).
A refusal becomes `Problem`s (rule id and message) the page shows in `#order-errors`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games.core.protocol import JSON, Rejection
from pbem.play.errors import ServiceError
from pbem.play.models import Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply_now, order_submit
from pbem.web.schema_fields import FieldError, FieldSpec, fields_for, parse_json, read_fields

LABEL_MAX = 160  # characters of a choice's label
TEXT_MAX = 20000  # characters of the text box
KIND_MAX = 40  # characters of an action kind (as the order path stores it)


@dataclass(frozen=True, slots=True)
class Problem:
    """A refusal as the page shows it: the rule (or check) that refuses, and why."""

    rule: str
    message: str
    field: str = ""


@dataclass(frozen=True, slots=True)
class Choice:
    value: str  # the payload as JSON
    label: str


@dataclass(frozen=True, slots=True)
class ActionForm:
    kind: str
    description: str
    any_time: bool
    choices: tuple[Choice, ...]
    complete: bool  # the choices are every legal payload
    fields: tuple[FieldSpec, ...]


def _label_part(value: JSON) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_label_part(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + " ".join(_label_part(v) for v in value) + "]"
    return "—" if value is None else str(value)


def choice_label(payload: JSON) -> str:
    """A short text for one legal payload: its keys and values, cut at LABEL_MAX."""
    text = _label_part(payload) if payload not in ({}, None) else _("(nothing to fill in)")
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "…"


def action_forms(specs: Sequence[Mapping[str, JSON]]) -> list[ActionForm]:
    """The forms of the actions a seat may take (`ActionSpec.to_json()` each)."""
    forms: list[ActionForm] = []
    for spec in specs:
        kind = str(spec.get("kind", ""))
        choices = spec.get("choices")
        payloads = choices.get("payloads") if isinstance(choices, dict) else None
        listed = payloads if isinstance(payloads, list) else []
        complete = isinstance(choices, dict) and choices.get("complete") is True
        forms.append(
            ActionForm(
                kind=kind,
                description=str(spec.get("description", "")),
                any_time=spec.get("any_time") is True,
                choices=tuple(
                    Choice(json.dumps(p, sort_keys=True, separators=(",", ":")), choice_label(p))
                    for p in listed
                ),
                complete=complete,
                fields=tuple(fields_for(kind, spec.get("schema"))),
            )
        )
    return forms


def payload_from(form: ActionForm, data: Mapping[str, str]) -> JSON:
    """The payload the submitted form describes for its kind (FieldError naming a bad field)."""
    picked = str(data.get(f"choice-{form.kind}", "")).strip()
    if picked:
        return parse_json(f"choice-{form.kind}", picked)
    raw = str(data.get(f"payload-{form.kind}", "")).strip()
    if raw:
        return parse_json(f"payload-{form.kind}", raw)
    return read_fields(list(form.fields), data)


def problems_of(error: ServiceError) -> list[Problem]:
    """The refusals an order-path error carries (its rejections, else its code and message)."""
    rejections: Sequence[Rejection] = getattr(error, "rejections", ())
    if rejections:
        return [Problem(r.rule, r.message) for r in rejections]
    return [Problem(error.code, error.message)]


@dataclass(frozen=True, slots=True)
class Outcome:
    applied: list[int]  # the events made (global seqs), in order
    waiting: int  # orders accepted for a worker, not applied yet
    problems: list[Problem]
    status: int  # the HTTP status of a refusal (200 when none)


def _intake_problems(intake: OrderIntake) -> list[Problem]:
    return [
        Problem(str(e.get("rule", "")), str(e.get("message", "")))
        for e in intake.errors
        if isinstance(e, dict)
    ]


TEXT_PATIENCE_S = 20.0  # how long an order of the text box waits out a busy game


def submit(
    game: Game, user: User, role: str, kind: str, payload: JSON, now: bool = False
) -> Outcome:
    """One order through the order path; a refusal is an Outcome with problems, never raised.
    `now`: applied in this request (the next order of a text must be read at the new head)."""
    try:
        intake = order_submit(
            game=game, user=user, role=role, kind=kind, payload=payload, source="web"
        )
    except ServiceError as e:
        return Outcome([], 0, problems_of(e), e.status)
    if now:
        intake = order_apply_now(intake, TEXT_PATIENCE_S)
        if intake.status == OrderIntake.Status.RECEIVED:
            busy = _("the game stayed busy: this order waits, the ones after it were not sent")
            return Outcome([], 1, [Problem("game_busy", busy)], 409)
    if intake.status == OrderIntake.Status.REJECTED:  # the (eager) worker refused it
        return Outcome([], 0, _intake_problems(intake) or [Problem("rejected", "")], 422)
    if intake.event is not None:
        return Outcome([intake.event.seq], 0, [], 200)
    return Outcome([], 1, [], 200)


def submit_text(game: Game, user: User, role: str, text: str) -> Outcome:
    """Orders in the engine's notation, read at the head (`parse_text`) and submitted one by one
    in order, each but the last applied before the next is sent (as the lines of a mail are:
    the next is checked at the head the one before made); the first refusal stops the rest."""
    if len(text) > TEXT_MAX:
        limit = _("the text has at most %(n)d characters") % {"n": TEXT_MAX}
        return Outcome([], 0, [Problem("too_large", limit)], 413)
    if role not in {s.role for s in game.seats.all() if s.user_id == user.pk}:
        message = _("you do not hold the seat %(role)s in this game") % {"role": role}
        return Outcome([], 0, [Problem("not_your_seat", message)], 403)
    ruleset = ruleset_get(game.ruleset_id)
    parsed = ruleset.parse_text(state_at(game, game.head_seq), role, text)
    if isinstance(parsed, Rejection):
        return Outcome([], 0, [Problem(parsed.rule, parsed.message)], 422)
    if not parsed:
        return Outcome([], 0, [Problem("parse_error", _("no order found in the text"))], 422)
    applied: list[int] = []
    waiting = 0
    for n, action in enumerate(parsed, start=1):
        game.refresh_from_db()
        one = submit(game, user, role, action.kind, action.payload, now=n < len(parsed))
        applied += one.applied
        waiting += one.waiting
        if one.problems:
            return Outcome(applied, waiting, one.problems, one.status)
    return Outcome(applied, waiting, [], 200)


def submit_form(
    game: Game, user: User, role: str, forms: Sequence[ActionForm], data: Mapping[str, str]
) -> Outcome:
    """The order form: the text box when it holds text, else the chosen kind's payload."""
    text = str(data.get("text", "")).strip()
    if text:
        return submit_text(game, user, role, text)
    kind = str(data.get("kind", "")).strip()
    if not kind:
        return Outcome([], 0, [Problem("kind", _("choose what to do"), "kind")], 400)
    if len(kind) > KIND_MAX:
        return Outcome([], 0, [Problem("unknown_kind", _("no such action"), "kind")], 422)
    form = next((f for f in forms if f.kind == kind), None)
    if form is None:
        # not offered to this seat now: the order path says why (unknown kind, not your turn)
        form = ActionForm(kind, "", False, (), False, ())
    try:
        payload = payload_from(form, data)
    except FieldError as e:
        return Outcome([], 0, [Problem("form", e.message, e.name)], 400)
    return submit(game, user, role, kind, payload)
