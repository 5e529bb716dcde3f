"""Defensible features (seed T.3, L485-525; digest VF-193..VF-201, VF-22, VF-T27, VF-T36):
occupying instead of a Move or Withdraw (VF-195), capacity and enemy leaders in it (VF-194,
VF-59), leaving (VF-197), moving near and into them (VF-193, VF-198), the attack values of
occupants and their foes (VF-199), melee with occupants (VF-200, V-12), objectives that change
hands only by occupation (VF-22, VF-T36); the sheet's form, the text line, random play.

The starter table has the villages V1 (x 32-40, y 27-33) and V2 (x 70-78, y 27-33). U-A2's
front edge is at y 14; moved 12 in north it is 1 in from V1."""

from __future__ import annotations

from dataclasses import replace

import pytest
import shapely  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON
from games.valour_fortitude import command, melee, turn
from games.valour_fortitude import geometry as g
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import occupation as occ
from games.valour_fortitude import order_text as ot
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.formations import ranged_halved
from games.valour_fortitude.order_sheet import sheet_problems
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Point, Section
from games.valour_fortitude.values import pipeline
from tests.engines.valour_fortitude.test_vf_order_text import refusal, sheet_of
from tests.engines.valour_fortitude.vf_builders import D
from tests.engines.valour_fortitude.vf_play import ctx, game, play_to_end, starter


def _north(state: GameState, unit_id: str, dy: float) -> GameState:
    return m.with_unit(state, ms.moved(state.unit(unit_id), D(0), D(dy)))


def _near_v1() -> GameState:
    """U-A2 1 in south of V1; its BG L-A1 beside it (no messenger test)."""
    state = _north(game(), "U-A2", 12)
    state = m.with_unit(state, ms.moved(state.unit("U-A2"), D(2), D(0)))  # x 29.3-38.7
    bg = state.leader("L-A1")
    return m.with_leader(state, replace(bg, x=D(24), y=D(22)))


def _order(state: GameState, unit_id: str, order: dict[str, JSON], dice: list[int]) -> Ctx:
    c = ctx(state, dice, auto=True)
    c.flow["sheet"] = {"units": {unit_id: order}}
    return c


def _occupy(state: GameState, unit_id: str = "U-A2", feature: str = "V1") -> Ctx:
    c = _order(state, unit_id, {"action": "OCCUPY", "feature": feature}, [])
    command.unit_action(c, unit_id)
    return c


def _skip(state: GameState, unit_id: str, order: dict[str, JSON]) -> Skip:
    c = _order(state, unit_id, order, [6] * 4)
    with pytest.raises(Skip) as caught:
        command.unit_action(c, unit_id)
    return caught.value


# --- occupying (VF-195, VF-194) ---


def test_a_unit_less_than_3_in_away_occupies_instead_of_moving() -> None:
    """VF-195: inside, the unit has no formation; its footprint is the village (VF-196); it
    has acted."""
    c = _occupy(_near_v1())
    unit = c.game.unit("U-A2")
    assert unit.occupying == "V1"
    assert unit.formation is Formation.NONE
    assert unit.turn_flags.occupied_this_turn
    assert unit.turn_flags.acted
    assert unit.turn_flags.action == "OCCUPY"
    assert g.footprint_polygon(unit, c.game.terrain).equals(g.piece_polygon(c.game.piece("V1")))
    assert any("occupies V1 (VF-195)" in e.text for e in c.log)


@pytest.mark.parametrize(("dy", "near"), [(12, True), (10.1, True), (10, False), (9, False)])
def test_less_than_3_in_leaves_3_in_out(dy: float, near: bool) -> None:
    """VF-195 "weniger als 3 Zoll": at 3 in exactly the unit may not occupy."""
    state = _north(game(), "U-A2", dy)
    fact = ms.near_feature(state, state.unit("U-A2"), "V1")
    assert fact.value is near
    assert fact.rule == "VF-195"


def test_too_far_is_skipped_with_vf_195() -> None:
    state = _north(_near_v1(), "U-A2", -3)  # 4 in away
    assert _skip(state, "U-A2", {"action": "OCCUPY", "feature": "V1"}).rule == "VF-195"


