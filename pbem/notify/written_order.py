"""The written-order block of a team turn start mail (team digest 3.8 "E-mail", L1, L5).

Built ONLY from the recipient's own engine view (its `team` section: the public teams and ranks,
and the recipient's own inbox, which holds only the slots delivered to that role): never from
another seat's view, never from raw state. Every seat of a team gets the block in the same place;
only its line varies:

* the commander-in-chief (rank 1, public, NT-TEAM-8): he writes the orders of this turn;
* a subordinate whose slot of the team's previous turn holds an order: "Written order from your
  commander-in-chief (written in round k): <text>";
* any other subordinate (an empty slot, or no slot yet): "No written order was delivered to you
  this round." An empty slot and a missing one read the same (L2).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.protocol import JSON


@dataclass(frozen=True, slots=True)
class WrittenOrderBlock:
    cinc: bool  # the recipient writes this turn's orders
    alone: bool  # the recipient's team has no other seat: nobody writes or reads orders
    written_in: int | None  # the round the delivered order was written in
    text: str | None  # the delivered order's canonical text; None: nothing delivered

    def to_context(self) -> dict[str, JSON]:
        return {
            "cinc": self.cinc,
            "alone": self.alone,
            "written_in": self.written_in,
            "text": self.text,
        }


def _round_index(view: dict[str, JSON]) -> int | None:
    raw = view.get("round")
    if isinstance(raw, dict):
        raw = raw.get("index")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def _own_team(team: dict[str, JSON], role: str) -> dict[str, JSON] | None:
    teams = team.get("teams")
    for entry in teams if isinstance(teams, list) else []:
        if isinstance(entry, dict):
            members = entry.get("members")
            if isinstance(members, list) and role in members:
                return entry
    return None


def _order_text(item: dict[str, JSON]) -> str | None:
    text = item.get("text")
    order = item.get("order")
    if not isinstance(text, str) and isinstance(order, dict):
        text = order.get("text_en")
    return text if isinstance(text, str) and text.strip() and order is not None else None


def written_order_block(view: JSON, role: str) -> WrittenOrderBlock | None:
    """The block for `role` from `role`'s own view at a team turn start; None when the view has
    no team section (not a team game)."""
    if not isinstance(view, dict):
        return None
    team = view.get("team")
    if not isinstance(team, dict):
        return None
    own = _own_team(team, role)
    members = own.get("members") if own is not None else None
    ranks = own.get("ranks") if own is not None else None
    alone = isinstance(members, list) and len(members) == 1
    cinc = isinstance(ranks, list) and bool(ranks) and ranks[0] == role
    if cinc or alone:
        return WrittenOrderBlock(cinc=cinc, alone=alone, written_in=None, text=None)
    turn = _round_index(view)
    inbox = team.get("inbox")
    for item in inbox if isinstance(inbox, list) else []:
        if not isinstance(item, dict) or item.get("recipient") != role:
            continue
        if turn is None or item.get("readable_from_turn") != turn:
            continue  # 3.4.6: only the slot delivered at this turn start (written in k - 1)
        text = _order_text(item)
        written = item.get("turn")
        if text is not None and isinstance(written, int):
            return WrittenOrderBlock(cinc=False, alone=False, written_in=written, text=text)
    return WrittenOrderBlock(cinc=False, alone=False, written_in=None, text=None)
