"""What one `apply` carries around: the board, the state being changed, and the log being written.

Log lines that name hidden units are written once per audience: the owner sees unit ids, everyone
else the alias of the moment (V-3), and a face only where the line says it is shown.

Order is information too: server ids follow the order of battle, so a list in id
order tells the enemy which block is which. Every list of units a reader gets is in an order that
reader may know: sorted by the reader's own name of each unit (own ids, enemy aliases; ids for the
omniscient reader). `Us` is such a list inside one line; `Ctx.per_unit` sorts a run of lines about
one unit each (losses, eliminations) the same way, for each audience separately.

The audiences are the sides (each read by its roles), the observer and the omniscient reader;
writing per audience and reordering runs are games.core.log's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from games.core.i18n import FIELD, T
from games.core.ids import alias
from games.core.log import Audience, per_audience, reorder_run
from games.core.protocol import JSON, OBSERVER, OMNISCIENT, LogEntry
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import GameState, Unit
from games.napoleons_triumph.state import other as other_side


@dataclass(frozen=True, slots=True)
class U:
    """A unit named in a log line; `face` says whether its face is shown to everyone."""

    id: str
    face: bool = False


# an empty list of units in a sentence (a phrase of its own: translated as a value)
NONE = T("none")


@dataclass(frozen=True, slots=True)
class Us:
    """A list of units in a log line, rendered sorted by the reader's name of each unit (own id or
    alias) and joined by `sep`; `empty` when there are none."""

    ids: tuple[str, ...]
    face: bool = False
    empty: str = NONE
    sep: str = ", "

    @staticmethod
    def of(ids: Iterable[str], face: bool = False, empty: str = NONE) -> Us:
        return Us(tuple(ids), face, empty)


Part = str | U | Us


def line(template: str, /, **values: object) -> tuple[Part, ...]:
    """The parts of a log line written from a template of games.core.i18n whose fields may name
    units: `ctx.log(*line(T("{unit} is eliminated ({reason})."), unit=U(uid), reason=why))`.
    `T` without values gives the template as it is (so the extraction finds it); a field whose
    value is a unit (U), a list of units (Us) or a list of parts keeps them, each reader sees his
    own names; any other value is written into the text as `T` writes it."""
    out: list[Part] = []
    text, pos = "", 0
    for m in FIELD.finditer(template):
        text += template[pos : m.start()]
        value = values[m.group(1)]
        pieces = value if isinstance(value, list | tuple) else [value]
        for piece in pieces:
            if isinstance(piece, U | Us):
                if text:
                    out.append(text)
                out.append(piece)
                text = ""
            else:
                text += format(piece)
        pos = m.end()
    text += template[pos:]
    if text:
        out.append(text)
    return tuple(out)


def face_text(unit: Unit) -> str:
    return f"{unit.type}{unit.strength}"


def unit_alias(state: GameState, viewer: str, unit_id: str) -> str:
    """The name a viewer (a side, or OBSERVER) gives an enemy unit in this turn (V-1, V-2)."""
    prefix = unit_id[0] + "-"
    return alias(state.salt, viewer, state.turn_number, unit_id, prefix=prefix)


def public_key(state: GameState, unit_id: str) -> str:
    """A tie-break among a side's own units that tells the enemy nothing: the
    alias the enemy gives the unit this turn. Never the server id: ids follow the order of battle,
    so "the first by id" chosen by a default or a standing instruction would name a block."""
    return unit_alias(state, other_side(state.units[unit_id].side), unit_id)


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


def name_for(state: GameState, viewer: str | None, unit_id: str) -> str:
    """The name `viewer` (a side, OBSERVER, or None for the omniscient reader) gives a unit: its id
    for its owner and the omniscient reader, else the alias of the moment. The sort key of lists."""
    if viewer is None or viewer == state.units[unit_id].side:
        return unit_id
    return unit_alias(state, viewer, unit_id)


def _render_unit(state: GameState, viewer: str | None, unit_id: str, face: bool) -> str:
    u = state.units[unit_id]
    if viewer is None or viewer == u.side:
        return f"{u.id} ({face_text(u)})"
    name = unit_alias(state, viewer, u.id)
    return f"{name} ({face_text(u)})" if face else name


def render(state: GameState, viewer: str | None, parts: tuple[Part, ...]) -> str:
    """viewer: a side ("F"/"AL"), OBSERVER, or None for the omniscient reader."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, U):
            out.append(_render_unit(state, viewer, p.id, p.face))
        else:
            ids = sorted(p.ids, key=lambda i: name_for(state, viewer, i))
            shown = [_render_unit(state, viewer, i, p.face) for i in ids]
            out.append(p.sep.join(shown) if shown else p.empty)
    return "".join(out)


