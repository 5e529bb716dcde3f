"""Digest 4.6, `visibility: umpire_filtered`: a side sees its own units and the enemy units one
of its units has a line of sight to (VF-43, VF-44); the umpire sees everything; the view in
words is built from that view. The property: with the option, nothing in a side's view or
report changes when only an enemy unit it cannot see changes."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.core.protocol import OBSERVER, OMNISCIENT, Action, random_legal_action
from games.core.rng import Rng
from games.core.umpire import UMPIRE
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.sight_lines import line_of_sight
from games.valour_fortitude.state import Formation, Trait
from games.valour_fortitude.table_svg import render
from games.valour_fortitude.view import visible_units
from tests.engines.valour_fortitude.vf_builders import line, rect
from tests.engines.valour_fortitude.vf_play import starter

FOGGY = starter(visibility="umpire_filtered")


def _with(match: m.Match, unit_id: str, dx: float, dy: float, **changes: object) -> m.Match:
    unit = ms.moved(match.game.unit(unit_id), Decimal(str(dx)), Decimal(str(dy)))
    unit = replace(unit, **changes)  # type: ignore[arg-type]
    return m.Match(m.with_unit(match.game, unit), dict(match.flow))


def view(match: m.Match, role: str) -> dict[str, Any]:
    found = RULESET.view(match, role)
    assert isinstance(found, dict)
    return found


def _ids(seen: dict[str, Any]) -> set[str]:
    return {str(u["id"]) for u in seen["game"]["units"]}


def test_the_option_is_accepted_and_the_open_table_stays_the_default() -> None:
    assert view(starter(), "A")["visibility"] == "open"
    assert "hidden_units" not in view(starter(), "A")
    foggy = view(FOGGY, "A")
    assert foggy["visibility"] == "umpire_filtered"
    assert foggy["hidden_units"] == []  # in the starter set-up every enemy unit is in sight
    assert len(_ids(foggy)) == 18


def test_an_enemy_behind_the_lines_is_hidden_from_the_side_only() -> None:
    """U-B1 moved to the south edge, behind A's line (A faces north): outside every front arc
    of A's units (VF-43), so A does not see it; B and the umpire do."""
    match = _with(FOGGY, "U-B1", 0, -41.5)
    a, b, umpire = (view(match, r) for r in ("A", "B", OMNISCIENT))
    assert "U-B1" not in _ids(a)
    assert a["hidden_units"] == ["U-B1"]
    assert "U-B1" in _ids(b)
    assert _ids(umpire) == {u.id for u in match.game.units}
    assert "hidden_units" not in umpire
    report = RULESET.report_text(match, "A")
    assert "U-B1 " not in report
    assert "Out of your sight (4.6): 1 enemy units" in report
    assert "U-B1 (side B" in RULESET.report_text(match, OMNISCIENT)
    assert "U-B1" not in render(a)  # the board drawn from the view alone
    assert "U-B1" in render(umpire)


def test_a_wood_hides_a_unit_behind_it() -> None:
    """A wood (BLOCKS_LOS, T.2.5) between the only viewer and the enemy unit: no sight line
    (VF-44), so the enemy is hidden; without the wood it is seen."""
    viewer = line("U-A1", "A", 0, 0, 0, across=1)
    enemy = line("U-B1", "B", 0, 12, 180, across=1)
    wood = rect("W1", "wood", [Trait.BLOCKS_LOS, Trait.ROUGH], -6, 4, 6, 8)
    game = replace(FOGGY.game, units=(viewer, enemy), terrain=(wood,))
    assert visible_units(game, "A") == {"U-A1"}
    assert visible_units(replace(game, terrain=()), "A") == {"U-A1", "U-B1"}


def test_only_own_units_block_the_sight_lines_of_the_view() -> None:
    """The reading of view.py: an enemy unit never hides another enemy unit (so what a side
    cannot see never shapes what it sees); the side's own units do block (VF-44)."""
    base = FOGGY.game
    viewer = line("U-A1", "A", 0, 0, 0, across=1)
    front = line("U-B1", "B", 0, 10, 180, across=4)
    behind = line("U-B2", "B", 0, 14, 180, across=1)
    game = replace(base, units=(viewer, front, behind), terrain=())
    assert not line_of_sight(viewer, behind, game.units, ()).value  # VF-44 for play
    assert visible_units(game, "A") == {"U-A1", "U-B1", "U-B2"}
    screen = line("U-A2", "A", 0, 5, 180, across=4)  # facing away: it blocks, it does not see
    game = replace(base, units=(viewer, screen, behind), terrain=())
    assert "U-B2" not in visible_units(game, "A")
    assert "U-B2" in visible_units(game, "B")


