"""Settings read from the environment that need more than one variable (kept out of settings.py
so they can be tested as pure functions; settings run once at import)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured

ANYMAIL_PREFIX = "ANYMAIL_"

# Anymail options whose value is a number; every other option is a string, a boolean word or a
# JSON object (SEND_DEFAULTS, AMAZON_SES_CLIENT_PARAMS, ...).
_ANYMAIL_NUMBERS = frozenset({"REQUESTS_TIMEOUT"})


def _anymail_value(var: str, key: str, raw: str) -> Any:
    """An env string as anymail expects it: `true`/`false` -> bool, `{...}`/`[...]` -> JSON,
    a known numeric option -> float, anything else (API keys, URLs, domains) the string."""
    text = raw.strip()
    if text.lower() in {"true", "false"}:
        return text.lower() == "true"
    if text[:1] in {"{", "["}:
        try:
            return json.loads(text)
        except ValueError as e:
            raise ImproperlyConfigured(f"{var} looks like JSON but does not parse: {e}") from None
    if key in _ANYMAIL_NUMBERS:
        try:
            return float(text)
        except ValueError:
            raise ImproperlyConfigured(f"{var} must be a number, got {raw!r}") from None
    return text


def anymail_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The ANYMAIL dict from every `ANYMAIL_<NAME>` variable: `ANYMAIL_MAILGUN_API_KEY=k` gives
    `{"MAILGUN_API_KEY": "k"}`, which anymail reads for the ESP chosen by EMAIL_BACKEND.
    Empty variables are skipped, so a compose file can pass blanks without overriding defaults."""
    out: dict[str, Any] = {}
    for var, raw in environ.items():
        if not var.startswith(ANYMAIL_PREFIX) or not raw.strip():
            continue
        key = var[len(ANYMAIL_PREFIX) :]
        if key:
            out[key] = _anymail_value(var, key, raw)
    return dict(sorted(out.items()))
