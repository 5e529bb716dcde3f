"""The records of a scenario (`vf-scenario/1`, digest 3.19, 5.4): the numbers of its procedure
(`ScenarioRules`) and one set-up built into the state model (`Scenario`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from games.valour_fortitude.state import GameState


@dataclass(frozen=True, slots=True)
class ScenarioRules:
    """What the set-up checks use (each value has its source in the file): the table (VF-248),
    the terrain menu (VF-248), objectives (VF-249), the deployment zone (VF-250), the turn
    limit (VF-24, GAP-13)."""

    width_in: Decimal
    depth_in: Decimal
    objective_count: int
    objective_edge_min_in: int
    objective_spacing_min_in: int
    deployment_depth_in: int
    villages: tuple[int, int]
    woods: tuple[int, int]
    rivers_max: int
    river_crossings_min: int
    turn_limit: int
    reserve_earliest_round: int = 2  # VF-122 (seed L573)
    reserve_share: tuple[int, int] = (1, 2)  # at most this share of the reserves per round
    reserve_entry: str = "own_edge"


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    rules: ScenarioRules
    armies: Mapping[str, object]  # side -> its army document, as check_army reads it
    edges: Mapping[str, str]  # side -> the table edge it enters from
    state: GameState
