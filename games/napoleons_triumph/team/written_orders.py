"""Written orders of team play (digest napoleons-triumph-team.md 2.4 NT-TEAM-17..26 and 3.4):
who may write to whom, validation at submission, the slots of a team turn and their life cycle,
sealed commitments and the k -> k+1 delivery. Pure functions over `model.Team`; the grammar and
the canonical form are in `written_orders_grammar` (re-exported here).

Vocabulary: a *slot* (`WrittenOrder`) is what the CinC of a side wrote to one subordinate in team
turn k (round index, night round included); `order is None` is "no order" (AMB-4). `team_turn`
below is the index of the latest turn of the slot's side that has STARTED: it becomes k+1 in the
transition TEAM_TURN_START(side, k+1) (after the other side's turn k and, in DEC1's night, after
this side's night conference, 3.4.6), and stays k+1 during the other side's turn.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from games.core.canonical import canonical_json
from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.team.model import Team, TeamSeat
from games.napoleons_triumph.team.written_orders_grammar import (
    LANGUAGES,
    ORDER_INVALID,
    Order,
    OrderRefused,
    Verb,
    canonical_order,
    closest_toponym,
    gazetteer_problems,
    normalise_with_offsets,
    order_from_json,
    order_json,
    parse_order,
    text_de,
    text_en,
)

__all__ = [
    "LANGUAGES",
    "ORDER_INVALID",
    "Order",
    "OrderRefused",
    "SlotState",
    "Verb",
    "WrittenOrder",
    "archive",
    "canonical_order",
    "canonical_text",
    "closest_toponym",
    "commitment",
    "draft",
    "draft_rejections",
    "gazetteer_problems",
    "inbox",
    "may_write",
    "normalise_with_offsets",
    "order_from_json",
    "order_json",
    "parse",
    "parse_order",
    "public_commitments",
    "readable_by",
    "recipients",
    "revealed_json",
    "seal",
    "slot_nonce",
    "slot_state",
    "slots_per_turn",
    "text_de",
    "text_en",
    "transition",
    "verify",
]

NOT_CINC = "not_cinc"  # 403 of 3.4.4
BAD_RECIPIENT = "bad_recipient"  # 422 of 3.4.4
ORDER_PHASE_CLOSED = "order_phase_closed"  # 409 of 3.4.4


@dataclass(frozen=True, slots=True)
class WrittenOrder:
    """One slot (digest 3.1 `WrittenOrder`): the order (or None) that `author`, the CinC of
    `side`, wrote to `recipient` in team turn `turn` (k)."""

    side: str
    author: str
    recipient: str
    turn: int
    order: Order | None

    def __post_init__(self) -> None:
        if self.author == self.recipient:  # NT-TEAM-18 (c)
            raise ValueError("the CinC does not write to himself")

    @property
    def readable_from_turn(self) -> int:  # NT-TEAM-22: always k + 1
        return self.turn + 1

    def to_json(self, board: Board) -> dict[str, JSON]:
        return {
            "side": self.side,
            "author": self.author,
            "recipient": self.recipient,
            "turn": self.turn,
            "readable_from_turn": self.readable_from_turn,
            "order": None if self.order is None else order_json(self.order, board),
        }

    @staticmethod
    def from_json(data: Mapping[str, JSON], board: Board) -> WrittenOrder:
        turn = data["turn"]
        assert isinstance(turn, int)
        raw = data["order"]
        order = None if raw is None else order_from_json(raw, board, "/order")
        return WrittenOrder(
            str(data["side"]), str(data["author"]), str(data["recipient"]), turn, order
        )


# ------------------------------------------------------------------------------ who writes to whom


def slots_per_turn(team: Team) -> int:
    """NT-TEAM-2 table, NT-TEAM-18: one slot per subordinate, n - 1 per team turn."""
    return len(team.seats) - 1


def may_write(team: Team, author: str) -> bool:
    """NT-TEAM-17: only the CinC writes (and only a CinC with a teammate has anyone to write to)."""
    return any(s.role == author and s.is_cinc for s in team.seats) and len(team.seats) > 1


def recipients(team: Team, author: str) -> tuple[TeamSeat, ...]:
    """NT-TEAM-18 (c): the CinC's teammates in rank order; nobody for anyone else."""
    return team.seats[1:] if may_write(team, author) else ()


def _check_submission(team: Team, author: str, recipient: str, phase_open: bool) -> None:
    """3.4.4, in its order: the order phase, the author, the recipient."""
    if not phase_open:  # NT-TEAM-18 (a), AMB-3
        raise OrderRefused(
            "NT-TEAM-18",
            ORDER_PHASE_CLOSED,
            T("orders are written at the start of the CinC's turn only"),
        )
    if not any(s.role == author and s.is_cinc for s in team.seats):  # NT-TEAM-17
        raise OrderRefused(
            "NT-TEAM-17", NOT_CINC, T("only the commander-in-chief gives written orders")
        )
    # NT-TEAM-18 (c): the same body for himself, the other team and a seat that does not exist (T38)
    if recipient not in {s.role for s in recipients(team, author)}:
        raise OrderRefused(
            "NT-TEAM-18",
            BAD_RECIPIENT,
            T("a written order goes to one teammate of the commander-in-chief"),
            "/recipient",
        )


