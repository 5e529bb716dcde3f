"""The team layer's phases: teams, ranks, conferences, chat, the hook into the engine's phases
(digest napoleons-triumph-team.md 2.1-2.3, 2.10, 3.2, 3.7; tests NT-TEAM-T1..T11, T51, T55, T56)."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON, Action, GameConfig, Rejection
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import board_named
from games.napoleons_triumph.errors import Illegal, SetupRefused
from games.napoleons_triumph.team import phases as ph
from games.napoleons_triumph.team.phases import (
    PUBLIC,
    AssignCorps,
    ChatMessage,
    CloseConference,
    ConfirmRanks,
    EnginePoint,
    SetRanks,
    SkipConference,
    TeamState,
)
from tests.support.napoleons_triumph_team import AL_CORPS, F_CORPS

BOARD = board_named("austerlitz-published")
COMMANDERS = ph.commanders_of(BOARD)
MEMBERS = {"AL": ["AL1", "AL2", "AL3"], "F": ["F1", "F2"]}
OPTS: dict[str, JSON] = {"team_play": True}

# 5.1 fixture corps; the commanders a test does not name go to the CinC (AL1, F1)
ALL_IN_PLAY = COMMANDERS["AL"] + COMMANDERS["F"]


def new(
    scenario: str = "DEC2",
    options: Mapping[str, JSON] = OPTS,
    members: Mapping[str, list[str]] = MEMBERS,
    spokesmen: Mapping[str, str] | None = None,
) -> TeamState:
    return ph.new_state(scenario, options, members, COMMANDERS, spokesmen)


def play(state: TeamState, *actions: ph.TeamAction) -> TeamState:
    for a in actions:
        state = ph.apply(state, a).state
    return state


def ranks(*roles: str) -> tuple[str, ...]:
    return roles


def agree(state: TeamState, order: tuple[str, ...]) -> TeamState:
    state = play(state, SetRanks(order[0], order))
    return play(state, *(ConfirmRanks(r, order) for r in order))


def corps(mapping: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(mapping.items())


def closed_initial(scenario: str = "DEC2", notes: bool = False) -> TeamState:
    s = new(scenario, {"team_play": True, "conference_notes_allowed": notes})
    s = agree(s, ("AL1", "AL2", "AL3"))
    s = play(s, AssignCorps("AL1", corps(AL_CORPS)), CloseConference("AL1"))
    s = agree(s, ("F1", "F2"))
    return play(s, AssignCorps("F1", corps(F_CORPS)), CloseConference("F1"))


def refused(state: TeamState, action: ph.TeamAction | Action) -> Illegal:
    with pytest.raises(Illegal) as e:
        ph.apply(state, action)
    return e.value


def turn(rnd: int, side: str, night: bool = False) -> EnginePoint:
    return EnginePoint("turn", rnd, side, night, (), ALL_IN_PLAY)


def hook(state: TeamState, *points: EnginePoint) -> TeamState:
    for p in points:
        state = ph.on_engine_phase(state, p).state
    return state


def at_night(state: TeamState) -> TeamState:
    """DEC1: set-up, then the day rounds 1..10, then the Allied night turn (round 11)."""
    state = hook(state, EnginePoint("setup_AL", 1, "AL"), EnginePoint("setup_F", 1, "F"))
    for r in range(1, 11):
        state = hook(state, turn(r, "AL"), turn(r, "F"))
    return hook(state, turn(11, "AL", night=True))


# --- NT-TEAM-1, NT-TEAM-2: teams ---------------------------------------------------------------


def test_nt_team_t1_fifth_seat_refused() -> None:
    """NT-TEAM-T1 (NT-TEAM-1): an Allied team of 4 is valid; a fifth seat is refused (team_full)
    and no team of 0 exists either."""
    four = {"AL": ["AL1", "AL2", "AL3", "AL4"], "F": ["F1"]}
    state = new(members=four)
    assert ph.team_at(state, "AL").members == ("AL1", "AL2", "AL3", "AL4")
    with pytest.raises(SetupRefused) as e:
        new(members={"AL": ["AL1", "AL2", "AL3", "AL4", "AL5"], "F": ["F1"]})
    assert e.value.rejection.rule == "NT-TEAM-1"
    assert e.value.rejection.path == "/teams/AL"
    with pytest.raises(SetupRefused) as e:
        new(members={"AL": [], "F": ["F1"]})
    assert e.value.rejection.rule == "NT-TEAM-1"


def test_nt_team_t2_single_player_against_three() -> None:
    """NT-TEAM-T2 (NT-TEAM-2, AMB-10): a French team of 1 against 3 Allies is valid; the French
    seat has rank 1 at once and every French corps; it has no order slots (size - 1 = 0)."""
    state = new(members={"AL": ["AL1", "AL2", "AL3"], "F": ["F1"]})
    f = ph.team_at(state, "F")
    assert f.agreed
    assert f.cinc == "F1"
    assert dict(f.draft or ()) == dict.fromkeys(COMMANDERS["F"], "F1")
    state = agree(state, ("AL1", "AL2", "AL3"))
    state = play(state, AssignCorps("AL1", corps(AL_CORPS)), CloseConference("AL1"))
    state = play(state, CloseConference("F1"))
    team = ph.team_of(state, "F")
    assert team is not None
    assert [(s.role, s.rank) for s in team.seats] == [("F1", 1)]
    assert len(team.seats) - 1 == 0  # written-order slots per French turn


def test_nt_team_2_teams_fixed_and_distinct() -> None:
    """NT-TEAM-2: the teams are the two sides (or the auction seats); a seat is in one team."""
    with pytest.raises(SetupRefused) as e:
        new(members={"AL": ["X"], "F": ["X"]})
    assert e.value.rejection.rule == "NT-TEAM-2"
    with pytest.raises(SetupRefused) as e:
        new(members={"AL": ["AL1"]})
    assert e.value.rejection.rule == "NT-TEAM-2"
    assert ph.refusal(new(), "nobody", "chat_message") is not None
    assert ph.refusal(new(), "nobody", "unit_move") == ph.refusal(new(), "nobody", "x")
    rej = ph.refusal(new(), "nobody", "unit_move")
    assert rej is not None
    assert rej.rule == "NT-TEAM-2"


# --- options -----------------------------------------------------------------------------------


def test_options_team_play_and_notes() -> None:
    """NT-TEAM-1: only with team_play; NT-TEAM-12: conference_notes_allowed is a bool."""
    with pytest.raises(SetupRefused) as e:
        new(options={})
    assert e.value.rejection.rule == "NT-TEAM-1"
    with pytest.raises(SetupRefused) as e:
        new(options={"team_play": True, "conference_notes_allowed": "yes"})
    assert e.value.rejection.rule == "NT-TEAM-12"
    assert new(options={"team_play": True, "conference_notes_allowed": True}).notes_allowed


@pytest.mark.parametrize("key", sorted(ph.AMB_OPTIONS))
def test_amb_options_only_default(key: str) -> None:
    """Section 6: each AMB option this module owns takes its default; another value is refused
    by name with the rule it touches."""
    default, rule, _ = ph.AMB_OPTIONS[key]
    assert new(options={"team_play": True, "team": {key: default}}).phase == ph.CONF_INITIAL
    other: JSON = "other" if not isinstance(default, bool) else (not default)
    with pytest.raises(SetupRefused) as e:
        new(options={"team_play": True, "team": {key: other}})
    assert e.value.rejection.rule == rule
    assert e.value.rejection.path == f"/options/team/{key}"
    assert key in e.value.rejection.message


# --- NT-TEAM-4, NT-TEAM-45: the initial conference and the auction -----------------------------


AUCTION_TEAMS = {"player_1": ["AL1", "AL2", "AL3"], "player_2": ["F1", "F2"]}
SPOKESMEN = {"player_1": "AL3", "player_2": "F1"}


def auction_state() -> TeamState:
    opts: dict[str, JSON] = {"team_play": True, "balance": "auction"}
    return new(options=opts, members=AUCTION_TEAMS, spokesmen=SPOKESMEN)


def test_nt_team_t3_conference_after_auction() -> None:
    """NT-TEAM-T3 (NT-TEAM-4, NT-TEAM-45): with the auction, both teams enter the initial
    conference when the auction ends, at the same time, and not before; without it, at once."""
    state = auction_state()
    assert ph.phase_of(state) == ph.TeamPhase(ph.AUCTION)
    assert not any(t.conferences for t in state.teams)
    state = hook(state, EnginePoint("auction", 1, "AL"))
    assert state.phase == ph.AUCTION
    sides = (("player_1", "AL"), ("player_2", "F"))
    out = ph.on_engine_phase(state, EnginePoint("setup_AL", 1, "AL", False, sides))
    assert out.state.phase == ph.CONF_INITIAL
    assert [(e.kind, e.team) for e in out.events] == [
        ("conference_opened", "player_1"),
        ("conference_opened", "player_2"),
    ]
    assert ph.chat_open(out.state, "AL")
    assert ph.chat_open(out.state, "F")
    assert ph.team_at(out.state, "AL").key == "player_1"
    plain = new()
    assert plain.phase == ph.CONF_INITIAL
    assert all(t.conference is not None for t in plain.teams)


def test_nt_team_t55_spokesman_bids_chat_closed() -> None:
    """NT-TEAM-T55 (NT-TEAM-45, AMB-23): spokesmen AL3 and F1; AL1's bid is refused
    (not_spokesman); team chat is closed during the auction (team_chat_closed)."""
    state = auction_state()
    rej = ph.refusal(state, "AL1", "auction_bid")
    assert rej is not None
    assert rej.rule == "NT-TEAM-45"
    assert ph.may_act(state, "AL3", "auction_bid")
    assert ph.may_act(state, "F1", "auction_pass")
    assert ph.may_act(state, "AL3", "auction_choose_side")  # AMB-31: the spokesman chooses
    assert refused(state, ChatMessage("AL1", "bid high")).rejection.rule == "NT-TEAM-13"
    assert not ph.chat_open(state, "AL")


def test_nt_team_45_spokesmen_only_with_auction() -> None:
    """NT-TEAM-45: with the auction each team names a spokesman among its seats; without it,
    none."""
    opts: dict[str, JSON] = {"team_play": True, "balance": "auction"}
    with pytest.raises(SetupRefused) as e:
        new(options=opts, members=AUCTION_TEAMS, spokesmen={"player_1": "AL3"})
    assert e.value.rejection.rule == "NT-TEAM-45"
    with pytest.raises(SetupRefused) as e:
        new(options=opts, members=AUCTION_TEAMS, spokesmen={"player_1": "F1", "player_2": "F2"})
    assert e.value.rejection.rule == "NT-TEAM-45"
    with pytest.raises(SetupRefused) as e:
        new(spokesmen={"AL": "AL1", "F": "F1"})
    assert e.value.rejection.rule == "NT-TEAM-45"


def test_nt_team_4_engine_waits_for_the_conferences() -> None:
    """NT-TEAM-4: no engine action while the initial conferences run; the set-up follows when
    both have closed (and not when one has)."""
    state = new()
    rej = ph.refusal(state, "AL1", "allied_setup")
    assert rej is not None
    assert rej.rule == "NT-TEAM-4"
    state = agree(state, ("AL1", "AL2", "AL3"))
    state = play(state, AssignCorps("AL1", corps(AL_CORPS)), CloseConference("AL1"))
    assert state.phase == ph.CONF_INITIAL
    assert not ph.may_act(state, "AL1", "allied_setup")
    state = agree(state, ("F1", "F2"))
    state = play(state, AssignCorps("F1", corps(F_CORPS)), CloseConference("F1"))
    assert state.phase == ph.SETUP
    assert ph.may_act(state, "AL1", "allied_setup")
    assert hook(state, EnginePoint("setup_AL", 1, "AL")) == state


# --- NT-TEAM-5, NT-TEAM-10: ranks ----------------------------------------------------------------


def test_nt_team_t4_ranks_confirmed_then_locked() -> None:
    """NT-TEAM-T4 (NT-TEAM-5): AL2 proposes {AL1:1, AL2:2, AL3:3}; with only AL1 and AL2
    confirmed the close is refused (ranks_unconfirmed); after AL3 confirms it succeeds, and
    set_ranks is then refused (ranks_locked)."""
    state = new()
    proposal = Action("AL2", "set_ranks", {"ranks": {"AL1": 1, "AL2": 2, "AL3": 3}})
    state = ph.apply(state, proposal).state
    order = ranks("AL1", "AL2", "AL3")
    state = play(state, ConfirmRanks("AL1", order), ConfirmRanks("AL2", order))
    assert refused(state, CloseConference("AL1")).rejection.rule == "NT-TEAM-5"
    state = play(state, ConfirmRanks("AL3", order), AssignCorps("AL1", corps(AL_CORPS)))
    state = play(state, CloseConference("AL1"))
    assert ph.team_at(state, "AL").ranks == order
    assert refused(state, proposal).rejection.rule == "NT-TEAM-10"
    assert refused(state, ConfirmRanks("AL3", order)).rejection.rule == "NT-TEAM-10"


def test_nt_team_5_rank_proposals() -> None:
    """NT-TEAM-5 (AMB-1): ranks order exactly the team's seats, 1..n; a confirmation names the
    current proposal; a new proposal needs new confirmations."""
    state = new()
    bad: list[JSON] = [
        {"ranks": {"AL1": 1, "AL2": 2}},
        {"ranks": {"AL1": 1, "AL2": 2, "F1": 3}},
        {"ranks": {"AL1": 1, "AL2": 3, "AL3": 4}},
        {"ranks": {"AL1": 1, "AL2": 1, "AL3": 2}},
        {"ranks": ["AL1", "AL2", "AL3"]},
        None,
    ]
    for payload in bad:
        assert refused(state, Action("AL1", "set_ranks", payload)).rejection.rule == "NT-TEAM-5"
    assert refused(state, ConfirmRanks("AL1", ("AL1", "AL2", "AL3"))).rejection.rule == (
        "NT-TEAM-5"
    )
    state = play(
        state, SetRanks("AL3", ("AL3", "AL1", "AL2")), ConfirmRanks("AL1", ("AL3", "AL1", "AL2"))
    )
    stale = ConfirmRanks("AL2", ("AL1", "AL2", "AL3"))
    assert refused(state, stale).rejection.rule == "NT-TEAM-5"
    assert refused(state, ConfirmRanks("AL1", ("AL3", "AL1", "AL2"))).rejection.rule == "NT-TEAM-5"
    state = play(state, SetRanks("AL2", ("AL3", "AL2", "AL1")))
    assert ph.team_at(state, "AL").confirmed == ()
    assert refused(state, ConfirmRanks("F1", ("AL3", "AL2", "AL1"))).rejection.rule == "NT-TEAM-5"


def test_nt_team_5_new_cinc_drops_the_draft() -> None:
    """NT-TEAM-7: the assignment is the CinC's; a proposal with another rank 1 drops his draft,
    one that keeps rank 1 keeps it."""
    state = agree(new(), ("AL1", "AL2", "AL3"))
    state = play(state, AssignCorps("AL1", corps(AL_CORPS)))
    kept = play(state, SetRanks("AL2", ("AL1", "AL3", "AL2")))
    assert ph.team_at(kept, "AL").draft is not None
    dropped = play(state, SetRanks("AL2", ("AL2", "AL1", "AL3")))
    assert ph.team_at(dropped, "AL").draft is None


# --- NT-TEAM-7: corps assignment -----------------------------------------------------------------


def test_nt_team_t5_assignment() -> None:
    """NT-TEAM-T5 (NT-TEAM-7): an assignment leaving AL3 without a corps is refused
    (assignment_invalid); AL2's is refused (not_cinc); AL1's covering all 9 commanders with every
    seat >= 1 is accepted."""
    state = agree(new(), ("AL1", "AL2", "AL3"))
    no_al3 = {**AL_CORPS, "kollowrath": "AL2"}
    assert refused(state, AssignCorps("AL1", corps(no_al3))).rejection.rule == "NT-TEAM-7"
    rej = refused(state, AssignCorps("AL2", corps(AL_CORPS))).rejection
    assert rej.rule == "NT-TEAM-7"
    assert rej.path == "/role"
    out = ph.apply(state, AssignCorps("AL1", corps(AL_CORPS)))
    assert len(dict(ph.team_at(out.state, "AL").draft or ())) == 9
    assert [(e.kind, e.audience) for e in out.events] == [("corps_drafted", "AL")]


def test_nt_team_7_assignment_covers_every_commander() -> None:
    """NT-TEAM-7: every commander of the side (reinforcements included), seats of the team only;
    the CinC assigns only once the ranks are agreed."""
    state = new()
    assert refused(state, AssignCorps("AL1", corps(AL_CORPS))).rejection.rule == "NT-TEAM-7"
    state = agree(state, ("AL1", "AL2", "AL3"))
    missing = {k: v for k, v in AL_CORPS.items() if k != "liechtenstein"}
    assert refused(state, AssignCorps("AL1", corps(missing))).rejection.rule == "NT-TEAM-7"
    foreign = {**AL_CORPS, "murat": "AL1"}
    assert refused(state, AssignCorps("AL1", corps(foreign))).rejection.rule == "NT-TEAM-7"
    outsider = {**AL_CORPS, "bagration": "F1"}
    assert refused(state, AssignCorps("AL1", corps(outsider))).rejection.rule == "NT-TEAM-7"
    bad = Action("AL1", "assign_corps", {"corps": {"kienmayer": 3}})
    assert refused(state, bad).rejection.rule == "NT-TEAM-7"
    # the French reinforcement corps bernadotte and davout must be assigned too
    fr = agree(state, ("F1", "F2"))
    no_reinf = {k: v for k, v in F_CORPS.items() if k not in ("bernadotte", "davout")}
    rej = refused(fr, AssignCorps("F1", corps(no_reinf))).rejection
    assert rej.rule == "NT-TEAM-7"
    assert "bernadotte" in rej.message
    assert refused(state, CloseConference("AL1")).rejection.rule == "NT-TEAM-7"


def test_nt_team_2_dec1_reinforcement_only_seats() -> None:
    """NT-TEAM-2 table, NT-TEAM-28: in DEC1 only 2 Allied corps start on the board, so a seat
    may own reinforcement corps only: the assignment does not depend on the starting corps."""
    four = {"AL": ["AL1", "AL2", "AL3", "AL4"], "F": ["F1", "F2"]}
    state = new("DEC1", members=four)
    state = agree(state, ("AL1", "AL2", "AL3", "AL4"))
    split = dict(AL_CORPS)
    split["bagration"] = "AL4"
    state = play(state, AssignCorps("AL1", corps(split)), CloseConference("AL1"))
    assert ph.assignment_of(state, "AL")["bagration"] == "AL4"


# --- NT-TEAM-8, NT-TEAM-6, NT-TEAM-12, NT-TEAM-13, 3.7: announcements and chat ----------------


def test_nt_team_t6_team_structure_after_both_close() -> None:
    """NT-TEAM-T6 (NT-TEAM-8): when both conferences have closed, a public team_structure per
    team with its ranks and corps; chat never reaches the other team."""
    state = agree(new(), ("AL1", "AL2", "AL3"))
    chat = ph.apply(state, ChatMessage("AL2", "Langeron holds Pratze"))
    assert all(e.audience == "AL" for e in chat.events)
    state = play(chat.state, AssignCorps("AL1", corps(AL_CORPS)))
    first = ph.apply(state, CloseConference("AL1"))
    assert [e.kind for e in first.events] == ["conference_closed"]
    state = agree(first.state, ("F1", "F2"))
    state = play(state, AssignCorps("F1", corps(F_CORPS)))
    last = ph.apply(state, CloseConference("F1"))
    structure = [e for e in last.events if e.kind == "team_structure"]
    assert [(e.audience, e.team) for e in structure] == [(PUBLIC, "AL"), (PUBLIC, "F")]
    assert structure[0].data == {
        "side": "AL",
        "ranks": ["AL1", "AL2", "AL3"],
        "corps": {c: AL_CORPS[c] for c in COMMANDERS["AL"]},
    }
    assert "Pratze" not in json.dumps([e.to_json() for e in last.events])


def test_nt_team_t7_chat_in_play_refused() -> None:
    """NT-TEAM-T7 (NT-TEAM-13, 3.7): AL2's team chat message in round 2 of play is refused
    (team_chat_closed); nothing is stored."""
    state = hook(closed_initial(), EnginePoint("setup_AL", 1, "AL"))
    state = hook(state, EnginePoint("setup_F", 1, "F"), turn(1, "AL"), turn(1, "F"), turn(2, "AL"))
    before = ph.to_json(state)
    rej = refused(state, ChatMessage("AL2", "attack Telnitz")).rejection
    assert rej.rule == "NT-TEAM-13"
    assert ph.to_json(state) == before
    assert not ph.chat_open(state, "AL")


def test_nt_team_t8_chat_in_initial_conference() -> None:
    """NT-TEAM-T8 (3.7, NT-TEAM-6): AL2's "Langeron holds Pratze" reaches AL1 and AL3 only."""
    out = ph.apply(new(), ChatMessage("AL2", "Langeron holds Pratze"))
    (event,) = out.events
    assert event.audience == "AL"
    assert event.data == {
        "conference": 0,
        "seq": 1,
        "author": "AL2",
        "text": "Langeron holds Pratze",
    }
    for role in ("AL1", "AL2", "AL3"):
        assert ph.transcript_readable(out.state, role, "AL", 0)
    assert not ph.transcript_readable(out.state, "F1", "AL", 0)
    assert not ph.transcript_readable(out.state, "AL1", "AL", 7)


