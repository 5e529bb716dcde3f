"""The checks of a scenario's set-up against its rules and the army lists: the armies
(`check_army`, VF-230..VF-240), the entry edges and terrain menu (VF-248), the objectives
(VF-249), the deployment zones (VF-250), special rules that are not built (VF-140) and the
state's own coherence. Each problem names its place in the scenario file and the rule."""

from __future__ import annotations

import itertools
import math

import shapely  # type: ignore[import-untyped]

from games.valour_fortitude.armies import army_lists, check_army
from games.valour_fortitude.geometry import footprint_polygon
from games.valour_fortitude.problems import Problem
from games.valour_fortitude.scenario_model import Scenario, ScenarioRules
from games.valour_fortitude.special_rules import not_built_for_general, not_built_for_profile
from games.valour_fortitude.state import SIDES, GameState
from games.valour_fortitude.state_json import state_problems

OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
EXACT = 1e-9


def scenario_problems(scenario: Scenario) -> list[Problem]:
    out = [Problem("example", "format", message) for message in state_problems(scenario.state)]
    out += _armies(scenario)
    out += _edges(scenario)
    out += _terrain_menu(scenario)
    out += _objectives(scenario)
    out += _deployment(scenario)
    out += reserve_rule_problems(scenario.rules)
    out += special_rule_problems(scenario.state)
    return out


def special_rule_problems(state: GameState) -> list[Problem]:
    """VF-140: a unit or general whose special rule is not built (the registry
    `special_rules.py`) is refused by that rule's id, naming the unit or leader and its place,
    never played without its rule."""
    out = []
    for side in state.sides:
        where = f"example.sides.{side.id}.army"
        brigades = [b for b in state.brigades if b.side == side.id]
        for leader in (x for x in state.leaders if x.side == side.id):
            place = f"{where}.cinc"
            if leader.brigade is not None:
                i = next((k for k, b in enumerate(brigades) if b.id == leader.brigade), 0)
                place = f"{where}.brigades[{i}].bg"
            for rule, name in not_built_for_general(leader):
                message = f"leader {leader.id} has the special rule {name}, which is not built"
                out.append(Problem(place, rule, message))
        for i, brigade in enumerate(brigades):
            for j, unit_id in enumerate(brigade.units):
                unit = state.unit(unit_id)
                for rule, name in not_built_for_profile(unit):
                    message = (
                        f"{unit.id} ({unit.army_list}.{unit.profile}) has the special rule "
                        f"{name}, which is not built"
                    )
                    out.append(Problem(f"{where}.brigades[{i}].units[{j}]", rule, message))
    return out


def reserve_rule_problems(rules: ScenarioRules) -> list[Problem]:
    """VF-122: reserves enter from a round of the game, a share of at most all of them per
    round (AMB-28 rounds it down, at least 1)."""
    top, bottom = rules.reserve_share
    if rules.reserve_earliest_round < 1 or not 0 < top <= bottom:
        message = "reserves: earliest_round 1 or more, max_share_per_round n/d with 0 < n <= d"
        return [Problem("rules.reserves", "VF-122", message)]
    return []


def _armies(scenario: Scenario) -> list[Problem]:
    out = []
    for side in scenario.state.sides:
        armylist = army_lists()[side.army_list]
        where = f"example.sides.{side.id}.army"
        for p in check_army(armylist, scenario.armies.get(side.id)):
            out.append(Problem(f"{where}.{p.path}" if p.path else where, p.rule, p.message))
    return out


def _long_edges(state: GameState) -> tuple[str, ...]:
    if state.table.width_in == state.table.depth_in:
        return tuple(OPPOSITE)
    return ("north", "south") if state.table.width_in > state.table.depth_in else ("east", "west")


