"""Formations and formation changes: classification (VF-9, VF-T5), blocks (VF-8, VF-T6), the
change around a pivot base (VF-60) as a step with its umpire facts, limbering (VF-11, GAP-12),
squares (VF-141, VF-142, VF-T28), open order (VF-146, VF-T21) and company column (VF-152,
VF-T29), the sheet's refusals by rule, and a hypothesis property of the built blocks."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
import shapely  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON
from games.core.rng import Rng
from games.valour_fortitude import command, melee, turn
from games.valour_fortitude import formations as fm
from games.valour_fortitude import geometry as g
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import NeedFacts
from games.valour_fortitude.order_sheet import sheet_problems
from games.valour_fortitude.randomplay import random_sheet
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Stats, Unit
from games.valour_fortitude.values import allowance, in_march_column
from tests.engines.valour_fortitude.vf_builders import block
from tests.engines.valour_fortitude.vf_play import ctx, game, set_unit

F = Formation


def _order(state: GameState, unit_id: str, order: JSON) -> JSON:
    return {"units": {unit_id: order}}


def _run(
    state: GameState, unit_id: str, order: JSON, dice: tuple[int, ...] = ()
) -> tuple[GameState, list[str]]:
    """The unit's action and its stages through the turn machine, the umpire confirming."""
    c = ctx(state, dice, auto=True)
    c.flow["sheet"] = _order(state, unit_id, order)
    c.flow["queue"] = [{"do": "unit", "unit": unit_id}]
    turn.run(c)
    return c.game, [e.text for e in c.log]


def _bases(unit: Unit) -> list[tuple[str, str, str, bool]]:
    return [(str(b.x), str(b.y), str(b.facing_deg), b.front_rank) for b in unit.bases]


# --- VF-9, VF-8 ---


@pytest.mark.parametrize(
    ("files", "ranks", "formation"),
    [
        (3, 8, F.MARCH_COLUMN),
        (12, 2, F.LINE),
        (6, 4, F.ATTACK_COLUMN),
        (8, 3, F.ATTACK_COLUMN),
        (4, 6, F.ATTACK_COLUMN),
        (24, 1, F.LINE),
        (3, 3, F.ATTACK_COLUMN),
        (2, 3, F.MARCH_COLUMN),
    ],
)
def test_vf_t5_classification(files: int, ranks: int, formation: Formation) -> None:
    """VF-T5: 3x8 march column, 12x2 line, 6x4 attack column, 8x3 attack column (AMB-5),
    4x6 attack column (4 files > 3)."""
    assert fm.classify(files, ranks) is formation


def test_vf_t6_more_than_six_figures_need_two_ranks() -> None:
    """VF-T6: 8 figures in one rank of 8 are refused; a detachment of 6 in one rank is not."""
    refused = fm.block_problem(8, F.LINE, 8, 1)
    assert refused is not None
    assert refused.rule == "VF-8"
    assert fm.block_problem(6, F.LINE, 6, 1) is None


def test_block_rules() -> None:
    """VF-8: every rank but the last is full; VF-9: the block must be the formation named;
    VF-146: open order 1-4 ranks, one rank allowed for any size (AMB-36); VF-152: company
    column 5 or 6 ranks."""
    assert fm.block_problem(24, F.LINE, 12, 2) is None
    assert fm.block_problem(24, F.LINE, 10, 2).rule == "VF-8"  # type: ignore[union-attr]
    assert fm.block_problem(24, F.LINE, 10, 3).rule == "VF-9"  # type: ignore[union-attr]
    assert fm.block_problem(24, F.LINE, 6, 4).rule == "VF-9"  # type: ignore[union-attr]
    assert fm.block_problem(24, F.OPEN_ORDER, 24, 1) is None
    assert fm.block_problem(24, F.OPEN_ORDER, 4, 6).rule == "VF-146"  # type: ignore[union-attr]
    assert fm.block_problem(24, F.COMPANY_COLUMN, 6, 4).rule == "VF-152"  # type: ignore[union-attr]
    assert fm.block_problem(24, F.COMPANY_COLUMN, 4, 6) is None


