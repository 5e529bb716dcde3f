"""Messages a player of a Napoleon's Triumph team game must answer per game turn (target <= 1.2).

    .venv/bin/python bench/team_messages.py [--games 200] [--seed 1] [--scenario DEC2]

What a player of a correspondence game feels: a *message* a seat must answer is a maximal run of
consecutive actions by that seat with no other seat acting in between (he answers all of them in
one mail or visit; answers given by a standing instruction are no one's action and do not break
the run). A *game turn* is one round of the time track (both sides' turns). The headline counts
only the messages of the game turns in play (engine phase `turn`); the conferences and the set-up
are counted too but reported separately. Per game and seat: messages in play / rounds played
(rounds in which some action in play was sent); the headline is the median over all (game, seat)
pairs, with the mean and the 90th percentile (nearest rank). Classification:
games/napoleons_triumph/team/message_count.py (groups: `own` part of the team turn, `resumed` own
part after another seat acted in between, `defence` decisions, `other` decisions = the moving
side's).

Each of the --games random team games (1 to 4 seats a side, sizes drawn from the game's seed as
the fuzzer does, `team_options`) is played twice with the same seeds and the engine's random
player (`random_action`, chooser as in games/fuzz.py):
(a) with standing instructions: the first time each seat is prompted once the conferences let
    the engine's actions through (in a visit of its own, so it costs no message of its own), it
    files its own `set_defense_plan` {"scope": {"default": true}, on_threat defend/strongest,
    counter win_if_possible, hold all_named, retreat default}: every defence decision routed to
    that seat with a standing answer (policies.py) is then answered by the engine whenever that
    answer is legal (team digest SRV-1: a seat's plan answers only its own decisions);
(b) without: no plan is filed.
In both runs the random player's own random `set_defense_plan` draws are redrawn (they would file
plans that say "ask"), so everything else is identical until a standing answer changes the game;
the engine's random numbers of an action are drawn by its index among the random player's actions.
A random draw the engine refuses is redrawn and counted (printed per run); since `actions()`
offers a seat only the payloads the team layer lets it send, the count should stay 0.

Progress goes to stderr every 20 games; the last line is
`messages per player per game turn: median X.XX with standing instructions, Y.YY without
(target <= 1.2)`.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import message_count as M
from games.napoleons_triumph.team.randomplay import team_options

PLAN: dict[str, JSON] = {
    "scope": {"default": True},
    "on_threat": {"mode": "defend", "leading": "strongest"},
    "counter": {"policy": "win_if_possible"},
    "hold": "all_named",
    "retreat": {"mode": "default"},
}
SET_DEFENSE_PLAN = "set_defense_plan"
REDRAWS = 200
MAX_ACTIONS = 20000


@dataclass
class Game:
    seats: list[str]
    steps: list[M.Step]
    plans_filed: int
    refused: list[str]  # the random player's draws the engine refused (redrawn)


@dataclass
class Run:
    """The figures of one run (with or without standing instructions) over all games."""

    per_seat: list[float] = field(default_factory=list)  # play messages / round, per (game, seat)
    by_group: dict[str, list[float]] = field(default_factory=lambda: {g: [] for g in M.GROUPS})
    conference: list[int] = field(default_factory=list)  # per (game, seat)
    setup: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)  # per game
    actions_per_message: list[float] = field(default_factory=list)  # per game
    plans_filed: int = 0
    refused: list[str] = field(default_factory=list)

    def add(self, game: Game) -> None:
        msgs = M.messages(game.steps)
        rounds = M.rounds_played(game.steps)
        self.rounds.append(rounds)
        self.plans_filed += game.plans_filed
        self.refused += game.refused
        play = [m for m in msgs if m.stage == M.PLAY]
        if play:
            self.actions_per_message.append(sum(m.actions for m in play) / len(play))
        for seat in game.seats:
            mine = [m for m in msgs if m.seat == seat]
            self.conference.append(sum(1 for m in mine if m.stage == M.CONFERENCE))
            self.setup.append(sum(1 for m in mine if m.stage == M.SETUP))
            if rounds == 0:
                continue
            in_play = [m for m in mine if m.stage == M.PLAY]
            self.per_seat.append(len(in_play) / rounds)
            for g in M.GROUPS:
                self.by_group[g].append(sum(1 for m in in_play if m.group == g) / rounds)


def draw(state: GameState, role: str, chooser: Rng, refused: list[str]) -> Action:
    """The random player's action, its random standing instructions redrawn. A draw the engine
    refuses (the team random player's fallback may offer a choice the team layer refuses, e.g.
    NT-TEAM-48) is noted in `refused` and redrawn; at last the first legal listed choice."""
    for _ in range(REDRAWS):
        action = RULESET.random_action(state, role, chooser)
        assert action is not None, f"{role} is prompted but no action is offered"
        if action.kind == SET_DEFENSE_PLAN:
            continue
        rejections = RULESET.validate(state, action)
        if not rejections:
            return action
        refused.append(f"{action.kind} {rejections[0].rule}")
    for spec in RULESET.actions(state, role):
        found = spec.choices.get("payloads") if isinstance(spec.choices, dict) else None
        for p in found if isinstance(found, list) and not spec.any_time else []:
            action = Action(role, spec.kind, p)
            if not RULESET.validate(state, action):
                return action
    raise AssertionError(f"{role}: no legal action drawn or listed")


def playout(scenario: str, options: dict[str, JSON], seed: bytes, plans: bool) -> Game:
    state = RULESET.setup(GameConfig(scenario, options), Rng.for_event(seed, 0))
    chooser = Rng.for_event(seed, 1 << 40)
    seats = [r.id for r in RULESET.roles(scenario, options)]
    steps: list[M.Step] = []
    filed: list[str] = []
    refused: list[str] = []
    n = 0  # the random player's actions so far
    while True:
        prompts = RULESET.prompts(state)
        if not prompts:
            assert RULESET.result(state) is not None, f"{seed!r}: stalled without a result"
            return Game(seats, steps, len(filed), refused)
        assert n < MAX_ACTIONS, f"{seed!r}: no result after {MAX_ACTIONS} actions"
        role = sorted(prompts)[chooser.below(len(prompts))]
        if plans and role not in filed:
            plan = Action(role, SET_DEFENSE_PLAN, PLAN)
            if not RULESET.validate(state, plan):  # in the seat's first visit after the ranks
                steps.append(M.step_of(state, role))
                state = RULESET.apply(state, plan, Rng.for_event(seed, 1 << 42)).state
                filed.append(role)
                if role not in RULESET.prompts(state):
                    continue  # the plan answered the decision the seat was visited for
        action = draw(state, role, chooser, refused)
        steps.append(M.step_of(state, role))
        state = RULESET.apply(state, action, Rng.for_event(seed, n + 2)).state
        n += 1


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def report(name: str, run: Run) -> None:
    v = run.per_seat
    print(
        f"{name}: {len(v)} (game, seat) pairs; messages in play per round: median "
        f"{statistics.median(v):.2f}, mean {statistics.fmean(v):.2f}, p90 {p90(v):.2f}"
    )
    parts = ", ".join(f"{g} {statistics.fmean(run.by_group[g]):.3f}" for g in M.GROUPS)
    print(f"  by group (mean per seat and round): {parts}")
    print(
        f"  per seat and game: conference {statistics.fmean(run.conference):.1f}, "
        f"set-up {statistics.fmean(run.setup):.2f} messages; rounds per game "
        f"{statistics.fmean(run.rounds):.1f}; actions per message in play "
        f"{statistics.fmean(run.actions_per_message):.2f}; plans filed {run.plans_filed}"
    )
    if run.refused:
        kinds = Counter(run.refused).most_common(5)
        print(f"  random draws refused by the engine and redrawn: {len(run.refused)} ({kinds})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenario", default="DEC2")
    args = ap.parse_args(argv)
    runs = {True: Run(), False: Run()}
    started = time.monotonic()
    for g in range(args.games):
        seed = f"team_messages:{args.seed}:{g}".encode()
        options = team_options(Rng.for_event(seed, 1 << 41))
        for plans, run in runs.items():
            run.add(playout(args.scenario, options, seed, plans))
        if (g + 1) % 20 == 0:
            with_, without = (statistics.median(runs[p].per_seat) for p in (True, False))
            print(
                f"  {g + 1}/{args.games} games, {time.monotonic() - started:.0f}s: median "
                f"{with_:.2f} with, {without:.2f} without",
                file=sys.stderr,
            )
    report("with standing instructions", runs[True])
    report("without", runs[False])
    with_, without = (statistics.median(runs[p].per_seat) for p in (True, False))
    print(
        f"messages per player per game turn: median {with_:.2f} with standing instructions, "
        f"{without:.2f} without (target <= 1.2)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
