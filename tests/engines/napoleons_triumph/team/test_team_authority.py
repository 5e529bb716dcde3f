"""Team play: the team turn in rank order and its shared limits, who may command what, combined
attacks (digest napoleons-triumph-team.md 2.6, 2.7, 2.9, 2.11; tests NT-TEAM-T16..T26 with the
digest's data: fixtures of 5.1, board TB built by the engine's own board loader)."""

from __future__ import annotations

import pytest

from games.core.protocol import JSON
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import AL, DEAD, OFFMAP, F, GameState
from games.napoleons_triumph.team.authority import (
    SharedBudget,
    TeamRefused,
    TeamTurn,
    acting_role,
    check_budget,
    check_command,
    check_part,
    check_team_command,
    end_part,
    has_command_left,
    may_attach,
    may_command,
    may_give_independent,
    nearest_role,
    owner_of_unit,
    part_order,
    seat_distance,
    shared_budget,
    start_team_turn,
    team_turn_over,
)
from tests.support.napoleons_triumph import Table, position
from tests.support.napoleons_triumph_team import ALLIES, ASSIGNMENT, FRENCH, tb, team

# T18: AL1 needs three corps
ASSIGNMENT_T18 = {**ASSIGNMENT, "bagration": "AL1", "liechtenstein": "AL1"}


def at(board: Board, pieces: list[str], active: str = AL) -> GameState:
    return position(board, pieces, active=active)


def refused(fn: object, *args: object) -> TeamRefused:
    assert callable(fn)
    with pytest.raises(TeamRefused) as e:
        fn(*args)
    return e.value


def move(to: int) -> dict[str, JSON]:
    return {"to": {"locale": to, "approach": None}}


# --- 2.6 NT-TEAM-32..34 --------------------------------------------------------------------------