def _edges(scenario: Scenario) -> list[Problem]:
    """VF-248: the attacker enters from a long edge, the defender from the opposite one."""
    roles = {s.scenario_role: s.id for s in scenario.state.sides}
    attacker, defender = roles.get("attacker"), roles.get("defender")
    if attacker is None or defender is None:
        return [Problem("example.attacker", "VF-247", "one side attacks, the other defends")]
    edge = scenario.edges[attacker]
    out = []
    if edge not in _long_edges(scenario.state):
        out.append(Problem(f"example.edges.{attacker}", "VF-248", "the attacker takes a long edge"))
    if scenario.edges[defender] != OPPOSITE[edge]:
        message = "the defender takes the edge opposite the attacker's"
        out.append(Problem(f"example.edges.{defender}", "VF-248", message))
    return out


def _terrain_menu(scenario: Scenario) -> list[Problem]:
    """VF-248: 2-3 villages, 2-3 woods, at most one river with at least two crossings."""
    rules = scenario.rules
    kinds = [t.kind for t in scenario.state.terrain]
    out = []
    for kind, (low, high) in (("village", rules.villages), ("wood", rules.woods)):
        if not low <= kinds.count(kind) <= high:
            message = f"{low} to {high} pieces of kind {kind}, not {kinds.count(kind)}"
            out.append(Problem("example.terrain", "VF-248", message))
    rivers = kinds.count("river")
    crossings = kinds.count("bridge") + kinds.count("ford")
    if rivers > rules.rivers_max:
        out.append(Problem("example.terrain", "VF-248", f"at most {rules.rivers_max} river"))
    if rivers and crossings < rules.river_crossings_min:
        message = f"a river needs at least {rules.river_crossings_min} bridges or fords"
        out.append(Problem("example.terrain", "VF-248", message))
    return out


def _objectives(scenario: Scenario) -> list[Problem]:
    """VF-249: the objectives, each far enough from every table edge and from each other."""
    rules, state = scenario.rules, scenario.state
    width, depth = float(state.table.width_in), float(state.table.depth_in)
    objectives = state.objectives
    out = []
    if len(objectives) != rules.objective_count:
        message = f"{rules.objective_count} objectives, not {len(objectives)}"
        out.append(Problem("example.objectives", "VF-249", message))
    pieces = {t.id for t in state.terrain}
    for i, obj in enumerate(objectives):
        x, y = float(obj.x), float(obj.y)
        edge = min(x, y, width - x, depth - y)
        if edge < rules.objective_edge_min_in - EXACT:
            limit = rules.objective_edge_min_in
            message = f"{obj.id} is {edge:g} in from a table edge, less than {limit}"
            out.append(Problem(f"example.objectives[{i}]", "VF-249", message))
        if obj.feature is not None and obj.feature not in pieces:
            out.append(Problem(f"example.objectives[{i}].feature", "VF-22", "no such feature"))
    for a, b in itertools.combinations(objectives, 2):
        apart = math.hypot(float(a.x - b.x), float(a.y - b.y))
        if apart < rules.objective_spacing_min_in - EXACT:
            limit = rules.objective_spacing_min_in
            message = f"{a.id} and {b.id} are {apart:.3f} in apart, less than {limit}"
            out.append(Problem("example.objectives", "VF-249", message))
    return out


def _deployment(scenario: Scenario) -> list[Problem]:
    """VF-250: every unit entirely within the zone along its own table edge."""
    state, zone_depth = scenario.state, float(scenario.rules.deployment_depth_in)
    width, depth = float(state.table.width_in), float(state.table.depth_in)
    zones = {
        "south": shapely.box(0, 0, width, zone_depth),
        "north": shapely.box(0, depth - zone_depth, width, depth),
        "west": shapely.box(0, 0, zone_depth, depth),
        "east": shapely.box(width - zone_depth, 0, width, depth),
    }
    out = []
    for unit in state.units:
        if unit.side not in SIDES or not unit.bases:
            continue
        zone = zones[scenario.edges[unit.side]].buffer(EXACT)
        if not footprint_polygon(unit, state.terrain).within(zone):
            where = f"example.sides.{unit.side}.placements.{unit.id}"
            message = f"{unit.id} is not entirely within {zone_depth:g} in of its table edge"
            out.append(Problem(where, "VF-250", message))
    return out
