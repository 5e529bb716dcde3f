"""One exception handler for the API: every expected failure becomes a 4xx with a clear body.

- DRF's own exceptions (validation, parse errors, authentication, 404) keep DRF's handling.
- Our `ServiceError` subclasses answer with their `.status` and `{"code", "detail", "errors"?}`;
  `errors` lists the engine's rejections (`{"rule", "message", "path"}`) and an `OrderRejected`
  also names the stored intake.
- Django's `Http404`, `ObjectDoesNotExist`, `PermissionDenied` and `ValidationError` are 4xx.
- A body with a `detail` also gets a `code` (`not_found`, `parse_error`, `permission_denied`, ...);
  a field-validation 400 keeps DRF's `{field: [messages]}` shape.
- A database that refuses the connection or aborts a transaction for a transient reason
  (`django.db.OperationalError`: at capacity, restarting, a deadlock) is a 503 with Retry-After;
  nothing was changed, so the client may retry (with the same Idempotency-Key for an order).
Anything else is not swallowed: it propagates and is a 500, so bugs stay visible.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.http import Http404
from rest_framework import serializers, status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from pbem.play.errors import NotYourTurn, OrderRejected, ServiceError

logger = logging.getLogger(__name__)


class RejectionOutputSerializer(serializers.Serializer[Any]):
    rule = serializers.CharField()
    message = serializers.CharField()
    path = serializers.CharField(allow_blank=True)


class ErrorOutputSerializer(serializers.Serializer[Any]):
    """The body of every 4xx raised by a service."""

    code = serializers.CharField()
    detail = serializers.CharField()
    # DRF pops declared fields off the class, so `errors` does not shadow Serializer.errors.
    errors = RejectionOutputSerializer(many=True, required=False)  # type: ignore[assignment]
    intake = serializers.UUIDField(required=False, allow_null=True)


def service_error_body(exc: ServiceError) -> dict[str, Any]:
    body: dict[str, Any] = {"code": exc.code, "detail": exc.message}
    if isinstance(exc, NotYourTurn | OrderRejected):
        body["errors"] = [r.to_json() for r in exc.rejections]
    if isinstance(exc, OrderRejected):
        body["intake"] = exc.intake_id
    return body


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return Response(service_error_body(exc), status=exc.status)
    if isinstance(exc, ObjectDoesNotExist):
        return Response({"code": "not_found", "detail": "Not found."}, status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoValidationError):
        return Response(
            {"code": "invalid", "detail": "; ".join(exc.messages)}, status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, OperationalError):
        logger.warning("database unavailable: %s", exc)
        body = {"code": "unavailable", "detail": "the database is busy or unavailable; retry"}
        return Response(body, status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "5"})
    # DRF handles APIException (ParseError, ValidationError, NotAuthenticated, ...), Http404 and
    # Django's PermissionDenied; it returns None for anything else, which DRF then re-raises.
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data.setdefault("code", _code_of(exc))
    return response


def _code_of(exc: Exception) -> str:
    if isinstance(exc, APIException):
        return str(exc.default_code)
    if isinstance(exc, Http404):
        return "not_found"
    if isinstance(exc, DjangoPermissionDenied):
        return "permission_denied"
    return "error"
