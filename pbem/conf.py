"""The platform's own settings: one `PBEM` dict in Django's settings, read through `pbem_settings`.

Every key and its default is in `DEFAULTS` (as DRF's `api_settings`): code reads
`pbem_settings.SNAPSHOT_EVERY`, never `settings.PBEM.get("SNAPSHOT_EVERY", 50)`. A key missing
from `settings.PBEM` takes its default; an unknown name is an AttributeError. Values are cached
and the cache is dropped when `PBEM` changes (`override_settings`, pytest-django's `settings`
fixture), so tests that override it see the new values at once.

`from_environ` builds `settings.PBEM` from the environment: each scalar key `X` is read from the
variable `PBEM_X` (an empty or unset variable keeps the default; a bad number or boolean is a
configuration error). Lists and dicts (`RULESETS`, `TRANSPORTS`) are set in settings only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed

DEFAULTS: dict[str, Any] = {
    # the rulesets this server offers: None offers every ruleset of games.registry, a list of
    # registry ids only those
    "RULESETS": None,
    # a snapshot of the state every N events (and at every turn end)
    "SNAPSHOT_EVERY": 50,
    # deadlines: the time per turn of a new game in hours (0 = no deadline); the "deadline
    # soon" reminder that many hours before; rows per sweep run; the least time a change of
    # the time per turn leaves on a running clock
    "DEADLINE_DEFAULT_HOURS": 72,
    "REMINDER_HOURS": 12,
    "SWEEP_BATCH": 500,
    "DEADLINE_CHANGE_GRACE_MINUTES": 60,
    # notify. Email goes through Django's EMAIL_BACKEND: console by default, SMTP with
    # EMAIL_HOST/..., or an ESP through django-anymail (EMAIL_BACKEND + ANYMAIL_* variables).
    "MAIL_DOMAIN": "localhost",  # Message-ID domain
    # every link in emails, webhook bodies and pbem_demo (`./dev serve` sets it from PORT)
    "SITE_URL": "http://localhost:8000",
    "ALLOW_PRIVATE_WEBHOOKS": False,
    "WEBHOOK_TIMEOUT": 10,  # seconds
    "WEBHOOK_MAX_FAILURES": 20,  # then the endpoint is switched off
    "NOTIFY_MAX_ATTEMPTS": 6,
    "NOTIFY_BACKOFF_SECONDS": 60,  # doubled per attempt
    "TRANSPORTS": {},  # channel -> "dotted.path.Transport", added to or replacing the defaults
    # request limits: larger bodies are a 413, deeper JSON a 400 `too_deep`
    "MAX_BODY_BYTES": 256 * 1024,  # every request
    "MAX_ORDER_BYTES": 64 * 1024,  # POST .../actions
    "MAX_JSON_DEPTH": 32,  # nested arrays and objects
    # the order path: send accepted orders to the broker from a background thread, so a slow or
    # absent broker never holds a web request (pbem.play.publisher); off: send in the request
    "PUBLISH_IN_BACKGROUND": True,
    # outages (pbem.play.publisher, pbem.play.recovery): the bound on connecting to the broker
    # and sending one message; how often a publisher whose broker went down tries it again; how
    # often beat looks for accepted orders no worker has taken, and how old they must be
    "BROKER_TIMEOUT_MS": 500,
    "BROKER_PROBE_MS": 1000,
    "RECOVER_SECONDS": 5,
    "RECOVER_AFTER_SECONDS": 10,
    # orders by email (pbem.notify.reply_address, pbem.mailin): the reply addresses'
    # local-part prefix (`play+s<seat>.<key version>.<mac>@MAIL_DOMAIN`); the key version that
    # signs new addresses and the oldest one still accepted (raise it to expire old addresses);
    # the largest inbound mail stored
    "REPLY_LOCAL_PART": "play",
    "REPLY_KEY_VERSION": 1,
    "REPLY_KEY_OLDEST": 1,
    "MAX_MAIL_BYTES": 512 * 1024,
}


class PbemSettings:
    """Attribute access to `settings.PBEM` with the defaults of `DEFAULTS` (cached)."""

    RULESETS: list[str] | None
    SNAPSHOT_EVERY: int
    DEADLINE_DEFAULT_HOURS: int
    REMINDER_HOURS: int
    SWEEP_BATCH: int
    DEADLINE_CHANGE_GRACE_MINUTES: int
    MAIL_DOMAIN: str
    SITE_URL: str
    ALLOW_PRIVATE_WEBHOOKS: bool
    WEBHOOK_TIMEOUT: int
    WEBHOOK_MAX_FAILURES: int
    NOTIFY_MAX_ATTEMPTS: int
    NOTIFY_BACKOFF_SECONDS: int
    TRANSPORTS: dict[str, str]
    MAX_BODY_BYTES: int
    MAX_ORDER_BYTES: int
    MAX_JSON_DEPTH: int
    PUBLISH_IN_BACKGROUND: bool
    BROKER_TIMEOUT_MS: int
    BROKER_PROBE_MS: int
    RECOVER_SECONDS: int
    RECOVER_AFTER_SECONDS: int
    REPLY_LOCAL_PART: str
    REPLY_KEY_VERSION: int
    REPLY_KEY_OLDEST: int
    MAX_MAIL_BYTES: int

    def __init__(self, defaults: Mapping[str, Any]) -> None:
        self._defaults = dict(defaults)
        self._cached: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._defaults:
            raise AttributeError(f"unknown PBEM setting {name!r}")
        user = getattr(settings, "PBEM", None) or {}
        value = user.get(name, self._defaults[name])
        self._cached.add(name)
        setattr(self, name, value)
        return value

    def reload(self) -> None:
        """Forget the cached values (the next read sees the current `settings.PBEM`)."""
        for name in self._cached:
            delattr(self, name)
        self._cached.clear()


pbem_settings = PbemSettings(DEFAULTS)


def _reload(*, setting: str, **kwargs: Any) -> None:
    if setting == "PBEM":
        pbem_settings.reload()


setting_changed.connect(_reload, dispatch_uid="pbem.conf.reload")


def from_environ(
    env: Mapping[str, str],
    *,
    as_int: Callable[[str, int], int],
    as_bool: Callable[[str, bool], bool],
) -> dict[str, Any]:
    """`DEFAULTS` with each scalar key `X` replaced by the variable `PBEM_X` when it is set and
    not empty. `as_int`/`as_bool` read a variable by name with a default (settings' `envint` and
    `envbool`, which raise ImproperlyConfigured on a bad value)."""
    out: dict[str, Any] = {}
    for key, default in DEFAULTS.items():
        name = f"PBEM_{key}"
        if isinstance(default, bool):
            out[key] = as_bool(name, default)
        elif isinstance(default, int):
            out[key] = as_int(name, default)
        elif isinstance(default, str):
            out[key] = env.get(name, "") or default
        elif isinstance(default, (list, dict)):
            out[key] = type(default)(default)  # a fresh copy, never the shared default
        else:
            out[key] = default
    return out
