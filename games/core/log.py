"""Log lines per audience, for every ruleset: writing a line once per group of readers, each in its
own words, and reading back the lines meant for one role.

A line that names something some readers may not know (a hidden unit, a secret card) is written
once per *audience*: an `Audience` pairs a *viewer* (what the engine renders for: a side, the
observer, the omniscient reader; any value the engine likes) with the roles that read that
rendering. A `LogEntry` whose audience is None is read by everyone.

Order is information too: in a run of lines about one piece after another, each audience's lines
must follow that audience's names of the pieces, never hidden server ids (`reorder_run`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from games.core.protocol import JSON, LogEntry, Role

V = TypeVar("V")
Readers = frozenset[Role] | None  # a LogEntry's audience: None is everyone


@dataclass(frozen=True, slots=True)
class Audience(Generic[V]):
    viewer: V  # what a line is rendered for
    roles: frozenset[Role]  # the roles that read that rendering


def per_audience(
    audiences: Iterable[Audience[V]],
    render: Callable[[V], str],
    data: Callable[[V], JSON] = lambda viewer: None,
) -> list[LogEntry]:
    """One line for every audience, in that audience's order, rendered for its viewer."""
    return [LogEntry(render(a.viewer), a.roles, data(a.viewer)) for a in audiences]


def reorder_run(
    run: Sequence[LogEntry],
    marks: Sequence[int],
    keys_for: Callable[[frozenset[Role]], Sequence[str] | None],
) -> list[LogEntry]:
    """A run of lines about one piece after another, put in each audience's own order.

    `marks[i]` is where the lines about the i-th piece start in `run` (increasing); lines before
    the first mark stay first. Inside a run every entry has one audience of its own, so each
    audience's lines are sorted block by block by `keys_for(audience)` (one key per piece: that
    audience's name of it) without touching the others; an audience for which `keys_for` gives
    None, and lines for everyone, keep their order. The sort is stable."""
    if not marks:
        return list(run)
    bounds = [*marks, len(run)]
    n = len(marks)
    streams: dict[Readers, list[list[LogEntry]]] = {}
    for i in range(n):
        for e in run[bounds[i] : bounds[i + 1]]:
            streams.setdefault(e.audience, [[] for _ in range(n)])[i].append(e)
    ordered: dict[Readers, list[list[LogEntry]]] = {}
    for audience, per_block in streams.items():
        keys = None if audience is None else keys_for(audience)
        if keys is None:
            ordered[audience] = per_block
            continue
        ordered[audience] = [per_block[i] for i in sorted(range(n), key=keys.__getitem__)]
    out = list(run[: bounds[0]])
    for i in range(n):
        for audience in streams:
            out.extend(ordered[audience][i])
    return out


def may_read(audience: Collection[Role] | None, role: Role) -> bool:
    """Whether `role` reads a line with this audience (None: everyone)."""
    return audience is None or role in audience


def lines_for(entries: Iterable[LogEntry], role: Role) -> list[str]:
    """The lines of a log that `role` may read, in order."""
    return [e.text for e in entries if may_read(e.audience, role)]


def to_json(entries: Iterable[LogEntry]) -> list[JSON]:
    """Log entries as stored: {"text", "audience": sorted roles or null, "data"}."""
    out: list[JSON] = []
    for e in entries:
        audience: JSON = None if e.audience is None else [str(r) for r in sorted(e.audience)]
        out.append({"text": e.text, "audience": audience, "data": e.data})
    return out


def stored_lines_for(log: object, role: Role) -> list[str]:
    """The lines `role` may read of a log stored by `to_json` (anything else in it is skipped)."""
    lines: list[str] = []
    for entry in log if isinstance(log, list) else []:
        if not isinstance(entry, dict):
            continue
        audience = entry.get("audience")
        if audience is not None and not isinstance(audience, list):
            continue
        text = entry.get("text")
        if isinstance(text, str) and may_read(audience, role):
            lines.append(text)
    return lines
