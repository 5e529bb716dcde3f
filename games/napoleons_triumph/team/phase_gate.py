"""The phase gate (digest 3.2): whether the current team phase lets a role try an action kind,
team actions and engine actions alike (`refusal`, `may_act`); `apply` and the other team modules
check the payload and the in-phase rules. Rules: NT-TEAM-2, -4, -5, -7, -9, -10, -13, -45
(AMB-10, AMB-23).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import Rejection
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.team.actions import (
    ASSIGN_CORPS,
    CHAT_MESSAGE,
    CLOSE_CONFERENCE,
    CONFIRM_RANKS,
    KINDS,
    SET_RANKS,
    SKIP_CONFERENCE,
)
from games.napoleons_triumph.team.chat import chat_open
from games.napoleons_triumph.team.team_state import (
    AUCTION,
    CONF_INITIAL,
    CONF_NIGHT,
    INITIAL,
    NIGHT,
    TeamRecord,
    TeamState,
    team_of_role,
)


def refusal(state: TeamState, role: str, kind: str) -> Rejection | None:
    """The phase gate for any action kind (team actions and engine actions): None if the phase
    lets this role try it. The payload and the in-phase rules are checked by `apply` (team
    actions), team/setup.py (set-up parts) and the routing modules (play)."""
    try:
        acting_team(state, role, kind)
    except Illegal as e:
        return e.rejection
    return None


def may_act(state: TeamState, role: str, kind: str) -> bool:
    return refusal(state, role, kind) is None


def acting_team(state: TeamState, role: str, kind: str) -> TeamRecord:
    team = team_of_role(state, role)
    if team is None:
        raise Illegal("NT-TEAM-2", T("{role} has no seat in either team", role=repr(role)), "/role")
    if kind in KINDS:
        _gate_team_action(state, team, role, kind)
        return team
    if state.phase == AUCTION and role != team.spokesman:  # NT-TEAM-45 (403 not_spokesman)
        raise Illegal("NT-TEAM-45", T("in the auction only the team's spokesman acts"), "/role")
    if state.phase == CONF_INITIAL:  # NT-TEAM-4
        raise Illegal("NT-TEAM-4", T("the game waits for the initial conferences to close"))
    if state.phase == CONF_NIGHT:  # NT-TEAM-9
        raise Illegal(
            "NT-TEAM-9",
            T("the game waits for the {side} night conference", side=state.phase_side),
        )
    return team


def _gate_team_action(state: TeamState, team: TeamRecord, role: str, kind: str) -> None:
    conf = team.conference
    if kind == CHAT_MESSAGE:
        if not chat_open(state, team.key):  # NT-TEAM-13, 3.7 (409 team_chat_closed)
            raise Illegal(
                "NT-TEAM-13",
                T(
                    "team chat is closed: teammates talk only in a conference (AMB-23: the "
                    "spokesman bids alone)"
                )
                if state.phase == AUCTION
                else T("team chat is closed: teammates talk only in a conference"),
            )
        return
    if kind in (SET_RANKS, CONFIRM_RANKS):
        if team.ranks is not None:  # NT-TEAM-10 (409 ranks_locked)
            raise Illegal("NT-TEAM-10", T("the rank order is locked for the rest of the game"))
        if conf is None or conf.kind != INITIAL or state.phase != CONF_INITIAL:
            raise Illegal("NT-TEAM-5", T("ranks are decided in the initial conference"))
        return
    rule = "NT-TEAM-9" if conf is not None and conf.kind == NIGHT else "NT-TEAM-4"
    open_here = conf is not None and (
        (conf.kind == INITIAL and state.phase == CONF_INITIAL)
        or (conf.kind == NIGHT and state.phase == CONF_NIGHT and state.phase_side == team.side)
    )
    if not open_here:
        raise Illegal(rule, T("your team has no conference open"))
    assert conf is not None
    if kind == ASSIGN_CORPS:
        rule = "NT-TEAM-7" if conf.kind == INITIAL else "NT-TEAM-10"
    if kind == SKIP_CONFERENCE and conf.kind == INITIAL and len(team.members) > 1:
        raise Illegal(
            "NT-TEAM-4", T("only the night conference may be skipped (AMB-10: or a team of 1)")
        )
    if kind == CLOSE_CONFERENCE and conf.kind == INITIAL and not team.agreed:
        # NT-TEAM-5 (409 ranks_unconfirmed)
        raise Illegal(
            "NT-TEAM-5", T("every seat must confirm the ranks before the conference closes")
        )
    if team.cinc is None:
        raise Illegal(rule, T("the ranks are not agreed yet: the commander-in-chief (rank 1) acts"))
    if role != team.cinc:  # 403 not_cinc
        raise Illegal(rule, T("only the commander-in-chief may do this"), "/role")