def test_bases_carry_their_figures() -> None:
    """A base of the starter infantry is 3 files by 2 ranks (L69), of its cavalry 3 by 1."""
    state = game()
    assert fm.per_base(state.unit("U-A1")) == (3, 2)
    assert fm.per_base(state.unit("U-A5")) == (3, 2)
    assert fm.per_base(state.unit("U-A8")) == (3, 1)
    assert fm.middle_pivots(state.unit("U-A1")) == [1, 2]
    assert fm.middle_pivots(state.unit("U-B3")) == [0]


# --- VF-60: the change around the pivot ---


def test_line_to_attack_column_around_the_pivot() -> None:
    """VF-60: the left middle base of U-A1's front rank stays; the column is set up around it,
    the pivot in the middle of the new front rank (the left of two)."""
    unit = game().unit("U-A1")
    spec = fm.Spec(F.ATTACK_COLUMN, 6, 4)
    bases = fm.build(unit, spec)
    assert _bases(replace(unit, bases=bases)) == [
        ("18.820", "13.215", "0.000", True),
        ("21.180", "13.215", "0.000", True),
        ("18.820", "11.645", "0.000", False),
        ("21.180", "11.645", "0.000", False),
    ]
    after = fm.changed(unit, spec, bases)
    assert (after.formation, after.files, after.ranks) == (F.ATTACK_COLUMN, 6, 4)
    assert after.turn_flags.changed_formation_this_round
    assert allowance(after) == 12


def test_turning_with_a_formation_change() -> None:
    """VF-60: the pivot turns to any facing; the rest is set up around it (line, facing east:
    the front rank runs north to south from the pivot)."""
    unit = game().unit("U-A6")  # 2 bases, 6 x 2
    bases = fm.build(unit, fm.Spec(F.LINE, 6, 2, Decimal(90)))
    assert _bases(replace(unit, bases=bases)) == [
        ("70.820", "13.215", "90.000", True),
        ("70.820", "10.855", "90.000", True),
    ]


def test_square_is_a_closed_pinwheel() -> None:
    """VF-141, digest 5.2: four faces facing outwards, a square of side ceil(4/4) * 2.36 +
    1.57 = 3.93 in; the pivot stays."""
    unit = game().unit("U-A1")
    spec = fm.Spec(F.SQUARE, 0, 0)
    after = fm.changed(unit, spec, fm.build(unit, spec))
    assert [str(b.facing_deg) for b in after.bases] == ["0.000", "90.000", "180.000", "270.000"]
    assert (str(after.bases[0].x), str(after.bases[0].y)) == ("18.820", "13.215")
    shape = g.footprint_polygon(after)
    x0, y0, x1, y1 = shape.bounds
    assert (round(x1 - x0, 3), round(y1 - y0, 3)) == (3.93, 3.93)
    assert round(shape.area, 4) == round(4 * 2.36 * 1.57, 4)  # no base overlaps another
    assert (after.files, after.ranks) == (3, 2)  # one base on each face
    assert g.sees_all_round(after)
    assert allowance(after) == 3
    back = fm.Spec(F.LINE, 12, 2)
    assert fm.block_or_square_problem(after, back) is None
    line = fm.changed(after, back, fm.build(after, back))
    assert line.formation is F.LINE
    assert len({b.facing_deg for b in line.bases}) == 1


def test_change_through_the_turn_machine() -> None:
    """A Move of no distance whose formation change is the action (AMB-34): the unit step,
    then the change as its own stage; the log names the rule."""
    state, log = _run(
        game(), "U-A1", {"action": "MOVE", "formation_after": {"formation": "SQUARE"}}
    )
    unit = state.unit("U-A1")
    assert unit.formation is F.SQUARE
    assert unit.turn_flags.acted
    assert not unit.turn_flags.moved_this_turn
    assert any("VF-60" in t for t in log)


