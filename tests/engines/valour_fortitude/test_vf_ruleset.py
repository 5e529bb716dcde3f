"""The Valour & Fortitude Ruleset: set-up (VF-247..VF-251), the turn state machine's order (digest
4.4), the umpire's prompt and a correction that changes the outcome (V-06, V-14),
`auto_geometry`, deadlines, refusals naming their rule, determinism, and non-interference (a
side's view and prompts do not depend on the other hand or the decks' order)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.canonical import state_hash
from games.core.protocol import (
    DEADLINE_KIND,
    JSON,
    OBSERVER,
    SYSTEM,
    Action,
    GameConfig,
    SetupError,
)
from games.core.rng import Rng
from games.core.umpire import CORRECTION_KIND, UMPIRE, Umpired
from games.valour_fortitude import match as m
from games.valour_fortitude import state_json
from games.valour_fortitude.checks import perturb, violations
from games.valour_fortitude.fate import window as fate_window
from games.valour_fortitude.rules import RULESET
from tests.engines.valour_fortitude.vf_play import play_to_end, starter


def _first(match: m.Match, side: str = "A") -> m.Match:
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    decider = str(init["decider"])
    match = RULESET.apply(match, Action(decider, "choose_first_side", {"side": side}), Rng(1)).state
    other = "B" if side == "A" else "A"  # V-01: the other side's window opens; it passes
    return RULESET.apply(match, Action(other, "play_fate", {"plays": []}), Rng(1)).state


def _act(match: m.Match, role: str, kind: str, payload: object, seed: int = 3) -> m.Match:
    action = Action(role, kind, payload)  # type: ignore[arg-type]
    assert not RULESET.validate(match, action), RULESET.validate(match, action)
    return RULESET.apply(match, action, Rng(seed)).state


def _texts(match: m.Match, action: Action, seed: int = 3) -> list[str]:
    return [e.text for e in RULESET.apply(match, action, Rng(seed)).log]


def test_setup_takes_the_scenario_data_and_rolls_for_initiative() -> None:
    """VF-247 (the example's attacker), VF-251 (the attacker's die decides who chooses), VF-25
    (two shuffled decks of 13), GAP-13 (8 turns)."""
    match = starter()
    assert match.stage == m.INITIATIVE
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    assert init["attacker"] == "A"
    assert init["decider"] == ("A" if int(str(init["roll"])) >= 4 else "B")
    assert list(RULESET.prompts(match)) == [init["decider"]]
    assert all(
        sorted(s.fate.deck)
        == sorted(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
        for s in match.game.sides
    )
    assert match.game.turn.turn_limit == 8
    assert [r.id for r in RULESET.roles("starter", {})] == ["A", "B"]
    assert not violations(match)


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"visibility": "hidden_movement"}, "4.6"),
        ({"tie_break_order": "cover_hill"}, "AMB-17"),
        ({"scale_profile": "15mm"}, "AMB-1"),
        ({"turn_limit": 0}, "VF-24"),
        ({"colour": "red"}, "VF-21"),
        ({"auto_geometry": "yes"}, "4.1"),
    ],
)
def test_options_not_built_are_refused_by_rule(options: dict[str, object], rule: str) -> None:
    with pytest.raises(SetupError) as refused:
        RULESET.setup(GameConfig("starter", options), Rng(1))  # type: ignore[arg-type]
    assert refused.value.rejection.rule == rule


def test_the_turn_runs_in_the_order_of_the_state_machine() -> None:
    """Digest 4.4: fate draw, shooting, resolve tests, command, CinC move, melee, end of turn,
    the other side's turn with its own draw."""
    match = _first(starter(auto_geometry=True))
    assert match.stage == m.ORDERS
    assert match.game.turn.active_side == "A"
    fate = m.side_state(match.game, "A").fate
    assert len(fate.hand) + len(fate.deck) == 13
    assert len(fate.deck) in (12, 13)
    sheet: dict[str, JSON] = {
        "shooting": [{"target": "U-B4", "firer": "U-A4"}],
        "brigade_order": ["BR-A1"],
        "units": {"U-A1": {"action": "MOVE", "path": [[20, 19]]}},
        "melee_plan": "auto",
    }
    sent = RULESET.apply(match, Action("A", "turn_orders", sheet), Rng(3))
    assert fate_window(sent.state.flow) == {"side": "B", "hook": "ENEMY_MELEE_PHASE"}  # V-01
    passed = RULESET.apply(sent.state, Action("B", "play_fate", {"plays": []}), Rng(3))
    texts = [e.text for e in (*sent.log, *passed.log)]
    order = [
        "Side A has sent its order sheet",
        "U-A4 fires",
        "The command phase begins",
        "Brigade BR-A1 activates automatically",
        "U-A1 makes a MOVE",
        "The melee phase begins",
        "No units are in contact",
        "Round 1: side B's turn begins",
        "Side B draws a fate card",
    ]
    found = [next(i for i, t in enumerate(texts) if t.startswith(o)) for o in order]
    assert found == sorted(found), texts
    after = passed.state
    assert after.stage == m.ORDERS
    assert after.game.turn.active_side == "B"
    assert after.game.turn.turns_taken_a == 1
    moved = after.game.unit("U-A1").bases[0].y - match.game.unit("U-A1").bases[0].y
    assert moved == 5


