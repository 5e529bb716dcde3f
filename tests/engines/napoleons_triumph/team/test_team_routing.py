"""Team play: who decides for the defender and the router of every engine decision to one seat
(digest napoleons-triumph-team.md 2.8, 2.11, 3.3; tests NT-TEAM-T27..T30 with the digest's data on
board TB, built by the engine's board loader, attacks played by the engine itself), and a property
over random legal games on a real board."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.decisions import DECISIONS, default_answer
from games.napoleons_triumph.state import AL, DEAD, MAP, F, GameState, Pending
from games.napoleons_triumph.team.authority import TeamRefused, TeamTurn
from games.napoleons_triumph.team.model import Team
from games.napoleons_triumph.team.routing import (
    ATTACKER,
    DEFENDER,
    ROUTES,
    authority_after_naming,
    check_decision,
    decider,
    defence_decider,
    defender_authority,
    keeps_leading_bundle,
    pin_step2,
    route,
)
from tests.support.napoleons_triumph import Table, position, random_playout
from tests.support.napoleons_triumph_team import ALLIES, ASSIGNMENT, FRENCH, tb, team

TEAMS = {AL: ALLIES, F: FRENCH}
FRENCH_ATTACKERS = [
    "F f1 INF3 @L3.R [vandamme]",
    "F f2 INF3 @L3.R [vandamme]",
    "F f3 INF3 @L3.R [vandamme]",
]
WIN: dict[str, JSON] = {  # the French declaration that wins against INF1 defenders
    "commands": [{"kind": "corps_move", "commander": "vandamme"}],
    "leading": ["f1"],
}


def threatened(pieces: list[str]) -> tuple[Board, Table]:
    """The French (F1 acting) threaten locale 4 from locale 3 across A34."""
    board = tb()
    t = Table(position(board, [*pieces, *FRENCH_ATTACKERS], active=F))
    t.play(F, "threaten", {"attack_locale": 3, "approach": "A34"})
    return board, t


def naming(ids: list[str]) -> dict[str, JSON]:
    """The step-(2) answer naming `ids`."""
    named: list[JSON] = list(ids)
    return {"named": named}


def routed(board: Board, state: GameState, step2: str | None = None) -> str:
    pending = state.pending
    assert pending is not None
    return route(state, board, TEAMS[pending.side], ASSIGNMENT, "F1", None, step2)


def play_out(board: Board, t: Table, declaration: dict[str, JSON]) -> list[tuple[str, str, str]]:
    """Play the attack to its end (no feint, the given declaration, else the engine's default
    answers); (kind, side, routed role) of every decision on the way."""
    seen: list[tuple[str, str, str]] = []
    while t.state.pending is not None:
        p = t.state.pending
        seen.append((p.kind, p.side, routed(board, t.state)))
        if p.kind == "feint":
            kind, payload = "no_feint", {}
        elif p.kind == "declare":
            kind, payload = "declare_attack", declaration
        else:
            kind, payload = default_answer(t.rules.ctx(t.state), p)
        t.play(p.side, kind, payload)
    return seen


# --- 2.8 NT-TEAM-40..43 --------------------------------------------------------------------------

T27 = [
    "AL a1 INF1 @L4.A34 [-]",
    "AL a2 INF1 @L4.A34 [-]",
    "AL k1 INF2 @L7.R [kienmayer]",
    "AL l1 INF2 @L8.R [langeron]",
    "AL c1 INF2 @L5.R [kollowrath]",
]


def test_nt_team_t27_nearest_placed_commander_decides() -> None:
    """NT-TEAM-40 (T27): only detached units in 4; kienmayer (AL1) in 7 (3), langeron (AL2) in 8
    (1), kollowrath (AL3) in 5 (1); the French threaten 4 from 3: step (2) goes to AL2 (tie ->
    higher rank); AL3's answer is refused (not_your_decision)."""
    board, t = threatened(T27)
    assert t.state.pending == Pending(AL, "defend", {"attack": 1})
    assert defence_decider(t.state, board, ALLIES, ASSIGNMENT, 4) == "AL2"
    assert pin_step2(t.state, board, ALLIES, ASSIGNMENT) == "AL2"
    assert pin_step2(t.state, board, FRENCH, ASSIGNMENT) is None  # the French attack
    assert routed(board, t.state) == "AL2"
    no = None
    with pytest.raises(TeamRefused) as e:
        check_decision(t.state, board, ALLIES, ASSIGNMENT, "F1", "AL3")
    no = e.value
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-40", "not_your_decision", 409)
    check_decision(t.state, board, ALLIES, ASSIGNMENT, "F1", "AL2")


