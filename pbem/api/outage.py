"""A database outage answers 503 with Retry-After, never 500, everywhere.

The API's views get it from the exception handler (`pbem.api.exceptions`); this middleware gives
the same answer for every other view (the admin, the pages to come) and for errors raised while
a view runs outside DRF. `OperationalError` is what a refused or dropped connection raises
(PostgreSQL restarting, at capacity); `InterfaceError` what a connection the restart closed raises
when used again. Nothing was changed (the request's transaction, if any, was rolled back), so
the client may retry after `RETRY_AFTER_SECONDS`; an order with its Idempotency-Key.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
RETRY = {"Retry-After": str(RETRY_AFTER_SECONDS)}
CODE = "database_unavailable"
DETAIL = "the database is restarting, busy or unreachable; nothing was changed; retry"
DATABASE_ERRORS = (OperationalError, InterfaceError)


def unavailable_body() -> dict[str, object]:
    return {"code": CODE, "detail": DETAIL, "errors": []}


def unavailable_response() -> JsonResponse:
    response = JsonResponse(unavailable_body(), status=503)
    response["Retry-After"] = RETRY["Retry-After"]
    return response


class DatabaseUnavailableMiddleware:
    """503 `database_unavailable` with Retry-After for a database error raised in a view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_ERRORS):
            logger.warning("database unavailable at %s: %s", request.path, exception)
            return unavailable_response()
        return None
