"""Fate cards in play (VF-36, VF-37, VF-222, VF-223, V-01): each card of the French (seed
L967-982) and British (L1138-1153) tables with its timing and effect, the reaction windows of the
inactive side (opened whatever the hand holds, `pass` by deadline), the refusals by rule, the
worked examples VF-T4 and VF-T42, and non-interference at the windows."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import DEADLINE_KIND, JSON, OBSERVER, SYSTEM, Action
from games.core.rng import Rng
from games.valour_fortitude import fate, turn
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.checks import perturb
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.morale import resolve_test, take_casualties
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.state import FateState, GameState, Phase
from tests.engines.valour_fortitude.vf_play import ScriptedDice, ctx, set_unit, starter


def with_hand(game: GameState, side: str, cards: tuple[str, ...]) -> GameState:
    """`side` holds exactly `cards`; the rest of its 13 are in the deck."""
    state = m.side_state(game, side)
    deck = tuple(c for c in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                 if c not in cards)  # fmt: skip
    return m.with_side(game, replace(state, fate=FateState(deck, cards, (), True)))


def active(game: GameState, side: str, phase: Phase = Phase.COMMAND) -> GameState:
    turn_ = replace(game.turn, active_side=side, phase=phase, round=1, first_side="A")
    return replace(game, turn=turn_)


def sheet_ctx(
    game: GameState, entries: list[JSON], dice: tuple[int, ...] = (), side: str = "A"
) -> Ctx:
    c = ctx(active(game, side), dice, auto=True)
    c.flow["sheet"] = {"fate": entries}
    return c


def played(c: Ctx) -> list[dict[str, JSON]]:
    out = []
    for e in c.log:
        if isinstance(e.data, dict) and "fate_play" in e.data:
            assert isinstance(e.data["fate_play"], dict)
            out.append(e.data["fate_play"])
    return out


def base() -> GameState:
    return starter().game


def first_turn(hand_a: tuple[str, ...] = (), hand_b: tuple[str, ...] = ()) -> m.Match:
    """A's first turn with the hands given, B's start-of-turn window still open."""
    match = starter(auto_geometry=True)
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    game = with_hand(with_hand(match.game, "A", hand_a), "B", hand_b)
    match = m.Match(game, match.flow)
    action = Action(str(init["decider"]), "choose_first_side", {"side": "A"})
    after = RULESET.apply(match, action, Rng(1)).state
    # the draw added A's top card; keep exactly the hands the test asked for
    game = with_hand(with_hand(after.game, "A", hand_a), "B", hand_b)
    return m.Match(game, after.flow)


def act(match: m.Match, role: str, kind: str, payload: JSON, seed: int = 3) -> m.Match:
    action = Action(role, kind, payload)
    assert not RULESET.validate(match, action), RULESET.validate(match, action)
    return RULESET.apply(match, action, Rng(seed)).state


def refusal(match: m.Match, role: str, kind: str, payload: JSON) -> str:
    found = RULESET.validate(match, Action(role, kind, payload))
    assert found
    return found[0].rule


# --- the tables ---


def test_the_tables_are_the_rulebooks() -> None:
    """VF-222: 13 cards per table with the seed's titles; every card of both is built."""
    fr, gb = fate.TABLES["france_1812_1815"], fate.TABLES["britain_1807_1815"]
    assert (
        sorted(fr)
        == sorted(gb)
        == sorted(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
    )
    assert [fr[c].title for c in ("J", "Q", "K")] == [
        "Les Grognards",
        "Auf Leben und Tod",
        "Es lebe der Kaiser!",
    ]  # L980-982
    assert [gb[c].title for c in ("J", "Q", "K")] == [
        "Abschaum der Erde",
        "Abwehrfeuer",
        "Perfekte Salven",
    ]  # L1151-1153
    assert fr["3"].hook == fate.ENEMY_TURN
    assert gb["Q"].hook == fate.ENEMY_MELEE
    assert all(card.playable for card in (*fr.values(), *gb.values()))
    assert (fr["4"].hook, fr["9"].hook) == (fate.END_MELEE, fate.BEFORE_CHARGE)  # L973, L978


@pytest.mark.parametrize(
    ("entry", "rule"),
    [
        ({"card": "4", "brigade": "BR-A1"}, "VF-222"),  # Durchbruch: no moves
        ({"card": "9", "unit": "U-A1"}, "VF-222"),  # Überraschungsangriff: no path
        ({"card": "3"}, "VF-37"),  # Friktion: only at the start of an enemy turn (VF-T42)
        ({"card": "10", "objective": "O9"}, "VF-222"),
        ({"card": "5", "unit": "U-B1"}, "VF-222"),  # not a unit of yours
        ({"card": "8"}, "VF-222"),  # names a unit or a brigade
        ({"card": "X"}, "VF-25"),
        ({"card": "7", "as": "eigeninitiative", "brigade": "BR-A1", "unit": "U-B1"}, "VF-222"),
    ],
)
def test_sheet_entries_are_refused_by_rule(entry: dict[str, JSON], rule: str) -> None:
    match = act(first_turn(hand_a=tuple(fate.TABLES["france_1812_1815"])), "B", "play_fate",
                {"plays": []})  # fmt: skip
    assert refusal(match, "A", "turn_orders", {"fate": [entry]}) == rule


def test_a_card_not_in_the_hand_is_refused() -> None:
    """VF-36: only cards in the hand, each once."""
    match = act(first_turn(hand_a=("5",)), "B", "play_fate", {"plays": []})
    assert refusal(match, "A", "turn_orders", {"fate": [{"card": "A"}]}) == "VF-36"
    twice: JSON = {"fate": [{"card": "5", "unit": "U-A1"}, {"card": "5", "unit": "U-A2"}]}
    assert refusal(match, "A", "turn_orders", twice) == "VF-36"


# --- windows (V-01) ---


def test_the_window_opens_whatever_the_hand_holds() -> None:
    """V-01, VF-36: B's window at the start of A's turn opens with an empty hand too, and its
    deadline is a pass; play_fate outside a window is refused (VF-37)."""
    empty, full, dull = first_turn(), first_turn(hand_b=("3", "Q")), first_turn(hand_b=("5", "6"))
    for match in (empty, full):
        assert fate.window(match.flow) == {"side": "B", "hook": fate.ENEMY_TURN}
        assert list(RULESET.prompts(match)) == ["B"]
    assert RULESET.prompts(empty) == RULESET.prompts(full) == RULESET.prompts(dull)
    assert RULESET.view(dull, "A") == RULESET.view(full, "A")  # only the count is public
    assert refusal(empty, "A", "play_fate", {"plays": []}) == "VF-37"
    after = act(empty, SYSTEM, DEADLINE_KIND, None)
    assert fate.window(after.flow) is None
    assert list(RULESET.prompts(after)) == ["A"]


def test_window_plays_are_checked() -> None:
    match = first_turn(hand_b=("10", "3"))
    assert refusal(match, "B", "play_fate", {"plays": [{"card": "10", "objective": "O1"}]}) == (
        "VF-37"
    )
    assert refusal(match, "B", "play_fate", {"plays": [{"card": "Q", "brigade": "BR-B1"}]}) == (
        "VF-36"
    )
    assert refusal(match, "B", "play_fate", {"plays": [{"card": 3}]}) == "schema"


def test_t42_friktion() -> None:
    """VF-T42: B plays 3 at the start of A's turn: A's first brigade must test (no automatic
    activation), the card goes to the public discard pile, the play is logged (VF-223)."""
    match = first_turn(hand_b=("3",))
    step = RULESET.apply(match, Action("B", "play_fate", {"plays": [{"card": "3"}]}), Rng(3))
    after = step.state
    assert m.side_state(after.game, "B").fate.discard == ("3",)
    assert m.side_state(after.game, "B").fate.hand == ()
    assert m.side_state(after.game, "A").auto_activation_used_this_turn
    assert any(
        isinstance(e.data, dict) and e.data.get("fate_play") for e in step.log if e.audience is None
    )
    assert fate.friction(after.flow, "A")
    texts = [e.text for e in RULESET.apply(after, Action("A", "turn_orders", {
        "brigade_order": ["BR-A1"]}), Rng(3)).log]  # fmt: skip
    assert any(t.startswith("Activation test of brigade BR-A1") for t in texts), texts
    assert not any("activates automatically" in t for t in texts)
    # without the card, the same sheet activates automatically (VF-52)
    plain = act(first_turn(), "B", "play_fate", {"plays": []})
    texts = [e.text for e in RULESET.apply(plain, Action("A", "turn_orders", {
        "brigade_order": ["BR-A1"]}), Rng(3)).log]  # fmt: skip
    assert any("activates automatically" in t for t in texts)


def test_the_melee_window_takes_abwehrfeuer() -> None:
    """Q (Britain, L1152): in an enemy melee phase, +1 melee for British infantry of the
    brigade (not the Allied contingent unit, AMB-32), for the rest of the phase."""
    match = act(first_turn(hand_b=("Q",)), "B", "play_fate", {"plays": []})
    match = act(match, "A", "turn_orders", {})
    assert fate.window(match.flow) == {"side": "B", "hook": fate.ENEMY_MELEE}
    assert refusal(match, "B", "play_fate", {"plays": [{"card": "Q", "brigade": "BR-A1"}]}) == (
        "VF-222"
    )
    c = Ctx(match.game, json.loads(json.dumps(match.flow)), Rng(1))
    fate.answer(c, [{"card": "Q", "brigade": "BR-B2"}])
    turn.run(c)
    assert [p["card"] for p in played(c)] == ["Q"]
    # the phase has ended by now (the melee phase closed the turn); check the effect at once:
    c2 = Ctx(match.game, json.loads(json.dumps(match.flow)), Rng(1))
    fate.answer(c2, [{"card": "Q", "brigade": "BR-B2"}])
    queue = c2.flow["queue"]
    assert isinstance(queue, list)
    step = queue.pop(0)
    assert isinstance(step, dict)
    turn.STEPS["fate"](c2, step)
    g = c2.game
    assert fate.melee_bonus(c2, g.unit("U-B5")) == 1
    assert fate.melee_bonus(c2, g.unit("U-B6")) == 1
    assert fate.melee_bonus(c2, g.unit("U-B7")) == 0  # allied contingent
    assert fate.melee_bonus(c2, g.unit("U-B1")) == 0  # another brigade
    fate.clear(c2.flow, "phase")
    assert fate.melee_bonus(c2, g.unit("U-B5")) == 0


# --- each card's effect ---


def test_eroberung_counts_an_enemy_objective_double() -> None:
    """10 (L979): an enemy-controlled objective counts double at the end if held (VF-115)."""
    game = with_hand(base(), "A", ("10",))
    objs = tuple(replace(o, controller="B") if o.id == "O3" else o for o in game.objectives)
    game = replace(game, objectives=objs)
    c = sheet_ctx(game, [])
    fate.play(c, "A", {"card": "10", "objective": "O3"})
    assert c.game.objectives[2].counts_double_for == "A"
    objs = tuple(replace(o, controller="A") if o.id == "O3" else o for o in c.game.objectives)
    c.game = replace(c.game, objectives=objs)
    turn.finish(c)
    assert c.flow["result"] == {"winners": ["A"], "summary": "Side A wins 2 to 0 (VF-115)",
                                "scores": {"A": 2, "B": 0}}  # fmt: skip
    # not an enemy objective: skipped when reached (VF-222)
    c = sheet_ctx(with_hand(base(), "A", ("10",)), [])
    with pytest.raises(Exception, match="not held by the enemy"):
        fate.play(c, "A", {"card": "10", "objective": "O3"})


def test_hartnaeckig_removes_a_casualty_before_the_action() -> None:
    """5 (L974): one casualty off, even the only one; played when the unit's action comes."""
    game = set_unit(with_hand(base(), "A", ("5",)), "U-A1", casualties=1)
    c = sheet_ctx(game, [{"card": "5", "unit": "U-A1"}])
    turn.STEPS["unit"](c, {"do": "unit", "unit": "U-A1"})
    assert c.game.unit("U-A1").casualties == 0
    assert m.side_state(c.game, "A").fate.discard == ("5",)
    assert played(c)[0]["hook"] == fate.BEFORE_ACTION


def test_t4_toedlicher_angriff() -> None:
    """VF-T4: cuirassiers, melee 6, 1 casualty; dice 1 1 3 4 5 6, heavy-cavalry rerolls 1 2;
    card 6 rerolls only the failed die not yet rerolled: the 3 -> 5: 4 hits."""
    game = with_hand(base(), "A", ("6",))
    c = sheet_ctx(game, [{"card": "6", "unit": "U-A9"}], dice=(1, 1, 3, 4, 5, 6, 1, 2, 5))
    faces, hits = fate.hit_tests(c, c.game.unit("U-A9"), 6, 0, True)
    assert faces == [1, 2, 5, 4, 5, 6]
    assert hits == 4
    assert m.side_state(c.game, "A").fate.discard == ("6",)
    # without the card: 3 hits and the card stays in the hand
    c = sheet_ctx(game, [], dice=(1, 1, 3, 4, 5, 6, 1, 2))
    assert fate.hit_tests(c, c.game.unit("U-A9"), 6, 0, True)[1] == 3
    assert m.side_state(c.game, "A").fate.hand == ("6",)


def test_geleitetes_feuer_adds_one_to_the_named_shot() -> None:
    """7 (L976): +1 ranged value for the attacking unit of the named shot."""
    c = sheet_ctx(with_hand(base(), "A", ("7",)), [])
    fate.play(c, "A", {"card": "7", "shot": 1})
    assert fate.ranged_bonus(c, c.game.unit("U-A1"), 1) == 1
    assert fate.ranged_bonus(c, c.game.unit("U-A1"), 0) == 0


def test_inspiration_passes_a_failed_morale_test() -> None:
    """8 (L977): the failed morale test counts as passed; the unit does not flee."""
    game = set_unit(with_hand(base(), "A", ("8",)), "U-A1", casualties=4)
    c = sheet_ctx(game, [{"card": "8", "unit": "U-A1"}], dice=(2,))
    take_casualties(c, "U-A1", 1, shooting=False, winner=False)
    assert not c.game.unit("U-A1").fled
    assert m.side_state(c.game, "A").fate.discard == ("8",)
    c = sheet_ctx(game, [], dice=(2,))
    take_casualties(c, "U-A1", 1, shooting=False, winner=False)
    assert c.game.unit("U-A1").fled


def test_inspiration_of_the_inactive_side_and_for_a_resolve_test() -> None:
    """8, filed in B's start-of-turn window: B's brigade passes its failed resolve test in A's
    turn (no setback)."""
    game = with_hand(base(), "B", ("8",))
    brigade = replace(m.brigade(game, "BR-B1"), pending_resolve_tests=1)
    c = sheet_ctx(m.with_brigade(game, brigade), [], dice=(2,))
    c.flow["window"] = {"side": "B", "hook": fate.ENEMY_TURN}
    fate.answer(c, [{"card": "8", "brigade": "BR-B1"}])
    assert resolve_test(c, "BR-B1", False, False)
    assert m.side_state(c.game, "B").setbacks == 0
    assert m.side_state(c.game, "B").fate.discard == ("8",)


def test_grossangriff_units_near_the_cinc() -> None:
    """A (L970): +1 melee this phase for own units within 12 in of the CinC (the umpire rules on
    each distance); the effect ends with the phase (AMB-43)."""
    game = with_hand(base(), "A", ("A",))
    c = sheet_ctx(game, [])
    c.flow["facts"] = {f"ga:{u.id}": u.id in ("U-A5", "U-A6") for u in game.units if u.side == "A"}
    c.flow["auto_geometry"] = False
    fate.play(c, "A", {"card": "A"})
    assert fate.melee_bonus(c, c.game.unit("U-A5")) == 1
    assert fate.melee_bonus(c, c.game.unit("U-A1")) == 0
    turn.STEPS["phase"](c, {"do": "phase", "to": "MELEE"})
    assert fate.melee_bonus(c, c.game.unit("U-A5")) == 0


def test_les_grognards() -> None:
    """J (France, L980): a French unit with a casualty: +1 melee and morale for the game."""
    game = set_unit(with_hand(base(), "A", ("J",)), "U-A1", casualties=1)
    c = sheet_ctx(game, [])
    fate.play(c, "A", {"card": "J", "unit": "U-A1"})
    assert (c.game.unit("U-A1").stats.melee, c.game.unit("U-A1").stats.morale) == (5, 5)
    c = sheet_ctx(with_hand(base(), "A", ("J",)), [])
    with pytest.raises(Exception, match="no casualty"):
        fate.play(c, "A", {"card": "J", "unit": "U-A1"})


def test_auf_leben_und_tod_only_attack_columns() -> None:
    """Q (France, L981): +1 melee for the brigade's units in attack column, this phase."""
    c = sheet_ctx(with_hand(base(), "A", ("Q",)), [])
    fate.play(c, "A", {"card": "Q", "brigade": "BR-A2"})
    assert fate.melee_bonus(c, c.game.unit("U-A5")) == 1  # attack column
    assert fate.melee_bonus(c, c.game.unit("U-A6")) == 0  # line


def test_es_lebe_der_kaiser_after_activation() -> None:
    """K (France, L982): after the brigade activates, +6 in movement this phase."""
    game = with_hand(base(), "A", ("K",))
    c = sheet_ctx(game, [{"card": "K", "brigade": "BR-A1"}])
    turn.STEPS["brigade"](c, {"do": "brigade", "id": "BR-A1"})  # automatic activation
    assert fate.move_bonus(c, c.game.unit("U-A1")) == 6
    assert fate.move_bonus(c, c.game.unit("U-A5")) == 0


def test_abschaum_der_erde_and_perfekte_salven() -> None:
    """J (Britain, L1151): enemy brigades in contact with British infantry -1 on morale tests;
    K (L1153): +1 ranged for British infantry of the brigade."""
    game = with_hand(base(), "B", ("J", "K"))
    c = sheet_ctx(game, [], side="B")
    fate.play(c, "B", {"card": "K", "brigade": "BR-B2"})
    assert fate.ranged_bonus(c, c.game.unit("U-B6"), 0) == 1
    assert fate.ranged_bonus(c, c.game.unit("U-B7"), 0) == 0  # allied contingent
    # U-B1 touches U-A1 (moved into contact)
    a1 = c.game.unit("U-A1")
    b1 = c.game.unit("U-B1")
    dx = b1.bases[0].x - a1.bases[0].x
    dy = b1.bases[0].y - a1.bases[0].y  # front edge to front edge
    moved = tuple(replace(b, x=b.x + dx, y=b.y + dy) for b in a1.bases)
    c.game = set_unit(c.game, "U-A1", bases=moved)
    assert ms.gap(c.game, c.game.unit("U-A1"), b1) <= ms.NEAR_IN
    fate.play(c, "B", {"card": "J"})  # auto_geometry: the contact is proposed and stands
    assert fate.morale_modifier(c, c.game.unit("U-A2")) == -1  # same brigade BR-A1
    assert fate.morale_modifier(c, c.game.unit("U-A5")) == 0


def test_eigeninitiative_after_a_failed_activation() -> None:
    """ "Jede" (L969): once per command phase, any card discarded: one unit of the brigade that
    failed its activation test acts."""
    game = with_hand(base(), "A", ("4", "9"))
    entry: JSON = {"card": "4", "as": "eigeninitiative", "brigade": "BR-A2", "unit": "U-A6"}
    c = sheet_ctx(game, [entry], dice=(1,))
    c.game = m.with_brigade(c.game, replace(m.brigade(c.game, "BR-A1"), activated_this_turn=True))
    follow = turn.STEPS["brigade"](c, {"do": "brigade", "id": "BR-A2"})
    assert follow[0] == {"do": "unit", "unit": "U-A6"}
    assert m.side_state(c.game, "A").fate.discard == ("4",)
    again: JSON = {"card": "9", "as": "eigeninitiative", "brigade": "BR-A3", "unit": "U-A8"}
    c.flow["sheet"] = {"fate": [entry, again]}
    c.rng = ScriptedDice((1,))
    follow = turn.STEPS["brigade"](c, {"do": "brigade", "id": "BR-A3"})
    assert follow == [{"do": "bg_move", "brigade": "BR-A3"}]  # once per command phase


def test_a_whole_turn_with_cards_on_the_sheet() -> None:
    """The sheet's cards are played at their hooks during the turn and logged (VF-223)."""
    match = act(first_turn(hand_a=("A", "5")), "B", "play_fate", {"plays": []})
    match = m.Match(set_unit(match.game, "U-A1", casualties=1), match.flow)
    sheet: JSON = {
        "fate": [{"card": "A"}, {"card": "5", "unit": "U-A1"}],
        "brigade_order": ["BR-A1"],
    }
    step = RULESET.apply(match, Action("A", "turn_orders", sheet), Rng(3))
    data = [e.data for e in step.log if isinstance(e.data, dict)]
    plays = [d["fate_play"] for d in data if "fate_play" in d]
    cards = [p["card"] for p in plays if isinstance(p, dict)]
    assert cards == ["5", "A"]  # the command phase before the melee phase
    assert m.side_state(step.state.game, "A").fate.discard == ("5", "A")


# --- non-interference at the windows ---


@settings(max_examples=10, deadline=None)
@given(chooser=st.integers(0, 2**32), probe=st.integers(0, 2**32), stop=st.integers(0, 3))
def test_windows_do_not_depend_on_hidden_hands(chooser: int, probe: int, stop: int) -> None:
    """At each window, changing a hidden hand changes nothing the other side or a spectator
    sees or is asked (VF-36, V-01)."""
    match = starter(turn_limit=2, auto_geometry=True)
    rng = Rng(chooser)
    windows = 0
    for i in range(400):
        prompts = RULESET.prompts(match)
        if not prompts:
            break
        if fate.window(match.flow) is not None:
            for role in ("A", "B"):
                other = perturb(match, role, Rng(probe + i))
                assert isinstance(other, m.Match)
                assert RULESET.view(match, role) == RULESET.view(other, role)
                assert RULESET.view(match, OBSERVER) == RULESET.view(other, OBSERVER)
                assert RULESET.prompts(match) == RULESET.prompts(other)
                assert RULESET.actions(match, role) == RULESET.actions(other, role)
            windows += 1
            if windows > stop:
                break
        role = sorted(prompts)[rng.below(len(prompts))]
        action = RULESET.random_action(match, role, rng)
        assert action is not None
        match = RULESET.apply(match, action, Rng.for_event(b"w", i)).state
    assert windows


def test_schlachtenglueck_is_played_on_the_draw() -> None:
    """2 (L971): played at once: every discarded card and itself go back into the deck; the
    play is logged (VF-223)."""
    game = base()
    state = m.side_state(game, "A")
    deck = ("2", "A", "3", "4", "5", "6", "7", "8", "9")
    fate_ = FateState(deck, ("10",), ("J", "Q", "K"), True)
    c = ctx(active(m.with_side(game, replace(state, fate=fate_)), "A", Phase.FATE))
    turn.draw(c, "A")
    after = m.side_state(c.game, "A").fate
    assert after.hand == ("10",)
    assert after.discard == ()
    assert sorted(after.deck) == sorted((*deck, "J", "Q", "K"))
    assert [p["card"] for p in played(c)] == ["2"]
