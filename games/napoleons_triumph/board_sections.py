"""Reading the map sections of a board document (``nt-board/1``): meta, locales, approaches,
roads, road crossings, entries and the gazetteer, each into the board model, with the rules that
concern one item at a time (V-1, V-2, V-3, V-8, V-9 and V-12 of ``rules/data/austerlitz-map.md``,
section 7). A reader records every error with its place and leaves a broken item out, so that the
whole-map rules (``board_parse``) see only well-formed items.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.napoleons_triumph.board_fields import MISSING, Reader, item_place, show, sorted_ids
from games.napoleons_triumph.board_model import (
    PENALTIES,
    ROAD_CLASSES,
    SCHEMA,
    SIDES,
    STAR_COLOURS,
    WIDTHS,
    Approach,
    ApproachSide,
    Entry,
    Locale,
    RoadCrossing,
    Toponym,
    normalise_name,
)

__all__ = [
    "Node",
    "check_schema_id",
    "read_approaches",
    "read_crossings",
    "read_entries",
    "read_locales",
    "read_meta",
    "read_roads",
    "read_toponyms",
]

Node = tuple[int, int]  # a road node: (locale, strand)
_SideRaw = tuple[frozenset[str], bool, str | None]  # penalties, obstructed, width override


def check_schema_id(r: Reader, root: Mapping[str, object]) -> None:
    """V-1: the document names the schema ``nt-board/1``."""
    schema = root.get("schema", MISSING)
    if schema is MISSING:
        r.err("schema", f"missing (expected '{SCHEMA}')")
    elif schema != SCHEMA:
        r.err("schema", f"expected '{SCHEMA}', got {show(schema)} (V-1)")


def read_meta(r: Reader, root: Mapping[str, object]) -> tuple[str, set[int] | None]:
    """The board id and the allowed capacities (``meta``)."""
    board_id = ""
    allowed_caps: set[int] | None = None
    meta_raw = root.get("meta", MISSING)
    if meta_raw is MISSING:
        r.err("meta", "missing section")
    else:
        meta = r.mapping(meta_raw, "meta")
        if meta is not None:
            board_id = r.str_(meta, "id", "meta") or ""
            caps = r.int_list(meta, "capacity_values_allowed", "meta")
            if caps is not None:
                allowed_caps = set(caps)
    return board_id, allowed_caps


# -- locales (V-2) ---------------------------------------------------------------------------------


def read_locales(
    r: Reader, root: Mapping[str, object], allowed_caps: set[int] | None
) -> tuple[dict[int, Locale], dict[int, str | None]]:
    """The locales by id, and each one's ``side_home`` (the map half, used by V-6)."""
    locales: dict[int, Locale] = {}
    side_home: dict[int, str | None] = {}
    keys_seen: dict[str, int] = {}
    for i, raw in enumerate(r.items(root, "locales")):
        m = r.mapping(raw, f"locales[{i}]")
        if m is None:
            continue
        lid = r.int_(m, "id", f"locales[{i}]")
        if lid is None:
            continue
        place = item_place("locale", "locales", i, lid)
        key = r.str_(m, "key", place)
        ok_name, lname = r.opt_str(m, "name", place)
        cap = r.int_(m, "capacity", place)
        hill = r.bool_(m, "hill", place)
        stars = r.str_list(m, "stars", place)
        setup = r.str_list(m, "setup", place)
        santon = r.bool_(m, "santon", place, default=False)
        sh = m.get("side_home")
        if sh is not None and sh not in SIDES:
            r.err(place, f"field 'side_home' must be F or AL, got {show(sh)}")
        if key is None or not ok_name or cap is None or hill is None:
            continue
        if stars is None or setup is None or santon is None:
            continue
        sem = f"locale {lid}"
        if lid in locales:
            r.err(sem, f"duplicate id (locales[{i}]) (V-2)")
            continue
        if key in keys_seen:
            r.err(sem, f"key {key!r} already used by locale {keys_seen[key]}")
        keys_seen[key] = lid
        _check_locale_values(r, sem, cap, allowed_caps, stars)
        if len(set(setup)) != len(setup):
            r.err(sem, "a commander is listed twice in setup")
        locales[lid] = Locale(
            id=lid,
            key=key,
            name=lname,
            capacity=cap,
            hill=hill,
            stars=frozenset(s for s in stars if s in STAR_COLOURS),
            setup=tuple(setup),
            santon=santon,
        )
        side_home[lid] = sh if isinstance(sh, str) else None
    return locales, side_home


