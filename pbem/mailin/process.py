"""Read a stored inbound message and apply its orders (issue 14 item 2).

The checks, in order; the first that fails decides the answer and nothing is applied:
1. an auto-reply, bounce or list mail is `ignored` and never answered (mail loops);
2. one recipient must be a reply address of ours with a valid signature and a key still
   accepted (`unknown_address`, `forged_address`, `expired_address`);
3. the sender (the From address) must be the verified address of the seat's player (an active
   account: sign-up verifies the address), else `wrong_sender`;
4. the game must be running (`game_not_active`), the body must hold order lines (`empty`,
   `attachments_only`), within the bounds (`too_long`).

Then each order line, in order, is read by the engine's `parse_text` at the head of the log and
every action it gives goes through the API's order path (`order_submit`: an intake with source
`email`, the engine's `validate` at the head, the worker's exactly-once apply). The first refused
line stops the rest (a wargame order depends on those before it); its rule id and text are in
the answer. Each action's Idempotency-Key is `mail:<message>:<line>:<n>`, so processing the same
message again (a task delivered twice, a worker that died half way) applies nothing twice.

A reply to a digest (a user's reply address) carries sections headed `== game <id> as <role> ==`;
each section is applied as above for that seat of that user.

The reasons and the few line errors written here are `Sentence`s: marked for translation, kept in
English in the outcome the row records (`to_json`), and written in the sender's language by the
answer (pbem.mailin.replies). Codes and rule ids are never translated.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext_lazy

from games.core.protocol import Action, Rejection
from pbem.mailin.models import InboundMessage
from pbem.mailin.reading import Mail, Section, sections
from pbem.notify.reply_address import (
    BadAddress,
    ReplyTarget,
    address_read,
    seat_mac_ok,
    user_mac_ok,
)
from pbem.play.errors import ServiceError
from pbem.play.models import Game, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import numbering_for
from pbem.play.services.log import head_read
from pbem.play.services.orders import order_apply_now, order_submit

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)
MAX_LINES = 200
MAX_LINE_CHARS = 500
APPLY_PATIENCE_S = 60.0  # how long to wait for a busy game before the line is left to the sweep
SECTION_MARKER = "== game <id> as <role> =="  # as pbem.mailin.reading `sections` reads it
NO_ORDER_RULE = "NT-0"


@dataclass(frozen=True)
class Sentence:
    """A sentence of the answer, written in the language active when it is shown: `message` is
    marked for translation (gettext_lazy, or ngettext_lazy counting one of `values`) and filled
    with `values` (%(name)s; a value may be a lazy translation too). `str()` is the English text
    the outcome records."""

    message: StrOrPromise
    values: Mapping[str, object] = field(default_factory=dict)

    def text(self) -> str:
        """The sentence in the active language (e.g. inside `translation.override`)."""
        if not self.values:
            return str(self.message)
        values = {k: str(v) if isinstance(v, Promise) else v for k, v in self.values.items()}
        return str(self.message % values)

    def __str__(self) -> str:
        with translation.override(None):  # the source text: English
            return self.text()


# a game's status in a sentence ("the game is finished")
GAME_STATUS_WORDS: dict[str, StrOrPromise] = {
    Game.Status.ACTIVE.value: pgettext_lazy("game status", "active"),
    Game.Status.PAUSED.value: pgettext_lazy("game status", "paused"),
    Game.Status.FINISHED.value: pgettext_lazy("game status", "finished"),
}


def game_status_word(status: str) -> StrOrPromise:
    return GAME_STATUS_WORDS.get(status, status)


@dataclass
class LineOutcome:
    line: int
    text: str
    status: str  # applied | refused | not_tried | waiting
    last: int = 0  # the last line, when one order took several (a set-up)
    events: list[int] = field(default_factory=list)  # in the seat's own numbering
    errors: list[dict[str, str]] = field(default_factory=list)
    # errors[i]'s message as a Sentence to translate, for the few written here (the engine's own
    # go through pbem.play.engine_text); never recorded
    sentences: dict[int, Sentence] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "last": self.last,
            "text": self.text,
            "status": self.status,
            "events": self.events,
            "errors": self.errors,
        }


@dataclass
class SeatOutcome:
    """What became of one seat's orders (one section of a digest reply, or the whole mail)."""

    game_id: str
    role: str
    lines: list[LineOutcome] = field(default_factory=list)
    code: str = ""  # a refusal of the whole section (its lines were not tried)
    reason: str = ""  # in English
    reason_sentence: Sentence | None = None  # the same, to translate

    def refuse(self, code: str, reason: Sentence) -> None:
        self.code, self.reason, self.reason_sentence = code, str(reason), reason

    @property
    def ok(self) -> bool:
        return not self.code and all(o.status == "applied" for o in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "role": self.role,
            "code": self.code,
            "reason": self.reason,
            "lines": [o.to_json() for o in self.lines],
        }


