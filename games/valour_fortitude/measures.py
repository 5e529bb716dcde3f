"""The geometric facts the turn machine asks for (digest 4.2), each proposed as a `Fact` for the
umpire from the geometry aid (`geometry`, `sight_lines`). Nothing here decides a rule: the
steps take the confirmed values.

Moves are translations: every base follows the polyline of the unit's anchor (the centre of its
front edge), so every base travels the same length (VF-56); turning on the move is not built.
A formation change (VF-60) is its own step before or after the move: `reform_*` propose its
placement and its 3 in rule.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

import shapely  # type: ignore[import-untyped]
from shapely.geometry import LineString  # type: ignore[import-untyped]

from games.core.protocol import JSON
from games.valour_fortitude import geometry as g
from games.valour_fortitude.context import BOOL, COUNT, COVER, INCHES, OFFSET, Fact
from games.valour_fortitude.match import on_table
from games.valour_fortitude.proposals import inches_text
from games.valour_fortitude.sight_lines import line_of_sight, nearest_visible_target
from games.valour_fortitude.state import (
    Formation,
    GameState,
    Leader,
    Objective,
    Point,
    Trait,
    Unit,
    exact,
)

KEEP_AWAY_IN = 3.0  # VF-58
MARCH_CLEAR_IN = 18.0  # VF-65
OBSTACLE_COST_IN = 4.0  # VF-187
NEAR_IN = g.OBSTACLE_CONTACT_IN + g.CONTACT_EPSILON_IN  # a pair this far apart may touch


def off_table(game: GameState, shape: shapely.Geometry) -> bool:
    """Does a footprint reach beyond the table's edges (VF-57, VF-62)?"""
    x0, y0, x1, y1 = (float(v) for v in shape.bounds)
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    return x0 < -g.EXACT or y0 < -g.EXACT or x1 > width + g.EXACT or y1 > depth + g.EXACT


def table_units(game: GameState) -> list[Unit]:
    return [u for u in game.units if on_table(u)]


def enemies(game: GameState, side: str) -> list[Unit]:
    return [u for u in table_units(game) if u.side != side]


def gap(game: GameState, a: Unit | Leader, b: Unit | Leader) -> float:
    return g.gap_between(a, b, game.terrain)


def _yes(value: bool) -> str:
    return "yes" if value else "no"


# --- simple facts ---


def contact(game: GameState, a: Unit, b: Unit) -> Fact:
    p = g.in_contact(a, b, game.terrain)
    return Fact(p.fact, bool(p.value), BOOL, p.rule, p.note)


def within(game: GameState, a: Unit | Leader, b: Unit | Leader, inches: float, rule: str) -> Fact:
    p = g.within(a, b, inches, rule, game.terrain)
    return Fact(p.fact, bool(p.value), BOOL, rule, p.note)


def enemy_closer_than(game: GameState, unit: Unit, inches: float, rule: str) -> Fact:
    """Whether an enemy unit is less than `inches` from `unit` (VF-103 rally, VF-58)."""
    gaps = [gap(game, unit, e) for e in enemies(game, unit.side)]
    near = min(gaps, default=math.inf)
    text = f"an enemy unit less than {inches:g} in from {unit.id}"
    note = "no enemy unit on the table" if not gaps else f"nearest {inches_text(near)} in"
    return Fact(text, near < inches - g.EXACT, BOOL, rule, note)


def enemy_within(game: GameState, unit: Unit, inches: float, rule: str) -> Fact:
    gaps = [gap(game, unit, e) for e in enemies(game, unit.side)]
    near = min(gaps, default=math.inf)
    text = f"an enemy unit within {inches:g} in of {unit.id}"
    note = "no enemy unit on the table" if not gaps else f"nearest {inches_text(near)} in"
    return Fact(text, near <= inches + g.EXACT, BOOL, rule, note)


def in_arc(game: GameState, viewer: Unit, subject: Unit, rule: str) -> Fact:
    p = g.in_front_arc(viewer, subject, game.terrain, rule)
    return Fact(p.fact, bool(p.value), BOOL, rule, p.note)


