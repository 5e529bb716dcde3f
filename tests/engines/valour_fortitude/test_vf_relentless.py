"""Relentless charges (Unnachgiebig, seed L1124-1126; digest VF-163, V-13, GAP-4): the winner
whose opponent fled or falls back charges the nearest visible enemy unit it can reach, at once
(GAP-4's default), and fights again; a second win makes no further charge; the inactive side's
relentless unit is refused with GAP-4."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.core.protocol import JSON
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import melee, relentless
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import GameState
from tests.engines.valour_fortitude.vf_builders import D
from tests.engines.valour_fortitude.vf_play import ctx, game


def _table(second: bool = True) -> GameState:
    """A's U-A9 (heavy cavalry, made relentless) touches B's light infantry U-B3; B's U-B5
    stands 8 in ahead of it (or far away)."""
    state = game()
    state = replace(state, turn=replace(state.turn, active_side="A", round=1))
    cav = state.unit("U-A9")
    rules = (*cav.stats.special_rules, "unnachgiebig")
    state = m.with_unit(state, replace(cav, stats=replace(cav.stats, special_rules=rules)))
    ax, ay = ms.anchor(state.unit("U-A9"))
    light = state.unit("U-B3")
    base = light.bases[0]
    put = replace(base, x=D(ax), y=D(ay) + base.depth / 2)
    state = m.with_unit(state, replace(light, bases=(put,)))
    if second:
        bx, by = ms.anchor(state.unit("U-B5"))
        state = m.with_unit(
            state, ms.moved(state.unit("U-B5"), D(ax - bx).quantize(D(1)), D(ay + 8 - by))
        )
    return state


def _fight(state: GameState, dice: list[int], **step: JSON) -> tuple[Ctx, list[dict[str, JSON]]]:
    c = ctx(state, [*dice, *[6] * 30], auto=True)
    fight: dict[str, JSON] = {
        "do": "fight",
        "attacker": "U-A9",
        "target": "U-B3",
        "supporters": [],
        "contacts": {"U-A9": ["U-B3"]},
        **step,
    }
    return c, melee.fight(c, fight)


def test_the_winner_charges_again_when_its_opponent_flees() -> None:
    """VF-163: U-B3 (infantry beaten by cavalry) flees (VF-106); U-A9 must charge U-B5, the
    nearest visible enemy unit, and fight it at once."""
    c, follow = _fight(_table(), [6] * 6 + [1] * 4)
    assert c.game.unit("U-B3").fled
    assert follow == [{"do": "relentless", "unit": "U-A9"}]
    c2 = ctx(c.game, [], auto=True)
    fights = relentless.charge(c2, follow[0])
    assert fights == [
        {
            "do": "fight",
            "attacker": "U-A9",
            "target": "U-B5",
            "supporters": [],
            "contacts": {"U-A9": ["U-B5"]},
            "relentless": True,
        }
    ]
    moved, before = c2.game.unit("U-A9"), c.game.unit("U-A9")
    assert moved.bases[0].y - before.bases[0].y == D(8)
    assert ms.contact(c2.game, moved, c2.game.unit("U-B5")).value is True
    assert any("relentlessly" in e.text for e in c2.log)


def test_a_second_win_makes_no_further_charge() -> None:
    """VF-163: "Sollte die Einheit auch diesen Nahkampf gewinnen, findet kein weiterer Angriff
    in dieser Runde mehr statt"."""
    _, follow = _fight(_table(), [6] * 6 + [1] * 4, relentless=True)
    assert follow == []


def test_no_relentless_charge_after_a_loss_or_without_the_rule() -> None:
    c, follow = _fight(_table(), [1] * 10 + [6] * 4)  # U-A9 loses (rerolls its 1s)
    assert any(e.text == "U-B3 wins the fight (VF-73)" for e in c.log)
    assert {"do": "relentless", "unit": "U-A9"} not in follow
    state = _table()
    cav = state.unit("U-A9")
    plain = replace(cav.stats, special_rules=("schwere_kavallerie",))
    _, follow = _fight(m.with_unit(state, replace(cav, stats=plain)), [6] * 6 + [1] * 4)
    assert follow == []


def test_no_visible_enemy_in_reach_means_no_charge() -> None:
    """VF-163: only "if there are further visible units it can contact"."""
    c, follow = _fight(_table(second=False), [6] * 6 + [1] * 4)
    c2 = ctx(c.game, [], auto=True)
    assert relentless.charge(c2, follow[0]) == []
    assert c2.game.unit("U-A9") == c.game.unit("U-A9")


def test_the_umpire_may_refuse_the_proposed_charge() -> None:
    """V-13: the facts are the umpire's; no contact confirmed, no charge."""
    c, follow = _fight(_table(), [6] * 6 + [1] * 4)
    c2 = ctx(c.game, [], {"contact": False}, auto=True)
    assert relentless.charge(c2, follow[0]) == []


def test_the_inactive_sides_relentless_unit_is_refused_with_gap_4() -> None:
    """GAP-4: no moment is given for a charge move in the enemy's turn."""
    c, follow = _fight(_table(), [6] * 6 + [1] * 4)
    state = replace(c.game, turn=replace(c.game.turn, active_side="B"))
    with pytest.raises(Skip) as caught:
        relentless.charge(ctx(state, [], auto=True), follow[0])
    assert caught.value.rule == "GAP-4"