@dataclass(slots=True)
class Ctx:
    board: Board
    state: GameState
    entries: list[LogEntry] = field(default_factory=list)
    # inside `per_unit`: where the run started and the (entry index, unit id) of each unit's lines
    _run: list[tuple[int, str]] | None = None

    def roles_of(self, side: str) -> frozenset[str]:
        return frozenset(r for r, s in self.state.roles.items() if s == side)

    def _audiences(self) -> list[Audience[str | None]]:
        """Each side (read by its roles), the observer, and the omniscient reader (viewer None)."""
        sides = sorted(set(self.state.roles.values()))
        out: list[Audience[str | None]] = [Audience(s, self.roles_of(s)) for s in sides]
        return [
            *out,
            Audience(OBSERVER, frozenset({OBSERVER})),
            Audience(None, frozenset({OMNISCIENT})),
        ]

    def log(self, *parts: Part, data: JSON = None) -> None:
        """A public line: every audience reads it, each with its own names for hidden units."""
        if all(isinstance(p, str) for p in parts) and self._run is None:
            self.entries.append(
                LogEntry("".join(p for p in parts if isinstance(p, str)), None, data)
            )
            return
        self.entries += per_audience(
            self._audiences(),
            lambda viewer: render(self.state, viewer, parts),
            lambda viewer: data if viewer not in (None, OBSERVER) else None,  # sides only
        )

    def private(
        self, side: str, *parts: Part, data: JSON = None, roles: frozenset[str] | None = None
    ) -> None:
        """A line only `side` (and the omniscient reader) may read; with `roles`, only those
        roles of `side` (a team seat's own standing instruction, SRV-1)."""
        text = render(self.state, side, parts)
        readers = self.roles_of(side) if roles is None else self.roles_of(side) & roles
        if self._run is not None:  # one entry per audience, so each can be reordered alone
            self.entries.append(LogEntry(text, readers, data))
            self.entries.append(LogEntry(render(self.state, None, parts), frozenset({OMNISCIENT})))
            return
        self.entries.append(LogEntry(text, readers | {OMNISCIENT}, data))

    @contextmanager
    def per_unit(self) -> Iterator[None]:
        """A run of lines about one unit after another (call `unit(id)` before each unit's
        lines): at the end, each audience's lines are reordered unit by unit, sorted by that
        audience's name of the unit, so the order never follows hidden server ids. Lines
        written before the first `unit` stay first. Nested runs join the outer one."""
        if self._run is not None:
            yield
            return
        start = len(self.entries)
        self._run = []
        try:
            yield
        finally:
            marks, self._run = self._run, None
            self._reorder(start, marks)

    def unit(self, unit_id: str) -> None:
        """Inside `per_unit`: the lines from here on are about `unit_id` (until the next call)."""
        if self._run is not None:
            self._run.append((len(self.entries), unit_id))

    def _reorder(self, start: int, marks: list[tuple[int, str]]) -> None:
        viewers = {a.roles: a.viewer for a in self._audiences()}

        def keys(audience: frozenset[str]) -> list[str] | None:
            if audience not in viewers:
                return None  # not written by log/private: left as it is
            return [name_for(self.state, viewers[audience], uid) for _, uid in marks]

        run = self.entries[start:]
        self.entries[start:] = reorder_run(run, [m[0] - start for m in marks], keys)
