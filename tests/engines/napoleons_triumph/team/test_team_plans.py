"""Seat-private standing instructions in team play (team digest SRV-1, table 3.5.2): every seat
files its own `set_defense_plan` at any time; only that seat (and the omniscient reader) reads it
or knows it was filed; a defence decision the router gives to a seat is answered by that seat's
plan and never by a teammate's."""

from __future__ import annotations

from games.core.protocol import JSON, OMNISCIENT, Action, GameConfig, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team.engine import data_of, decider, is_cinc

ROLES: dict[str, JSON] = {"al1": "AL", "al2": "AL", "al3": "AL", "fr1": "F", "fr2": "F"}
PLAN: JSON = {
    "scope": {"default": True},
    "on_threat": {"mode": "defend", "leading": "strongest"},
    "counter": {"policy": "win_if_possible"},
    "hold": "all_named",
    "retreat": {"mode": "default"},
}

STORED: JSON = {  # how policies.set_defense_plan keeps PLAN
    "mode": "defend",
    "leading": "strongest",
    "counter": "win_if_possible",
    "loss_priority": [],
    "hold": "all_named",
    "retreat": "default",
}


def new(seed: int) -> GameState:
    options: dict[str, JSON] = {"team_play": True, "roles": ROLES}
    return R.setup(GameConfig("DEC2", options), Rng.for_event(b"plans%d" % seed, 0))


def until_play(state: GameState, rng: Rng) -> GameState:
    for _ in range(3000):
        if state.phase == "turn":
            return state
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(R, state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng(rng.next64())).state
    raise AssertionError("play never began")


def file(state: GameState, role: str) -> tuple[GameState, list[tuple[str, frozenset[str] | None]]]:
    action = Action(role, "set_defense_plan", PLAN)
    assert not R.validate(state, action), R.validate(state, action)
    step = R.apply(state, action, Rng(1))
    return step.state, [(e.text, e.audience) for e in step.log]


def test_every_seat_files_its_own_plan_and_only_it_reads_it() -> None:
    state = until_play(new(1), Rng(1))
    sub = next(r for r in ("al1", "al2", "al3") if not is_cinc(state, r))
    state, lines = file(state, sub)
    assert lines, "the filing seat is told"
    assert all(aud == frozenset({sub, OMNISCIENT}) for _, aud in lines)  # table 3.5.2
    own = R.view(state, sub)
    assert isinstance(own, dict)
    stored = own["standing_instructions"]
    assert isinstance(stored, dict)
    assert list(stored) == ["default"]
    assert stored["default"] == STORED
    for other in set(ROLES) - {sub}:
        view = R.view(state, other)
        assert isinstance(view, dict)
        assert "standing_instructions" not in view, other
    omni = R.view(state, OMNISCIENT)
    assert isinstance(omni, dict)
    everyone = omni["standing_instructions"]
    assert isinstance(everyone, dict)
    assert set(everyone) == {sub}


def test_a_routed_defence_decision_takes_the_deciders_plan_and_never_a_teammates() -> None:
    """Random games; whenever an action opens a defence decision of a team of several seats,
    replay it after (a) a teammate of the decider and (b) the decider filed the same default
    plan: (a) leaves the decision open exactly as without any plan; (b) is the decider's own
    answer, given by the engine whenever it is legal."""
    answered = unanswered = 0
    for seed in range(1, 40):
        if answered >= 20 and unanswered >= 2:
            break
        rng = Rng(seed)
        state = until_play(new(seed), rng)
        for _ in range(400):
            if state.phase == "over" or (answered >= 20 and unanswered >= 2):
                break
            prompts = R.prompts(state)
            role = sorted(prompts)[rng.below(len(prompts))]
            action = random_legal_action(R, state, role, rng)
            assert action is not None
            dice = rng.next64()
            after = R.apply(state, action, Rng(dice)).state
            pending = after.pending
            opened = pending is not None and pending.side != after.active
            if opened and state.pending is None and after.phase == "turn":
                assert pending is not None
                who = decider(data_of(after), after, board_for(after))
                team = [r for r, s in ROLES.items() if s == pending.side and r != who]
                if who is not None and team:
                    mate_state, _ = file(state, team[0])
                    mate = R.apply(mate_state, action, Rng(dice)).state
                    assert mate.pending == pending, "a teammate's plan answered the decision"
                    own_state, _ = file(state, who)
                    own = R.apply(own_state, action, Rng(dice)).state
                    if own.pending != pending:
                        answered += 1
                    else:
                        unanswered += 1
            state = after
    assert answered >= 20, (answered, unanswered)
    assert unanswered >= 2, (answered, unanswered)  # a plan illegal there leaves it open