def test_nt_team_t28_no_commander_named_authority_stays() -> None:
    """NT-TEAM-42 (T28): AL2 names the two detached units blocking 3-4 (no commander can be
    named): every later Allied decision of the attack goes to AL2, the French ones to F1."""
    board, t = threatened(T27)
    t.play(AL, "defend", {"named": ["a1", "a2"]})
    assert t.state.attack is not None
    assert t.state.attack.named == ["a1", "a2"]
    seen = play_out(board, t, WIN)
    assert {r for _, side, r in seen if side == AL} == {"AL2"}
    assert {r for _, side, r in seen if side == F} == {"F1"}
    assert ("counter", AL, "AL2") in seen


def test_nt_team_t28_every_defender_kind_after_naming() -> None:
    """NT-TEAM-42, AMB-22 (T28): feint response, counter-attack, losses, holding and the retreat
    all go to AL2 when no commander was named."""
    board, t = threatened(T27)
    t.play(AL, "defend", {"named": ["a1", "a2"]})
    for kind, (whose, _) in ROUTES.items():
        if whose == DEFENDER:
            assert route(t.state, board, ALLIES, ASSIGNMENT, None, Pending(AL, kind)) == "AL2"


T29 = [
    "AL k1 INF1 @L4.R [kienmayer]",
    "AL k2 INF1 @L4.R [kienmayer]",
    "AL c1 INF1 @L4.R [kollowrath]",
    "AL c2 INF1 @L4.R [kollowrath]",
    "AL c3 INF1 @L4.R [kollowrath]",
]


def test_nt_team_t29_named_commander_passes_authority_down() -> None:
    """NT-TEAM-43, AMB-22 (T29): kienmayer's (AL1) and kollowrath's (AL3) corps in the reserve
    of 4: step (2) goes to AL1 (both at 0 -> rank); AL1 names kollowrath and two of his units,
    not kienmayer: every decision from step (3) on, the retreat after the lost combat included,
    goes to AL3 (public: derived from who was named)."""
    board, t = threatened(T29)
    assert routed(board, t.state) == "AL1"
    named = ["c1", "c2", "kollowrath"]
    assert authority_after_naming(t.state, ALLIES, ASSIGNMENT, "AL1", named) == "AL3"
    assert not keeps_leading_bundle(t.state, ALLIES, ASSIGNMENT, "AL1", named)  # NT-TEAM-41
    t.play(AL, "defend", naming(named))
    t.play(F, "no_feint")
    t.play(F, "declare_attack", WIN)
    with pytest.raises(TeamRefused) as e:  # the counter-attack (7) is no longer AL1's
        check_decision(t.state, board, ALLIES, ASSIGNMENT, None, "AL1")
    assert (e.value.rejection.rule, e.value.code) == ("NT-TEAM-43", "not_your_decision")
    seen = play_out(board, t, WIN)
    assert [(k, r) for k, side, r in seen if side == AL] == [("counter", "AL3"), ("retreat", "AL3")]
    assert "Attack 1: the attackers advance into locale 4." in t.log  # the French won


def test_nt_team_t29_authority_stays_when_own_commander_named() -> None:
    """NT-TEAM-43 (T29): AL1 names kienmayer and kollowrath: the authority stays with AL1."""
    board, t = threatened(T29)
    named = ["k1", "kienmayer", "c1", "kollowrath"]
    assert keeps_leading_bundle(t.state, ALLIES, ASSIGNMENT, "AL1", named)  # NT-TEAM-41
    t.play(AL, "defend", naming(named))
    seen = play_out(board, t, WIN)
    assert {r for _, side, r in seen if side == AL} == {"AL1"}


def test_nt_team_t30_no_commander_on_the_map_cinc_decides() -> None:
    """AMB-21 (T30): no Allied commander on the map (all eliminated or off-map): AL1 decides."""
    board, t = threatened(["AL a1 INF1 @L4.R [-]"])
    assert all(c.where != MAP for c in t.state.commanders.values() if c.side == AL)
    assert routed(board, t.state) == "AL1"


