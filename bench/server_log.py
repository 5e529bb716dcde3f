"""Load + view cost at event 10 000 against event 100 (target ratio <= 1.5).

    .venv/bin/python bench/server_log.py [--events 10000] [--repeat 20]

Uses the configured database (the SQLite file by default; set DATABASE_URL for PostgreSQL). It
creates a Napoleon's Triumph game on the small board, plays its set-up, then appends standing
instructions (`set_defense_plan`, legal at any time) through `event_append` until the log is
`--events` long, snapshots as the server writes them. It then times `state_at` + `view` at event
100 and at the head, and prints both medians and their ratio. Cost should not grow with the log:
the newest snapshot bounds the replay. Both figures of the ratio skip the head state (the state
after the newest event, which the server reads with one query) so that they measure the rebuild;
a last line gives the head-state read for comparison.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")


def main() -> int:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from games.core.protocol import Action
    from games.core.rng import Rng
    from games.napoleons_triumph import RULESET
    from pbem.play.selectors import numbering_for
    from pbem.play.services.games import game_create
    from pbem.play.services.log import event_append, rng_for, state_at

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    call_command("migrate", verbosity=0)
    a, _ = User.objects.get_or_create(username="bench_a")
    f, _ = User.objects.get_or_create(username="bench_f")
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": a, "french": f},
        creator=a,
        title="bench",
        accepted=True,
    )
    state = state_at(game, game.head_seq)
    rng = Rng(7)
    started = time.perf_counter()
    while game.head_seq < args.events:
        if game.head_seq < 3:  # set-up first (the engine refuses plans before it)
            role = sorted(RULESET.prompts(state))[0]  # type: ignore[arg-type]
            action = RULESET.random_action(state, role, rng)  # type: ignore[arg-type]
            assert action is not None
        else:
            action = Action(
                "french",
                "set_defense_plan",
                {
                    "scope": {"default": True},
                    "on_threat": {"mode": "defend"},
                    "counter": {"policy": "none" if game.head_seq % 2 else "ask"},
                },
            )
        step = RULESET.apply(state, action, rng_for(game, game.head_seq + 1))  # type: ignore[arg-type]
        event_append(game=game, after_seq=game.head_seq, action=action, step=step, source="api")  # type: ignore[arg-type]
        state = step.state
        if game.head_seq % 1000 == 0:
            print(f"  {game.head_seq} events, {time.perf_counter() - started:.0f}s", flush=True)

    def timed(seq: int, head: bool) -> float:
        """Median ms of state_at + view; `head=False` skips the head state (the rebuild path)."""
        out = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            RULESET.view(state_at(game, seq, head=head), "french")  # type: ignore[arg-type]
            out.append(time.perf_counter() - t0)
        return statistics.median(out) * 1000

    early, late = timed(100, False), timed(game.head_seq, False)
    print(
        f"rebuild (snapshot + replay) + view at event 100: {early:.2f} ms; at event "
        f"{game.head_seq}: {late:.2f} ms; ratio {late / early:.2f} (target <= 1.5)"
    )
    at_head = timed(game.head_seq, True)
    print(f"head state + view at event {game.head_seq} (what the server reads): {at_head:.2f} ms")

    # the Allies' numbering of the log: every French plan is hidden from them,
    # so this is the worst case, a log made of nothing but another side's secret events
    def numbering_ms() -> float:
        out = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            numbering_for(game, ["allied"]).role_seq(game.head_seq)
            out.append(time.perf_counter() - t0)
        return statistics.median(out) * 1000

    hidden = len(numbering_for(game, ["allied"]).hidden)
    print(
        f"the Allies' numbering at event {game.head_seq} ({hidden} events hidden from them): "
        f"{numbering_ms():.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