def in_range(game: GameState, firer: Unit, target: Unit, range_in: int) -> Fact:
    p = g.in_range(firer, target, float(range_in), game.terrain)
    return Fact(p.fact, bool(p.value), BOOL, "VF-42", p.note)


def nearest_visible(game: GameState, firer: Unit, target: Unit, attacked: Sequence[str]) -> Fact:
    """VF-41.3: the target is (one of) the nearest visible enemy units not yet attacked."""
    p = nearest_visible_target(firer, table_units(game), game.terrain, attacked)
    text = f"{target.id} is the nearest visible enemy unit of {firer.id} not yet attacked"
    return Fact(text, target.id in p.value, BOOL, "VF-41", p.note)


def half_front_rank_sees(game: GameState, viewer: Unit, target: Unit, rule: str) -> Fact:
    """VF-87 / VF-90: whether at least half of the front-rank bases have a line of sight
    (AMB-21: bases)."""
    front = [b for b in viewer.bases if b.front_rank]
    units = table_units(game)
    seeing = 0
    if viewer.occupying is not None or not front:
        seeing, total = 1, 1  # AMB-30: an occupant is never obscured
    else:
        total = len(front)
        for base in front:
            alone = replace(viewer, bases=(base,))
            seeing += bool(line_of_sight(alone, target, units, game.terrain).value)
    text = f"at least half of the front rank of {viewer.id} sees {target.id}"
    return Fact(text, 2 * seeing >= total, BOOL, rule, f"{seeing} of {total} bases see it")


def cover(game: GameState, target: Unit) -> Fact:
    """VF-188: the proposal looks at the cover the target stands in or touches (hard wins);
    lines passing over cover farther away are the umpire's to add (AMB-29)."""
    if target.occupying is not None:
        piece = game.piece(target.occupying)
        value = "hard" if Trait.HARD_COVER in piece.traits else "soft"
        return Fact(f"cover of {target.id}", value, COVER, "VF-188", f"occupies {piece.id}")
    shape = g.footprint_polygon(target, game.terrain)
    found = "none"
    for piece in game.terrain:
        kinds = piece.traits & {Trait.HARD_COVER, Trait.SOFT_COVER}
        if kinds and shapely.distance(shape, g.piece_polygon(piece)) <= g.CONTACT_EPSILON_IN:
            found = "hard" if Trait.HARD_COVER in kinds or found == "hard" else "soft"
    note = "cover touched by the unit; cover crossed farther along the lines: the umpire's"
    return Fact(f"cover of {target.id}", found, COVER, "VF-188", note)


def in_rough(game: GameState, unit: Unit) -> Fact:
    """VF-192: whether the unit stands in rough ground."""
    shape = g.footprint_polygon(unit, game.terrain)
    inside = any(
        Trait.ROUGH in t.traits and shape.intersection(g.piece_polygon(t)).area > 1e-6
        for t in game.terrain
    )
    return Fact(f"{unit.id} stands in rough ground", inside, BOOL, "VF-192")


def higher_on_hill(a: Unit, b: Unit) -> Fact:
    """VF-182: elevation is not in the state (GAP-2): proposed no, the umpire decides."""
    text = f"{a.id} has a base higher on a hill than every base of {b.id}"
    return Fact(text, False, BOOL, "VF-182", "no elevation data (GAP-2): the umpire decides")


# --- moves (VF-56..VF-65) ---


def anchor(unit: Unit) -> tuple[float, float]:
    """The centre of the unit's front edge: the mean of its front-rank bases' front corners."""
    corners = [c for b in unit.bases if b.front_rank for c in g.base_corners(b)[:2]]
    if not corners:
        corners = [c for b in unit.bases for c in g.base_corners(b)[:2]]
    return (sum(c[0] for c in corners) / len(corners), sum(c[1] for c in corners) / len(corners))


def offsets(unit: Unit, path: Sequence[Point]) -> list[tuple[float, float]]:
    """The path as offsets from the unit's anchor (the start first, (0, 0))."""
    ax, ay = anchor(unit)
    return [(0.0, 0.0), *[(float(p.x) - ax, float(p.y) - ay) for p in path]]


