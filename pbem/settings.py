"""The one settings module, driven by environment variables with embedded defaults (arch. 8.10).

With no variables set it runs on a SQLite file with console email. `PBEM_ENV` is one of
`dev` (DEBUG on), `test`, `production` (SECRET_KEY required) or unset (DEBUG off, dev key allowed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from pbem.conf import from_environ as pbem_from_environ
from pbem.envconf import anymail_settings

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def envbool(name: str, default: bool) -> bool:
    """Read a boolean variable; anything but a clear yes/no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of {sorted(_TRUE | _FALSE)}, got {raw!r}")


def envint(name: str, default: int) -> int:
    """Read an integer variable; a non-integer value is a configuration error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


PBEM_ENV = os.environ.get("PBEM_ENV", "")
if PBEM_ENV not in {"", "dev", "test", "production"}:
    raise ImproperlyConfigured(f"PBEM_ENV must be dev, test, production or unset, got {PBEM_ENV!r}")

DEBUG = PBEM_ENV == "dev"

_DEV_SECRET_KEY = "django-insecure-pbem-dev-only-never-use-in-production"  # noqa: S105
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PBEM_ENV == "production":
        raise ImproperlyConfigured("SECRET_KEY must be set when PBEM_ENV=production")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
# Behind a TLS-terminating proxy (deploy/nginx.conf forwards X-Forwarded-Proto) the browser's
# https:// Origin must be trusted for CSRF-protected forms such as the admin login.
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
if envbool("PBEM_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

DATA_DIR = Path(os.environ.get("PBEM_DATA_DIR", "") or BASE_DIR)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, not a CDN
    "pbem.play",
    "pbem.notify",
    "pbem.mailin",
    "pbem.web",
    "django_htmx",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # static files from the app itself in the embedded default (and behind nginx, harmlessly)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "pbem.api.outage.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the page language: the profile's (pbem.web), else the browser's Accept-Language
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "pbem.urls"

TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "pbem.wsgi.application"

# The embedded default is a SQLite file; production and CI's integration tests set DATABASE_URL
# (postgres://...). dj-database-url parses it.
if os.environ.get("DATABASE_URL"):
    import dj_database_url

    # Persistent connections (seconds) for web and workers; 0 closes them after each request,
    # as the integration tests do (their live server's threads must not keep sessions open).
    _max_age = envint("PBEM_DB_CONN_MAX_AGE", 60)
    # Health checks: a persistent connection that a database restart closed is replaced at the
    # start of the next request or task instead of failing it.
    DATABASES: dict[str, dict[str, Any]] = {
        "default": dict(
            dj_database_url.parse(
                os.environ["DATABASE_URL"], conn_max_age=_max_age, conn_health_checks=True
            )
        )
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "db.sqlite3",
            "OPTIONS": {"timeout": 20},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"

# Email: the console by default; SMTP with EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend
# and EMAIL_HOST/...; an ESP through django-anymail with e.g.
# EMAIL_BACKEND=anymail.backends.mailgun.EmailBackend and ANYMAIL_MAILGUN_API_KEY=... (every
# ANYMAIL_<NAME> variable becomes ANYMAIL["<NAME>"], see pbem/envconf.py). Sending needs no
# "anymail" in INSTALLED_APPS (that app only registers system checks; webhooks use anymail.urls).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pbem@localhost")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "") or DEFAULT_FROM_EMAIL
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 30)  # seconds; Django's default (None) can hang a worker
ANYMAIL: dict[str, Any] = anymail_settings(os.environ)

SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", PBEM_ENV == "production")
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", PBEM_ENV == "production")

# --- REST API (DRF + drf-spectacular) ----------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "pbem.api.exceptions.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
    # JSON only, bounded in size and nesting (pbem/api/parsers.py)
    "DEFAULT_PARSER_CLASSES": ["pbem.api.parsers.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # scoped limits for costly endpoints (429 beyond): /verify replays a whole game per call
    "DEFAULT_THROTTLE_RATES": {
        "verify": os.environ.get("PBEM_VERIFY_RATE", "") or "60/hour",
        # sign-up and its verification, per client address (pbem/api/users.py)
        "signup": os.environ.get("PBEM_SIGNUP_RATE", "") or "20/hour",
    },
}
SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "pbem API",
    "DESCRIPTION": "Asynchronous turn server for Napoleonic wargames: games, views, orders, log.",
    "VERSION": "1",
    # 3.1: the engines' payload and view schemas are JSON Schema 2020-12 (type arrays, if/then)
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # /api/docs/ works offline and is pinned: the Swagger UI files come with the package
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # links between operations (a created game's id -> its operations; an order -> its intake)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pbem.api.openapi_links.add_links",
    ],
}

# --- Celery -------------------------------------------------------------------------------------
# With no broker configured (the embedded default) tasks run eagerly in the request, so a
# first-time user sees the result at once. Production sets CELERY_BROKER_URL (Redis).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", os.environ.get("REDIS_URL", ""))
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 120
# visibility: longer than the hard time limit
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {"visibility_timeout": 600}
CELERY_TASK_ROUTES = {
    "play.*": {"queue": "turns"},
    "notify.*": {"queue": "mail"},
    "mailin.*": {"queue": "mail"},  # orders by email: read, applied and answered
}
CELERY_TASK_DEFAULT_QUEUE = "turns"
# Beat: the database decides what is overdue, not the broker (arch. 8.6). Others add entries here.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "play-deadlines-sweep": {"task": "play.deadlines_sweep", "schedule": 60.0},
    "play-reminders-sweep": {"task": "play.reminders_sweep", "schedule": 300.0},
    "play-stuck-turns-sweep": {"task": "play.stuck_turns_sweep", "schedule": 60.0},
    # notify: re-enqueue due outbox rows
    "notify-outbox-sweep": {"task": "notify.outbox_sweep", "schedule": 60.0},
    # mailin: stored mail that no worker took (the broker was down, a worker died)
    "mailin-inbound-sweep": {"task": "mailin.inbound_sweep", "schedule": 60.0},
    # digests: every quarter hour; each user's is due at the start of their N-hour window (UTC)
    "notify-digest-send": {"task": "notify.digest_send", "schedule": crontab(minute="*/15")},
}

# App-specific knobs live in one namespaced dict (arch. 8.10): every key and its default is in
# pbem.conf.DEFAULTS, and each scalar key X can be set by the variable PBEM_X. Code reads them as
# `pbem.conf.pbem_settings.X`.
PBEM: dict[str, Any] = pbem_from_environ(os.environ, as_int=envint, as_bool=envbool)
# Django's own limit on request.body and form data, the same as the API's (RequestDataTooBig: 413)
DATA_UPLOAD_MAX_MEMORY_SIZE = PBEM["MAX_BODY_BYTES"]

# Outages. Sending a task never waits long on a broker that is down: a bounded connect (also
# the socket's) and one quick retry; the message is then given up and the order it carries,
# stored already, is recovered from the database (pbem.play.recovery). The worker reconnects
# every second or two instead of backing off to 30 s (pbem.worker.Consumer), and on every
# (re)connection, as beat every RECOVER_SECONDS, asks for the accepted orders no worker took.
_broker_timeout = PBEM["BROKER_TIMEOUT_MS"] / 1000
CELERY_BROKER_CONNECTION_TIMEOUT = _broker_timeout
CELERY_BROKER_TRANSPORT_OPTIONS["socket_connect_timeout"] = _broker_timeout
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_WORKER_CONSUMER = "pbem.worker:Consumer"
CELERY_BEAT_SCHEDULE["play-intakes-recover"] = {
    "task": "play.intakes_recover",
    "schedule": float(PBEM["RECOVER_SECONDS"]),
    "kwargs": {"min_age_seconds": PBEM["RECOVER_AFTER_SECONDS"]},
}
