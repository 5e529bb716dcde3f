"""A team game for the notification tests (team digest 3.4.6, 3.6, 5.6): 3 Allied and 2 French
seats on the full Austerlitz board, played by a seeded random policy through the real event log
(the engine's apply, then `event_append`, which plans the outbox rows in the event's
transaction, as the worker's `action_commit` does).

`written_turn` plays up to the first Allied team turn k, lets the Allied commander-in-chief write
one order to his first subordinate (or not: `write=False`), and plays on through the French turn
k to the Allied turn start k + 1 (the delivery event) and a few events more. The engine's dice
are drawn per main-line step, not per global seq, so two runs that differ only by the written
order play the very same game (the twins of the leak properties); the second run replays the
first one's actions, each validated again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast
from unittest import mock

from games.core.protocol import JSON, Action, Step, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from pbem.notify.notice import notices_of
from pbem.play.models import Event, Game
from pbem.play.services.games import game_create
from pbem.play.services.log import event_append, log_to_json, state_at
from tests.pbem.notify.nf_helpers import user

ROLES = {
    "allied-1": "AL",
    "allied-2": "AL",
    "allied-3": "AL",
    "french-1": "F",
    "french-2": "F",
}
ALLIED = sorted(r for r, side in ROLES.items() if side == "AL")
FRENCH = sorted(r for r, side in ROLES.items() if side == "F")
OPTIONS: dict[str, JSON] = {
    "board": "austerlitz",
    "team_play": True,
    "roles": dict[str, JSON](ROLES),
}
TITLE = "team notify"
ORDER_TEXT = "Attack Telnitz, Sokolnitz"  # the order the Allied CinC writes (grammar 3.4.3)
QUIET = frozenset({"write_order"})  # the policy itself never writes an order
MAX_STEPS = 400


def team_game(tag: str, seed: bytes) -> Game:
    """A started team game, every seat accepted, its secret seed fixed (twins share it)."""
    users = {role: user(f"tm_{tag}_{role}") for role in ROLES}
    with mock.patch.object(secrets, "token_bytes", lambda n: seed[:n].ljust(n, b"\0")):
        return game_create(
            ruleset_id="napoleons_triumph",
            scenario="DEC2",
            options=OPTIONS,
            seats=users,
            creator=users["allied-1"],
            title=TITLE,
            accepted=True,
        )


def state_of(game: Game, seq: int) -> GameState:
    state = state_at(game, seq)
    assert isinstance(state, GameState)
    return state


def view_at(game: Game, seq: int, role: str) -> Any:
    """`role`'s engine view after event `seq` (Any: the tests index into it)."""
    return RULESET.view(state_of(game, seq), role)


def engine_step(state: GameState, action: Action, rng: Rng) -> Step[object]:
    return cast("Step[object]", RULESET.apply(state, action, rng))


def role_of_email(address: str) -> str:
    """The role of a `tm_<tag>_<role>@example.com` address."""
    return address.split("@", 1)[0].rsplit("_", 1)[-1]


def allied_ranks(state: GameState) -> list[str]:
    """The Allied ranks (public once the initial conference closed, NT-TEAM-8): CinC first."""
    view = RULESET.view(state, "french-1")
    assert isinstance(view, dict)
    assert isinstance(view["team"], dict)
    teams = view["team"]["teams"]
    assert isinstance(teams, list)
    for team in teams:
        if isinstance(team, dict) and team["side"] == "AL":
            ranks = team["ranks"]
            assert isinstance(ranks, list), "the Allied ranks are not locked yet"
            return [str(r) for r in ranks]
    raise AssertionError("no Allied team")


def allied_turn_start(event: Event) -> bool:
    """Does this event start an Allied team turn (a public notice naming the Allied seats)?"""
    return any(sorted(n.roles) == ALLIED for n in notices_of(event.log))


