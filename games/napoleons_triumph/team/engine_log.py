"""The log lines of team play (games.core.log audiences): public lines for everyone, a team's own
lines (chat, rank proposals, corps drafts) for its seats only, a written order's lines for its
author (drafts) and, from its delivery at k+1, its recipient; never for anybody else before the
game is over (NT-TEAM-12, -13, -22, -23, table 3.5.1). The omniscient reader reads them all.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.protocol import JSON, OMNISCIENT, LogEntry
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.state import AL, F
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team import written_orders as W
from games.napoleons_triumph.team.engine_state import TeamData
from games.napoleons_triumph.team.model import Team

GAME_ID = "napoleons_triumph"  # 3.4.5: the commitments' domain (the engine knows no game id)


def public_line(text: str, data: JSON = None) -> LogEntry:
    return LogEntry(text, None, data)


def private_line(text: str, *roles: str) -> LogEntry:
    return LogEntry(text, frozenset({*roles, OMNISCIENT}))


def team_line(data: TeamData, key: str, text: str) -> LogEntry:
    members = phases.team_at(data.layer, key).members
    return LogEntry(text, frozenset({*members, OMNISCIENT}))


def event_lines(data: TeamData, events: Iterable[phases.TeamEvent], board: Board) -> list[LogEntry]:
    """One line per team event, for its audience; chat messages are kept for the transcript."""
    out: list[LogEntry] = []
    for e in events:
        d = e.data if isinstance(e.data, dict) else {}
        if e.kind == "chat_message":
            data.chat.append({"team": e.team, **d})
            out.append(team_line(data, e.team, f"[{e.team} conference] {d['author']}: {d['text']}"))
        elif e.kind == "ranks_proposed":
            out.append(team_line(data, e.team, f"{d['by']} proposes the ranks {_names(d)}."))
        elif e.kind == "ranks_confirmed":
            out.append(team_line(data, e.team, f"{d['by']} confirms the ranks {_names(d)}."))
        elif e.kind == "corps_drafted":
            out.append(team_line(data, e.team, f"The CinC drafts the corps: {d['corps']}."))
        elif e.kind == "team_turn_start":
            out.append(public_line(_public_text(e, d), _turn_start_data(data, e, d)))
        elif e.audience == phases.PUBLIC:
            out.append(public_line(_public_text(e, d), e.to_json()))
        else:  # an event kind this module does not know: its own team only
            out.append(team_line(data, e.team, f"{e.kind}: {d}"))
    return out


SIDE_NAMES = {AL: "Allied", F: "French"}  # the title of a team turn start (L5)


def _turn_start_data(data: TeamData, e: phases.TeamEvent, d: dict[str, JSON]) -> JSON:
    """The event's data plus the notice convention of games.core.protocol.LogEntry: every member
    of the team whose turn begins is told once, all with the same title (L5, SRV-9)."""
    members = phases.team_at(data.layer, e.team).members
    side = str(d.get("side", e.team))
    title = f"Round {d.get('round')}, {SIDE_NAMES.get(side, side)} turn begins"
    out = e.to_json()
    assert isinstance(out, dict)
    return {**out, "notice": {"roles": list[JSON](members), "title": title}}


def _names(d: dict[str, JSON]) -> str:
    ranks = d.get("ranks")
    return ", ".join(str(r) for r in ranks) if isinstance(ranks, list) else "?"


def _public_text(e: phases.TeamEvent, d: dict[str, JSON]) -> str:
    if e.kind == "conference_opened":
        return f"Team {e.team}: the {d.get('kind')} conference opens."
    if e.kind in ("conference_closed", "conference_skipped"):
        what = "closes" if e.kind == "conference_closed" else "is skipped"
        return f"Team {e.team}: the {d.get('kind')} conference {what}."
    if e.kind == "team_structure":
        return f"Team {e.team}: ranks {_names(d)}; corps {d.get('corps')}."
    if e.kind == "team_turn_start":
        return f"Team turn of {d.get('side')} in round {d.get('round')} begins."
    return f"Team {e.team}: {e.kind}."


def seal(team: Team, slots: tuple[W.WrittenOrder, ...], salt: str, board: Board) -> LogEntry:
    """3.4.5: the public commitments of the sealed slots, one per subordinate (n - 1)."""
    commits = W.public_commitments(team, slots, secret_salt=salt, game_id=GAME_ID, board=board)
    turn = slots[0].turn if slots else 0
    data: JSON = {"side": team.side, "turn": turn, "commitments": list[JSON](commits)}
    return public_line(
        f"The {team.side} commander-in-chief's written orders of turn {turn} are sealed "
        f"({len(commits)} slots).",
        data,
    )


def deliveries(data: TeamData, side: str, k: int, board: Board) -> list[LogEntry]:
    """3.4.6: at TEAM_TURN_START(side, k) each recipient learns his slot of turn k - 1 (also
    that it is empty: table 3.5.1), the line for him alone."""
    out = []
    for raw in data.slots:
        slot = W.WrittenOrder.from_json(raw, board)
        if slot.side != side or slot.turn != k - 1:
            continue
        text = W.canonical_text(slot, board, "en")
        words = f"your written order of turn {slot.turn}: {text}" if text else "no written order"
        out.append(private_line(f"Delivered to {slot.recipient}: {words}.", slot.recipient))
    return out