def test_change_before_a_move_uses_the_new_allowance() -> None:
    """VF-60 before a Move: line (8 in) to march column (12 in), then 11 in ahead; the change
    does not count against the allowance."""
    order: JSON = {
        "action": "MOVE",
        "path": [["18.820", "24.215"]],
        "formation_before": {"formation": "MARCH_COLUMN", "files": 3, "ranks": 8},
    }
    state, log = _run(game(), "U-A1", order)
    unit = state.unit("U-A1")
    assert unit.formation is F.MARCH_COLUMN
    assert in_march_column(unit)
    assert ms.anchor(unit) == pytest.approx((18.82, 24.215))
    assert not any(t.startswith("Skipped") for t in log), log


def test_change_after_a_move() -> None:
    order: JSON = {
        "action": "MOVE",
        "path": [["20", "18"]],
        "formation_after": {"formation": "ATTACK_COLUMN", "files": 6, "ranks": 4, "pivot": 2},
    }
    state, _ = _run(game(), "U-A1", order)
    unit = state.unit("U-A1")
    assert unit.formation is F.ATTACK_COLUMN
    assert (str(unit.bases[0].x), str(unit.bases[0].y)) == ("21.180", "17.215")


def test_three_inch_rule_skips_the_change() -> None:
    """VF-60: more than 3 in from enemy units at the start and the end, else skipped."""
    state = game()
    enemy = state.unit("U-B1")
    near = ms.moved(enemy, Decimal("-2"), Decimal("-29"))  # its front edge 3 in from U-A1
    state = set_unit(state, "U-B1", bases=near.bases)
    assert ms.gap(state, state.unit("U-A1"), state.unit("U-B1")) == pytest.approx(3.0, abs=1e-6)
    after, log = _run(state, "U-A1", {"action": "MOVE", "formation_after": {"formation": "SQUARE"}})
    assert after.unit("U-A1").formation is F.LINE
    assert any(t.startswith("Skipped (VF-60)") for t in log)


def test_the_umpire_is_asked_and_may_shift_the_block() -> None:
    """Digest 4.2: the new footprint is proposed (rule VF-60) and the umpire confirms or
    corrects it; an offset correction moves the whole block."""
    state = game()
    c = ctx(state)
    c.flow["sheet"] = _order(
        state, "U-A1", {"action": "MOVE", "formation_after": {"formation": "SQUARE"}}
    )
    with pytest.raises(NeedFacts) as asked:
        command.reform(c, "U-A1", "after")
    keys = {p["key"]: p for p in asked.value.proposals}
    assert set(keys) == {"reform:clear", "reform:fits", "reform:place"}
    assert keys["reform:place"]["rule"] == "VF-60"
    assert keys["reform:place"]["kind"] == "offset"
    c = ctx(state, facts={"reform:clear": True, "reform:fits": True, "reform:place": ["1", "-0.5"]})
    c.flow["sheet"] = _order(
        state, "U-A1", {"action": "MOVE", "formation_after": {"formation": "SQUARE"}}
    )
    command.reform(c, "U-A1", "after")
    assert (str(c.game.unit("U-A1").bases[0].x), str(c.game.unit("U-A1").bases[0].y)) == (
        "19.820",
        "12.715",
    )


def test_a_block_off_the_table_is_skipped() -> None:
    """VF-8, VF-56: the new block must stand on the table: U-A1, its front 3 in from the south
    edge, cannot form a march column 4 bases (6.28 in) deep there."""
    state = game()
    unit = state.unit("U-A1")
    state = set_unit(state, "U-A1", bases=ms.moved(unit, Decimal(0), Decimal("-11")).bases)
    order: JSON = {
        "action": "MOVE",
        "formation_after": {"formation": "MARCH_COLUMN", "files": 3, "ranks": 8},
    }
    after, log = _run(state, "U-A1", order)
    assert after.unit("U-A1").formation is F.LINE
    assert any(t.startswith("Skipped (VF-8)") for t in log)


# --- the sheet's refusals ---


