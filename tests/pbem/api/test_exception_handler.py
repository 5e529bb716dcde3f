"""The API's exception handler: service errors and Django errors are 4xx, bugs are not hidden."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from rest_framework.exceptions import ParseError

from games.core.protocol import Rejection
from pbem.api.exceptions import exception_handler
from pbem.play.errors import GameBusy, NotYourTurn, OrderRejected

CTX: dict[str, Any] = {}


def test_service_errors_carry_status_code_and_rules() -> None:
    rejected = exception_handler(OrderRejected([Rejection("NT-7", "no", "/x")], "abc"), CTX)
    assert rejected is not None
    assert rejected.status_code == 422
    assert rejected.data == {
        "code": "order_rejected",
        "detail": "NT-7: no",
        "errors": [{"rule": "NT-7", "message": "no", "path": "/x"}],
        "intake": "abc",
    }
    turn = exception_handler(NotYourTurn("wait", [Rejection("NT-35", "wait")]), CTX)
    assert turn is not None
    assert turn.status_code == 409
    assert turn.data["errors"][0]["rule"] == "NT-35"
    busy = exception_handler(GameBusy("busy"), CTX)
    assert busy is not None
    assert (busy.status_code, busy.data) == (
        409,
        {"code": "game_busy", "detail": "busy", "errors": []},
    )


def test_django_errors_are_4xx() -> None:
    invalid = exception_handler(ValidationError("bad value"), CTX)
    assert invalid is not None
    assert invalid.status_code == 400
    missing = exception_handler(ObjectDoesNotExist("gone"), CTX)
    assert missing is not None
    assert missing.status_code == 404
    parse = exception_handler(ParseError("not json"), CTX)
    assert parse is not None
    assert parse.status_code == 400
    assert parse.data["code"] == "parse_error"


def test_other_exceptions_are_not_swallowed() -> None:
    assert exception_handler(RuntimeError("a bug"), CTX) is None
    assert exception_handler(KeyError("a bug"), CTX) is None


def test_a_database_at_capacity_is_503_with_retry_after() -> None:
    from django.db import OperationalError

    exc = OperationalError("remaining connection slots are reserved")
    response = exception_handler(exc, CTX)
    assert response is not None
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.data["code"] == "database_unavailable"


def test_a_connection_closed_by_a_restart_is_503_too() -> None:
    from django.db import InterfaceError

    response = exception_handler(InterfaceError("connection already closed"), CTX)
    assert response is not None
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.data["code"] == "database_unavailable"
