"""The conferences (NT-TEAM-4..11): opening both initial conferences (NT-TEAM-4, AMB-10),
proposing and confirming the ranks (NT-TEAM-5, AMB-1), the commander-in-chief's corps assignment
(NT-TEAM-7, NT-TEAM-10, AMB-14), closing or skipping a conference (NT-TEAM-9, -10, -11, AMB-13),
the deadline's fallbacks (`deadline_close`, SRV-8 / AMB-25), and the public team structure
(NT-TEAM-8, NT-TEAM-11) and team turn start (3.4.6) events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.state import SIDES
from games.napoleons_triumph.team.actions import AssignCorps, ConfirmRanks, SetRanks, pair_obj
from games.napoleons_triumph.team.team_state import (
    CONF_INITIAL,
    INITIAL,
    NIGHT,
    PLAY,
    PUBLIC,
    SETUP,
    Applied,
    Conference,
    TeamEvent,
    TeamRecord,
    TeamState,
    set_conference,
    side_commanders,
    team_at,
    with_team,
)


def open_initial(state: TeamState) -> Applied:
    events = []
    teams = []
    for t in state.teams:  # NT-TEAM-4: both teams open their conference at the same time
        side = t.side
        assert side is not None
        t = replace(t, conferences=(Conference(INITIAL, 0, True),))
        if len(t.members) == 1:  # AMB-10: a team of one has rank 1 and every corps
            only = t.members[0]
            corps = tuple((c, only) for c in side_commanders(state, side))
            t = replace(t, proposal=t.members, confirmed=t.members, draft=corps)
        teams.append(t)
        events.append(TeamEvent("conference_opened", PUBLIC, t.key, {"kind": INITIAL, "round": 0}))
    return Applied(replace(state, teams=tuple(teams), phase=CONF_INITIAL), tuple(events))


def structure_event(team: TeamRecord) -> TeamEvent:
    """NT-TEAM-8 / NT-TEAM-11: ranks and corps assignment, public; never the plans."""
    assert team.ranks is not None
    data: JSON = {
        "side": team.side,
        "ranks": list(team.ranks),
        "corps": pair_obj(team.corps),
    }
    return TeamEvent("team_structure", PUBLIC, team.key, data)


def _check_ranks(team: TeamRecord, ranks: tuple[str, ...]) -> None:
    if sorted(ranks) != sorted(team.members):  # NT-TEAM-5: a strict total order of the seats
        raise Illegal(
            "NT-TEAM-5", T("the ranks must order exactly the seats of your team"), "/ranks"
        )


def set_ranks(state: TeamState, team: TeamRecord, act: SetRanks) -> Applied:
    _check_ranks(team, act.ranks)
    draft = team.draft
    if team.proposal is None or team.proposal[0] != act.ranks[0]:
        draft = None  # NT-TEAM-7: the assignment is the CinC's; a new CinC starts afresh
    team = replace(team, proposal=act.ranks, confirmed=(), draft=draft)
    data: JSON = {"by": act.role, "ranks": list(act.ranks)}
    return Applied(with_team(state, team), (TeamEvent("ranks_proposed", team.key, team.key, data),))


def confirm_ranks(state: TeamState, team: TeamRecord, act: ConfirmRanks) -> Applied:
    if team.proposal is None:
        raise Illegal("NT-TEAM-5", T("no rank order has been proposed yet"))
    if act.ranks != team.proposal:
        raise Illegal("NT-TEAM-5", T("that is not the current proposal"), "/ranks")
    if act.role in team.confirmed:
        raise Illegal("NT-TEAM-5", T("you have already confirmed these ranks"))
    done = set(team.confirmed) | {act.role}
    team = replace(team, confirmed=tuple(r for r in team.members if r in done))
    data: JSON = {"by": act.role, "ranks": list(act.ranks)}
    event = TeamEvent("ranks_confirmed", team.key, team.key, data)
    return Applied(with_team(state, team), (event,))


def assign_corps(state: TeamState, team: TeamRecord, act: AssignCorps) -> Applied:
    conf = team.conference
    assert conf is not None
    assert team.side is not None
    night = conf.kind == NIGHT
    rule = "NT-TEAM-10" if night else "NT-TEAM-7"
    mine = side_commanders(state, team.side)
    given = dict(act.corps)
    if len(given) != len(act.corps):
        raise Illegal(rule, T("a corps is assigned twice"), "/corps")
    for c, r in act.corps:
        if c not in mine:
            raise Illegal(
                rule,
                T("{commander} is not a commander of your side", commander=repr(c)),
                f"/corps/{c}",
            )
        if r not in team.members:
            raise Illegal(rule, T("{seat} is not a seat of your team", seat=repr(r)), f"/corps/{c}")
    # NT-TEAM-7: every commander, reinforcements included; NT-TEAM-10 / AMB-14: at night every
    # commander still in play (an eliminated one not named keeps its owner)
    needed = conf.in_play if night else mine
    missing = [c for c in needed if c not in given]
    if missing:
        raise Illegal(
            rule, T("assign every corps; missing: {corps}", corps=", ".join(missing)), "/corps"
        )
    if not night or len(needed) >= len(team.members):  # AMB-14: >= 1 while corps suffice
        idle = [r for r in team.members if not any(given[c] == r for c in needed)]
        if idle:
            raise Illegal(
                rule,
                T("every seat gets at least 1 corps; none for {seats}", seats=", ".join(idle)),
                "/corps",
            )
    old = dict(team.corps)
    merged = {**old, **given}
    draft = tuple((c, merged[c]) for c in mine if c in merged)
    team = replace(team, draft=draft)
    data: JSON = {"corps": pair_obj(draft)}
    return Applied(with_team(state, team), (TeamEvent("corps_drafted", team.key, team.key, data),))


def close_conference(state: TeamState, team: TeamRecord, skipped: bool) -> Applied:
    conf = team.conference
    assert conf is not None
    if skipped and conf.messages:
        raise Illegal("NT-TEAM-9", T("the conference has been held: close it instead"))
    if skipped and conf.kind == NIGHT:
        team = replace(team, draft=None)  # a skipped night conference changes nothing
    events: list[TeamEvent] = []
    if conf.kind == INITIAL:
        if team.draft is None:  # NT-TEAM-7 (AMB-25 applies only at the deadline)
            raise Illegal("NT-TEAM-7", T("the commander-in-chief has not assigned the corps yet"))
        team = replace(team, ranks=team.proposal)  # NT-TEAM-10: locked from now on
    corps = team.draft if team.draft is not None else team.corps
    team = replace(team, corps=corps, draft=None)
    team = set_conference(team, replace(conf, open=False, skipped=skipped))
    status = "conference_skipped" if skipped else "conference_closed"
    events.append(TeamEvent(status, PUBLIC, team.key, {"kind": conf.kind, "round": conf.round}))
    state = with_team(state, team)
    if conf.kind == INITIAL:
        if all(t.ranks is not None for t in state.teams):  # NT-TEAM-8: both closed
            events.extend(structure_event(t) for t in _by_side(state.teams))
            state = replace(state, phase=SETUP)
        return Applied(state, tuple(events))
    events.append(structure_event(team))  # NT-TEAM-11: in every case, changed or not
    assert team.side is not None
    state = replace(state, phase=PLAY, phase_side=None, turn=(team.side, conf.round))
    events.append(turn_start_event(team.side, conf.round))  # 3.4.6: after the night conference
    return Applied(state, tuple(events))


def _by_side(teams: Sequence[TeamRecord]) -> list[TeamRecord]:
    return sorted(teams, key=lambda t: SIDES.index(t.side) if t.side in SIDES else 9)


def turn_start_event(side: str, round_: int) -> TeamEvent:
    """TEAM_TURN_START(side, k): the lead delivers the written orders of turn k-1 here."""
    return TeamEvent("team_turn_start", PUBLIC, side, {"side": side, "round": round_})


def deadline_close(state: TeamState, key: str) -> Applied:
    """SRV-8 / AMB-25: the conference deadline closes the team's open conference. Ranks without
    confirmation: the proposal if any, else lobby order (AMB-1); corps: the CinC's last valid
    draft, else a round-robin over the seats in rank order through the commanders in tableau
    order (night: the current assignment stays)."""
    team = team_at(state, key)
    conf = team.conference
    if conf is None:
        return Applied(state)
    assert team.side is not None
    if conf.kind == INITIAL:
        ranks = team.proposal if team.proposal is not None else team.members
        draft = team.draft
        if draft is None:
            mine = side_commanders(state, team.side)
            draft = tuple((c, ranks[i % len(ranks)]) for i, c in enumerate(mine))
        team = replace(team, proposal=ranks, confirmed=team.members, draft=draft)
    return close_conference(with_team(state, team), team, skipped=False)