LINE12: dict[str, object] = {"formation": "LINE", "files": 12, "ranks": 2}
SQUARE: dict[str, object] = {"formation": "SQUARE"}


@pytest.mark.parametrize(
    ("unit_id", "order", "rule"),
    [
        (
            "U-A1",
            {"action": "CHARGE", "target": "U-B1", "path": [[20, 40]], "formation_after": LINE12},
            "VF-60",
        ),
        ("U-A1", {"action": "RALLY", "formation_after": LINE12}, "VF-60"),
        ("U-A1", {"action": "WITHDRAW", "path": [[20, 10]], "formation_before": LINE12}, "VF-60"),
        ("U-A1", {"action": "MARCH", "path": [[20, 30]], "formation_after": LINE12}, "VF-60"),
        (
            "U-A1",
            {"action": "MOVE", "formation_before": LINE12, "formation_after": LINE12},
            "VF-60",
        ),
        ("U-A1", {"action": "MOVE", "path": [[20, 16]], "formation_after": SQUARE}, "VF-141"),
        ("U-A8", {"action": "MOVE", "formation_after": SQUARE}, "VF-141"),
        (
            "U-A9",
            {
                "action": "MOVE",
                "formation_after": {"formation": "OPEN_ORDER", "files": 12, "ranks": 1},
            },
            "VF-146",
        ),
        (
            "U-A3",
            {
                "action": "MOVE",
                "formation_after": {
                    "formation": "OPEN_ORDER",
                    "files": 12,
                    "ranks": 2,
                    "gap_in": "0.6",
                },
            },
            "VF-146",
        ),
        (
            "U-B1",
            {
                "action": "MOVE",
                "formation_after": {"formation": "ATTACK_COLUMN", "files": 6, "ranks": 4},
            },
            "VF-155",
        ),
        (
            "U-A1",
            {
                "action": "MOVE",
                "formation_after": {"formation": "COMPANY_COLUMN", "files": 3, "ranks": 8},
            },
            "VF-152",
        ),
        ("U-A1", {"action": "MOVE", "formation_after": {**LINE12, "pivot": 0}}, "VF-60"),
        (
            "U-A1",
            {
                "action": "MOVE",
                "formation_after": {"formation": "ATTACK_COLUMN", "files": 8, "ranks": 3},
            },
            "VF-4",
        ),
        (
            "U-A1",
            {
                "action": "MOVE",
                "formation_after": {"formation": "ATTACK_COLUMN", "files": 12, "ranks": 3},
            },
            "VF-8",
        ),
        (
            "U-A1",
            {"action": "MOVE", "formation_after": {"formation": "LINE", "files": 24, "ranks": 1}},
            "VF-8",
        ),
        (
            "U-A1",
            {"action": "MOVE", "formation_after": {"formation": "LINE", "files": 6, "ranks": 4}},
            "VF-9",
        ),
        (
            "U-A8",
            {
                "action": "MOVE",
                "formation_after": {"formation": "ATTACK_COLUMN", "files": 3, "ranks": 4},
            },
            "VF-9",
        ),
        (
            "U-A1",
            {
                "action": "MOVE",
                "formation_after": {"formation": "ATTACK_COLUMN", "files": 9, "ranks": 3},
            },
            "VF-4",
        ),
        ("U-A4", {"action": "MOVE", "formation_after": SQUARE}, "VF-11"),
        ("U-A1", {"action": "MOVE"}, "VF-56"),
    ],
)
def test_sheet_refusals(unit_id: str, order: dict[str, object], rule: str) -> None:
    """VF-60: only before or after a Move, after a Withdraw, one change per action, the pivot
    in the middle; VF-141 squares neither move nor come to cavalry; VF-146, VF-152, VF-155:
    the special rules; VF-8, VF-9, VF-4: the block; VF-11 artillery; a Move without a change
    needs a path."""
    state = game()
    side = state.unit(unit_id).side
    problems = sheet_problems(state, side, {"units": {unit_id: order}})  # type: ignore[dict-item]
    assert [p.rule for p in problems] == [rule], problems