def test_nt_team_6_chat_text() -> None:
    """NT-TEAM-6: free text, not empty, bounded; the payload is {"text": ...}."""
    state = new()
    assert refused(state, ChatMessage("AL1", "  ")).rejection.rule == "NT-TEAM-6"
    assert refused(state, ChatMessage("AL1", "x" * (ph.MAX_CHAT + 1))).rejection.rule == (
        "NT-TEAM-6"
    )
    assert refused(state, Action("AL1", "chat_message", {"txt": "hi"})).rejection.rule == (
        "NT-TEAM-6"
    )
    s2 = ph.apply(state, Action("AL1", "chat_message", {"text": "hi"})).state
    assert ph.team_at(s2, "AL").conferences[0].messages == 1


@pytest.mark.parametrize("notes", [False, True])
def test_nt_team_t9_notes(notes: bool) -> None:
    """NT-TEAM-T9 (NT-TEAM-12): after the close the transcript is unreadable without notes;
    with notes the team still reads it, cannot post; the French never read it."""
    state = new(options={"team_play": True, "conference_notes_allowed": notes})
    state = play(state, ChatMessage("AL2", "Langeron holds Pratze"))
    state = agree(state, ("AL1", "AL2", "AL3"))
    state = play(state, AssignCorps("AL1", corps(AL_CORPS)), CloseConference("AL1"))
    for role in ("AL1", "AL2", "AL3"):
        assert ph.transcript_readable(state, role, "AL", 0) is notes
    assert not ph.transcript_readable(state, "F1", "AL", 0)
    assert refused(state, ChatMessage("AL1", "one more")).rejection.rule == "NT-TEAM-13"


