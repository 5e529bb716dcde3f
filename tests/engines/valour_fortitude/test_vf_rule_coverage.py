"""Rules of digest section 3 that no other test file named (issue 17): a focused test for each
one built, and a test that keeps the promise "every rule of section 3 has a test or a README
line saying why not"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from games.core.protocol import JSON, Action, GameConfig, SetupError
from games.core.rng import Rng
from games.valour_fortitude import command, melee, shooting, turn
from games.valour_fortitude import formations as fm
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.order_sheet import ACTIONS
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, LeaderKind, Point, Trait
from games.valour_fortitude.values import pipeline
from tests.engines.valour_fortitude.vf_builders import D, path, rect
from tests.engines.valour_fortitude.vf_play import (
    FIGHT_FACTS,
    ctx,
    game,
    play_to_end,
    set_unit,
    starter,
)

REPO = Path(__file__).parents[3]
DIGEST = REPO / ".." / "shared" / "rules" / "valour-and-fortitude.md"
README = REPO / "games" / "valour_fortitude" / "README.md"
TESTS = Path(__file__).parent
SNAPSHOT = TESTS / "section3_rule_ids.txt"  # the digest's section 3 ids, one a line
WHY_NOT = ("not built", "refused", "Not built", "not applicable")
ID = re.compile(r"VF-(\d+)(?!\d)")


def _lines(c: Ctx) -> list[str]:
    return [e.text for e in c.log]


# --- the promise of issue 17 ---


def _digest_section_3_ids(text: str) -> list[int]:
    section = text[text.index("\n## 3. Rules") : text.index("\n## 4. ")]
    return sorted({int(n) for n in re.findall(r"^\*\*VF-(\d+)\b", section, re.M)})


def _section_3_ids() -> list[int]:
    """Section 3's ids: from the digest beside the repo (../shared) when it is there, and then
    the repo's copy of the list must equal it; a clone without ../shared (CI) uses the copy."""
    kept = [int(w.removeprefix("VF-")) for w in SNAPSHOT.read_text(encoding="utf-8").split()]
    if DIGEST.is_file():
        ids = _digest_section_3_ids(DIGEST.read_text(encoding="utf-8"))
        assert ids == kept, f"the digest's section 3 changed: update {SNAPSHOT.name}"
    return kept


def test_every_rule_of_section_3_has_a_test_or_a_why_not() -> None:
    """Issue 17: each `**VF-n**` of digest section 3 is named in a test file here, or in a
    README line that says it is not built, refused or not applicable."""
    ids = _section_3_ids()
    assert len(ids) > 150  # the section was found and read
    tested = {int(n) for f in TESTS.glob("*.py") for n in ID.findall(f.read_text("utf-8"))}
    why_not = {
        int(n)
        for line in README.read_text("utf-8").splitlines()
        if any(w in line for w in WHY_NOT)
        for n in ID.findall(line)
    }
    missing = [f"VF-{i}" for i in ids if i not in tested | why_not]
    assert not missing, f"no test and no README why-not for {missing}"


# --- 3.1-3.4 ---


def test_vf_2_halve_once_first_then_add_never_below_one() -> None:
    """VF-2: halving before the additions (3 halved is 1, + 2 = 3, not (3 + 2) // 2 = 2); a
    value is halved once however many halvings apply (5 -> 2, not 0 -> 1); never below 1."""
    assert pipeline(3, 1, [1, 1]) == 3
    assert pipeline(5, 3, []) == 2
    assert pipeline(2, 1, [-1]) == 1
    assert pipeline(1, 1, [-2]) == 1


def test_vf_10_two_ranks_of_nine_files_is_a_line() -> None:
    """VF-10 (seed L89): "a unit with 2 ranks and 9 files" is a line of 18 figures."""
    assert fm.classify(9, 2) is Formation.LINE
    assert fm.classify(9, 3) is not Formation.LINE


def test_vf_20_setup_fixes_scenario_turn_limit_cincs_and_decks() -> None:
    """VF-20: the scenario, the turn limit, one CinC per side, then the two fate decks."""
    match = starter(turn_limit=5)
    g = match.game
    assert g.scenario == "starter"
    assert g.turn.turn_limit == 5
    for side in ("A", "B"):
        cincs = [ld for ld in g.leaders if ld.side == side and ld.kind is LeaderKind.CINC]
        assert len(cincs) == 1
        assert len(m.side_state(g, side).fate.deck) == 13


