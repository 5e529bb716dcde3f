"""Service errors; the API turns each into a 4xx with a clear body (pbem.api.exceptions).

A service error's message is marked for translation where it is raised (`gettext_lazy`, filled
with `say`) and written in the language active when it is read: `message` is the text in the
active language (the page's, the API request's, the mail's; pbem.api.exceptions reads it in the
caller's), `english` the source text (for logs and stored records). The engine's sentences an
error carries (a refusal) go through pbem.play.engine_text the same way (`engine_says`). `code`,
rule ids and `status` never change with the language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import translation
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.core.protocol import Rejection
from pbem.play.engine_text import engine_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def say(template: StrOrPromise, /, **values: object) -> StrOrPromise:
    """`template` (marked with gettext_lazy, `{name}` fields) filled with `values` when it is
    read, in the language active then."""
    return format_lazy(template, **values) if values else template


def _engine_joined(rejections: tuple[Rejection, ...], with_rules: bool, empty: object) -> str:
    parts = [
        f"{r.rule}: {engine_text(r.message)}" if with_rules else engine_text(r.message)
        for r in rejections
    ]
    return "; ".join(parts) or str(empty)


# engine sentences, translated when read (pbem.play.engine_text)
engine_says = lazy(engine_text, str)
_engine_joined_lazy = lazy(_engine_joined, str)


# sentences several services raise
NOT_YOUR_SEAT = _("you do not hold the seat {role} in this game")
GAME_IS = _("the game is {status}")
SEVERAL_ROLES = _("you hold several roles {roles}; say which one")
NOT_PROMPTED = _("not prompted")

# a game's status in a sentence ("the game is finished"); the code itself never changes
GAME_STATUS_WORDS: dict[str, StrOrPromise] = {
    "active": pgettext_lazy("game status", "active"),
    "paused": pgettext_lazy("game status", "paused"),
    "finished": pgettext_lazy("game status", "finished"),
}


def game_status_word(status: str) -> StrOrPromise:
    return GAME_STATUS_WORDS.get(status, status)


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: StrOrPromise) -> None:
        super().__init__(message)
        self._message = message

    @property
    def message(self) -> str:
        """The message in the active language."""
        return str(self._message)

    @property
    def marked(self) -> StrOrPromise:
        """The message as marked for translation (read it with str() in any language)."""
        return self._message

    @property
    def english(self) -> str:
        """The message as written (English), whatever language is active."""
        with translation.override(None):
            return str(self._message)


class ReadForbidden(ServiceError):
    """The caller may not read this, or act as this role (a private game, a seat they do not
    hold): 403, answered as any other refused permission."""

    status = 403
    code = "permission_denied"


class InvalidField(ServiceError):
    """One request field is wrong in a way only the service can tell (e.g. a `role` that must be
    named): 400, answered as a serializer's error on that field (`path` points at it)."""

    status = 400
    code = "invalid"

    def __init__(self, field: str, message: StrOrPromise) -> None:
        super().__init__(message)
        self.field = field


class NotYourSeat(ServiceError):
    status = 403
    code = "not_your_seat"


class NotYourTurn(ServiceError):
    status = 409
    code = "not_your_turn"

    def __init__(self, message: StrOrPromise, rejections: Sequence[Rejection] = ()) -> None:
        super().__init__(message)
        self.rejections = tuple(rejections)


class SeatTaken(ServiceError):
    status = 409
    code = "seat_taken"


class InvitationPending(ServiceError):
    """The seat was offered to the user, who has not accepted it yet."""

    status = 403
    code = "invitation_pending"


class GameNotActive(ServiceError):
    status = 409
    code = "game_not_active"


class GameBusy(ServiceError):
    status = 409
    code = "game_busy"


class OrderRejected(ServiceError):
    status = 422
    code = "order_rejected"

    def __init__(self, rejections: Sequence[Rejection], intake_id: str | None = None) -> None:
        self.rejections = tuple(rejections)
        super().__init__(_engine_joined_lazy(self.rejections, True, ""))
        self.intake_id = intake_id


class UnknownKind(ServiceError):
    """The ruleset has no such action kind (checked before seats and turns; nothing stored)."""

    status = 422
    code = "unknown_kind"

    def __init__(self, rejections: Sequence[Rejection]) -> None:
        self.rejections = tuple(rejections)
        super().__init__(_engine_joined_lazy(self.rejections, False, _("unknown action kind")))


class InvalidPayload(ServiceError):
    """The payload does not match its kind's schema (unknown or missing fields; nothing stored)."""

    status = 400
    code = "invalid_payload"

    def __init__(self, rejections: Sequence[Rejection]) -> None:
        self.rejections = tuple(rejections)
        joined = _engine_joined_lazy(self.rejections, False, "")
        super().__init__(say(_("the payload is malformed: {problems}"), problems=joined))


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key sent again with another request than its first use (nothing stored)."""

    status = 422
    code = "idempotency_key_reused"

    def __init__(self, message: StrOrPromise, intake_id: str) -> None:
        super().__init__(message)
        self.intake_id = intake_id

    @property
    def rejections(self) -> tuple[Rejection, ...]:
        return (Rejection("idempotency_key_reused", self.message, ""),)


class StaleHead(Exception):
    """Another event was appended first (compare-and-set on Game.head_seq failed)."""


class ReplayDiverged(Exception):
    """Replaying the log does not reproduce a stored state hash."""
