"""Random play, for the fuzzer and the contract tests: a plausible order sheet for the active
side (shoot at the nearest enemy in range, charge what is in reach, move towards the enemy,
rally the damaged), the initiative choice, and the automatic umpire, which confirms every
proposal. Built only from the open table (digest 4.6) and the side's own hand."""

from __future__ import annotations

import math

import shapely  # type: ignore[import-untyped]

from games.core.protocol import JSON, Action, Role, Ruleset
from games.core.rng import Rng
from games.core.umpire import UMPIRE
from games.valour_fortitude import fate, reserves
from games.valour_fortitude import formations as fm
from games.valour_fortitude import geometry as g
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.kinds import CONFIRM, FIRST_SIDE, PLAY_FATE, TURN_ORDERS
from games.valour_fortitude.shooting import can_fire, fire_profile
from games.valour_fortitude.state import Formation, GameState, Trait, Unit
from games.valour_fortitude.values import allowance, is_artillery, is_cavalry, is_infantry


def random_action(rules: Ruleset[m.Match], match: m.Match, role: Role, rng: Rng) -> Action | None:
    """A random legal action of `role` (the rules' own `random_action` passes itself)."""
    prompt = rules.prompts(match).get(role)
    if prompt is None:
        return None
    if role == UMPIRE:
        return Action(UMPIRE, CONFIRM, {})  # the automatic umpire accepts every proposal
    if FIRST_SIDE in prompt.kinds:
        return Action(role, FIRST_SIDE, {"side": rng.choice(("A", "B"))})
    if PLAY_FATE in prompt.kinds:
        window = fate.window(match.flow)
        hook = str(window["hook"]) if window else fate.ENEMY_TURN
        return Action(role, PLAY_FATE, {"plays": random_plays(match.game, role, rng, hook)})
    if TURN_ORDERS in prompt.kinds:
        sheet = random_sheet(match.game, role, rng)
        sheet["fate"] = random_plays(match.game, role, rng, None, sheet)
        sheet["reserves"] = random_reserves(match, role, rng)
        return Action(role, TURN_ORDERS, sheet)
    return None


def random_reserves(match: m.Match, side: str, rng: Rng) -> list[JSON]:
    """Reserve units brought on over the own edge, straight in (VF-120)."""
    game = match.game
    edge = m.side_state(game, side).edge or "south"
    out: list[JSON] = []
    for unit_id in reserves.waiting(game, match.flow, side):
        if not rng.chance(1, 2):
            continue
        along = 5 + rng.below(int(game.table.width_in) - 10)
        reach = 8 + rng.below(8)
        width, depth = int(game.table.width_in), int(game.table.depth_in)
        at, end = {
            "south": ((along, 0), (along, reach)),
            "north": ((along, depth), (along, depth - reach)),
            "west": ((0, along % depth), (reach, along % depth)),
            "east": ((width, along % depth), (width - reach, along % depth)),
        }[edge]
        out.append({"unit": unit_id, "at": list(at), "path": [list(end)]})
    return out


def random_plays(
    game: GameState,
    side: str,
    rng: Rng,
    window: str | None,
    sheet: dict[str, JSON] | None = None,
) -> list[JSON]:
    """Some cards of the side's own hand, each with plausible choices; entries the rules would
    refuse are dropped (VF-222, VF-37)."""
    own = [u for u in ms.table_units(game) if u.side == side]
    hurt = [u.id for u in own if u.casualties]
    brigades = [b for b in game.brigades if b.side == side and not b.broken]
    shots = sheet.get("shooting") if sheet else None
    out: list[JSON] = []
    for card in fate.hand(game, side):
        if not rng.chance(1, 2):
            continue
        entry: dict[str, JSON] = {"card": card}
        if card in ("5", "J") and hurt:
            entry["unit"] = rng.choice(hurt)
        elif card in ("6", "8") and own:
            entry["unit"] = rng.choice(own).id
        elif card in ("Q", "K") and brigades:
            entry["brigade"] = rng.choice(brigades).id
        elif card == "10":
            held = [o.id for o in game.objectives if o.controller == m.other(side)]
            if held:
                entry["objective"] = rng.choice(held)
        elif card == "7" and isinstance(shots, list) and shots:
            entry["shot"] = rng.below(len(shots))
        elif card in ("4", "9") and window is None and brigades:
            brigade = rng.choice(brigades)
            entry.update({"as": fate.ANY, "brigade": brigade.id, "unit": brigade.units[0]})
        if not fate.entry_problems(game, side, [*out, entry], "", window):
            out.append(entry)
    return out


