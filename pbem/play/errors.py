"""Service errors; the API turns each into a 4xx with a clear body (pbem.api.exceptions)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.protocol import Rejection


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NotYourSeat(ServiceError):
    status = 403
    code = "not_your_seat"


class NotYourTurn(ServiceError):
    status = 409
    code = "not_your_turn"

    def __init__(self, message: str, rejections: Sequence[Rejection] = ()) -> None:
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
        super().__init__("; ".join(f"{r.rule}: {r.message}" for r in rejections))
        self.rejections = tuple(rejections)
        self.intake_id = intake_id


class UnknownKind(ServiceError):
    """The ruleset has no such action kind (checked before seats and turns; nothing stored)."""

    status = 422
    code = "unknown_kind"

    def __init__(self, rejections: Sequence[Rejection]) -> None:
        super().__init__("; ".join(r.message for r in rejections) or "unknown action kind")
        self.rejections = tuple(rejections)


class InvalidPayload(ServiceError):
    """The payload does not match its kind's schema (unknown or missing fields; nothing stored)."""

    status = 400
    code = "invalid_payload"

    def __init__(self, rejections: Sequence[Rejection]) -> None:
        super().__init__("the payload is malformed: " + "; ".join(r.message for r in rejections))
        self.rejections = tuple(rejections)


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key sent again with another request than its first use (nothing stored)."""

    status = 422
    code = "idempotency_key_reused"

    def __init__(self, message: str, intake_id: str) -> None:
        super().__init__(message)
        self.rejections = (Rejection("idempotency_key_reused", message, ""),)
        self.intake_id = intake_id


class StaleHead(Exception):
    """Another event was appended first (compare-and-set on Game.head_seq failed)."""


class ReplayDiverged(Exception):
    """Replaying the log does not reproduce a stored state hash."""
