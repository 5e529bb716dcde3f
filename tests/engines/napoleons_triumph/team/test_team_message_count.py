"""Messages a seat must answer (team/message_count.py; issue 13 item 3, bench/team_messages.py):
runs of one seat's actions, their stage and group, the resumed parts, the rounds played."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import message_count as M
from games.napoleons_triumph.team.engine import is_cinc

TEAM2V2: dict[str, JSON] = {
    "team_play": True,
    "roles": {"al1": "AL", "al2": "AL", "fr1": "F", "fr2": "F"},
}


def play(seat: str, group: str = M.OWN, round_: int = 1, turn: int = 1) -> M.Step:
    return M.Step(seat, M.PLAY, group, round_, turn)


def test_a_run_of_one_seat_is_one_message() -> None:
    steps = [play("al1"), play("al1"), play("al1")]
    assert M.messages(steps) == [M.Message("al1", M.PLAY, M.OWN, 1, 3)]


def test_another_seat_acting_in_between_splits_the_run_and_the_part_is_resumed() -> None:
    steps = [play("al1"), play("fr1", M.DEFENCE), play("al1", M.OTHER), play("al1")]
    assert [(m.seat, m.group, m.actions) for m in M.messages(steps)] == [
        ("al1", M.OWN, 1),
        ("fr1", M.DEFENCE, 1),
        ("al1", M.OTHER, 2),
    ]
    steps = [play("al1"), play("fr1", M.DEFENCE), play("al1")]
    assert [m.group for m in M.messages(steps)] == [M.OWN, M.DEFENCE, M.RESUMED]


def test_the_next_turns_part_is_own_again() -> None:
    steps = [play("al1", turn=1), play("fr1", turn=2), play("al1", round_=2, turn=3)]
    assert [m.group for m in M.messages(steps)] == [M.OWN, M.OWN, M.OWN]


def test_a_run_from_setup_into_play_is_a_play_message() -> None:
    setup = M.Step("al1", M.SETUP, M.SETUP, 1)
    steps = [M.Step("al1", M.CONFERENCE, M.CONFERENCE, 1), setup, play("al1")]
    assert M.messages(steps) == [M.Message("al1", M.PLAY, M.OWN, 1, 3)]
    assert M.messages([setup]) == [M.Message("al1", M.SETUP, M.SETUP, 1, 1)]


def test_rounds_played_counts_the_rounds_of_play_only() -> None:
    steps = [M.Step("al1", M.SETUP, M.SETUP, 1), play("al1", round_=1), play("fr1", round_=3)]
    assert M.rounds_played(steps) == 2
    assert M.rounds_played(steps[:1]) == 0


seats = st.sampled_from(["al1", "al2", "fr1"])


@given(st.lists(st.tuples(seats, st.sampled_from([M.OWN, M.DEFENCE, M.OTHER]))))
def test_messages_partition_the_actions_into_runs(raw: list[tuple[str, str]]) -> None:
    steps = [play(seat, group) for seat, group in raw]
    msgs = M.messages(steps)
    assert sum(m.actions for m in msgs) == len(steps)
    assert all(a.seat != b.seat for a, b in pairwise(msgs))
    assert [m.seat for m in msgs] == [
        s.seat for i, s in enumerate(steps) if i == 0 or steps[i - 1].seat != s.seat
    ]


def _until_play(state: GameState, rng: Rng) -> tuple[GameState, list[M.Step]]:
    steps: list[M.Step] = []
    for i in range(2000):
        if state.phase == "turn" and M.step_of(state, "al1").stage == M.PLAY:
            return state, steps
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = R.random_action(state, role, rng)
        assert action is not None
        steps.append(M.step_of(state, role))
        state = R.apply(state, action, Rng.for_event(b"mc", i)).state
    raise AssertionError("play never began")


def test_step_of_a_team_game_conference_setup_play() -> None:
    state = R.setup(GameConfig("DEC2", TEAM2V2), Rng.for_event(b"mc", 0))
    assert M.step_of(state, "al1").stage == M.CONFERENCE
    state, steps = _until_play(state, Rng(5))
    stages = [s.stage for s in steps]
    assert stages[0] == M.CONFERENCE
    assert M.SETUP in stages
    assert stages.index(M.SETUP) > max(i for i, s in enumerate(stages) if s == M.CONFERENCE)
    acting = next(r for r in R.prompts(state))
    step = M.step_of(state, acting)
    assert (step.stage, step.group, step.round) == (M.PLAY, M.OWN, state.round)
    assert is_cinc(state, acting)  # NT-TEAM-32: the CinC's part first
    plan: JSON = {"scope": {"default": True}, "on_threat": {"mode": "defend"}}
    assert not R.validate(state, Action(acting, "set_defense_plan", plan))


def test_step_of_tells_defence_from_the_moving_sides_decisions() -> None:
    state = R.setup(GameConfig("DEC2", TEAM2V2), Rng.for_event(b"mc", 0))
    state, _ = _until_play(state, Rng(5))
    rng = Rng(11)
    seen: dict[str, int] = {}
    for i in range(3000):
        prompts = R.prompts(state)
        if not prompts or len(seen) == 3:
            break
        role = sorted(prompts)[rng.below(len(prompts))]
        step = M.step_of(state, role)
        pending = state.pending
        expected = (
            M.OWN if pending is None else M.OTHER if pending.side == state.active else M.DEFENCE
        )
        assert step.group == expected
        assert (state.roles[role] == state.active) == (step.group != M.DEFENCE)
        seen[step.group] = seen.get(step.group, 0) + 1
        action = R.random_action(state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng.for_event(b"mc2", i)).state
    assert sorted(seen) == sorted([M.OWN, M.OTHER, M.DEFENCE])
