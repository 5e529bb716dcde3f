"""One exception handler for the API: every expected failure is a 4xx in one shape.

Every 4xx (and the 503) answers `{"code": str, "detail": str, "errors": [{"rule", "message",
"path"}]}`, plus `intake` when an order was stored (or first used an Idempotency-Key):
- `code` is stable and machine-readable: DRF's (`invalid`, `parse_error`, `too_deep`,
  `not_authenticated`, `permission_denied`, `not_found`, `method_not_allowed`, `not_acceptable`,
  `unsupported_media_type`, `throttled`, `too_large`) or our services' (`not_your_seat`,
  `not_your_turn`, `order_rejected`, `unknown_kind`, `invalid_payload`, `idempotency_key_reused`,
  `seat_taken`, ...);
- `detail` is one human sentence;
- `errors` lists what is wrong: a field error has `path` as a JSON pointer into the body
  (`/kind`, `/seats/french`; `""` for the body itself) and `rule` DRF's code (`required`,
  `invalid`, `unknown_field`, ...); an engine's refusal names its rule (`NT-7`). It may be `[]`
  (401, 403, 404, 405, 409 ...).
Messages are cut short and lists capped, so an answer never echoes a large input.
The human texts (`detail`, each `message`) are in the caller's language (`answer_language`: the
signed-in user's profile choice, else the request's Accept-Language or language cookie, else
English); an engine's refusal is translated as on the pages (pbem.play.engine_text). `code`,
`rule`, `path` and every key never change with the language.

- DRF's exceptions (validation, parse errors, authentication, 404, throttling) keep DRF's status
  and headers (WWW-Authenticate, Retry-After, Allow) with the body rewritten to the shape.
- Our `ServiceError` subclasses answer with their `.status` and `.code`; an `InvalidField` is
  answered as DRF's error on that field.
- Django's `Http404`, `ObjectDoesNotExist`, `PermissionDenied`, `ValidationError` are 4xx, and
  `RequestDataTooBig` (a body over DATA_UPLOAD_MAX_MEMORY_SIZE) is a 413.
- A database that refuses the connection or aborts a transaction for a transient reason
  (`django.db.OperationalError`: at capacity, restarting, a deadlock; `InterfaceError`: a
  connection the restart closed) is a 503 `database_unavailable` with Retry-After; nothing was
  changed, so the client may retry (with the same Idempotency-Key for an order). Outside the API's
  views `pbem.outage.DatabaseUnavailableMiddleware` gives the same answer.
Anything else is not swallowed: it propagates and is a 500, so bugs stay visible.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.functional import Promise
from django.views import defaults
from rest_framework import exceptions as drf
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.core.protocol import Rejection
from pbem.api.outage import DATABASE_ERRORS, RETRY, unavailable_body
from pbem.api.parsers import body_limit, too_large
from pbem.notify.language import language_of, languages_known
from pbem.play.engine_text import engine_text
from pbem.play.errors import InvalidField, ServiceError

logger = logging.getLogger(__name__)

MESSAGE_MAX = 500  # characters of one message or detail: an answer never echoes a large input
PATH_MAX = 200
ERRORS_MAX = 50  # entries of `errors`; the detail says how many more there were


class RejectionOutputSerializer(serializers.Serializer[Any]):
    rule = serializers.CharField(help_text="the rule or check that refuses it")
    message = serializers.CharField()
    path = serializers.CharField(
        allow_blank=True, help_text='JSON pointer into the request body; "" for the whole body'
    )


class ErrorOutputSerializer(serializers.Serializer[Any]):
    """The body of every 4xx (and 503) of the API."""

    code = serializers.CharField(help_text="stable, machine-readable reason")
    detail = serializers.CharField()
    # DRF pops declared fields off the class, so `errors` does not shadow Serializer.errors.
    errors = RejectionOutputSerializer(many=True)  # type: ignore[assignment]
    intake = serializers.UUIDField(
        required=False, allow_null=True, help_text="the stored order (or the key's first use)"
    )


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def error_entry(rule: str, message: str, path: str = "") -> dict[str, str]:
    return {
        "rule": _cut(str(rule), PATH_MAX),
        "message": _cut(str(message), MESSAGE_MAX),
        "path": _cut(str(path), PATH_MAX),
    }


def error_body(
    code: str, detail: str, errors: Iterable[dict[str, str]] = (), *, intake: object = None
) -> dict[str, Any]:
    """The one error shape: every 4xx/5xx body of the API is built here. `errors` entries are cut
    and capped; `intake` (the stored order, or an Idempotency-Key's first use) when there is one."""
    entries = list(errors)
    shown = [error_entry(e["rule"], e["message"], e["path"]) for e in entries[:ERRORS_MAX]]
    more = len(entries) - len(shown)
    text = _cut(str(detail), MESSAGE_MAX)
    if more > 0:
        text += f" ({more} more errors not shown)"
    body: dict[str, Any] = {"code": code, "detail": text, "errors": shown}
    if intake is not None:
        body["intake"] = str(intake)
    return body


def rejection_entries(rejections: Iterable[Rejection]) -> list[dict[str, str]]:
    return [error_entry(r.rule, r.message, r.path) for r in rejections]


def service_error_body(exc: ServiceError) -> dict[str, Any]:
    """The body of a service error in the active language (its `detail` and messages; the
    engine's refusals through pbem.play.engine_text); codes and rule ids as they are."""
    rejections: tuple[Rejection, ...] = tuple(getattr(exc, "rejections", ()))
    if rejections:
        entries = [error_entry(r.rule, engine_text(r.message), r.path) for r in rejections]
    elif exc.status == status.HTTP_400_BAD_REQUEST:
        entries = [error_entry(exc.code, exc.message)]  # a bad request names what is wrong
    else:
        entries = []
    return error_body(exc.code, exc.message, entries, intake=getattr(exc, "intake_id", None))


def pointer(parent: str, key: object) -> str:
    """RFC 6901: a JSON pointer to `key` under `parent`."""
    return parent + "/" + str(key).replace("~", "~0").replace("/", "~1")


def validation_entries(detail: Any, path: str = "") -> list[dict[str, str]]:
    """DRF's nested error detail (dicts of fields, lists, ErrorDetail strings) as flat entries
    with JSON-pointer paths; `non_field_errors` belong to the object itself."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            sub = path if key in ("non_field_errors", "__all__") else pointer(path, key)
            out += validation_entries(value, sub)
        return out
    if isinstance(detail, list):
        out = []
        for i, item in enumerate(detail):
            # a list of messages belongs to `path`; a list of nested errors (many=True) is indexed
            nested = isinstance(item, dict | list)
            out += validation_entries(item, pointer(path, i) if nested else path)
        return out
    code = getattr(detail, "code", None) or "invalid"
    return [error_entry(str(code), str(detail), path)]


def _summary(entries: list[dict[str, str]]) -> str:
    parts = [f"{e['path'] or 'the body'}: {e['message']}" for e in entries[:3]]
    if len(entries) > 3:
        parts.append(f"and {len(entries) - 3} more")
    return "invalid request: " + "; ".join(parts)


def _drf_body(exc: drf.APIException) -> dict[str, Any]:
    detail = exc.detail
    if isinstance(exc, drf.ValidationError) or isinstance(detail, dict | list):
        entries = validation_entries(detail)
        code = "invalid" if isinstance(exc, drf.ValidationError) else str(exc.default_code)
        return error_body(code, _summary(entries), entries)
    code = str(getattr(detail, "code", None) or exc.default_code)
    entries = [error_entry(code, str(detail))] if exc.status_code == 400 else []
    return error_body(code, str(detail), entries)


def answer_language(request: object) -> str | None:
    """The language of an API answer: the signed-in caller's own choice (their profile's, as for
    their pages and mails), else None: the request's (LocaleMiddleware: the language cookie,
    then Accept-Language, else settings.LANGUAGE_CODE, English)."""
    # a service error comes after authentication: `user` is known (never authenticates anew)
    user = getattr(request, "_user", None)
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    code = language_of(user)
    return code if code in languages_known() else None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    language = answer_language(context.get("request"))
    if language is None:
        return _handled(exc, context)
    with translation.override(language):
        response = _handled(exc, context)
        if response is not None:  # DRF's messages are lazy too: rendered in the same language
            response.data = json_ready(response.data)
        return response


def json_ready(data: Any) -> Any:
    """`data` with every lazy translation made a str (in the active language)."""
    if isinstance(data, dict):
        return {k: json_ready(v) for k, v in data.items()}
    if isinstance(data, list):
        return [json_ready(v) for v in data]
    if isinstance(data, Promise):
        return str(data)
    return data


def _handled(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InvalidField):  # a field error found by a service: as DRF's field errors
        exc = drf.ValidationError({exc.field: [exc.message]})
    elif isinstance(exc, ServiceError):
        return Response(service_error_body(exc), status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        exc = too_large(body_limit(context.get("view")))
    elif isinstance(exc, Http404 | ObjectDoesNotExist):
        exc = drf.NotFound("Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            detail: Any = dict(exc.message_dict)
        else:
            detail = list(exc.messages)
        exc = drf.ValidationError(detail)
    elif isinstance(exc, DATABASE_ERRORS):
        logger.warning("database unavailable: %s", exc)
        return Response(unavailable_body(), status.HTTP_503_SERVICE_UNAVAILABLE, headers=RETRY)
    # DRF sets the status and the headers (WWW-Authenticate, Retry-After, ...) and rolls back an
    # atomic request; it returns None for anything else, which DRF then re-raises (a 500).
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, drf.APIException):
        response.data = _drf_body(exc)
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 404 handler (pbem.urls.handler404): a URL under /api/ that no route matches
    answers in the API's shape; any other URL gets Django's page."""
    if request.path.startswith("/api/"):
        body = error_body("not_found", "no such endpoint; see /api/schema/")
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception or Http404())