# --- 3.5 turn sequence, 3.6 fate phase ---


def _first(match: m.Match) -> m.Match:
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    decider = str(init["decider"])
    match = RULESET.apply(match, Action(decider, "choose_first_side", {"side": "A"}), Rng(1)).state
    return RULESET.apply(match, Action("B", "play_fate", {"plays": []}), Rng(1)).state


def test_vf_30_vf_31_phases_in_order_then_the_other_side() -> None:
    """VF-31: fate, shooting, command, melee in this order; VF-30: then the other side is the
    active side, and the sides alternate (A, B, A)."""
    match = _first(starter(auto_geometry=True, turn_limit=3))
    assert match.game.turn.active_side == "A"
    sheet: dict[str, JSON] = {
        "shooting": [{"target": "U-B4", "firer": "U-A4"}],
        "brigade_order": ["BR-A1"],
        "units": {"U-A1": {"action": "MOVE", "path": [[20, 19]]}},
    }
    sent = RULESET.apply(match, Action("A", "turn_orders", sheet), Rng(3))
    passed = RULESET.apply(sent.state, Action("B", "play_fate", {"plays": []}), Rng(3))
    texts = [e.text for e in (*sent.log, *passed.log)]
    order = ["U-A4 fires", "The command phase begins", "The melee phase begins"]
    order += ["Round 1: side B's turn begins", "Side B draws a fate card"]
    found = [next(i for i, t in enumerate(texts) if t.startswith(o)) for o in order]
    assert found == sorted(found), texts
    after = passed.state
    assert after.game.turn.active_side == "B"
    assert (after.game.turn.turns_taken_a, after.game.turn.turns_taken_b) == (1, 0)
    sides = [str(after.game.turn.active_side)]
    while len(sides) < 3:  # empty sheets; every fate window passes
        prompts = RULESET.prompts(after)
        role = sorted(prompts)[0]
        orders = "turn_orders" in prompts[role].kinds
        kind = "turn_orders" if orders else "play_fate"
        payload: JSON = {} if orders else {"plays": []}
        after = RULESET.apply(after, Action(role, kind, payload), Rng(3)).state
        if after.game.turn.active_side != sides[-1]:
            sides.append(str(after.game.turn.active_side))
    assert sides == ["B", "A", "B"]


def test_vf_35_the_top_card_is_drawn() -> None:
    """VF-35: the active CinC draws the top card of his deck into his hand."""
    state = game()
    before = m.side_state(state, "A").fate
    assert before.deck[0] != "2"  # card 2 is played on the draw (seed L774)
    c = ctx(state)
    turn.draw(c, "A")
    after = m.side_state(c.game, "A").fate
    assert after.hand == (*before.hand, before.deck[0])
    assert after.deck == before.deck[1:]
    assert m.side_state(c.game, "B").fate == m.side_state(state, "B").fate


def test_vf_38_an_empty_deck_draws_nothing() -> None:
    """VF-38, GAP-1's default: an empty deck draws nothing and is not reshuffled."""
    state = game()
    side = m.side_state(state, "A")
    empty = replace(side.fate, deck=(), hand=("5",), discard=("7", "8"))
    state = m.with_side(state, replace(side, fate=empty))
    c = ctx(state)
    turn.draw(c, "A")
    assert m.side_state(c.game, "A").fate == empty
    assert any("no card is drawn (GAP-1)" in t for t in _lines(c))


# --- 3.7 shooting ---


def _shot_facts(*units: str, sees: bool = True) -> dict[str, JSON]:
    facts: dict[str, JSON] = {"cover": "none"}
    for u in units:
        facts |= {f"range:{u}": True, f"nearest:{u}": True, f"half_sees:{u}": True}
    facts["half_sees:U-A1"] = sees
    return facts


def _shoot(state: GameState, dice: Sequence[int], helpers: list[str], sees: bool = True) -> Ctx:
    c = ctx(state, dice, _shot_facts("U-A1", *helpers, sees=sees))
    shooting.shoot(c, {"firer": "U-A1", "target": "U-B1", "supporters": list[JSON](helpers)})
    return c


