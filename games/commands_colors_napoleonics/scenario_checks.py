"""The load-time checks of a scenario (digest 8.2, "MUST reject the file if any fails"), one
function per rule, each problem with the YAML path and the rule: pieces on the board, one unit
and one leader per hex, nothing on terrain it may not enter, bridges and field works, nations
and national data (an unknown value needed names its gap), objectives; and the hill groups,
computed at load time (2.4)."""

from __future__ import annotations

from collections import defaultdict

from games.commands_colors_napoleonics.board import Board, Side
from games.commands_colors_napoleonics.deck import SQUARE_MIN_HAND
from games.commands_colors_napoleonics.errors import UnknownValueError
from games.commands_colors_napoleonics.fields import Reader
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.nations import NationsData
from games.commands_colors_napoleonics.scenario_model import CLEAR, HillGroup, UnitSetup
from games.commands_colors_napoleonics.scenario_read import Draft
from games.commands_colors_napoleonics.terrain import RIVER_TYPES, HexTerrain, UnitClass
from games.commands_colors_napoleonics.units import UNIT_TYPES
from games.core.bounded_yaml import at, idx

# Why a piece may not stand on a terrain type (CCN-29 and the terrain's own rule).
IMPASSABLE_RULE = {"rocky_hill": "CCN-161", "river": "CCN-172", "sand_quarry": "CCN-176"}


def check_draft(
    reader: Reader, draft: Draft, board: Board, nations: NationsData
) -> tuple[dict[Hex, HexTerrain], tuple[UnitSetup, ...], tuple[HillGroup, ...], tuple[str, ...]]:
    """Run every check; return the terrain by hex, the units with their blocks, the hill groups
    and the warnings."""
    terrain = terrain_by_hex(reader, draft)
    check_on_board(reader, draft, board)
    check_objective_hexes_on_board(reader, draft, board)
    check_bridges(reader, draft)
    check_ids_unique(reader, draft)
    check_baselines(reader, draft, board)
    check_hand_sizes(reader, draft)
    check_units_share_hex(reader, draft)
    check_leaders_share_hex(reader, draft)
    check_leader_not_with_enemy(reader, draft)
    check_impassable(reader, draft, terrain)
    check_squares(reader, draft, terrain)
    check_nations_listed(reader, draft, nations)
    check_objectives(reader, draft)
    check_deck(reader, draft)
    units, warnings = resolve_blocks(reader, draft, nations)
    groups = hill_groups(reader, draft, terrain, board)
    return terrain, units, groups, warnings


def terrain_by_hex(reader: Reader, draft: Draft) -> dict[Hex, HexTerrain]:
    """One entry per hex (2.4): a hex listed twice is refused."""
    found: dict[Hex, HexTerrain] = {}
    first: dict[Hex, str] = {}
    for path, hex_, terrain in draft.terrain:
        if hex_ in found:
            reader.fail(at(path, "hex"), f"hex {hex_} is already listed at {first[hex_]}", "§2.4")
            continue
        found[hex_] = terrain
        first[hex_] = path
    return found


def check_on_board(reader: Reader, draft: Draft, board: Board) -> None:
    """Every hex is on the board (2.1)."""
    places = [(at(p, "hex"), h) for p, h, _ in draft.terrain]
    places += [(at(u.path, "hex"), u.hex) for u in draft.units]
    places += [(at(ld.path, "hex"), ld.hex) for ld in draft.leaders]
    for path, hex_ in places:
        if not board.contains(hex_):
            reader.fail(path, f"hex {hex_} is not on the board {board.id}", "§2.1")


def check_bridges(reader: Reader, draft: Draft) -> None:
    """A bridge spans a river or a shallow river only (2.4, CCN-175)."""
    for path, _, terrain in draft.terrain:
        if terrain.bridge and terrain.base not in RIVER_TYPES:
            reader.fail(
                at(path, "bridge"), f"a bridge spans a river, not {terrain.base}", "CCN-175"
            )


