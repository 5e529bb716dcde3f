"""The worked examples of digest section 6 that the turn machine covers, with their exact numbers
and scripted dice (VF-Tn in each docstring)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.core.protocol import JSON
from games.valour_fortitude import command, melee, morale, turn
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.shooting import fire_profile, napoleon_of
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Objective, Trait, exact
from games.valour_fortitude.values import hit_tests, pipeline
from tests.engines.valour_fortitude.vf_builders import D, line, path, rect
from tests.engines.valour_fortitude.vf_play import ScriptedDice, ctx, game, set_unit


def test_vf_t1_one_halving_then_support() -> None:
    """VF-T1: ranged 3, attack column and obscured (two halvings, one applies), +1 supporter
    (VF-2: halved at most once)."""
    assert pipeline(3, 2, [1]) == 2


def test_vf_t2_carbines_never_below_one() -> None:
    """VF-T2: carbines are ranged 1, range 12, halved as skirmish fire: still 1 die (VF-145:
    Karabiner)."""
    hussars = game().unit("U-A8")
    assert fire_profile(hussars, "carbine") == (1, 12, 1)
    assert pipeline(1, 1, []) == 1
    assert fire_profile(hussars, "full") is None  # no ranged value of its own


def test_vf_t3_natural_six_and_one() -> None:
    """VF-T3: shaken firer at hard cover (-3), dice 6 5 4 1: only the natural 6 hits."""
    dice = ScriptedDice([6, 5, 4, 1])
    faces, hits = hit_tests(lambda n: [dice.d6() for _ in range(n)], 4, -3, False)
    assert (faces, hits) == ([6, 5, 4, 1], 1)


def test_vf_t4_one_reroll_per_die() -> None:
    """VF-T4 (the rule's part; the card is not built): heavy cavalry rerolls its two 1s once,
    1 and 2: faces 1 2 3 4 5 6, 3 hits with no modifier."""
    dice = ScriptedDice([1, 1, 3, 4, 5, 6, 1, 2])
    faces, hits = hit_tests(lambda n: [dice.d6() for _ in range(n)], 6, 0, True)
    assert faces == [1, 2, 3, 4, 5, 6]
    assert hits == 3
    assert not dice.faces


@pytest.mark.parametrize(
    ("fled", "die", "passed"),
    [(True, 2, False), (True, 3, True), (False, 2, True), (False, 1, False)],
)
def test_vf_t7_activation(fled: bool, die: int, passed: bool) -> None:
    """VF-T7: -1 with fled units; 2+ passes; a natural 1 fails."""
    state = game()
    state = replace(state, turn=replace(state.turn, active_side="A"))
    if fled:
        brigade = m.brigade(state, "BR-A2")
        state = m.with_brigade(state, replace(brigade, fled_units=("U-A6",)))
    c = ctx(state, [die], {"auto": False})
    follow = command.activate(c, "BR-A2")
    assert m.brigade(c.game, "BR-A2").activated_this_turn is passed
    assert (len(follow) > 1) is passed  # unit actions follow only a passed test
    assert follow[-1] == {"do": "bg_move", "brigade": "BR-A2"}  # AMB-16


def test_vf_t8_automatic_activation_range() -> None:
    """VF-T8: a BG 30 in from the CinC: beyond 24 in it tests; Napoleon's 36 in: no die."""
    state = game()
    state = replace(state, turn=replace(state.turn, active_side="A"))
    cinc = state.leader("L-A0")
    bg = state.leader("L-A2")
    state = m.with_leader(
        state, replace(bg, x=cinc.x, y=exact(cinc.y + D(30) + 2 * cinc.radius_in))
    )
    assert state.leader("L-A0").special_rules == ("napoleon",)
    c = ctx(state, [], auto=True)
    command.activate(c, "BR-A2")  # no die scripted: automatic
    assert m.brigade(c.game, "BR-A2").activated_this_turn is True
    plain = m.with_leader(state, replace(cinc, special_rules=()))
    c = ctx(plain, [5], auto=True)
    command.activate(c, "BR-A2")
    assert any("Activation test" in e.text for e in c.log)
    c2 = ctx(c.game, [2], auto=True)  # a second brigade that turn always tests
    command.activate(c2, "BR-A1")
    assert any("Activation test" in e.text for e in c2.log)


def _messenger_state(unit_id: str, gap_in: float) -> GameState:
    state = game()
    state = replace(state, turn=replace(state.turn, active_side="A"))
    unit = state.unit(unit_id)
    bg = state.leader(m.brigade(state, unit.brigade).bg)
    top = max(b.y + b.depth / 2 for b in unit.bases)
    x = unit.bases[0].x
    return m.with_leader(state, replace(bg, x=x, y=exact(top + D(gap_in) + bg.radius_in)))


@pytest.mark.parametrize(("unit_id", "die", "acts"), [("U-A1", 3, False), ("U-A8", 2, True)])
def test_vf_t9_messenger(unit_id: str, die: int, acts: bool) -> None:
    """VF-T9: 14 in from the BG, 3 fails; light cavalry +2: 2 passes."""
    state = _messenger_state(unit_id, 14)
    c = ctx(state, [die, 6], auto=True)  # the second die: the rally the order asks for
    c.flow["sheet"] = {"units": {unit_id: {"action": "RALLY"}}}
    command.unit_action(c, unit_id)
    assert c.log[0].text.startswith(f"Messenger test of {unit_id}")
    assert any("cannot take an action" in e.text for e in c.log) is not acts


def test_vf_t9_no_test_at_twelve_inches() -> None:
    """VF-T9: a unit exactly 12.0 in away takes no test."""
    state = _messenger_state("U-A1", 12)
    c = ctx(state, [], auto=True)
    command.unit_action(c, "U-A1")  # no order: it stands, and no die is rolled
    assert not any("Messenger" in e.text for e in c.log)


@pytest.mark.parametrize(("cost", "legal"), [("8", True), ("8.5", False)])
def test_vf_t10_line_allowance(cost: str, legal: bool) -> None:
    """VF-T10: infantry in line moves 8 in; 8.5 in is refused (VF-57)."""
    unit = game().unit("U-A1")
    facts: dict[str, JSON] = {
        "cost": cost,
        "clear": True,
        "start": False,
        "keep": True,
        "place": ["0", "8"],
    }
    if legal:
        command._check_move(unit, "MOVE", facts, None)
    else:
        with pytest.raises(Skip) as refused:
            command._check_move(unit, "MOVE", facts, None)
        assert refused.value.rule == "VF-57"


def test_vf_t11_march_keeps_more_than_18_in() -> None:
    """VF-T11: a march staying 18.5 in from the enemy is legal; 18.0 in is not."""
    state = game()
    cav = line("C", "A", 10, 10)
    for gap, ok in ((18.5, True), (18.0, False)):
        enemy = line("E", "B", 46, 10 + gap, facing=180)  # above the march's end
        world = replace(state, units=(cav, enemy), terrain=())
        fact = ms.clearance(world, cav, path((46, 10)), 18.0, "VF-65", True)
        assert fact.value is ok


def test_vf_t12_road_counts_half() -> None:
    """VF-T12: march column, 10 in on the road then 5 in off: cost 10 <= 12."""
    state = game()
    column = replace(line("C", "A", 10, 10, facing=90, across=1), formation=Formation.MARCH_COLUMN)
    road = replace(rect("R", "road", [Trait.ROAD], 0, 9, 20, 11), gives_march_bonus=True)
    world = replace(state, units=(column,), terrain=(road,))
    x, y = ms.anchor(column)
    assert (x, y) == (10.0, 10.0)
    fact = ms.path_cost(world, column, path((20, 10), (25, 10)), True)
    assert fact.value == "10.000"
    longer = replace(road, polygon=rect("R", "road", [], 0, 9, 30, 11).polygon)
    world = replace(world, terrain=(longer,))
    assert ms.path_cost(world, column, path((30, 10), (33, 10)), True).value == "13.000"


def test_vf_t20_cover_and_shooting_phase_morale() -> None:
    """VF-T20: dice 5 5 4 at soft cover: 2 hits; the second is beyond morale 3: one die +1; 3
    passes, 2 flees; the markers stay at 3 (VF-104: +1 in the shooting phase; VF-95)."""
    dice = ScriptedDice([5, 5, 4])
    _faces, hits = hit_tests(lambda n: [dice.d6() for _ in range(n)], 3, -1, False)
    assert hits == 2
    for die, flees in ((3, False), (2, True)):
        state = set_unit(game(), "U-B2", casualties=2)
        state = set_unit(state, "U-B2", stats=replace(state.unit("U-B2").stats, morale=3))
        c = ctx(state, [die])
        morale.take_casualties(c, "U-B2", hits, shooting=True, winner=False)
        unit = c.game.unit("U-B2")
        assert unit.fled is flees
        assert unit.casualties == 3


def test_vf_t22_line_bonus_and_surrounded() -> None:
    """VF-T22: line infantry, ranged 3, melee 4, charging a visible target with 1 supporter:
    4 + 1 + 2 = 7; struck in the flank, striking back alone: floor(4/2) = 2, the enemy +1."""
    state = game()
    brit, foe, helper = state.unit("U-B1"), state.unit("U-A1"), state.unit("U-B2")
    assert melee._value(brit, foe, True, True, [helper], {}, False) == 7
    assert melee._value(brit, foe, False, True, [], {}, True) == 2
    assert melee._value(foe, brit, True, False, [], {}, False) == 4 + 1 + 1  # line bonus, flank


def test_vf_t23_march_column_melee_is_one() -> None:
    """VF-T23: a unit in march column fights with 1 (VF-83: a fixed value); artillery against
    it gets +1 die."""
    state = game()
    column = replace(state.unit("U-A1"), formation=Formation.MARCH_COLUMN)
    gun = state.unit("U-B4")
    assert melee._value(column, gun, True, True, [], {}, True) == 1
    assert melee._value(gun, column, True, True, [], {}, True) == 2 + 1 + 2  # VF-85, VF-143


def test_vf_t24_melee_hit_modifiers() -> None:
    """VF-T24: +1 when attacker and supporter are fresh; none with a marker; -1 if shaken."""
    state = game()
    a, s = state.unit("U-A1"), state.unit("U-A2")
    assert melee._modifier(a, [s]) == 1
    assert melee._modifier(a, [replace(s, casualties=1)]) == 0
    assert melee._modifier(a, [replace(s, casualties=4)]) == -1
    assert melee._modifier(replace(a, casualties=1), []) == 0


def test_vf_t25_ties() -> None:
    """VF-T25: a tie goes to the active side; a target in cover wins it unless the attacker
    is elevated (VF-188: cover wins melee ties)."""
    facts: dict[str, JSON] = {
        "cover:a": "none",
        "cover:t": "none",
        "hill:a": False,
        "hill:t": False,
    }
    assert melee.winner_is_attacker(2, 2, facts)
    assert not melee.winner_is_attacker(2, 2, {**facts, "cover:t": "soft"})
    assert melee.winner_is_attacker(2, 2, {**facts, "cover:t": "soft", "hill:a": True})


def test_vf_t26_winner_takes_no_morale_test() -> None:
    """VF-T26: a shaken winner (morale 4, 4 casualties) takes 2 more: no test, stays at 4
    (VF-105: melee winners take no morale tests)."""
    state = set_unit(game(), "U-A1", casualties=4)
    c = ctx(state, [])
    morale.take_casualties(c, "U-A1", 2, shooting=False, winner=True)
    assert c.game.unit("U-A1").casualties == 4
    assert not c.game.unit("U-A1").fled


def test_vf_t27_automatic_flight() -> None:
    """VF-T27: infantry beaten with a cavalry supporter flees; artillery always."""
    state = game()
    inf, dragoons, gun = state.unit("U-B1"), state.unit("U-A9"), state.unit("U-B4")
    assert melee._auto_flight(inf, state.unit("U-A1"), [dragoons]) is not None
    assert melee._auto_flight(inf, state.unit("U-A1"), []) is None
    assert melee._auto_flight(gun, state.unit("U-A1"), []) is not None


def _brigade_of_six(fled: int) -> GameState:
    state = game()
    brigade = m.brigade(state, "BR-B1")
    ids = ("U-B1", "U-B2", "U-B3", "U-B4", "U-B5", "U-B6")
    state = m.with_brigade(
        state, replace(brigade, units=ids, fled_units=ids[:fled], pending_resolve_tests=fled)
    )
    for unit_id in ids[:fled]:
        state = set_unit(state, unit_id, fled=True, bases=())
    return state


@pytest.mark.parametrize(("dice", "passed"), [([3, 5], True), ([2, 6], False)])
def test_vf_t32_resolve_test(dice: list[int], passed: bool) -> None:
    """VF-T32: 6 units, 2 fled, BG within 12 in of the CinC: +1; 3 5 passes; 2 6 fails: the
    brigade wavers and the army takes a setback (VF-111)."""
    c = ctx(_brigade_of_six(2), dice)
    assert morale.resolve_test(c, "BR-B1", True, False) is passed
    assert m.side_state(c.game, "B").setbacks == (0 if passed else 1)


def test_vf_t33_wavering() -> None:
    """VF-T33: P shaken flees (no resolve test); Q (morale 3, 2 casualties) near an enemy
    takes 1 (3, shaken); R far away is untouched."""
    state = game()
    state = set_unit(state, "U-B1", casualties=4)  # P
    state = set_unit(state, "U-B2", casualties=2)
    state = set_unit(state, "U-B2", stats=replace(state.unit("U-B2").stats, morale=3))  # Q
    c = ctx(state, [])
    morale.waver(c, "BR-B1", {"U-B1": True, "U-B2": True, "U-B3": False})
    assert c.game.unit("U-B1").fled
    assert c.game.unit("U-B2").casualties == 3
    assert c.game.unit("U-B3").casualties == 0
    assert m.brigade(c.game, "BR-B1").pending_resolve_tests == 0


def test_vf_t34_broken_brigade() -> None:
    """VF-T34: the last unit flees: BG removed, brigade broken, +1 setback, no resolve test
    (VF-108: broken brigade; VF-111: setbacks)."""
    state = game()
    c = ctx(state, [])
    for unit_id in ("U-B8", "U-B9"):
        morale.flee(c, unit_id, "test")
    brigade = m.brigade(c.game, "BR-B3")
    assert brigade.broken
    assert brigade.pending_resolve_tests == 0
    assert c.game.leader("L-B3").removed
    assert m.side_state(c.game, "B").setbacks == 1


@pytest.mark.parametrize(("die", "left"), [(4, 2), (5, 1)])
def test_vf_t35_rally(die: int, left: int) -> None:
    """VF-T35: 2 casualties, an enemy 10 in away: 4 - 1 fails, 5 - 1 removes one."""
    state = set_unit(game(), "U-A1", casualties=2)
    c = ctx(state, [die])
    command._rally(c, "U-A1", True)
    assert c.game.unit("U-A1").casualties == left


@pytest.mark.parametrize(("a", "b", "holder"), [(30, 30, "B"), (31, 30, "A")])
def test_vf_t36_objective_control(a: int, b: int, holder: str) -> None:
    """VF-T36: 30 against 30 leaves O with B; 31 against 30 gives it to A."""
    state = game()
    state = replace(state, objectives=(Objective("O", D(55), D(30), None, "B"),))
    state = replace(state, turn=replace(state.turn, active_side="A", turn_limit=8))
    c = ctx(state, [], {"O:A": a, "O:B": b})
    c.flow.update(stage="resolving", queue=[], attacked=[], pending=None)
    turn._end_turn(c, {"do": "end_turn"})
    assert c.game.objectives[0].controller == holder


def test_vf_t37_victory() -> None:
    """VF-T37: A holds 1 objective, B 3; A's army 4 setbacks, B's 1: A 2, B 7, B wins."""
    state = game()
    objectives = tuple(
        replace(o, controller=c)
        for o, c in zip(state.objectives, ("A", "B", "B", "B"), strict=True)
    )
    state = replace(state, objectives=objectives)
    state = m.with_side(state, replace(m.side_state(state, "A"), setbacks=4))
    state = m.with_side(state, replace(m.side_state(state, "B"), setbacks=1))
    c = ctx(state, [])
    turn.finish(c)
    result = c.flow["result"]
    assert isinstance(result, dict)
    assert result["winners"] == ["B"]
    assert result["scores"] == {"A": 2, "B": 7}


def test_vf_207_napoleon_and_vf_210_wellington() -> None:
    """VF-207: +1 to morale tests of French units near Napoleon (not of allied contingents,
    AMB-32); VF-210: +1 melee for British infantry near Wellington striking back."""
    state = game()
    assert napoleon_of(state, state.unit("U-A1")) == state.leader("L-A0")
    assert napoleon_of(state, state.unit("U-B1")) is None
    brit, foe = state.unit("U-B1"), state.unit("U-A1")
    near: dict[str, JSON] = {"wellington:U-B1": True}
    assert melee._value(brit, foe, True, True, [], near, True) == 4 + 1 + 1
    assert melee._value(brit, foe, True, True, [], near, False) == 4 + 1  # only striking back
    state = set_unit(state, "U-A1", casualties=4)
    c = ctx(state, [3])  # 3 + 1 (Napoleon) passes; without him it fails
    morale.take_casualties(c, "U-A1", 1, shooting=False, winner=False, bonus=1)
    assert not c.game.unit("U-A1").fled
    c = ctx(state, [3])
    morale.take_casualties(c, "U-A1", 1, shooting=False, winner=False)
    assert c.game.unit("U-A1").fled


@pytest.mark.parametrize(("place", "flees"), [(["0", "-4"], False), (None, True)])
def test_vf_t30_cavalry_falls_back_or_flees(place: JSON, flees: bool) -> None:
    """VF-T30, VF-62: losing cavalry withdraws to the place the umpire confirms; with no
    legal place it flees, and its brigade owes a resolve test (VF-107: fleeing)."""
    state = game()
    c = ctx(state, [], {"place": place})
    melee.fall_back(c, "U-A9")
    unit = c.game.unit("U-A9")
    assert unit.fled is flees
    if not flees:
        assert unit.bases[0].y == state.unit("U-A9").bases[0].y - 4
    assert m.brigade(c.game, "BR-A3").pending_resolve_tests == (1 if flees else 0)


def test_withdraw_proposal_goes_straight_back_beyond_three_inches() -> None:
    """V-10's default (digest 4.5): straight back to 3.1 in beyond the nearest enemy."""
    state = game()
    cav = line("C", "A", 50, 20)
    enemy = line("E", "B", 50, 21, facing=180)  # 1 in in front
    world = replace(state, units=(cav, enemy), terrain=())
    fact = ms.withdraw_offset(world, cav, 18.0)
    assert fact.value == ["0.000", "-2.100"]
    cornered = replace(
        world,
        units=(
            line("C", "A", 50, 1),
            replace(enemy, bases=line("E", "B", 50, 2, facing=180).bases),
        ),
    )
    assert ms.withdraw_offset(cornered, cornered.units[0], 18.0).value is None
