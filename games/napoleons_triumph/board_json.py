"""The board as JSON for clients: everything needed to draw the map and to check
adjacency without reading the engine.

`board_json(board_id)` describes a shipped (or registered) board: its locales (name, capacity, hill,
stars, set-up commanders, Santon, position where the data has one, terrain and source), approaches
(the two locales, width and symbols of each side, impassable, the roads crossing it), roads with
their crossings, entries, toponyms, commanders, scenarios and the order of battle as counts (the
server's unit ids are never published, not even by their order). Every value comes from the
validated board; informational fields the engine does not load (`xy`, `terrain`, `label`, `kind`,
`src`, the meta block) are copied from the board file when there is one, else null. Pure: no
Django, no I/O beyond reading the shipped board file.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import cast

import yaml

from games.napoleons_triumph.board import (
    DATA_DIR,
    SHIPPED,
    WIDTHS,
    Board,
    _yaml_loader,
    board_ids,
    board_named,
)

# JSON values; `xy` positions may be floats, which the engine's own JSON type does not allow
Doc = object
FORMAT = "nt-board-json/1"
WIDTH_NAMES = {v: k for k, v in WIDTHS.items()}  # 1 -> narrow, 2 -> wide
META_KEYS = ("title", "version", "reconstructed", "coordinates", "penalty_codes", "source")


def boards() -> list[str]:
    """The board ids a game may name in its option `board`."""
    return list(board_ids())


@functools.lru_cache(maxsize=8)
def _document(board_id: str) -> Mapping[str, object]:
    """The raw board file of a shipped board (for the informational fields), else empty."""
    if board_id not in SHIPPED:
        return {}
    text = (DATA_DIR / f"{board_id}.yaml").read_text(encoding="utf-8")
    doc = yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a safe loader
    return cast(Mapping[str, object], doc) if isinstance(doc, dict) else {}


def _rows(doc: Mapping[str, object], section: str, key: str) -> dict[object, Mapping[str, object]]:
    raw = doc.get(section)
    rows = raw if isinstance(raw, list) else []
    return {r[key]: r for r in rows if isinstance(r, dict) and key in r}


def _json(value: object) -> Doc:
    """A YAML scalar/list/mapping as JSON (floats kept; YAML dates etc. as strings)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    return str(value)


def board_json(board_id: str) -> dict[str, Doc]:
    """The public description of board `board_id`. Raises KeyError for an unknown id (the id is
    checked against `boards()` first, so nothing else is ever read)."""
    if board_id not in board_ids():
        raise KeyError(board_id)
    board = board_named(board_id)
    doc = _document(board_id)
    meta_raw = doc.get("meta")
    meta = meta_raw if isinstance(meta_raw, dict) else {}
    return {
        "format": FORMAT,
        "id": board_id,
        "name": board.id or board_id,
        "meta": {k: _json(meta.get(k)) for k in META_KEYS},
        "locales": _locales(board, doc),
        "approaches": _approaches(board),
        "roads": _roads(board, doc),
        "entries": [
            {
                "id": e.id,
                "side": e.side,
                "locale": e.locale,
                "strand": e.strand,
                "road_class": e.road_class,
                "main_road_entry": e.main,
            }
            for e in board.entries
        ],
        "toponyms": _toponyms(board, doc),
        "commanders": [
            {
                "id": c.id,
                "name": c.name,
                "side": c.side,
                "setup_locale": c.setup_locale,
                "reinforcement": c.reinforcement,
                "min_units": c.min_units,
            }
            for c in board.commanders.values()
        ],
        "scenarios": [
            {
                "id": sc.id,
                "name": sc.name,
                "allied_start": sc.allied_start,
                "starting_morale": dict(sc.starting_morale),
                "reinforcement_rounds": dict(sc.reinforcement_rounds),
                "rounds": [
                    {"index": r.index, "day": r.day, "hour": r.hour, "night": r.night}
                    for r in sc.rounds
                ],
            }
            for sc in board.scenarios.values()
        ],
        "army": _army(board),
        "santon": board.santon,
    }


def _locales(board: Board, doc: Mapping[str, object]) -> list[Doc]:
    raw = _rows(doc, "locales", "id")
    out: list[Doc] = []
    for lid in sorted(board.locales):
        loc = board.locales[lid]
        extra = raw.get(lid, {})
        out.append(
            {
                "id": lid,
                "key": loc.key,
                "name": loc.name,
                "label": _json(extra.get("label")),
                "capacity": loc.capacity,
                "hill": loc.hill,
                "stars": sorted(loc.stars),
                "setup": list(loc.setup),
                "santon": loc.santon,
                "side_home": _json(extra.get("side_home")),
                "terrain": _json(extra.get("terrain")),
                "xy": _json(extra.get("xy")),
                "src": _json(extra.get("src")),
                "approaches": list(board.approaches_of(lid)),
                "neighbours": list(board.neighbours(lid)),
                "passable_neighbours": list(board.passable_neighbours(lid)),
                "strands": list(board.strands(lid)),
            }
        )
    return out


def _approaches(board: Board) -> list[Doc]:
    roads_of: dict[str, set[str]] = {}
    for c in board.crossings:
        roads_of.setdefault(c.approach, set()).add(c.road)
    out: list[Doc] = []
    for aid in sorted(board.approaches):
        ap = board.approaches[aid]
        sides = [
            {
                "locale": s.locale,
                "width": WIDTH_NAMES[s.width],
                "penalties": sorted(s.penalties),
                "obstructed": s.obstructed,
            }
            for s in (ap.a_side, ap.b_side)
        ]
        same = ap.a_side.width == ap.b_side.width
        out.append(
            {
                "id": aid,
                "a": ap.a,
                "b": ap.b,
                "width": WIDTH_NAMES[ap.a_side.width] if same else "per_side",
                "impassable": ap.impassable,
                "a_side": sides[0],
                "b_side": sides[1],
                "roads": sorted(roads_of.get(aid, ())),
            }
        )
    return out


def _roads(board: Board, doc: Mapping[str, object]) -> list[Doc]:
    raw = _rows(doc, "roads", "id")
    out: list[Doc] = []
    for rid, cls in board.roads.items():
        out.append(
            {
                "id": rid,
                "class": cls,
                "toponym": _json(raw.get(rid, {}).get("toponym")),
                "crossings": [
                    {
                        "approach": c.approach,
                        "from": c.frm,
                        "to": c.to,
                        "strand_from": c.strand_from,
                        "strand_to": c.strand_to,
                    }
                    for c in board.crossings
                    if c.road == rid
                ],
            }
        )
    return out


def _toponyms(board: Board, doc: Mapping[str, object]) -> list[Doc]:
    raw = _rows(doc, "toponyms", "id")
    return [
        {
            "id": t.id,
            "name": t.name,
            "aliases": list(t.aliases),
            "kind": _json(raw.get(t.id, {}).get("kind")),
            "locales": list(t.locales),
            "src": _json(raw.get(t.id, {}).get("src")),
        }
        for t in board.toponyms
    ]


def _army(board: Board) -> dict[str, Doc]:
    """The order of battle as counts per face, sorted by face: the server's unit ids (and so
    which id has which face) are never published."""
    out: dict[str, Doc] = {}
    for side, units in board.army.items():
        counts: dict[tuple[str, int], int] = {}
        for _, face in units:
            counts[(face.type, face.strength)] = counts.get((face.type, face.strength), 0) + 1
        out[side] = [
            {"type": t, "strength": st, "count": n} for (t, st), n in sorted(counts.items())
        ]
    return out
