"""Reading the forces and the calendar of a board document (``nt-board/1``): the commanders, the
scenarios (V-13 of ``rules/data/austerlitz-map.md``, section 7) and the extension key ``army``, the
order of battle (``napoleons-triumph.md`` GAP-2). Like ``board_sections``, a reader records every
error with its place and leaves a broken item out.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from games.napoleons_triumph.board_fields import MISSING, Reader, item_place, show, type_name
from games.napoleons_triumph.board_model import (
    ALLIED_START,
    SIDES,
    UNIT_PREFIX,
    UNIT_TYPES,
    CommanderDef,
    FaceDef,
    RoundDef,
    ScenarioDef,
)

__all__ = ["read_army", "read_commanders", "read_scenarios"]

Army = dict[str, tuple[tuple[str, FaceDef], ...]]


def read_commanders(r: Reader, root: Mapping[str, object]) -> dict[str, CommanderDef]:
    """The commanders by id, in file order (their set-up is checked by ``board_parse``, V-7)."""
    commanders: dict[str, CommanderDef] = {}
    for i, raw in enumerate(r.items(root, "commanders")):
        m = r.mapping(raw, f"commanders[{i}]")
        if m is None:
            continue
        cid = r.str_(m, "id", f"commanders[{i}]")
        if cid is None:
            continue
        place = item_place("commander", "commanders", i, cid)
        cname = r.str_(m, "name", place)
        cside = r.str_(m, "side", place)
        ok_sl, sl = r.opt_int(m, "setup_locale", place)
        reinf = r.bool_(m, "reinforcement", place, default=False)
        mu = r.int_(m, "min_units", place)
        if cname is None or cside is None or not ok_sl or reinf is None or mu is None:
            continue
        sem = f"commander {cid}"
        if cid in commanders:
            r.err(sem, f"duplicate id (commanders[{i}])")
            continue
        if cside not in SIDES:
            r.err(sem, f"side must be F or AL, got {cside!r}")
            continue
        if mu < 1:
            r.err(sem, f"min_units must be at least 1, got {mu}")
        commanders[cid] = CommanderDef(cid, cname, cside, sl, reinf, mu)
    return commanders


def read_scenarios(
    r: Reader, root: Mapping[str, object], commanders: Mapping[str, CommanderDef]
) -> dict[str, ScenarioDef]:
    """The scenarios by id."""
    scenarios: dict[str, ScenarioDef] = {}
    sc_raw = root.get("scenarios", MISSING)
    if sc_raw is MISSING:
        r.err("scenarios", "missing section")
    else:
        sc_map = r.mapping(sc_raw, "scenarios")
        for sid, sv in (sc_map or {}).items():
            sc = _read_scenario(r, sid, sv, commanders)
            if sc is not None:
                scenarios[sid] = sc
        if sc_map is not None and not sc_map:
            r.err("scenarios", "no scenario")
    return scenarios


def read_army(r: Reader, root: Mapping[str, object]) -> Army:
    """The order of battle of each side (unit ids F01.., A01.. in file order)."""
    army: Army = {}
    army_raw = root.get("army", MISSING)
    if army_raw is MISSING:
        r.err("army", "missing section (the order of battle, napoleons-triumph.md GAP-2)")
    else:
        am = r.mapping(army_raw, "army")
        if am is not None:
            for s in am:
                if s not in SIDES:
                    r.err(f"army {s}", "unknown side (expected F or AL)")
            for s in SIDES:
                if s not in am:
                    r.err("army", f"missing side {s}")
                    continue
                units = _read_army_side(r, s, am[s])
                if units is not None:
                    army[s] = units
    return army


def _read_scenario(
    r: Reader, sid: str, raw: object, commanders: Mapping[str, CommanderDef]
) -> ScenarioDef | None:
    """One scenario; V-13: its rounds are numbered 1..n in order."""
    place = f"scenario {sid}"
    m = r.mapping(raw, place)
    if m is None:
        return None
    sname = r.str_(m, "name", place)
    start = r.str_(m, "allied_start", place)
    ok = sname is not None and start is not None
    if start is not None and start not in ALLIED_START:
        r.err(place, f"allied_start must be one of {list(ALLIED_START)}, got {start!r}")
        ok = False

    morale: dict[str, int] = {}
    mr = r.get(m, "starting_morale", place)
    if mr is MISSING:
        ok = False
    else:
        mm = r.mapping(mr, f"{place} starting_morale")
        if mm is None:
            ok = False
        else:
            for s in SIDES:
                v = r.int_(mm, s, f"{place} starting_morale")
                if v is None:
                    ok = False
                elif v < 0:
                    r.err(f"{place} starting_morale", f"{s} must not be negative, got {v}")
                    ok = False
                else:
                    morale[s] = v

    rounds: list[RoundDef] = []
    rr = r.get(m, "rounds", place)
    if rr is MISSING:
        ok = False
    elif not isinstance(rr, list) or not rr:
        r.err(place, f"field 'rounds' must be a non-empty list, got {show(rr)}")
        ok = False
    else:
        for j, raw_round in enumerate(rr):
            rp = f"{place} rounds[{j}]"
            rm = r.mapping(raw_round, rp)
            if rm is None:
                ok = False
                continue
            idx = r.int_(rm, "index", rp)
            day = r.int_(rm, "day", rp)
            ok_h, hour = r.opt_int(rm, "hour", rp)
            night = r.bool_(rm, "night", rp, default=False)
            if idx is None or day is None or not ok_h or night is None:
                ok = False
                continue
            rounds.append(RoundDef(idx, day, hour, night))
        if ok and [x.index for x in rounds] != list(range(1, len(rounds) + 1)):
            r.err(place, f"rounds must be numbered 1..{len(rounds)} in order (V-13)")
            ok = False

    reinf: dict[str, int] = {}
    fr = m.get("french_reinforcements")
    if fr is not None:
        if not isinstance(fr, list):
            r.err(place, f"field 'french_reinforcements' must be a list, got {type_name(fr)}")
            ok = False
        else:
            for j, raw_r in enumerate(fr):
                rp = f"{place} french_reinforcements[{j}]"
                rm = r.mapping(raw_r, rp)
                if rm is None:
                    ok = False
                    continue
                cid = r.str_(rm, "commander", rp)
                first = r.int_(rm, "first_round", rp)
                if cid is None or first is None:
                    ok = False
                    continue
                if cid not in commanders:
                    r.err(place, f"reinforcement commander {cid!r} does not exist")
                    ok = False
                    continue
                if cid in reinf:
                    r.err(place, f"reinforcement commander {cid!r} listed twice")
                    ok = False
                    continue
                if rounds and not 1 <= first <= len(rounds):
                    r.err(place, f"first_round {first} of {cid} outside rounds 1..{len(rounds)}")
                    ok = False
                    continue
                reinf[cid] = first
    if not ok or sname is None or start is None:
        return None
    return ScenarioDef(
        id=sid,
        name=sname,
        allied_start=start,
        starting_morale=MappingProxyType(morale),
        reinforcement_rounds=MappingProxyType(reinf),
        rounds=tuple(rounds),
    )


def _read_army_side(r: Reader, side: str, raw: object) -> tuple[tuple[str, FaceDef], ...] | None:
    """One side's units: known types, strength 1..3 (artillery 1, Guard 3), count at least 1."""
    if not isinstance(raw, list):
        r.err(f"army {side}", f"must be a list, got {type_name(raw)}")
        return None
    ok = True
    units: list[tuple[str, FaceDef]] = []
    prefix = UNIT_PREFIX[side]
    for j, item in enumerate(raw):
        place = f"army {side}[{j}]"
        m = r.mapping(item, place)
        if m is None:
            ok = False
            continue
        typ = r.str_(m, "type", place)
        strength = r.int_(m, "strength", place)
        count = r.int_(m, "count", place)
        if typ is None or strength is None or count is None:
            ok = False
            continue
        if typ not in UNIT_TYPES:
            r.err(place, f"unknown unit type {typ!r} (expected one of {', '.join(UNIT_TYPES)})")
            ok = False
        if not 1 <= strength <= 3:
            r.err(place, f"strength must be 1..3, got {strength}")
            ok = False
        elif typ == "ART" and strength != 1:
            r.err(place, f"artillery exists only at strength 1, got {strength}")
            ok = False
        elif typ == "GUARD" and strength != 3:
            r.err(place, f"Guard exists only at strength 3, got {strength}")
            ok = False
        if count < 1:
            r.err(place, f"count must be at least 1, got {count}")
            ok = False
        if ok:
            for _ in range(count):
                units.append((f"{prefix}{len(units) + 1:02d}", FaceDef(typ, strength)))
    if not units and ok:
        r.err(f"army {side}", "no units")
        return None
    return tuple(units) if ok else None


# --------------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------------
