"""The caller's email preference (issue 14 item 6): instant mail, or a digest every N hours
listing every game with news, answered with orders for several games (pbem.notify.digest); and
the caller's language (pbem.notify.language: the one choice the pages and every mail read).

`/users/me/notifications` answers GET, and PUT or PATCH with any of the fields (PUT as PATCH:
the missing ones keep their value). Only the authenticated user's own preference: there is no
way to name another user. The stored mode of the digest is `daily_digest` (kept from before the
digest took a period); the API speaks `digest`."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import request_user
from pbem.api.orders import StrictSerializer
from pbem.notify.digest import notification_pref_set
from pbem.notify.language import LANGUAGE_UNSET, language_set, languages_known
from pbem.notify.models import (
    DIGEST_HOURS_DEFAULT,
    DIGEST_HOURS_MAX,
    DIGEST_HOURS_MIN,
    NotificationPref,
)

# the API's words for the stored modes, and back
MODE_OUT: dict[str, str] = {
    NotificationPref.Mode.INSTANT.value: "instant",
    NotificationPref.Mode.DAILY_DIGEST.value: "digest",
}
MODE_IN = {word: stored for stored, word in MODE_OUT.items()}
MODES = sorted(MODE_IN)
ERRORS: dict[int, Any] = {400: ErrorOutputSerializer, 401: ErrorOutputSerializer}
LANGUAGES = sorted(languages_known())  # settings.LANGUAGES' codes
LANGUAGE_CHOICES = [(code, str(name)) for code, name in sorted(settings.LANGUAGES)]
LANGUAGE_HELP = (
    f'your language, one of {", ".join(LANGUAGES)}; "" for none: the pages follow the'
    " browser's choice and the mails are in English. Every mail to you (notifications, digests,"
    " answers to orders by email) and the pages are in it"
)
LANGUAGE_ERROR = f'must be one of {", ".join(LANGUAGES)} or "" (none)'
DIGEST_HELP = (
    f"hours between two digests ({DIGEST_HOURS_MIN} to {DIGEST_HOURS_MAX}): windows counted from"
    " the Unix epoch in UTC (24 = one mail a day, just after midnight UTC), each mail carrying the"
    " news held before its window"
)


@extend_schema_serializer(component_name="NotificationPrefs")
class NotificationPrefsOutputSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(
        choices=MODES,
        help_text="`instant`: one mail per notification; `digest`: one mail every `digest_hours`",
    )
    digest_hours = serializers.IntegerField(
        min_value=DIGEST_HOURS_MIN, max_value=DIGEST_HOURS_MAX, help_text=DIGEST_HELP
    )
    email_enabled = serializers.BooleanField(help_text="false: no email at all (webhooks only)")
    language = serializers.ChoiceField(
        choices=LANGUAGE_CHOICES, allow_blank=True, help_text=LANGUAGE_HELP
    )


@extend_schema_serializer(component_name="NotificationPrefsUpdate")
class NotificationPrefsInputSerializer(StrictSerializer):
    mode = serializers.ChoiceField(choices=MODES, required=False)
    digest_hours = serializers.IntegerField(
        required=False,
        min_value=DIGEST_HOURS_MIN,
        max_value=DIGEST_HOURS_MAX,
        help_text=DIGEST_HELP,
    )
    email_enabled = serializers.BooleanField(required=False)
    language = serializers.ChoiceField(
        choices=LANGUAGE_CHOICES,
        allow_blank=True,
        required=False,
        help_text=LANGUAGE_HELP,
        error_messages={"invalid_choice": LANGUAGE_ERROR},  # never echoes the input
    )

    def to_internal_value(self, data: Any) -> Any:
        """Booleans only for `email_enabled` and integers only for `digest_hours` (DRF would read
        "yes" or "12" or 12.0): a 400 naming the field."""
        if isinstance(data, dict):
            errors: dict[str, list[str]] = {}
            flag = data.get("email_enabled")
            if "email_enabled" in data and not isinstance(flag, bool):
                errors["email_enabled"] = ["must be true or false"]
            hours = data.get("digest_hours")
            if "digest_hours" in data and (isinstance(hours, bool) or not isinstance(hours, int)):
                errors["digest_hours"] = ["must be a whole number of hours"]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def prefs_out(pref: NotificationPref | None) -> dict[str, Any]:
    """A preference as the API shows it (no row yet: the defaults)."""
    if pref is None:
        return {
            "mode": "instant",
            "digest_hours": DIGEST_HOURS_DEFAULT,
            "email_enabled": True,
            "language": LANGUAGE_UNSET,
        }
    return {
        "mode": MODE_OUT.get(pref.mode, "instant"),
        "digest_hours": pref.digest_hours,
        "email_enabled": pref.email_enabled,
        "language": pref.language or LANGUAGE_UNSET,
    }


UPDATE_DOC = f"""Set how you get email: `mode` (`instant` or `digest`), `digest_hours` (1 to 168),
`email_enabled` and `language` ({", ".join(f"`{c}`" for c in LANGUAGES)}, or `""` for none: the
pages follow the browser, the mails are in English); fields left out keep their value (PUT and
PATCH alike), and a 400 changes none. A digest is one mail every `digest_hours` with a section per
game, each headed by a line `== game <id> as <role> ==`: reply with orders under each game's
header line. A change applies to news from then on; news held already goes out in the next
digest, in the language chosen when it is written."""


class NotificationPrefsApi(APIView):
    """Your email preference: instant mail, or a digest every N hours; and your language."""

    @extend_schema(
        operation_id="users_me_notifications_retrieve",
        description=(
            "Your email preference: instant mail, or a digest every `digest_hours`; and your"
            " `language`."
        ),
        responses={200: NotificationPrefsOutputSerializer, 401: ErrorOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        pref = NotificationPref.objects.filter(user=user).first()
        return Response(NotificationPrefsOutputSerializer(prefs_out(pref)).data)

    @extend_schema(
        operation_id="users_me_notifications_update",
        description=UPDATE_DOC,
        request=NotificationPrefsInputSerializer,
        responses={200: NotificationPrefsOutputSerializer, **ERRORS},
    )
    def put(self, request: Request) -> Response:
        return self._update(request)

    @extend_schema(
        operation_id="users_me_notifications_partial_update",
        description=UPDATE_DOC,
        request=NotificationPrefsInputSerializer,
        responses={200: NotificationPrefsOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request) -> Response:
        return self._update(request)

    def _update(self, request: Request) -> Response:
        user = request_user(request)
        data = NotificationPrefsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        with transaction.atomic():
            pref = notification_pref_set(
                user=user,
                mode=MODE_IN[v["mode"]] if "mode" in v else None,
                digest_hours=v.get("digest_hours"),
                email_enabled=v.get("email_enabled"),
            )
            if "language" in v:
                language_set(user, v["language"])
                pref.refresh_from_db()
        return Response(NotificationPrefsOutputSerializer(prefs_out(pref)).data)
