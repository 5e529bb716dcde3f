"""Written orders in a plain-text reply (team digest napoleons-triumph-team.md 3.8, "E-mail"):
the lines a commander-in-chief writes under his turn-start email, read into team actions.

    ORDER 2: Pratze, Pratzeberg, Aujezd verteidigen    -> write_order {recipient: rank 2's seat,
    ORDER 3: Telnitz angreifen                             text: "Pratze, Pratzeberg, ..."}
    NO ORDER 4                                          -> refused (see below)
    SEAL                                                -> refused (see below)

`ORDER <rank>:` addresses a subordinate by rank (ranks are public, NT-TEAM-8), so the reply
names no seat. The text after the colon goes unchanged into the payload's "text": the engine's
own grammar (written_orders_grammar, 3.4.2) reads it at validation, with its errors G-1..G-6 and
the closest toponym; the phase (NT-TEAM-18: before his first command) is the engine's too. A
later ORDER to the same rank replaces the earlier draft, as the API's PUT does.

Our engine has no action for the other two lines, so they are refused, never accepted and
ignored: `NO ORDER <rank>` (the engine has no explicit null order and no withdrawal: a
subordinate written nothing gets an empty slot at the seal, AMB-4), and `SEAL` (the orders are
sealed at the CinC's first command or when he ends his part, NT-TEAM-18 (a), AMB-3; there is no
separate seal action).

Refusals are `OrderLineError(rule, message)`; text.py turns them into `Rejection(rule,
"line <n>: ...", "/line/<n>")`. Only public facts are read: the ranks of the writer's team.
"""

from __future__ import annotations

import re

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import engine_state as ES
from games.napoleons_triumph.team.model import Team

WRITE_ORDER = "write_order"  # team/engine.py's kind (imported from there it would pull the
# schemas into text.py's layer, which the import contract forbids)
FORM = "NT-0"  # a form error, not a rule of the game (as text.py)
MAX_ORDER_CHARS = 2000  # the write_order schema's bound on "text"

_ORDER = re.compile(r"order\b\s*(?P<rank>[^:\s]*)\s*(?P<colon>:?)\s*(?P<text>.*)", re.I | re.S)
_NO_ORDER = re.compile(r"no\s+order\b\s*(?P<rank>.*)", re.I | re.S)
_SEAL = re.compile(r"seal\b\s*(?P<rest>.*)", re.I | re.S)


class OrderLineError(Exception):
    """A written-order line refused before the engine sees it: the rule and one sentence."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def is_team_line(line: str) -> bool:
    """Whether `line` is one of the written-order lines (ORDER, NO ORDER, SEAL), any case."""
    text = line.strip()
    return any(p.fullmatch(text) for p in (_ORDER, _NO_ORDER, _SEAL))


def read_team_line(state: GameState, role: str, line: str) -> tuple[str, dict[str, JSON]]:
    """The action of one written-order line (is_team_line), or OrderLineError naming the rule."""
    text = line.strip()
    if state.team is None:
        raise OrderLineError(
            "NT-TEAM-1",
            T(
                "written orders belong to team play (options.team_play); in this game each side "
                "is one player"
            ),
        )
    team = _writer_team(state, role)
    seal = _SEAL.fullmatch(text)
    if seal is not None:
        if seal["rest"]:
            raise OrderLineError(FORM, T("write SEAL alone on its line"))
        raise OrderLineError(
            "NT-TEAM-18",
            T(
                "there is no separate seal: your orders are sealed at your first command or when "
                "you end your part (NT-TEAM-18, AMB-3); leave the SEAL line out"
            ),
        )
    no_order = _NO_ORDER.fullmatch(text)
    if no_order is not None:
        seat = team.seat(_recipient(team, no_order["rank"], "NO ORDER <rank>"))
        raise OrderLineError(
            "NT-TEAM-18",
            T(
                "an order cannot be withdrawn by email: write nothing to rank {rank} and his slot "
                "is sealed empty (AMB-4); to change a draft send a new ORDER line",
                rank=seat.rank,
            ),
        )
    order = _ORDER.fullmatch(text)
    assert order is not None, "read_team_line is called for is_team_line lines only"
    if not order["colon"]:
        raise OrderLineError(
            FORM, T("write 'ORDER <rank>: <order>', e.g. ORDER 2: Telnitz angreifen")
        )
    recipient = _recipient(team, order["rank"], "ORDER <rank>: <order>")
    words = order["text"].strip()
    if len(words) > MAX_ORDER_CHARS:
        raise OrderLineError(
            FORM, T("an order has at most {most} characters", most=MAX_ORDER_CHARS)
        )
    return WRITE_ORDER, {"recipient": recipient, "text": words}


def _writer_team(state: GameState, role: str) -> Team:
    side = state.roles.get(role)
    team = ES.load(state.team).team(side) if state.team is not None and side else None
    if team is None:
        raise OrderLineError(
            "NT-TEAM-5", T("your team's ranks are not settled yet: orders are written after them")
        )
    if team.cinc.role != role:
        raise OrderLineError(
            "NT-TEAM-17",
            T(
                "only the commander-in-chief (rank 1) writes orders; you are rank {rank}",
                rank=team.seat(role).rank,
            ),
        )
    return team


def _recipient(team: Team, raw: str, form: str) -> str:
    """The seat of the subordinate of rank `raw` (NT-TEAM-18 (c): a teammate, not himself)."""
    word = raw.strip()
    if not word.isdigit() or len(word) > 2:
        raise OrderLineError(
            FORM, T("write {form} with the rank as a number, e.g. 2", form=repr(form))
        )
    rank = int(word)
    if len(team.seats) < 2:
        raise OrderLineError("NT-TEAM-18", T("your team has no other seat to write to"))
    last = len(team.seats)
    if rank == 1:
        raise OrderLineError(
            "NT-TEAM-18",
            T("rank 1 is you: write to your subordinates, ranks 2 to {last}", last=last),
        )
    if not 2 <= rank <= last:
        raise OrderLineError(
            "NT-TEAM-18",
            T("your team has no rank {rank}: your subordinates are rank 2", rank=rank)
            if last == 2
            else T(
                "your team has no rank {rank}: your subordinates are ranks 2 to {last}",
                rank=rank,
                last=last,
            ),
        )
    return team.seats[rank - 1].role