# --- NT-TEAM-9, NT-TEAM-10, NT-TEAM-11: the night conference ------------------------------------


def test_nt_team_t10_night_conference_dec1() -> None:
    """NT-TEAM-T10 (NT-TEAM-9, AMB-13): DEC1: after the French turn of the last 1 December round
    the Allied night conference opens (the French have none); after the Allied night turn the
    French one opens."""
    state = at_night(closed_initial("DEC1"))
    assert ph.phase_of(state) == ph.TeamPhase(ph.CONF_NIGHT, "AL")
    assert ph.chat_open(state, "AL")
    assert not ph.chat_open(state, "F")
    rej = ph.refusal(state, "AL1", "unit_move")
    assert rej is not None
    assert rej.rule == "NT-TEAM-9"
    assert refused(state, ChatMessage("F1", "psst")).rejection.rule == "NT-TEAM-13"
    state = play(state, ChatMessage("AL2", "hold the line"), CloseConference("AL1"))
    assert state.phase == ph.PLAY
    assert not ph.chat_open(state, "AL")
    assert hook(state, turn(11, "AL", night=True)) == state
    state = hook(state, turn(11, "F", night=True))
    assert ph.phase_of(state) == ph.TeamPhase(ph.CONF_NIGHT, "F")
    assert ph.chat_open(state, "F")
    assert not ph.chat_open(state, "AL")