def test_nt_team_40_pinned_step2_decider_survives_later_changes() -> None:
    """NT-TEAM-40, AMB-22: the step-(2) decider is fixed at step (2); if langeron is eliminated
    later in the attack, the pinned seat still decides; recomputed, AL3 would."""
    board, t = threatened(T27)
    step2 = pin_step2(t.state, board, ALLIES, ASSIGNMENT)
    t.play(AL, "defend", {"named": ["a1", "a2"]})
    t.state.pending = Pending(AL, "counter", {"attack": 1})
    t.state.units["l1"].where = DEAD
    t.state.commanders["langeron"].where = DEAD
    assert routed(board, t.state, step2) == "AL2"
    assert routed(board, t.state) == "AL3"
    assert defender_authority(t.state, board, ALLIES, ASSIGNMENT, "nobody") == "AL3"


def test_nt_team_47_attacker_decisions_go_to_the_acting_seat() -> None:
    """NT-TEAM-47, NT-TEAM-52: the attacker's decisions go to the acting seat, whatever its
    rank; the defender's to its authority, whatever the acting side's part."""
    board, t = threatened(T27)
    t.play(AL, "defend", {"named": ["a1", "a2"]})
    assert t.state.pending is not None
    assert t.state.pending.side == F
    assert route(t.state, board, FRENCH, ASSIGNMENT, "F2") == "F2"
    with pytest.raises(TeamRefused) as e:
        check_decision(t.state, board, FRENCH, ASSIGNMENT, "F2", "F1")
    assert (e.value.rejection.rule, e.value.code) == ("NT-TEAM-47", "not_your_decision")
    for kind, (whose, _) in ROUTES.items():
        if whose == ATTACKER:
            assert route(t.state, board, FRENCH, ASSIGNMENT, "F2", Pending(F, kind)) == "F2"
    with pytest.raises(ValueError, match="acting seat"):
        route(t.state, board, FRENCH, ASSIGNMENT, None)  # the acting seat is needed
    with pytest.raises(ValueError, match="acting seat"):
        route(t.state, board, FRENCH, ASSIGNMENT, "AL1")  # not a French seat
    with pytest.raises(ValueError, match="is for F"):
        route(t.state, board, ALLIES, ASSIGNMENT, "F1")  # the decision is not the Allies'


def test_digest_3_3_every_engine_decision_is_routed() -> None:
    """Digest 3.3: the router covers every decision kind of decisions.py, and nothing else."""
    assert set(ROUTES) == set(DECISIONS)
    assert {whose for whose, _ in ROUTES.values()} == {ATTACKER, DEFENDER}


def test_digest_3_3_uncovered_decision_goes_to_the_cinc() -> None:
    """AMB (not in the digest): a kind the engine does not know, or a decision without an
    attack, goes to the CinC."""
    board, t = threatened(T27)
    assert route(t.state, board, ALLIES, ASSIGNMENT, None, Pending(AL, "mystery")) == "AL1"
    t.state.attack = None
    assert route(t.state, board, ALLIES, ASSIGNMENT, None, Pending(AL, "defend")) == "AL1"
    assert defender_authority(t.state, board, ALLIES, ASSIGNMENT) == "AL1"
    t.state.pending = None
    with pytest.raises(ValueError, match="no decision"):
        route(t.state, board, ALLIES, ASSIGNMENT, None)


def test_decider_for_every_prompt() -> None:
    """NT-TEAM-32, NT-TEAM-27, 3.3: who acts now: the acting seat in a command phase (none once
    the parts are over), the routed seat for a decision, the CinC at set-up, nobody at the end."""
    board = tb()
    state = position(board, ["AL l1 INF2 @L4.R [langeron]", *FRENCH_ATTACKERS], active=F)
    turn = TeamTurn(F, state.turn_number, 1)
    assert decider(state, board, TEAMS, ASSIGNMENT, turn) == "F2"
    assert decider(state, board, TEAMS, ASSIGNMENT, TeamTurn(F, state.turn_number, 2)) is None
    assert decider(state, board, TEAMS, ASSIGNMENT, None) is None
    t = Table(state)
    t.play(F, "threaten", {"attack_locale": 3, "approach": "A34"})
    assert decider(t.state, board, TEAMS, ASSIGNMENT, turn) == "AL2"
    state.phase = "setup_AL"
    state.active = AL
    assert decider(state, board, TEAMS, ASSIGNMENT, None) == "AL1"
    state.phase = "over"
    assert decider(state, board, TEAMS, ASSIGNMENT, None) is None