@dataclass
class Outcome:
    """The whole answer: a refusal of the message (code, reason) or one entry per seat."""

    code: str = ""
    reason: str = ""  # in English
    seats: list[SeatOutcome] = field(default_factory=list)
    reason_sentence: Sentence | None = None  # the reason, to translate
    user: User | None = None
    target: ReplyTarget | None = None

    @property
    def ok(self) -> bool:
        return not self.code and bool(self.seats) and all(s.ok for s in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "reason": self.reason,
            "seats": [s.to_json() for s in self.seats],
        }


class Refused(Exception):
    def __init__(self, code: str, reason: Sentence) -> None:
        super().__init__(str(reason))
        self.code = code
        self.reason = str(reason)
        self.sentence = reason


FORGED = gettext_lazy("this reply address was not issued by this server")


# --- who wrote to which address ------------------------------------------------------------------


def _target(row: InboundMessage) -> ReplyTarget:
    """The first envelope recipient that is a reply address of ours (the SMTP envelope, or what
    the ESP reports as the envelope recipient)."""
    last: BadAddress | None = None
    for address in row.envelope_to:
        try:
            return address_read(str(address))
        except BadAddress as e:
            if last is None or (e.code != "not_ours" and last.code == "not_ours"):
                last = e  # the most telling reason: not one of ours only if none is
    if last is not None and last.code == "expired_key":
        raise Refused(
            "expired_address",
            Sentence(
                gettext_lazy(
                    "this reply address has expired (its signing key was retired); reply to your"
                    " latest turn mail instead"
                )
            ),
        )
    raise Refused(
        "unknown_address",
        Sentence(gettext_lazy("this message is not addressed to a reply address of ours")),
    )


def _sender_ok(user: User | None, mail: Mail) -> bool:
    return (
        user is not None
        and user.is_active
        and bool(user.email)
        and user.email.strip().lower() == mail.from_addr
    )


def _seat_for(target: ReplyTarget, mail: Mail) -> Seat:
    seat = Seat.objects.select_related("game", "user").filter(pk=target.pk).first()
    if seat is None or not seat_mac_ok(target, game_id=seat.game_id, role=seat.role):
        raise Refused("forged_address", Sentence(FORGED))
    if not _sender_ok(seat.user, mail):
        raise Refused(
            "wrong_sender",
            Sentence(
                gettext_lazy(
                    "this reply address belongs to a seat whose player has another email address;"
                    " send your orders from the address your account verified"
                )
            ),
        )
    return seat


def _user_for(target: ReplyTarget, mail: Mail) -> User:
    user = User.objects.filter(pk=target.pk).first()
    if user is None or not user_mac_ok(target):
        raise Refused("forged_address", Sentence(FORGED))
    if not _sender_ok(user, mail):
        raise Refused(
            "wrong_sender",
            Sentence(
                gettext_lazy(
                    "this reply address belongs to another player; send your orders from the"
                    " address your account verified"
                )
            ),
        )
    return user


# --- the order lines ------------------------------------------------------------------------------


def _bounds(lines: tuple[tuple[int, str], ...]) -> None:
    if len(lines) > MAX_LINES:
        many = ngettext_lazy(
            "at most %(max)s order line a message", "at most %(max)s order lines a message", "max"
        )
        raise Refused("too_long", Sentence(many, {"max": MAX_LINES}))
    for n, text in lines:
        if len(text) > MAX_LINE_CHARS:
            long = ngettext_lazy(
                "line %(line)s is longer than %(max)s character",
                "line %(line)s is longer than %(max)s characters",
                "max",
            )
            raise Refused("too_long", Sentence(long, {"line": n, "max": MAX_LINE_CHARS}))


