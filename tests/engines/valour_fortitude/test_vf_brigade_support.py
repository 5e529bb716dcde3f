"""VF-93 brigade support (seed 8.2.3, L344-346; QR L2622-2623) in the melee: +1 die to the
attacking unit from one unit of its brigade, not in contact with an enemy, within 3 in (AMB-23:
one per side per fight); the worked example VF-T31; the plan naming it; the refusals; VF-94's
conditions. The strike back's support (VF-72, AMB-15, V-09) by the inactive side's standing
policy: none by default, or `auto`."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import pytest

from games.core.protocol import JSON
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import melee
from games.valour_fortitude.army_data import Category
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.state import Formation, GameState, TurnFlags
from tests.engines.valour_fortitude.vf_play import FIGHT_FACTS, ctx, game, set_unit, starter

# In the starter set-up U-A1, U-A2 and U-A3 (brigade BR-A1) stand in one line 2.56 in apart:
# U-A1 and U-A3 are both within 3 in of U-A2.
FACTS: dict[str, JSON] = {**FIGHT_FACTS, "brigade:U-A1": True, "brigade:U-A3": True}
BASE = 4 + 1  # U-A2: melee 4, + half its ranged 3 in line against a visible target (VF-84)
STRIKE_BACK = 4 + 1  # U-B2 likewise


def _fight(
    state: GameState,
    dice: Sequence[int],
    facts: dict[str, JSON] | None = None,
    policy: str | None = None,
    **step: JSON,
) -> Ctx:
    c = ctx(state, [*dice, *[6] * 40], {**FACTS, **(facts or {})})  # then morale dice
    fight: dict[str, JSON] = {
        "do": "fight",
        "attacker": "U-A2",
        "target": "U-B2",
        "supporters": [],
        "contacts": {"U-A2": ["U-B2"]},
        **step,
    }
    if policy is not None:
        c.flow["strike_back"] = {"B": policy}  # V-09: B's standing policy
    c.follow = melee.fight(c, fight)  # type: ignore[attr-defined]
    return c


def _lines(c: Ctx) -> list[str]:
    return [e.text for e in c.log]


def _dice(c: Ctx, who: str) -> int:
    line = next(t for t in _lines(c) if t.startswith(f"Melee: {who} attacks"))
    return int(line.split(" with ")[1].split(" dice")[0])


def test_vf_t31_only_one_brigade_supporter_adds_one_die() -> None:
    """VF-T31: two units of the attacker's brigade within 3 in and not in contact: only one
    gives brigade support, +1 die (the auto plan: the first by id, U-A1)."""
    c = _fight(game(), [4] * (BASE + 1) + [4] * STRIKE_BACK)
    assert _dice(c, "U-A2") == BASE + 1
    assert "U-A1 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)
    assert not any("U-A3 gives" in t for t in _lines(c))
    assert (
        melee._value(
            c.game.unit("U-A2"), c.game.unit("U-B2"), True, True, [], FACTS, False, brigade=1
        )
        == melee._value(c.game.unit("U-A2"), c.game.unit("U-B2"), True, True, [], FACTS, False) + 1
    )
    assert c.game.unit("U-A1").turn_flags.supported_this_phase  # VF-81: once per phase
    assert not c.game.unit("U-A3").turn_flags.supported_this_phase


def test_the_strike_back_gets_no_brigade_support_v09_default() -> None:
    """AMB-15 / V-09: the inactive side is not asked (VF-32), the default is no supporters: U-B1
    and U-B3 of U-B2's brigade stand near it, and the strike back keeps its own dice."""
    c = _fight(game(), [4] * (BASE + 1) + [4] * STRIKE_BACK)
    line = next(t for t in _lines(c) if t.startswith("U-B2 strikes back"))
    assert f"with {STRIKE_BACK} dice" in line