@pytest.mark.parametrize(("die", "flees"), [(3, False), (2, True)])
def test_vf_45_vf_80_fire_then_casualties_then_a_morale_test(die: int, flees: bool) -> None:
    """VF-80: line infantry of ranged 3 makes 3 hit tests; VF-45: the hits are applied as
    casualties (VF-95), then the morale test (VF-104): U-B1 (morale 4) had 3 and takes 2, one
    beyond its morale: one die +1 in the shooting phase; 3 passes, 2 flees."""
    state = set_unit(game(), "U-B1", casualties=3)
    c = _shoot(state, [5, 5, 2, die], [])
    assert "U-A1 fires (full) at U-B1: 3 dice +0: 5 5 2, 2 hits" in _lines(c)
    target = c.game.unit("U-B1")
    assert target.casualties == 4  # 3 + 2, the one beyond its morale not recorded (VF-102)
    assert target.fled is flees
    assert c.game.unit("U-A1").turn_flags.fired


def test_vf_82_modifiers_never_apply_to_supporters() -> None:
    """VF-82: the halving of attack column applies to the attacking unit only: a supporter in
    attack column still adds 1 die; the firer in attack column is halved (3 // 2 + 1 = 2)."""
    state = set_unit(game(), "U-A2", formation=Formation.ATTACK_COLUMN)
    c = _shoot(state, [6] * 4, ["U-A2"])
    assert "U-A1 fires (full) at U-B1: 4 dice +0: 6 6 6 6, 4 hits" in _lines(c)
    column = set_unit(game(), "U-A1", formation=Formation.ATTACK_COLUMN)
    c = _shoot(column, [6] * 2, ["U-A2"])
    assert "U-A1 fires (full) at U-B1: 2 dice +0: 6 6, 2 hits" in _lines(c)


def test_vf_87_an_obscured_target_halves_the_ranged_value() -> None:
    """VF-87: less than half of the firer's front rank sees the target: 3 halved to 1, the
    supporter's +1 after (VF-2): 2 dice."""
    c = _shoot(game(), [6] * 2, ["U-A2"], sees=False)
    assert "U-A1 fires (full) at U-B1: 2 dice +0: 6 6, 2 hits" in _lines(c)


@pytest.mark.parametrize(
    ("cover", "shaken", "modifier"),
    [("none", False, "+0"), ("soft", False, "-1"), ("hard", False, "-2"), ("hard", True, "-3")],
)
def test_vf_101_vf_188_shaken_firer_and_cover(cover: str, shaken: bool, modifier: str) -> None:
    """VF-188: hit rolls -1 at soft cover, -2 at hard cover; VF-101: -1 more when the firer is
    shaken (U-A1, morale 4, 4 casualties)."""
    state = set_unit(game(), "U-A1", casualties=4 if shaken else 0)
    c = ctx(state, [6, 6, 6], {**_shot_facts("U-A1"), "cover": cover})
    shooting.shoot(c, {"firer": "U-A1", "target": "U-B1", "supporters": []})
    assert f"U-A1 fires (full) at U-B1: 3 dice {modifier}: 6 6 6, 3 hits" in _lines(c)


# --- 3.8 command ---


def test_vf_54_the_action_menu() -> None:
    """VF-54: stand, Move, Withdraw, Charge, March or Rally (and VF-195's Occupy); anything
    else is not an action."""
    assert {"STAND", "MOVE", "WITHDRAW", "CHARGE", "MARCH", "RALLY"} <= set(ACTIONS)
    for action in ("STAND", "RALLY"):
        sheet: JSON = {"units": {"U-A1": {"action": action}}}
        assert not RULESET.payload_errors("turn_orders", sheet)
    sheet = {"units": {"U-A1": {"action": "DANCE"}}}
    assert [r.rule for r in RULESET.payload_errors("turn_orders", sheet)] == ["schema"]


