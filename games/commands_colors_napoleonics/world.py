"""What the rules ask of the board in play: the scenario behind a state, who stands where,
attached leaders (CCN-16), a unit's dice profile (2.5 with its national card, 2.6), line of sight
over the pieces now on the board, and the terrain dice of a battle (3.20)."""

from __future__ import annotations

from functools import cache

from games.commands_colors_napoleonics.board import Section, Side
from games.commands_colors_napoleonics.combat_dice import DiceProfile, Rounding, TerrainDice
from games.commands_colors_napoleonics.documents import document_scenario
from games.commands_colors_napoleonics.errors import UnknownValueError
from games.commands_colors_napoleonics.hexes import Hex, distance, line_between, side_towards
from games.commands_colors_napoleonics.line_of_sight import Occupant, Verdict, line_of_sight
from games.commands_colors_napoleonics.nations import nations_named
from games.commands_colors_napoleonics.scenario import SHIPPED_SCENARIOS, scenario_named
from games.commands_colors_napoleonics.scenario_model import Scenario
from games.commands_colors_napoleonics.state import GameState, Leader, Unit
from games.commands_colors_napoleonics.terrain import (
    FIELD_WORKS,
    HILL_TO_HILL,
    Combat,
    UnitClass,
)
from games.commands_colors_napoleonics.units import UNIT_TYPES


@cache
def shipped() -> dict[str, str]:
    """Scenario id -> file stem of every shipped scenario; a file that does not load is listed
    under its stem (set-up then refuses it with its problems)."""
    found: dict[str, str] = {}
    for stem in SHIPPED_SCENARIOS:
        try:
            found[scenario_named(stem).id] = stem
        except ValueError:
            found[stem] = stem
    return found


@cache
def scenario_of(name: str) -> Scenario:
    """A shipped scenario by id (or file stem); ScenarioError when it does not load."""
    return scenario_named(shipped().get(name, name))


def scen(state: GameState) -> Scenario:
    """The scenario of a state: its scenario document's when it carries one, else the shipped
    scenario it names."""
    if state.document is not None:
        return document_scenario(state.document)
    return scenario_of(state.scenario)


def unit_class(unit: Unit) -> UnitClass:
    return UNIT_TYPES[unit.type].unit_class


def unit_at(state: GameState, h: Hex) -> Unit | None:
    for u in state.units.values():
        if u.hex == h:
            return u
    return None


def leader_at(state: GameState, h: Hex) -> Leader | None:
    for ld in state.leaders.values():
        if ld.hex == h:
            return ld
    return None


def attached(state: GameState, unit: Unit) -> Leader | None:
    """The leader attached to `unit`: a friendly leader in its hex (CCN-16, seed L216)."""
    ld = leader_at(state, unit.hex)
    return ld if ld is not None and ld.side == unit.side else None


def sections(state: GameState, h: Hex, side: str) -> frozenset[Section]:
    return scen(state).board.sections_of(h, Side(side))


def adjacent_enemies(state: GameState, h: Hex, side: str) -> list[Unit]:
    return [u for u in state.units.values() if u.side != side and distance(u.hex, h) == 1]


def occupant_map(state: GameState) -> dict[Hex, Occupant]:
    found = {u.hex: Occupant(Side(u.side), unit_class(u)) for u in state.units.values()}
    for ld in state.leaders.values():
        found.setdefault(ld.hex, Occupant(Side(ld.side)))
    return found


def sight(state: GameState, a: Hex, b: Hex) -> Verdict:
    s = scen(state)
    return line_of_sight(s.board, s, occupant_map(state), a, b)


@cache
def profile(nation: str, unit_type: str, ruleset: str, grenadier_bonus: bool) -> DiceProfile:
    """The dice numbers of a unit: the type rule (units.py) with the national card's known
    values on top (2.6); a national value that is stated but unknown is refused with its gap."""
    t = UNIT_TYPES[unit_type]
    data = nations_named(ruleset)
    fields = data.nations[nation].units.get(unit_type, {}) if nation in data.nations else {}

    def known(name: str, default: object) -> object:
        if name not in fields:
            return default
        return fields[name].known()  # UnknownValueError names the gap

    rounding = data.nations[nation].ranged_moving_rounding.value if nation in data.nations else "up"
    ranged = t.ranged_type_bonus or 0
    if unit_type == "grenadier" and not grenadier_bonus:
        ranged = 0  # AMB-1 opt-in
    vs = known("melee_bonus_vs_class", {})
    assert isinstance(vs, dict)
    return DiceProfile(
        unit_type=unit_type,
        unit_class=t.unit_class,
        max_range=int(str(known("range", t.ranged_range))) if t.ranged_range else None,
        ranged_bonus=int(str(known("ranged_bonus", ranged))),
        ranged_standing_bonus=int(str(known("ranged_standing_bonus", 0))),
        melee_bonus=int(str(known("melee_bonus", t.melee_type_bonus))),
        melee_bonus_vs={UnitClass(k): int(v) for k, v in vs.items()},
        vs_bonus_in_battle_back=bool(known("melee_bonus_applies_to_battle_back", False)),
        moving_rounding=Rounding(str(known("ranged_moving_rounding", rounding))),
        sabre_hits=bool(known("sabre_hits", t.sabre_hits)),
    )


