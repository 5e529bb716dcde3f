"""The `team` section of a team game's view (rulebook chapter 19, digest 3.5.1 visibility):

* public: the teams (members, ranks once locked), the announced corps assignment, the team phase,
  the acting seat and the seat that must decide (3.3), the shared budget of the active side
  (NT-TEAM-33), the sealed orders' commitments (3.4.5: n - 1 per team turn);
* own team only: the open conference's rank proposal, confirmations and corps draft, the chat
  transcript while transcript_readable (NT-TEAM-12); the progress of the team's set-up
  (`setup`, NT-TEAM-27..31, AMB-11: organization, placements, detachments, the acting seat),
  nothing of it for the other team until the engine applies the side's set-up (then its own
  visibility rules); during a set-up `decider` is the acting seat for the own team, null for
  everyone else (the pace of a team's set-up is its secret);
* own seat only: the inbox (written_orders.readable_by: the recipient from k+1), the CinC's own
  drafts and sent orders (NT-TEAM-23);
* after the game: the archive of every written order (NT-TEAM-26).

Nothing here depends on another seat's unread order: the test_team_engine leak property holds
views equal with and without one (the commitments aside: salted hashes, 3.4.5).
"""

from __future__ import annotations

from games.core.protocol import JSON, OMNISCIENT
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import authority, phases
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team import setup_play as SP
from games.napoleons_triumph.team import written_orders as W
from games.napoleons_triumph.team.engine import acting, data_of, decider
from games.napoleons_triumph.team.engine_log import GAME_ID
from games.napoleons_triumph.team.engine_state import TeamData


def team_view(state: GameState, board: Board, role: str) -> JSON:
    data = data_of(state)
    layer = data.layer
    over = state.phase == "over"
    omni = role == OMNISCIENT
    mine = phases.team_of_role(layer, role)
    teams: list[JSON] = []
    for t in layer.teams:
        entry: dict[str, JSON] = {
            "key": t.key,
            "side": t.side,
            "members": list[JSON](t.members),
            "ranks": None if t.ranks is None else list[JSON](t.ranks),  # NT-TEAM-8
            "corps": dict[str, JSON](t.corps),  # NT-TEAM-8, -11
            "conference": None if t.conference is None else t.conference.kind,
        }
        if omni or (mine is not None and mine.key == t.key):
            entry["proposal"] = None if t.proposal is None else list[JSON](t.proposal)
            entry["confirmed"] = list[JSON](t.confirmed)
            entry["corps_draft"] = None if t.draft is None else dict[str, JSON](t.draft)
        teams.append(entry)
    slots = data.written(board)
    turn_of = data.started
    inbox: list[JSON] = [
        s.to_json(board)
        for s in slots
        if s.recipient == role
        and W.readable_by(s, role, team_turn=turn_of.get(s.side, 0), game_over=over)
    ]
    setup = SP.running(state, data)
    own_setup = setup is not None and (omni or (mine is not None and mine.side == setup.side))
    who = decider(data, state, board)
    if setup is not None:
        who = su.acting(setup) if own_setup else None
    out: dict[str, JSON] = {
        "phase": layer.phase,
        "phase_side": layer.phase_side,
        "teams": teams,
        "acting": acting(data, state) if state.phase == "turn" else None,
        "decider": who,
        "parts_ended": None if data.turn is None else data.turn.parts_ended,
        "budget": _budget(state),
        "inbox": inbox,
        "commitments": _commitments(state, data, board),
        "chat": _chat(data, role),
    }
    if setup is not None and own_setup:
        progress = su.to_json(setup)
        assert isinstance(progress, dict)
        out["setup"] = {**progress, "acting": su.acting(setup)}
    if omni or (mine is not None and mine.ranks is not None and mine.ranks[0] == role):
        out["sent"] = [s.to_json(board) for s in slots if omni or s.author == role]  # NT-TEAM-23
        out["drafts"] = dict(data.drafts) if omni or _is_author(data, role) else {}
    if over:
        out["archive"] = [  # NT-TEAM-26, 3.4.5: with nonce and commitment, to recompute
            W.revealed_json(s, secret_salt=state.salt, game_id=GAME_ID, board=board)
            for s in W.archive(slots, game_over=True)
        ]
    return out


def _is_author(data: TeamData, role: str) -> bool:
    turn = data.turn
    team = None if turn is None else data.team(turn.side)
    return team is not None and team.cinc.role == role


def _budget(state: GameState) -> JSON:
    b = authority.shared_budget(state, state.active)
    return {
        "side": b.side,
        "independent_left": b.independent_left,
        "corps_left": b.corps_left,
    }


def _commitments(state: GameState, data: TeamData, board: Board) -> list[JSON]:
    """3.4.5: every sealed slot (n - 1 per team turn, empty or not) with its public commitment,
    the same digest the seal's public log line published: 64 hex digits whatever the slot
    holds, so its length and its presence say nothing about the content (L2, L4)."""
    out: list[JSON] = []
    for slot in data.written(board):
        nonce = W.slot_nonce(state.salt, GAME_ID, slot)
        digest = W.commitment(slot, nonce, game_id=GAME_ID, board=board)
        out.append(
            {"side": slot.side, "turn": slot.turn, "recipient": slot.recipient, "digest": digest}
        )
    return out


def _chat(data: TeamData, role: str) -> list[JSON]:
    """NT-TEAM-12: the transcript of a conference while the role may read it."""
    out: list[JSON] = []
    for m in data.chat:
        key, conf = str(m["team"]), m["conference"]
        if isinstance(conf, int) and (
            role == OMNISCIENT or phases.transcript_readable(data.layer, role, key, conf)
        ):
            out.append(dict(m))
    return out


__all__ = ["GAME_ID", "team_view"]