def moved(unit: Unit, dx: Decimal, dy: Decimal) -> Unit:
    bases = tuple(replace(b, x=exact(b.x + dx), y=exact(b.y + dy)) for b in unit.bases)
    return replace(unit, bases=bases)


def end_offset(unit: Unit, path: Sequence[Point]) -> tuple[Decimal, Decimal]:
    dx, dy = offsets(unit, path)[-1]
    return exact(Decimal(repr(round(dx, 3)))), exact(Decimal(repr(round(dy, 3))))


def swept(unit: Unit, path: Sequence[Point], game: GameState) -> object:
    """The ground the unit covers along its path: per base and leg, the hull of the base at
    both ends (a convex base translated along a segment)."""
    steps = offsets(unit, path)
    parts = []
    for base in unit.bases:
        shape = g.base_polygon(base)
        for (x0, y0), (x1, y1) in itertools.pairwise(steps):
            a = shapely.affinity.translate(shape, x0, y0)
            b = shapely.affinity.translate(shape, x1, y1)
            parts.append(shapely.convex_hull(shapely.union(a, b)))
    return shapely.union_all(parts) if parts else g.footprint_polygon(unit, game.terrain)


def path_cost(game: GameState, unit: Unit, path: Sequence[Point], road_bonus: bool) -> Fact:
    """VF-56, VF-187, VF-189, VF-190, VF-192: the cost in inches of the anchor's path: its
    length, +4 per obstacle crossed, rough ground twice, road (march column) half;
    impassable terrain makes it null (not allowed)."""
    steps = offsets(unit, path)
    ax, ay = anchor(unit)
    line = LineString([(ax + dx, ay + dy) for dx, dy in steps])
    length = float(line.length)
    cost = length
    notes = [f"length {inches_text(length)} in"]
    blocked = False
    hull = swept(unit, path, game)
    assert isinstance(hull, shapely.Geometry)
    light_open = unit.formation is Formation.OPEN_ORDER and "leichte_infanterie" in (
        unit.stats.special_rules
    )
    for piece in game.terrain:
        outline = g.piece_polygon(piece)
        if Trait.IMPASSABLE in piece.traits and hull.intersection(outline).area > 1e-6:
            blocked = True
            notes.append(f"impassable {piece.id}")
            continue
        inside = float(line.intersection(outline).length)
        if Trait.OBSTACLE in piece.traits and hull.intersects(outline):
            cost += OBSTACLE_COST_IN
            notes.append(f"obstacle {piece.id} +4")
        if inside <= g.EXACT:
            continue
        if Trait.ROUGH in piece.traits and light_open:
            notes.append(f"rough {piece.id} not counted: light infantry in open order (VF-146)")
        elif Trait.ROUGH in piece.traits:
            cost += inside
            notes.append(f"rough {piece.id} {inches_text(inside)} in twice")
        elif Trait.ROAD in piece.traits and road_bonus and piece.gives_march_bonus:
            cost -= inside / 2
            notes.append(f"road {piece.id} {inches_text(inside)} in at half")
    value = None if blocked else inches_text(cost)
    return Fact(f"cost of the path of {unit.id}", value, INCHES, "VF-56", "; ".join(notes))


def clearance(
    game: GameState, unit: Unit, path: Sequence[Point], inches: float, rule: str, strict: bool
) -> Fact:
    """Whether the unit stays at least (strict: more than) `inches` from every enemy unit all
    along its path (VF-58, VF-65)."""
    hull = swept(unit, path, game)
    gaps = []
    ok = True
    for e in enemies(game, unit.side):
        d = float(shapely.distance(hull, g.footprint_polygon(e, game.terrain)))
        gaps.append(d)
        if e.occupying is not None and not strict:  # VF-198: near, not touching
            ok = ok and d > g.CONTACT_EPSILON_IN
        else:
            ok = ok and (d > inches + g.EXACT if strict else d >= inches - g.EXACT)
    near = min(gaps, default=math.inf)
    word = "more than" if strict else "at least"
    text = f"{unit.id} stays {word} {inches:g} in from enemy units along its path"
    return Fact(text, ok, BOOL, rule, f"nearest {inches_text(near)} in")