def test_the_messenger_test_comes_first() -> None:
    """VF-55: the BG more than 12 in away: a failed messenger test, the unit stays out."""
    state = _north(game(), "U-A2", 12)
    bg = state.leader("L-A1")
    state = m.with_leader(state, replace(bg, x=D(28), y=D(0.5)))
    c = _order(state, "U-A2", {"action": "OCCUPY", "feature": "V1"}, [2])
    command.unit_action(c, "U-A2")
    assert c.game.unit("U-A2").occupying is None
    c = _order(state, "U-A2", {"action": "OCCUPY", "feature": "V1"}, [4])
    command.unit_action(c, "U-A2")
    assert c.game.unit("U-A2").occupying == "V1"


@pytest.mark.parametrize(("holder", "rule"), [("U-B2", "VF-194"), ("U-A1", "VF-194")])
def test_one_unit_per_feature(holder: str, rule: str) -> None:
    """VF-194: a feature held by a unit (enemy or friend) takes no other unit."""
    state = _near_v1()
    state = m.with_unit(state, replace(state.unit(holder), occupying="V1"))
    assert _skip(state, "U-A2", {"action": "OCCUPY", "feature": "V1"}).rule == rule


def test_only_defensible_features_and_no_sections() -> None:
    """VF-195: a rough wood is no defensible feature; VF-201: sections are not built."""
    state = _near_v1()
    assert _skip(state, "U-A2", {"action": "OCCUPY", "feature": "W1"}).rule == "VF-195"
    v1 = state.piece("V1")
    split = replace(v1, sections=(Section("V1a", v1.polygon),))
    state = replace(state, terrain=tuple(split if t.id == "V1" else t for t in state.terrain))
    assert _skip(state, "U-A2", {"action": "OCCUPY", "feature": "V1"}).rule == "VF-201"


def test_enemy_leaders_in_the_feature_are_overrun() -> None:
    """VF-194, VF-59: a unit may occupy a feature held only by enemy leaders; they leave it
    and are put within 6 in of the nearest unit of their side."""
    state = _near_v1()
    bg = replace(state.leader("L-B1"), x=D(36), y=D(30), occupying="V1")
    state = m.with_leader(state, bg)
    c = _occupy(state)
    moved = c.game.leader("L-B1")
    assert c.game.unit("U-A2").occupying == "V1"
    assert moved.occupying is None
    here = shapely.Point(float(moved.x), float(moved.y))
    own = [u for u in ms.table_units(c.game) if u.side == "B"]
    assert min(shapely.distance(g.footprint_polygon(u, c.game.terrain), here) for u in own) <= 6
    assert any("overrun" in e.text and "L-B1" in e.text for e in c.log)


# --- leaving (VF-197) ---


def _inside(state: GameState | None = None) -> GameState:
    c = _occupy(state or _near_v1())
    unit = c.game.unit("U-A2")
    flags = replace(unit.turn_flags, occupied_this_turn=False, acted=False, action=None)
    return m.with_unit(c.game, replace(unit, turn_flags=flags))


def test_an_occupant_leaves_with_a_move_in_its_old_formation() -> None:
    """VF-197: put down within 6 in of the feature, at least 3 in from enemy units; no
    allowance is spent (it is placed)."""
    state = _inside()
    before = state.unit("U-A2")
    ax, ay = ms.anchor(before)
    c = _order(state, "U-A2", {"action": "MOVE", "path": [[str(ax + 1), str(ay - 3)]]}, [])
    command.unit_action(c, "U-A2")
    after = c.game.unit("U-A2")
    assert after.occupying is None
    assert after.formation is Formation.LINE
    assert after.bases[0].x == before.bases[0].x + 1
    assert after.bases[0].y == before.bases[0].y - 3
    assert any("leaves V1" in e.text for e in c.log)


def test_an_occupant_may_leave_in_another_formation() -> None:
    """VF-197 "in beliebiger Formation": the block built around its pivot."""
    state = _inside()
    ax, ay = ms.anchor(state.unit("U-A2"))
    order: dict[str, JSON] = {
        "action": "WITHDRAW",
        "path": [[str(ax), str(ay - 0.5)]],
        "formation_after": {"formation": "ATTACK_COLUMN", "files": 6, "ranks": 4, "pivot": 1},
    }
    c = _order(state, "U-A2", order, [])
    command.unit_action(c, "U-A2")
    assert c.game.unit("U-A2").formation is Formation.ATTACK_COLUMN


def test_leaving_more_than_6_in_away_is_skipped() -> None:
    state = _inside()
    ax, ay = ms.anchor(state.unit("U-A2"))
    order: dict[str, JSON] = {"action": "MOVE", "path": [[str(ax), str(ay - 9)]]}
    assert _skip(state, "U-A2", order).rule == "VF-197"


