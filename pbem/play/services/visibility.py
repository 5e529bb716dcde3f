"""Which events a role may know exist, and the log's numbering as that role sees it.

Some actions are a side's secret: the engine names their kinds (`Ruleset.private_kinds()`, in
Napoleon's Triumph the standing instructions `set_defense_plan`). Whether and when a side filed
one must not show anywhere another role looks: not as an event, not as a gap in the numbering,
not in a count (issue 10 item 3). So:

- an event of a private kind is *visible* to its own role and to every role that receives one of
  its log lines (a standing instruction that at once answered an open decision has public lines:
  its effect is public, so is the event); to anyone else it does not exist;
- every other event is visible to everyone who may read the game;
- a role's numbering (`role_seq`) counts only the events visible to it: event 1 is 1 for all, and
  a hidden event never leaves a gap. The API, emails and webhooks number events this way; the
  global `Event.seq` stays the log's own key and is never shown to a role that cannot see all.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from games.core.protocol import OMNISCIENT
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get


def private_kinds_of(game: Game) -> frozenset[str]:
    return frozenset(ruleset_get(game.ruleset_id).private_kinds())


def event_readers(role: str, log: object) -> set[str]:
    """The roles that may know a private-kind event exists: its own role and every role named in
    an audience of its log lines (None, an audience of everyone, makes it public: {"*"})."""
    readers = {role}
    for entry in log if isinstance(log, list) else []:
        if not isinstance(entry, dict):
            continue
        audience = entry.get("audience")
        if audience is None:
            return {"*"}
        readers.update(str(r) for r in audience if r != OMNISCIENT)
    return readers


def visible(readers: set[str], roles: Collection[str]) -> bool:
    return "*" in readers or any(r in readers for r in roles) or OMNISCIENT in roles


@dataclass(frozen=True, slots=True)
class Numbering:
    """The log as a set of roles sees it: the global seqs hidden from them, sorted."""

    hidden: tuple[int, ...]

    def is_visible(self, seq: int) -> bool:
        i = bisect_right(self.hidden, seq)
        return not (i and self.hidden[i - 1] == seq)

    def role_seq(self, seq: int) -> int:
        """The number of events up to and including `seq` that these roles can see."""
        return seq - bisect_right(self.hidden, seq)

    def global_seq(self, role_seq: int) -> int:
        """The global seq of the `role_seq`-th visible event (0 -> 0)."""
        seq = role_seq
        for h in self.hidden:  # few: one per standing instruction filed
            if h <= seq:
                seq += 1
            else:
                break
        return seq


def numbering_for(game: Game, roles: Iterable[str]) -> Numbering:
    """One query (on the kind index of a game's events): the private-kind events hidden from
    `roles` (the caller's seats, or `@observer`)."""
    roles = set(roles)
    kinds = private_kinds_of(game)
    if not kinds or OMNISCIENT in roles:
        return Numbering(())
    rows = Event.objects.filter(game=game, kind__in=kinds).values_list("seq", "role", "log")
    hidden = sorted(seq for seq, role, log in rows if not visible(event_readers(role, log), roles))
    return Numbering(tuple(hidden))


__all__ = ["Numbering", "event_readers", "numbering_for", "private_kinds_of", "visible"]
