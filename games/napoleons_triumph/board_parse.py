"""Validating a board document (``nt-board/1``) and building the :class:`Board`: the checks
V-1..V-14 of ``rules/data/austerlitz-map.md`` (section 7), one named function per rule.

:func:`parse_board` reads the document section by section (``board_sections``, ``board_forces``:
the structural check and the rules about one item) and then applies the whole-map rules below, in
the order of the sections they need. Every error starts with the place it concerns, then ``: ``
and the problem. Places:

* ``locale 12``, ``approach A017``, ``road M1``, ``entry EF1``, ``commander davout``,
  ``toponym telnitz``, ``scenario DEC2`` (``scenario DEC2 rounds[3]``), ``army F[2]``, ``meta``,
  ``schema``, ``board``, ``entries``;
* structural errors of a list item add its index, e.g.
  ``locale 4 (locales[3]): missing field 'capacity'``, or give only the index when the item has no
  usable id, e.g. ``locales[3]: missing field 'id'``;
* ``road crossing 5 (A003 1->5)``: the 1-based position of the crossing in ``road_crossings``, its
  approach and its ``from -> to`` locales.

All errors are collected and raised together as one :class:`BoardError` (one error per line).
Unknown keys are ignored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from games.napoleons_triumph.board_fields import Reader, sorted_ids
from games.napoleons_triumph.board_forces import read_army, read_commanders, read_scenarios
from games.napoleons_triumph.board_model import (
    SIDES,
    STAR_COLOURS,
    Approach,
    Board,
    BoardError,
    CommanderDef,
    Locale,
    RoadCrossing,
    normalise_name,
)
from games.napoleons_triumph.board_sections import (
    Node,
    check_schema_id,
    read_approaches,
    read_crossings,
    read_entries,
    read_locales,
    read_meta,
    read_roads,
    read_toponyms,
)

__all__ = ["parse_board"]

OBJECTIVES_OF_F = frozenset({"green", "red", "black"})  # the stars the French player aims at
MAIN_ENTRIES = {"F": 1, "AL": 2}  # main-road entries per side (V-9) [L614]


def parse_board(doc: object, name: str, fragment: bool = False) -> Board:
    """Validate an already parsed ``nt-board/1`` document and build the board.

    Raises :class:`BoardError` listing every error, one per line, each starting with its place.
    ``fragment=True`` is for the small synthetic boards of the rulebook examples (tests, and the
    option ``board_fragment``): it keeps every structural check but skips the whole-map checks
    V-4, V-6, V-9 (entry counts), V-10, V-11 and V-14, which a two-locale fragment cannot pass.
    """
    r = Reader()
    root = r.mapping(doc, "board", "a mapping (the board document)")
    if root is None:
        raise BoardError("\n".join(r.errors))

    check_schema_id(r, root)
    board_id, allowed_caps = read_meta(r, root)
    locales, side_home = read_locales(r, root, allowed_caps)
    approaches, pair_of = read_approaches(r, root, locales)
    neighbours, passable = _adjacency(locales, approaches)
    if not locales:
        r.err("locales", "no locales")
    elif not fragment:
        check_connected(r, locales, passable)
    check_santon(r, locales, approaches)
    if not fragment:
        check_blue_stars_in_french_half(r, locales, side_home)
        check_every_star_colour(r, locales)

    roads = read_roads(r, root)
    crossings = read_crossings(r, root, roads, approaches, pair_of)
    road_adj, node_classes = _road_graph(crossings)
    entries, main_entries = read_entries(r, root, locales, node_classes)
    if not fragment:
        check_main_entry_counts(r, main_entries)
        check_objectives_reachable(r, locales, road_adj, main_entries)

    commanders = read_commanders(r, root)
    check_commander_setups(r, locales, commanders, neighbours, fragment)
    toponyms, names = read_toponyms(r, root, locales)
    check_locale_names_in_gazetteer(r, locales, names)
    scenarios = read_scenarios(r, root, commanders)
    army = read_army(r, root)

    if r.errors:
        raise BoardError("\n".join(r.errors))
    return Board(
        id=board_id,
        name=name,
        locales=locales,
        approaches=approaches,
        crossings=crossings,
        entries=tuple(entries),
        commanders=commanders,
        scenarios=scenarios,
        army=army,
        toponyms=tuple(toponyms),
        roads=roads,
    )


# -- graphs ----------------------------------------------------------------------------------------


def _adjacency(
    locales: Mapping[int, Locale], approaches: Mapping[str, Approach]
) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Each locale's neighbours across any approach, and across passable approaches only."""
    nb: dict[int, set[int]] = {lid: set() for lid in locales}
    pnb: dict[int, set[int]] = {lid: set() for lid in locales}
    for ap in approaches.values():
        nb[ap.a].add(ap.b)
        nb[ap.b].add(ap.a)
        if not ap.impassable:
            pnb[ap.a].add(ap.b)
            pnb[ap.b].add(ap.a)
    return nb, pnb


