"""The geometry aid with hand-computed numbers: base corners, footprints, distances, contact
(VF-6, VF-187), front arcs (VF-5, VF-43), path lengths (VF-56) and terrain along a path
(VF-187..VF-192). Every answer is a proposal naming the rule it serves."""

from __future__ import annotations

import math

import pytest

from games.valour_fortitude import geometry as g
from games.valour_fortitude.state import BaseRect, Trait
from tests.engines.valour_fortitude.vf_builders import D, leader, line, path, piece, rect, unit


def test_base_corners_follow_the_facing() -> None:
    """Digest 2.1: facing 0 is north, 90 east; width along the front, depth to the rear."""
    north = BaseRect(D(0), D(0), D(0), D(2), D(1))
    assert g.base_corners(north) == ((-1, 0.5), (1, 0.5), (1, -0.5), (-1, -0.5))
    east = BaseRect(D(0), D(0), D(90), D(2), D(1))
    assert g.base_corners(east) == ((0.5, 1), (0.5, -1), (-0.5, -1), (-0.5, 1))
    tilted = BaseRect(D(0), D(0), D(45), D(2), D(2))
    front_left, front_right, _, _ = g.base_corners(tilted)
    assert front_left == pytest.approx((0, math.sqrt(2)))
    assert front_right == pytest.approx((math.sqrt(2), 0))


def test_footprint_of_a_line_is_its_four_bases() -> None:
    """VF-4: four 2 x 1 in bases side by side make one 8 x 1 in rectangle."""
    a = line("A", "A", 10, 10)
    proposal = g.footprint(a)
    assert proposal.rule == "VF-4"
    (outline,) = proposal.value
    assert sorted(outline) == sorted([(6, 9), (14, 9), (14, 10), (6, 10)])
    assert g.footprint_polygon(a).area == pytest.approx(8)


def test_a_gun_and_its_limber_apart_are_two_outlines() -> None:
    """VF-11: the gun and the limber may stand up to 1 in apart."""
    gun = BaseRect(D(0), D(0), D(0), D(2), D(2))
    limber = BaseRect(D(0), D("-2.5"), D(0), D(2), D(2), front_rank=False)
    assert len(g.footprint(unit("G", "A", [gun, limber])).value) == 2


def test_distance_nearest_edge_to_nearest_edge() -> None:
    """VF-42: measured from the nearest base edge to the nearest base edge."""
    a = line("A", "A", 10, 10)
    facing = line("B", "B", 10, 17, 180)  # front edge at y 17, 7 in ahead of A's
    beside = line("C", "B", 22, 17, 180)  # corner (14, 10) to corner (18, 17)
    assert g.distance(a, facing).value == pytest.approx(7.0)
    assert g.distance(a, beside).value == pytest.approx(math.sqrt(65))
    assert g.distance(a, facing).rule == "VF-42"
    assert g.distance(a, facing, rule="VF-55").rule == "VF-55"


def test_leaders_are_round_models() -> None:
    """Digest 2.4: a leader is a round model; distances run to its rim."""
    a = line("A", "A", 10, 10)  # rear edge at y 9
    assert g.distance(a, leader("L-A1", "A", 10, 5)).value == pytest.approx(3.5)
    cinc, bg = leader("L-A0", "A", 0, 0), leader("L-A1", "A", 3, 4)
    assert g.distance(cinc, bg).value == pytest.approx(4.0)


def test_within_and_less_than_at_the_limit() -> None:
    """VF-52 "within 24 in" includes 24.0; "less than" (VF-64) does not."""
    cinc, bg = leader("L-A0", "A", 0, 0), leader("L-A1", "A", 0, 25)  # 24 in rim to rim
    assert g.within(cinc, bg, 24, "VF-52").value is True
    assert g.within(cinc, bg, 24, "VF-52", inclusive=False).value is False
    assert g.within(cinc, bg, 23.9, "VF-52").value is False
    assert "24.000" in g.within(cinc, bg, 24, "VF-52").note