def test_the_plan_names_the_brigade_supporter_or_none() -> None:
    c = _fight(game(), [4] * (BASE + 1) + [4] * STRIKE_BACK, brigade_supporter="U-A3")
    assert "U-A3 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)
    assert _dice(c, "U-A2") == BASE + 1
    c = _fight(game(), [4] * BASE + [4] * STRIKE_BACK, brigade_supporter=None)
    assert _dice(c, "U-A2") == BASE
    assert not any("brigade support" in t for t in _lines(c))


def _flags(**on: bool) -> TurnFlags:
    return TurnFlags(**on)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "change", "facts", "why"),
    [
        ("U-A1", {}, {"brigade:U-A1": False}, "U-A1 is not within 3 in of U-A2"),
        ("U-A5", {}, {}, "U-A5 is not of the fighting unit's brigade"),
        ("U-B1", {}, {}, "U-B1 is not of the fighting unit's brigade"),
        ("U-A2", {}, {}, "U-A2 is not of the fighting unit's brigade"),
        ("U-A1", {"fled": True}, {}, "U-A1 is not on the table"),
        ("U-A1", {"turn_flags": "supported"}, {}, "already fought or supported"),
        ("U-A1", {"turn_flags": "attacked"}, {}, "already fought or supported"),
        ("U-A1", {"formation": Formation.MARCH_COLUMN}, {}, "march column"),
        ("U-A1", {"contact": True}, {}, "U-A1 is in contact with an enemy unit"),
        ("U-X1", {}, {}, "U-X1 is not a unit"),
    ],
)
def test_a_named_brigade_supporter_that_cannot_support_is_skipped(
    name: str, change: dict[str, object], facts: dict[str, JSON], why: str
) -> None:
    state = game()
    contacts: dict[str, JSON] = {"U-A2": ["U-B2"]}
    if change.get("contact"):
        contacts["U-A1"] = ["U-B1"]
    elif change.get("turn_flags") == "supported":
        state = set_unit(state, name, turn_flags=_flags(supported_this_phase=True))
    elif change.get("turn_flags") == "attacked":
        state = set_unit(state, name, turn_flags=_flags(attacked_this_phase=True))
    elif change:
        state = set_unit(state, name, **change)
    c = _fight(
        state, [4] * BASE + [4] * STRIKE_BACK, facts, brigade_supporter=name, contacts=contacts
    )
    assert _dice(c, "U-A2") == BASE
    skipped = [t for t in _lines(c) if t.startswith("Brigade support is skipped (VF-93)")]
    assert len(skipped) == 1
    assert why in skipped[0]


def test_the_auto_plan_passes_over_a_supporter_that_would_cost_the_plus_one() -> None:
    """VF-94: +1 to each die only when the unit and all its supporters have no casualties (a
    brigade supporter is a supporting unit, digest VF-93). The auto plan passes over U-A1 (1
    casualty) and takes U-A3; every 3 then hits (3 + 1)."""
    state = set_unit(game(), "U-A1", casualties=1)
    c = _fight(state, [3] * (BASE + 1) + [1] * STRIKE_BACK)
    assert "U-A3 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)
    assert f"{BASE + 1} hits" in next(t for t in _lines(c) if t.startswith("Melee: U-A2"))


def test_a_named_supporter_with_casualties_costs_the_plus_one() -> None:
    state = set_unit(game(), "U-A1", casualties=1)
    c = _fight(state, [3] * (BASE + 1) + [1] * STRIKE_BACK, brigade_supporter="U-A1")
    assert "U-A1 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)
    assert ", 0 hits" in next(t for t in _lines(c) if t.startswith("Melee: U-A2"))


def test_a_shaken_brigade_supporter_gives_minus_one() -> None:
    """VF-94: -1 when the attacker or any supporting unit is shaken (morale 4, 4 casualties)."""
    state = set_unit(game(), "U-A3", casualties=4)
    c = _fight(state, [4] * (BASE + 1) + [1] * STRIKE_BACK, brigade_supporter="U-A3")
    assert ", 0 hits" in next(t for t in _lines(c) if t.startswith("Melee: U-A2"))


