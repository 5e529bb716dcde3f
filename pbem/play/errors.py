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


class StaleHead(Exception):
    """Another event was appended first (compare-and-set on Game.head_seq failed)."""


class ReplayDiverged(Exception):
    """Replaying the log does not reproduce a stored state hash."""
