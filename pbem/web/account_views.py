"""Accounts in the browser: sign up with a mailed link (pbem.play.services.accounts), log in and
out and reset a password (Django's auth views with our templates), the profile (email address
verified again by a link, time zone, language, notification choices, absences, the API token)
and the language switch, which works signed out too."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language
from rest_framework.authtoken.models import Token

from pbem.notify.digest import notification_pref_set
from pbem.notify.language import language_of, language_set
from pbem.notify.models import DIGEST_HOURS_DEFAULT, NotificationPref
from pbem.play.errors import ServiceError
from pbem.play.models import Absence
from pbem.play.services.absences import absence_cancel, absence_declare
from pbem.play.services.accounts import (
    BadSignupToken,
    MailUnavailable,
    SignupRejected,
    signup_request,
    signup_verify,
    site_url,
)
from pbem.web.forms import AbsenceForm, NotificationsForm, ProfileForm, SignupForm
from pbem.web.language import KNOWN, localized
from pbem.web.models import Profile, profile_of

EMAIL_SALT = "pbem.web.email"
TOKEN_MAX = 2000  # characters of a mailed token we read at all
BACKEND = "django.contrib.auth.backends.ModelBackend"


def signed_in(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # behind login_required
    return user


# --- sign up --------------------------------------------------------------------------------


@localized
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            signup_request(
                username=data["username"], email=data["email"], password=data["password"]
            )
        except SignupRejected as e:
            field = e.field if e.field in form.fields else None
            for message in e.messages:
                form.add_error(field, message)
        except MailUnavailable:
            form.add_error(None, _("The mail could not be sent; try again later."))
        else:
            return render(request, "web/accounts/signup_sent.html", {"email": data["email"]})
    status = 400 if request.method == "POST" else 200
    return render(request, "web/accounts/signup.html", {"form": form}, status=status)


@localized
@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest) -> HttpResponse:
    """The mailed link. GET asks for a click (a mail scanner following the link activates
    nothing); POST activates the account and signs its owner in."""
    token = str(request.POST.get("token") or request.GET.get("token") or "")[:TOKEN_MAX]
    if request.method == "POST":
        try:
            verified = signup_verify(token=token)
        except BadSignupToken as e:
            context = {"token": "", "error": e.message}
            return render(request, "web/accounts/verify.html", context, status=400)
        login(request, verified.user, backend=BACKEND)
        messages.success(request, _("Your account is active. Welcome!"))
        return HttpResponseRedirect(reverse("web:lobby"))
    return render(request, "web/accounts/verify.html", {"token": token})


# --- log in and out, password reset (Django's views, our templates) -------------------------


class LoginView(auth_views.LoginView):
    template_name = "web/accounts/login.html"

    def get_default_redirect_url(self) -> str:
        return reverse("web:lobby")  # without a safe `next`: the lobby, not settings' default


class LogoutView(auth_views.LogoutView):
    def get_default_redirect_url(self) -> str:
        return reverse("web:lobby")


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "web/accounts/password_reset_form.html"
    email_template_name = "web/accounts/password_reset_email.txt"
    subject_template_name = "web/accounts/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "web/accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "web/accounts/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "web/accounts/password_reset_complete.html"


login_view = localized(LoginView.as_view())
logout_view = localized(LogoutView.as_view())
password_reset = localized(PasswordResetView.as_view())
password_reset_done = localized(PasswordResetDoneView.as_view())
password_reset_confirm = localized(PasswordResetConfirmView.as_view())
password_reset_complete = localized(PasswordResetCompleteView.as_view())


# --- the profile ----------------------------------------------------------------------------


def _prefs_initial(user: User) -> dict[str, Any]:
    pref = NotificationPref.objects.filter(user=user).first()
    if pref is None:
        return {"mode": "instant", "digest_hours": DIGEST_HOURS_DEFAULT, "email_enabled": True}
    return {
        "mode": pref.mode,
        "digest_hours": pref.digest_hours,
        "email_enabled": pref.email_enabled,
    }


def _email_change_mail(request: HttpRequest, user: User, new: str) -> None:
    token = signing.dumps({"u": user.pk, "e": new, "o": user.email}, salt=EMAIL_SALT)
    link = f"{site_url()}{reverse('web:email-confirm')}?token={token}"
    body = _(
        "Hello %(name)s,\n\nto use this address for your pbem account, open\n\n%(link)s\n\n"
        "and confirm. If you did not ask for it, ignore this mail: nothing changes.\n"
    ) % {"name": user.username, "link": link}
    send_mail(_("Confirm your new address"), body, settings.DEFAULT_FROM_EMAIL, [new])


def _profile_context(user: User, **forms: Any) -> dict[str, Any]:
    profile = profile_of(user)
    token, _created = Token.objects.get_or_create(user=user)
    initial = {"email": user.email, "time_zone": profile.time_zone, "language": language_of(user)}
    return {
        "profile_form": forms.get("profile_form") or ProfileForm(initial=initial),
        "notifications_form": forms.get("notifications_form")
        or NotificationsForm(initial=_prefs_initial(user)),
        "absence_form": forms.get("absence_form") or AbsenceForm(),
        "absences": Absence.objects.filter(user=user).order_by("starts_on"),
        "token": token.key,
        "profile": profile,
    }


def _save_profile(request: HttpRequest, user: User, form: ProfileForm) -> None:
    data = form.cleaned_data
    Profile.objects.update_or_create(user=user, defaults={"time_zone": data["time_zone"]})
    language_set(user, data["language"])  # the one language, for the pages and the mails
    request._web_profile = None  # type: ignore[attr-defined]  # read again next time
    request._web_language = None  # type: ignore[attr-defined]
    new = str(data["email"]).strip()
    if new.lower() != user.email.lower():
        _email_change_mail(request, user, new)
        messages.info(
            request, _("We mailed a link to %(email)s: follow it to use it.") % {"email": new}
        )
    messages.success(request, _("Your profile is saved."))


@localized
@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    which = request.POST.get("form", "")
    forms: dict[str, Any] = {}
    if request.method == "POST":
        if which == "profile":
            form = ProfileForm(request.POST)
            if form.is_valid():
                _save_profile(request, user, form)
                response = HttpResponseRedirect(reverse("web:profile"))
                language = form.cleaned_data["language"]
                if language in KNOWN:
                    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
                return response
            forms["profile_form"] = form
        elif which == "notifications":
            nform = NotificationsForm(request.POST)
            if nform.is_valid():
                d = nform.cleaned_data
                notification_pref_set(
                    user=user,
                    mode=d["mode"],
                    digest_hours=d["digest_hours"],
                    email_enabled=bool(d["email_enabled"]),
                )
                messages.success(request, _("Your notification choices are saved."))
                return HttpResponseRedirect(reverse("web:profile"))
            forms["notifications_form"] = nform
        elif which == "absence":
            aform = AbsenceForm(request.POST)
            if aform.is_valid():
                try:
                    absence_declare(
                        user=user,
                        starts_on=aform.cleaned_data["starts_on"],
                        ends_on=aform.cleaned_data["ends_on"],
                        tz=profile_of(user).time_zone,
                    )
                except ServiceError as e:
                    aform.add_error(None, e.message)
                else:
                    messages.success(request, _("Your absence is declared."))
                    return HttpResponseRedirect(reverse("web:profile"))
            forms["absence_form"] = aform
        else:
            messages.error(request, _("Unknown form."))
        context = _profile_context(user, **forms)
        return render(request, "web/accounts/profile.html", context, status=400)
    return render(request, "web/accounts/profile.html", _profile_context(user))


@localized
@login_required
@require_POST
def absence_withdraw(request: HttpRequest, absence_id: int) -> HttpResponse:
    try:
        absence_cancel(user=signed_in(request), absence_id=absence_id)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Your absence is withdrawn."))
    return HttpResponseRedirect(reverse("web:profile"))


@localized
@login_required
@require_POST
def token_regenerate(request: HttpRequest) -> HttpResponse:
    """A new API token; the old one stops working at once."""
    user = signed_in(request)
    Token.objects.filter(user=user).delete()
    Token.objects.create(user=user)
    messages.success(request, _("You have a new API token; the old one no longer works."))
    return HttpResponseRedirect(reverse("web:profile"))


@localized
@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest) -> HttpResponse:
    """The link mailed to a new address: GET asks for a click, POST makes it the account's."""
    token = str(request.POST.get("token") or request.GET.get("token") or "")[:TOKEN_MAX]
    if request.method == "GET":
        return render(request, "web/accounts/email_confirm.html", {"token": token})
    error = _("The link is invalid, expired or used already.")
    try:
        data = signing.loads(token, salt=EMAIL_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        data = None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("u"), int)
        or not all(isinstance(data.get(k), str) for k in "eo")
    ):
        return render(request, "web/accounts/email_confirm.html", {"error": error}, status=400)
    new = str(data["e"])
    changed = User.objects.filter(pk=int(data["u"]), email=str(data["o"])).exclude(email=new)
    if User.objects.filter(email__iexact=new).exists() or not changed.update(email=new):
        return render(request, "web/accounts/email_confirm.html", {"error": error}, status=400)
    messages.success(request, _("Your address is now %(email)s.") % {"email": new})
    return HttpResponseRedirect(
        reverse("web:profile" if request.user.is_authenticated else "web:login")
    )


# --- the language switch --------------------------------------------------------------------


@require_POST
def set_language(request: HttpRequest) -> HttpResponseBase:
    """Django's set_language (the cookie, then back to `next`); a signed-in user's stored
    language takes the choice too, so it follows them to other browsers and to their mails."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    user = request.user
    if isinstance(user, User) and user.is_authenticated and language in KNOWN:
        profile_of(user)  # their page settings start here, as when the profile held the language
        language_set(user, language)
    return response
