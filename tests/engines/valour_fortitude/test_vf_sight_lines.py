"""Line of sight (VF-44, VF-191) and the nearest visible target (VF-41), with layouts whose
answers can be seen by hand. A is 8 in wide (x 6..14), its front edge at y 10, facing north."""

from __future__ import annotations

from games.valour_fortitude.sight_lines import line_of_sight, nearest_visible_target
from games.valour_fortitude.state import Formation, Trait
from tests.engines.valour_fortitude.vf_builders import block, line, rect, unit

WOOD = [Trait.ROUGH, Trait.SOFT_COVER, Trait.BLOCKS_LOS]


def test_clear_ground_gives_a_line_of_sight() -> None:
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    proposal = line_of_sight(a, t, [a, t])
    assert proposal.value is True
    assert proposal.rule == "VF-44"
    assert proposal.note.startswith("clear from base")


def test_a_wood_across_every_line_blocks() -> None:
    """T.2.5: a line that crosses a feature that blocks sight is blocked."""
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    wood = rect("W1", "wood", WOOD, -20, 18, 40, 22)
    proposal = line_of_sight(a, t, [a, t], [wood])
    assert proposal.value is False
    assert "blocked" in proposal.note


def test_a_wood_beside_the_lines_does_not_block() -> None:
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    assert line_of_sight(a, t, [a, t], [rect("W1", "wood", WOOD, 30, 18, 40, 22)]).value


def test_defensible_features_block_too() -> None:
    """VF-193: a defensible feature (a village) blocks sight."""
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    village = rect("V1", "village", [Trait.DEFENSIBLE, Trait.HARD_COVER], -20, 18, 40, 22)
    assert line_of_sight(a, t, [a, t], [village]).value is False


def test_bases_on_or_touching_the_feature_see_past_it() -> None:
    """VF-191: not blocked for bases on or in contact with the feature (the viewer's base or
    the target)."""
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    touching_viewer = rect("W1", "wood", WOOD, -20, 10, 40, 14)
    touching_target = rect("W2", "wood", WOOD, -20, 26, 40, 30)
    assert line_of_sight(a, t, [a, t], [touching_viewer]).value is True
    assert line_of_sight(a, t, [a, t], [touching_target]).value is True


def test_a_hill_passed_from_beside_it_is_flagged_for_the_umpire() -> None:
    """VF-191: reverse slopes are the umpire's (GAP-2): the note says so."""
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    hill = rect("H1", "hill", [Trait.BLOCKS_LOS, Trait.HILL], -20, 10, 40, 14)
    proposal = line_of_sight(a, t, [a, t], [hill])
    assert proposal.value is True
    assert "GAP-2" in proposal.note


def test_other_units_block_within_two_inches() -> None:
    """VF-44: no line may pass within 2 in of another unit. Viewer and target are one base
    (x 9..11); two units leave a 4 in gap (x 8..12) whose middle line is exactly 2 in from
    both: blocked. A gap of 4.2 in leaves the middle line clear."""
    a = unit("A", "A", block(10, 10, 0, 1, 1))
    t = unit("T", "B", block(10, 30, 180, 1, 1))
    left, right = unit("L", "A", block(7, 20)), unit("R", "B", block(13, 20))
    assert line_of_sight(a, t, [a, t, left, right]).value is False
    left, right = unit("L", "A", block(6.9, 20)), unit("R", "B", block(13.1, 20))
    assert line_of_sight(a, t, [a, t, left, right]).value is True


def test_fled_units_do_not_block() -> None:
    a, t = line("A", "A", 10, 10), line("T", "B", 10, 30, 180)
    wall = unit("W", "B", block(10, 20, 0, 10, 1), fled=True)
    assert line_of_sight(a, t, [a, t, wall]).value is True
    standing = unit("W", "B", block(10, 20, 0, 10, 1))
    assert line_of_sight(a, t, [a, t, standing]).value is False


def test_nothing_outside_the_front_arc_is_seen() -> None:
    a, behind = line("A", "A", 10, 10), line("T", "B", 10, 0)
    proposal = line_of_sight(a, behind, [a, behind])
    assert proposal.value is False
    assert proposal.note == "no front-rank base sees it"


def test_a_square_sees_all_round() -> None:
    """VF-43: units in square see in all directions."""
    bases = block(10, 10, 0, 4, 1)
    square = unit("S", "A", bases, formation=Formation.SQUARE)
    behind = line("T", "B", 10, 0)
    assert line_of_sight(square, behind, [square, behind]).value is True


def test_an_occupant_sees_from_its_feature() -> None:
    """VF-196: an occupant sees in every direction from the feature, which does not block it."""
    village = rect("V1", "village", [Trait.DEFENSIBLE, Trait.HARD_COVER], 0, 0, 8, 8)
    inside = unit("O", "A", [], occupying="V1")
    north, south = line("N", "B", 4, 20, 180), line("S", "B", 4, -10)
    assert line_of_sight(inside, north, [inside, north], [village]).value is True
    assert line_of_sight(inside, south, [inside, south], [village]).value is True
    assert line_of_sight(north, inside, [inside, north], [village]).value is True


def test_nearest_visible_target() -> None:
    """VF-41 (VF-T16): X at 9 in and Y at 11 in, both visible: only X may be shot at; once X
    has been attacked this phase, Y is the nearest."""
    a = line("A", "A", 10, 10)
    x = line("X", "B", 2, 19, 180)  # x -2..6, front edge y 19: 9 in
    y = line("Y", "B", 18, 21, 180)  # x 14..22, front edge y 21: 11 in
    own = line("O", "A", 40, 12)  # a friendly unit is never a target
    proposal = nearest_visible_target(a, [a, x, y, own])
    assert proposal.value == ("X",)
    assert proposal.rule == "VF-41"
    assert "X at 9.000 in: visible" in proposal.note
    assert nearest_visible_target(a, [a, x, y, own], excluded={"X"}).value == ("Y",)


def test_a_nearer_enemy_out_of_sight_is_passed_over() -> None:
    """Reading taken: "visible" for the nearest-target rule needs a line of sight too."""
    a = line("A", "A", 10, 10)
    hidden = line("H", "B", 10, 16, 180)  # 6 in away, behind the wood
    aside = line("S", "B", 40, 16, 180)  # x 36..44 at y 16: outside the arc
    far_seen = line("F", "B", 24, 24, 180)  # x 20..28, front edge y 24: in the arc
    wood = rect("W1", "wood", WOOD, 5, 12, 15, 15)
    proposal = nearest_visible_target(a, [a, hidden, aside, far_seen], [wood])
    assert proposal.value == ("F",)
    assert proposal.note == "H at 6.000 in: not visible; F at 15.232 in: visible"


def test_equally_near_targets_are_the_acting_players_choice() -> None:
    """AMB-8: two visible enemies at the same distance: both are proposed."""
    a = line("A", "A", 10, 10)
    left, right = line("L", "B", 0, 20, 180), line("R", "B", 20, 20, 180)
    proposal = nearest_visible_target(a, [a, left, right])
    assert proposal.value == ("L", "R")
    assert "AMB-8" in proposal.note


def test_no_target_at_all() -> None:
    a = line("A", "A", 10, 10)
    assert nearest_visible_target(a, [a]).value == ()
    behind = line("B", "B", 10, 0)
    assert nearest_visible_target(a, [a, behind]).value == ()
