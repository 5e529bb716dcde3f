"""The account and profile forms (every field labelled; the messages translated)."""

from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from pbem.notify.models import DIGEST_HOURS_DEFAULT, DIGEST_HOURS_MAX, DIGEST_HOURS_MIN
from pbem.web.models import LANGUAGE_BROWSER, language_choices


def zone_choices() -> list[tuple[str, str]]:
    return [(z, z) for z in sorted(available_timezones())]


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        help_text=_("Shown to the other players."),
    )
    email = forms.EmailField(label=_("Email address"), max_length=254)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, max_length=128)

    def clean_username(self) -> str:
        name = str(self.cleaned_data["username"]).strip()
        try:
            User.username_validator(name)
        except forms.ValidationError:
            raise forms.ValidationError(
                _("Letters, digits and @/./+/-/_ only."), code="invalid"
            ) from None
        return name


class ProfileForm(forms.Form):
    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("A new address is used once you follow the link we mail to it."),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=zone_choices)
    language = forms.ChoiceField(label=_("Language"), required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["language"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(LANGUAGE_BROWSER, _("as my browser says")), *language_choices()]


class NotificationsForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Email"),
        choices=[
            ("instant", _("one mail per notification")),
            ("daily_digest", _("a digest")),
        ],
    )
    digest_hours = forms.IntegerField(
        label=_("Hours between digests"),
        min_value=DIGEST_HOURS_MIN,
        max_value=DIGEST_HOURS_MAX,
        initial=DIGEST_HOURS_DEFAULT,
    )
    email_enabled = forms.BooleanField(label=_("Send me email"), required=False)


class AbsenceForm(forms.Form):
    starts_on = forms.DateField(
        label=_("First day away"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Last day away"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, object] | None:
        data = super().clean()
        starts, ends = (data or {}).get("starts_on"), (data or {}).get("ends_on")
        if starts and ends and ends < starts:
            raise forms.ValidationError(_("The last day comes before the first."))
        return data
