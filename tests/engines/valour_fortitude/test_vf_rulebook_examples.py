"""The worked examples of digest section 6 that are purely geometric: the facts the geometry aid
proposes for them (distances, arcs, paths, terrain along a path, the nearest target). The rules
that use the facts (allowances, costs, tests) are later slices; each docstring names the
example and its rules. VF-T11 (clearance along a march path) needs the swept footprint of a
moving unit, which this slice does not build."""

from __future__ import annotations

import pytest

from games.valour_fortitude import geometry as g
from games.valour_fortitude.sight_lines import nearest_visible_target
from games.valour_fortitude.state import Trait, Unit
from tests.engines.valour_fortitude.vf_builders import block, leader, line, path, rect, unit


def test_t8_bg_30_in_from_the_cinc() -> None:
    """VF-T8 (VF-52, VF-206): a BG 30 in from the CinC is beyond 24 in (the brigade tests)
    but within the 36 in of a Marshal of the Empire."""
    cinc, bg = leader("L-A0", "A", 0, 0), leader("L-A1", "A", 0, 31)  # radius 0.5 each
    assert g.distance(cinc, bg, rule="VF-52").value == pytest.approx(30.0)
    assert g.within(cinc, bg, 24, "VF-52").value is False
    assert g.within(cinc, bg, 36, "VF-206").value is True


def test_t9_messenger_distance() -> None:
    """VF-T9 (VF-55, AMB-12): a unit 14 in from its BG is "more than 12 in" away (it tests);
    at 12.0 in it is not (no test). Measured from the nearest point of the unit."""
    bg = leader("L-A1", "A", 10, 24.5)  # rim at y 24
    far = line("U", "A", 10, 10)  # front edge y 10: 14 in
    near = line("V", "A", 10, 12)  # front edge y 12: 12.0 in
    assert g.distance(far, bg, rule="VF-55").value == pytest.approx(14.0)
    assert g.within(far, bg, 12, "VF-55").value is False
    assert g.within(near, bg, 12, "VF-55").value is True


def test_t10_an_8_in_move_and_an_8_5_in_move() -> None:
    """VF-T10 (VF-57): a line moves 8 in; 8.5 in is over the allowance."""
    assert g.path_length(path((10, 10), (10, 18))).value == pytest.approx(8.0)
    assert g.path_length(path((10, 10), (10, 14), (13, 18))).value == pytest.approx(9.0)
    assert g.path_length(path((10, 10), (10, 18.5))).value == pytest.approx(8.5)


def test_t12_ten_inches_along_a_road_then_five_off_it() -> None:
    """VF-T12 (VF-189): 10 in along the road and 5 in off it (cost 10/2 + 5 = 10); 20 in on
    the road and 3 off (cost 13)."""
    road = rect("R1", "road", [Trait.ROAD], -1, -1, 10, 1)
    moved = path((0, 0), (10, 0), (13, 4))
    (on_road,) = g.path_through_terrain(moved, [road]).value
    total = g.path_length(moved).value
    assert (on_road.inside_in, total - on_road.inside_in) == pytest.approx((10.0, 5.0))
    long_road = rect("R2", "road", [Trait.ROAD], -1, -1, 20, 1)
    moved = path((0, 0), (20, 0), (21.8, 2.4))
    (on_road,) = g.path_through_terrain(moved, [long_road]).value
    total = g.path_length(moved).value
    assert (on_road.inside_in, total - on_road.inside_in) == pytest.approx((20.0, 3.0))


def test_t13_open_ground_a_low_hedge_then_mud() -> None:
    """VF-T13 (VF-187, VF-192): 2 in open, across a low hedge (one crossing), 1 in of mud."""
    hedge = rect("T1", "hedge_low", [Trait.SOFT_COVER, Trait.OBSTACLE], -5, 2, 5, 2.5)
    mud = rect("M1", "mud", [Trait.ROUGH], -5, 2.5, 5, 3.5)
    moved = path((0, 0), (0, 4))
    crossed = {c.piece: c for c in g.path_through_terrain(moved, [hedge, mud]).value}
    assert crossed["T1"].crossings == 1
    assert crossed["M1"].inside_in == pytest.approx(1.0)
    open_ground = 3.5 - crossed["T1"].inside_in - crossed["M1"].inside_in
    assert open_ground == pytest.approx(2.0)