def test_nt_team_t16_parts_in_rank_order() -> None:
    """NT-TEAM-32 (T16): AL1 acts first; AL2's command is refused until AL1 ends his part; then
    AL1 cannot act again; after the last part the team turn is over."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL l2 INF2 @L3.R [langeron]"])
    assert part_order(ALLIES) == ("AL1", "AL2", "AL3")
    turn = start_team_turn(state, ALLIES)
    assert acting_role(ALLIES, turn) == "AL1"
    payload: dict[str, JSON] = {"commander": "langeron", **move(2)}
    no = refused(check_team_command, state, board, ALLIES, ASSIGNMENT, turn, "AL2", "corps_move",
                 payload)  # fmt: skip
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-32", "not_your_part", 409)
    turn = end_part(ALLIES, turn, "AL1")
    check_team_command(state, board, ALLIES, ASSIGNMENT, turn, "AL2", "corps_move", payload)
    no = refused(check_part, ALLIES, turn, "AL1")
    assert no.code == "not_your_part"
    assert refused(end_part, ALLIES, turn, "AL3").code == "not_your_part"
    turn = end_part(ALLIES, end_part(ALLIES, turn, "AL2"), "AL3")
    assert acting_role(ALLIES, turn) is None
    assert team_turn_over(ALLIES, turn)
    assert refused(check_part, ALLIES, turn, "AL1").code == "not_your_part"
    with pytest.raises(ValueError, match="not the turn"):
        start_team_turn(state, FRENCH)  # it is the Allied turn


def test_nt_team_2_a_team_of_one_is_the_two_player_side() -> None:
    """NT-TEAM-2: one seat, one part; it may command everything of its side."""
    board = tb()
    solo = team(F, 1)
    state = at(board, ["F v1 INF2 @L1.R [vandamme]", "F u1 INF2 @L8.R [-]"], active=F)
    assignment = dict.fromkeys(("vandamme", "legrand", "st-hilaire", "davout"), "F1")
    turn = start_team_turn(state, solo)
    assert acting_role(solo, turn) == "F1"
    assert may_give_independent(state, board, solo, assignment, "F1", "u1")
    assert team_turn_over(solo, end_part(solo, turn, "F1"))


def _french_t17(board: Board) -> Table:
    return Table(
        at(
            board,
            [
                "F v1 INF2 @L1.R [vandamme]",
                "F u1 INF2 @L1.R [-]",
                "F u2 INF2 @L1.R [-]",
                "F u3 INF2 @L1.R [-]",
                "F s1 INF2 @L6.R [st-hilaire]",
                "F s2 INF2 @L6.R [st-hilaire]",
                "F w1 INF2 @L6.R [-]",
                "F w2 INF2 @L6.R [-]",
            ],
            active=F,
        )
    )


def test_nt_team_t17_independent_commands_are_shared() -> None:
    """NT-TEAM-33, NT-TEAM-34 (T17): F1 gives 3 Unit Moves, F2 1; F2's second is refused
    (no_independent_commands_left) while F2's Corps Move of st-hilaire is accepted (the French
    have no corps limit)."""
    board = tb()
    t = _french_t17(board)
    turn = start_team_turn(t.state, FRENCH)
    assert shared_budget(t.state, F) == SharedBudget(F, 0, 4, 0, None)
    for uid in ("u1", "u2", "u3"):
        p: dict[str, JSON] = {"unit": uid, **move(2)}
        check_team_command(t.state, board, FRENCH, ASSIGNMENT, turn, "F1", "unit_move", p)
        t.play(F, "unit_move", p)
    turn = end_part(FRENCH, turn, "F1")
    p = {"unit": "w1", **move(5)}
    check_team_command(t.state, board, FRENCH, ASSIGNMENT, turn, "F2", "unit_move", p)
    t.play(F, "unit_move", p)
    assert shared_budget(t.state, F).independent_left == 0
    p = {"unit": "w2", **move(5)}
    no = refused(check_team_command, t.state, board, FRENCH, ASSIGNMENT, turn, "F2", "unit_move", p)
    assert (no.rejection.rule, no.code, no.status) == (
        "NT-TEAM-33",
        "no_independent_commands_left",
        409,
    )
    assert t.refuse(F, "unit_move", p).rule == "NT-38"  # the engine agrees
    corps: dict[str, JSON] = {"commander": "st-hilaire", **move(7)}
    check_team_command(t.state, board, FRENCH, ASSIGNMENT, turn, "F2", "corps_move", corps)
    t.play(F, "corps_move", corps)
    assert shared_budget(t.state, F).corps_left is None


def test_nt_team_t18_allied_corps_commands_are_shared() -> None:
    """NT-TEAM-33, AMB-15 (T18): AL1 gives 2 Corps Moves and 1 Attach, AL2 2 Detachment Moves;
    AL3's Corps Move of kollowrath is refused (no_corps_commands_left, 5 used)."""
    board = tb()
    t = Table(
        at(
            board,
            [
                "AL k1 INF2 @L1.R [kienmayer]",
                "AL b1 INF2 @L1.R [bagration]",
                "AL h1 INF2 @L8.R [liechtenstein]",
                "AL x1 INF2 @L8.R [-]",
                "AL l1 INF2 @L3.R [langeron]",
                "AL l2 INF2 @L3.R [langeron]",
                "AL d1 INF2 @L5.R [dokhturov]",
                "AL d2 INF2 @L5.R [dokhturov]",
                "AL c1 INF2 @L7.R [kollowrath]",
            ],
        )
    )
    turn = start_team_turn(t.state, ALLIES)
    steps: list[tuple[str, str, dict[str, JSON]]] = [
        ("AL1", "corps_move", {"commander": "kienmayer", **move(2)}),
        ("AL1", "corps_move", {"commander": "bagration", **move(2)}),
        ("AL1", "attach", {"commander": "liechtenstein", "unit": "x1"}),
        ("AL2", "detach_move", {"commander": "langeron", "units": ["l2"], **move(2)}),
        ("AL2", "detach_move", {"commander": "dokhturov", "units": ["d2"], **move(6)}),
    ]
    for role, kind, p in steps:
        while acting_role(ALLIES, turn) != role:
            turn = end_part(ALLIES, turn, str(acting_role(ALLIES, turn)))
        check_team_command(t.state, board, ALLIES, ASSIGNMENT_T18, turn, role, kind, p)
        t.play(AL, kind, p)
    turn = end_part(ALLIES, turn, "AL2")
    assert shared_budget(t.state, AL) == SharedBudget(AL, 0, 3, 5, 5)
    p = {"commander": "kollowrath", **move(6)}
    no = refused(
        check_team_command, t.state, board, ALLIES, ASSIGNMENT_T18, turn, "AL3", "corps_move", p
    )
    assert (no.rejection.rule, no.code) == ("NT-TEAM-33", "no_corps_commands_left")
    assert t.refuse(AL, "corps_move", p).rule == "NT-37"