def _road_graph(
    crossings: Iterable[RoadCrossing],
) -> tuple[dict[Node, set[Node]], dict[Node, set[str]]]:
    """The road nodes joined by each node's crossings, and the road classes meeting at each."""
    radj: dict[Node, set[Node]] = {}
    node_classes: dict[Node, set[str]] = {}
    for c in crossings:
        u, v = (c.frm, c.strand_from), (c.to, c.strand_to)
        radj.setdefault(u, set()).add(v)
        radj.setdefault(v, set()).add(u)
        node_classes.setdefault(u, set()).add(c.road_class)
        node_classes.setdefault(v, set()).add(c.road_class)
    return radj, node_classes


def _reach(adj: Mapping[Node, set[Node]], starts: list[Node]) -> set[int]:
    """The locales of every road node joined by road to one of `starts`."""
    seen = set(starts)
    queue = deque(starts)
    while queue:
        for nxt in adj.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return {node[0] for node in seen}


# -- whole-map rules -------------------------------------------------------------------------------


def check_connected(
    r: Reader, locales: Mapping[int, Locale], passable: Mapping[int, set[int]]
) -> None:
    """V-4: the graph of passable approaches connects every locale."""
    start = min(locales)
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in passable[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    missing = set(locales) - seen
    if missing:
        some = sorted(missing)[:10]
        r.err(
            "board",
            f"passable approaches do not connect all locales: {len(missing)} unreachable from "
            f"locale {start}, e.g. {sorted_ids(some)} (V-4)",
        )


def check_santon(
    r: Reader, locales: Mapping[int, Locale], approaches: Mapping[str, Approach]
) -> None:
    """V-5: at most one Santon; it is a hill with exactly 3 approaches [L653]."""
    santons = [loc for loc in locales.values() if loc.santon]
    if len(santons) > 1:
        r.err("board", f"more than one Santon: locales {sorted_ids(s.id for s in santons)} (V-5)")
    for st_loc in santons:
        place = f"locale {st_loc.id}"
        if not st_loc.hill:
            r.err(place, "the Santon must be a hill (V-5)")
        n_app = sum(st_loc.id in (ap.a, ap.b) for ap in approaches.values())
        if n_app != 3:
            r.err(place, f"the Santon must have exactly 3 approaches, has {n_app} (V-5)")


def check_blue_stars_in_french_half(
    r: Reader, locales: Mapping[int, Locale], side_home: Mapping[int, str | None]
) -> None:
    """V-6: blue stars (Allied objectives) lie in the French half of the map."""
    for loc in locales.values():
        if "blue" in loc.stars and side_home.get(loc.id) != "F":
            r.err(
                f"locale {loc.id}", "blue star outside the French half (side_home is not F) (V-6)"
            )


def check_every_star_colour(r: Reader, locales: Mapping[int, Locale]) -> None:
    """V-11: every star colour occurs at least once."""
    for col in STAR_COLOURS:
        if locales and not any(col in loc.stars for loc in locales.values()):
            r.err("board", f"no {col} star on the map (V-11)")


def check_main_entry_counts(r: Reader, main_entries: Mapping[str, list[Node]]) -> None:
    """V-9: main-road entries: the Allies 2, the French 1 [L614]."""
    for s in SIDES:
        if len(main_entries[s]) != MAIN_ENTRIES[s]:
            r.err(
                "entries",
                f"side {s} has {len(main_entries[s])} main-road entries, expected "
                f"{MAIN_ENTRIES[s]} (V-9)",
            )


def check_objectives_reachable(
    r: Reader,
    locales: Mapping[int, Locale],
    road_adj: Mapping[Node, set[Node]],
    main_entries: Mapping[str, list[Node]],
) -> None:
    """V-10: a road joins each blue star to an Allied main-road entry and each green, red or black
    star to the French main-road entry [L614]."""
    r_f, r_al = _reach(road_adj, main_entries["F"]), _reach(road_adj, main_entries["AL"])
    for loc in locales.values():
        if "blue" in loc.stars and loc.id not in r_al:
            r.err(f"locale {loc.id}", "blue star: no road to an Allied main-road entry (V-10)")
        if loc.stars & OBJECTIVES_OF_F and loc.id not in r_f:
            r.err(
                f"locale {loc.id}",
                "green/red/black star not joined by road to the French main-road entry (V-10)",
            )


def check_commander_setups(
    r: Reader,
    locales: Mapping[int, Locale],
    commanders: Mapping[str, CommanderDef],
    neighbours: Mapping[int, set[int]],
    fragment: bool,
) -> None:
    """V-7 for every set-up commander, then V-14 for a French one (skipped for a fragment)."""
    placed: dict[str, list[int]] = {}
    for loc in locales.values():
        for cmd in loc.setup:
            placed.setdefault(cmd, []).append(loc.id)
            if cmd not in commanders:
                r.err(f"locale {loc.id}", f"unknown commander {cmd!r} in setup (V-7)")
    for cd in commanders.values():
        if not check_setup_locale(r, locales, cd, sorted(placed.get(cd.id, []))):
            continue
        if cd.side == "F" and not fragment:
            check_french_setup_clear_of_objectives(r, locales, cd, neighbours)


def check_setup_locale(
    r: Reader, locales: Mapping[int, Locale], cd: CommanderDef, where: list[int]
) -> bool:
    """V-7: a set-up commander is printed in exactly one locale, its ``setup_locale``, whose
    capacity is at least the commander's minimum; one without a ``setup_locale`` is printed
    nowhere. False when the commander has no set-up locale on the board."""
    sem = f"commander {cd.id}"
    if cd.setup_locale is None:
        if where:
            r.err(
                sem,
                f"setup_locale is null but the commander is printed in locale(s) "
                f"{sorted_ids(where)} (V-7)",
            )
        return False
    if cd.setup_locale not in locales:
        r.err(sem, f"setup_locale {cd.setup_locale} does not exist (V-7)")
        return False
    if where != [cd.setup_locale]:
        shown = sorted_ids(where) if where else "no locale"
        r.err(sem, f"setup_locale {cd.setup_locale} but printed in {shown} (V-7)")
    elif locales[cd.setup_locale].capacity < cd.min_units:
        r.err(
            sem,
            f"capacity {locales[cd.setup_locale].capacity} of set-up locale "
            f"{cd.setup_locale} is below min_units {cd.min_units} (V-7)",
        )
    return True


def check_french_setup_clear_of_objectives(
    r: Reader,
    locales: Mapping[int, Locale],
    cd: CommanderDef,
    neighbours: Mapping[int, set[int]],
) -> None:
    """V-14: no French set-up locale is in or next to a green, red or black star [L173]."""
    assert cd.setup_locale is not None
    near = [
        n
        for n in (cd.setup_locale, *sorted(neighbours[cd.setup_locale]))
        if locales[n].stars & OBJECTIVES_OF_F
    ]
    if near:
        r.err(
            f"commander {cd.id}",
            f"French set-up locale {cd.setup_locale} is in or next to a green/red/black "
            f"star (locale {sorted_ids(near)}) (V-14)",
        )


def check_locale_names_in_gazetteer(
    r: Reader, locales: Mapping[int, Locale], names: Mapping[str, str]
) -> None:
    """V-12: every locale name is in the gazetteer."""
    for loc in locales.values():
        if loc.name is not None and normalise_name(loc.name) not in names:
            r.err(f"locale {loc.id}", f"name {loc.name!r} is not in the gazetteer (V-12)")