def test_a_unit_gives_brigade_support_once_per_phase() -> None:
    """VF-81, VF-89: after supporting U-A2, U-A1 cannot support again in this phase; the next
    fight's auto plan takes U-A3."""
    c = _fight(game(), [4] * (BASE + 1) + [1] * STRIKE_BACK)
    state = set_unit(c.game, "U-A2", turn_flags=TurnFlags())  # the next fight, same attacker
    c = _fight(state, [4] * (BASE + 1) + [1] * STRIKE_BACK)
    assert "U-A3 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)


def test_brigade_support_is_not_melee_support_for_automatic_flight() -> None:
    """VF-106 (seed L387): infantry flees automatically when the enemy attacker or a unit that
    gave it *melee support* was cavalry; a cavalry brigade supporter does not count."""
    state = set_unit(game(), "U-A9", brigade="BR-A1")  # a dragoon unit of U-A2's brigade
    dice = [6] * (BASE + 1) + [1] * STRIKE_BACK + [6] * 20
    c = _fight(state, dice, {"brigade:U-A9": True}, brigade_supporter="U-A9")
    assert "U-A9 gives U-A2 brigade support: +1 die (VF-93)" in _lines(c)
    assert not any("against cavalry (VF-106)" in t for t in _lines(c))
    assert not c.game.unit("U-A9").fled


def test_the_sheet_checks_and_the_explicit_plan_carry_the_brigade_supporter() -> None:
    from games.valour_fortitude.order_sheet import sheet_problems
    from games.valour_fortitude.rules import RULESET

    fight: dict[str, JSON] = {"attacker": "U-A2", "target": "U-B2", "brigade_supporter": "U-B1"}
    refused = sheet_problems(game(), "A", {"melee_plan": [fight]})
    assert [r.rule for r in refused] == ["VF-93"]
    for ok in ("U-A1", None):
        fight = {"attacker": "U-A2", "target": "U-B2", "brigade_supporter": ok}
        assert not RULESET.payload_errors("turn_orders", {"melee_plan": [fight]})
        assert not sheet_problems(game(), "A", {"melee_plan": [fight]})
    c = ctx(game(), [], {})
    plan = melee._explicit(c, [fight], {"U-A2": ["U-B2"]})
    assert plan == [
        {"attacker": "U-A2", "target": "U-B2", "supporters": [], "brigade_supporter": None}
    ]


# ----------------------------------------------------------------------------- V-09, AMB-15

TOUCH: dict[str, JSON] = {"U-A2": ["U-B1", "U-B2"]}  # U-B1 touches only the attacking unit
BACK_FACTS: dict[str, JSON] = {"brigade:U-B3": True}


def near() -> GameState:
    """The starter set-up with U-B3 moved 1.5 in west: 2.6 in from U-B2 (4.1 before)."""
    state = game()
    return m.with_unit(state, ms.moved(state.unit("U-B3"), Decimal("-1.5"), Decimal(0)))


def _strikes_back(c: Ctx) -> str:
    return next(t for t in _lines(c) if t.startswith("U-B2 strikes back"))


def test_strike_back_support_by_the_auto_policy() -> None:
    """VF-72, AMB-15: U-B1 (in contact with the attacker only) gives melee support, +2 dice
    (VF-91); U-B3 of U-B2's brigade, within 3 in and in contact with no enemy, brigade support,
    +1 die (VF-93, AMB-23: one per side per fight)."""
    dice = [4] * (BASE + 1) + [4] * (STRIKE_BACK + 3)
    c = _fight(near(), dice, BACK_FACTS, "auto", contacts=TOUCH)
    assert f"with {STRIKE_BACK + 2 + 1} dice" in _strikes_back(c)
    assert "U-B1 supports the strike back of U-B2 (V-09, AMB-15)" in _lines(c)
    assert "U-B3 gives U-B2 brigade support: +1 die (VF-93)" in _lines(c)
    assert c.game.unit("U-B1").turn_flags.supported_this_phase
    assert c.game.unit("U-B3").turn_flags.supported_this_phase