def test_sheet_accepts_legal_changes() -> None:
    state = game()
    units = {
        "U-A1": {"action": "MOVE", "formation_after": {"formation": "SQUARE"}},
        "U-A3": {
            "action": "MOVE",
            "path": [[44, 16]],
            "formation_after": {
                "formation": "OPEN_ORDER",
                "files": 12,
                "ranks": 2,
                "gap_in": "0.5",
            },
        },
        "U-A8": {
            "action": "MOVE",
            "formation_before": {"formation": "OPEN_ORDER", "files": 6, "ranks": 2},
        },
        "U-A4": {"action": "MOVE", "formation_after": {"formation": "MARCH_COLUMN", "facing": 180}},
        "U-A5": {
            "action": "WITHDRAW",
            "path": [[64, 12]],
            "formation_after": {"formation": "LINE", "files": 12, "ranks": 2},
        },
    }
    assert sheet_problems(state, "A", {"units": units}) == []  # type: ignore[dict-item]


# --- VF-11, GAP-12: limbering ---


def test_limbering_and_unlimbering() -> None:
    """VF-11: limbered, the limber's rear touches the gun's rear and the limber's facing is the
    front (march column, 12 in); unlimbered, the gun is the front and the limber within 1 in
    behind it (line, 3 in)."""
    gun = game().unit("U-A4")
    assert allowance(gun) == 3
    limber = fm.Spec(F.MARCH_COLUMN, 0, 0)
    limbered = fm.changed(gun, limber, fm.build(gun, limber))
    assert limbered.limbered
    assert in_march_column(limbered)
    assert allowance(limbered) == 12
    assert _bases(limbered) == [
        ("54.000", "12.820", "180.000", False),
        ("54.000", "15.970", "0.000", True),
    ]
    assert fm.facing_of(limbered) == Decimal(0)
    rear_gun = g.base_corners(limbered.bases[0])[2:]
    rear_limber = g.base_corners(limbered.bases[1])[2:]
    assert {round(c[1], 3) for c in rear_gun} == {round(c[1], 3) for c in rear_limber} == {14.0}
    unlimber = fm.Spec(F.LINE, 0, 0)
    again = fm.changed(limbered, unlimber, fm.build(limbered, unlimber))
    assert again.limbered is False
    assert allowance(again) == 3
    assert _bases(again) == [
        ("54.000", "19.620", "0.000", True),
        ("54.000", "15.970", "0.000", False),
    ]
    gap = shapely.distance(g.base_polygon(again.bases[0]), g.base_polygon(again.bases[1]))
    assert 0 < gap <= 1  # VF-11: within 1 in, not touching


def test_limbering_through_the_turn_machine() -> None:
    order: JSON = {
        "action": "MOVE",
        "formation_after": {"formation": "MARCH_COLUMN", "facing": 180},
    }
    state, log = _run(game(), "U-A4", order, dice=(5,))  # 17 in from its BG: messenger 5
    assert any("VF-55" in t for t in log)
    gun = state.unit("U-A4")
    assert gun.limbered
    assert gun.formation is F.MARCH_COLUMN
    assert _bases(gun)[1] == ("54.000", "9.670", "180.000", True)  # the limber leads south


# --- VF-141 squares, VF-146 open order, VF-152 company column ---


def test_formation_values() -> None:
    unit = game().unit("U-A3")  # light infantry, 24 figures
    square = replace(unit, formation=F.SQUARE)
    open_2 = replace(unit, formation=F.OPEN_ORDER, ranks=2)
    open_4 = replace(unit, formation=F.OPEN_ORDER, ranks=4)
    column = replace(unit, formation=F.COMPANY_COLUMN)
    assert [fm.ranged_halved(u) for u in (unit, square, open_2, open_4, column)] == [
        False,
        True,
        False,
        True,
        True,
    ]
    assert [allowance(u) for u in (unit, square, open_2, column)] == [8, 3, 9, 8]
    assert allowance(replace(game().unit("U-A8"), formation=F.OPEN_ORDER)) == 18
    assert fm.melee_bonus(square, False) == fm.melee_bonus(column, False) == 1
    assert fm.melee_bonus(open_2, False) == -1
    assert fm.melee_bonus(open_2, True) == 0


