"""NT-TEAM-18 (a), AMB-3, NT-TEAM-T36: the CinC's order phase closes at the first of his first
command and his end_part; the orders are sealed then (one slot per subordinate) and a draft
after it is refused."""

from __future__ import annotations

from games.core.protocol import JSON, Action, GameConfig, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team.engine import data_of, may_write

ROLES: dict[str, JSON] = {"al1": "AL", "al2": "AL", "al3": "AL", "fr1": "F", "fr2": "F"}
TEAM_KINDS = {"write_order", "end_part", "set_defense_plan", "resign", "chat_message"}


def order_phases(seed: int) -> list[tuple[GameState, str]]:
    """States in which a CinC may write, with his role, over one random game."""
    options: dict[str, JSON] = {"team_play": True, "roles": ROLES}
    state = R.setup(GameConfig("DEC2", options), Rng.for_event(b"op%d" % seed, 0))
    rng = Rng(seed)
    out = []
    for _ in range(600):
        if state.phase == "over":
            break
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        if "write_order" in prompts[role].kinds:
            out.append((state, role))
        action = random_legal_action(R, state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng(rng.next64())).state
    return out


def test_the_first_command_closes_the_order_phase_and_seals() -> None:
    commanded = 0
    for seed in range(1, 6):
        for state, cinc in order_phases(seed):
            rng = Rng(seed)
            command = None
            for _ in range(30):
                a = random_legal_action(R, state, cinc, rng)
                if a is not None and a.kind not in TEAM_KINDS:
                    command = a
                    break
            if command is None:
                continue
            side = state.roles[cinc]
            k = data_of(state).started[side]
            team = data_of(state).team(side)
            assert team is not None
            draft = Action(
                cinc, "write_order", {"recipient": team.seats[1].role, "text": "Telnitz angreifen"}
            )
            before = R.apply(state, draft, Rng(1)).state  # open: a draft is taken
            step = R.apply(before, command, Rng(1))
            after = step.state
            data = data_of(after)
            assert not may_write(data, after, cinc)
            slots = [s for s in data.slots if s["side"] == side and s["turn"] == k]
            assert len(slots) == len(team.seats) - 1  # one per subordinate (3.4.5)
            assert any("sealed" in e.text for e in step.log)
            if after.phase == "turn" and cinc in R.prompts(after):
                assert "write_order" not in R.prompts(after)[cinc].kinds
            refused = R.validate(after, draft)
            assert refused
            assert [r.rule for r in refused] == ["NT-TEAM-18"]
            commanded += 1
            if commanded >= 5:
                return
    raise AssertionError(f"only {commanded} first commands found")
