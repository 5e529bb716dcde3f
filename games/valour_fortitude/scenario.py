"""Scenarios (`vf-scenario/1`, digest 3.19 and 5.4): `load_scenario("starter")` reads a shipped
scenario (bounded YAML), builds its example set-up into the state model and checks it against
the scenario's rules (`scenario_checks`); a refused file raises `DataError` with every problem.

A scenario file has `rules` (the rulebook's procedure, every value with its source) and
`example` (one set-up made by that procedure: terrain, objectives, and per side the army
document `check_army` reads, leader positions and unit placements, see `scenario_units`).
"""

from __future__ import annotations

from pathlib import Path

from games.core.bounded_yaml import at, idx, parse_yaml, read_bounded
from games.valour_fortitude.problems import DataError, Problem
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.scenario_checks import scenario_problems
from games.valour_fortitude.scenario_model import Scenario, ScenarioRules
from games.valour_fortitude.scenario_units import BuiltSide, build_side, read_inches, read_point
from games.valour_fortitude.state import (
    SIDES,
    GameState,
    Objective,
    Phase,
    Table,
    TerrainPiece,
    Trait,
    TurnRecord,
)

SCENARIOS_DIR = Path(__file__).parent / "data" / "scenarios"
FORMAT = "vf-scenario/1"
EDGES = ("north", "south", "east", "west")


def load_scenario(name: str) -> Scenario:
    """A shipped scenario by name (never a path), built and checked."""
    path = SCENARIOS_DIR / f"{name}.yaml"
    if not name.isidentifier() or not path.is_file():
        raise KeyError(f"no scenario {name!r}")
    scenario = parse_scenario(parse_yaml(read_bounded(path)), path.name)
    problems = scenario_problems(scenario)
    if problems:
        raise DataError(path.name, problems)
    return scenario


def parse_scenario(doc: object, source: str) -> Scenario:
    """The scenario of a `vf-scenario/1` document (not yet checked against its rules)."""
    r = Reader()
    top = r.mapping(doc, "", ("format", "id", "title", "source", "rules", "example")) or {}
    r.choice(top.get("format"), "format", (FORMAT,))
    ident = r.identifier(top.get("id"), "id")
    title = r.string(top.get("title"), "title")
    r.string(top.get("source"), "source")
    rules = _rules(r, top.get("rules"))
    built = _example(r, top.get("example"), ident or "?", rules)
    if r.problems or ident is None or title is None or rules is None or built is None:
        raise DataError(source, r.problems or [Problem("", "format", "incomplete scenario")])
    return Scenario(ident, title, rules, built[1], built[2], built[0])


# Each block of `rules`: its keys (all required, with a `source`).
RULE_BLOCKS: dict[str, tuple[str, ...]] = {
    "table": ("width_in", "depth_in"),
    "points": ("recommended_min", "recommended_max", "several_players_min"),
    "brigades": ("units_min", "units_max"),
    "roles": ("method", "ties"),
    "terrain_setup": ("by", "attacker_edge", "defender_edge"),
    "objectives": ("count", "naming", "edge_min_in", "spacing_min_in"),
    "deployment": ("zone_depth_in",),
    "deployment_order": ("value",),
    "reserves": ("earliest_round", "max_share_per_round", "entry"),
    "initiative": ("roller", "threshold"),
    "turn_limit": ("value",),
    "victory": ("rule",),
}
MENU_BLOCKS: dict[str, tuple[str, ...]] = {
    "villages": ("min", "max"),
    "woods": ("min", "max", "size_in"),
    "rivers": ("max", "crossings_min"),
}


def _blocks(
    r: Reader, found: dict[str, object], path: str, shapes: dict[str, tuple[str, ...]]
) -> dict[str, dict[str, object]]:
    """The blocks by name (a missing one is already reported, and is empty here); each has
    its keys and the source of its values."""
    out: dict[str, dict[str, object]] = {}
    for name, keys in shapes.items():
        where = at(path, name)
        block = r.mapping(found[name], where, (*keys, "source")) if name in found else None
        if block is not None and "source" in block:
            r.string(block["source"], at(where, "source"))
        out[name] = block or {}
    return out


def _rules(r: Reader, value: object) -> ScenarioRules | None:
    found = r.mapping(value, "rules", (*RULE_BLOCKS, "terrain_menu")) or {}
    blocks = _blocks(r, found, "rules", RULE_BLOCKS)
    menu_found: dict[str, object] | None = {}
    if "terrain_menu" in found:
        menu_found = r.mapping(found["terrain_menu"], "rules.terrain_menu", tuple(MENU_BLOCKS))
    menu = _blocks(r, menu_found or {}, "rules.terrain_menu", MENU_BLOCKS)
    width = read_inches(r, blocks["table"].get("width_in"), "rules.table.width_in")
    depth = read_inches(r, blocks["table"].get("depth_in"), "rules.table.depth_in")
    wanted = (
        (blocks, "objectives", "count"),
        (blocks, "objectives", "edge_min_in"),
        (blocks, "objectives", "spacing_min_in"),
        (blocks, "deployment", "zone_depth_in"),
        (menu, "villages", "min"),
        (menu, "villages", "max"),
        (menu, "woods", "min"),
        (menu, "woods", "max"),
        (menu, "rivers", "max"),
        (menu, "rivers", "crossings_min"),
        (blocks, "turn_limit", "value"),
    )
    numbers = [  # a missing key is already reported
        r.integer(group[name][key], f"rules.{name}.{key}", minimum=0, maximum=200)
        if key in group[name]
        else None
        for group, name, key in wanted
    ]
    if width is None or depth is None or width <= 0 or depth <= 0 or None in numbers:
        return None
    n = [int(x or 0) for x in numbers]
    reserves = blocks["reserves"]  # VF-122
    earliest = r.integer(reserves.get("earliest_round"), "rules.reserves.earliest_round",
                         minimum=1, maximum=200)  # fmt: skip
    share = str(reserves.get("max_share_per_round", "1/2")).split("/")
    entry = r.choice(reserves.get("entry"), "rules.reserves.entry", ("own_edge",))
    if earliest is None or entry is None or len(share) != 2 or not all(x.isdigit() for x in share):
        r.fail("rules.reserves", "earliest_round, max_share_per_round (n/d), entry", "VF-122")
        return None
    return ScenarioRules(
        width, depth, n[0], n[1], n[2], n[3], (n[4], n[5]), (n[6], n[7]), n[8], n[9], n[10],
        earliest, (int(share[0]), int(share[1])), entry,
    )  # fmt: skip