def test_nt_team_t10_no_night_conference_in_dec2() -> None:
    """NT-TEAM-T10 (NT-TEAM-9): DEC2: no night conference ever; after the initial conference
    every team chat message is refused (during it, accepted)."""
    state = new()
    assert ph.apply(state, ChatMessage("AL2", "hello")).events
    state = hook(closed_initial(), EnginePoint("setup_AL", 1, "AL"), EnginePoint("setup_F", 1, "F"))
    for r in range(1, 11):
        for side in ("AL", "F"):
            state = hook(state, turn(r, side, night=False))
            assert state.phase == ph.PLAY
            for role in ("AL1", "AL2", "F1", "F2"):
                assert refused(state, ChatMessage(role, "x")).rejection.rule == "NT-TEAM-13"
    # a night round on a DEC2 board would still open none (only "1. Dezember" has one)
    assert hook(state, turn(11, "AL", night=True)).phase == ph.PLAY


def test_nt_team_t11_night_ranks_locked_assignment_changes() -> None:
    """NT-TEAM-T11 (NT-TEAM-10, NT-TEAM-11): at the Allied night conference a rank swap is
    refused (ranks_locked); kollowrath to AL2 and dokhturov to AL3 is accepted and announced to
    the French at the close."""
    state = at_night(closed_initial("DEC1"))
    swap = SetRanks("AL1", ("AL1", "AL3", "AL2"))
    assert refused(state, swap).rejection.rule == "NT-TEAM-10"
    new_corps = {**AL_CORPS, "kollowrath": "AL2", "dokhturov": "AL3"}
    assert refused(state, AssignCorps("AL2", corps(new_corps))).rejection.rule == "NT-TEAM-10"
    state = play(state, AssignCorps("AL1", corps(new_corps)))
    out = ph.apply(state, CloseConference("AL1"))
    kinds = [(e.kind, e.audience) for e in out.events]
    assert kinds == [
        ("conference_closed", PUBLIC),
        ("team_structure", PUBLIC),
        ("team_turn_start", PUBLIC),
    ]
    data = out.events[1].data
    assert isinstance(data, dict)
    assert data["corps"] == {c: new_corps[c] for c in COMMANDERS["AL"]}
    assert ph.assignment_of(out.state, "AL")["kollowrath"] == "AL2"
    team = ph.team_of(out.state, "AL")
    assert team is not None
    assert [s.role for s in team.seats] == ["AL1", "AL2", "AL3"]


