"""Building one side of a scenario's set-up into the state model: its leaders, brigades and
units, from the army document (`check_army`'s input), the leader positions and the unit
placements. Problems are collected in the reader; a value the army list does not know (e.g.
GAP-15) is refused with its gap id.

A placement is `{formation, files, ranks, limbered?, block | bases}`: a `block` is the centre of
the front edge, the facing, the bases across and deep and the base size (digest 5.2: the depth
runs opposite to the facing, row 0 is the front rank); `bases` lists base rectangles.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from games.core.bounded_yaml import at, idx
from games.valour_fortitude.armies import army_lists
from games.valour_fortitude.bought_units import BoughtUnit, read_unit, unit_stats
from games.valour_fortitude.geometry import axes
from games.valour_fortitude.problems import UnknownValueError
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.state import (
    BaseRect,
    Brigade,
    Formation,
    Leader,
    LeaderKind,
    Point,
    SideState,
    Unit,
    Upgrades,
    exact,
)

LIMIT = Decimal(1000)  # no coordinate or size beyond 1000 in


@dataclass(frozen=True, slots=True)
class BuiltSide:
    side: SideState
    brigades: tuple[Brigade, ...]
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...]


def read_inches(r: Reader, value: object, path: str) -> Decimal | None:
    number = r.decimal(value, path, minimum=-LIMIT, maximum=LIMIT)
    return None if number is None else exact(number)


def read_point(r: Reader, value: object, path: str) -> Point | None:
    pair = r.sequence(value, path, max_len=2)
    if pair is None or len(pair) != 2:
        r.fail(path, "a point is [x, y]")
        return None
    x, y = read_inches(r, pair[0], idx(path, 0)), read_inches(r, pair[1], idx(path, 1))
    return None if x is None or y is None else Point(x, y)


def _facing(r: Reader, value: object, path: str) -> Decimal | None:
    facing = read_inches(r, value, path)
    if facing is not None and not 0 <= facing < 360:
        r.fail(path, "a facing is from 0 up to 360 degrees")
        return None
    return facing


def block_bases(r: Reader, value: object, path: str) -> tuple[BaseRect, ...] | None:
    keys = ("x", "y", "facing", "across", "deep", "base_w", "base_d")
    f = r.mapping(value, path, keys) or {}
    x, y = read_inches(r, f.get("x"), at(path, "x")), read_inches(r, f.get("y"), at(path, "y"))
    facing = _facing(r, f.get("facing"), at(path, "facing"))
    across = r.integer(f.get("across"), at(path, "across"), minimum=1, maximum=20)
    deep = r.integer(f.get("deep"), at(path, "deep"), minimum=1, maximum=20)
    w = read_inches(r, f.get("base_w"), at(path, "base_w"))
    d = read_inches(r, f.get("base_d"), at(path, "base_d"))
    if x is None or y is None or facing is None or across is None or deep is None:
        return None
    if w is None or d is None or w <= 0 or d <= 0:
        r.fail(path, "a base is wider and deeper than 0")
        return None
    (fx, fy), (rx, ry) = axes(facing)
    out = []
    for row in range(deep):
        back = -float(d) * (row + 0.5)
        for col in range(across):
            right = float(w) * (col - (across - 1) / 2)
            cx, cy = float(x) + fx * back + rx * right, float(y) + fy * back + ry * right
            out.append(BaseRect(exact(repr(cx)), exact(repr(cy)), facing, w, d, row == 0))
    return tuple(out)


def explicit_bases(r: Reader, value: object, path: str) -> tuple[BaseRect, ...] | None:
    out = []
    for i, item in enumerate(r.sequence(value, path, max_len=40) or []):
        where = idx(path, i)
        keys = ("x", "y", "facing", "width", "depth", "front_rank")
        f = r.mapping(item, where, keys) or {}
        x, y = (
            read_inches(r, f.get("x"), at(where, "x")),
            read_inches(r, f.get("y"), at(where, "y")),
        )
        facing = _facing(r, f.get("facing"), at(where, "facing"))
        w = read_inches(r, f.get("width"), at(where, "width"))
        d = read_inches(r, f.get("depth"), at(where, "depth"))
        front = r.boolean(f.get("front_rank"), at(where, "front_rank"))
        if x is None or y is None or facing is None or w is None or d is None or front is None:
            return None
        out.append(BaseRect(x, y, facing, w, d, front))
    return tuple(out) or None


def build_side(
    r: Reader,
    side: str,
    doc: Mapping[str, object],
    radius: Decimal,
    role: str | None,
    edge: str | None,
) -> BuiltSide | None:
    """One side of the set-up; None when its army document cannot be read at all."""
    path = f"example.sides.{side}"
    army = r.mapping(
        doc.get("army"), at(path, "army"), ("army_list", "cinc", "brigades"), ("points_limit",)
    )
    leaders_doc = r.keyed(doc.get("leaders"), at(path, "leaders"))
    placements = r.keyed(doc.get("placements"), at(path, "placements"))
    if army is None or leaders_doc is None or placements is None:
        return None
    list_id = army.get("army_list")
    if not isinstance(list_id, str) or list_id not in army_lists():
        r.fail(at(path, "army.army_list"), f"no army list {list_id!r}", "VF-14")
        return None
    cinc_doc = (
        r.mapping(army.get("cinc"), at(path, "army.cinc"), ("id",), ("named_general", "cautious"))
        or {}
    )
    cinc_id = r.identifier(cinc_doc.get("id"), at(path, "army.cinc.id"))
    general = cinc_doc.get("named_general")
    named = str(general) if isinstance(general, str) else None
    leaders: list[Leader] = []
    place = _Placer(r, side, radius, leaders_doc, path)
    if cinc_id is not None:
        rules = _leader_rules(named, cinc_doc)
        place.leader(leaders, cinc_id, LeaderKind.CINC, None, rules)
    brigades: list[Brigade] = []
    units: list[Unit] = []
    for i, item in enumerate(
        r.sequence(army.get("brigades"), at(path, "army.brigades"), max_len=20) or []
    ):
        where = idx(at(path, "army.brigades"), i)
        b = r.mapping(item, where, ("id", "bg", "units")) or {}
        bid = r.identifier(b.get("id"), at(where, "id"))
        bg = r.mapping(b.get("bg"), at(where, "bg"), ("id",), ("cautious",)) or {}
        bg_id = r.identifier(bg.get("id"), at(where, "bg.id"))
        if bid is None or bg_id is None:
            continue
        place.leader(leaders, bg_id, LeaderKind.BG, bid, _leader_rules(None, bg))
        members = []
        for j, entry in enumerate(r.sequence(b.get("units"), at(where, "units"), max_len=40) or []):
            bought = read_unit(r, entry, idx(at(where, "units"), j), list_id)
            unit = place.unit(bought, bid, placements) if bought is not None else None
            if unit is not None:
                units.append(unit)
                members.append(unit.id)
        brigades.append(Brigade(bid, side, bg_id, tuple(members)))
    if cinc_id is None:
        return None
    state = SideState(side, list_id, cinc_id, role, edge, named)
    return BuiltSide(state, tuple(brigades), tuple(units), tuple(leaders))


def _leader_rules(named: str | None, doc: Mapping[str, object]) -> tuple[str, ...]:
    rules = (named,) if named else ()
    return (*rules, "vorsichtig") if doc.get("cautious") is True else rules  # VF-205


class _Placer:
    """Places leaders and units of one side from the positions of the example."""

    def __init__(
        self, r: Reader, side: str, radius: Decimal, leaders: Mapping[str, object], path: str
    ) -> None:
        self.r, self.side, self.radius, self.leaders, self.path = r, side, radius, leaders, path

    def leader(
        self,
        out: list[Leader],
        ident: str,
        kind: LeaderKind,
        brigade: str | None,
        rules: tuple[str, ...],
    ) -> None:
        where = at(at(self.path, "leaders"), ident)
        if ident not in self.leaders:
            self.r.fail(where, "every leader needs a position on the table")
            return
        point = read_point(self.r, self.leaders[ident], where)
        if point is not None:
            out.append(
                Leader(ident, self.side, kind, brigade, point.x, point.y, self.radius, rules)
            )

    def unit(
        self, bought: BoughtUnit, brigade: str, placements: Mapping[str, object]
    ) -> Unit | None:
        r = self.r
        where = at(at(self.path, "placements"), bought.id)
        source = army_lists().get(bought.list_id)
        profile = source.profile(bought.profile) if source is not None else None
        if source is None or profile is None:
            return None  # check_army names it
        try:
            stats = unit_stats(source, bought)
        except UnknownValueError as exc:
            r.fail(where, str(exc), exc.gap)
            return None
        keys = ("formation", "files", "ranks")
        p = (
            r.mapping(
                placements.get(bought.id),
                where,
                ("formation",),
                ("files", "ranks", "limbered", "block", "bases"),
            )
            or {}
        )
        if not p:
            return None
        formation = r.choice(p.get("formation"), at(where, "formation"), set(Formation))
        files = r.integer(p.get("files", 0), at(where, keys[1]), minimum=0, maximum=100)
        ranks = r.integer(p.get("ranks", 0), at(where, keys[2]), minimum=0, maximum=100)
        limbered = p.get("limbered")
        if limbered is not None:
            r.boolean(limbered, at(where, "limbered"))
        if "block" in p:
            bases = block_bases(r, p["block"], at(where, "block"))
        else:
            bases = explicit_bases(r, p.get("bases"), at(where, "bases"))
        if formation is None or files is None or ranks is None or bases is None:
            return None
        upgrades = Upgrades(bought.elite, bought.understrength, bought.large, bought.options)
        return Unit(
            bought.id,
            self.side,
            brigade,
            bought.list_id,
            bought.profile,
            profile.category,
            bought.figures,
            Formation(formation),
            files,
            ranks,
            bases,
            stats,
            upgrades,
            limbered if isinstance(limbered, bool) else None,
        )