def test_contact_edge_corner_and_tolerance() -> None:
    """VF-6: bases touching at one point (corners too) are in contact; placements are never
    exact, so a gap up to contact_epsilon_in (0.05 in) still counts."""
    a = line("A", "A", 10, 10)  # front edge y 10, x 6..14
    assert g.in_contact(a, line("B", "B", 10, 10, 180)).value is True
    assert g.in_contact(a, line("C", "B", 18, 11)).value is True  # corner (14, 10)
    assert g.in_contact(a, line("D", "B", 10, 10.04, 180)).value is True
    assert g.in_contact(a, line("E", "B", 10, 10.2, 180)).value is False
    assert g.in_contact(a, line("E", "B", 10, 10.2, 180)).rule == "VF-6"


def test_contact_across_an_obstacle() -> None:
    """VF-187: within 1 in of each other and both touching the same obstacle."""
    a = line("A", "A", 10, 10)
    b = line("B", "B", 10, 10.8, 180)  # 0.8 in beyond A's front
    hedge = rect("T1", "hedge_low", [Trait.OBSTACLE, Trait.SOFT_COVER], 0, 10, 20, 10.8)
    proposal = g.in_contact(a, b, [hedge])
    assert proposal.value is True
    assert proposal.rule == "VF-187"
    assert g.in_contact(a, b).value is False
    far = line("F", "B", 10, 11.2, 180)  # 1.2 in: too far even across the hedge
    assert g.in_contact(a, far, [hedge]).value is False


def test_front_arc_rays_at_45_degrees_from_the_front_corners() -> None:
    """VF-5: the arc of A (front edge y 10 from x 6 to 14, facing north) is y >= 10 and
    |x - 10| <= 4 + (y - 10); the rays themselves belong to it."""
    a = line("A", "A", 10, 10)
    inside, on_ray, beyond, behind = path((10, 20), (20, 16), (20.5, 16), (10, 9.5))
    assert g.in_front_arc(a, inside).value is True
    assert g.in_front_arc(a, on_ray).value is True
    assert g.in_front_arc(a, beyond).value is False
    assert g.in_front_arc(a, behind).value is False
    assert g.in_front_arc(a, inside).rule == "VF-43"


def test_front_arc_of_a_turned_unit() -> None:
    """VF-5 for a unit facing east (90): its arc opens towards +x."""
    a = line("A", "A", 10, 10, 90)  # front edge x 10, y 6..14
    ahead, sideways = path((20, 10), (10, 20))
    assert g.in_front_arc(a, ahead).value is True
    assert g.in_front_arc(a, sideways).value is False


def test_a_unit_partly_in_the_arc_is_in_it() -> None:
    """VF-43: a target lying at least partly in the arc of one front-rank base is visible."""
    a = line("A", "A", 10, 10)
    half_in = line("B", "B", 22, 16, 180)  # x 18..26 at y 16..17: the corner (18, 16) is in
    assert g.in_front_arc(a, half_in).value is True
    out = line("C", "B", 28, 16, 180)  # x 24..32: beyond the ray x = 14 + (y - 10)
    assert g.in_front_arc(a, out).value is False


def test_rear_bases_do_not_see() -> None:
    """VF-43: only front-rank bases have arcs (the rear base faces the same way but is not
    front rank)."""
    front = BaseRect(D(10), D("9.5"), D(0), D(2), D(1))
    rear = BaseRect(D(10), D("8.5"), D(0), D(2), D(1), front_rank=False)
    only_rear = unit("R", "A", [BaseRect(D(30), D("9.5"), D(0), D(2), D(1), False), front])
    target = path((31, 14))[0]  # ahead of the rear-marked base only
    assert g.in_front_arc(only_rear, target).value is False
    assert g.in_front_arc(unit("F", "A", [front, rear]), path((10, 14))[0]).value is True


