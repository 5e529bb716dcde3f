"""Combined arms in a bonus melee (CCN-145, seed L732: "Im Rahmen einer Bonusattacke darf der
Kampf im kombinierten Waffenverband deklariert werden"): the cavalry's bonus melee with ordered
artillery that has not battled yet, under the rules of CCN-137..144 and AMB-14. The digest has
no worked example with numbers for CCN-145; the numbers here are the dice of TC-32's cavalry
(4) plus the French foot artillery's melee dice next to its target."""

from __future__ import annotations

from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.combat import bonus_options, dice_for, retreat_options
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.terrain import UnitClass
from tests.engines.commands_colors_napoleonics.ccn_play import act, fresh, only, put, rolls
from tests.engines.commands_colors_napoleonics.test_ccn_play_examples import battle_phase, refused


def at_bonus(
    keep: tuple[str, ...] = (),
    orders: tuple[str, ...] = ("F-FA1",),
    where: tuple[int, int] = (5, 8),
) -> GameState:
    """TC-32's cavalry after its breakthrough into (6,6): P-LN1 (1 block) at (7,6) is next to
    it, the French foot artillery F-FA1 at (6,7) is next to P-LN1 and to no other enemy."""
    state = only(fresh(), ["F-LC1", "B-LN1", "P-LN1", "F-FA1", *keep])
    put(state, "F-LC1", 5, 6)
    put(state, "B-LN1", 6, 6, blocks=1)
    put(state, "P-LN1", 7, 6, blocks=1)
    put(state, "F-FA1", 6, 7)
    for pid in keep:
        put(state, pid, *where)
    battle_phase(state, ["F-LC1", *orders], "PROBE_CENTER")
    state = act(
        state,
        "top",
        "battle",
        {"unit": "F-LC1", "target": "B-LN1", "combat": "melee"},
        ["INF", "CAV", "CAV", "CAV"],
    )
    state = act(state, "top", "take_ground", {"advance": True, "extra": None})
    assert state.units["F-LC1"].hex == Hex(6, 6)
    assert state.pending is not None
    assert state.pending["kind"] == "bonus_melee"
    return state


def art_dice(state: GameState) -> int:
    a, t = state.units["F-FA1"], state.units["P-LN1"]
    return dice_for(state, a, t.hex, UnitClass.INF, True).total


def test_ccn145_bonus_melee_as_combined_arms_rolls_together() -> None:
    state = at_bonus()
    assert {"target": "P-LN1", "artillery": ["F-FA1"]} in bonus_options(state)
    assert {"target": "P-LN1"} in bonus_options(state)
    n = art_dice(state)
    assert n == 4  # the same melee dice as in the combined-arms test of the first melee
    bonus = {"target": "P-LN1", "artillery": ["F-FA1"]}
    state = act(state, "top", "bonus_melee", bonus, ["FLAG"] * 7 + ["INF"])
    assert [len(r["faces"]) for r in rolls(state)] == [4 + 4]  # one roll (CCN-139)
    assert "P-LN1" not in state.units
    assert {"F-LC1", "F-FA1"} <= set(state.turn.battled)  # CCN-143
    assert state.pending is not None
    assert state.pending["kind"] == "take_ground"  # CCN-106: in, but no extra hex


def test_ccn145_artillery_that_battled_or_has_no_order_may_not_join() -> None:
    state = at_bonus()
    state.turn.battled.append("F-FA1")
    bonus = {"target": "P-LN1", "artillery": ["F-FA1"]}
    assert refused(state, "top", "bonus_melee", bonus) == "CCN-44"
    assert {"target": "P-LN1", "artillery": ["F-FA1"]} not in bonus_options(state)
    state = at_bonus(orders=())
    assert refused(state, "top", "bonus_melee", bonus) == "CCN-137"
    assert refused(state, "top", "bonus_melee", {"target": None, "artillery": ["F-FA1"]}) == (
        "CCN-145"
    )


def test_ccn145_artillery_next_to_another_enemy_may_not_join_amb14() -> None:
    state = at_bonus(keep=("B-LN2",), where=(5, 7))  # next to F-FA1 (6,7), not to the cavalry
    bonus = {"target": "P-LN1", "artillery": ["F-FA1"]}
    assert refused(state, "top", "bonus_melee", bonus) == "AMB-14"


def test_ccn145_no_artillery_on_a_lone_leader() -> None:
    state = at_bonus(keep=("P-L1",), where=(5, 5))  # a lone leader next to the cavalry (6,6)
    assert {"target": "P-L1"} in bonus_options(state)
    bonus = {"target": "P-L1", "artillery": ["F-FA1"]}
    assert refused(state, "top", "bonus_melee", bonus) == "CCN-137"


def test_ccn142_a_square_bouncing_the_bonus_melee_loses_the_artillery_dice() -> None:
    state = at_bonus()
    state.policies["bottom"] = {"melee_response": "ask"}
    state.units["P-LN1"].blocks = 4
    bonus = {"target": "P-LN1", "artillery": ["F-FA1"]}
    state = act(state, "top", "bonus_melee", bonus)
    assert state.pending is not None
    assert state.pending["kind"] == "melee_response"
    # the square fires first: [FLAG] bounces the cavalry (CCN-128); the artillery's dice are
    # lost (CCN-142) and it has battled (CCN-143, AMB-14)
    state = act(state, "bottom", "melee_response", {"response": "form_square"}, ["FLAG"])
    assert [r["purpose"] for r in rolls(state)] == ["square_fire"]
    assert state.pending is not None
    assert (state.pending["kind"], state.pending["lo"], state.pending["hi"]) == ("retreat", 1, 1)
    assert state.combat is not None
    path = retreat_options(state, state.combat)[0]
    state = act(state, "top", "retreat", path)
    assert rolls(state) == []  # neither the cavalry's die nor the artillery's
    assert state.units["F-LC1"].hex != Hex(6, 6)
    assert state.units["P-LN1"].blocks == 4
    assert "F-FA1" in state.turn.battled
    assert state.combat is None


def test_ccn145_text_notation() -> None:
    state = at_bonus()
    parsed = R.parse_text(state, "top", "bonus P-LN1 F-FA1")
    assert not hasattr(parsed, "rule")
    assert [a.payload for a in parsed] == [{"target": "P-LN1", "artillery": ["F-FA1"]}]