def check_ids_unique(reader: Reader, draft: Draft) -> None:
    """Unit and leader ids are unique together; objective ids among objectives (8.2)."""
    seen: dict[str, str] = {}
    items = [(u.path, u.id) for u in draft.units] + [(ld.path, ld.id) for ld in draft.leaders]
    for path, piece_id in items:
        if piece_id in seen:
            reader.fail(
                at(path, "id"), f"id {piece_id} is already used at {seen[piece_id]}", "§8.2"
            )
        seen.setdefault(piece_id, path)
    objective_ids: set[str] = set()
    for path, objective in draft.objectives:
        if objective.id in objective_ids:
            reader.fail(at(path, "id"), f"objective id {objective.id} is used twice", "§8.2")
        objective_ids.add(objective.id)


def check_baselines(reader: Reader, draft: Draft, board: Board) -> None:
    """A side's baseline is its board edge: top row 0, bottom the last row (2.3)."""
    for side, setup in draft.sides.items():
        expected = board.baseline_row(side)
        if setup.baseline_row != expected:
            reader.fail(
                f"sides.{side.value}.baseline_row",
                f"the {side.value} side's baseline is row {expected} on {board.id}",
                "§2.3",
            )


def check_hand_sizes(reader: Reader, draft: Draft) -> None:
    """Both hands are dealt from the 70 cards (CCN-3); a side does not start at its target
    (CCN-5)."""
    if sum(s.hand_size for s in draft.sides.values()) > 70:
        reader.fail("sides", "the two hands hold more than the 70 cards of the deck", "CCN-3")
    for side, setup in draft.sides.items():
        if setup.starting_banners >= setup.victory_banners:
            reader.fail(
                f"sides.{side.value}.starting_banners",
                "a side may not start with its victory target",
                "CCN-5",
            )


def check_units_share_hex(reader: Reader, draft: Draft) -> None:
    """Two units never share a hex (2.5, CCN-25; seed L260)."""
    seen: dict[Hex, str] = {}
    for unit in draft.units:
        if unit.hex in seen:
            reader.fail(
                at(unit.path, "hex"), f"hex {unit.hex} already holds {seen[unit.hex]}", "CCN-25"
            )
        seen.setdefault(unit.hex, unit.id)


def check_leaders_share_hex(reader: Reader, draft: Draft) -> None:
    """At most one leader per hex (CCN-35, CCN-99; seed L296)."""
    seen: dict[Hex, str] = {}
    for leader in draft.leaders:
        if leader.hex in seen:
            reader.fail(
                at(leader.path, "hex"),
                f"hex {leader.hex} already holds leader {seen[leader.hex]}",
                "CCN-35",
            )
        seen.setdefault(leader.hex, leader.id)


def check_leader_not_with_enemy(reader: Reader, draft: Draft) -> None:
    """A leader never stands with an enemy unit (CCN-36; seed L301)."""
    units = {u.hex: u for u in draft.units}
    for leader in draft.leaders:
        unit = units.get(leader.hex)
        if unit is not None and unit.side is not leader.side:
            reader.fail(
                at(leader.path, "hex"), f"hex {leader.hex} holds the enemy unit {unit.id}", "CCN-36"
            )


def check_impassable(reader: Reader, draft: Draft, terrain: dict[Hex, HexTerrain]) -> None:
    """No unit or leader on rocky hill or an unbridged river, no artillery on a sand quarry
    (CCN-29, CCN-161, CCN-172, CCN-176)."""
    pieces: list[tuple[str, Hex, UnitClass | None, str]] = [
        (u.path, u.hex, UNIT_TYPES[u.type].unit_class, u.type) for u in draft.units
    ]
    pieces += [(ld.path, ld.hex, None, "leader") for ld in draft.leaders]
    for path, hex_, unit_class, what in pieces:
        here = terrain.get(hex_, CLEAR)
        if not here.may_enter(unit_class):
            rule = IMPASSABLE_RULE.get(here.base, "CCN-29")
            reader.fail(at(path, "hex"), f"a {what} may not stand on {here.base} at {hex_}", rule)


