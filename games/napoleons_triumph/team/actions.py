"""The team actions (digest 2.2, 3.7): their kinds and frozen classes, `parse_action` (a
protocol Action to a team action; a malformed payload is refused with the action's rule) and
`action_to_json`. Rules: NT-TEAM-4, -5, -6, -7, -9, -10, -13.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from games.core.i18n import T
from games.core.protocol import JSON, Action
from games.napoleons_triumph.errors import Illegal

# Action kinds (digest 2.2, 3.7)
SET_RANKS = "set_ranks"
CONFIRM_RANKS = "confirm_ranks"
ASSIGN_CORPS = "assign_corps"
CLOSE_CONFERENCE = "close_conference"
SKIP_CONFERENCE = "skip_conference"
CHAT_MESSAGE = "chat_message"
KINDS = (SET_RANKS, CONFIRM_RANKS, ASSIGN_CORPS, CLOSE_CONFERENCE, SKIP_CONFERENCE, CHAT_MESSAGE)


@dataclass(frozen=True, slots=True)
class SetRanks:  # NT-TEAM-5
    kind: ClassVar[str] = SET_RANKS
    role: str
    ranks: tuple[str, ...]  # rank order, rank 1 first


@dataclass(frozen=True, slots=True)
class ConfirmRanks:  # NT-TEAM-5: names the proposal it confirms
    kind: ClassVar[str] = CONFIRM_RANKS
    role: str
    ranks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AssignCorps:  # NT-TEAM-7, NT-TEAM-10
    kind: ClassVar[str] = ASSIGN_CORPS
    role: str
    corps: tuple[tuple[str, str], ...]  # (commander, role), in the payload's order


@dataclass(frozen=True, slots=True)
class CloseConference:  # NT-TEAM-4, NT-TEAM-9
    kind: ClassVar[str] = CLOSE_CONFERENCE
    role: str


@dataclass(frozen=True, slots=True)
class SkipConference:  # NT-TEAM-9 (AMB-13), AMB-10
    kind: ClassVar[str] = SKIP_CONFERENCE
    role: str


@dataclass(frozen=True, slots=True)
class ChatMessage:  # NT-TEAM-6, NT-TEAM-13, 3.7
    kind: ClassVar[str] = CHAT_MESSAGE
    role: str
    text: str


TeamAction = SetRanks | ConfirmRanks | AssignCorps | CloseConference | SkipConference | ChatMessage


def kind_of(action: TeamAction) -> str:
    return action.kind


def pair_obj(pairs: Sequence[tuple[str, str]]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for a, b in pairs:
        out[a] = b
    return out


def ranks_payload(ranks: tuple[str, ...]) -> JSON:
    return {"ranks": {r: i + 1 for i, r in enumerate(ranks)}}


def action_to_json(action: TeamAction) -> Action:
    """The protocol Action (role, kind, payload) of a team action."""
    kind = kind_of(action)
    payload: JSON = None
    if isinstance(action, SetRanks | ConfirmRanks):
        payload = ranks_payload(action.ranks)
    elif isinstance(action, AssignCorps):
        payload = {"corps": pair_obj(action.corps)}
    elif isinstance(action, ChatMessage):
        payload = {"text": action.text}
    return Action(action.role, kind, payload)


_PAYLOAD_RULE = {
    SET_RANKS: "NT-TEAM-5",
    CONFIRM_RANKS: "NT-TEAM-5",
    ASSIGN_CORPS: "NT-TEAM-7",
    CLOSE_CONFERENCE: "NT-TEAM-4",
    SKIP_CONFERENCE: "NT-TEAM-9",
    CHAT_MESSAGE: "NT-TEAM-6",
}


def parse_action(action: Action) -> TeamAction:
    """A team action from the protocol's Action; a malformed payload is refused with the
    action's rule. Payloads: set_ranks / confirm_ranks {"ranks": {role: rank}} (the digest's
    T4 form); assign_corps {"corps": {commander: role}}; chat_message {"text": str};
    close_conference / skip_conference: no payload (null or {})."""
    kind, role, p = action.kind, action.role, action.payload
    if kind not in KINDS:
        raise Illegal("NT-TEAM-13", T("{kind} is not a team action", kind=repr(kind)), "/kind")
    rule = _PAYLOAD_RULE[kind]
    if kind in (CLOSE_CONFERENCE, SKIP_CONFERENCE):
        if p not in (None, {}):
            raise Illegal(rule, T("this action has no payload"), "/")
        return CloseConference(role) if kind == CLOSE_CONFERENCE else SkipConference(role)
    if not isinstance(p, dict):
        raise Illegal(rule, T("the payload must be a JSON object"), "/")
    if kind == CHAT_MESSAGE:
        text = p.get("text")
        if set(p) != {"text"} or not isinstance(text, str):
            raise Illegal(rule, T("a chat message is {form}", form='{"text": "..."}'), "/text")
        return ChatMessage(role, text)
    if kind == ASSIGN_CORPS:
        corps = p.get("corps")
        if set(p) != {"corps"} or not isinstance(corps, dict):
            raise Illegal(
                rule, T("an assignment is {form}", form='{"corps": {commander: seat}}'), "/corps"
            )
        pairs = []
        for c, r in corps.items():
            if not isinstance(r, str):
                raise Illegal(
                    rule, T("corps {corps} must name a seat", corps=repr(c)), f"/corps/{c}"
                )
            pairs.append((c, r))
        return AssignCorps(role, tuple(pairs))
    ranks = p.get("ranks")
    if set(p) != {"ranks"} or not isinstance(ranks, dict):
        raise Illegal(rule, T("ranks are {form}", form='{"ranks": {seat: rank}}'), "/ranks")
    by_rank: dict[int, str] = {}
    for r, n in ranks.items():
        if not isinstance(n, int) or isinstance(n, bool) or n in by_rank:
            raise Illegal(
                rule, T("seat {seat} needs its own rank number", seat=repr(r)), f"/ranks/{r}"
            )
        by_rank[n] = r
    if sorted(by_rank) != list(range(1, len(by_rank) + 1)):
        raise Illegal(rule, T("ranks are 1..n without gaps"), "/ranks")
    order = tuple(by_rank[n] for n in sorted(by_rank))
    return SetRanks(role, order) if kind == SET_RANKS else ConfirmRanks(role, order)
