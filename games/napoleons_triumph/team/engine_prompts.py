"""Who is prompted in a team game, and with which kinds (rulebook chapter 19, digest 3.2, 3.3):
in a conference every seat of a conferring team (they may talk; proposing and confirming the
ranks, the CinC's corps assignment and close); in set-up the acting seat of the team set-up
machine with its kinds (setup_play.py, NT-TEAM-27..31); in
play the acting seat of the team turn (NT-TEAM-32: commands, `end_part`, the CinC's
`write_order` in his own part) or the one seat routing.route names for an open decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations

from games.core.i18n import T
from games.core.protocol import JSON, Prompt, Role
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team import setup_play as SP
from games.napoleons_triumph.team.actions import ranks_payload
from games.napoleons_triumph.team.engine import (
    END_PART,
    WRITE_ORDER,
    Core,
    data_of,
    decider,
    may_write,
)
from games.napoleons_triumph.team.engine_state import TeamData


def prompts(core: Core, state: GameState) -> Mapping[Role, Prompt]:
    if state.phase == "over":
        return {}
    data = data_of(state)
    layer = data.layer
    if layer.phase in (phases.CONF_INITIAL, phases.CONF_NIGHT):
        return _conference(data)
    board = board_for(state)
    setup = SP.running(state, data)
    if setup is not None:
        acting = su.acting(setup)
        if acting is None:
            return {}
        offered = SP.prompt_kinds(state, setup, acting)
        return {acting: Prompt(acting, offered, SP.prompt_text(setup))}
    who = decider(data, state, board)
    if who is None:
        return {}
    base = core.core_prompts(state).get(who)
    if base is None:
        return {}
    kinds: dict[str, JSON] = dict(base.kinds)
    text = base.text
    if state.phase == "turn" and state.pending is None:
        kinds.pop("end_turn", None)
        kinds[END_PART] = T("end your part of the team turn (NT-TEAM-32)")
        if may_write(data, state, who):
            kinds[WRITE_ORDER] = T("a written order to a subordinate (NT-TEAM-17)")
        text = T("Your part of the team turn.")
    return {who: Prompt(who, kinds, text)}


def team_choices(state: GameState, role: str, kind: str) -> JSON:
    """The legal payloads of a team kind the seat is prompted for: the payload-less ones and the
    rank orders it may propose or confirm, listed in full; free text (a chat message, a written
    order) and the corps assignment (too many to list) are null: the schema and the view say
    what they take. Set-up kinds: setup_play.choices."""
    if kind in SP.KINDS:
        data = data_of(state)
        return SP.choices(state, data, board_for(state), role, kind)
    if kind in (END_PART, phases.CLOSE_CONFERENCE, phases.SKIP_CONFERENCE):
        return {"payloads": [{}], "complete": True}
    team = phases.team_of_role(data_of(state).layer, role)
    if team is None:
        return {"payloads": [], "complete": True}
    if kind == phases.CONFIRM_RANKS:
        proposal = [] if team.proposal is None else [ranks_payload(team.proposal)]
        return {"payloads": list[JSON](proposal), "complete": True}
    if kind == phases.SET_RANKS and len(team.members) <= 4:  # NT-TEAM-2: at most 4! orders
        orders = [ranks_payload(p) for p in permutations(sorted(team.members))]
        return {"payloads": list[JSON](orders), "complete": True}
    return None


def _conference(data: TeamData) -> dict[Role, Prompt]:
    layer = data.layer
    out: dict[Role, Prompt] = {}
    for t in layer.teams:
        conf = t.conference
        if conf is None:
            continue
        if layer.phase == phases.CONF_NIGHT and t.side != layer.phase_side:
            continue
        for role in t.members:
            kinds: dict[str, JSON] = {}
            if phases.chat_open(layer, t.key):
                kinds[phases.CHAT_MESSAGE] = T("talk to your team (NT-TEAM-6)")
            if t.ranks is None:
                kinds[phases.SET_RANKS] = T("propose the ranks (NT-TEAM-5)")
                if t.proposal is not None and role not in t.confirmed:
                    kinds[phases.CONFIRM_RANKS] = T("confirm the proposed ranks (NT-TEAM-5)")
            if role == t.cinc:
                kinds[phases.ASSIGN_CORPS] = T("assign the corps (NT-TEAM-7)")
                kinds[phases.CLOSE_CONFERENCE] = T("close the conference (NT-TEAM-4)")
                if conf.kind == phases.NIGHT and conf.messages == 0:
                    kinds[phases.SKIP_CONFERENCE] = T("skip the night conference (NT-TEAM-9)")
            if conf.kind == phases.INITIAL:
                text = T("The initial conference of team {team} is open.", team=t.key)
            elif conf.kind == phases.NIGHT:
                text = T("The night conference of team {team} is open.", team=t.key)
            else:
                text = T(
                    "The {kind} conference of team {team} is open.", kind=conf.kind, team=t.key
                )
            out[role] = Prompt(role, kinds, text)
    return dict(sorted(out.items()))