def test_nt_team_11_unchanged_assignment_announced_too() -> None:
    """NT-TEAM-11: the team_structure is published on every close, changed or not."""
    state = at_night(closed_initial("DEC1"))
    out = ph.apply(state, CloseConference("AL1"))
    structure = [e for e in out.events if e.kind == "team_structure"]
    assert len(structure) == 1
    assert ph.assignment_of(out.state, "AL") == ph.assignment_of(state, "AL")


def test_nt_team_9_skip_night_conference() -> None:
    """NT-TEAM-9 (AMB-13): the CinC may skip the night conference; the skip is public and the
    structure is announced as on a close; not after a message; AL2 may not skip."""
    state = at_night(closed_initial("DEC1"))
    assert refused(state, SkipConference("AL2")).rejection.rule == "NT-TEAM-9"
    out = ph.apply(state, SkipConference("AL1"))
    assert [e.kind for e in out.events] == [
        "conference_skipped",
        "team_structure",
        "team_turn_start",
    ]
    assert ph.team_at(out.state, "AL").conferences[-1].skipped
    talked = play(state, ChatMessage("AL3", "hi"))
    assert refused(talked, SkipConference("AL1")).rejection.rule == "NT-TEAM-9"
    assert refused(new(), SkipConference("AL1")).rejection.rule == "NT-TEAM-4"