def turn_round(event: Event) -> int:
    """k of the TEAM_TURN_START(side, k) this event holds (its public line's data)."""
    for entry in event.log:
        data = entry.get("data") if isinstance(entry, dict) else None
        if isinstance(data, dict) and data.get("kind") == "team_turn_start":
            inner = data["data"]
            assert isinstance(inner, dict)
            assert isinstance(inner["round"], int)
            return inner["round"]
    raise AssertionError("no team turn start in this event")


@dataclass
class TeamRun:
    game: Game
    dice: bytes
    state: GameState
    step: int = 0
    main: list[Event] = field(default_factory=list)  # the main-line events, in order
    actions: list[Action] = field(default_factory=list)

    def apply(self, action: Action, *, main: bool = True) -> Event:
        assert not RULESET.validate(self.state, action), action
        # the dice of a main-line step do not depend on events outside the main line
        index = self.step if main else 1_000_000 + len(self.main)
        step = engine_step(self.state, action, Rng.for_event(self.dice, index))
        self.game.refresh_from_db()  # event_append reads the prompted roles before from it
        event = event_append(
            game=self.game, after_seq=self.game.head_seq, action=action, step=step, source="api"
        )
        assert isinstance(step.state, GameState)
        self.state = step.state
        if main:
            self.step += 1
            self.main.append(event)
            self.actions.append(action)
        return event


def policy(state: GameState, rng: Rng) -> Action:
    """A random legal action of a random prompted role, never a written order."""
    prompts = sorted(RULESET.prompts(state))
    assert prompts, "the game is over"
    role = prompts[rng.below(len(prompts))]
    for _ in range(50):
        action = random_legal_action(RULESET, state, role, rng)
        if action is not None and action.kind not in QUIET:
            return action
    raise AssertionError(f"{role} has nothing to do but write orders")


@dataclass
class Written:
    run: TeamRun
    k: int  # the Allied team turn in which the order is (or is not) written
    cinc: str
    s1: str  # the recipient of the order
    s2: str  # the other subordinate
    start: Event  # TEAM_TURN_START(AL, k)
    write: Event | None  # the write_order event (write=True only)
    delivery: Event  # TEAM_TURN_START(AL, k + 1)


def written_turn(
    tag: str,
    *,
    seed: int,
    write: bool,
    script: list[Action] | None = None,
    extra: int = 6,
    before_delivery: Callable[[TeamRun, Action], None] | None = None,
) -> Written:
    """Play the scenario of the module's text. `script`: replay these main-line actions (a twin)
    instead of the policy's. `before_delivery(run, action)` is called just before the action
    that starts the Allied turn k + 1 is appended."""
    game = team_game(tag, seed.to_bytes(32, "big"))
    run = TeamRun(game, seed.to_bytes(8, "big"), state_of(game, game.head_seq))
    rng = Rng(seed)
    starts: list[Event] = []
    write_event: Event | None = None
    ranks: list[str] = []
    after = -1
    while after < extra:
        assert run.step < MAX_STEPS, "no second Allied turn: pick another seed"
        if script is not None:
            assert run.step < len(script), "the script ran out"
            action = script[run.step]
        else:
            action = policy(run.state, rng)
        if len(starts) == 1 and before_delivery is not None:
            trial = engine_step(run.state, action, Rng.for_event(run.dice, run.step))
            if any(sorted(n.roles) == ALLIED for n in notices_of(log_to_json(trial.log))):
                before_delivery(run, action)
        event = run.apply(action)
        if allied_turn_start(event):
            starts.append(event)
            if len(starts) == 1:
                ranks = allied_ranks(run.state)
                if write:  # the CinC's part begins: he writes to his first subordinate only
                    order: dict[str, JSON] = {"recipient": ranks[1], "text": ORDER_TEXT}
                    write_event = run.apply(Action(ranks[0], "write_order", order), main=False)
        if len(starts) == 2:
            after += 1
    assert RULESET.result(run.state) is None, "the game ended too early: pick another seed"
    return Written(
        run=run,
        k=turn_round(starts[0]),
        cinc=ranks[0],
        s1=ranks[1],
        s2=ranks[2],
        start=starts[0],
        write=write_event,
        delivery=starts[1],
    )
