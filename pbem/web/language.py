"""Each page in the reader's language and time zone.

LocaleMiddleware (settings) picks the language from the language cookie or the browser's
Accept-Language; a signed-in user's own choice goes first (`localized`): the one language stored
for them by notify, which writes their mails in it too (pbem.notify.language). Deadlines and
times are shown in the profile's time zone (UTC without a profile). Both are activated for the
one request; the time zone is undone afterwards, so an API answer served next by the same
thread is never shifted (DRF renders times in the current time zone)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponseBase
from django.template.response import SimpleTemplateResponse
from django.utils import timezone, translation

from pbem.notify.language import language_of
from pbem.web.models import Profile

View = Callable[..., HttpResponseBase]
UTC = ZoneInfo("UTC")
KNOWN = {code for code, _ in settings.LANGUAGES}


def reader_profile(request: HttpRequest) -> Profile | None:
    """The signed-in user's profile, if they have one (read once per request)."""
    cached: Profile | None = getattr(request, "_web_profile", None)
    if cached is not None:
        return cached
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        return None
    profile = Profile.objects.filter(user=user).first()
    request._web_profile = profile  # type: ignore[attr-defined]
    return profile


def reader_language(request: HttpRequest) -> str:
    """The signed-in user's chosen language ("" for none, or signed out; read once per
    request)."""
    cached: str | None = getattr(request, "_web_language", None)
    if cached is not None:
        return cached
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        return ""
    language = language_of(user)
    request._web_language = language  # type: ignore[attr-defined]
    return language


def localized(view: View) -> View:
    """Run `view` in the reader's language and time zone (see the module's docstring)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        profile = reader_profile(request)
        language = reader_language(request)
        if language in KNOWN:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        timezone.activate(profile.zone() if profile is not None else UTC)
        try:
            response = view(request, *args, **kwargs)
            if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
                response.render()  # inside the reader's language and zone
            return response
        finally:
            timezone.deactivate()  # the language: LocaleMiddleware sets it for each request

    return wrapper
