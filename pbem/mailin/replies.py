"""The answer to an order mail (issue 14 items 2 and 4): the orders applied and where the game
now stands, or each refusal with its rule id and the line it came from.

It goes to the mail's Reply-To (else From), threads under the player's message (In-Reply-To,
References) and carries `Auto-Submitted: auto-replied` (RFC 3834) so that other robots never
answer it; auto-replies and bounces reach `process` as `ignored` and are never answered. The
state shown is the seat's own view in words (the engine's `report_text`, built from the role's
view only) at the head after the orders; a refused message shows no game at all.
"""

from __future__ import annotations

import logging
from typing import Any

from django.template.loader import render_to_string

from pbem.mailin.models import InboundMessage
from pbem.mailin.process import Outcome, SeatOutcome
from pbem.mailin.reading import Mail
from pbem.notify.content import game_label, role_label, role_names, view_url
from pbem.notify.reply_address import seat_address, user_address
from pbem.notify.transports.base import TransportError
from pbem.notify.transports.email import mail_send, thread_root
from pbem.play.models import Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import head_read

logger = logging.getLogger(__name__)


def _seat_context(part: SeatOutcome) -> dict[str, Any]:
    game = Game.objects.filter(pk=part.game_id).first() if part.game_id else None
    context: dict[str, Any] = {"part": part, "game_id": part.game_id, "role": part.role}
    if game is None or part.code:
        context["game_title"] = game_label(game) if game is not None else part.game_id
        return context
    ruleset = ruleset_get(game.ruleset_id)
    state = head_read(game)
    names = role_names(game)
    prompts = ruleset.prompts(state)
    report = getattr(ruleset, "report_text", None)
    context.update(
        game_title=game_label(game),
        role_label=role_label(names, part.role),
        status=game.status,
        waiting_for=[role_label(names, r) for r in sorted(prompts)],
        you_are_prompted=part.role in prompts,
        prompt_text=prompts[part.role].text if part.role in prompts else "",
        report_text=report(state, part.role).rstrip() if callable(report) else "",
        view_url=view_url(game.pk),
    )
    return context


def answer_context(mail: Mail, outcome: Outcome) -> dict[str, Any]:
    return {
        "subject": mail.subject,
        "code": outcome.code,
        "reason": outcome.reason,
        "ok": outcome.ok,
        "seats": [] if outcome.code else [_seat_context(s) for s in outcome.seats],
    }


def _reply_address(outcome: Outcome) -> str:
    """Where the player's next orders go: the same kind of address they wrote to (only once the
    sender is known to be the seat's player)."""
    target, user = outcome.target, outcome.user
    if target is None or user is None or outcome.code in ("wrong_sender", "forged_address"):
        return ""
    if target.kind == "user":
        return user_address(user_pk=user.pk)
    seat = Seat.objects.filter(pk=target.pk).first()
    return (
        "" if seat is None else seat_address(game_id=seat.game_id, role=seat.role, seat_pk=seat.pk)
    )


def answer_send(row: InboundMessage, mail: Mail, outcome: Outcome) -> bool:
    """Send the answer; False when there is no one to send it to or the mail server refused."""
    to = mail.reply_to_addr or mail.from_addr
    if not to:
        return False
    context = answer_context(mail, outcome)
    subject = " ".join(render_to_string("mailin/answer-subject.txt", context).split())
    text = render_to_string("mailin/answer-body.txt", context).strip() + "\n"
    html = render_to_string("mailin/answer-body.html", context)
    headers = {"Auto-Submitted": "auto-replied", "X-PBEM-Inbound": str(row.pk)}
    if mail.message_id:
        headers["In-Reply-To"] = f"<{mail.message_id}>"
        references = f"<{mail.message_id}>"
        if len(outcome.seats) == 1 and outcome.seats[0].game_id and not outcome.code:
            references = f"{thread_root(outcome.seats[0].game_id)} {references}"
        headers["References"] = references
    reply_to = _reply_address(outcome)
    if reply_to:
        headers["Reply-To"] = reply_to
    try:
        mail_send(to=to, subject=subject, text=text, html=html, headers=headers)
    except TransportError as e:
        logger.warning("mailin: the answer to %s was not sent: %s", row.pk, e)
        return False
    return True