def end_clear(game: GameState, unit: Unit, path: Sequence[Point], friends_ok: bool) -> Fact:
    """VF-56: the unit ends on the table, not in contact with a friendly unit (enemy leaders
    it passes over are overrun, VF-59: `overrun_place`)."""
    dx, dy = end_offset(unit, path)
    after = moved(unit, dx, dy)
    shape = g.footprint_polygon(after, game.terrain)
    problems = ["leaves the table"] if off_table(game, shape) else []
    if not friends_ok:
        for friend in table_units(game):
            if friend.side != unit.side or friend.id == unit.id:
                continue
            if shapely.distance(shape, g.footprint_polygon(friend, game.terrain)) <= 0.05:
                problems.append(f"touches {friend.id}")
    text = f"{unit.id} ends on the table clear of friendly units"
    return Fact(text, not problems, BOOL, "VF-56", "; ".join(problems) or "clear")


def placement(unit: Unit, path: Sequence[Point]) -> Fact:
    """V-06: where the unit ends, as the offset of its bases; the umpire may place it."""
    dx, dy = end_offset(unit, path)
    return Fact(f"placement of {unit.id}", [str(dx), str(dy)], OFFSET, "V-06")


def charge_contact(game: GameState, unit: Unit, path: Sequence[Point], target: Unit) -> Fact:
    """VF-63.1/4: the charger ends with at least 3 front-rank figures in contact with the
    target (proposed: in contact; the figure count is the umpire's to check)."""
    dx, dy = end_offset(unit, path)
    p = g.in_contact(moved(unit, dx, dy), target, game.terrain)
    text = f"{unit.id} ends with 3 front-rank figures in contact with {target.id}"
    return Fact(text, bool(p.value), BOOL, "VF-63", p.note)


def nearest_free_enemy(game: GameState, unit: Unit, target: Unit) -> Fact:
    """VF-63.3: the target is (one of) the nearest enemy units not in contact with friendly
    units."""
    friends = [u for u in table_units(game) if u.side == unit.side and u.id != unit.id]
    free = []
    for enemy in enemies(game, unit.side):
        touching = any(gap(game, enemy, f) <= g.CONTACT_EPSILON_IN for f in friends)
        if not touching:
            free.append((gap(game, unit, enemy), enemy.id))
    free.sort()
    nearest = [i for d, i in free if free and d <= free[0][0] + g.EXACT]
    text = f"{target.id} is the nearest enemy unit of {unit.id} not in contact with friends"
    note = ", ".join(f"{i} {inches_text(d)} in" for d, i in free[:4])
    return Fact(text, target.id in nearest, BOOL, "VF-63", note)


def withdraw_offset(game: GameState, unit: Unit, allowance: float) -> Fact:
    """VF-61/62, V-10: a forced withdraw straight back until 3.1 in from every enemy unit;
    null when no such place is on the table within the allowance (the unit flees)."""
    (fx, fy), _ = g.axes(unit.bases[0].facing_deg) if unit.bases else ((0.0, 1.0), (1.0, 0.0))
    foes = [g.footprint_polygon(e, game.terrain) for e in enemies(game, unit.side)]
    shape = g.footprint_polygon(unit, game.terrain)
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    step = 0.0
    value: JSON = None
    while step <= allowance + g.EXACT:
        moved_shape = shapely.affinity.translate(shape, -fx * step, -fy * step)
        near = min((float(shapely.distance(moved_shape, f)) for f in foes), default=math.inf)
        if near >= KEEP_AWAY_IN + 0.1 - g.EXACT:
            x0, y0, x1, y1 = moved_shape.bounds
            if x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= depth:
                value = [_signed(-fx * step), _signed(-fy * step)]
            break
        step += max(0.25, KEEP_AWAY_IN + 0.1 - near)
    note = "straight back, 3.1 in beyond the nearest enemy (digest 4.5)"
    return Fact(f"withdraw placement of {unit.id}", value, OFFSET, "VF-61", note)