def test_vf_66_officers_move_36_in_and_keep_6_in_from_enemies() -> None:
    """VF-66: a BG (L-A1 at 32, 9) may move 36 in: 35.5 in is legal, 36.5 in is not; its model
    must keep 6 in from enemy units: 6.5 in is legal, 5.5 in is not; the move is skipped with
    VF-66 when the umpire rules it illegal."""
    state = game()
    bg = state.leader("L-A1")
    x, y = bg.x, bg.y
    assert ms.leader_path(state, bg, [Point(x + D("35.5"), y)]).value is True
    assert ms.leader_path(state, bg, [Point(x + D("36.5"), y)]).value is False
    base = state.unit("U-B1").bases[0]  # faces south: its front edge is depth / 2 below y
    edge = base.y - base.depth / 2 - bg.radius_in
    assert ms.leader_path(state, bg, [Point(base.x, edge - D("6.5"))]).value is True
    assert ms.leader_path(state, bg, [Point(base.x, edge - D("5.5"))]).value is False
    c = ctx(state, [], {"legal": False})
    with pytest.raises(Skip) as refused:
        command.leader_move(c, "L-A1", [[str(x), str(y + D(10))]])
    assert refused.value.rule == "VF-66"
    c = ctx(state, [], {"legal": True})
    command.leader_move(c, "L-A1", [[str(x), str(y + D(10))]])
    assert c.game.leader("L-A1").y == y + D(10)


def test_vf_190_impassable_terrain() -> None:
    """VF-190: a path over impassable terrain has no cost, and the move is skipped."""
    state = game()
    unit = state.unit("U-A1")
    anchor = unit.bases[0]
    ax, ay = float(anchor.x), float(anchor.y)
    wall = rect("X", "river", [Trait.IMPASSABLE], ax - 5, ay + 2, ax + 5, ay + 3)
    world = replace(state, terrain=(wall,))
    ahead = path((ax, ay + 6))
    assert ms.path_cost(world, unit, ahead, False).value is None
    with pytest.raises(Skip) as refused:
        command._check_move(unit, "MOVE", {"cost": None}, None)
    assert refused.value.rule == "VF-190"


# --- 3.9 melee ---


FIGHT = FIGHT_FACTS


def test_vf_70_vf_71_every_unit_in_contact_is_assigned_once() -> None:
    """VF-71: the plan names one target per attacker and supporters against it; VF-70: a plan
    that leaves a unit in contact unassigned is skipped and the fights are planned from the
    contacts."""
    touching = {"U-A1": ["U-B1"], "U-A2": ["U-B1"]}
    fight: dict[str, JSON] = {"attacker": "U-A1", "target": "U-B1", "supporters": ["U-A2"]}
    c = ctx(game())
    plan = melee._explicit(c, [fight], touching)
    assert plan == [{**fight, "brigade_supporter": None}]
    alone: dict[str, JSON] = {"attacker": "U-A1", "target": "U-B1", "supporters": []}
    c = ctx(game())
    assert melee._explicit(c, [alone], touching) is None
    assert any("(VF-71: the plan must assign every unit" in t for t in _lines(c))


def test_vf_74_casualties_then_morale_tests_for_the_loser_only() -> None:
    """VF-74: attack and strike back are rolled first, then casualties are applied: the loser
    U-B2 (morale 4, 5 hits) takes one morale die (a 1: it flees, VF-104); the winner U-A2 (2
    hits) takes none (VF-105)."""
    state = set_unit(game(), "U-A2", casualties=3)
    c = ctx(state, [6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 1], FIGHT)
    step: dict[str, JSON] = {
        "do": "fight",
        "attacker": "U-A2",
        "target": "U-B2",
        "supporters": [],
        "contacts": {"U-A2": ["U-B2"]},
    }
    melee.fight(c, step)
    loser, winner = c.game.unit("U-B2"), c.game.unit("U-A2")
    assert loser.fled
    lines = _lines(c)
    order = ["Melee: U-A2 attacks", "U-B2 strikes back", "U-A2 wins", "U-B2 suffers 5 casualties"]
    order += ["Morale test of U-B2 (VF-104): dice 1", "U-A2 suffers 2 casualties"]
    order += ["U-A2 won the melee: no morale test (VF-105)"]
    found = [next(i for i, t in enumerate(lines) if t.startswith(o)) for o in order]
    assert found == sorted(found), lines
    assert winner.casualties == 4  # 3 + 2 would be 5, beyond morale 4: not recorded (VF-102)
    assert not winner.fled


def test_vf_101_a_shaken_attacker_hits_at_minus_one() -> None:
    """VF-101: all hit tests of a shaken unit's attacks are -1 (U-A1, morale 4, 4 casualties),
    supported or not."""
    state = game()
    a, s = state.unit("U-A1"), state.unit("U-A2")
    assert melee._modifier(replace(a, casualties=4), []) == -1
    assert melee._modifier(replace(a, casualties=4), [s]) == -1


