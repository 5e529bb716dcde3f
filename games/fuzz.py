"""Random games to their end, with checks after every action.

    python -m games.fuzz napoleons_triumph --games N --seed S [--scenario NAME] [--options JSON]
    python -m games.fuzz napoleons_triumph --team --games N --seed S   (random team games)

After every action: `validate` accepts what the generator produced; the state survives a dump/load
round trip with the same hash; the invariants hold; no role's view changes when only something that
role may not see changes. With --team (Napoleon's Triumph only) every game is a team game of 1 to 4
seats a side, and every written order must be in its recipient's inbox exactly from his team's next
turn on and in nobody else's view before the game is over. At the end of each game the whole log is
replayed from the seed and every state hash must match. A game that stalls (nobody prompted without
a result, no action offered, or more than --max-actions) is a failure. Last line: `N games,
M actions, K decided, F failures`.
The engine's own checks (invariants, the hidden-fact probe) come from its games.registry entry.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter

from games.core.canonical import state_hash
from games.core.protocol import JSON, OBSERVER, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph.team.randomplay import order_problems, team_options
from games.registry import checks, get

KINDS: Counter[str] = Counter()


def play_one(
    ruleset_id: str,
    scenario: str,
    options: dict[str, JSON],
    seed: bytes,
    max_actions: int,
    check_views: bool,
    team: bool = False,
) -> tuple[int, bool]:
    """Play one random game; returns (actions, decided). Raises AssertionError on a failure."""
    rules = get(ruleset_id)
    state = rules.setup(GameConfig(scenario, options), Rng.for_event(seed, 0))
    log: list[Action] = []
    hashes = [state_hash(rules.dump(state))]
    chooser = Rng.for_event(seed, 1 << 40)
    engine = checks(ruleset_id)  # invariants and the hidden-fact probe (games.registry)
    broken, perturb = engine.violations, engine.perturb
    roles = [r.id for r in rules.roles(scenario, options)] + [OBSERVER]
    while True:
        prompts = rules.prompts(state)
        if not prompts:
            assert rules.result(state) is not None, "no one is prompted but there is no result"
            again = replay(ruleset_id, scenario, options, seed, log)
            assert again == hashes, "replaying the log from the seed gives other state hashes"
            KINDS.update(a.kind for a in log)
            return len(log), True
        assert len(log) < max_actions, f"no result after {max_actions} actions (dead end?)"
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = rules.random_action(state, role, chooser)
        assert action is not None, f"{role} is prompted but no action is offered"
        rejections = rules.validate(state, action)
        assert not rejections, f"generated action {action} rejected: {rejections}"
        step = rules.apply(state, action, Rng.for_event(seed, len(log) + 2))
        state = step.state
        log.append(action)
        h = state_hash(rules.dump(state))
        assert state_hash(rules.dump(rules.load(rules.dump(state)))) == h, "dump/load changes state"
        hashes.append(h)
        bad = broken(state)
        assert not bad, f"invariants broken after {action}: {bad}"
        if team:
            leaks = order_problems(rules, state, roles)  # type: ignore[arg-type]
            assert not leaks, f"written orders after {action}: {leaks[:3]}"
        if check_views:
            for r in roles:
                other = perturb(state, r, chooser)
                if other is None:
                    continue
                assert rules.view(state, r) == rules.view(other, r), (
                    f"view of {r} changed with hidden facts after {action}"
                )


def replay(
    ruleset_id: str, scenario: str, options: dict[str, JSON], seed: bytes, log: list[Action]
) -> list[str]:
    rules = get(ruleset_id)
    state = rules.setup(GameConfig(scenario, options), Rng.for_event(seed, 0))
    out = [state_hash(rules.dump(state))]
    for i, a in enumerate(log):
        state = rules.apply(state, a, Rng.for_event(seed, i + 2)).state
        out.append(state_hash(rules.dump(state)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--options", default="{}", help="JSON object of ruleset options")
    ap.add_argument("--max-actions", type=int, default=20000)
    ap.add_argument("--no-views", action="store_true", help="skip the view non-interference check")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (to replay one)")
    ap.add_argument("--team", action="store_true", help="team games (napoleons_triumph only)")
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    if args.team and args.ruleset != "napoleons_triumph":
        ap.error("--team is for napoleons_triumph (rulebook chapter 19)")
    rules = get(args.ruleset)
    scenario = args.scenario or rules.scenarios()[0]
    total_actions = decided = failures = 0
    started = time.monotonic()
    for g in range(args.first, args.first + args.games):
        seed = f"fuzz:{args.seed}:{g}".encode()
        game_options = options
        if args.team:  # random team sizes, drawn from the game's seed
            game_options = {**options, **team_options(Rng.for_event(seed, 1 << 41))}
        try:
            n, ok = play_one(
                args.ruleset,
                scenario,
                game_options,
                seed,
                args.max_actions,
                not args.no_views,
                args.team,
            )
            total_actions += n
            decided += ok
        except Exception:
            failures += 1
            print(f"FAIL game {g} (seed {seed.decode()}):", file=sys.stderr)
            traceback.print_exc()
        if not args.quiet and (g + 1) % 10 == 0:
            print(
                f"  {g + 1}/{args.games} games, {total_actions} actions, "
                f"{time.monotonic() - started:.0f}s",
                file=sys.stderr,
            )
    if not args.quiet:
        print(
            "  action kinds: " + ", ".join(f"{k} {n}" for k, n in KINDS.most_common()),
            file=sys.stderr,
        )
    print(f"{args.games} games, {total_actions} actions, {decided} decided, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