def test_nt_team_33_budget_of_the_waiting_side_and_of_attack_declarations() -> None:
    """NT-TEAM-33: the side not moving has its whole budget for its next turn; a declaration
    with two commands needs two."""
    state = at(tb(), ["AL l1 INF2 @L3.R [langeron]"], active=F)
    state.turn.independent_used = 3
    assert shared_budget(state, AL) == SharedBudget(AL, 0, 3, 0, 5)
    assert shared_budget(state, F).independent_left == 1
    one: JSON = {"kind": "unit_move", "unit": "a"}
    two: JSON = {"kind": "unit_move", "unit": "b"}
    no = refused(check_budget, state, F, "declare_attack", {"commands": [one, two]})
    assert no.code == "no_independent_commands_left"
    check_budget(state, F, "declare_attack", {"commands": [one]})


def test_nt_team_34_a_seat_may_have_no_command_left() -> None:
    """NT-TEAM-34 (SRV-12): with the shared budget spent and its corps' commands given, a seat
    provably has nothing left; with budget it has."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL a1 INF2 @L3.R [-]",
                       "AL c1 INF2 @L6.R [kollowrath]"])  # fmt: skip
    assert has_command_left(state, board, ALLIES, ASSIGNMENT, "AL2")
    assert not has_command_left(state, board, ALLIES, ASSIGNMENT, "AL1")  # no corps on the map
    state.turn.corps_used = 5
    assert has_command_left(state, board, ALLIES, ASSIGNMENT, "AL2")  # a1 is nearest to AL2
    state.turn.independent_used = 3
    assert not has_command_left(state, board, ALLIES, ASSIGNMENT, "AL2")
    assert not has_command_left(state, board, ALLIES, ASSIGNMENT, "AL3")


# --- 2.7 NT-TEAM-35..39 --------------------------------------------------------------------------


def test_nt_team_t19_corps_command_only_to_own_corps() -> None:
    """NT-TEAM-35 (T19): AL2's Corps Move of kollowrath (AL3's corps) -> not_your_corps; so are
    a Detachment Move and an Attach with it."""
    board = tb()
    state = at(board, ["AL c1 INF2 @L6.R [kollowrath]", "AL c2 INF2 @L6.R [kollowrath]"])
    p: dict[str, JSON] = {"commander": "kollowrath", **move(5)}
    no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL2", "corps_move", p)
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-35", "not_your_corps", 403)
    d: dict[str, JSON] = {"commander": "kollowrath", "units": ["c2"], **move(5)}
    assert refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL2", "detach_move",
                   d).code == "not_your_corps"  # fmt: skip
    check_command(state, board, ALLIES, ASSIGNMENT, "AL3", "corps_move", p)
    assert may_command(state, board, ALLIES, ASSIGNMENT, "AL3", "kollowrath")
    assert not may_command(state, board, ALLIES, ASSIGNMENT, "AL2", "kollowrath")


def test_nt_team_t20_nearest_commander_may_give_the_unit_move() -> None:
    """NT-TEAM-36, NT-TEAM-38 (T20): langeron (AL2) in 3, kollowrath (AL3) in 6, a detached
    unit in 4: AL3 -> not_nearest (dist 1 vs 2); AL2 may."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL c1 INF2 @L6.R [kollowrath]",
                       "AL a1 INF2 @L4.R [-]"])  # fmt: skip
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL2", 4) == 1
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL3", 4) == 2
    p: dict[str, JSON] = {"unit": "a1", **move(5)}
    no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL3", "unit_move", p)
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-36", "not_nearest", 403)
    check_command(state, board, ALLIES, ASSIGNMENT, "AL2", "unit_move", p)
    Table(state).play(AL, "unit_move", p)  # and the engine accepts it