def _check_locale_values(
    r: Reader, sem: str, cap: int, allowed_caps: set[int] | None, stars: list[str]
) -> None:
    """V-2: a positive capacity from ``capacity_values_allowed``; star colours are known."""
    if cap < 1:
        r.err(sem, f"capacity {cap} must be positive (V-2)")
    elif allowed_caps is not None and cap not in allowed_caps:
        r.err(sem, f"capacity {cap} not in capacity_values_allowed {sorted(allowed_caps)}")
    bad_stars = [s for s in stars if s not in STAR_COLOURS]
    if bad_stars:
        r.err(sem, f"unknown star colour(s) {bad_stars} (V-2)")


# -- approaches (V-3) ------------------------------------------------------------------------------


def read_approaches(
    r: Reader, root: Mapping[str, object], locales: Mapping[int, Locale]
) -> tuple[dict[str, Approach], dict[frozenset[int], str]]:
    """The approaches by id, and the approach joining each pair of locales."""
    approaches: dict[str, Approach] = {}
    pair_of: dict[frozenset[int], str] = {}
    for i, raw in enumerate(r.items(root, "approaches")):
        m = r.mapping(raw, f"approaches[{i}]")
        if m is None:
            continue
        aid = r.str_(m, "id", f"approaches[{i}]")
        if aid is None:
            continue
        place = item_place("approach", "approaches", i, aid)
        a = r.int_(m, "a", place)
        b = r.int_(m, "b", place)
        width_s = r.str_(m, "width", place)
        impassable = r.bool_(m, "impassable", place, default=False)
        sides = [_read_side(r, m, sk, place) for sk in ("a_side", "b_side")]
        if a is None or b is None or width_s is None or impassable is None:
            continue
        sem = f"approach {aid}"
        if aid in approaches:
            r.err(sem, f"duplicate id (approaches[{i}])")
            continue
        ok = _check_approach(r, sem, a, b, width_s, locales, pair_of)
        side_objs: list[ApproachSide] = []
        for sk, sd, side_loc in (("a_side", sides[0], a), ("b_side", sides[1], b)):
            if sd is None:
                ok = False
                continue
            side = _approach_side(r, sem, sk, sd, side_loc, width_s, impassable)
            if side is None:
                ok = False
            else:
                side_objs.append(side)
        if not ok:
            continue
        pair_of[frozenset((a, b))] = aid
        approaches[aid] = Approach(aid, a, b, impassable, side_objs[0], side_objs[1])
    return approaches, pair_of


def _read_side(r: Reader, m: Mapping[str, object], sk: str, place: str) -> _SideRaw | None:
    """One side's symbols (``a_side`` or ``b_side``; absent: none)."""
    sv = m.get(sk)
    if sv is None:
        return (frozenset(), False, None)
    sp = f"{place} {sk}"
    sm = r.mapping(sv, sp)
    if sm is None:
        return None
    pens = r.str_list(sm, "penalties", sp, required=False)
    obst = r.bool_(sm, "obstructed", sp, default=False)
    wo = sm.get("width")
    if wo is not None and not isinstance(wo, str):
        r.err(sp, f"field 'width' must be narrow or wide, got {show(wo)}")
        wo = None
    if pens is None or obst is None:
        return None
    return (frozenset(pens), obst, wo if isinstance(wo, str) else None)


def _check_approach(
    r: Reader,
    sem: str,
    a: int,
    b: int,
    width_s: str,
    locales: Mapping[int, Locale],
    pair_of: Mapping[frozenset[int], str],
) -> bool:
    """V-3: an approach joins two different existing locales, at most one approach per pair;
    its width is narrow or wide."""
    ok = True
    for end in (a, b):
        if end not in locales:
            r.err(sem, f"locale {end} does not exist (V-3)")
            ok = False
    if a == b:
        r.err(sem, f"joins locale {a} to itself (V-3)")
        ok = False
    pair = frozenset((a, b))
    if ok and pair in pair_of:
        r.err(sem, f"locales {a} and {b} are already joined by approach {pair_of[pair]} (V-3)")
        ok = False
    if width_s not in WIDTHS:
        r.err(sem, f"width must be narrow or wide, got {width_s!r} (V-3)")
        ok = False
    return ok


def _approach_side(
    r: Reader, sem: str, sk: str, sd: _SideRaw, side_loc: int, width_s: str, impassable: bool
) -> ApproachSide | None:
    """V-3: penalties from {I, C, A}, a width override narrow or wide, no symbols on an
    impassable approach."""
    pens_set, obst, wo = sd
    ok = True
    bad = sorted(pens_set - PENALTIES)
    if bad:
        r.err(sem, f"{sk}: unknown penalty code(s) {bad} (V-3)")
        ok = False
    if wo is not None and wo not in WIDTHS:
        r.err(sem, f"{sk}: width must be narrow or wide, got {wo!r} (V-3)")
        ok = False
    if impassable and (pens_set or obst):
        r.err(sem, f"{sk}: impassable approach carries symbols (V-3)")
        ok = False
    w = WIDTHS.get(wo if wo is not None else width_s, 1)
    return ApproachSide(side_loc, w, pens_set & PENALTIES, obst) if ok else None


