"""Reserves (digest 3.13: VF-120..VF-122; V-15).

A scenario names the units a side holds back (`reserves`, read by `read_reserves`): each with the
march column it arrives in (files, ranks, and its bases: across, deep, base size, GAP-10). Held
units stand off the table (no bases) and their brigade is marked `in_reserve` while all its units
wait. The scenario's rules give the earliest round, the share per round and the entry edge
(starter scenario, seed L573: round 2, half, the own table edge).

The active side brings units on with its sheet's `reserves` list, in the command phase, without
an activation test (VF-120, L423): `{unit, at: [x, y] on the own table edge, path, after?}`.
`after` names the brigade after whose turn the unit enters (AMB-49: any point the CinC chooses;
absent: before the first brigade). The unit arrives in march column, its front edge centred on
`at` and facing into the table, and makes two Move actions along `path` (the umpire rules on
cost, keep-away and placement as for a move, V-06); it then has acted this turn, so it cannot
charge in the round it enters. Checked when reached (skipped and logged, digest 4.5): round 2 at
the earliest and at most max(1, floor(n/2)) units per round of the n the side held at the start
(VF-122, AMB-28); Friktion delays the side's reserves to the next round (VF-121, card 3); an
entry that cannot be made leaves the unit in reserve, to arrive a round later (VF-121).

Not built (refused with its rule): "one Move and then change formation" (VF-60: `formation_after`),
and a detachment's entry in another formation or with another action (VF-120: detachments enter
as the others do).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from jsonschema import Draft202012Validator

from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.valour_fortitude import fate
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.geometry import axes
from games.valour_fortitude.paths import PATH, offset, path_of, point
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.state import BaseRect, Formation, GameState, exact
from games.valour_fortitude.values import allowance

FACING = {"south": Decimal(0), "north": Decimal(180), "west": Decimal(90), "east": Decimal(270)}
ENTRY: JSON = {
    "type": "object",
    "properties": {
        "unit": {"type": "string", "minLength": 1, "maxLength": 40},
        "at": {"type": "array", "items": {"type": ["number", "string"]}, "minItems": 2,
               "maxItems": 2},
        "path": PATH,
        "after": {"type": "string", "minLength": 1, "maxLength": 40},
        "formation_after": {"type": "object"},
    },
    "required": ["unit", "at", "path"],
    "additionalProperties": False,
}  # fmt: skip


_VALIDATOR = Draft202012Validator(ENTRY)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Template:
    """The march column a reserve unit arrives in (VF-120)."""

    files: int
    ranks: int
    across: int
    deep: int
    base_w: Decimal
    base_d: Decimal

    def to_json(self) -> dict[str, JSON]:
        return {
            "files": self.files,
            "ranks": self.ranks,
            "across": self.across,
            "deep": self.deep,
            "base_w": str(self.base_w),
            "base_d": str(self.base_d),
        }


@dataclass(frozen=True, slots=True)
class ReserveRules:
    """VF-122 (starter scenario, seed L573)."""

    earliest_round: int = 2
    share: tuple[int, int] = (1, 2)
    entry: str = "own_edge"


def read_reserves(r: Reader, value: object, path: str) -> dict[str, dict[str, Template]]:
    """`{side: {unit: {files, ranks, across, deep, base_w, base_d}}}`."""
    out: dict[str, dict[str, Template]] = {}
    sides = r.mapping(value, path, ("A", "B")) or {}
    for side, units in sides.items():
        found = r.keyed(units, f"{path}.{side}") or {}
        for unit_id, doc in found.items():
            where = f"{path}.{side}.{unit_id}"
            keys = ("files", "ranks", "across", "deep", "base_w", "base_d")
            f = r.mapping(doc, where, keys) or {}
            ints = [r.integer(f.get(k), f"{where}.{k}", minimum=1, maximum=60) for k in keys[:4]]
            sizes = [
                r.decimal(f.get(k), f"{where}.{k}", minimum=Decimal("0.1"), maximum=Decimal(20))
                for k in keys[4:]
            ]
            if None in ints or None in sizes or any(s is not None and s <= 0 for s in sizes):
                r.fail(where, "a reserve unit needs its march column and base size", "VF-120")
                continue
            a, b, c, d = (int(x or 0) for x in ints)
            w, dd = (Decimal(str(s)) for s in sizes)
            out.setdefault(side, {})[unit_id] = Template(a, b, c, d, exact(w), exact(dd))
    return out


def hold(
    game: GameState,
    flow: dict[str, JSON],
    reserves: Mapping[str, Mapping[str, Template]],
    rules: ReserveRules,
) -> GameState:
    """Take the named units off the table into reserve (set-up, VF-120)."""
    templates: dict[str, JSON] = {}
    initial: dict[str, JSON] = {}
    for side, units in reserves.items():
        initial[side] = len(units)
        for unit_id, template in units.items():
            unit = game.unit(unit_id)
            if unit.side != side:
                raise ValueError(f"{unit_id} is not a unit of side {side}")
            held = replace(
                unit,
                bases=(),
                formation=Formation.MARCH_COLUMN,
                files=template.files,
                ranks=template.ranks,
            )
            game = m.with_unit(game, held)
            templates[unit_id] = template.to_json()
    for brigade in game.brigades:
        if all(u in templates for u in brigade.units):
            game = m.with_brigade(game, replace(brigade, in_reserve=True))
    flow["reserves"] = {
        "earliest_round": rules.earliest_round,
        "share": [rules.share[0], rules.share[1]],
        "entry": rules.entry,
        "templates": templates,
        "initial": initial,
        "entered": {},
    }
    return game


def waiting(game: GameState, flow: dict[str, JSON], side: str) -> list[str]:
    """The side's units still in reserve."""
    found = flow.get("reserves")
    templates = found.get("templates") if isinstance(found, dict) else None
    if not isinstance(templates, dict):
        return []
    return [
        u.id
        for u in game.units
        if u.id in templates and u.side == side and not u.fled and not u.bases
    ]