def test_no_strike_back_support_without_the_policy() -> None:
    """V-09's deadline default: no supporters (no policy, or `none`)."""
    for policy in (None, "none"):
        c = _fight(near(), [4] * (BASE + 1) + [4] * STRIKE_BACK, BACK_FACTS, policy, contacts=TOUCH)
        assert f"with {STRIKE_BACK} dice" in _strikes_back(c)
        assert not any("strike back of" in t for t in _lines(c))


def test_vf92_a_unit_touching_another_enemy_does_not_support_the_strike_back() -> None:
    """VF-92: a unit in contact with an enemy unit not chosen as the target gives no support."""
    contacts: dict[str, JSON] = {**TOUCH, "U-A1": ["U-B1"]}
    c = _fight(
        near(), [4] * (BASE + 1) + [4] * (STRIKE_BACK + 1), BACK_FACTS, "auto", contacts=contacts
    )
    assert f"with {STRIKE_BACK + 1} dice" in _strikes_back(c)  # U-B3's brigade support only
    assert not any("U-B1 supports" in t for t in _lines(c))


def test_the_auto_policy_passes_over_a_supporter_that_would_cost_the_plus_one() -> None:
    state = set_unit(near(), "U-B1", casualties=1)
    c = _fight(
        state, [4] * (BASE + 1) + [4] * (STRIKE_BACK + 1), BACK_FACTS, "auto", contacts=TOUCH
    )
    assert f"with {STRIKE_BACK + 1} dice" in _strikes_back(c)


def test_losing_cavalry_strike_back_supporters_fall_back() -> None:
    """VF-75, AMB-19: every losing cavalry unit falls back, supporters of either side too."""
    state = set_unit(near(), "U-B1", category=Category.CAVALRY)
    dice = [6] * (BASE + 1) + [2] * (STRIKE_BACK + 3)  # 2 + 1 fails; 1s would be rerolled
    c = _fight(state, dice, BACK_FACTS, "auto", contacts=TOUCH)
    assert "U-A2 wins the fight (VF-73)" in _lines(c)
    assert {"do": "fall_back", "unit": "U-B1"} in c.follow  # type: ignore[attr-defined]


def test_amb25_the_attacker_flees_when_cavalry_supported_the_winning_strike_back() -> None:
    """VF-106, AMB-25: the active side's infantry attacker, losing to a strike back that a
    cavalry unit supported, flees without a morale test."""
    state = set_unit(near(), "U-B1", category=Category.CAVALRY)
    dice = [1] * (BASE + 1) + [6] * (STRIKE_BACK + 3)
    c = _fight(state, dice, BACK_FACTS, "auto", contacts=TOUCH)
    assert "U-B2 wins the fight (VF-73)" in _lines(c)
    assert any("infantry lost a melee against cavalry (VF-106)" in t for t in _lines(c))
    assert c.game.unit("U-A2").fled


def test_the_policy_is_set_by_a_sheet_and_stands_and_each_side_sees_its_own() -> None:
    from games.core.protocol import OMNISCIENT, Action
    from games.valour_fortitude.rules import RULESET
    from games.valour_fortitude.rules import _dispatch as dispatch

    c = ctx(game(), [6] * 200, {}, auto=True)
    c.flow.update(stage="orders", sheet=None, queue=[], attacked=[], pending=None)
    dispatch(c, Action("A", "turn_orders", {"strike_back": "auto"}))
    assert c.flow["strike_back"] == {"A": "auto"}
    c.flow["stage"] = "orders"
    dispatch(c, Action("A", "turn_orders", {}))
    assert c.flow["strike_back"] == {"A": "auto"}  # it stands until a sheet names it
    match = m.Match(c.game, {**starter().flow, "strike_back": {"A": "auto", "B": "none"}})
    seen = {r: RULESET.view(match, r) for r in ("A", "B", OMNISCIENT)}
    policies = {r: v["strike_back"] for r, v in seen.items() if isinstance(v, dict)}
    assert policies == {
        "A": {"A": "auto"},
        "B": {"B": "none"},
        OMNISCIENT: {"A": "auto", "B": "none"},
    }