def test_nt_team_t21_tie_goes_to_the_higher_rank() -> None:
    """NT-TEAM-37 (T21): langeron (AL2) in 3, kollowrath (AL3) in 5, unit in 4 (1 from both):
    AL3 -> not_nearest; AL2 may."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL c1 INF2 @L5.R [kollowrath]",
                       "AL a1 INF2 @L4.R [-]"])  # fmt: skip
    assert nearest_role(state, board, ALLIES, ASSIGNMENT, 4) == "AL2"
    assert not may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL3", "a1")
    assert may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL2", "a1")


def test_nt_team_t22_impassable_approaches_block_enemies_do_not() -> None:
    """NT-TEAM-38 (T22): kienmayer (AL1) in 7, langeron (AL2) in 5, a French corps in 6, a
    detached unit in 2: dist(7,2) = 5 (not 1 across the impassable 2-7), dist(5,2) = 3, so only
    AL2 may command it; dist(7,5) is still 2 with the French in 6."""
    board = tb()
    state = at(board, ["AL k1 INF2 @L7.R [kienmayer]", "AL l1 INF2 @L5.R [langeron]",
                       "F v1 INF2 @L6.R [vandamme]", "AL a1 INF2 @L2.R [-]"])  # fmt: skip
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL1", 2) == 5
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL2", 2) == 3
    assert may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL2", "a1")
    assert not may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL1", "a1")
    assert not may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL3", "a1")
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL1", 5) == 2


def test_nt_team_t23_nearest_at_the_moment_of_the_command() -> None:
    """NT-TEAM-36 (T23): langeron (AL2) in 3, kollowrath (AL3) in 6, a detached unit in 5
    (nearest AL3, 1 vs 2); in AL2's part langeron's corps moves to 4 (1 vs 1, tie -> AL2): AL2
    may give the unit a Unit Move in the same part."""
    board = tb()
    t = Table(at(board, ["AL l1 INF2 @L3.R [langeron]", "AL c1 INF2 @L6.R [kollowrath]",
                         "AL a1 INF2 @L5.R [-]"]))  # fmt: skip
    turn = end_part(ALLIES, start_team_turn(t.state, ALLIES), "AL1")
    assert not may_give_independent(t.state, board, ALLIES, ASSIGNMENT, "AL2", "a1")
    p: dict[str, JSON] = {"commander": "langeron", **move(4)}
    check_team_command(t.state, board, ALLIES, ASSIGNMENT, turn, "AL2", "corps_move", p)
    t.play(AL, "corps_move", p)
    u: dict[str, JSON] = {"unit": "a1", **move(4)}
    check_team_command(t.state, board, ALLIES, ASSIGNMENT, turn, "AL2", "unit_move", u)
    assert not may_give_independent(t.state, board, ALLIES, ASSIGNMENT, "AL3", "a1")
    t.play(AL, "unit_move", u)


def test_nt_team_36_amb_18_unit_move_into_another_seats_corps() -> None:
    """NT-TEAM-36, AMB-18 (literal): a unit of kollowrath's corps (AL3) standing with langeron
    (AL2) is nearest to AL2 (tie at 0 -> higher rank): AL2 may give it a Unit Move, AL3 not."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL c1 INF2 @L3.R [kollowrath]",
                       "AL c2 INF2 @L3.R [kollowrath]"])  # fmt: skip
    assert may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL2", "c2")
    assert not may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL3", "c2")
    assert may_command(state, board, ALLIES, ASSIGNMENT, "AL3", "kollowrath")