def test_t14_a_withdraw_ending_outside_the_enemys_arc() -> None:
    """VF-T14 (VF-61): the unit starts in contact and inside the enemy's front arc, and would
    end 3.5 in away outside it (the withdraw is refused: it must end inside the arc)."""
    enemy = line("E", "B", 10, 10)  # front edge y 10, x 6..14, facing north
    start = line("W", "A", 10, 10, 180)  # front to front
    end = line("W", "A", 21.5, 8, 180)  # x 17.5..25.5, y 8..9
    assert g.in_contact(enemy, start).value is True
    assert g.in_front_arc(enemy, start, rule="VF-61").value is True
    assert g.in_front_arc(enemy, end, rule="VF-61").value is False
    assert g.distance(enemy, end, rule="VF-61").value == pytest.approx(3.5)


def test_t15_charging_cavalry_needs_less_than_6_in() -> None:
    """VF-T15 (VF-64, VF-149): infantry 7 in from cavalry may not charge it, 5.9 in may;
    6.5 in from horse artillery is not "within 6 in"."""
    infantry = line("I", "A", 10, 10)

    def enemy_at(gap: float) -> Unit:
        return line("C", "B", 10, 10 + gap, 180)

    assert g.within(infantry, enemy_at(7), 6, "VF-64", inclusive=False).value is False
    assert g.within(infantry, enemy_at(5.9), 6, "VF-64", inclusive=False).value is True
    assert g.within(infantry, enemy_at(6.5), 6, "VF-149").value is False


def test_t16_the_nearest_visible_target() -> None:
    """VF-T16 (VF-41): X at 9 in, Y at 11 in: only X; after X was attacked, Y."""
    a = line("A", "A", 10, 10)
    x, y = line("X", "B", 2, 19, 180), line("Y", "B", 18, 21, 180)
    assert g.distance(a, x).value == pytest.approx(9.0)
    assert g.distance(a, y).value == pytest.approx(11.0)
    assert nearest_visible_target(a, [a, x, y]).value == ("X",)
    assert nearest_visible_target(a, [a, x, y], excluded=["X"]).value == ("Y",)


def test_t17_canister_within_12_in() -> None:
    """VF-T17 (VF-143): the target at 10 in is within the canister's 12 in."""
    gun = unit("G", "A", block(10, 10, 0, 1, 1, 2, 2))
    column = line("C", "B", 10, 20, 180, across=2)
    assert g.within(gun, column, 12, "VF-143").value is True


def test_t19_skirmish_fire_reaches_16_in() -> None:
    """VF-T19 (VF-42, VF-144): at 16 in, muskets (12 in) are out of range; skirmishers
    (12 + 6 = 18 in) are in range."""
    firer, target = line("A", "A", 10, 10), line("T", "B", 10, 26, 180)
    assert g.in_range(firer, target, 12).value is False
    assert g.in_range(firer, target, 18).value is True
    assert g.in_range(firer, target, 16).value is True  # "kleiner oder gleich" (L183)


def test_t22_a_flank_attacker_is_not_visible_to_its_target() -> None:
    """VF-T22 (VF-84, VF-86, VF-88): the enemy contacts the flank of the British line: the line
    cannot see it (no line bonus, surrounded), the attacker sees the line (flanking +1)."""
    british = line("B", "B", 10, 10)  # x 6..14, y 9..10, facing north
    flanker = unit("F", "A", block(14, 8.5, 270, 1, 1))  # facing west, x 14..15, y 7.5..9.5
    assert g.in_contact(british, flanker).value is True
    assert g.in_front_arc(british, flanker, rule="VF-86").value is False
    assert g.in_front_arc(flanker, british, rule="VF-84").value is True


def test_t31_brigade_support_within_3_in() -> None:
    """VF-T31 (VF-93): two units within 3 in of the fighting unit may support it."""
    fighting = line("U", "A", 10, 10)
    first, second = line("S1", "A", 10, 7), line("S2", "A", 21, 10)  # 2.0 in and 3.0 in
    third = line("S3", "A", 10, 5.8)  # 3.2 in
    assert g.within(fighting, first, 3, "VF-93").value is True
    assert g.within(fighting, second, 3, "VF-93").value is True
    assert g.within(fighting, third, 3, "VF-93").value is False


def test_t33_wavering_casualties_within_6_in() -> None:
    """VF-T33 (VF-110): Q 4 in from an enemy suffers a casualty, R 10 in away does not."""
    enemy = line("E", "B", 10, 20, 180)
    q, r = line("Q", "A", 10, 16), line("R", "A", 10, 10)
    assert g.within(enemy, q, 6, "VF-110").value is True
    assert g.within(enemy, r, 6, "VF-110").value is False


def test_t35_rally_less_than_12_in_from_an_enemy() -> None:
    """VF-T35 (VF-103): a unit 10 in from an enemy rallies at -1."""
    rallying, enemy = line("U", "A", 10, 10), line("E", "B", 10, 20, 180)
    assert g.within(rallying, enemy, 12, "VF-103", inclusive=False).value is True