def test_not_in_the_turn_it_occupied_and_never_by_a_charge_or_march() -> None:
    """VF-197: not the turn it went in; only a Move or Withdraw leaves."""
    c = _occupy(_near_v1())
    ax, ay = ms.anchor(c.game.unit("U-A2"))
    order: dict[str, JSON] = {"action": "MOVE", "path": [[str(ax), str(ay - 2)]]}
    assert _skip(c.game, "U-A2", order).rule == "VF-197"
    for action in ("CHARGE", "MARCH"):
        order = {"action": action, "path": [[str(ax), str(ay - 2)]], "target": "U-B2"}
        assert _skip(_inside(), "U-A2", order).rule == "VF-197"


# --- moving near and into features (VF-193, VF-198) ---


def test_a_move_into_a_feature_is_refused_vf_193() -> None:
    state = _near_v1()
    ax, ay = ms.anchor(state.unit("U-A2"))
    order: dict[str, JSON] = {"action": "MOVE", "path": [[str(ax), str(ay + 3)]]}
    assert _skip(state, "U-A2", order).rule == "VF-193"


def test_near_an_enemy_held_feature_but_not_touching_it_vf_198() -> None:
    """VF-198: within 3 in of a feature an enemy unit holds is allowed, touching it is not
    (but by a charge); a unit in the open is still kept 3 in away (VF-58)."""
    state = game()
    state = m.with_unit(state, replace(state.unit("U-B2"), occupying="V1"))
    unit = state.unit("U-A2")
    ax, ay = ms.anchor(unit)
    one_in = [Point(D(ax), D(ay + 12))]
    touch = [Point(D(ax), D(ay + 13))]
    assert ms.clearance(state, unit, one_in, 3.0, "VF-58", False).value is True
    assert ms.clearance(state, unit, touch, 3.0, "VF-58", False).value is False
    assert ms.defensible_clear(state, unit, touch, None).value is False
    assert ms.defensible_clear(state, unit, touch, state.unit("U-B2")).value is True
    open_field = m.with_unit(state, replace(state.unit("U-B2"), occupying=None))
    open_field = m.with_unit(open_field, ms.moved(open_field.unit("U-B2"), D(0), D(-18)))
    assert ms.clearance(open_field, unit, one_in, 3.0, "VF-58", False).value is False


# --- attack values (VF-199) and melee (VF-200) ---

FACTS: dict[str, JSON] = {
    "a_sees": True,
    "t_sees": True,
    "cover:a": "none",
    "cover:t": "hard",
    "hill:a": False,
    "hill:t": False,
    "rough:U-A2": False,
    "rough:U-A9": False,
    "rough:U-B2": False,
    "napoleon:U-A2": False,
    "napoleon:U-A9": False,
    "wellington:U-B2": False,
    "brigade:U-A1": False,
    "brigade:U-A3": False,
}


def _held_by_b2() -> GameState:
    state = game()
    return m.with_unit(state, replace(state.unit("U-B2"), occupying="V1", formation=Formation.NONE))


def _fight(state: GameState, attacker: str, dice: list[int], answer: str | None = None) -> Ctx:
    c = ctx(state, [*dice, *[6] * 40], FACTS, auto=True)
    if answer is not None:
        c.flow["sheet"] = {"occupy_after_melee": answer}
    step: dict[str, JSON] = {
        "do": "fight",
        "attacker": attacker,
        "target": "U-B2",
        "supporters": [],
        "contacts": {attacker: ["U-B2"]},
    }
    c.follow = melee.fight(c, step)  # type: ignore[attr-defined]
    return c


def _dice(c: Ctx, who: str) -> int:
    for e in c.log:
        if e.text.startswith(f"Melee: {who} attacks") or e.text.startswith(f"{who} strikes back"):
            return int(e.text.split(" with ")[1].split(" dice")[0])
    raise AssertionError(who)


def test_infantry_inside_gets_plus_one_and_no_line_bonus() -> None:
    """VF-199: infantry occupying a feature +1 melee; it has no formation, so no line bonus
    (VF-84): U-B2 4 + 1 = 5; U-A2 in line 4 + 3 // 2 = 5."""
    c = _fight(_held_by_b2(), "U-A2", [6] * 5 + [1] * 5)
    assert _dice(c, "U-A2") == 5
    assert _dice(c, "U-B2") == 5