def unit_profile(state: GameState, unit: Unit) -> DiceProfile:
    s = scen(state)
    return profile(unit.nation, unit.type, s.ruleset, bool(s.options.get("grenadier_ranged_bonus")))


def check_profiles(scenario: Scenario) -> list[tuple[str, UnknownValueError]]:
    """Every unit whose dice profile needs an unknown value: (unit path, the error)."""
    bad = []
    for u in scenario.units:
        try:
            profile(u.nation, u.type, scenario.ruleset, True)
        except UnknownValueError as e:
            bad.append((u.path, e))
    return bad


def ignore_flags(state: GameState, unit: Unit) -> int:
    """The unit type's flag allowance (CCN-94); the national card's when it states one."""
    t = UNIT_TYPES[unit.type]
    data = nations_named(scen(state).ruleset)
    nation = data.nations.get(unit.nation)
    if nation is not None and "ignore_flags" in nation.units.get(unit.type, {}):
        value = nation.units[unit.type]["ignore_flags"].known()
        return int(str(value))
    if t.ignore_flags is None:
        raise UnknownValueError("GAP-2", f"{unit.nation} {unit.type}: ignore_flags")
    return t.ignore_flags


def retreat_per_flag(state: GameState, unit: Unit) -> int:
    data = nations_named(scen(state).ruleset)
    nation = data.nations.get(unit.nation)
    if nation is not None and "retreat_per_flag" in nation.units.get(unit.type, {}):
        return int(str(nation.units[unit.type]["retreat_per_flag"].known()))
    return UNIT_TYPES[unit.type].retreat_per_flag


# --- terrain dice (3.20) -------------------------------------------------------------------


def _entry_sides(state: GameState, attacker: Hex, target: Hex) -> list[Hex]:
    """The hexes next to `target` through which the attack enters it: the attacker's hex in a
    melee; in ranged combat the last hexes the line passes (two at a vertex, AMB-6)."""
    if distance(attacker, target) == 1:
        return [attacker]
    steps = line_between(attacker, target)
    return list(steps[-1]) if steps else [attacker]


def across_works(state: GameState, attacker: Hex, target: Hex) -> bool:
    """Whether an attack on `target` crosses one of its protected field-works sides (CCN-167;
    at a vertex either side protects, AMB-6 default)."""
    works = scen(state).terrain_at(target).field_works
    if not works:
        return False
    sides = [side_towards(target, h) in works for h in _entry_sides(state, attacker, target)]
    vertex = bool(scen(state).options.get("fieldworks_vertex_protects", True))
    return any(sides) if vertex else all(sides)


def _out_across(state: GameState, attacker: Hex, target: Hex) -> bool:
    works = scen(state).terrain_at(attacker).field_works
    if not works:
        return False
    return side_towards(attacker, _entry_sides(state, target, attacker)[0]) in works


def terrain_dice(
    state: GameState, attacker: Hex, target: Hex, cls: UnitClass, combat: Combat
) -> TerrainDice:
    """The dice lost to terrain (CCN-70): into the target's hex plus out of the attacker's; the
    hill-to-hill row replaces both (CCN-158); field works across a protected side replace the
    hex's own reduction (CCN-168, AMB-33)."""
    s = scen(state)
    t_at, a_at = s.terrain_at(target), s.terrain_at(attacker)
    t_hill, a_hill = t_at.kind.code == "hill", a_at.kind.code == "hill"
    building = t_at.kind.code in ("town", "windmill") or a_at.kind.code in ("town", "windmill")
    if t_hill and a_hill:
        into, out = HILL_TO_HILL.of(cls, combat), 0
    else:
        into = t_at.kind.into.of(cls, combat)
        out = a_at.kind.out_of.of(cls, combat)
    if across_works(state, attacker, target):
        into = FIELD_WORKS.into_across.of(cls, combat)
    if _out_across(state, attacker, target):
        out = FIELD_WORKS.out_across.of(cls, combat)
    return TerrainDice(into, out, building)