def _num(value: float) -> str:
    return f"{value:.3f}"


def _pt(x: float, y: float) -> list[JSON]:
    return [_num(x), _num(y)]


def random_sheet(game: GameState, side: str, rng: Rng) -> dict[str, JSON]:
    own = [u for u in ms.table_units(game) if u.side == side]
    foes = ms.enemies(game, side)
    shapes = {u.id: g.footprint_polygon(u, game.terrain) for u in (*own, *foes)}

    def gap(a: Unit, b: Unit) -> float:
        return float(shapely.distance(shapes[a.id], shapes[b.id]))

    shooting: list[JSON] = []
    targets: set[str] = set()
    firers: set[str] = set()
    for unit in own:
        if len(shooting) >= 3 or not foes or can_fire(unit) is not None or rng.chance(1, 3):
            continue
        profile = fire_profile(unit, "full")
        if profile is None:
            continue
        target = min(foes, key=lambda f: (gap(unit, f), f.id))
        if target.id in targets or gap(unit, target) > profile[1]:
            continue
        targets.add(target.id)
        firers.add(unit.id)
        shooting.append({"target": target.id, "firer": unit.id, "mode": "full", "supporters": []})
    units: dict[str, JSON] = {}
    for unit in own:
        if unit.id in firers or not foes:
            continue
        units[unit.id] = _unit_order(game, unit, foes, shapes, gap, rng)
    brigades = [b.id for b in game.brigades if b.side == side and not b.broken]
    rng.shuffle(brigades)
    bg_moves: dict[str, JSON] = {}
    for b in game.brigades:
        if b.side != side or b.broken:
            continue
        path = _bg_path(game, b.bg, [game.unit(u) for u in b.units])
        if path is not None:
            bg_moves[b.bg] = path
    sheet: dict[str, JSON] = {
        "shooting": shooting,
        "brigade_order": list(brigades),
        "units": units,
        "bg_moves": bg_moves,
        "melee_plan": "auto",
    }
    if rng.chance(1, 2):
        sheet["occupy_after_melee"] = rng.choice(("yes", "no"))  # V-12
    return sheet


def _unit_order(
    game: GameState,
    unit: Unit,
    foes: list[Unit],
    shapes: dict[str, object],
    gap: object,
    rng: Rng,
) -> JSON:
    assert callable(gap)
    near = min(foes, key=lambda f: (gap(unit, f), f.id))
    d = float(gap(unit, near))
    occupy = _occupy(game, unit, d, rng)  # VF-195, VF-197, sometimes
    if occupy is not None:
        return occupy
    reach = allowance(unit)
    if d <= 0.06:
        return {"action": "STAND"}
    if unit.casualties and rng.chance(1, 3):
        return {"action": "RALLY"}
    change = _formation_change(unit, d, rng)  # VF-60, sometimes
    if change is not None:
        return change
    charge_ok = not is_artillery(unit) and not (is_infantry(unit) and is_cavalry(near) and d >= 6)
    charge_ok = charge_ok and unit.formation is not Formation.SQUARE  # VF-141
    if charge_ok and d < reach - 0.5:
        path = _charge_path(unit, near, shapes, reach)
        if path is not None:
            return {"action": "CHARGE", "target": near.id, "path": path}
    step = min(reach - 0.25, d - 3.5)
    if step < 0.5:
        return {"action": "STAND"}
    (fx, fy), _ = g.axes(fm.facing_of(unit))
    ax, ay = ms.anchor(unit)
    return {"action": "MOVE", "path": [_pt(ax + fx * step, ay + fy * step)]}