# -- roads (V-8) -----------------------------------------------------------------------------------


def read_roads(r: Reader, root: Mapping[str, object]) -> dict[str, str]:
    """Road id -> class (main or local)."""
    roads: dict[str, str] = {}
    for i, raw in enumerate(r.items(root, "roads")):
        m = r.mapping(raw, f"roads[{i}]")
        if m is None:
            continue
        rid = r.str_(m, "id", f"roads[{i}]")
        if rid is None:
            continue
        place = item_place("road", "roads", i, rid)
        rcls = r.str_(m, "class", place)
        if rcls is None:
            continue
        if rid in roads:
            r.err(f"road {rid}", f"duplicate id (roads[{i}])")
            continue
        if rcls not in ROAD_CLASSES:
            r.err(f"road {rid}", f"class must be main or local, got {rcls!r}")
            continue
        roads[rid] = rcls
    return roads


def read_crossings(
    r: Reader,
    root: Mapping[str, object],
    roads: Mapping[str, str],
    approaches: Mapping[str, Approach],
    pair_of: Mapping[frozenset[int], str],
) -> list[RoadCrossing]:
    """The road crossings in file order."""
    crossings: list[RoadCrossing] = []
    for i, raw in enumerate(r.items(root, "road_crossings")):
        n = i + 1
        m = r.mapping(raw, f"road crossing {n}")
        if m is None:
            continue
        label = f"road crossing {n} ({m.get('approach')} {m.get('from')}->{m.get('to')})"
        road = r.str_(m, "road", label)
        cls = r.str_(m, "class", label)
        aid = r.str_(m, "approach", label)
        frm = r.int_(m, "from", label)
        to = r.int_(m, "to", label)
        sf = r.int_(m, "strand_from", label)
        st = r.int_(m, "strand_to", label)
        if road is None or cls is None or aid is None or frm is None or to is None:
            continue
        if sf is None or st is None:
            continue
        crossing = RoadCrossing(n, road, cls, aid, frm, to, sf, st)
        if _check_crossing(r, label, crossing, roads, approaches, pair_of):
            crossings.append(crossing)
    return crossings


def _check_crossing(
    r: Reader,
    label: str,
    c: RoadCrossing,
    roads: Mapping[str, str],
    approaches: Mapping[str, Approach],
    pair_of: Mapping[frozenset[int], str],
) -> bool:
    """V-8: a road crossing uses an existing passable approach, joins its two locales and names a
    road of its class; strand numbers are not negative."""
    ok = True
    cls, road, aid, frm, to = c.road_class, c.road, c.approach, c.frm, c.to
    if cls not in ROAD_CLASSES:
        r.err(label, f"class must be main or local, got {cls!r} (V-8)")
        ok = False
    if road not in roads:
        r.err(label, f"road {road} does not exist (V-8)")
        ok = False
    elif roads[road] != cls:
        r.err(label, f"class {cls} differs from the class {roads[road]} of road {road} (V-8)")
        ok = False
    xap = approaches.get(aid)
    if xap is None:
        r.err(label, f"approach {aid} does not exist (V-8)")
        ok = False
    else:
        if xap.impassable:
            r.err(label, f"approach {aid} is impassable (V-8)")
            ok = False
        if {frm, to} != {xap.a, xap.b} or frm == to:
            joined = pair_of.get(frozenset((frm, to)))
            hint = (
                f"; locales {frm} and {to} are joined by approach {joined}"
                if joined is not None and frm != to
                else f"; no approach joins locales {frm} and {to}"
                if frm != to
                else ""
            )
            r.err(
                label,
                f"approach {aid} joins {xap.a} and {xap.b}, not {frm} and {to}{hint} (V-8)",
            )
            ok = False
    if c.strand_from < 0 or c.strand_to < 0:
        r.err(label, "strand numbers must not be negative")
        ok = False
    return ok


# -- entries (V-9) ---------------------------------------------------------------------------------


