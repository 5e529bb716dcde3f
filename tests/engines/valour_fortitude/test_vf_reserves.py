"""Reserves (VF-120..VF-122, V-15) on a test variant of the starter scenario (its example holds
none): six French units held back, brought on over the south edge in march column with two Move
actions, round 2 at the earliest and at most half per round (VF-T41, AMB-28), delayed by
Friktion (VF-121), refused by rule on the sheet."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal

import pytest
import yaml

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.valour_fortitude import match as m
from games.valour_fortitude import reserves as rs
from games.valour_fortitude import turn
from games.valour_fortitude.checks import violations
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Phase
from tests.engines.valour_fortitude.vf_play import ScriptedDice, play_to_end, starter

VARIANT = """
A:
  U-A1: {files: 6, ranks: 4, across: 1, deep: 4, base_w: "2.36", base_d: "1.57"}
  U-A5: {files: 6, ranks: 4, across: 1, deep: 4, base_w: "2.36", base_d: "1.57"}
  U-A6: {files: 6, ranks: 4, across: 1, deep: 4, base_w: "2.36", base_d: "1.57"}
  U-A7: {files: 6, ranks: 4, across: 1, deep: 4, base_w: "2.36", base_d: "1.57"}
  U-A8: {files: 3, ranks: 2, across: 1, deep: 2, base_w: "2.36", base_d: "1.97"}
  U-A9: {files: 3, ranks: 2, across: 1, deep: 2, base_w: "2.36", base_d: "1.97"}
B: {}
"""
LANES = {"U-A1": 20, "U-A5": 40, "U-A6": 60, "U-A7": 80, "U-A8": 95, "U-A9": 100}


def templates() -> dict[str, dict[str, rs.Template]]:
    r = Reader()
    found = rs.read_reserves(r, yaml.safe_load(VARIANT), "reserves")
    assert not r.problems
    return found


def variant(**options: JSON) -> m.Match:
    match = starter(**options)
    flow = json.loads(json.dumps(match.flow))
    game = rs.hold(match.game, flow, templates(), rs.ReserveRules())
    return m.Match(game, flow)


def at_round(match: m.Match, round_: int, dice: tuple[int, ...] = ()) -> Ctx:
    turn_ = replace(match.game.turn, round=round_, active_side="A", phase=Phase.COMMAND)
    flow = json.loads(json.dumps(match.flow))
    flow.update(stage="resolving", auto_geometry=True, facts={})
    return Ctx(replace(match.game, turn=turn_), flow, ScriptedDice(dice))


def entry(unit: str, depth: int = 12) -> dict[str, JSON]:
    x = LANES[unit]
    return {"unit": unit, "at": [x, 0], "path": [[x, depth]]}


def test_the_variant_holds_six_units() -> None:
    match = variant()
    assert rs.waiting(match.game, match.flow, "A") == list(LANES)
    assert all(not match.game.unit(u).bases for u in LANES)
    assert m.brigade(match.game, "BR-A3").in_reserve  # all its units wait
    assert not m.brigade(match.game, "BR-A1").in_reserve
    assert not violations(match)


def test_reading_reserves_refuses_what_is_missing() -> None:
    r = Reader()
    rs.read_reserves(r, {"A": {"U-A1": {"files": 6}}, "B": {}}, "reserves")
    assert r.problems


def test_starter_rules_give_round_two_and_half() -> None:
    """VF-122 (seed L573) as the scenario's data gives it."""
    flow = starter().flow["reserves"]
    assert isinstance(flow, dict)
    assert (flow["earliest_round"], flow["share"], flow["entry"]) == (2, [1, 2], "own_edge")


def test_t41_round_one_none_round_two_three() -> None:
    """VF-T41: 6 reserve units: none in round 1; in round 2 at most 3, each in march column with
    two Moves (12 in here: more than one Move of 12 in is allowed, up to 24)."""
    c = at_round(variant(), 1)
    with pytest.raises(Skip) as skip:
        rs.enter(c, entry("U-A1"))
    assert skip.value.rule == "VF-122"
    c = at_round(variant(), 2)
    for unit in ("U-A1", "U-A5", "U-A6"):
        rs.enter(c, entry(unit, depth=20))
        placed = c.game.unit(unit)
        assert placed.bases
        assert placed.formation is Formation.MARCH_COLUMN
        assert placed.turn_flags.acted  # no other action, no charge this round
        assert min(b.y for b in placed.bases) > 0
    with pytest.raises(Skip) as skip:
        rs.enter(c, entry("U-A7"))
    assert skip.value.rule == "VF-122"
    assert rs.waiting(c.game, c.flow, "A") == ["U-A7", "U-A8", "U-A9"]