def test_cavalry_fighting_an_occupant_is_halved() -> None:
    """VF-199: cavalry fighting a unit that occupies a defensible feature: melee halved, 5 //
    2 = 2."""
    c = _fight(_held_by_b2(), "U-A9", [6] * 2 + [1] * 5)
    assert _dice(c, "U-A9") == 2 == pipeline(5, 1, [])


def test_no_automatic_flight_and_no_falling_back_vf_200() -> None:
    """VF-T27's village case: infantry beaten by cavalry in a village does not flee
    automatically: it takes casualties and morale tests; the losing cavalry does not fall
    back."""
    c = _fight(_held_by_b2(), "U-A9", [6, 6] + [1] * 5)
    assert not any("VF-106" in e.text for e in c.log)
    assert c.game.unit("U-B2").casualties > 0 or c.game.unit("U-B2").fled
    c = _fight(_held_by_b2(), "U-A9", [1, 1] + [6] * 5)  # the cavalry loses
    assert c.follow == []  # type: ignore[attr-defined]


def test_an_occupant_is_never_flanked_vf_196() -> None:
    """VF-196, VF-86: no +1 for an attack the occupant cannot see."""
    c = ctx(_held_by_b2(), [1] * 20, {**FACTS, "t_sees": False})
    step: dict[str, JSON] = {"do": "fight", "attacker": "U-A2", "target": "U-B2"}
    step["supporters"], step["contacts"] = [], {"U-A2": ["U-B2"]}
    melee.fight(c, step)
    assert _dice(c, "U-A2") == 5


@pytest.mark.parametrize(("answer", "inside"), [("yes", "V1"), ("no", None), (None, None)])
def test_the_winner_may_occupy_when_the_occupant_flees(
    answer: str | None, inside: str | None
) -> None:
    """VF-200, V-12: the sheet's `occupy_after_melee` (absent: no)."""
    state = _held_by_b2()
    state = m.with_unit(state, replace(state.unit("U-B2"), casualties=4))  # shaken
    c = _fight(state, "U-A2", [6] * 5 + [1] * 5 + [1] * 10, answer)
    assert c.game.unit("U-B2").fled
    assert c.game.unit("U-A2").occupying == inside


def test_infantry_inside_shoots_halved_in_any_direction() -> None:
    """VF-199: ranged halved for infantry inside, not for artillery; VF-196: all round."""
    state = _held_by_b2()
    assert ranged_halved(state.unit("U-B2"))
    guns = replace(state.unit("U-B4"), occupying="V2", formation=Formation.NONE)
    assert not ranged_halved(guns)
    assert g.sees_all_round(state.unit("U-B2"))


# --- objectives (VF-22, VF-T36) ---


@pytest.mark.parametrize(("holder", "before", "after"), [(None, "B", "B"), ("U-A2", "B", "A")])
def test_an_objective_on_a_feature_changes_hands_only_by_occupation(
    holder: str | None, before: str, after: str
) -> None:
    """VF-T36: "An objective in a village is controlled only by the side whose unit occupies
    the village"; unoccupied, it stays with its holder whatever the figures around it."""
    state = _near_v1()
    if holder is not None:
        state = m.with_unit(state, replace(state.unit(holder), occupying="V1"))
    objectives = tuple(replace(o, controller=before) for o in state.objectives)
    state = replace(state, objectives=objectives)
    state = replace(state, turn=replace(state.turn, active_side="A", turn_limit=8))
    c = ctx(state, [], {f"{o}:{s}": 0 for o in ("O3", "O4") for s in "AB"})
    c.flow.update(stage="resolving", queue=[], attacked=[], pending=None)
    turn._end_turn(c, {"do": "end_turn"})
    assert c.game.objectives[0].controller == after


# --- overrunning leaders (VF-59) ---


def test_a_unit_moves_over_an_enemy_leader_who_is_placed_again() -> None:
    """VF-59: the move is legal; the leader is put within 6 in of the nearest unit of its own
    side, off the mover's ground (the umpire may correct the offset)."""
    state = game()
    unit = state.unit("U-A6")  # x 69.6-72.0, front at y 14
    ax, ay = ms.anchor(unit)
    bg = replace(state.leader("L-B2"), x=D(ax), y=D(ay + 3))
    state = m.with_leader(state, bg)
    c = _order(state, "U-A6", {"action": "MOVE", "path": [[str(ax), str(ay + 6)]]}, [6] * 4)
    command.unit_action(c, "U-A6")
    assert c.game.unit("U-A6").bases[0].y == unit.bases[0].y + 6
    placed = c.game.leader("L-B2")
    here = shapely.Point(float(placed.x), float(placed.y))
    own = [u for u in ms.table_units(c.game) if u.side == "B"]
    assert min(shapely.distance(g.footprint_polygon(u, c.game.terrain), here) for u in own) <= 6
    ground = ms.swept(unit, [Point(D(ax), D(ay + 6))], state)
    assert shapely.distance(ground, here) > float(placed.radius_in)


