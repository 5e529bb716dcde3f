"""The user's language: stored once, in `NotificationPref.language`, so that notify (which writes
the mails) and pbem.web above it (which shows the pages and the profile form) read the same value.

- `language_of(user)` is the stored choice, "" when the user chose none (or has no row yet).
- `language_set(user, code)` stores a choice ("" = none); a code that is not one of
  settings.LANGUAGES is refused (InvalidField).
- `mail_language(user)` is the language a mail to `user` is written in: their choice when it is
  one of settings.LANGUAGES, else settings.LANGUAGE_CODE (English); `in_language_of(user)`
  renders inside it (django.utils.translation.override). A mail to nobody (`user` None) is in
  settings.LANGUAGE_CODE too.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import translation
from django.utils.translation import gettext_lazy

from pbem.notify.models import NotificationPref
from pbem.play.errors import InvalidField, say

LANGUAGE_UNSET = ""  # no choice: pages follow the browser, mails settings.LANGUAGE_CODE


def languages_known() -> set[str]:
    """The codes of settings.LANGUAGES (e.g. {"en", "de"})."""
    return {code for code, _name in settings.LANGUAGES}


def language_of(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """The user's stored language, "" when none is chosen (or `user` is None or signed out)."""
    if user is None or user.pk is None:
        return LANGUAGE_UNSET
    stored = (
        NotificationPref.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    )
    return stored or LANGUAGE_UNSET


def language_set(user: AbstractBaseUser, code: str) -> None:
    """Store `code` as the user's language ("" = none), creating their NotificationPref row with
    the defaults when they have none. Raises InvalidField (400 naming `language`) for a code
    that is not one of settings.LANGUAGES."""
    if code != LANGUAGE_UNSET and code not in languages_known():
        known = ", ".join(sorted(languages_known()))
        not_one = gettext_lazy("language must be one of {known} or empty, not {code}")
        raise InvalidField("language", say(not_one, known=known, code=repr(code)))
    pref, created = NotificationPref.objects.get_or_create(
        user_id=user.pk, defaults={"language": code}
    )
    if not created and pref.language != code:
        NotificationPref.objects.filter(pk=pref.pk).update(language=code)


def mail_language(user: AbstractBaseUser | None) -> str:
    """The language a mail to `user` is written in (see the module's docstring)."""
    code = language_of(user)
    return code if code in languages_known() else str(settings.LANGUAGE_CODE)


def in_language_of(user: AbstractBaseUser | None) -> AbstractContextManager[None]:
    """`with in_language_of(user):` renders a mail to `user` in their language."""
    return translation.override(mail_language(user))