def sheet_problems(
    game: GameState, flow: dict[str, JSON], side: str, entries: list[JSON]
) -> list[Rejection]:
    out: list[Rejection] = []
    held = set(waiting(game, flow, side))
    brigades = {b.id for b in game.brigades if b.side == side}
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"/reserves/{i}"
        errors = list(_VALIDATOR.iter_errors(entry))
        if errors or not isinstance(entry, dict):
            message = T("a reserve entry needs unit, at and path (after optional): {error}",
                        error=errors[0].message[:200] if errors else "")  # fmt: skip
            out.append(Rejection("schema", message, where))
            continue
        unit = str(entry.get("unit"))
        if unit not in held or unit in seen:
            out.append(
                Rejection("VF-120", T("{unit} is not a unit of yours in reserve", unit=unit), where)
            )
        seen.add(unit)
        if "formation_after" in entry:
            message = T("entering with a formation change is not built (one Move, then reform)")
            out.append(Rejection("VF-60", message, where))
        if "after" in entry and entry["after"] not in brigades:
            message = T("{brigade} is not a brigade of yours", brigade=entry["after"])
            out.append(Rejection("VF-50", message, where))
    return out


def arrival(game: GameState, template: Mapping[str, JSON], at: tuple[Decimal, Decimal],
            edge: str) -> tuple[BaseRect, ...]:  # fmt: skip
    """The march column with its front edge centred on `at`, facing into the table (its bases
    still behind the edge)."""
    facing = FACING[edge]
    (fx, fy), (rx, ry) = axes(facing)
    w, d = Decimal(str(template["base_w"])), Decimal(str(template["base_d"]))
    across, deep = int(str(template["across"])), int(str(template["deep"]))
    out = []
    for row in range(deep):
        back = -float(d) * (row + 0.5)
        for col in range(across):
            right = float(w) * (col - (across - 1) / 2)
            cx = float(at[0]) + fx * back + rx * right
            cy = float(at[1]) + fy * back + ry * right
            out.append(BaseRect(exact(repr(round(cx, 3))), exact(repr(round(cy, 3))), facing,
                                w, d, row == 0))  # fmt: skip
    return tuple(out)


def on_edge(game: GameState, edge: str, x: Decimal, y: Decimal) -> bool:
    """VF-122: a point of the side's own table edge."""
    width, depth = game.table.width_in, game.table.depth_in
    if edge in ("south", "north"):
        return y == (0 if edge == "south" else depth) and 0 <= x <= width
    return x == (0 if edge == "west" else width) and 0 <= y <= depth