def test_an_observer_sees_no_unit_and_sides_never_see_the_umpire_queue() -> None:
    assert _ids(view(FOGGY, OBSERVER)) == set()
    match = RULESET.apply(FOGGY, Action("B", "choose_first_side", {"side": "A"}), Rng(3)).state
    for i in range(30):  # to the first facts put to the umpire
        if match.pending:
            break
        role = sorted(RULESET.prompts(match))[0]
        action = RULESET.random_action(match, role, Rng(i))
        assert action is not None
        match = RULESET.apply(match, action, Rng.for_event(b"vf-fog", i)).state
    assert match.pending
    side = view(match, "A")
    assert side["pending"] is None
    assert side["queue"] is None
    assert view(match, OMNISCIENT)["pending"] == match.pending
    assert view(starter(), "A")["stage"] == "initiative"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_hidden_enemy_changing_changes_nothing_the_side_sees(data: st.DataObject) -> None:
    """Random set-ups (units moved about the table); one enemy unit the side cannot see before
    and after is moved, damaged or re-formed: the side's view and report are the same, the
    umpire's are not."""
    game = FOGGY.game
    units = []
    for u in game.units:
        dx = data.draw(st.integers(-15, 15))
        dy = data.draw(st.integers(-44, 8) if u.side == "B" else st.integers(-8, 30))
        units.append(ms.moved(u, Decimal(dx), Decimal(dy)))
    before = m.Match(replace(game, units=tuple(units)), dict(FOGGY.flow))
    side = data.draw(st.sampled_from(["A", "B"]))
    hidden = sorted(u.id for u in units if u.id not in visible_units(before.game, side))
    assume(hidden)
    who = data.draw(st.sampled_from(hidden))
    after = _with(
        before,
        who,
        data.draw(st.integers(-10, 10)),
        data.draw(st.integers(-10, 10)),
        casualties=data.draw(st.integers(0, 3)),
        formation=data.draw(st.sampled_from([Formation.LINE, Formation.ATTACK_COLUMN])),
    )
    assume(who not in visible_units(after.game, side))
    assume(after.game.unit(who) != before.game.unit(who))
    assert view(after, side) == view(before, side)
    assert RULESET.report_text(after, side) == RULESET.report_text(before, side)
    assert render(view(after, side)) == render(view(before, side))
    assert view(after, OMNISCIENT) != view(before, OMNISCIENT)
    opened = [m.Match(x.game, {**x.flow, "visibility": "open"}) for x in (before, after)]
    assert view(opened[0], side) != view(opened[1], side)  # the open table


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_with_the_option_no_log_line_is_public(seed: int) -> None:
    """A line may name units the other side cannot see: with `umpire_filtered` every line of a
    step is for the side whose turn it is, the role that acted, or a narrower audience (the
    umpire reads every line); without the option the table is open and lines are public."""
    rng = Rng(seed)
    for options, filtered in (({"visibility": "umpire_filtered"}, True), ({}, False)):
        match = starter(**options)
        public = 0
        for _ in range(40):
            prompted = sorted(RULESET.prompts(match))
            if not prompted:
                break
            role = prompted[rng.below(len(prompted))]
            action = random_legal_action(RULESET, match, role, rng)
            assert action is not None
            active = match.game.turn.active_side
            step = RULESET.apply(match, action, rng)
            after = step.state.game.turn.active_side
            for entry in step.log:
                if entry.audience is None:
                    public += 1
                    assert not filtered, entry.text
                elif filtered:  # the umpire and the omniscient reader read every line anyway
                    sides = entry.audience - {UMPIRE, OMNISCIENT}
                    assert sides <= {active, after, role}, (entry.text, entry.audience)
            match = step.state
        assert filtered or public > 0
