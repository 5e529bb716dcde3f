"""What one `apply` carries around: the board, the state being changed, and the log being written.

Log lines that name hidden units are written once per audience: the owner sees unit ids, everyone
else the alias of the moment (V-3), and a face only where the line says it is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.ids import alias
from games.core.protocol import JSON, OBSERVER, OMNISCIENT, LogEntry
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import GameState, Unit


@dataclass(frozen=True, slots=True)
class U:
    """A unit named in a log line; `face` says whether its face is shown to everyone."""

    id: str
    face: bool = False


Part = str | U


def face_text(unit: Unit) -> str:
    return f"{unit.type}{unit.strength}"


def unit_alias(state: GameState, viewer: str, unit_id: str) -> str:
    """The name a viewer (a side, or OBSERVER) gives an enemy unit in this turn (V-1, V-2)."""
    prefix = unit_id[0] + "-"
    return alias(state.salt, viewer, state.turn_number, unit_id, prefix=prefix)


def shown_as(state: GameState, viewer: str, unit_id: str) -> str:
    """How `viewer` (a side) names a unit: own units by id, enemy units by their alias."""
    u = state.units[unit_id]
    return unit_id if u.side == viewer else unit_alias(state, viewer, unit_id)


def resolve(state: GameState, viewer: str, ref: str) -> str | None:
    """The unit `viewer` means by `ref`: an own unit id, or the current alias of an enemy unit.
    Enemy server ids are never accepted, so no answer can probe them."""
    u = state.units.get(ref)
    if u is not None:
        return ref if u.side == viewer else None
    for other in state.units.values():
        if other.side != viewer and unit_alias(state, viewer, other.id) == ref:
            return other.id
    return None


def render(state: GameState, viewer: str | None, parts: tuple[Part, ...]) -> str:
    """viewer: a side ("F"/"AL"), OBSERVER, or None for the omniscient reader."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
            continue
        u = state.units[p.id]
        if viewer is None or viewer == u.side:
            out.append(f"{u.id} ({face_text(u)})")
        else:
            name = unit_alias(state, viewer, u.id)
            out.append(f"{name} ({face_text(u)})" if p.face else name)
    return "".join(out)


@dataclass(slots=True)
class Ctx:
    board: Board
    state: GameState
    entries: list[LogEntry] = field(default_factory=list)

    def roles_of(self, side: str) -> frozenset[str]:
        return frozenset(r for r, s in self.state.roles.items() if s == side)

    def log(self, *parts: Part, data: JSON = None) -> None:
        """A public line: every audience reads it, each with its own names for hidden units."""
        if all(isinstance(p, str) for p in parts):
            self.entries.append(
                LogEntry("".join(p for p in parts if isinstance(p, str)), None, data)
            )
            return
        sides = sorted(set(self.state.roles.values()))
        for side in sides:
            self.entries.append(
                LogEntry(render(self.state, side, parts), self.roles_of(side), data)
            )
        self.entries.append(LogEntry(render(self.state, OBSERVER, parts), frozenset({OBSERVER})))
        self.entries.append(LogEntry(render(self.state, None, parts), frozenset({OMNISCIENT})))

    def private(self, side: str, *parts: Part, data: JSON = None) -> None:
        """A line only `side` (and the omniscient reader) may read."""
        text = render(self.state, side, parts)
        self.entries.append(LogEntry(text, self.roles_of(side) | {OMNISCIENT}, data))
