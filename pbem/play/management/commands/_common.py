"""Helpers shared by the pbem_* management commands (not a command: the name starts with _)."""

from __future__ import annotations

import uuid

from django.core.management.base import CommandError

from pbem.play.models import Game


def game_find(ref: str) -> Game:
    """A game by its UUID or by a unique prefix of it (as printed by pbem_demo)."""
    ref = ref.strip().lower()
    try:
        return Game.objects.get(pk=uuid.UUID(ref))
    except (ValueError, Game.DoesNotExist):
        pass
    hex_ref = ref.replace("-", "")
    if len(hex_ref) >= 4 and all(c in "0123456789abcdef" for c in hex_ref):
        matches = [g for g in Game.objects.all().only("id") if g.pk.hex.startswith(hex_ref)]
        if len(matches) == 1:
            return Game.objects.get(pk=matches[0].pk)
        if len(matches) > 1:
            raise CommandError(f"{ref!r} matches {len(matches)} games; give more of the id")
    raise CommandError(f"no game {ref!r}")