@pytest.mark.parametrize(
    ("hits", "cover", "left"), [(5, True, 2), (1, True, 1), (5, False, 2), (4, False, 2)]
)
def test_vf_t21_open_order_halves_shooting_casualties(hits: int, cover: bool, left: int) -> None:
    """VF-T21: light infantry in open order in soft cover takes 5 hits: floor(5/2) = 2, halved
    once only; 1 hit gives 1 (AMB-4) (VF-95: halved before they are applied)."""
    unit = replace(game().unit("U-A3"), formation=F.OPEN_ORDER)
    assert fm.shooting_casualties(unit, hits, cover) == (left, "VF-146")
    assert fm.shooting_casualties(replace(unit, formation=F.LINE), 5, False) == (5, None)
    assert fm.shooting_casualties(replace(unit, formation=F.LINE), 5, True) == (2, "VF-147")


def test_melee_values_in_the_special_formations() -> None:
    """VF-141: +1 melee in square, never flanked; VF-146: -1 out of cover, a supporter in open
    order adds 1; VF-152: +1, never flanked or surrounded."""
    state = game()
    a, t = state.unit("U-A1"), state.unit("U-B1")
    base = melee._value(a, t, True, True, [], {}, False)
    square = replace(a, formation=F.SQUARE)
    assert melee._value(square, t, True, True, [], {}, False) == base - 1 + 1  # no line bonus
    helper = state.unit("U-A2")
    assert (
        melee._value(a, t, True, True, [replace(helper, formation=F.OPEN_ORDER)], {}, False)
        == base + 1
    )
    assert melee._value(a, t, True, True, [helper], {}, False) == base + 2
    opened = replace(a, formation=F.OPEN_ORDER)
    melee_value = a.stats.melee
    assert melee._value(opened, t, True, True, [], {"cover:a": "none"}, False) == melee_value - 1
    assert melee._value(opened, t, True, True, [], {"cover:a": "soft"}, False) == melee_value
    column = replace(a, formation=F.COMPANY_COLUMN)
    assert melee._value(column, t, False, True, [], {}, False) == melee_value + 1  # VF-152
    assert melee._value(t, column, True, False, [], {}, False) == melee._value(
        t, a, True, True, [], {}, False
    )
    assert melee._value(t, square, True, False, [], {}, False) == melee._value(
        t, a, True, True, [], {}, False
    )


def test_a_square_that_loses_flees() -> None:
    state = game()
    square = replace(state.unit("U-A1"), formation=F.SQUARE)
    assert melee._auto_flight(square, state.unit("U-B1"), []) is not None


@pytest.mark.parametrize(
    ("face", "modifier", "outcome"),
    [
        (2, 2, "withdraw"),
        (4, 2, "stay"),
        (1, 2, "loss"),
        (5, 0, "withdraw"),
        (3, 0, "loss"),
        (6, 0, "stay"),
        (1, 4, "loss"),
        (4, 4, "stay"),
    ],
)
def test_vf_t28_square_test_table(face: int, modifier: int, outcome: str) -> None:
    """VF-T28: shaken square, [2] -> 4 withdraw; [4] -> 6 stays; [1] fails; not shaken, [5]
    withdraws. VF-T29: company column +2, [4] -> 6 stays."""
    assert fm.square_test_outcome(face, modifier) == outcome


