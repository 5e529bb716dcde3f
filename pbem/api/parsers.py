"""The API's only request parser: JSON, bounded in size and nesting, never echoed back.

- A body larger than the limit is a 413 `too_large` before it is read: `PBEM["MAX_BODY_BYTES"]`
  (env `PBEM_MAX_BODY_BYTES`, default 256 KiB) for every endpoint, lower where a view says so
  with a `max_body_bytes` attribute (orders: `PBEM["MAX_ORDER_BYTES"]`, default 64 KiB). The
  Content-Length is checked first and at most limit + 1 bytes are ever read.
- Arrays and objects nested deeper than `PBEM["MAX_JSON_DEPTH"]` (default 32) are a 400
  `too_deep`, found by a scan of the text before `json.loads` could recurse.
- NaN, Infinity, numbers that overflow to infinity, NUL characters and lone surrogates are a 400
  `parse_error`: the data must survive canonical JSON, hashing and PostgreSQL's jsonb.
No message quotes the body.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer

from pbem.conf import pbem_settings
from pbem.play.json_depth import nests_deeper

# the characters that open or close strings and containers (and escapes inside strings)


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"
    default_code = "too_large"


def body_limit(view: object | None = None) -> int:
    """The byte limit for a request to `view`: the global one, or the view's own if lower."""
    limit = int(pbem_settings.MAX_BODY_BYTES)
    own = getattr(view, "max_body_bytes", None)
    return min(limit, int(own)) if own else limit


def too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(f"the request body is larger than {limit} bytes (the API's limit)")


def nesting_depth_check(text: str, limit: int) -> None:
    """Raise a 400 `too_deep` when arrays/objects nest deeper than `limit`
    (pbem.play.json_depth)."""
    if nests_deeper(text, limit):
        raise ParseError(
            f"JSON nested deeper than {limit} levels of arrays and objects", code="too_deep"
        )


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too large for a double")
    return value


def _constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def _strings_check(data: Any) -> None:
    """Refuse strings (keys and values) PostgreSQL's jsonb or UTF-8 cannot hold. Iterative."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings = [item]
        elif isinstance(item, Mapping):
            strings = list(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for s in strings:
            if "\x00" in s:
                raise ParseError("JSON strings may not contain the NUL character (\\u0000)")
            try:
                s.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError("JSON strings may not contain lone surrogates") from None


class BoundedJSONParser(BaseParser):
    media_type = "application/json"
    renderer_class = JSONRenderer

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        limit = body_limit(context.get("view"))
        request = context.get("request")
        meta: Mapping[str, Any] = getattr(request, "META", {}) if request is not None else {}
        try:
            declared = int(meta.get("CONTENT_LENGTH") or 0)
        except (TypeError, ValueError):
            declared = 0
        if declared > limit:
            raise too_large(limit)  # refused before a byte is read
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise too_large(limit)
        encoding = str(context.get("encoding") or settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding) if isinstance(raw, bytes) else str(raw)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(f"the body is not valid {encoding} text") from None
        nesting_depth_check(text, int(pbem_settings.MAX_JSON_DEPTH))
        try:
            data = json.loads(text, parse_float=_finite_float, parse_constant=_constant)
        except RecursionError:  # not reached below the depth limit; never a 500 regardless
            raise ParseError("JSON nested too deeply", code="too_deep") from None
        except ValueError as exc:  # the messages name a line and column, never the text
            raise ParseError(f"JSON parse error - {str(exc)[:200]}") from None
        _strings_check(data)
        return data
