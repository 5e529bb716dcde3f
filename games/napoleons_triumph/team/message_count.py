"""How many messages each seat of a team game must answer (issue 13 item 3; bench/team_messages.py).

A *message* is what a correspondence player feels as one mail to answer: a maximal run of
consecutive actions by one seat with no other seat acting in between (he answers them all in one
visit). Engine auto-answers (standing instructions) are no action of any seat, so they do not
break a run. A message is of the stage `play` when it holds an action of the game turns in play
(engine phase `turn`, no conference open); its group and round are those of its first such
action. Otherwise it is a `conference` or `setup` message (by its first action).

Groups of play messages: `own` (the seat's part of its team turn: commands, `end_part`,
`write_order`), `resumed` (the same part again, after another seat acted in between, e.g. a
defender answering the seat's threat), `defence` (a decision of the side not moving: the
defender's) and `other` (a decision of the moving side: the attacker's declarations, losses,
anchors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team.engine import data_of

CONFERENCE, SETUP, PLAY = "conference", "setup", "play"
OWN, RESUMED, DEFENCE, OTHER = "own", "resumed", "defence", "other"
GROUPS = (OWN, RESUMED, DEFENCE, OTHER)


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a seat, classified in the state it was sent in."""

    seat: str
    stage: str  # CONFERENCE | SETUP | PLAY
    group: str  # for PLAY: OWN | DEFENCE | OTHER (RESUMED is told by `messages`); else the stage
    round: int  # the time track's round (state.round)
    turn: int = 0  # the player turn (state.turn_number)


@dataclass(frozen=True, slots=True)
class Message:
    seat: str
    stage: str
    group: str
    round: int
    actions: int


def step_of(state: GameState, seat: str) -> Step:
    """The stage and group of an action `seat` sends in `state` (a team game)."""
    layer_phase = data_of(state).layer.phase
    if layer_phase in (phases.CONF_INITIAL, phases.CONF_NIGHT):
        return Step(seat, CONFERENCE, CONFERENCE, state.round)
    if state.phase != "turn":
        return Step(seat, SETUP, SETUP, state.round)
    pending = state.pending
    if pending is None:
        group = OWN
    elif pending.side == state.active:
        group = OTHER
    else:
        group = DEFENCE
    return Step(seat, PLAY, group, state.round, state.turn_number)


def messages(steps: Sequence[Step]) -> list[Message]:
    """The messages of a game's actions in order: maximal runs of one seat's actions."""
    out: list[Message] = []
    parts: list[tuple[str, int]] = []  # (seat, turn) of the own parts begun so far
    i = 0
    while i < len(steps):
        j = i
        while j < len(steps) and steps[j].seat == steps[i].seat:
            j += 1
        run = steps[i:j]
        first = next((s for s in run if s.stage == PLAY), run[0])
        group = first.group
        if group == OWN:
            if (first.seat, first.turn) in parts:
                group = RESUMED
            else:
                parts.append((first.seat, first.turn))
        out.append(Message(first.seat, first.stage, group, first.round, len(run)))
        i = j
    return out


def rounds_played(steps: Sequence[Step]) -> int:
    """The number of rounds of the time track in which some action in play was sent."""
    return len({s.round for s in steps if s.stage == PLAY})