def _example(
    r: Reader, value: object, scenario: str, rules: ScenarioRules | None
) -> tuple[GameState, dict[str, object], dict[str, str]] | None:
    keys = ("note", "attacker", "edges", "first_side", "leader_radius_in", "terrain")
    f = r.mapping(value, "example", (*keys, "objectives", "sides")) or {}
    r.string(f.get("note"), "example.note", max_len=2000)
    attacker = r.choice(f.get("attacker"), "example.attacker", SIDES)
    first = r.choice(f.get("first_side"), "example.first_side", SIDES)
    edges_doc = r.mapping(f.get("edges"), "example.edges", SIDES) or {}
    edges = {s: r.choice(edges_doc.get(s), f"example.edges.{s}", EDGES) for s in SIDES}
    radius = read_inches(r, f.get("leader_radius_in"), "example.leader_radius_in")
    terrain = _terrain(r, f.get("terrain"))
    objectives = _objectives(r, f.get("objectives"))
    sides_doc = r.mapping(f.get("sides"), "example.sides", SIDES) or {}
    built: list[BuiltSide] = []
    armies: dict[str, object] = {}
    for side in SIDES:
        doc = r.mapping(
            sides_doc.get(side), f"example.sides.{side}", ("army", "leaders", "placements")
        )
        if doc is None or radius is None or radius <= 0:
            continue
        role = None if attacker is None else ("attacker" if attacker == side else "defender")
        one = build_side(r, side, doc, radius, role, edges[side])
        if one is not None:
            built.append(one)
            armies[side] = doc.get("army")
    if rules is None or len(built) != len(SIDES):
        return None
    state = GameState(
        scenario,
        Table(rules.width_in, rules.depth_in),
        TurnRecord(1, Phase.SETUP, first, first, 0, 0, rules.turn_limit),
        tuple(b.side for b in built),
        tuple(x for b in built for x in b.brigades),
        tuple(x for b in built for x in b.units),
        tuple(x for b in built for x in b.leaders),
        terrain,
        objectives,
    )
    return state, armies, {s: str(e) for s, e in edges.items()}


def _terrain(r: Reader, value: object) -> tuple[TerrainPiece, ...]:
    out = []
    keys = ("id", "kind", "traits", "polygon")
    for i, item in enumerate(r.sequence(value, "example.terrain", max_len=60) or []):
        path = idx("example.terrain", i)
        f = r.mapping(item, path, keys, ("wood_mode", "height", "gives_march_bonus")) or {}
        ident = r.identifier(f.get("id"), at(path, "id"))
        kind = r.identifier(f.get("kind"), at(path, "kind"))
        names = r.strings(f.get("traits"), at(path, "traits"), max_len=9) or ()
        traits = [r.choice(t, at(path, "traits"), set(Trait)) for t in names]
        corners = r.sequence(f.get("polygon"), at(path, "polygon"), max_len=200) or []
        polygon = [read_point(r, c, idx(at(path, "polygon"), j)) for j, c in enumerate(corners)]
        mode = f.get("wood_mode")
        if mode is not None:
            mode = r.choice(mode, at(path, "wood_mode"), ("defensible", "rough"))
        height = f.get("height")
        if height is not None:
            height = r.integer(height, at(path, "height"), minimum=0, maximum=10)
        bonus = f.get("gives_march_bonus")
        if bonus is not None:
            bonus = r.boolean(bonus, at(path, "gives_march_bonus"))
        corners_ok = [p for p in polygon if p is not None]
        if ident is None or kind is None or None in traits or len(corners_ok) != len(polygon):
            continue
        out.append(
            TerrainPiece(
                ident,
                kind,
                frozenset(Trait(str(t)) for t in traits),
                tuple(corners_ok),
                mode if isinstance(mode, str) else None,
                height if isinstance(height, int) else None,
                (),
                bonus if isinstance(bonus, bool) else None,
            )
        )
    return tuple(out)


def _objectives(r: Reader, value: object) -> tuple[Objective, ...]:
    out = []
    for i, item in enumerate(r.sequence(value, "example.objectives", max_len=10) or []):
        path = idx("example.objectives", i)
        f = r.mapping(item, path, ("id", "x", "y"), ("feature",)) or {}
        ident = r.identifier(f.get("id"), at(path, "id"))
        x, y = read_inches(r, f.get("x"), at(path, "x")), read_inches(r, f.get("y"), at(path, "y"))
        feature = f.get("feature")
        if feature is not None:
            feature = r.identifier(feature, at(path, "feature"))
        if ident is not None and x is not None and y is not None:
            out.append(Objective(ident, x, y, feature if isinstance(feature, str) else None))
    return tuple(out)