def test_nt_team_36_amb_16_amb_17_amb_33_which_commanders_count() -> None:
    """AMB-16: the nearest of all the seat's commanders counts; AMB-17: eliminated and off-map
    commanders are ignored; AMB-33: a unit no commander reaches goes to the CinC."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L1.R [langeron]", "AL d1 INF2 @L6.R [dokhturov]",
                       "AL c1 INF2 @L4.R [kollowrath]", "AL a1 INF2 @L7.R [-]"])  # fmt: skip
    # AL2: langeron 1 -> 7 is 6, dokhturov 6 -> 7 is 1; AL3: kollowrath 4 -> 7 is 3
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL2", 7) == 1
    assert nearest_role(state, board, ALLIES, ASSIGNMENT, 7) == "AL2"
    state.commanders["dokhturov"].where = DEAD
    state.commanders["dokhturov"].loc = None
    assert nearest_role(state, board, ALLIES, ASSIGNMENT, 7) == "AL3"
    state.commanders["kollowrath"].where = OFFMAP
    state.commanders["kollowrath"].loc = None
    assert nearest_role(state, board, ALLIES, ASSIGNMENT, 7) == "AL2"  # langeron, 6
    state.commanders["langeron"].where = DEAD
    state.commanders["langeron"].loc = None
    assert seat_distance(state, board, ALLIES, ASSIGNMENT, "AL2", 7) is None
    assert nearest_role(state, board, ALLIES, ASSIGNMENT, 7) == "AL1"  # AMB-33: the CinC
    assert may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL1", "a1")


def test_nt_team_t24_attach_from_lower_rank_only() -> None:
    """NT-TEAM-39 (T24): langeron (AL2) with a unit of kienmayer (AL1) and one of kollowrath
    (AL3): attaching the kienmayer unit -> attach_from_higher_rank; the kollowrath unit is
    accepted and then belongs to AL2. A detached unit may be attached too (AMB-19: no nearest
    rule for Attach)."""
    board = tb()
    t = Table(
        at(
            board,
            [
                "AL l1 INF2 @L3.R [langeron]",
                "AL k1 INF2 @L3.R [kienmayer]",
                "AL k2 INF2 @L3.R [kienmayer]",
                "AL c1 INF2 @L3.R [kollowrath]",
                "AL c2 INF2 @L3.R [kollowrath]",
                "AL a1 INF2 @L3.R [-]",
                "AL x INF2 @L3.A23 [dokhturov]",
                "AL g1 INF2 @L3.A23 [-]",
            ],
        )
    )
    state = t.state
    p: dict[str, JSON] = {"commander": "langeron", "unit": "k2"}
    no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL2", "attach", p)
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-39", "attach_from_higher_rank", 403)
    assert not may_attach(state, ALLIES, ASSIGNMENT, "AL2", "langeron", "k2")
    assert may_attach(state, ALLIES, ASSIGNMENT, "AL2", "langeron", "a1")
    assert may_attach(state, ALLIES, ASSIGNMENT, "AL1", "kienmayer", "l1")  # lower rank's unit
    assert not may_attach(state, ALLIES, ASSIGNMENT, "AL2", "kollowrath", "c1")  # not his corps
    q: dict[str, JSON] = {"commander": "langeron", "unit": "c2"}
    check_command(state, board, ALLIES, ASSIGNMENT, "AL2", "attach", q)
    t.play(AL, "attach", q)
    assert owner_of_unit(t.state, ASSIGNMENT, "c2") == "AL2"
    assert owner_of_unit(t.state, ASSIGNMENT, "a1") is None  # detached: no owner
    # a detached unit can be attached too (not by langeron again this turn, NT-37): dokhturov
    # (AL2), blocking A23 in the same locale, attaches the detached g1 standing with him
    r: dict[str, JSON] = {"commander": "dokhturov", "unit": "g1"}
    check_command(t.state, board, ALLIES, ASSIGNMENT, "AL2", "attach", r)
    t.play(AL, "attach", r)
    assert owner_of_unit(t.state, ASSIGNMENT, "g1") == "AL2"


def test_nt_team_t25_combined_attack_from_one_player() -> None:
    """NT-TEAM-44 (T25): langeron and kollowrath in one position: AL2's combined attack with both
    -> combined_attack_other_player; langeron and dokhturov (both AL2's) is accepted."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL c1 INF2 @L3.R [kollowrath]",
                       "AL d1 INF2 @L3.R [dokhturov]", "F v1 INF2 @L4.R [vandamme]"])  # fmt: skip
    both: dict[str, JSON] = {
        "commands": [
            {"kind": "corps_move", "commander": "langeron"},
            {"kind": "corps_move", "commander": "kollowrath"},
        ]
    }
    no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL2", "declare_attack", both)
    assert (no.rejection.rule, no.code, no.status) == (
        "NT-TEAM-44",
        "combined_attack_other_player",
        403,
    )
    assert no.rejection.path == "/commands/1/commander"
    own: dict[str, JSON] = {
        "commands": [
            {"kind": "corps_move", "commander": "langeron"},
            {"kind": "corps_move", "commander": "dokhturov"},
        ]
    }
    check_command(state, board, ALLIES, ASSIGNMENT, "AL2", "declare_attack", own)
    single: dict[str, JSON] = {"commands": [{"kind": "corps_move", "commander": "kollowrath"}]}
    for kind in ("declare_feint", "declare_after_vacate"):
        no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL2", kind, single)
        assert no.code == "not_your_corps"


