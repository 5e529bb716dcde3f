"""Speed of the Napoleon's Triumph engine on random games.

    .venv/bin/python bench/engine_nt.py [--games N] [--board NAME] [--seed S]

For each board (both shipped boards unless --board names one) it plays N random games from set-up
to result with the ruleset's own `random_action` and prints one row: whole random playouts per
second (set-up, generating and applying every action), the mean and p95 time of `validate()` per
action and the mean time of `apply()` per action (timed on the logged actions, in their states),
the mean time to replay a whole game from its log (set-up + apply of every action) and the mean and
longest log length. Times are wall-clock (time.perf_counter) in milliseconds.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from games.core.protocol import Action, GameConfig, Ruleset
from games.core.rng import Rng
from games.registry import get

BOARDS = ("austerlitz", "austerlitz-published")


@dataclass
class Game:
    config: GameConfig
    seed: bytes
    log: list[Action]


@dataclass
class Row:
    board: str
    games: int
    playouts_per_s: float
    validate_mean_ms: float
    validate_p95_ms: float
    apply_mean_ms: float
    replay_mean_ms: float
    log_mean: float
    log_max: int


def playout(rules: Ruleset[object], config: GameConfig, seed: bytes) -> Game:
    state = rules.setup(config, Rng.for_event(seed, 0))
    chooser = Rng.for_event(seed, 1 << 40)
    log: list[Action] = []
    while True:
        prompts = rules.prompts(state)
        if not prompts:
            assert rules.result(state) is not None, f"{seed!r}: stalled without a result"
            return Game(config, seed, log)
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = rules.random_action(state, role, chooser)
        assert action is not None, f"{seed!r}: {role} is prompted but no action is offered"
        state = rules.apply(state, action, Rng.for_event(seed, len(log) + 2)).state
        log.append(action)


def replay(rules: Ruleset[object], game: Game) -> None:
    state = rules.setup(game.config, Rng.for_event(game.seed, 0))
    for i, action in enumerate(game.log):
        state = rules.apply(state, action, Rng.for_event(game.seed, i + 2)).state


def per_action(rules: Ruleset[object], game: Game) -> tuple[list[float], list[float]]:
    """validate() and apply() times (seconds) of every logged action in its own state."""
    validate: list[float] = []
    apply: list[float] = []
    state = rules.setup(game.config, Rng.for_event(game.seed, 0))
    for i, action in enumerate(game.log):
        t0 = time.perf_counter()
        rejections = rules.validate(state, action)
        t1 = time.perf_counter()
        state = rules.apply(state, action, Rng.for_event(game.seed, i + 2)).state
        t2 = time.perf_counter()
        assert not rejections, f"{game.seed!r}: logged action {i} rejected: {rejections}"
        validate.append(t1 - t0)
        apply.append(t2 - t1)
    return validate, apply


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, (95 * len(ordered)) // 100)]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def bench(board: str, games: int, seed: int) -> Row:
    rules = get("napoleons_triumph")
    config = GameConfig(rules.scenarios()[0], {"board": board})
    playout(rules, config, b"bench:warm-up")  # load the board, fill the caches
    started = time.perf_counter()
    played = [playout(rules, config, f"bench:{seed}:{g}".encode()) for g in range(games)]
    playing = time.perf_counter() - started
    replays: list[float] = []
    for game in played:
        t0 = time.perf_counter()
        replay(rules, game)
        replays.append(time.perf_counter() - t0)
    validate: list[float] = []
    apply: list[float] = []
    for game in played:
        v, a = per_action(rules, game)
        validate += v
        apply += a
    lengths = [len(g.log) for g in played]
    return Row(
        board=board,
        games=games,
        playouts_per_s=games / playing,
        validate_mean_ms=1000 * mean(validate),
        validate_p95_ms=1000 * p95(validate),
        apply_mean_ms=1000 * mean(apply),
        replay_mean_ms=1000 * mean(replays),
        log_mean=mean([float(n) for n in lengths]),
        log_max=max(lengths),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="random games per board (default 20)")
    ap.add_argument("--board", choices=BOARDS, default=None, help="one board (default: both)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    boards = (args.board,) if args.board else BOARDS
    head = (
        f"{'board':<22}{'games':>6}{'games/s':>9}{'validate ms':>13}{'p95 ms':>8}"
        f"{'apply ms':>10}{'replay ms':>11}{'log mean':>10}{'log max':>9}"
    )
    print(head)
    print("-" * len(head))
    for board in boards:
        r = bench(board, args.games, args.seed)
        print(
            f"{r.board:<22}{r.games:>6}{r.playouts_per_s:>9.2f}{r.validate_mean_ms:>13.2f}"
            f"{r.validate_p95_ms:>8.2f}{r.apply_mean_ms:>10.2f}{r.replay_mean_ms:>11.1f}"
            f"{r.log_mean:>10.1f}{r.log_max:>9}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
