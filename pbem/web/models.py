"""A player's page settings: the time zone their deadlines are shown in. One row per user,
created on first use (`profile_of`).

The language of the pages (empty: the browser's) is the user's one language, stored by notify
(NotificationPref.language, which writes their mails in it): read and written through
pbem.notify.language (`language_of`, `language_set`)."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models

from pbem.notify.language import LANGUAGE_UNSET

LANGUAGE_BROWSER = LANGUAGE_UNSET  # no choice: the browser's Accept-Language decides


def language_choices() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in settings.LANGUAGES]


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="web_profile"
    )
    time_zone = models.CharField(max_length=64, default="UTC")

    def __str__(self) -> str:
        return f"profile of {self.user_id}"

    def zone(self) -> ZoneInfo:
        """The profile's time zone; UTC when the stored name is not (or no longer) known."""
        try:
            return ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")


def profile_of(user: User) -> Profile:
    """The user's profile, created with the defaults when they have none yet."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


CCN_SCENARIO_MAX_BYTES = 256 * 1024  # a scenario's YAML text, UTF-8 encoded


class CcnScenario(models.Model):
    """A Commands & Colors: Napoleonics scenario (`ccn-scenario/1` YAML) a player entered or
    uploaded: private to its owner unless `shareable` (then others may read and download it).
    Only a document the engine's loader accepts is stored (pbem.web.ccn_scenario_views)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ccn_scenarios"
    )
    title = models.CharField(max_length=200)
    text = models.TextField()  # at most CCN_SCENARIO_MAX_BYTES, checked before saving
    shareable = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated", "-id")

    def __str__(self) -> str:
        return f"ccn scenario {self.pk} of {self.owner_id}"
