"""The answer to an order mail (issue 14 items 2 and 4): the orders applied and where the game
now stands, or each refusal with its rule id and the line it came from.

It goes to the mail's Reply-To (else From), threads under the player's message (In-Reply-To,
References) and carries `Auto-Submitted: auto-replied` (RFC 3834) so that other robots never
answer it; auto-replies and bounces reach `process` as `ignored` and are never answered. The
state shown is the seat's own view in words (the engine's `report_text`, built from the role's
view only) at the head after the orders; a refused message shows no game at all.

The answer is written in the sender's language (pbem.notify.language `in_language_of`) when the
sender is known: the user whose reply address it went to and whose verified address sent it
(`Outcome.user`); a mail from anyone else (a forged or unknown address, the wrong sender) is
answered in settings.LANGUAGE_CODE, so that the answer tells a stranger nothing about a player.
The templates' sentences and the reasons are translated, the engine's messages, report and prompt
go through pbem.play.engine_text; what programs and mail clients read is never translated: the
`Re:` of the subject, codes and rule ids, event numbers, the quoted order lines, each game's
`== game <id> as <role> ==` line (pbem.mailin.reading `sections`), the reply address, and the
`X-PBEM-Outcome` header (`applied`, `refused` or `not_applied`).
"""

from __future__ import annotations

import logging
from typing import Any

from django.template.loader import render_to_string

from pbem.mailin.models import InboundMessage
from pbem.mailin.process import LineOutcome, Outcome, SeatOutcome, game_status_word
from pbem.mailin.reading import Mail
from pbem.notify.content import game_label, role_label, role_names, view_url
from pbem.notify.digest import section_header
from pbem.notify.language import in_language_of
from pbem.notify.reply_address import seat_address, user_address
from pbem.notify.transports.base import TransportError
from pbem.notify.transports.email import mail_send, thread_root
from pbem.play.engine_text import engine_text
from pbem.play.models import Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import head_read

logger = logging.getLogger(__name__)


def _line_context(line: LineOutcome) -> dict[str, Any]:
    """One order line as the answer shows it: the errors' messages in the active language (the
    engine's through engine_text), the rest as it was."""
    errors = [
        {
            "rule": e.get("rule", ""),
            "message": (
                line.sentences[i].text()
                if i in line.sentences
                else engine_text(str(e.get("message", "")))
            ),
        }
        for i, e in enumerate(line.errors)
    ]
    return {
        "line": line.line,
        "last": line.last,
        "text": line.text,
        "status": line.status,
        "events": line.events,
        "event_list": ", ".join(str(e) for e in line.events),
        "errors": errors,
    }


def _marker(part: SeatOutcome) -> str:
    """The section's `== game <id> as <role> ==` line (what a reply to a digest is split at)."""
    if not part.game_id:
        return ""
    return section_header(part.game_id, part.role) if part.role else f"== game {part.game_id} =="


def _seat_context(part: SeatOutcome) -> dict[str, Any]:
    game = Game.objects.filter(pk=part.game_id).first() if part.game_id else None
    reason = part.reason_sentence.text() if part.reason_sentence is not None else part.reason
    context: dict[str, Any] = {
        "code": part.code,
        "reason": reason,
        "header": _marker(part),
        "game_id": part.game_id,
        "role": part.role,
        "lines": [_line_context(line) for line in part.lines],
    }
    if game is None or part.code:
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
        status_word=str(game_status_word(game.status)),  # in the active language
        waiting_for=[role_label(names, r) for r in sorted(prompts)],
        you_are_prompted=part.role in prompts,
        prompt_text=prompts[part.role].text if part.role in prompts else "",
        report_text=report(state, part.role).rstrip() if callable(report) else "",
        view_url=view_url(game.pk),
    )
    return context


def answer_context(mail: Mail, outcome: Outcome) -> dict[str, Any]:
    """What the answer's templates show, its sentences in the active language."""
    sentence = outcome.reason_sentence
    return {
        "subject": mail.subject,
        "code": outcome.code,
        "reason": sentence.text() if sentence is not None else outcome.reason,
        "ok": outcome.ok,
        "seats": [] if outcome.code else [_seat_context(s) for s in outcome.seats],
    }


def outcome_word(outcome: Outcome) -> str:
    """The answer's `X-PBEM-Outcome` header: the outcome for programs, in no language."""
    if outcome.code:
        return "not_applied"
    return "applied" if outcome.ok else "refused"


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
    with in_language_of(outcome.user):  # set only once the sender is known to be that user
        context = answer_context(mail, outcome)
        subject = " ".join(render_to_string("mailin/answer-subject.txt", context).split())
        text = render_to_string("mailin/answer-body.txt", context).strip() + "\n"
        html = render_to_string("mailin/answer-body.html", context)
    headers = {
        "Auto-Submitted": "auto-replied",
        "X-PBEM-Inbound": str(row.pk),
        "X-PBEM-Outcome": outcome_word(outcome),
    }
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
