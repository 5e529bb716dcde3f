"""Line of sight (digest 3.21, CCN-179..184, the hill rules CCN-159/160 of 3.20, AMB-5, AMB-12,
AMB-13; rulebook L374-378, L958-982, L992).

The line runs from the centre of the firer's hex to the centre of the target's hex; only the
hexes strictly between them can block, never the target's terrain (CCN-179, L376). Each step of
`hexes.line_between` is one hex, or the two hexes whose common edge the line runs along; such a
step blocks only if both of its hexes block (CCN-181, L376). A hex blocks when it holds:

* a unit or leader of either side (CCN-180, L376), except a friendly one on the lower hex next
  to artillery firing from a hill, when that hex has no blocking terrain (CCN-159, L958), and
  never in combined arms (CCN-138, L896);
* forest, town, windmill or rocky hill (CCN-154, CCN-165, CCN-161: the `los` of terrain.py);
* a hill, unless firer and target both stand on hills and the hex belongs to the firer's or the
  target's plateau (CCN-182, L970-978; AMB-5 `hill_to_hill_scope`; a rocky hill is a hill here
  only with AMB-12 `rocky_hill_is_hill`);
* no hex at all: a hex off the playable board is an obstacle (CCN-183, AMB-13
  `los_blocked_by_board_edge`, default true). On the provisional board such lines only run along
  the ragged edge of the odd rows, so the edge rule applies: blocked when the board hex beside
  the line blocks too.

Rivers, shallow rivers, bridges, field works and sand quarries never block (CCN-180).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.commands_colors_napoleonics.board import Board, Side
from games.commands_colors_napoleonics.hexes import Hex, distance, line_between
from games.commands_colors_napoleonics.options import AMB_OPTIONS, OptionValue
from games.commands_colors_napoleonics.scenario_model import Scenario
from games.commands_colors_napoleonics.terrain import HexTerrain, Los, UnitClass

EDGE_RULE = "CCN-181"
_CLEAR_HEX = HexTerrain()


@dataclass(frozen=True, slots=True)
class Occupant:
    """What stands in a hex, as line of sight needs it: the side, and the class of the unit
    (None: a lone leader). A unit with an attached leader is one occupant."""

    side: Side
    unit_class: UnitClass | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """One hex that blocks, with the rule that makes it block."""

    hex: Hex
    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.hex} ({self.reason}, {self.rule})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """Clear (no `blocked_by`), or blocked at the first step from the firer that blocks: one
    hex, or the two hexes of an edge the line runs along (then `rule` is CCN-181)."""

    blocked_by: tuple[Block, ...] = ()
    rule: str | None = None

    @property
    def clear(self) -> bool:
        return not self.blocked_by

    def __str__(self) -> str:
        if self.clear:
            return "line of sight clear"
        where = " and ".join(str(b) for b in self.blocked_by)
        return f"line of sight blocked ({self.rule}) by {where}"


CLEAR = Verdict()


def occupants(scenario: Scenario) -> dict[Hex, Occupant]:
    """The occupied hexes of a scenario's set-up: every unit (with its attached leader) and
    every lone leader."""
    found = {u.hex: Occupant(u.side, u.unit_class) for u in scenario.units}
    for leader in scenario.leaders:
        found.setdefault(leader.hex, Occupant(leader.side))
    return found


def line_of_sight(
    board: Board,
    terrain: Scenario | Mapping[Hex, HexTerrain],
    units: Mapping[Hex, Occupant],
    from_hex: Hex,
    to_hex: Hex,
    *,
    options: Mapping[str, OptionValue] | None = None,
    combined_arms: bool = False,
) -> Verdict:
    """Whether a unit in `from_hex` sees `to_hex` (CCN-179..184). `terrain` is a scenario or the
    hexes that are not clear; `options` override the scenario's, and an unset one is the AMB's
    default. `combined_arms`: the artillery supports a melee, so it may not fire over a
    friendly unit (CCN-138). Both hexes must be distinct hexes of the board."""
    if isinstance(terrain, Scenario):
        options = {**terrain.options, **(options or {})}
        terrain = terrain.terrain
    for end in (from_hex, to_hex):
        if not board.contains(end):
            raise ValueError(f"{end} is not on the board")
    if from_hex == to_hex:
        raise ValueError("line of sight needs two hexes")
    sight = _Sight(board, terrain, units, options or {}, from_hex, to_hex, combined_arms)
    for step in line_between(from_hex, to_hex):
        found = [sight.obstacle(h) for h in step]
        blocks = tuple(b for b in found if b is not None)
        if len(blocks) == len(step):
            return Verdict(blocks, blocks[0].rule if len(blocks) == 1 else EDGE_RULE)
    return CLEAR


class _Sight:
    """One line's firer and target, with what decides whether a hex between them blocks."""

    def __init__(
        self,
        board: Board,
        terrain: Mapping[Hex, HexTerrain],
        units: Mapping[Hex, Occupant],
        options: Mapping[str, OptionValue],
        from_hex: Hex,
        to_hex: Hex,
        combined_arms: bool,
    ) -> None:
        self.board, self.terrain, self.units = board, terrain, units
        self.from_hex, self.combined_arms = from_hex, combined_arms
        self.to_hex, self.options = to_hex, options
        self.hill_types = {"hill", "rocky_hill"} if self._option("rocky_hill_is_hill") else {"hill"}
        self.plateaus: set[Hex] | None = None

    def _option(self, key: str) -> OptionValue:
        return self.options.get(key, AMB_OPTIONS[key].default)

    def at(self, hex_: Hex) -> HexTerrain:
        return self.terrain.get(hex_, _CLEAR_HEX)

    def is_hill(self, hex_: Hex) -> bool:
        return self.at(hex_).base in self.hill_types

    def hill_seen_across(self, hex_: Hex) -> bool:
        """Whether the hill hex `hex_` between does not block: firer and target both stand on
        hills and it is on the firer's or the target's plateau (CCN-182 rule 6, AMB-5 default),
        or on any hill with `hill_to_hill_scope: separate_groups` (a third hill is ignored)."""
        if not (self.is_hill(self.from_hex) and self.is_hill(self.to_hex)):
            return False
        if self._option("hill_to_hill_scope") == "separate_groups":
            return True
        if self.plateaus is None:  # computed once, when a hill between first needs it
            self.plateaus = self._plateau(self.from_hex)
            if self.to_hex not in self.plateaus:
                self.plateaus |= self._plateau(self.to_hex)
        return hex_ in self.plateaus

    def _plateau(self, start: Hex) -> set[Hex]:
        """The touching hill hexes around `start`, one plateau (2.4, L976)."""
        group, frontier = {start}, [start]
        while frontier:
            for near in self.board.grid.neighbours(frontier.pop()):
                if near not in group and self.is_hill(near):
                    group.add(near)
                    frontier.append(near)
        return group

    def obstacle(self, hex_: Hex) -> Block | None:
        if not self.board.contains(hex_):
            if self._option("los_blocked_by_board_edge"):
                return Block(hex_, "AMB-13", "off the board")
            return None
        here = self.at(hex_)
        if self.is_hill(hex_):
            if not self.hill_seen_across(hex_):
                return Block(hex_, "CCN-182", "a hill")
        elif here.los is Los.BLOCKS:
            return Block(hex_, here.kind.sources["los"].split(",")[0], here.kind.code)
        occupant = self.units.get(hex_)
        if occupant is None:
            return None
        if self._fires_over(hex_, occupant):
            if not self.combined_arms:
                return None
            return Block(hex_, "CCN-138", "a friendly unit or leader: not in combined arms")
        return Block(hex_, "CCN-180", "a unit or leader")

    def _fires_over(self, hex_: Hex, occupant: Occupant) -> bool:
        """Artillery on a hill over a friendly piece on the adjacent lower hex (CCN-159); the hex
        has no blocking terrain, or `obstacle` has already returned."""
        firer = self.units.get(self.from_hex)
        return (
            firer is not None
            and firer.unit_class is UnitClass.ART
            and self.is_hill(self.from_hex)
            and distance(self.from_hex, hex_) == 1
            and not self.is_hill(hex_)
            and occupant.side is firer.side
        )