def test_the_umpire_places_the_overrun_leader() -> None:
    """V-11: a corrected placement is used as given."""
    state = game()
    unit = state.unit("U-A6")
    ax, ay = ms.anchor(unit)
    state = m.with_leader(state, replace(state.leader("L-B2"), x=D(ax), y=D(ay + 3)))
    c = ctx(state, [6] * 4, {"overrun:L-B2": ["10", "30"]}, auto=True)
    c.flow["sheet"] = {"units": {"U-A6": {"action": "MOVE", "path": [[str(ax), str(ay + 6)]]}}}
    command.unit_action(c, "U-A6")
    placed = c.game.leader("L-B2")
    assert (placed.x, placed.y) == (D(ax) + 10, D(ay) + 33)


# --- the sheet and the text (4.5) ---


@pytest.mark.parametrize(
    ("order", "rule"),
    [
        ({"action": "OCCUPY"}, "VF-195"),
        ({"action": "OCCUPY", "feature": "W1"}, "VF-195"),
        ({"action": "OCCUPY", "feature": "V1", "path": [[1, 1]]}, "VF-195"),
        ({"action": "MOVE", "feature": "V1", "path": [[1, 1]]}, "VF-195"),
    ],
)
def test_the_sheet_refuses_malformed_occupy_orders(order: dict[str, JSON], rule: str) -> None:
    problems = sheet_problems(game(), "A", {"units": {"U-A2": order}})
    assert [p.rule for p in problems] == [rule]


def test_the_sheet_refuses_an_occupant_charging_out() -> None:
    state = _inside()
    order: dict[str, JSON] = {"action": "CHARGE", "target": "U-B2", "path": [[1, 1]]}
    problems = sheet_problems(state, "A", {"units": {"U-A2": order}})
    assert [p.rule for p in problems] == ["VF-197"]


def test_a_good_occupy_order_passes_the_sheet() -> None:
    sheet: dict[str, JSON] = {
        "units": {"U-A2": {"action": "OCCUPY", "feature": "V1"}},
        "occupy_after_melee": "yes",
    }
    assert sheet_problems(game(), "A", sheet) == []


def test_the_text_line() -> None:
    """`occupy <unit> in <feature>` and `occupy_after_melee yes|no` (order_text.py)."""
    payload = sheet_of("occupy u-a2 in v1\noccupy_after_melee yes")
    assert payload["units"] == {"U-A2": {"action": "OCCUPY", "feature": "V1"}}
    assert payload["occupy_after_melee"] == "yes"
    assert ot.format_sheet(payload) == "occupy U-A2 in V1\noccupy_after_melee yes"
    assert refusal("occupy U-A2 in X9").rule == "4.5"
    assert refusal("occupy_after_melee maybe").rule == "4.5"


# --- properties and random play ---


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 20).map(lambda n: n / 20))
def test_occupying_and_leaving_to_the_same_place_restores_the_unit(back: float) -> None:
    """Entering and leaving back to where the block stood gives the same bases and formation
    (the umpire's offsets confirmed)."""
    state = _north(_near_v1(), "U-A2", -back)
    original = state.unit("U-A2")
    inside = _inside(state)
    ax, ay = ms.anchor(inside.unit("U-A2"))
    c = _order(inside, "U-A2", {"action": "MOVE", "path": [[f"{ax:.3f}", f"{ay:.3f}"]]}, [])
    command.unit_action(c, "U-A2")
    out = c.game.unit("U-A2")
    assert out.bases == original.bases
    assert out.formation is original.formation
    assert out.occupying is None


def test_random_play_occupies_villages() -> None:
    """The random player sometimes occupies a village (so the fuzzer exercises it)."""
    seen = False
    for chooser in range(6):
        match, _ = play_to_end(starter(turn_limit=3), chooser)
        seen = (
            seen
            or any(u.occupying for u in match.game.units)
            or bool(match.flow.get(occ.FORMATIONS_KEY))
        )
        if seen:
            break
    assert seen