def _errors(rejections: tuple[Rejection, ...] | list[Rejection]) -> list[dict[str, str]]:
    return [{"rule": r.rule, "message": r.message} for r in rejections]


def _service_errors(e: ServiceError) -> list[dict[str, str]]:
    """The refusal as recorded: in English (the answer translates it: `_service_sentences`)."""
    rejections = getattr(e, "rejections", ())
    if rejections:
        return _errors(list(rejections))
    return [{"rule": e.code, "message": e.english}]


def _service_sentences(e: ServiceError) -> dict[int, Sentence]:
    """The platform's own refusal (not an engine's) as a sentence of the answer."""
    return {} if getattr(e, "rejections", ()) else {0: Sentence(e.marked)}


def _text(lines: Sequence[tuple[int, str]]) -> str:
    """The lines as one text whose line k is the mail's line k (blank between), so that an
    engine's "line n" in a form error is the line number in the mail."""
    if not lines:
        return ""
    by_number = dict(lines)
    return "\n".join(by_number.get(i, "") for i in range(1, lines[-1][0] + 1))


NO_ORDER = Sentence(gettext_lazy("the text holds no order"))


def _first_group(
    ruleset: Any, state: Any, role: str, lines: Sequence[tuple[int, str]]
) -> tuple[int, list[Action]] | Rejection:
    """The actions the first lines give, and how many lines they took: the engine reads the whole
    remaining text at the head (a form error anywhere is refused at once, with its line), and the
    shortest prefix of lines that reads as the start of those actions is what they consumed (a
    set-up written over several lines is one action; most orders are one line each)."""
    parsed = ruleset.parse_text(state, role, _text(lines))
    if isinstance(parsed, Rejection):
        return parsed
    actions = list(parsed)
    if not actions:
        return Rejection(NO_ORDER_RULE, str(NO_ORDER), "/")
    for k in range(1, len(lines) + 1):
        prefix = ruleset.parse_text(state, role, _text(lines[:k]))
        if isinstance(prefix, Rejection) or not prefix:
            continue
        got = list(prefix)
        if got == actions[: len(got)]:
            return k, got
    return len(lines), actions


def _submit(
    message: InboundMessage, seat: Seat, user: User, action: Action, key: str, out: LineOutcome
) -> bool:
    """One action through the order path, applied now; False (and `out` says why) if refused."""
    game = seat.game
    try:
        intake = order_submit(
            game=game,
            user=user,
            role=seat.role,
            kind=action.kind,
            payload=action.payload,
            source="email",
            idempotency_key=key,
        )
    except ServiceError as e:
        out.status, out.errors = "refused", _service_errors(e)
        out.sentences = _service_sentences(e)
        return False
    intake = order_apply_now(intake, APPLY_PATIENCE_S)
    if intake.status == OrderIntake.Status.REJECTED:
        out.status = "refused"
        out.errors = [
            {"rule": str(e.get("rule", "")), "message": str(e.get("message", ""))}
            for e in intake.errors
            if isinstance(e, dict)
        ]
        return False
    if intake.status == OrderIntake.Status.RECEIVED:
        out.status = "waiting"  # accepted; the game stayed busy: the worker applies it later
        return False
    if intake.event is not None:
        out.events.append(numbering_for(game, [seat.role]).role_seq(intake.event.seq))
    return True