def enter(ctx: Ctx, entry: dict[str, JSON]) -> None:
    """VF-120..VF-122: one reserve unit enters with two Move actions."""
    from games.valour_fortitude.shooting import bind
    from games.valour_fortitude.skip import Skip

    game = ctx.game
    side = str(game.turn.active_side)
    unit_id = str(entry["unit"])
    found = ctx.flow.get("reserves")
    assert isinstance(found, dict)
    templates, entered = found["templates"], found["entered"]
    assert isinstance(templates, dict)
    assert isinstance(entered, dict)
    if unit_id not in waiting(game, ctx.flow, side):
        raise Skip("VF-120", T("{unit} is not in reserve", unit=unit_id))
    earliest = int(str(found["earliest_round"]))
    if game.turn.round < earliest:
        raise Skip("VF-122", T("reserves enter from round {n} at the earliest", n=earliest))
    if fate.friction(ctx.flow, side):
        raise Skip("VF-121", T("Friktion: the reserves arrive next round"))
    initial = found["initial"]
    assert isinstance(initial, dict)
    share = found["share"]
    assert isinstance(share, list)
    most = max(1, int(str(initial.get(side, 0))) * int(str(share[0])) // int(str(share[1])))
    mine = entered.get(side)
    count = (
        int(str(mine["n"])) if isinstance(mine, dict) and mine["round"] == game.turn.round else 0
    )
    if count >= most:
        raise Skip("VF-122", T("at most {n} reserve units enter per round", n=most))
    edge = m.side_state(game, side).edge or "south"
    at = point(entry["at"])
    if not on_edge(game, edge, at.x, at.y):
        raise Skip("VF-122", T("reserves enter over their own table edge ({edge})", edge=edge))
    template = templates[unit_id]
    assert isinstance(template, dict)
    unit = replace(game.unit(unit_id), bases=arrival(game, template, (at.x, at.y), edge))
    staged = m.with_unit(game, unit)
    path = path_of(entry["path"])
    wanted: dict[str, Callable[[], Fact]] = {
        "cost": bind(ms.path_cost, staged, unit, path, False),
        "clear": bind(ms.end_clear, staged, unit, path, False),
        "keep": bind(ms.clearance, staged, unit, path, ms.KEEP_AWAY_IN, "VF-58", False),
        "place": bind(ms.placement, unit, path),
    }
    facts = ctx.need(wanted)
    limit = 2 * allowance(unit)  # two Move actions (VF-120)
    cost = facts["cost"]
    if cost is None or Decimal(str(cost)) > limit:
        why = T(
            "{unit} cannot enter: the path costs {cost} in of {limit} in; its arrival is delayed",
            unit=unit_id,
            cost=cost,
            limit=limit,
        )
        raise Skip("VF-121", why)
    if not facts["clear"] or not facts["keep"]:
        raise Skip("VF-121", T("{unit} cannot enter here; its arrival is delayed", unit=unit_id))
    place = facts["place"]
    assert isinstance(place, list)
    dx, dy = offset(place)
    flags = replace(unit.turn_flags, acted=True, action="MOVE", moved_this_turn=True)
    ctx.game = m.with_unit(staged, replace(ms.moved(unit, dx, dy), turn_flags=flags))
    brigade = m.brigade(ctx.game, unit.brigade)
    if brigade.in_reserve:
        ctx.game = m.with_brigade(ctx.game, replace(brigade, in_reserve=False))
    entered[side] = {"round": game.turn.round, "n": count + 1}
    ctx.say(T("{unit} enters from reserve in march column ({cost} in) (VF-120)", unit=unit_id,
              cost=cost))  # fmt: skip


def steps(sheet: Mapping[str, JSON], brigade: str | None) -> list[JSON]:
    """The sheet's entries that come after `brigade` (None: before the first brigade)."""
    found = sheet.get("reserves")
    return [
        {"do": "reserve", "entry": e}
        for e in (found if isinstance(found, list) else [])
        if isinstance(e, dict) and e.get("after") == brigade
    ]