def _cavalry_at_square(shaken: bool, formation: Formation = F.SQUARE) -> GameState:
    """U-B8 (hussars, B) in contact with U-A1 (A) in square or company column, B active."""
    state = game()
    a1 = state.unit("U-A1")
    spec = fm.Spec(formation, 0, 0) if formation is F.SQUARE else fm.Spec(formation, 3, 8)
    square = fm.changed(a1, spec, fm.build(a1, spec))
    if formation is F.COMPANY_COLUMN:
        square = replace(
            square,
            formation=F.COMPANY_COLUMN,
            stats=replace(square.stats, special_rules=("masse",)),
        )
    if shaken:
        square = replace(square, casualties=square.stats.morale)
    state = set_unit(
        state, "U-A1", bases=square.bases, formation=square.formation, casualties=square.casualties
    )
    hussars = state.unit("U-B8")  # facing south: its front edge is its lowest edge
    x0, _, _, y1 = g.footprint_polygon(state.unit("U-A1")).bounds
    hx0, hy0, _, _ = g.footprint_polygon(hussars).bounds
    moved = ms.moved(hussars, Decimal(str(round(x0 - hx0, 3))), Decimal(str(round(y1 - hy0, 3))))
    state = set_unit(state, "U-B8", bases=moved.bases)
    return replace(state, turn=replace(state.turn, active_side="B", round=1))


@pytest.mark.parametrize(
    ("shaken", "die", "casualties", "falls_back"),
    [(True, 2, 0, True), (True, 4, 0, False), (True, 1, 1, True), (False, 5, 0, True)],
)
def test_vf_t28_square_tests_open_the_melee_phase(
    shaken: bool, die: int, casualties: int, falls_back: bool
) -> None:
    state = _cavalry_at_square(shaken)
    c = ctx(state, [die], auto=True)
    follow = melee.plan(c)
    assert c.game.unit("U-B8").casualties == casualties
    assert ({"do": "fall_back", "unit": "U-B8"} in follow) is falls_back
    assert follow[-1] == {"do": "melee_plan"}
    assert any("VF-142" in e.text for e in c.log)


def test_vf_t29_company_column_counts_as_a_square_plus_two() -> None:
    """VF-T29: attacking cavalry at a company column (not shaken): [4] + 2 = 6, it stays."""
    state = _cavalry_at_square(False, F.COMPANY_COLUMN)
    c = ctx(state, [4], auto=True)
    follow = melee.plan(c)
    assert follow == [{"do": "melee_plan"}]
    assert any("+2" in e.text and "VF-142" in e.text for e in c.log)


def test_square_may_not_charge() -> None:
    state = set_unit(game(), "U-A1", formation=F.SQUARE)
    c = ctx(state, auto=True)
    c.flow["sheet"] = _order(
        state, "U-A1", {"action": "CHARGE", "target": "U-B1", "path": [[20, 40]]}
    )
    with pytest.raises(Skip) as skipped:
        command.unit_action(c, "U-A1")
    assert skipped.value.rule == "VF-141"


# --- a property of every block the engine builds ---

_STARTERS = ("U-A1", "U-A3", "U-A5", "U-A6", "U-A8", "U-B3", "U-B7")


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(_STARTERS),
    st.integers(min_value=0, max_value=20),
    st.sampled_from(["0", "45", "90", "137.5", "180", "270", "359"]),
)
def test_built_blocks_keep_the_pivot_and_never_overlap(
    unit_id: str, pick: int, facing: str
) -> None:
    """VF-60, VF-8: for every formation the unit may take, at any facing: the pivot base stays
    where it was, the bases keep their sizes, none overlaps another, and the bases of a closed
    block touch each other (one connected footprint)."""
    unit = game().unit(unit_id)
    choices = fm.choices(unit)
    assert choices
    spec = replace(choices[pick % len(choices)], facing=Decimal(facing))
    pivot = fm.pivot_base(unit, spec)
    bases = fm.build(unit, spec)
    assert (bases[0].x, bases[0].y) == (pivot.x, pivot.y)
    assert sorted((b.width, b.depth) for b in bases) == sorted(
        (b.width, b.depth) for b in unit.bases
    )
    shape = shapely.union_all([g.base_polygon(b) for b in bases])
    total = sum(float(b.width * b.depth) for b in bases)
    assert shape.area == pytest.approx(total, abs=0.02)
    if spec.formation is not F.OPEN_ORDER:
        assert shapely.buffer(shape, 0.01).geom_type == "Polygon"
    after = fm.changed(unit, spec, bases)
    assert fm.per_base(after) == fm.per_base(unit)


