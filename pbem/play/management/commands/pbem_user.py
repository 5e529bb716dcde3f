"""`manage.py pbem_user NAME [--email ADDR]`: create or find a user and print its API token.

Contract: the token is the LAST line printed, alone on its line, so scripts can take
`| tail -n 1`.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token


def user_with_token(name: str, email: str = "") -> tuple[User, Token, bool]:
    """Find or create user `name` (setting the email when one is given) and its DRF token."""
    with transaction.atomic():
        user, created = User.objects.get_or_create(username=name, defaults={"email": email})
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        elif email and user.email != email:
            user.email = email
            user.save(update_fields=["email"])
        token, _ = Token.objects.get_or_create(user=user)
    return user, token, created


class Command(BaseCommand):
    help = "Create or find a user; print its API token as the last line."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("name", help="the username")
        parser.add_argument("--email", default="", help="the user's email address")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(options["name"]).strip()
        if not name or len(name) > 150:
            raise CommandError("the name must have 1 to 150 characters")
        try:
            User.username_validator(name)
        except ValidationError as e:
            raise CommandError(f"bad user name {name!r}: {' '.join(e.messages)}") from None
        user, token, created = user_with_token(name, str(options["email"]).strip())
        state = "created" if created else "exists"
        self.stdout.write(f"user {user.username} ({state}) email={user.email or '-'}")
        self.stdout.write(token.key)