def draft(
    team: Team,
    author: str,
    recipient: str,
    turn: int,
    order: str | JSON,
    board: Board,
    *,
    phase_open: bool,
    language: str = "any",
    max_toponyms: int | None = None,
) -> WrittenOrder:
    """3.4.4: a draft the CinC submits in his order phase, as text (3.4.2, at "/text") or as the
    structured form (3.4.3, at "/order"); OrderRefused otherwise. A recipient with no pieces left
    is valid (AMB-24). `max_toponyms` is the house rule options.order_max_toponyms (None = none).
    Replacing a draft is the caller's: one slot per recipient (`seal`)."""
    _check_submission(team, author, recipient, phase_open)
    content = (
        parse_order(order, board, language=language)
        if isinstance(order, str)
        else order_from_json(order, board, "/order")
    )
    if max_toponyms is not None and len(content.toponyms) > max_toponyms:  # 3.4.3 house rule
        raise OrderRefused(
            "NT-TEAM-21",
            ORDER_INVALID,
            T("this game allows at most {n} toponyms an order", n=max_toponyms),
        )
    return WrittenOrder(team.side, author, recipient, turn, content)


def draft_rejections(
    team: Team,
    author: str,
    recipient: str,
    turn: int,
    order: str | JSON,
    board: Board,
    *,
    phase_open: bool,
    language: str = "any",
    max_toponyms: int | None = None,
) -> tuple[Rejection, ...]:
    """`draft` for a ruleset's `validate`: () when it is accepted, else its one rejection."""
    try:
        draft(
            team,
            author,
            recipient,
            turn,
            order,
            board,
            phase_open=phase_open,
            language=language,
            max_toponyms=max_toponyms,
        )
    except OrderRefused as e:
        return (e.rejection,)
    return ()


def parse(
    text: str,
    board: Board,
    *,
    side: str,
    author: str,
    recipient: str,
    turn: int,
    language: str = "any",
) -> WrittenOrder:
    """The text form of a slot's order (3.4.2) with its addressing; see `canonical_text`."""
    return WrittenOrder(side, author, recipient, turn, parse_order(text, board, language=language))


def canonical_text(slot: WrittenOrder, board: Board, language: str = "de") -> str:
    """3.4.3: the canonical text of a slot's order ("" for no order); `parse` reads it back."""
    if slot.order is None:
        return ""
    return text_en(slot.order, board) if language == "en" else text_de(slot.order, board)


# ------------------------------------------------------------------------------ slots, life cycle


class SlotState(StrEnum):  # 3.4.1
    DRAFT = "DRAFT"
    SEALED = "SEALED"
    DELIVERED = "DELIVERED"
    REVEALED = "REVEALED"


# 3.4.1: write/replace/withdraw a draft; seal; deliver at TEAM_TURN_START(k+1); reveal at
# GAME_OVER (from SEALED too when the game ends before k+1, NT-TEAM-22). A game that ends while
# the order phase is open seals the drafts first (its end closes the phase, AMB-3), so
# DRAFT -> REVEALED is not a transition (digest silent; our choice).
TRANSITIONS: Mapping[SlotState, tuple[SlotState, ...]] = {
    SlotState.DRAFT: (SlotState.DRAFT, SlotState.SEALED),
    SlotState.SEALED: (SlotState.DELIVERED, SlotState.REVEALED),
    SlotState.DELIVERED: (SlotState.REVEALED,),
    SlotState.REVEALED: (),
}


def transition(state: SlotState, to: SlotState) -> SlotState:
    """3.4.1: `to` if allowed; a write or a second seal after the seal is refused (T37)."""
    if to not in TRANSITIONS[state]:
        raise OrderRefused(
            "NT-TEAM-18",
            ORDER_PHASE_CLOSED,
            T(
                "a {state} order cannot become {other}",
                state=state.value.lower(),
                other=to.value.lower(),
            ),
        )
    return to


def slot_state(
    slot: WrittenOrder, *, team_turn: int, game_over: bool, sealed: bool = True
) -> SlotState:
    """3.4.1: the state of a slot of turn k given its side's `team_turn` (module docstring)."""
    if game_over:
        return SlotState.REVEALED
    if team_turn >= slot.readable_from_turn:
        return SlotState.DELIVERED
    return SlotState.SEALED if sealed else SlotState.DRAFT


def seal(team: Team, turn: int, drafts: Mapping[str, Order | None]) -> tuple[WrittenOrder, ...]:
    """NT-TEAM-18 (b), AMB-4: at the close of the order phase, one slot per subordinate in rank
    order, `None` where the CinC wrote nothing. `drafts`: recipient role -> its last draft."""
    author = team.cinc.role
    allowed = {s.role for s in recipients(team, author)}
    if any(r not in allowed for r in drafts):
        raise OrderRefused(
            "NT-TEAM-18",
            BAD_RECIPIENT,
            T("a written order goes to one teammate of the commander-in-chief"),
        )
    return tuple(
        WrittenOrder(team.side, author, s.role, turn, drafts.get(s.role)) for s in team.seats[1:]
    )