def test_nt_team_48_combined_artillery_attack_needs_nearest_units() -> None:
    """NT-TEAM-48: two Unit Moves combined are given by one seat, each unit nearest to it."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "AL g1 ART1 @L3.R [-]",
                       "AL g2 ART1 @L4.R [-]", "AL c1 INF2 @L5.R [kollowrath]"])  # fmt: skip
    # g2 in 4: langeron 1, kollowrath 1 -> AL2 (rank); so both nearest to AL2
    guns: dict[str, JSON] = {
        "commands": [{"kind": "unit_move", "unit": "g1"}, {"kind": "unit_move", "unit": "g2"}]
    }
    check_command(state, board, ALLIES, ASSIGNMENT, "AL2", "declare_attack", guns)
    no = refused(check_command, state, board, ALLIES, ASSIGNMENT, "AL3", "declare_attack", guns)
    assert (no.rejection.rule, no.code, no.rejection.path) == (
        "NT-TEAM-48",
        "not_nearest",
        "/commands/0/unit",
    )


def test_nt_team_t26_off_map_unit_enters_by_its_corps_owner() -> None:
    """NT-TEAM-49, AMB-17 (T26): F2 owns davout's reinforcement corps, still off the map: F1's
    Unit Move of one of its units to enter -> not_nearest; F2's is accepted. The corps itself
    enters only by F2's command (NT-TEAM-35)."""
    board = tb()
    state = at(board, ["F v1 INF2 @L1.R [vandamme]", "F d1 INF2 @off [davout]",
                       "F d2 INF2 @off [davout]"], active=F)  # fmt: skip
    unit: dict[str, JSON] = {"command": "unit_move", "unit": "d1", "entry": "E", "path": [1]}
    no = refused(check_command, state, board, FRENCH, ASSIGNMENT, "F1", "enter_reinforcement",
                 unit)  # fmt: skip
    assert (no.rejection.rule, no.code, no.status) == ("NT-TEAM-49", "not_nearest", 403)
    check_command(state, board, FRENCH, ASSIGNMENT, "F2", "enter_reinforcement", unit)
    assert may_give_independent(state, board, FRENCH, ASSIGNMENT, "F2", "d1")
    corps: dict[str, JSON] = {"command": "corps_move", "commander": "davout", "entry": "E",
                              "path": [1]}  # fmt: skip
    no = refused(check_command, state, board, FRENCH, ASSIGNMENT, "F1", "enter_reinforcement",
                 corps)  # fmt: skip
    assert no.code == "not_your_corps"
    check_command(state, board, FRENCH, ASSIGNMENT, "F2", "enter_reinforcement", corps)


def test_nt_team_commands_without_authority_questions_pass() -> None:
    """Threats, ride-ons, end_turn and unknown pieces are left to the engine; enemy units and
    dead units are nobody's to command."""
    board = tb()
    state = at(board, ["AL l1 INF2 @L3.R [langeron]", "F v1 INF2 @L4.R [vandamme]"])
    cases: list[tuple[str, dict[str, JSON]]] = [
        ("threaten", {"attack_locale": 3, "approach": "A34"}),
        ("end_turn", {}),
        ("unit_move", {"unit": "nobody", **move(2)}),
        ("corps_move", {"commander": 5}),
    ]
    for kind, p in cases:
        check_command(state, board, ALLIES, ASSIGNMENT, "AL3", kind, p)
    assert not may_command(state, board, ALLIES, ASSIGNMENT, "AL2", "v1")
    assert not may_command(state, board, ALLIES, ASSIGNMENT, "AL2", "vandamme")
    state.units["l1"].where = DEAD
    assert not may_give_independent(state, board, ALLIES, ASSIGNMENT, "AL2", "l1")


def test_team_turn_record_is_plain_data() -> None:
    """The one piece of bookkeeping the engine does not keep (NT-TEAM-32) is immutable data."""
    turn = TeamTurn(AL, 3)
    assert turn.parts_ended == 0
    with pytest.raises(AttributeError):
        turn.parts_ended = 1  # type: ignore[misc]