def test_two_moves_at_most() -> None:
    """VF-120: two Move actions: 24 in for infantry in march column; more is delayed (VF-121)."""
    c = at_round(variant(), 2)
    with pytest.raises(Skip) as skip:
        rs.enter(c, entry("U-A1", depth=25))
    assert skip.value.rule == "VF-121"
    rs.enter(c, entry("U-A8", depth=30))  # cavalry: 2 x 18 in
    assert c.game.unit("U-A8").bases


def test_own_edge_only() -> None:
    c = at_round(variant(), 2)
    with pytest.raises(Skip) as skip:
        rs.enter(c, {"unit": "U-A1", "at": [20, 60], "path": [[20, 50]]})
    assert skip.value.rule == "VF-122"


def test_friktion_delays_the_reserves() -> None:
    """VF-121 with card 3: the reserves due this round arrive next round."""
    c = at_round(variant(), 2)
    c.flow["fate_effects"] = [{"card": "3", "side": "B", "scope": "turn", "kind": "friktion",
                               "against": "A"}]  # fmt: skip
    with pytest.raises(Skip) as skip:
        rs.enter(c, entry("U-A1"))
    assert skip.value.rule == "VF-121"


def test_sheet_entries_are_refused_by_rule() -> None:
    match = variant()
    game: GameState = match.game

    def rule(entries: list[JSON]) -> str:
        return rs.sheet_problems(game, match.flow, "A", entries)[0].rule

    assert rule([{"unit": "U-A2", "at": [1, 0], "path": [[1, 5]]}]) == "VF-120"  # on the table
    assert rule([{"unit": "U-B1", "at": [1, 0], "path": [[1, 5]]}]) == "VF-120"
    assert rule([{**entry("U-A1"), "formation_after": {}}]) == "VF-60"
    assert rule([{**entry("U-A1"), "after": "BR-B1"}]) == "VF-50"
    assert rule([{"unit": "U-A1"}]) == "schema"
    assert rule([entry("U-A1"), entry("U-A1")]) == "VF-120"
    assert not rs.sheet_problems(game, match.flow, "A", [entry("U-A1")])


def test_a_sheet_brings_reserves_on_after_the_named_brigade() -> None:
    """AMB-49: the unit enters where the CinC puts it in the brigade order, no activation test."""
    match = variant(auto_geometry=True)
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    match = RULESET.apply(match, Action(str(init["decider"]), "choose_first_side",
                                        {"side": "A"}), Rng(1)).state  # fmt: skip
    match = RULESET.apply(match, Action("B", "play_fate", {"plays": []}), Rng(1)).state
    game = replace(match.game, turn=replace(match.game.turn, round=2))
    match = m.Match(game, match.flow)
    sheet: dict[str, JSON] = {
        "brigade_order": ["BR-A1"],
        "reserves": [{**entry("U-A5"), "after": "BR-A1"}],
    }
    assert not RULESET.validate(match, Action("A", "turn_orders", sheet))
    step = RULESET.apply(match, Action("A", "turn_orders", sheet), Rng(3))
    texts = [e.text for e in step.log]
    first = next(i for i, t in enumerate(texts) if t.startswith("Brigade BR-A1 activates"))
    enters = next(i for i, t in enumerate(texts) if t.startswith("U-A5 enters from reserve"))
    assert first < enters
    assert not any("Activation test of brigade BR-A2" in t for t in texts)
    assert step.state.game.unit("U-A5").bases


def test_random_play_brings_reserves_on() -> None:
    match, _ = play_to_end(variant(auto_geometry=True, turn_limit=3), chooser=4)
    assert RULESET.result(match) is not None
    assert len(rs.waiting(match.game, match.flow, "A")) < len(LANES)
    assert not violations(match)


def test_arrival_faces_into_the_table() -> None:
    game = variant().game
    template = templates()["A"]["U-A1"].to_json()
    bases = rs.arrival(game, template, (Decimal(20), Decimal(0)), "south")
    assert len(bases) == 4
    assert all(b.facing_deg == 0 for b in bases)
    assert max(b.y for b in bases) < 0  # behind the edge until it moves
    assert "reserve" in turn.STEPS  # the runner knows the step


def test_reserve_rules_are_checked() -> None:
    """VF-122: the scenario's reserve rules make sense (a share of at most 1)."""
    from games.valour_fortitude.scenario import load_scenario
    from games.valour_fortitude.scenario_checks import reserve_rule_problems

    rules = load_scenario("starter").rules
    assert (rules.reserve_earliest_round, rules.reserve_share) == (2, (1, 2))
    assert not reserve_rule_problems(rules)
    assert reserve_rule_problems(replace(rules, reserve_share=(3, 2)))[0].rule == "VF-122"
    assert reserve_rule_problems(replace(rules, reserve_earliest_round=0))