def test_choices_follow_the_special_rules() -> None:
    state = game()
    kinds = {s.formation for s in fm.choices(state.unit("U-A1"))}
    assert kinds == {F.LINE, F.ATTACK_COLUMN, F.MARCH_COLUMN, F.SQUARE}
    kinds = {s.formation for s in fm.choices(state.unit("U-B1"))}  # disciplined musketry
    assert F.ATTACK_COLUMN not in kinds
    assert F.OPEN_ORDER in {s.formation for s in fm.choices(state.unit("U-A3"))}
    assert F.OPEN_ORDER in {s.formation for s in fm.choices(state.unit("U-A8"))}
    assert F.SQUARE not in {s.formation for s in fm.choices(state.unit("U-A8"))}
    six = block(20, 14, 0, 6, 1, 2.36, 1.57)  # 36 figures on 6 bases of 3 x 2
    masse = replace(
        state.unit("U-A1"), figures=36, files=18, bases=six, stats=Stats(3, 4, 4, 12, ("masse",))
    )
    columns = [s for s in fm.choices(masse) if s.formation is F.COMPANY_COLUMN]
    assert [(s.files, s.ranks) for s in columns] == [(6, 6)]  # VF-152: 5 or 6 ranks
    assert fm.change_problem(masse, "MOVE", "after", columns[0], False) is None
    moving = fm.change_problem(masse, "MOVE", "after", columns[0], True)
    assert moving is not None
    assert moving.rule == "VF-152"
    weak = replace(masse, upgrades=replace(masse.upgrades, understrength=True))
    refused = fm.change_problem(weak, "MOVE", "after", columns[0], False)
    assert refused is not None
    assert refused.rule == "VF-152"  # L1215


def test_a_failed_messenger_test_stops_the_change_and_the_move() -> None:
    """VF-55 comes before the whole action: with a change before a Move, a failed test leaves
    the unit where and as it was."""
    order: JSON = {
        "action": "MOVE",
        "path": [["54", "16"]],
        "formation_before": {"formation": "MARCH_COLUMN", "facing": 0},
    }
    state, log = _run(game(), "U-A4", order, dice=(3,))
    assert state.unit("U-A4").bases == game().unit("U-A4").bases
    assert state.unit("U-A4").limbered is False
    assert any("cannot take an action" in t for t in log)


@pytest.mark.parametrize(
    ("rules", "action", "when", "rule"),
    [
        (("diszipliniert",), "MARCH", "after", None),  # VF-156
        (("veteran",), "MARCH", "after", None),  # VF-173, AMB-41
        ((), "MARCH", "after", "VF-60"),
        (("miliz",), "WITHDRAW", "after", "VF-158"),  # AMB-18
        (("landwehr",), "MOVE", "after", None),
        (("unerfahren",), "MOVE", "before", "VF-172"),
    ],
)
def test_special_rules_on_changes(
    rules: tuple[str, ...], action: str, when: str, rule: str | None
) -> None:
    unit = game().unit("U-A7")
    unit = replace(unit, stats=replace(unit.stats, special_rules=rules))
    problem = fm.change_problem(unit, action, when, fm.Spec(F.LINE, 12, 2), True)
    assert (problem.rule if problem else None) == rule


def test_random_play_orders_legal_changes() -> None:
    """The random player sometimes orders a formation change, and its sheets pass the form
    checks."""
    state = game()
    changes = 0
    for seed in range(30):
        sheet = random_sheet(state, "A", Rng(seed))
        assert sheet_problems(state, "A", sheet) == []
        units = sheet["units"]
        assert isinstance(units, dict)
        changes += sum(1 for o in units.values() if isinstance(o, dict) and "formation_after" in o)
    assert changes > 0