def test_amb_10_team_of_one_may_skip_initial() -> None:
    """AMB-10: a team of one has rank 1 and every corps; its conference is optional."""
    state = new(members={"AL": ["AL1", "AL2", "AL3"], "F": ["F1"]})
    out = ph.apply(state, SkipConference("F1"))
    assert ph.team_at(out.state, "F").ranks == ("F1",)


def test_amb_14_night_minimum_one_corps() -> None:
    """NT-TEAM-10 (AMB-14): at night every seat still gets >= 1 corps while the team has as
    many corps in play as seats; otherwise seats may get none; eliminated corps may be left out
    (they keep their owner)."""
    state = at_night(closed_initial("DEC1"))
    idle = {**AL_CORPS, "kollowrath": "AL1"}
    assert refused(state, AssignCorps("AL1", corps(idle))).rejection.rule == "NT-TEAM-10"
    base = closed_initial("DEC1")
    base = hook(base, EnginePoint("setup_AL", 1, "AL"), EnginePoint("setup_F", 1, "F"))
    for r in range(1, 11):
        base = hook(base, turn(r, "AL"), turn(r, "F"))
    survivors = ("langeron", "dokhturov") + COMMANDERS["F"]
    base = hook(base, EnginePoint("turn", 11, "AL", True, (), survivors))
    assert ph.team_at(base, "AL").conference is not None
    assert ph.team_at(base, "AL").conferences[-1].in_play == ("langeron", "dokhturov")
    two = (("langeron", "AL1"), ("dokhturov", "AL1"))
    base = play(base, AssignCorps("AL1", two), CloseConference("AL1"))
    after = ph.assignment_of(base, "AL")
    assert after["langeron"] == "AL1"
    assert after["kollowrath"] == "AL3"
    missing = at_night(closed_initial("DEC1"))
    rej = refused(missing, AssignCorps("AL1", (("langeron", "AL2"),))).rejection
    assert rej.rule == "NT-TEAM-10"