def _occupy(game: GameState, unit: Unit, d: float, rng: Rng) -> JSON:
    """An occupant stands, or one time in six leaves back to where it stood (VF-197); a unit
    less than 3 in from a free defensible feature occupies it one time in two (VF-195)."""
    if unit.occupying is not None:
        if d > 3.5 and unit.bases and rng.chance(1, 6):
            ax, ay = ms.anchor(unit)
            return {"action": "MOVE", "path": [_pt(ax, ay)]}
        return {"action": "STAND"}
    held = {u.occupying for u in game.units if u.occupying is not None and not u.fled}
    shape = g.footprint_polygon(unit, game.terrain)
    for piece in game.terrain:
        if Trait.DEFENSIBLE not in piece.traits or piece.sections or piece.id in held:
            continue
        if float(shapely.distance(shape, g.piece_polygon(piece))) < 2.9 and rng.chance(1, 2):
            return {"action": "OCCUPY", "feature": piece.id}
    return None


def _formation_change(unit: Unit, d: float, rng: Rng) -> JSON:
    """One time in five, far enough from the enemy (VF-60): a change of formation the unit may
    make, as a Move of no distance (AMB-34), the umpire confirming its placement."""
    if d <= 4.5 or not rng.chance(1, 5):
        return None
    specs = [s for s in fm.choices(unit) if s.formation is not unit.formation or is_artillery(unit)]
    if not specs:
        return None
    spec = specs[rng.below(len(specs))]
    return {"action": "MOVE", "formation_after": fm.spec_json(spec)}


def _charge_path(
    unit: Unit, target: Unit, shapes: dict[str, object], reach: float
) -> list[JSON] | None:
    """Slide sideways to face the target's centre, then straight ahead into contact."""
    (fx, fy), (rx, ry) = g.axes(unit.bases[0].facing_deg)
    mine, theirs = shapes[unit.id], shapes[target.id]
    cx, cy = shapely.centroid(mine).x, shapely.centroid(mine).y
    tx, ty = shapely.centroid(theirs).x, shapely.centroid(theirs).y
    lateral = (tx - cx) * rx + (ty - cy) * ry
    lateral = max(-reach / 2, min(reach / 2, lateral))
    ahead = 0.0
    for _ in range(12):
        dx, dy = rx * lateral + fx * ahead, ry * lateral + fy * ahead
        d = float(shapely.distance(shapely.affinity.translate(mine, dx, dy), theirs))
        if d <= 0.02:
            break
        ahead += d
    else:
        return None
    if ahead < 0 or math.hypot(lateral, ahead) > reach - 0.05:
        return None
    ax, ay = ms.anchor(unit)
    return [_pt(ax + rx * lateral + fx * ahead, ay + ry * lateral + fy * ahead)]


def _bg_path(game: GameState, leader_id: str, units: list[Unit]) -> list[JSON] | None:
    """The BG follows its first unit on the table, 3 in behind its front centre."""
    leader = game.leader(leader_id)
    first = next((u for u in units if m.on_table(u) and u.bases), None)
    if leader.removed or first is None:
        return None
    (fx, fy), _ = g.axes(first.bases[0].facing_deg)
    ax, ay = ms.anchor(first)
    x, y = ax - fx * 5, ay - fy * 5
    x0, y0 = float(leader.x), float(leader.y)
    length = math.hypot(x - x0, y - y0)
    if length < 1:
        return None
    if length > 35.5:
        x, y = x0 + (x - x0) * 35.5 / length, y0 + (y - y0) * 35.5 / length
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    x, y = min(max(x, 1.0), width - 1), min(max(y, 1.0), depth - 1)
    return [_pt(x, y)]