def check_squares(reader: Reader, draft: Draft, terrain: dict[Hex, HexTerrain]) -> None:
    """`in_square` (test fixtures): infantry only, on terrain that allows squares (CCN-162,
    CCN-166), each marker 1-4 once per side (2.11)."""
    markers: set[tuple[Side, int]] = set()
    for unit in draft.units:
        if unit.in_square is None:
            continue
        path = at(unit.path, "in_square")
        if UNIT_TYPES[unit.type].unit_class is not UnitClass.INF:
            reader.fail(path, "only infantry forms square", "§2.11")
        elif not terrain.get(unit.hex, CLEAR).square_allowed:
            reader.fail(path, f"no square on the terrain of {unit.hex}", "CCN-162")
        elif (unit.side, unit.in_square) in markers:
            reader.fail(path, f"square marker {unit.in_square} is already used", "§2.11")
        markers.add((unit.side, unit.in_square))
    for side, setup in draft.sides.items():  # each square took a card from the hand (CCN-124)
        n = sum(1 for s, _ in markers if s is side)
        if n and setup.hand_size - n < SQUARE_MIN_HAND - 1:
            reader.fail(
                f"sides.{side.value}.hand_size",
                f"{n} squares leave {setup.hand_size - n} cards in hand; each square was formed"
                f" with {SQUARE_MIN_HAND} cards or more",
                "CCN-122",
            )


def check_nations_listed(reader: Reader, draft: Draft, nations: NationsData) -> None:
    """Every side's nation is in the nations file (2.6); every unit's and leader's nation is
    listed in its side's `nations` (8.2)."""
    for side, setup in draft.sides.items():
        for i, nation in enumerate(setup.nations):
            if nation not in nations.nations:
                known = ", ".join(sorted(nations.nations))
                reader.fail(
                    idx(f"sides.{side.value}.nations", i),
                    f"no nation {nation} in {nations.ruleset} ({known})",
                    "§2.6",
                )
    pieces = [(u.path, u.side, u.nation) for u in draft.units]
    pieces += [(ld.path, ld.side, ld.nation) for ld in draft.leaders]
    for path, side, nation in pieces:
        listed = draft.sides.get(side)
        if listed is not None and nation not in listed.nations:
            reader.fail(
                at(path, "nation"),
                f"{nation} is not one of the {side.value} side's nations",
                "§8.2",
            )


def check_objectives(reader: Reader, draft: Draft) -> None:
    """Objective hexes are valid (8.2): listed once, and there are some unless the objective is
    to clear a section, which names its section."""
    for path, objective in draft.objectives:
        if objective.kind == "clear_section":
            if objective.section is None:
                reader.fail(
                    at(path, "section"), "a clear_section objective names its section", "§8.2"
                )
            if objective.hexes:
                reader.fail(at(path, "hexes"), "a clear_section objective lists no hexes", "§8.2")
            if objective.count_mode != "any" or objective.unit_classes != frozenset(UnitClass):
                reader.fail(
                    path,
                    "a clear_section objective has no count_mode or unit_classes"
                    " (any enemy unit in the section keeps it)",
                    "§8.2",
                )
        elif objective.section is not None:
            reader.fail(
                at(path, "section"), "only a clear_section objective names a section", "§8.2"
            )
        if objective.kind != "clear_section" and not objective.hexes:
            reader.fail(at(path, "hexes"), f"a {objective.kind} objective lists its hexes", "§8.2")
        if len(set(objective.hexes)) != len(objective.hexes):
            reader.fail(at(path, "hexes"), "a hex is listed twice", "§8.2")


def check_objective_hexes_on_board(reader: Reader, draft: Draft, board: Board) -> None:
    for path, objective in draft.objectives:
        for j, hex_ in enumerate(objective.hexes):
            if not board.contains(hex_):
                reader.fail(
                    idx(at(path, "hexes"), j), f"hex {hex_} is not on the board {board.id}", "§8.2"
                )