def test_nt_team_t51_turn_start_after_night_conference() -> None:
    """NT-TEAM-T51 (NT-TEAM-9, 3.4.6): the Allied night turn starts (team_turn_start, where the
    lead delivers the written orders of round 10) only after the night conference has closed;
    other turns start at once, once each."""
    state = closed_initial("DEC1")
    state = hook(state, EnginePoint("setup_AL", 1, "AL"), EnginePoint("setup_F", 1, "F"))
    starts: list[JSON] = []
    for r in range(1, 11):
        for side in ("AL", "F"):
            out = ph.on_engine_phase(state, turn(r, side))
            starts += [e.data for e in out.events if e.kind == "team_turn_start"]
            state = ph.on_engine_phase(out.state, turn(r, side)).state  # idempotent
    assert starts == [{"side": s, "round": r} for r in range(1, 11) for s in ("AL", "F")]
    out = ph.on_engine_phase(state, turn(11, "AL", night=True))
    assert [e.kind for e in out.events] == ["conference_opened"]
    assert out.state.turn == ("F", 10)
    closed = ph.apply(out.state, CloseConference("AL1"))
    assert closed.events[-1].data == {"side": "AL", "round": 11}
    assert closed.state.turn == ("AL", 11)


def test_game_over_closes_conferences() -> None:
    """NT-TEAM-13 (AMB-2): the ban ends with the game; an open conference closes; no action of
    the team layer is open afterwards."""
    state = at_night(closed_initial("DEC1"))
    out = ph.on_engine_phase(state, EnginePoint("over", 11, "AL"))
    assert out.state.phase == ph.OVER
    assert [e.kind for e in out.events] == ["conference_closed"]
    assert not ph.chat_open(out.state, "AL")
    assert ph.on_engine_phase(out.state, turn(12, "AL")).state == out.state


def test_amb_25_deadline_close() -> None:
    """SRV-8, AMB-25, AMB-1: at the deadline, ranks fall back to the proposal or the lobby order,
    corps to the CinC's draft or a round-robin in rank order through the tableau."""
    state = ph.deadline_close(new(), "AL").state
    team = ph.team_at(state, "AL")
    assert team.ranks == ("AL1", "AL2", "AL3")
    rr = ph.assignment_of(state, "AL")
    assert [rr[c] for c in COMMANDERS["AL"]] == ["AL1", "AL2", "AL3"] * 3
    proposed = play(new(), SetRanks("AL2", ("AL2", "AL1", "AL3")))
    assert ph.team_at(ph.deadline_close(proposed, "AL").state, "AL").ranks == ("AL2", "AL1", "AL3")
    assert ph.deadline_close(state, "AL").state == state  # nothing open: nothing happens


# --- NT-TEAM-3 -----------------------------------------------------------------------------------


def test_nt_team_t56_shared_result() -> None:
    """NT-TEAM-T56 (NT-TEAM-3): the French win: every French seat wins, every Allied seat
    loses; there is no per-seat result beyond that."""
    state = closed_initial()
    assert ph.seat_results(state, "F") == {
        "AL1": "loss",
        "AL2": "loss",
        "AL3": "loss",
        "F1": "win",
        "F2": "win",
    }
    assert set(ph.seat_results(state, None).values()) == {"draw"}


# --- the engine hook on a real engine state -----------------------------------------------------


def test_point_of_engine_state() -> None:
    """point_of reads the engine's phase, round, active side and night round (DEC1 round 11)."""
    game = RULESET.setup(GameConfig("DEC1", {"board": "austerlitz-published"}), Rng(1))
    expected = EnginePoint("setup_AL", 1, "AL", False, (), tuple(sorted(ALL_IN_PLAY)))
    assert ph.point_of(game, BOARD) == expected
    night = copy.deepcopy(game)
    night.phase, night.round = "turn", 11
    night.commanders["kienmayer"].where = "dead"
    point = ph.point_of(night, BOARD)
    assert point.night
    assert point.phase == "turn"
    assert "kienmayer" not in point.in_play


