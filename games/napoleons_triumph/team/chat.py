"""The conferences' chat and transcripts (digest 3.7): when a team's chat is open (NT-TEAM-13,
AMB-23, AMB-32), posting a message (NT-TEAM-6: free text, bounded), who may read a conference's
transcript (NT-TEAM-12, table 2).
"""

from __future__ import annotations

from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.team.actions import ChatMessage
from games.napoleons_triumph.team.team_state import (
    CONF_INITIAL,
    CONF_NIGHT,
    INITIAL,
    Applied,
    TeamEvent,
    TeamRecord,
    TeamState,
    set_conference,
    team_at,
    with_team,
)

MAX_CHAT = 4000  # NT-TEAM-6: free text; a bound on one message (a product limit, not a rule)


def chat_open(state: TeamState, side: str) -> bool:
    """3.7: the team's chat is open iff its session is open and the phase is the initial
    conference or its own night conference. NT-TEAM-13: never in play, set-up steps 5-9 or the
    auction (AMB-23). AMB-32 vs table 3: no engine phase lies between set-up step (2) and the
    initial conference (the scenario and sides are chosen in the lobby), so they agree here."""
    try:
        team = team_at(state, side)
    except KeyError:
        return False
    if team.conference is None:
        return False
    if state.phase == CONF_INITIAL:
        return team.conference.kind == INITIAL
    return state.phase == CONF_NIGHT and state.phase_side == team.side


def transcript_readable(state: TeamState, role: str, key: str, index: int) -> bool:
    """NT-TEAM-12 (table 2): conference `index` of team `key` is readable by its own seats while
    open; after the close only with conference_notes_allowed; never by the other team."""
    team = team_at(state, key)
    if role not in team.members or not 0 <= index < len(team.conferences):
        return False
    return team.conferences[index].open or state.notes_allowed


def post_message(state: TeamState, team: TeamRecord, act: ChatMessage) -> Applied:
    if not act.text.strip() or len(act.text) > MAX_CHAT:  # NT-TEAM-6: free text, bounded
        raise Illegal(
            "NT-TEAM-6", T("a message has 1 to {most} characters", most=MAX_CHAT), "/text"
        )
    conf = team.conference
    assert conf is not None
    conf = replace(conf, messages=conf.messages + 1)
    team = set_conference(team, conf)
    data: JSON = {
        "conference": len(team.conferences) - 1,
        "seq": conf.messages,
        "author": act.role,
        "text": act.text,
    }
    return Applied(with_team(state, team), (TeamEvent("chat_message", team.key, team.key, data),))