def check_deck(reader: Reader, draft: Draft) -> None:
    """A fixed deal gives each side its hand size (CCN-3)."""
    if draft.deck is None:
        return
    for side, hand in draft.deck.hands.items():
        setup = draft.sides.get(side)
        if setup is not None and len(hand) != setup.hand_size:
            reader.fail(
                f"deck.hands.{side.value}",
                f"{len(hand)} cards for a hand size of {setup.hand_size}",
                "CCN-3",
            )


def resolve_blocks(
    reader: Reader, draft: Draft, nations: NationsData
) -> tuple[tuple[UnitSetup, ...], tuple[str, ...]]:
    """Each unit's starting blocks (CCN-2): the scenario's, else the nations file's. A (nation,
    type) missing from the file needs explicit blocks (then a warning: no national modifiers);
    an unknown value in the file refuses the scenario with its gap named (8.2, 8.3)."""
    units: list[UnitSetup] = []
    warnings: list[str] = []
    for unit in draft.units:
        known = nations.has_unit(unit.nation, unit.type)
        path = at(unit.path, "blocks")
        if unit.blocks is not None:
            blocks, source = unit.blocks, "scenario"
            if not known:
                warnings.append(
                    f"{unit.path}: {unit.nation} {unit.type} is not in the nations file: the"
                    " rulebook's unit type applies, with no national modifiers (§8.2)"
                )
        elif not known:
            reader.fail(
                path,
                f"{unit.nation} {unit.type} is not in the nations file {nations.ruleset}:"
                " give its blocks",
                "§8.2",
            )
            continue
        else:
            try:
                blocks = nations.blocks(unit.nation, unit.type)
            except UnknownValueError as exc:
                reader.fail(path, f"{exc}: give the unit's blocks in the scenario", exc.gap)
                continue
            source = nations.unit_value(unit.nation, unit.type, "blocks").source or ""
        units.append(
            UnitSetup(
                unit.id,
                unit.side,
                unit.nation,
                unit.type,
                unit.hex,
                blocks,
                source,
                unit.in_square,
                unit.path,
            )
        )
    return tuple(units), tuple(warnings)


def hill_groups(
    reader: Reader, draft: Draft, terrain: dict[Hex, HexTerrain], board: Board
) -> tuple[HillGroup, ...]:
    """Touching hill hexes form one group, a plateau (2.4, seed L976); rocky hills join only with
    the option `rocky_hill_is_hill` (AMB-12). `group_name` is for hills, one name per group."""
    hill_types = {"hill", "rocky_hill"} if draft.options["rocky_hill_is_hill"] else {"hill"}
    for path, _, hex_terrain in draft.terrain:
        if hex_terrain.group_name is not None and hex_terrain.base not in hill_types:
            reader.fail(at(path, "group_name"), "only hills form groups", "§2.4")
    hills = {h for h, t in terrain.items() if t.base in hill_types and board.contains(h)}
    groups: list[HillGroup] = []
    seen: set[Hex] = set()
    for start in sorted(hills):
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier:
            for near in board.grid.neighbours(frontier.pop()):
                if near in hills and near not in group:
                    group.add(near)
                    frontier.append(near)
        seen |= group
        names = sorted({n for h in group if (n := terrain[h].group_name) is not None})
        if len(names) > 1:
            reader.fail(
                "terrain",
                f"one hill group {sorted(group)} has the names {', '.join(names)}",
                "§2.4",
            )
        groups.append(HillGroup(names[0] if names else None, frozenset(group)))
    by_name: defaultdict[str, int] = defaultdict(int)
    for g in groups:
        if g.name is not None:
            by_name[g.name] += 1
    for name, count in sorted(by_name.items()):
        if count > 1:
            reader.fail(
                "terrain", f"the name {name} is given to {count} separate hill groups", "§2.4"
            )
    return tuple(groups)