def _signed(value: float) -> str:
    """An offset as text, three decimals, never "-0.000"."""
    text = inches_text(value)
    return "0.000" if text == "-0.000" else text


def figures_near(game: GameState, objective: Objective, side: str) -> Fact:
    """VF-22, AMB-7: figures of `side` within 6 in of the objective; a unit's figures are
    shared by its bases and a base counts if any part of it is within 6 in (AMB-6: artillery
    counts its profile's 1 figure)."""
    point = shapely.Point(float(objective.x), float(objective.y))
    total = 0
    for unit in table_units(game):
        if unit.side != side or not unit.bases:
            continue
        near = sum(1 for b in unit.bases if shapely.distance(g.base_polygon(b), point) <= 6.0)
        total += unit.figures * near // len(unit.bases)
    text = f"figures of side {side} within 6 in of {objective.id}"
    return Fact(text, total, COUNT, "VF-22", "a base counts if any part is within 6 in (AMB-7)")


def leader_path(game: GameState, leader: Leader, path: Sequence[Point]) -> Fact:
    """VF-66: an officer's path: at most 36 in, 6 in from enemy units all along, on the
    table."""
    pts = [(float(leader.x), float(leader.y)), *[(float(p.x), float(p.y)) for p in path]]
    line = LineString(pts)
    corridor = line.buffer(float(leader.radius_in))
    near = min(
        (
            float(shapely.distance(corridor, g.footprint_polygon(e, game.terrain)))
            for e in enemies(game, leader.side)
        ),
        default=math.inf,
    )
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    x, y = pts[-1]
    ok = line.length <= 36 + g.EXACT and near >= 6 - g.EXACT and 0 <= x <= width and 0 <= y <= depth
    note = f"length {inches_text(line.length)} in, nearest enemy {inches_text(near)} in"
    return Fact(f"move of {leader.id} is legal", ok, BOOL, "VF-66", note)


def ends_clear_of_enemies(game: GameState, unit: Unit, path: Sequence[Point]) -> Fact:
    """VF-61: a withdraw ends at least 3 in from every enemy unit."""
    dx, dy = end_offset(unit, path)
    shape = g.footprint_polygon(moved(unit, dx, dy), game.terrain)
    near = min(
        (
            float(shapely.distance(shape, g.footprint_polygon(e, game.terrain)))
            for e in enemies(game, unit.side)
        ),
        default=math.inf,
    )
    text = f"{unit.id} ends at least 3 in from enemy units"
    return Fact(
        text, near >= KEEP_AWAY_IN - g.EXACT, BOOL, "VF-61", f"nearest {inches_text(near)} in"
    )


def withdraw_arcs(game: GameState, unit: Unit, path: Sequence[Point]) -> Fact:
    """VF-61: a unit that starts inside enemy units' front arcs ends inside them."""
    dx, dy = end_offset(unit, path)
    after = moved(unit, dx, dy)
    broken = [
        e.id
        for e in enemies(game, unit.side)
        if e.bases
        and g.in_front_arc(e, unit, game.terrain).value
        and not g.in_front_arc(e, after, game.terrain).value
    ]
    text = f"{unit.id} ends inside the front arcs it started in"
    return Fact(text, not broken, BOOL, "VF-61", ", ".join(broken) or "kept")


# --- formation changes (VF-60) ---


def shape_gap_to_enemies(game: GameState, unit: Unit) -> float:
    shape = g.footprint_polygon(unit, game.terrain)
    return min(
        (
            float(shapely.distance(shape, g.footprint_polygon(e, game.terrain)))
            for e in enemies(game, unit.side)
        ),
        default=math.inf,
    )


def reform_clear_of_enemies(game: GameState, before: Unit, after: Unit) -> Fact:
    """VF-60: the unit starts and ends the change more than 3 in from every enemy unit."""
    start, end = shape_gap_to_enemies(game, before), shape_gap_to_enemies(game, after)
    text = f"{before.id} starts and ends its formation change more than 3 in from enemy units"
    ok = min(start, end) > KEEP_AWAY_IN + g.EXACT
    note = f"nearest enemy {inches_text(start)} in before, {inches_text(end)} in after"
    return Fact(text, ok, BOOL, "VF-60", note)