def test_vf_182_the_higher_unit_wins_a_tie_against_a_unit_not_in_cover() -> None:
    """VF-182 (and VF-73): a tie goes to the unit higher on the hill when its opponent is not in
    cover, even against the active side; an opponent in cover takes the claim away."""
    flat: dict[str, JSON] = {"cover:a": "none", "cover:t": "none", "hill:a": False, "hill:t": False}
    assert melee.winner_is_attacker(2, 2, flat)
    assert not melee.winner_is_attacker(2, 2, {**flat, "hill:t": True})
    assert melee.winner_is_attacker(2, 2, {**flat, "hill:t": True, "cover:a": "soft"})


def test_vf_153_vf_154_rerolls_of_heavy_cavalry_and_elan() -> None:
    """VF-153: heavy cavalry rerolls melee 1s when every supporter has the rule too; VF-154:
    Elan rerolls them in attack column, every supporter in attack column with Elan."""
    state = game()
    dragoons, hussars = state.unit("U-A9"), state.unit("U-A8")  # heavy, light cavalry
    assert melee._rerolls(dragoons, [])
    assert melee._rerolls(dragoons, [state.unit("U-B9")])
    assert not melee._rerolls(dragoons, [hussars])
    held = replace(state.unit("U-B1"), occupying="village")  # a target in a defensible feature
    assert melee._rerolls(dragoons, [], state.unit("U-B1"))
    assert not melee._rerolls(dragoons, [], held)  # seed L939
    line_inf = state.unit("U-A1")  # Elan, in line
    column = replace(line_inf, formation=Formation.ATTACK_COLUMN)
    assert not melee._rerolls(line_inf, [])
    assert melee._rerolls(column, [])
    assert melee._rerolls(column, [replace(state.unit("U-A2"), formation=Formation.ATTACK_COLUMN)])
    assert not melee._rerolls(column, [state.unit("U-A2")])  # a supporter in line
    assert not melee._rerolls(
        column, [replace(state.unit("U-A7"), formation=Formation.ATTACK_COLUMN)]
    )


# --- 3.12 winning ---


def _score(state: GameState, holders: Sequence[str], setbacks: dict[str, int]) -> JSON:
    objectives = tuple(
        replace(o, controller=h) for o, h in zip(state.objectives, holders, strict=True)
    )
    state = replace(state, objectives=objectives)
    for side, n in setbacks.items():
        state = m.with_side(state, replace(m.side_state(state, side), setbacks=n))
    c = ctx(state)
    turn.finish(c)
    return c.flow["result"]


def test_vf_116_the_score_example() -> None:
    """VF-116: A holds 2 objectives and B's army has 3 setbacks: A 5; B holds 2 and A's army 1
    setback: B 3. A wins."""
    result = _score(game(), ("A", "A", "B", "B"), {"A": 1, "B": 3})
    assert isinstance(result, dict)
    assert result["scores"] == {"A": 5, "B": 3}
    assert result["winners"] == ["A"]


def test_vf_252_the_game_ends_after_the_agreed_length() -> None:
    """VF-252: after the turn limit (2 turns per side) the game is decided by VF-115."""
    match, _ = play_to_end(starter(auto_geometry=True, turn_limit=2), chooser=3)
    g = match.game
    assert (g.turn.turns_taken_a, g.turn.turns_taken_b) == (2, 2)
    result = match.flow["result"]
    assert isinstance(result, dict)
    expected = {
        s: sum(1 for o in g.objectives if o.controller == s) + m.side_state(g, m.other(s)).setbacks
        for s in ("A", "B")
    }
    assert result["scores"] == expected


# --- 3.19 starter scenario variants ---


@pytest.mark.parametrize("variant", ["begegnungsgefecht", "sturmangriff"])
def test_vf_253_vf_254_vf_255_the_variants_are_refused(variant: str) -> None:
    """VF-253: the two variants (VF-254 meeting engagement, VF-255 assault) are not built and
    refused with VF-253; `standard` is the starter scenario itself."""
    with pytest.raises(SetupError) as refused:
        RULESET.setup(GameConfig("starter", {"variant": variant}), Rng(1))
    assert refused.value.rejection.rule == "VF-253"
    assert RULESET.setup(GameConfig("starter", {"variant": "standard"}), Rng(1))
