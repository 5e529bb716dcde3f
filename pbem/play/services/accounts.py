"""Sign-up with email verification.

`signup_request` creates an *inactive* user and mails a verification link carrying a signed
token; `signup_verify` activates the user and returns their API token. The token is Django's
password-reset token (it embeds the password hash and last login, so it stops working once the
account is activated: one use) wrapped in `django.core.signing` with a salt of its own, valid
for `PASSWORD_RESET_TIMEOUT` (3 days by default).

No enumeration of email addresses: an address that already has an account gets the same answer
as a new one; its owner is mailed instead ("you already have an account", with a fresh link when
that account was never verified). A taken *username* is told, since usernames are public anyway
(every game shows its players').
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from pbem.play.errors import ServiceError, say

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)
SALT = "pbem.signup"
VERIFY_PATH = "/api/v1/users/verify"
WEB_VERIFY_PATH = "/accounts/verify/"  # the same, as a page (pbem.web)


USERNAME_TAKEN = gettext_lazy("this username is taken; choose another")
TOKEN_INVALID = gettext_lazy("the token is invalid or expired; sign up again")
TOKEN_USED = gettext_lazy("the token was used already or is invalid")


# the messages of a refused field, joined when read (in the language active then)
def _join(messages: Sequence[StrOrPromise]) -> str:
    return " ".join(str(m) for m in messages)


_joined = lazy(_join, str)


class SignupRejected(ServiceError):
    status = 400
    code = "bad_signup"

    def __init__(self, field: str, messages: Sequence[StrOrPromise]) -> None:
        super().__init__(say("{field}: {messages}", field=field, messages=_joined(messages)))
        self.field = field
        self.messages = messages


class BadSignupToken(ServiceError):
    status = 400
    code = "bad_token"


class MailUnavailable(ServiceError):
    status = 503
    code = "mail_unavailable"


@dataclass(frozen=True)
class Verified:
    user: User
    token: str


def site_url() -> str:
    """The site's public address: settings.PBEM_SITE_URL, else PBEM["SITE_URL"] (env
    PBEM_SITE_URL), else http://localhost:8000."""
    url = getattr(settings, "PBEM_SITE_URL", None) or settings.PBEM.get("SITE_URL")
    return str(url or "http://localhost:8000").rstrip("/")


def signup_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "t": default_token_generator.make_token(user)}, salt=SALT)


def verify_link(token: str) -> str:
    return f"{site_url()}{VERIFY_PATH}?token={token}"


def _mail(to: str, subject: str, body: str) -> None:
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to], fail_silently=False)
    except Exception as e:  # SMTP, network or ESP: nothing is kept, the client may retry
        logger.warning("sign-up mail to %s not sent: %s", to, e)
        raise MailUnavailable(
            gettext_lazy("the verification mail could not be sent; try again later")
        ) from e


def _verification_mail(user: User) -> None:
    token = signup_token(user)
    _mail(
        user.email,
        "Confirm your pbem account",
        f"Hello {user.username},\n\n"
        "someone (we hope you) signed up for a pbem account with this address. To activate it,\n"
        f"POST the token to {site_url()}{VERIFY_PATH}, e.g.\n\n"
        f"  curl -X POST -H 'Content-Type: application/json' -d '{{\"token\": \"{token}\"}}' "
        f"{site_url()}{VERIFY_PATH}\n\n"
        f"or open {verify_link(token)} for the same instructions.\n"
        f"In a browser, open {site_url()}{WEB_VERIFY_PATH}?token={token}\n"
        "to activate it and log in.\n"
        "The answer holds your API token. The link works once and for a few days.\n"
        "If you did not sign up, ignore this mail: the account stays inactive.\n",
    )


def _existing_mail(user: User) -> None:
    if not user.is_active and user.last_login is None:
        _verification_mail(user)  # never verified: a fresh link (for the name they chose then)
        return
    _mail(
        user.email,
        "Your pbem account",
        f"Hello {user.username},\n\n"
        "someone tried to sign up for pbem with this address, which already has an account\n"
        f"(username {user.username}). No new account was created. If it was you, use that one;\n"
        "an operator can print its API token with `manage.py pbem_user NAME`.\n",
    )


def signup_request(*, username: str, email: str, password: str) -> User | None:
    """Create an inactive user and mail them a verification link. Returns the new user, or None
    when the address has an account already (its owner is mailed; the caller answers the same).
    Raises SignupRejected (400: a taken username, a password the validators refuse) or
    MailUnavailable (503: nothing is kept)."""
    email = User.objects.normalize_email(email).strip()
    if User.objects.filter(username__iexact=username).exists():
        raise SignupRejected("username", [USERNAME_TAKEN])
    existing = User.objects.filter(email__iexact=email).order_by("pk").first()
    if existing is not None:
        _existing_mail(existing)
        return None
    try:
        validate_password(password, User(username=username, email=email))
    except ValidationError as e:
        raise SignupRejected("password", list(e.messages)) from None
    try:
        with transaction.atomic():
            user = User.objects.create_user(username, email, password, is_active=False)
            _verification_mail(user)  # a mail failure rolls the user back
    except IntegrityError:  # the same username raced in
        raise SignupRejected("username", [USERNAME_TAKEN]) from None
    return user


def signup_verify(*, token: str) -> Verified:
    """Activate the user the token was made for and return their API token. 400 `bad_token`
    for a forged, expired or already used token."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        raise BadSignupToken(TOKEN_INVALID) from None
    pk, check = (data.get("u"), data.get("t")) if isinstance(data, dict) else (None, None)
    user = User.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    if user is None or not isinstance(check, str):
        raise BadSignupToken(TOKEN_INVALID)
    if not default_token_generator.check_token(user, check):
        raise BadSignupToken(TOKEN_USED)
    with transaction.atomic():
        # last_login changes the hash the token was made from: it cannot be used again
        done = User.objects.filter(pk=user.pk, last_login=user.last_login).update(
            is_active=True, last_login=timezone.now()
        )
        if done != 1:
            raise BadSignupToken(TOKEN_USED)
        key, _ = Token.objects.get_or_create(user=user)
    user.refresh_from_db()
    return Verified(user=user, token=key.key)


__all__ = [
    "BadSignupToken",
    "MailUnavailable",
    "SignupRejected",
    "Verified",
    "signup_request",
    "signup_token",
    "signup_verify",
    "site_url",
    "verify_link",
]