def seat_lines_apply(
    message: InboundMessage, seat: Seat, lines: tuple[tuple[int, str], ...]
) -> SeatOutcome:
    """Read and apply `lines` for `seat`, in order, each group of lines read at the head left by
    the one before, stopping at the first refused one."""
    game = seat.game
    out = SeatOutcome(game_id=str(game.pk), role=seat.role)
    user = seat.user
    if user is None:
        out.refuse("forged_address", Sentence(gettext_lazy("this seat has no player")))
        return out
    ruleset = ruleset_get(game.ruleset_id)
    rest = list(lines)
    while rest:
        state = head_read(game)
        if game.status != Game.Status.ACTIVE:
            group = LineOutcome(line=rest[0][0], text=rest[0][1], status="refused")
            inactive = Sentence(
                gettext_lazy("the game is %(status)s"), {"status": game_status_word(game.status)}
            )
            group.errors = [{"rule": "game_not_active", "message": str(inactive)}]
            group.sentences[0] = inactive
            out.lines.append(group)
            rest = rest[1:]
            break
        found = _first_group(ruleset, state, seat.role, rest)
        if isinstance(found, Rejection):
            at = _rejected_line(found, rest)
            group = LineOutcome(line=at[0], text=at[1], status="refused")
            group.errors = [{"rule": found.rule, "message": found.message}]
            if found.rule == NO_ORDER_RULE and found.message == str(NO_ORDER):
                group.sentences[0] = NO_ORDER
            out.lines.extend(LineOutcome(n, t, "not_tried") for n, t in rest if n < at[0])
            out.lines.append(group)
            rest = [(n, t) for n, t in rest if n > at[0]]
            break
        taken, actions = found
        used, rest = rest[:taken], rest[taken:]
        group = LineOutcome(line=used[0][0], text="\n".join(t for _, t in used), status="applied")
        if len(used) > 1:
            group.last = used[-1][0]
        out.lines.append(group)
        ok = all(
            _submit(message, seat, user, a, f"mail:{message.pk}:{used[0][0]}:{i}", group)
            for i, a in enumerate(actions)
        )
        if not ok:
            break
    out.lines.extend(LineOutcome(n, t, "not_tried") for n, t in rest)
    return out


def _rejected_line(rejection: Rejection, lines: Sequence[tuple[int, str]]) -> tuple[int, str]:
    """The mail line a form error names (`/line/<n>`), else the first line."""
    by_number = dict(lines)
    tail = rejection.path.rsplit("/", 1)[-1]
    if rejection.path.startswith("/line/") and tail.isdigit() and int(tail) in by_number:
        return int(tail), by_number[int(tail)]
    return lines[0]


# --- the whole message ----------------------------------------------------------------------------


def _seat_sections(user: User, parts: list[Section]) -> list[tuple[Seat | None, Section]]:
    out: list[tuple[Seat | None, Section]] = []
    for part in parts:
        seat = None
        if part.game is not None:
            seat = (
                Seat.objects.select_related("game", "user")
                .filter(game_id=part.game, user=user)
                .filter(**({"role__iexact": part.role} if part.role else {}))
                .order_by("role")
                .first()
            )
        out.append((seat, part))
    return out


def _lines_checked(mail: Mail) -> tuple[tuple[int, str], ...]:
    if mail.attachments_only:
        raise Refused(
            "attachments_only",
            Sentence(gettext_lazy("orders must be in the text of the mail, not in an attachment")),
        )
    if not mail.lines:
        raise Refused("empty", Sentence(gettext_lazy("the mail holds no order lines")))
    _bounds(mail.lines)
    return mail.lines


def _digest_apply(message: InboundMessage, user: User, mail: Mail) -> list[SeatOutcome]:
    """A reply to a digest: each section applied for the user's seat its header names."""
    out: list[SeatOutcome] = []
    for held, part in _seat_sections(user, sections(_lines_checked(mail))):
        if not part.lines:
            continue
        if held is not None:
            out.append(seat_lines_apply(message, held, part.lines))
            continue
        where = SeatOutcome(game_id=part.game or "", role=part.role or "")
        where.refuse(
            "unknown_section",
            Sentence(
                gettext_lazy("orders before the first '%(marker)s' line"),
                {"marker": SECTION_MARKER},
            )
            if part.game is None
            else Sentence(gettext_lazy("you hold no such seat in this game")),
        )
        where.lines = [LineOutcome(n, t, "not_tried") for n, t in part.lines]
        out.append(where)
    if not out:
        raise Refused(
            "empty",
            Sentence(gettext_lazy("the mail holds no order lines under a game's header line")),
        )
    return out


def message_outcome(message: InboundMessage, mail: Mail) -> Outcome:
    """Decide and apply; never raises for a bad message (its refusal is the outcome)."""
    outcome = Outcome()
    try:
        target = _target(message)
        outcome.target = target
        if target.kind == "seat":
            seat = _seat_for(target, mail)
            outcome.user = seat.user
            outcome.seats.append(seat_lines_apply(message, seat, _lines_checked(mail)))
        else:
            user = _user_for(target, mail)
            outcome.user = user
            outcome.seats.extend(_digest_apply(message, user, mail))
    except Refused as e:
        outcome.code, outcome.reason, outcome.reason_sentence = e.code, e.reason, e.sentence
    return outcome
