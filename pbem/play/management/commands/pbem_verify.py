"""`manage.py pbem_verify GAME`: replay a game from its seed and check every state hash.

Prints the report (events checked, the first mismatch, the seed commitment check, and for a
finished game the revealed seed); exits with status 1 when anything does not match.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from pbem.play.management.commands._common import game_find
from pbem.play.services.verify import game_verify, seed_reveal


class Command(BaseCommand):
    help = "Replay a game's whole log from its seed; check every hash and the seed commitment."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("game", help="the game's id (or a unique prefix of it)")

    def handle(self, *args: Any, **options: Any) -> None:
        game = game_find(str(options["game"]))
        report = game_verify(game=game)
        self.stdout.write(f"game {game.pk} {game.title!r} ({game.ruleset_id} {game.scenario})")
        self.stdout.write(f"status: {game.status}, head: event {game.head_seq}")
        self.stdout.write(
            f"events checked: {report.events_checked}, snapshots checked: "
            f"{report.snapshots_checked} ({report.seconds:.2f}s)"
        )
        self.stdout.write(
            f"seed commitment sha256: {game.seed_commitment} "
            f"({'matches the seed' if report.commitment_ok else 'DOES NOT MATCH the seed'})"
        )
        seed = seed_reveal(game)
        if seed is not None:
            self.stdout.write(f"seed (revealed, the game is over): {seed}")
        else:
            self.stdout.write("seed: secret until the game is finished")
        for message in report.messages:
            self.stdout.write(f"  {message}")
        if not report.ok:
            raise CommandError(
                f"verification FAILED (first mismatch at event {report.first_mismatch})",
                returncode=1,
            )
        self.stdout.write("verification OK")
