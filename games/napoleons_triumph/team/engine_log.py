"""The log lines of team play (games.core.log audiences): public lines for everyone, a team's own
lines (chat, rank proposals, corps drafts) for its seats only, a written order's lines for its
author (drafts) and, from its delivery at k+1, its recipient; never for anybody else before the
game is over (NT-TEAM-12, -13, -22, -23, table 3.5.1). The omniscient reader reads them all.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.core.i18n import T
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
            said = T(
                "[{team} conference] {author}: {text}",
                team=e.team,
                author=d["author"],
                text=d["text"],
            )
            out.append(team_line(data, e.team, said))
        elif e.kind == "ranks_proposed":
            proposed = T("{role} proposes the ranks {ranks}.", role=d["by"], ranks=_names(d))
            out.append(team_line(data, e.team, proposed))
        elif e.kind == "ranks_confirmed":
            confirmed = T("{role} confirms the ranks {ranks}.", role=d["by"], ranks=_names(d))
            out.append(team_line(data, e.team, confirmed))
        elif e.kind == "corps_drafted":
            drafted = T("The CinC drafts the corps: {corps}.", corps=d["corps"])
            out.append(team_line(data, e.team, drafted))
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
    if side == AL:
        title = T("Round {round}, Allied turn begins", round=d.get("round"))
    elif side == F:
        title = T("Round {round}, French turn begins", round=d.get("round"))
    else:
        title = f"Round {d.get('round')}, {SIDE_NAMES.get(side, side)} turn begins"
    out = e.to_json()
    assert isinstance(out, dict)
    return {**out, "notice": {"roles": list[JSON](members), "title": title}}


def _names(d: dict[str, JSON]) -> str:
    ranks = d.get("ranks")
    return ", ".join(str(r) for r in ranks) if isinstance(ranks, list) else "?"


def _conference_text(event: str, team: str, kind: JSON) -> str:
    """The initial or the night conference of a team opens, closes or is skipped."""
    if kind == phases.INITIAL:
        if event == "conference_opened":
            return T("Team {team}: the initial conference opens.", team=team)
        if event == "conference_closed":
            return T("Team {team}: the initial conference closes.", team=team)
        return T("Team {team}: the initial conference is skipped.", team=team)
    if kind == phases.NIGHT:
        if event == "conference_opened":
            return T("Team {team}: the night conference opens.", team=team)
        if event == "conference_closed":
            return T("Team {team}: the night conference closes.", team=team)
        return T("Team {team}: the night conference is skipped.", team=team)
    if event == "conference_opened":
        return T("Team {team}: the {kind} conference opens.", team=team, kind=kind)
    if event == "conference_closed":
        return T("Team {team}: the {kind} conference closes.", team=team, kind=kind)
    return T("Team {team}: the {kind} conference is skipped.", team=team, kind=kind)


def _public_text(e: phases.TeamEvent, d: dict[str, JSON]) -> str:
    if e.kind in ("conference_opened", "conference_closed", "conference_skipped"):
        return _conference_text(e.kind, e.team, d.get("kind"))
    if e.kind == "team_structure":
        return T(
            "Team {team}: ranks {ranks}; corps {corps}.",
            team=e.team,
            ranks=_names(d),
            corps=d.get("corps"),
        )
    if e.kind == "team_turn_start":
        return T(
            "Team turn of {side} in round {round} begins.", side=d.get("side"), round=d.get("round")
        )
    return f"Team {e.team}: {e.kind}."


def seal(team: Team, slots: tuple[W.WrittenOrder, ...], salt: str, board: Board) -> LogEntry:
    """3.4.5: the public commitments of the sealed slots, one per subordinate (n - 1)."""
    commits = W.public_commitments(team, slots, secret_salt=salt, game_id=GAME_ID, board=board)
    turn = slots[0].turn if slots else 0
    data: JSON = {"side": team.side, "turn": turn, "commitments": list[JSON](commits)}
    return public_line(
        T(
            "The {side} commander-in-chief's written orders of turn {turn} are sealed ({n} slots).",
            side=team.side,
            turn=turn,
            n=len(commits),
        ),
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
        words = (
            T(
                "Delivered to {recipient}: your written order of turn {turn}: {order}.",
                recipient=slot.recipient,
                turn=slot.turn,
                order=text,
            )
            if text
            else T("Delivered to {recipient}: no written order.", recipient=slot.recipient)
        )
        out.append(private_line(words, slot.recipient))
    return out
