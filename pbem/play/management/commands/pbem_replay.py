"""`manage.py pbem_replay --verify [GAME ...]` and `--rebuild-snapshots`.

`--verify` replays every game (or the named ones) from its seed with `game_verify`, one progress
line per game, then a summary `N games, M events, F failures` (exit status 1 on any failure).
`--rebuild-snapshots` drops a game's snapshots (a cache) and rebuilds them from a replay of the
log at the events where `event_append` would write one: turn ends, every SNAPSHOT_EVERY events and
the end of the game, and its head state. A game whose replay does not match its log is not rebuilt.
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.core.canonical import state_hash
from games.core.protocol import JSON, Action
from pbem.conf import pbem_settings
from pbem.play.management.commands._common import game_find
from pbem.play.models import Event, Game, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import config_of, head_state_put, rng_for, rng_of
from pbem.play.services.verify import game_verify


def snapshots_rebuild(game: Game) -> int:
    """Replay `game` from its seed and replace its snapshots; returns how many were written.
    Raises CommandError (and changes nothing) when the replay does not match the log."""
    ruleset = ruleset_get(game.ruleset_id)
    every = int(pbem_settings.SNAPSHOT_EVERY)
    rows: list[Snapshot] = []
    state: object = None
    head: tuple[int, JSON, str] | None = None  # the last replayed event: seq, dump, hash
    events = Event.objects.filter(game=game).order_by("seq")
    for ev in events.iterator(chunk_size=500):
        if ev.seq == 1:
            state = ruleset.setup(config_of(game), rng_for(game, 1))
        else:
            state = ruleset.apply(
                state, Action(ev.role, ev.kind, ev.payload), rng_of(game, ev)
            ).state
        dumped = ruleset.dump(state)
        digest = state_hash(dumped)
        if digest != ev.state_hash:
            raise CommandError(f"game {game.pk}: event {ev.seq} does not replay to its hash")
        head = (ev.seq, dumped, digest)
        last = ev.seq == game.head_seq and ruleset.result(state) is not None
        if ev.turn_ended or ev.seq % every == 0 or last:
            rows.append(
                Snapshot(
                    game=game,
                    seq=ev.seq,
                    engine_version=ruleset.version,
                    state=dumped,
                    state_hash=digest,
                )
            )
    with transaction.atomic():
        Snapshot.objects.filter(game=game).delete()
        Snapshot.objects.bulk_create(rows, batch_size=200)
        # the head state too, unless an order was appended meanwhile (the row lock orders it)
        current = Game.objects.select_for_update().get(pk=game.pk).head_seq
        if head is not None and head[0] == current:
            head_state_put(game, head[0], ruleset.version, head[1], head[2])
    return len(rows)


class Command(BaseCommand):
    help = "Verify games by replaying their logs; optionally rebuild their snapshots."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("games", nargs="*", help="game ids (default: every game)")
        parser.add_argument("--verify", action="store_true", help="replay and check every hash")
        parser.add_argument(
            "--rebuild-snapshots",
            action="store_true",
            help="drop each game's snapshots and rebuild them at the turn ends",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verify, rebuild = bool(options["verify"]), bool(options["rebuild_snapshots"])
        if not verify and not rebuild:
            raise CommandError("nothing to do: give --verify and/or --rebuild-snapshots")
        refs: list[str] = list(options["games"])
        if refs:
            games = [game_find(ref) for ref in refs]
        else:
            games = list(Game.objects.order_by("created_at"))
        started = time.monotonic()
        events = failures = rebuilt = 0
        for n, game in enumerate(games, 1):
            prefix = f"[{n}/{len(games)}] game {game.pk}"
            failed = False
            if verify:
                report = game_verify(game=game)
                events += report.events_checked
                if report.ok:
                    self.stdout.write(
                        f"{prefix}: ok, {report.events_checked} events ({report.seconds:.2f}s)"
                    )
                else:
                    failed = True
                    first = report.messages[-1] if report.messages else ""
                    self.stdout.write(f"{prefix}: FAILED at event {report.first_mismatch}: {first}")
            if rebuild and not failed:
                try:
                    count = snapshots_rebuild(game)
                except CommandError as e:
                    failed = True
                    self.stdout.write(f"{prefix}: snapshots NOT rebuilt: {e}")
                else:
                    rebuilt += count
                    self.stdout.write(f"{prefix}: {count} snapshots rebuilt")
            failures += failed
        elapsed = time.monotonic() - started
        summary = f"{len(games)} games, {events} events, {failures} failures"
        if rebuild:
            summary += f", {rebuilt} snapshots rebuilt"
        self.stdout.write(f"{summary} ({elapsed:.2f}s)")
        if failures:
            raise CommandError(f"{failures} game(s) failed", returncode=1)