def reform_place(before: Unit, after: Unit) -> Fact:
    """VF-60, digest 4.2: the new block as built around the pivot base; the umpire confirms it
    or shifts it (an offset; null: the unit cannot be set up so)."""
    pivot = after.bases[0]
    note = (
        f"{after.formation.value} of {len(after.bases)} base(s) around the pivot base at "
        f"({pivot.x}, {pivot.y}) facing {pivot.facing_deg}; outline "
        + " | ".join(" ".join(f"({x}, {y})" for x, y in part) for part in g.footprint(after).value)
    )
    return Fact(f"placement of {before.id} in its new formation", ["0", "0"], OFFSET, "VF-60", note)


def reform_fits(game: GameState, after: Unit) -> Fact:
    """VF-8, VF-56: the new block stands on the table, clear of friendly units and of
    impassable terrain."""
    shape = g.footprint_polygon(after, game.terrain)
    problems = ["leaves the table"] if off_table(game, shape) else []
    for friend in table_units(game):
        if friend.side != after.side or friend.id == after.id:
            continue
        if shapely.distance(shape, g.footprint_polygon(friend, game.terrain)) <= 0.05:
            problems.append(f"touches {friend.id}")
    for piece in game.terrain:
        inside = shape.intersection(g.piece_polygon(piece)).area > 1e-6
        if Trait.IMPASSABLE in piece.traits and inside:
            problems.append(f"stands on impassable {piece.id}")
    text = f"{after.id} in its new formation stands on the table clear of friendly units"
    return Fact(text, not problems, BOOL, "VF-8", "; ".join(problems) or "clear")


# --- defensible features (VF-193..VF-201) and overrun leaders (VF-59) ---

FEATURE_NEAR_IN = 3.0  # VF-195: less than 3 in
LEAVE_WITHIN_IN = 6.0  # VF-197


def overrun_by(game: GameState, unit: Unit, path: Sequence[Point]) -> list[Leader]:
    """VF-59: the enemy leaders on the table the unit's swept ground passes over."""
    hull = swept(unit, path, game)
    out = []
    for leader in game.leaders:
        if leader.side != unit.side and not leader.removed and leader.occupying is None:
            point = shapely.Point(float(leader.x), float(leader.y))
            if shapely.distance(hull, point) <= float(leader.radius_in):
                out.append(leader)
    return out


def overrun_place(game: GameState, leader: Leader, cleared: object) -> Fact:
    """VF-59, V-11: where the overrun leader is put: within 6 in of the nearest unit of its
    own side (proposed 3 in from it, the nearest such point to where the leader stood, on the
    table, off every unit and off `cleared`, the ground the overrunning unit covers), as the
    offset of the leader; null when its side has no unit on the table (the umpire's)."""
    own = [u for u in table_units(game) if u.side == leader.side]
    here = shapely.Point(float(leader.x), float(leader.y))
    text = f"placement of the overrun leader {leader.id}"
    if not own:
        return Fact(text, None, OFFSET, "VF-59", "no unit of its side on the table")
    near = min(
        own, key=lambda u: (shapely.distance(g.footprint_polygon(u, game.terrain), here), u.id)
    )
    radius = float(leader.radius_in)
    ring = g.footprint_polygon(near, game.terrain).buffer(3.0 + radius).exterior
    blocked = [g.footprint_polygon(u, game.terrain).buffer(radius) for u in table_units(game)]
    assert isinstance(cleared, shapely.Geometry)
    blocked.append(cleared.buffer(radius))
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    best: tuple[float, float, float] | None = None
    steps = max(8, int(ring.length * 4))
    for i in range(steps):
        pt = ring.interpolate(ring.length * i / steps)
        if not (radius <= pt.x <= width - radius and radius <= pt.y <= depth - radius):
            continue
        if any(b.contains(pt) for b in blocked):
            continue
        d = float(pt.distance(here))
        if best is None or d < best[0] - 1e-9:
            best = (d, pt.x, pt.y)
    note = f"3 in from {near.id}, the nearest unit of side {leader.side}"
    if best is None:
        return Fact(text, None, OFFSET, "VF-59", note + "; no free point found")
    dx, dy = best[1] - float(leader.x), best[2] - float(leader.y)
    return Fact(text, [_signed(dx), _signed(dy)], OFFSET, "VF-59", note)