def test_path_length() -> None:
    """VF-56: the polyline a base travels."""
    proposal = g.path_length(path((0, 0), (3, 4), (3, 10)))
    assert proposal.value == pytest.approx(11.0)
    assert proposal.rule == "VF-56"
    with pytest.raises(ValueError, match="start and an end"):
        g.path_length(path((0, 0)))


def test_terrain_along_a_path() -> None:
    """VF-187..VF-192: which pieces, how far inside, how often entered and left again."""
    wood = rect("W1", "wood", [Trait.ROUGH, Trait.SOFT_COVER, Trait.BLOCKS_LOS], 0, 2, 4, 6)
    field = rect("F1", "field", [Trait.ROUGH], 20, 20, 30, 30)
    triangle = piece("P1", "mud", [Trait.ROUGH], [(8, 0), (12, 0), (10, 4)])
    proposal = g.path_through_terrain(path((2, 0), (2, 10)), [wood, field, triangle])
    (crossing,) = proposal.value
    assert crossing.piece == "W1"
    assert crossing.inside_in == pytest.approx(4.0)
    assert (crossing.stretches, crossing.crossings) == (1, 1)
    assert crossing.traits == ("BLOCKS_LOS", "ROUGH", "SOFT_COVER")
    assert proposal.rule == "VF-187-192"


def test_a_path_that_starts_inside_does_not_cross() -> None:
    wood = rect("W1", "wood", [Trait.ROUGH], 0, 0, 4, 4)
    (crossing,) = g.path_through_terrain(path((2, 2), (2, 10)), [wood]).value
    assert crossing.inside_in == pytest.approx(2.0)
    assert crossing.crossings == 0


def test_a_path_in_and_out_twice() -> None:
    """A U-shaped piece entered twice: two stretches, both crossed."""
    u_shape = piece(
        "U1",
        "mud",
        [Trait.ROUGH],
        [(0, 0), (10, 0), (10, 6), (7, 6), (7, 2), (3, 2), (3, 6), (0, 6)],
    )
    (crossing,) = g.path_through_terrain(path((-1, 4), (11, 4)), [u_shape]).value
    assert crossing.inside_in == pytest.approx(6.0)
    assert (crossing.stretches, crossing.crossings) == (2, 2)


def test_occupants_are_measured_from_their_feature() -> None:
    """VF-196: range and visibility to or from an occupant use the feature's outline."""
    village = rect("V1", "village", [Trait.DEFENSIBLE, Trait.HARD_COVER], 0, 0, 8, 6)
    inside = unit("O", "B", [], occupying="V1")
    a = line("A", "A", 4, 10, 180)  # front edge y 10, x 0..8
    assert g.distance(a, inside, [village]).value == pytest.approx(4.0)
    assert g.in_front_arc(inside, a, [village]).value is True  # sees all round
    with pytest.raises(g.OffTableError):
        g.distance(a, inside)  # its feature is not among the terrain given


def test_units_off_the_table_have_no_geometry() -> None:
    with pytest.raises(g.OffTableError):
        g.footprint_polygon(unit("R", "A", []))
    with pytest.raises(g.OffTableError):
        g.footprint_polygon(unit("F", "A", line("F", "A", 0, 0).bases, fled=True))


def test_proposals_have_a_json_form() -> None:
    a, b = line("A", "A", 10, 10), line("B", "B", 10, 17, 180)
    assert g.distance(a, b).to_json() == {
        "fact": "distance A to B",
        "value": "7.000",
        "rule": "VF-42",
        "note": "",
    }
    wood = rect("W1", "wood", [Trait.ROUGH], 0, 2, 4, 6)
    crossing = g.path_through_terrain(path((2, 0), (2, 10)), [wood]).to_json()
    assert isinstance(crossing, dict)
    assert crossing["value"] == [
        {
            "piece": "W1",
            "kind": "wood",
            "traits": ["ROUGH"],
            "inside_in": "4.000",
            "stretches": 1,
            "crossings": 1,
        }
    ]