def _move_sheet() -> dict[str, JSON]:
    return {"brigade_order": ["BR-A1"], "units": {"U-A1": {"action": "MOVE", "path": [[20, 19]]}}}


def test_the_umpire_is_prompted_and_a_correction_changes_the_outcome() -> None:
    """V-14: the engine proposes, the umpire confirms or corrects; a correction ruling the move
    illegal leaves the unit where it was (skipped, VF-56), a confirmation moves it."""
    match = _act(_first(starter()), "A", "turn_orders", _move_sheet())
    assert list(RULESET.prompts(match)) == [UMPIRE]
    assert [p["key"] for p in match.pending or []] == ["auto"]
    match = _act(
        match, UMPIRE, CORRECTION_KIND, {"fact": "auto", "value": True, "reason": "measured 23 in"}
    )
    keys = [p["key"] for p in match.pending or []]
    assert {"cost", "clear", "place", "keep"} <= set(keys)
    confirmed = _act(match, UMPIRE, "confirm", {})
    assert confirmed.game.unit("U-A1").bases[0].y == match.game.unit("U-A1").bases[0].y + 5
    corrected = _act(
        match,
        UMPIRE,
        CORRECTION_KIND,
        {"fact": "clear", "value": False, "reason": "touches the hedge"},
    )
    assert list(RULESET.prompts(corrected)) == [UMPIRE]  # the other facts still wait
    texts = _texts(corrected, Action(UMPIRE, "confirm", {}))
    assert any(t.startswith("Skipped (VF-56)") for t in texts)
    after = _act(corrected, UMPIRE, "confirm", {})
    assert after.game.unit("U-A1").bases == match.game.unit("U-A1").bases


def test_corrections_are_checked() -> None:
    match = _act(_first(starter()), "A", "turn_orders", _move_sheet())
    bad = RULESET.validate(
        match, Action(UMPIRE, CORRECTION_KIND, {"fact": "auto", "value": 3, "reason": "x"})
    )
    assert [r.rule for r in bad] == ["V-14"]
    bad = RULESET.validate(
        match, Action(UMPIRE, CORRECTION_KIND, {"fact": "nope", "value": True, "reason": "x"})
    )
    assert [r.rule for r in bad] == ["V-14"]
    wrapped: Umpired[m.Match] = Umpired(RULESET)
    assert [
        r.rule
        for r in wrapped.validate(
            match, Action("A", CORRECTION_KIND, {"fact": "auto", "value": True, "reason": "x"})
        )
    ] == ["UMP-2"]
    assert not wrapped.validate(
        match, Action(UMPIRE, CORRECTION_KIND, {"fact": "auto", "value": True, "reason": "x"})
    )


def test_a_deadline_lets_the_proposals_stand() -> None:
    match = _act(_first(starter()), "A", "turn_orders", _move_sheet())
    assert [p["key"] for p in match.pending or []] == ["auto"]
    texts = _texts(match, Action(SYSTEM, DEADLINE_KIND, None))
    assert texts[0] == "Deadline: the proposed facts stand"
    after = _act(match, SYSTEM, DEADLINE_KIND, None)
    assert "cost" in [p["key"] for p in after.pending or []]  # the next step's facts


def test_a_missed_order_sheet_is_an_empty_one() -> None:
    match = _first(starter(auto_geometry=True))
    after = _act(match, SYSTEM, DEADLINE_KIND, None)
    assert fate_window(after.flow) is not None  # the melee phase's window (V-01)
    after = _act(after, SYSTEM, DEADLINE_KIND, None)  # its default: pass
    assert after.stage == m.ORDERS
    assert after.game.turn.active_side == "B"


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        ({"fate": [{"card": "X"}]}, "VF-25"),
        (
            {"units": {"U-A1": {"action": "STAND", "formation_after": {"formation": "LINE"}}}},
            "VF-60",
        ),
        ({"on_illegal": "ask"}, "4.5"),
        ({"shooting": [{"target": "U-A2", "firer": "U-A1"}]}, "VF-40"),
        ({"brigade_order": ["BR-B1"]}, "VF-50"),
        ({"units": {"U-A1": {"action": "CHARGE", "path": [[1, 1]]}}}, "VF-63"),
        ({"junk": 1}, "schema"),
    ],
)
def test_sheets_are_refused_by_rule(payload: dict[str, object], rule: str) -> None:
    match = _first(starter())
    refused = RULESET.validate(match, Action("A", "turn_orders", payload))  # type: ignore[arg-type]
    assert refused
    assert refused[0].rule == rule
    assert RULESET.validate(match, Action("A", "play_fate", {"plays": []}))[0].rule == "VF-37"
    assert RULESET.validate(match, Action("B", "turn_orders", {}))[0].rule == "VF-32"
    assert RULESET.parse_text(match, "A", "advance U-A1").rule == "4.5"  # type: ignore[union-attr]