def near_feature(game: GameState, unit: Unit | Leader, feature: str) -> Fact:
    """VF-195: the unit (or leader) is less than 3 in from the defensible feature."""
    outline = g.piece_polygon(game.piece(feature))
    if isinstance(unit, Leader):
        d = float(shapely.distance(outline, shapely.Point(float(unit.x), float(unit.y))))
        d = max(0.0, d - float(unit.radius_in))
    else:
        d = float(shapely.distance(outline, g.footprint_polygon(unit, game.terrain)))
    text = f"{unit.id} is less than 3 in from {feature}"
    return Fact(text, d < FEATURE_NEAR_IN - g.EXACT, BOOL, "VF-195", f"{inches_text(d)} in")


def defensible_clear(
    game: GameState, unit: Unit, path: Sequence[Point], target: Unit | None
) -> Fact:
    """VF-193, VF-198: the unit does not move into or through a defensible feature (only by
    occupying it), and touches a feature occupied by an enemy unit only when it charges that
    unit."""
    hull = swept(unit, path, game)
    assert isinstance(hull, shapely.Geometry)
    problems = []
    for piece in game.terrain:
        if Trait.DEFENSIBLE not in piece.traits:
            continue
        outline = g.piece_polygon(piece)
        if hull.intersection(outline).area > 1e-6:
            problems.append(f"enters {piece.id} (VF-193)")
            continue
        holders = [e for e in enemies(game, unit.side) if e.occupying == piece.id]
        touches = holders and shapely.distance(hull, outline) <= g.CONTACT_EPSILON_IN
        if touches and (target is None or target.occupying != piece.id):
            problems.append(f"touches {piece.id}, held by {holders[0].id} (VF-198)")
    text = f"{unit.id} keeps out of defensible features"
    return Fact(text, not problems, BOOL, "VF-193", "; ".join(problems) or "clear")


def leave_place(unit: Unit, path: Sequence[Point]) -> Fact:
    """VF-197: where the leaving unit's block is put (its kept bases moved so that their anchor
    is at the path's last point), as an offset the umpire may shift."""
    dx, dy = end_offset(unit, path[-1:])
    return Fact(f"placement of {unit.id} leaving its feature", [str(dx), str(dy)], OFFSET, "VF-197")


def leave_clear(game: GameState, after: Unit, feature: str) -> Fact:
    """VF-197: the leaving unit stands entirely within 6 in of the feature, at least 3 in from
    enemy units, on the table, clear of friendly units and out of defensible features."""
    shape = g.bases_outline(after.bases)
    outline = g.piece_polygon(game.piece(feature))
    problems = []
    if not outline.buffer(LEAVE_WITHIN_IN + g.EXACT).contains(shape):
        problems.append(f"not entirely within 6 in of {feature}")
    if off_table(game, shape):
        problems.append("leaves the table")
    for other in table_units(game):
        if other.id == after.id:
            continue
        d = float(shapely.distance(shape, g.footprint_polygon(other, game.terrain)))
        if other.side != after.side and d < KEEP_AWAY_IN - g.EXACT:
            problems.append(f"{inches_text(d)} in from {other.id}")
        elif other.side == after.side and d <= 0.05:
            problems.append(f"touches {other.id}")
    for piece in game.terrain:
        stops = Trait.DEFENSIBLE in piece.traits or Trait.IMPASSABLE in piece.traits
        if stops and shape.intersection(g.piece_polygon(piece)).area > 1e-6:
            problems.append(f"stands in {piece.id}")
    text = f"{after.id} leaves {feature}: within 6 in of it, 3 in from enemy units"
    return Fact(text, not problems, BOOL, "VF-197", "; ".join(problems) or "clear")