# --- property over random legal games on the reconstructed Austerlitz board ----------------------


def _playout(seed: int, steps: int, scenario: str) -> list[GameState]:
    return random_playout(seed, steps, scenario).states


def _assign(board: Board, teams: Mapping[str, Team]) -> dict[str, str]:
    """Round-robin in rank order through each side's commanders in board order (AMB-25)."""
    out: dict[str, str] = {}
    for side, tm in teams.items():
        cids = [c.id for c in board.commanders.values() if c.side == side]
        for i, cid in enumerate(cids):
            out[cid] = tm.seats[i % len(tm.seats)].role
    return out


def _oracle_distance(board: Board, start: int, goal: int) -> int | None:
    """An independent BFS over the approaches (NT-TEAM-38): impassable ones are no edges."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for ap in board.approaches.values():
            if ap.impassable or here not in (ap.a, ap.b):
                continue
            nxt = ap.b if here == ap.a else ap.a
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist.get(goal)


def _oracle_decider(state: GameState, board: Board, tm: Team, assignment: Mapping[str, str],
                    locale: int) -> str:  # fmt: skip
    best: tuple[int, int, int] | None = None
    role = tm.cinc.role
    for seat in tm.seats:
        ds: list[int] = []
        for cid, owner in assignment.items():
            c = state.commanders[cid]
            if owner != seat.role or c.where != MAP or c.loc is None:
                continue
            d = _oracle_distance(board, c.loc, locale)
            if d is not None:
                ds.append(d)
        key = (0, min(ds), seat.rank) if ds else (1, 0, seat.rank)
        if best is None or key < best:
            best, role = key, seat.role
    return role


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    scenario=st.sampled_from(["DEC2", "DEC1"]),
    sizes=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    part=st.integers(0, 3),
)
def test_router_gives_exactly_one_seat_of_the_addressed_side(
    seed: int, scenario: str, sizes: tuple[int, int], part: int
) -> None:
    """Digest 3.3 over random legal games: every pending decision goes to exactly one seat of
    the side it is addressed to; a step-(2) decision to the nearest-placed commander's seat by an
    independent BFS (NT-TEAM-38, NT-TEAM-40); after naming, to NT-TEAM-43's seat; the attacker's
    to the acting seat; `decider` names a seat of the side the engine prompts."""
    teams = {AL: team(AL, sizes[0]), F: team(F, sizes[1])}
    board = RULESET.board(_playout(seed, 0, scenario)[0])
    assignment = _assign(board, teams)
    for state in _playout(seed, 150, scenario):
        active = teams[state.active]
        turn = TeamTurn(state.active, state.turn_number, part % len(active.seats))
        acting = active.seats[part % len(active.seats)].role
        who = decider(state, board, teams, assignment, turn)
        prompted = {state.roles[r] for r in RULESET.prompts(state) if r in state.roles}
        if who is not None:
            assert any(who in [s.role for s in teams[side].seats] for side in prompted)
        pending = state.pending
        if pending is None:
            continue
        tm = teams[pending.side]
        role = route(state, board, tm, assignment, acting if pending.side == state.active else None)
        assert [s.role for s in tm.seats].count(role) == 1
        assert role == who
        atk = state.attack
        assert atk is not None
        if pending.side == atk.attacker:
            assert role == acting
        elif pending.kind == "defend":
            assert role == _oracle_decider(state, board, tm, assignment, atk.def_locale)
        else:
            named_cmds = [p for p in atk.named if p in state.commanders]
            if named_cmds:
                assert role == min((assignment[c] for c in named_cmds),
                                   key=lambda r: tm.seat(r).rank)  # fmt: skip


def test_random_games_reach_both_sides_decisions() -> None:
    """The property above sees decisions of both kinds of routing (a fixed playout)."""
    kinds = {
        (s.pending.kind, s.pending.side == s.active)
        for seed in (0, 7919)
        for s in _playout(seed, 150, "DEC2")
        if s.pending is not None
    }
    assert {("defend", False), ("feint", True), ("counter", False)} <= kinds