def read_entries(
    r: Reader,
    root: Mapping[str, object],
    locales: Mapping[int, Locale],
    node_classes: Mapping[Node, set[str]],
) -> tuple[list[Entry], dict[str, list[Node]]]:
    """The entries, and each side's main-road entry nodes. `node_classes` gives the road classes
    meeting at each road node."""
    entries: list[Entry] = []
    entry_ids: set[str] = set()
    main_entries: dict[str, list[Node]] = {s: [] for s in SIDES}
    for i, raw in enumerate(r.items(root, "entries")):
        m = r.mapping(raw, f"entries[{i}]")
        if m is None:
            continue
        eid = r.str_(m, "id", f"entries[{i}]")
        if eid is None:
            continue
        place = item_place("entry", "entries", i, eid)
        eside = r.str_(m, "side", place)
        eloc = r.int_(m, "locale", place)
        estrand = r.int_(m, "strand", place)
        ecls = r.str_(m, "road_class", place)
        emain = r.bool_(m, "main_road_entry", place, default=False)
        if eside is None or eloc is None or estrand is None or ecls is None or emain is None:
            continue
        entry = Entry(eid, eside, eloc, estrand, ecls, emain)
        ok = _check_entry(r, entry, eid in entry_ids, i, locales, node_classes)
        entry_ids.add(eid)
        if not ok:
            continue
        entries.append(entry)
        if emain:
            main_entries[eside].append((eloc, estrand))
    return entries, main_entries


def _check_entry(
    r: Reader,
    e: Entry,
    duplicate: bool,
    i: int,
    locales: Mapping[int, Locale],
    node_classes: Mapping[Node, set[str]],
) -> bool:
    """V-9: an entry feeds an existing (locale, strand) road node of its class; a main-road entry
    is on a main road."""
    sem = f"entry {e.id}"
    ok = True
    if duplicate:
        r.err(sem, f"duplicate id (entries[{i}])")
        ok = False
    if e.side not in SIDES:
        r.err(sem, f"side must be F or AL, got {e.side!r}")
        ok = False
    if e.road_class not in ROAD_CLASSES:
        r.err(sem, f"road_class must be main or local, got {e.road_class!r}")
        ok = False
    if e.locale not in locales:
        r.err(sem, f"locale {e.locale} does not exist (V-9)")
        ok = False
    elif (e.locale, e.strand) not in node_classes:
        r.err(sem, f"no road crossing touches (locale {e.locale}, strand {e.strand}) (V-9)")
        ok = False
    elif e.road_class in ROAD_CLASSES and e.road_class not in node_classes[(e.locale, e.strand)]:
        r.err(sem, f"no {e.road_class} road at (locale {e.locale}, strand {e.strand}) (V-9)")
        ok = False
    if e.main and e.road_class != "main":
        r.err(sem, "main-road entry on a local road (V-9)")
        ok = False
    return ok


# -- gazetteer (V-12) ------------------------------------------------------------------------------


def read_toponyms(
    r: Reader, root: Mapping[str, object], locales: Mapping[int, Locale]
) -> tuple[list[Toponym], dict[str, str]]:
    """The toponyms, and normalised name or alias -> toponym id."""
    toponyms: list[Toponym] = []
    names: dict[str, str] = {}
    topo_ids: set[str] = set()
    for i, raw in enumerate(r.items(root, "toponyms")):
        m = r.mapping(raw, f"toponyms[{i}]")
        if m is None:
            continue
        tid = r.str_(m, "id", f"toponyms[{i}]")
        if tid is None:
            continue
        place = item_place("toponym", "toponyms", i, tid)
        tname = r.str_(m, "name", place)
        aliases = r.str_list(m, "aliases", place, required=False)
        tlocs = r.int_list(m, "locales", place)
        if tname is None or aliases is None or tlocs is None:
            continue
        sem = f"toponym {tid}"
        if tid in topo_ids:
            r.err(sem, f"duplicate id (toponyms[{i}])")
            continue
        topo_ids.add(tid)
        if not all(ch.isascii() and (ch.islower() or ch.isdigit() or ch == "_") for ch in tid):
            r.err(sem, "id must match [a-z0-9_]+")
        _check_toponym_names(r, sem, tid, (tname, *aliases), names)
        bad_locs = [x for x in tlocs if x not in locales]
        if bad_locs:
            r.err(sem, f"locale(s) {sorted_ids(bad_locs)} do not exist (V-12)")
        toponyms.append(Toponym(tid, tname, tuple(aliases), tuple(tlocs)))
    return toponyms, names


def _check_toponym_names(
    r: Reader, sem: str, tid: str, all_names: tuple[str, ...], names: dict[str, str]
) -> None:
    """V-12: names and aliases are unique after normalisation and contain no digit (records each
    name in `names`)."""
    for nm in all_names:
        norm = normalise_name(nm)
        if not norm:
            r.err(sem, f"empty name {nm!r} (V-12)")
            continue
        other = names.setdefault(norm, tid)
        if other != tid:
            r.err(sem, f"name {nm!r} already used by toponym {other} (V-12)")
        if any(ch.isdigit() for ch in nm):
            r.err(sem, f"name {nm!r} contains a digit (V-12)")
