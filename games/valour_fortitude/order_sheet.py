"""The whole-turn order sheet (digest 4.5) and the other payloads: their JSON Schemas, and the
checks of a sheet's form against the state (ids, ownership, what is not built).

A sheet is executed step by step (turn.py); every instruction is checked again when it is
reached, and one that has become illegal is skipped and logged (`on_illegal: skip`, the
default; `ask` is not built and refused).

Coordinates are inches, given as numbers or decimal texts ("12.5"); a path lists the points
the unit's anchor (the centre of its front edge) passes through, the start left out.
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.valour_fortitude import formations as fm
from games.valour_fortitude.paths import COORD, PATH
from games.valour_fortitude.state import GameState, Trait, Unit
from games.valour_fortitude.values import is_artillery

ACTIONS = ("STAND", "MOVE", "WITHDRAW", "CHARGE", "MARCH", "RALLY", "OCCUPY")  # VF-54, VF-195
MODES = ("full", "skirmish", "carbine")  # VF-144, VF-145
ID: JSON = {"type": "string", "minLength": 1, "maxLength": 40}
IDS: JSON = {"type": "array", "items": ID, "maxItems": 8}

SHOT: JSON = {
    "type": "object",
    "properties": {"target": ID, "firer": ID, "mode": {"enum": list(MODES)}, "supporters": IDS},
    "required": ["target", "firer"],
    "additionalProperties": False,
}
FORMATIONS = ("LINE", "ATTACK_COLUMN", "MARCH_COLUMN", "SQUARE", "OPEN_ORDER", "COMPANY_COLUMN")
FORMATION_CHANGE: JSON = {  # VF-60 (formations.py)
    "type": "object",
    "properties": {
        "formation": {"enum": list(FORMATIONS)},
        "files": {"type": "integer", "minimum": 0, "maximum": 200},
        "ranks": {"type": "integer", "minimum": 0, "maximum": 200},
        "facing": {
            "oneOf": [
                {"type": "number", "minimum": 0, "exclusiveMaximum": 360},
                {"type": "string", "pattern": r"^\d{1,3}(\.\d{1,3})?$"},
            ]
        },
        "pivot": {"type": "integer", "minimum": 0, "maximum": 40},
        "gap_in": COORD,
    },
    "required": ["formation"],
    "additionalProperties": False,
}
UNIT_ORDER: JSON = {
    "type": "object",
    "properties": {
        "action": {"enum": list(ACTIONS)},
        "path": PATH,
        "target": ID,
        "feature": ID,  # OCCUPY (VF-195)
        "formation_before": FORMATION_CHANGE,
        "formation_after": FORMATION_CHANGE,
    },
    "required": ["action"],
    "additionalProperties": False,
}
FIGHT: JSON = {
    "type": "object",
    "properties": {
        "attacker": ID,
        "target": ID,
        "supporters": IDS,
        "brigade_supporter": {"oneOf": [ID, {"type": "null"}]},  # VF-93
    },
    "required": ["attacker", "target"],
    "additionalProperties": False,
}
TURN_ORDERS: JSON = {
    "type": "object",
    "properties": {
        "fate": {"type": "array", "maxItems": 13},
        "shooting": {"type": "array", "items": SHOT, "maxItems": 30},
        "brigade_order": {"type": "array", "items": ID, "maxItems": 12},
        "units": {
            "type": "object",
            "additionalProperties": UNIT_ORDER,
            "maxProperties": 60,
        },
        "bg_moves": {"type": "object", "additionalProperties": PATH, "maxProperties": 12},
        "cinc_move": PATH,
        "melee_plan": {
            "oneOf": [
                {"const": "auto"},
                {"type": "array", "items": FIGHT, "maxItems": 30},
            ]
        },
        "on_illegal": {"enum": ["skip", "ask"]},
        "strike_back": {"enum": ["none", "auto"]},  # V-09 standing policy (melee.py)
        "reserves": {"type": "array", "maxItems": 30},  # VF-120 (reserves.py checks each)
        "occupy_after_melee": {"enum": ["yes", "no"]},  # V-12, VF-200 (occupation.py)
    },
    "additionalProperties": False,
}
CONFIRM: JSON = {
    "type": "object",
    "properties": {"note": {"type": "string", "maxLength": 400}},
    "additionalProperties": False,
}
CORRECTION: JSON = {
    "type": "object",
    "properties": {
        "fact": {"type": "string", "minLength": 1, "maxLength": 120},
        "value": {},
        "reason": {"type": "string", "minLength": 1, "maxLength": 1000},
    },
    "required": ["fact", "value", "reason"],
    "additionalProperties": False,
}
FIRST_SIDE: JSON = {
    "type": "object",
    "properties": {"side": {"enum": ["A", "B"]}},
    "required": ["side"],
    "additionalProperties": False,
}
PLAY_FATE: JSON = {"type": "object"}


def sheet_problems(game: GameState, side: str, sheet: dict[str, JSON]) -> list[Rejection]:
    """What the form of `side`'s sheet gets wrong against the state (the schema has been
    checked): unknown or foreign ids, what is not built. Legality in play is checked when each
    step is reached."""
    out: list[Rejection] = []
    units = {u.id: u for u in game.units}
    own = {u.id for u in game.units if u.side == side}
    brigades = {b.id for b in game.brigades if b.side == side}
    leaders = {x.id for x in game.leaders if x.side == side and x.brigade is not None}

    def bad(rule: str, message: str, path: str) -> None:
        out.append(Rejection(rule, message, path))

    from games.valour_fortitude.fate import entry_problems  # VF-222 (fate.py)

    out.extend(entry_problems(game, side, _list(sheet.get("fate")), "/fate", None))
    if sheet.get("on_illegal") == "ask":
        bad("4.5", T("on_illegal: ask is not built; illegal steps are skipped"), "/on_illegal")
    for i, shot in enumerate(_list(sheet.get("shooting"))):
        assert isinstance(shot, dict)
        where = f"/shooting/{i}"
        if shot.get("firer") not in own:
            bad("VF-41", T("{unit} is not a unit of yours", unit=shot.get("firer")), where)
        target = units.get(str(shot.get("target")))
        if target is None or target.side == side:
            bad("VF-40", T("{unit} is not an enemy unit", unit=shot.get("target")), where)
        helpers = _list(shot.get("supporters"))
        if len(set(map(str, helpers))) != len(helpers):
            bad("VF-89", T("a unit supports an attack once"), where)
        if len(helpers) > 3:
            bad("VF-151", T("more than 3 fire supporters (Batterie) is not built"), where)
        for s in helpers:
            if s not in own or s == shot.get("firer"):
                bad("VF-90", T("{unit} cannot support this fire", unit=s), where)
    seen: set[str] = set()
    for i, b in enumerate(_list(sheet.get("brigade_order"))):
        if b not in brigades or b in seen:
            bad(
                "VF-50",
                T("{brigade} is not a brigade of yours to activate", brigade=b),
                f"/brigade_order/{i}",
            )
        seen.add(str(b))
    orders = sheet.get("units")
    for unit_id, order in orders.items() if isinstance(orders, dict) else []:
        where = f"/units/{unit_id}"
        assert isinstance(order, dict)
        if unit_id not in own:
            bad("VF-53", T("{unit} is not a unit of yours", unit=unit_id), where)
            continue
        action = order.get("action")
        changes = [w for w in ("before", "after") if f"formation_{w}" in order]
        for rule, message in change_problems(game.unit(unit_id), order):
            bad(rule, message, where)
        for rule, message in occupy_problems(game, game.unit(unit_id), order):
            bad(rule, message, where)
        needs_path = ("WITHDRAW", "MARCH", "CHARGE") if changes else ACTIONS[1:5]
        if action in needs_path and "path" not in order:
            bad("VF-56", T("a {action} needs a path", action=action), where)
        if action == "CHARGE":
            target = units.get(str(order.get("target")))
            if target is None or target.side == side:
                bad("VF-63", T("a charge needs an enemy unit as its target"), where)
    moves = sheet.get("bg_moves")
    for leader in moves if isinstance(moves, dict) else []:
        if leader not in leaders:
            bad(
                "VF-66", T("{leader} is not a brigade general of yours", leader=leader), "/bg_moves"
            )
    plan = sheet.get("melee_plan")
    for i, fight in enumerate(plan if isinstance(plan, list) else []):
        assert isinstance(fight, dict)
        where = f"/melee_plan/{i}"
        helpers = _list(fight.get("supporters"))
        if fight.get("attacker") not in own:
            bad("VF-71", T("{unit} is not a unit of yours", unit=fight.get("attacker")), where)
        target = units.get(str(fight.get("target")))
        if target is None or target.side == side:
            bad("VF-71", T("{unit} is not an enemy unit", unit=fight.get("target")), where)
        if any(h not in own for h in helpers) or len(set(map(str, helpers))) != len(helpers):
            bad("VF-91", T("the supporters are units of yours, each once"), where)
        if len(helpers) > 3:
            bad("VF-91", T("at most 3 units support a melee"), where)
        brigade = fight.get("brigade_supporter")
        if brigade is not None and (brigade not in own or brigade in helpers):
            bad("VF-93", T("{unit} cannot give brigade support here", unit=brigade), where)
    return out


def occupy_problems(game: GameState, unit: Unit, order: dict[str, JSON]) -> list[tuple[str, str]]:
    """VF-195, VF-197, VF-201: the form of an OCCUPY order, and what an occupant may do."""
    action = order.get("action")
    if action != "OCCUPY":
        if "feature" in order:
            return [("VF-195", T("only an OCCUPY order names a feature"))]
        if unit.occupying is not None and action in ("CHARGE", "MARCH"):
            why = T(
                "{unit} leaves {feature} only with a Move or Withdraw",
                unit=unit.id,
                feature=unit.occupying,
            )
            return [("VF-197", why)]
        return []
    feature = order.get("feature")
    if not isinstance(feature, str):
        return [("VF-195", T("an OCCUPY order names the feature"))]
    if "path" in order or "target" in order or _changes(order):
        return [("VF-195", T("an OCCUPY order takes no path, target or formation change"))]
    piece = next((t for t in game.terrain if t.id == feature), None)
    if piece is None or Trait.DEFENSIBLE not in piece.traits:
        return [("VF-195", T("{feature} is not a defensible feature", feature=feature))]
    if piece.sections:
        return [("VF-201", T("connected sections are not built ({feature})", feature=feature))]
    if unit.occupying is not None:
        return [
            ("VF-201", T("{unit} already occupies {feature}", unit=unit.id, feature=unit.occupying))
        ]
    return []


def _changes(order: dict[str, JSON]) -> bool:
    return "formation_before" in order or "formation_after" in order


def change_problems(unit: Unit, order: dict[str, JSON]) -> list[tuple[str, str]]:
    """VF-60: what is wrong with the formation changes of a unit's order (formations.py)."""
    action = str(order.get("action"))
    changes = [w for w in ("before", "after") if f"formation_{w}" in order]
    if unit.fled or not unit.bases or unit.occupying is not None:
        return []  # checked again when the step is reached (an occupant: occupation.py)
    if len(changes) > 1:
        return [("VF-60", T("one formation change per action: before or after the move"))]
    out = []
    for when in changes:
        spec = fm.spec_of(order[f"formation_{when}"])
        problem = fm.change_problem(unit, action, when, spec, "path" in order)
        middle = [] if is_artillery(unit) else fm.middle_pivots(unit)
        if problem is None and middle and spec.pivot is not None and spec.pivot not in middle:
            why = T("the pivot must be a base from the middle of the front rank")
            problem = fm.Refused("VF-60", why)
        if problem is not None:
            out.append((problem.rule, problem.message))
    return out


def _list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []
