"""Properties of the distances the geometry aid proposes (VF-42, VF-6), over random units:
symmetric and never negative, zero for units that touch, and unchanged when both units are
rotated and moved together."""

from __future__ import annotations

import math
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from games.valour_fortitude import geometry as g
from games.valour_fortitude.state import BaseRect, Unit
from tests.engines.valour_fortitude.vf_builders import D, block, unit

coords = st.decimals(min_value=-60, max_value=60, places=3)
sizes = st.decimals(min_value="0.5", max_value=4, places=3)
any_facing = st.decimals(min_value=0, max_value="359.999", places=3)
right_angles = st.sampled_from([Decimal(0), Decimal(90), Decimal(180), Decimal(270)])


@st.composite
def units(draw: st.DrawFn, facings: st.SearchStrategy[Decimal] = any_facing) -> Unit:
    x, y, facing = draw(coords), draw(coords), draw(facings)
    across, deep = draw(st.integers(1, 4)), draw(st.integers(1, 2))
    width, depth = draw(sizes), draw(sizes)
    return unit(
        "U", "A", block(float(x), float(y), float(facing), across, deep, float(width), float(depth))
    )


def moved(u: Unit, turns: int, dx: Decimal, dy: Decimal) -> Unit:
    """`u` turned by `turns` quarter turns about the origin, then moved by (dx, dy): exact."""
    bases = []
    for b in u.bases:
        x, y = b.x, b.y
        for _ in range(turns % 4):
            x, y = y, -x  # a quarter turn clockwise (the facing grows by 90)
        facing = (b.facing_deg + 90 * turns) % 360
        bases.append(BaseRect(x + dx, y + dy, facing, b.width, b.depth, b.front_rank))
    return unit(u.id, u.side, bases)


def rotated(u: Unit, degrees: float, dx: float, dy: float) -> Unit:
    """`u` turned clockwise by `degrees` about the origin, then moved (three decimals kept)."""
    t = math.radians(degrees)
    bases = []
    for b in u.bases:
        x, y = float(b.x), float(b.y)
        rx, ry = x * math.cos(t) + y * math.sin(t), -x * math.sin(t) + y * math.cos(t)
        facing = (float(b.facing_deg) + degrees) % 360
        bases.append(BaseRect(D(rx + dx), D(ry + dy), D(facing), b.width, b.depth, b.front_rank))
    return unit(u.id, u.side, bases)


@given(units(), units())
def test_distance_is_symmetric_and_never_negative(a: Unit, b: Unit) -> None:
    ab, ba = g.distance(a, b).value, g.distance(b, a).value
    assert ab >= 0
    assert math.isclose(ab, ba, abs_tol=1e-9)


@given(units(), units())
def test_distance_is_at_most_the_distance_between_any_two_base_centres(a: Unit, b: Unit) -> None:
    gap = g.distance(a, b).value
    centres = min(math.hypot(float(p.x - q.x), float(p.y - q.y)) for p in a.bases for q in b.bases)
    assert gap <= centres + 1e-9


@given(units(right_angles))
def test_a_unit_touching_another_is_at_distance_zero(a: Unit) -> None:
    """VF-6: a unit set front to front against `a` (each base mirrored across its front
    edge) touches it: distance 0 and in contact."""
    mirrored = []
    for b in a.bases:
        (fx, fy), _ = g.axes(b.facing_deg)
        x, y = b.x + Decimal(int(fx)) * b.depth, b.y + Decimal(int(fy)) * b.depth
        mirrored.append(BaseRect(x, y, (b.facing_deg + 180) % 360, b.width, b.depth))
    other = unit("T", "B", mirrored)
    assert g.distance(a, other).value <= 1e-9
    assert g.in_contact(a, other).value is True


@given(units(right_angles), units(right_angles), st.integers(0, 3), coords, coords)
def test_quarter_turns_and_moves_keep_distances(
    a: Unit, b: Unit, turns: int, dx: Decimal, dy: Decimal
) -> None:
    before = g.distance(a, b).value
    after = g.distance(moved(a, turns, dx, dy), moved(b, turns, dx, dy)).value
    assert math.isclose(before, after, abs_tol=1e-9)


@given(units(), units(), st.floats(0, 360), st.floats(-50, 50), st.floats(-50, 50))
def test_any_rigid_motion_keeps_distances(
    a: Unit, b: Unit, degrees: float, dx: float, dy: float
) -> None:
    """Within the rounding of placements to 0.001 in and 0.001 degrees."""
    before = g.distance(a, b).value
    after = g.distance(rotated(a, degrees, dx, dy), rotated(b, degrees, dx, dy)).value
    assert math.isclose(before, after, abs_tol=0.01)


@given(units(right_angles), st.integers(0, 3), coords, coords)
def test_the_front_arc_turns_with_the_unit(u: Unit, turns: int, dx: Decimal, dy: Decimal) -> None:
    """VF-5: a point ahead of the unit stays in its arc, a point behind stays out, whatever
    way the table is turned."""
    front = next(b for b in u.bases if b.front_rank)
    (fx, fy), _ = g.axes(front.facing_deg)
    step_x, step_y = Decimal(int(fx)) * 20, Decimal(int(fy)) * 20
    speck = (D(0), D("0.1"), D("0.1"))
    ahead = unit("P", "B", [BaseRect(front.x + step_x, front.y + step_y, *speck)])
    behind = unit("Q", "B", [BaseRect(front.x - step_x, front.y - step_y, *speck)])
    for viewer, a, b in (
        (u, ahead, behind),
        (moved(u, turns, dx, dy), moved(ahead, turns, dx, dy), moved(behind, turns, dx, dy)),
    ):
        assert g.in_front_arc(viewer, a).value is True
        assert g.in_front_arc(viewer, b).value is False