def test_action_json_round_trip() -> None:
    """Each team action has one protocol form, parsed back to itself."""
    actions: list[ph.TeamAction] = [
        SetRanks("AL1", ("AL1", "AL2")),
        ConfirmRanks("AL2", ("AL1", "AL2")),
        AssignCorps("AL1", (("langeron", "AL2"),)),
        CloseConference("AL1"),
        SkipConference("AL1"),
        ChatMessage("AL3", "hi"),
    ]
    for a in actions:
        assert ph.parse_action(ph.action_to_json(a)) == a
    assert refused(new(), Action("AL1", "close_conference", {"x": 1})).rejection.rule == (
        "NT-TEAM-4"
    )


# --- hypothesis properties ---------------------------------------------------------------------

SEATS = ("AL1", "AL2", "AL3", "F1", "F2")


def _points() -> list[EnginePoint]:
    pts = [EnginePoint("setup_AL", 1, "AL"), EnginePoint("setup_F", 1, "F")]
    for r in range(1, 13):
        for side in ("AL", "F"):
            pts.append(turn(r, side, night=r == 11))
    return [*pts, EnginePoint("over", 12, "F")]


POINTS = _points()


KINDS_DRAWN = ["ranks", "confirm", "corps", "close", "chat", "engine", "engine", *["progress"] * 4]


def _progress(team: ph.TeamRecord, side: str) -> ph.TeamAction | None:
    """The action that moves the team's open conference on (to reach later phases often)."""
    if team.conference is None:
        return None
    if team.ranks is None and not team.agreed:
        if team.proposal is None:
            return SetRanks(team.members[-1], team.members)
        todo = [r for r in team.members if r not in team.confirmed]
        return ConfirmRanks(todo[0], team.proposal)
    cinc = team.cinc
    assert cinc is not None
    if team.draft is None and team.ranks is None:
        mine = COMMANDERS[side]
        order = team.ranks or team.proposal or team.members
        return AssignCorps(cinc, tuple((c, order[i % len(order)]) for i, c in enumerate(mine)))
    return CloseConference(cinc)


def _try(state: TeamState, action: ph.TeamAction) -> tuple[TeamState, Rejection | None]:
    try:
        return ph.apply(state, action).state, None
    except Illegal as e:
        return state, e.rejection


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_properties_random_runs(data: st.DataObject) -> None:
    """Over random runs of team actions and engine steps (DEC1 or DEC2): the state survives
    JSON; a chat message is accepted iff the team's chat is open; ranks never change once the
    initial conference has closed."""
    scenario = data.draw(st.sampled_from(["DEC1", "DEC2"]))
    notes = data.draw(st.booleans())
    state = new(scenario, {"team_play": True, "conference_notes_allowed": notes})
    locked: dict[str, tuple[str, ...]] = {}
    reached: set[str] = set()
    step = 0
    for _ in range(data.draw(st.integers(5, 80))):
        role = data.draw(st.sampled_from(SEATS))
        side = "AL" if role.startswith("AL") else "F"
        team = ph.team_at(state, side)
        what = data.draw(st.sampled_from(KINDS_DRAWN))
        if what == "progress":
            nxt = _progress(team, side)
            if nxt is None:
                what = "engine"
            else:
                state, _ = _try(state, nxt)
                continue
        if what == "engine":
            if state.phase in (ph.CONF_INITIAL, ph.CONF_NIGHT) and step >= 2:
                continue  # the engine waits for the conferences
            for _ in range(data.draw(st.integers(1, 8))):  # the engine plays on
                waiting = state.phase in (ph.CONF_INITIAL, ph.CONF_NIGHT) and step >= 2
                if step >= len(POINTS) or waiting:
                    break
                state = ph.on_engine_phase(state, POINTS[step]).state
                step += 1
                wire = json.loads(json.dumps(ph.to_json(state)))
                assert ph.from_json(wire) == state
            continue
        action: ph.TeamAction
        if what == "ranks":
            order = tuple(data.draw(st.permutations(team.members)))
            action = SetRanks(role, order)
        elif what == "confirm":
            action = ConfirmRanks(role, team.proposal or team.members)
        elif what == "corps":
            mine = COMMANDERS[side]
            owners = [data.draw(st.sampled_from(team.members)) for _ in mine]
            who = data.draw(st.sampled_from([role, team.cinc or role]))
            action = AssignCorps(who, tuple(zip(mine, owners, strict=True)))
        elif what == "close":
            action = CloseConference(data.draw(st.sampled_from([role, team.cinc or role])))
        else:
            action = ChatMessage(role, data.draw(st.text(min_size=1, max_size=20)) + "!")
        open_before = ph.chat_open(state, side)
        state, rejection = _try(state, action)
        accepted = rejection is None
        assert rejection is None or rejection.rule.startswith("NT-TEAM-")
        if isinstance(action, ChatMessage):
            assert accepted == open_before
        wire = json.loads(json.dumps(ph.to_json(state)))
        assert ph.from_json(wire) == state
        reached.add(state.phase)
        for t in state.teams:
            if t.side in locked:
                assert t.ranks == locked[t.side]
            elif t.ranks is not None:
                assert t.side is not None
                locked[t.side] = t.ranks
    event(f"furthest phase: {max(reached, key=ph.PHASES.index) if reached else 'none'}")