# ------------------------------------------------------------------------------ delivery (3.4.6)


def readable_by(slot: WrittenOrder, role: str, *, team_turn: int, game_over: bool) -> bool:
    """NT-TEAM-22, -23, -26, table 3.5.1: the author always; the recipient from turn k+1 of his
    side to the end; after the game everyone (AMB-8 default `archive_audience = all`); nobody
    else. The same predicate says who may know that the slot exists or is empty (AMB-7)."""
    if game_over or role == slot.author:
        return True
    return role == slot.recipient and team_turn >= slot.readable_from_turn


def inbox(
    slots: Iterable[WrittenOrder], role: str, *, team_turn: int, game_over: bool
) -> tuple[WrittenOrder, ...]:
    """NT-TEAM-22: the slots addressed to `role` that he may read now, by turn, empty slots
    included (table 3.5.1: from k+1 the recipient knows whether his own slot holds an order);
    it depends on his own slots only, so another seat's orders never change it (NT-TEAM-23)."""
    mine = [
        s
        for s in slots
        if s.recipient == role and readable_by(s, role, team_turn=team_turn, game_over=game_over)
    ]
    return tuple(sorted(mine, key=lambda s: s.turn))


def archive(slots: Iterable[WrittenOrder], *, game_over: bool) -> tuple[WrittenOrder, ...]:
    """NT-TEAM-26: every slot of both teams, null slots included, once the game is over; nothing
    before. Ordered by turn, side, recipient."""
    if not game_over:
        return ()
    return tuple(sorted(slots, key=lambda s: (s.turn, s.side, s.recipient)))


# ------------------------------------------------------------------------------ commitments (3.4.5)


def slot_nonce(secret_salt: str, game_id: str, slot: WrittenOrder) -> bytes:
    """3.4.5 (SRV-2): the slot's 32-byte nonce. The digest draws it from `secrets`; the engine is
    deterministic, so it is HMAC-SHA256(game's secret salt, slot id) - secret while the salt is,
    independent of the content, and revealed (not the salt) at GAME_OVER."""
    slot_id = canonical_json(
        {"v": 1, "game": game_id, "side": slot.side, "recipient": slot.recipient, "turn": slot.turn}
    )
    return hmac.new(secret_salt.encode("utf-8"), slot_id.encode("utf-8"), hashlib.sha256).digest()


def commitment(slot: WrittenOrder, nonce: bytes, *, game_id: str, board: Board) -> str:
    """3.4.5: sha256(nonce + canonical JSON of the slot), 64 hex digits, the digest's formula."""
    payload = canonical_json(
        {
            "v": 1,
            "game": game_id,
            "side": slot.side,
            "author": slot.author,
            "recipient": slot.recipient,
            "turn": slot.turn,
            "order": None if slot.order is None else order_json(slot.order, board),
        }
    ).encode("utf-8")
    return hashlib.sha256(nonce + payload).hexdigest()


def verify(published: str, slot: WrittenOrder, nonce: bytes, *, game_id: str, board: Board) -> bool:
    """NT-TEAM-26, T46: does the revealed slot and nonce reproduce the published commitment?"""
    if len(published) != 64 or any(c not in "0123456789abcdef" for c in published):
        return False
    return hmac.compare_digest(published, commitment(slot, nonce, game_id=game_id, board=board))


def public_commitments(
    team: Team, slots: Iterable[WrittenOrder], *, secret_salt: str, game_id: str, board: Board
) -> list[str]:
    """3.4.5: the public event at TEAM_TURN_END(side, k): one commitment per subordinate in rank
    order, always n - 1 of them (`slots` = the sealed slots of that turn, one per subordinate)."""
    by_recipient = {s.recipient: s for s in slots}
    if sorted(by_recipient) != sorted(s.role for s in team.seats[1:]):
        raise ValueError("one sealed slot per subordinate (NT-TEAM-18)")
    out = []
    for seat in team.seats[1:]:
        slot = by_recipient[seat.role]
        out.append(
            commitment(slot, slot_nonce(secret_salt, game_id, slot), game_id=game_id, board=board)
        )
    return out


def revealed_json(
    slot: WrittenOrder, *, secret_salt: str, game_id: str, board: Board
) -> dict[str, JSON]:
    """NT-TEAM-26: the archive row shown to all at GAME_OVER: the slot, its nonce (hex) and
    commitment, so that anyone can recompute 3.4.5."""
    nonce = slot_nonce(secret_salt, game_id, slot)
    return {
        **slot.to_json(board),
        "nonce": nonce.hex(),
        "commitment": commitment(slot, nonce, game_id=game_id, board=board),
    }