def test_auto_geometry_never_asks_the_umpire_and_ends() -> None:
    """Digest 4.1: every proposal accepted; the game reaches VF-115's result."""
    match, log = play_to_end(starter(auto_geometry=True, turn_limit=3), chooser=5)
    assert UMPIRE not in {a.role for a in log}
    result = RULESET.result(match)
    assert result is not None
    assert result.summary
    assert match.game.turn.turns_taken_a == match.game.turn.turns_taken_b == 3
    assert not violations(match)


def test_random_umpired_games_are_deterministic() -> None:
    first, log1 = play_to_end(starter(turn_limit=2), chooser=9)
    second, log2 = play_to_end(starter(turn_limit=2), chooser=9)
    assert log1 == log2
    assert state_hash(RULESET.dump(first)) == state_hash(RULESET.dump(second))
    assert UMPIRE in {a.role for a in log1}
    assert RULESET.load(RULESET.dump(first)) == first


def _fates(view: JSON) -> list[dict[str, JSON]]:
    assert isinstance(view, dict)
    assert isinstance(view["game"], dict)
    sides = view["game"]["sides"]
    assert isinstance(sides, list)
    out = []
    for side in sides:
        assert isinstance(side, dict)
        assert isinstance(side["fate"], dict)
        out.append(side["fate"])
    return out


def test_hands_are_secret() -> None:
    """VF-36: a side sees its own hand; the other's count only; no deck order but the umpire's."""
    match = _first(starter(auto_geometry=True))
    a, b = _fates(RULESET.view(match, "B"))
    assert a["hand"] is None
    assert a["hand_count"] == 1
    assert a["deck"] is None
    assert b["hand"] == []
    assert b["deck"] is None
    assert _fates(RULESET.view(match, "@omniscient"))[0]["deck"]
    assert "Your fate cards" in RULESET.report_text(match, "A")


@settings(max_examples=12, deadline=None)
@given(
    steps=st.integers(min_value=0, max_value=40),
    chooser=st.integers(0, 2**32),
    probe=st.integers(0, 2**32),
)
def test_views_and_prompts_do_not_depend_on_hidden_cards(
    steps: int, chooser: int, probe: int
) -> None:
    """Non-interference: changing the other hand or the decks' order changes nothing a side
    (or a spectator) sees or is asked."""
    match = starter(turn_limit=2)
    rng = Rng(chooser)
    for i in range(steps):
        prompts = RULESET.prompts(match)
        if not prompts:
            break
        role = sorted(prompts)[rng.below(len(prompts))]
        action = RULESET.random_action(match, role, rng)
        assert action is not None
        match = RULESET.apply(match, action, Rng.for_event(b"ni", i)).state
    for role in ("A", "B"):
        other = perturb(match, role, Rng(probe))
        assert isinstance(other, m.Match)
        assert RULESET.view(match, role) == RULESET.view(other, role)
        assert RULESET.view(match, OBSERVER) == RULESET.view(other, OBSERVER)
        assert RULESET.prompts(match) == RULESET.prompts(other)
        assert RULESET.actions(match, role) == RULESET.actions(other, role)
        assert RULESET.dump(other) == m.dump(m.Match(other.game, other.flow))  # the patched memo


def test_the_memoised_game_text_is_the_state_dump() -> None:
    match, _ = play_to_end(starter(auto_geometry=True, turn_limit=1), chooser=2)
    assert match.game_json() == state_json.dump(match.game)
    assert RULESET.load(RULESET.dump(match)).game == match.game


def test_a_corrected_path_cost_refuses_the_move() -> None:
    """V-14 on the step table's "path lengths": the umpire measures 9 in; line infantry moves
    8 in (VF-57), so the move is skipped."""
    match = _act(_first(starter()), "A", "turn_orders", _move_sheet())
    match = _act(match, UMPIRE, "confirm", {})
    bad = Action(UMPIRE, CORRECTION_KIND, {"fact": "cost", "value": "nine", "reason": "x"})
    assert [r.rule for r in RULESET.validate(match, bad)] == ["V-14"]
    fix = {"fact": "cost", "value": "9.000", "reason": "the hedge is wider"}
    match = _act(match, UMPIRE, CORRECTION_KIND, fix)
    texts = _texts(match, Action(UMPIRE, "confirm", {}))
    assert any(t.startswith("Skipped (VF-57)") for t in texts)
