"""Every army's fate table (VF-222, `data/fate_tables.yaml`) with the rulebook line of each card
(seed 003_5e0fbbd74c4a88b0.txt), the national cards' effects with scripted dice, the refusals of
cards not built (VF-222) or unknown (GAP-16..GAP-18), and cards 4 Durchbruch and 9
Überraschungsangriff with moves of their own (V-06 facts, VF-55..VF-58, AMB-44)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.valour_fortitude import fate, turn
from games.valour_fortitude import match as m
from games.valour_fortitude.armies import army_lists
from games.valour_fortitude.context import Ctx
from games.valour_fortitude.morale import take_casualties
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import FateState, GameState, Phase
from tests.engines.valour_fortitude.vf_play import ScriptedDice, ctx, play_to_end, set_unit, starter

CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# the rulebook's tables: (title line, last line), and J, Q, K as printed with their lines
NATIONAL = {
    "allied_french_british": ((770, 785), ("Heimischer Boden", "Tod den Invasoren",
                                           "Nationalstolz"), 783),
    "france_1812_1815": ((967, 982), ("Les Grognards", "Auf Leben und Tod",
                                      "Es lebe der Kaiser!"), 980),
    "britain_1807_1815": ((1138, 1153), ("Abschaum der Erde", "Abwehrfeuer",
                                         "Perfekte Salven"), 1151),
    "austria_1809_1815": ((1324, 1339), ("Geduld und Disziplin", "Gut zu Pferd",
                                         "Orden und Pensionen"), 1337),
    "prussia_1812_1815": ((1498, 1513), ("Preußischer Drill", "Verteidigt Berlin!",
                                         "Für König und Vaterland"), 1511),
    "russia_1809_1814": ((1679, 1694), ("Kosakenüberfall", "Standhaftigkeit",
                                        "Mutter Russland"), 1692),
    "spain_1807_1814": ((1858, 1874), ("Der Spanische Widerstand", "Der unsichtbare Feind",
                                       "Eroberer der Eroberer"), 1872),
    "prussia_saxony_1806": ((2029, 2044), ("Strenge Disziplin", "Nothardt-Gewehr",
                                           "Für König und Vaterland"), 2042),
    "bavaria_1809_1815": ((2164, 2179), ("Vorwärts, Bayern!", "Gut bewaffnet und beritten.",
                                         "Vater Wrede"), 2177),
    "acw_confederate": ((2339, 2354), ("Heimatstolz", "Kavallerie zu Fuß", "Rebel Yell!"), 2352),
    "acw_union": ((2524, 2539), ("Verstärkungen", "Artillerieexperte",
                                 "Battle Cry of Freedom"), 2537),
}  # fmt: skip

NOT_BUILT = {
    ("allied_french_british", "J"),
    ("allied_french_british", "K"),
    ("prussia_1812_1815", "J"),
    ("prussia_1812_1815", "Q"),
    ("spain_1807_1814", "J"),
    ("spain_1807_1814", "Q"),
    ("spain_1807_1814", "K"),
    ("acw_confederate", "A"),
    ("acw_confederate", "3"),
    ("acw_union", "A"),
    ("acw_union", "3"),
    ("acw_union", "J"),
}
UNKNOWN = {
    ("bavaria_1809_1815", "J"): "GAP-16",
    ("bavaria_1809_1815", "K"): "GAP-17",
    ("russia_1809_1814", "K"): "GAP-18",
}


def as_army(game: GameState, side: str, army: str) -> GameState:
    """`side` fields the list `army` (its units are of that list)."""
    game = m.with_side(game, replace(m.side_state(game, side), army_list=army))
    units = tuple(replace(u, army_list=army) if u.side == side else u for u in game.units)
    return replace(game, units=units)


def with_hand(game: GameState, side: str, cards: tuple[str, ...]) -> GameState:
    state = m.side_state(game, side)
    deck = tuple(c for c in CARDS if c not in cards)
    return m.with_side(game, replace(state, fate=FateState(deck, cards, (), True)))


def army_game(army: str, cards: tuple[str, ...], side: str = "A") -> GameState:
    game = with_hand(as_army(starter().game, side, army), side, cards)
    turn_ = replace(game.turn, active_side="A", phase=Phase.COMMAND, round=1, first_side="A")
    return replace(game, turn=turn_)


def sheet_ctx(game: GameState, sheet: dict[str, JSON], dice: tuple[int, ...] = ()) -> Ctx:
    c = ctx(game, dice, auto=True)
    c.flow["sheet"] = sheet
    return c


def given_facts(c: Ctx, facts: dict[str, JSON]) -> None:
    c.flow["auto_geometry"] = False
    c.flow["facts"] = dict(facts)


def rules_of(
    game: GameState, side: str, entries: list[JSON], window: str | None = None
) -> list[str]:
    return [r.rule for r in fate.entry_problems(game, side, entries, "/fate", window)]


def discard(c: Ctx, side: str = "A") -> tuple[str, ...]:
    return m.side_state(c.game, side).fate.discard


# --- the tables and their provenance ---


def test_every_army_list_has_its_table() -> None:
    """VF-222: one table per army list the data has, 13 cards and the "Jede" row each."""
    assert set(fate.TABLES) == set(army_lists()) == set(NATIONAL)
    for army, cards in fate.TABLES.items():
        assert sorted(cards) == sorted(CARDS), army
        assert fate.ANY_ROWS[army].title == "Eigeninitiative"
        assert fate.ANY_ROWS[army].effect == "eigeninitiative"


@pytest.mark.parametrize("army", sorted(NATIONAL))
def test_each_table_has_its_rulebook_lines(army: str) -> None:
    """Every card cites its row: the 14 rows follow the table's title line in the rulebook's
    order (Jede, A, 2..10, J, Q, K; Spain's 9 spans two lines, L1869-1870)."""
    (first, last), titles, j_line = NATIONAL[army]
    cards = fate.TABLES[army]
    rows = [fate.ANY_ROWS[army], *(cards[c] for c in CARDS)]
    starts = [card.lines[0] for card in rows]
    assert starts[0] == first + 2
    assert rows[-1].lines[-1] == last
    assert all(b > a for a, b in itertools.pairwise(starts))
    assert [cards[c].title for c in ("J", "Q", "K")] == list(titles)
    assert [cards[c].lines for c in ("J", "Q", "K")] == [(j_line,), (j_line + 1,), (j_line + 2,)]
    if army == "spain_1807_1814":
        assert cards["9"].lines == (1869, 1870)


def test_the_shared_cards_and_the_acw_differences() -> None:
    """Cards 2-10 are shared by the Napoleonic lists (seed e.g. L971-979); the ACW lists
    differ in A, 3, 5, 7, 8 and 4 (L2342-2350, L2527-2535, digest D-18)."""
    france = fate.TABLES["france_1812_1815"]
    for army, cards in fate.TABLES.items():
        if army.startswith("acw_"):
            continue
        for c in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10"):
            assert (cards[c].title, cards[c].effect, cards[c].hooks) == (
                france[c].title,
                france[c].effect,
                france[c].hooks,
            ), (army, c)
    conf, union = fate.TABLES["acw_confederate"], fate.TABLES["acw_union"]
    assert [conf[c].title for c in ("A", "3", "5", "7", "8")] == [
        "Zögern", "Scharfschützen", "Den Elefanten gesehen", "Verheerendes Feuer",
        "Wie eine Steinmauer",
    ]  # fmt: skip
    assert union["8"].title == "Eiserner Wille"  # L2534
    assert (conf["5"].effect, conf["7"].effect, conf["8"].effect) == (
        "hartnaeckig",
        "geleitetes_feuer",
        "inspiration",
    )
    assert conf["4"].hooks == (fate.END_OWN_MELEE,)  # L2345: "deiner Nahkampfphase"
    assert union["4"].hooks == (fate.END_MELEE_RESOLVED,)  # L2530


def test_not_built_and_unknown_cards_are_marked() -> None:
    """Cards whose machinery is not built carry their reason; cards whose effect the rulebook
    does not give carry their gap (GAP-16 Vorwärts, Bayern!, GAP-17 Vater Wrede: no duration;
    GAP-18 Mutter Russland: "angeschlagen" is never defined)."""
    found = {(a, c) for a, cards in fate.TABLES.items() for c, card in cards.items()
             if card.not_built}  # fmt: skip
    assert found == NOT_BUILT
    gaps = {(a, c): card.gap for a, cards in fate.TABLES.items() for c, card in cards.items()
            if card.gap}  # fmt: skip
    assert gaps == UNKNOWN
    for army, cards in fate.TABLES.items():
        for name, card in cards.items():
            assert card.playable == ((army, name) not in NOT_BUILT and (army, name) not in UNKNOWN)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d["tables"]["france_1812_1815"]["cards"].pop(), "13 cards"),
        (lambda d: d["tables"]["france_1812_1815"]["cards"][1].update(effect="magic"), "effect"),
        (lambda d: d["tables"]["france_1812_1815"]["cards"][1].update(not_built="x"), "exactly"),
        (lambda d: d["tables"]["france_1812_1815"]["cards"][1].update(hooks=["NOW"]), "hooks"),
        (lambda d: d["tables"]["france_1812_1815"]["cards"][1].update(lines=[99999]), "lines"),
        (lambda d: d["tables"]["bavaria_1809_1815"]["cards"][11].update(gap="gap 16"), "gap"),
        (lambda d: d.update(format="vf-fate-tables/0"), "format"),
    ],
)
def test_the_reader_refuses_broken_tables(change: object, needle: str) -> None:
    import copy

    from games.core.bounded_yaml import parse_yaml, read_bounded

    doc = parse_yaml(read_bounded(fate.DATA))
    assert fate.read_tables(doc)[0] == fate.TABLES
    broken = copy.deepcopy(doc)
    change(broken)  # type: ignore[operator]
    with pytest.raises(ValueError, match=needle):
        fate.read_tables(broken)


# --- refusals when played ---


@pytest.mark.parametrize(("army", "card"), sorted(NOT_BUILT))
def test_cards_not_built_are_refused_with_vf222(army: str, card: str) -> None:
    game = army_game(army, (card,))
    entry: JSON = {"card": card}
    assert rules_of(game, "A", [entry]) == ["VF-222"]
    message = fate.entry_problems(game, "A", [entry], "/fate", None)[0].message
    assert "is not built" in str(message)


@pytest.mark.parametrize(("army", "card"), sorted(UNKNOWN))
def test_unknown_cards_are_refused_with_their_gap(army: str, card: str) -> None:
    game = army_game(army, (card,))
    assert rules_of(game, "A", [{"card": card, "unit": "U-A1"}]) == [UNKNOWN[(army, card)]]


def test_a_side_whose_list_has_no_table_is_refused() -> None:
    game = army_game("france_1812_1815", ("5",))
    game = m.with_side(game, replace(m.side_state(game, "A"), army_list="no_such_list"))
    assert rules_of(game, "A", [{"card": "5", "unit": "U-A1"}]) == ["VF-222"]


def test_timings_of_the_national_cards() -> None:
    """VF-37: a card only at its hook; a card with two timings takes the entry's phase."""
    game = army_game("prussia_saxony_1806", ("Q", "J"))
    q = fate.TABLES["prussia_saxony_1806"]["Q"]  # own shooting or any melee phase (L2043)
    assert fate.entry_hook(q, {"card": "Q"}, None) == fate.OWN_SHOOTING
    assert fate.entry_hook(q, {"card": "Q", "phase": "melee"}, None) == fate.ANY_MELEE
    assert fate.entry_hook(q, {"card": "Q"}, fate.ENEMY_MELEE) == fate.ANY_MELEE
    assert fate.entry_hook(q, {"card": "Q", "phase": "shooting"}, fate.ENEMY_MELEE) is None
    assert rules_of(game, "A", [{"card": "Q", "brigade": "BR-A1", "phase": "melee"}]) == []
    # J (Strenge Disziplin) is a standing instruction: on the sheet or at the turn's start
    assert rules_of(game, "A", [{"card": "J", "unit": "U-A1"}]) == []
    assert rules_of(game, "A", [{"card": "J", "unit": "U-A1"}], fate.ENEMY_TURN) == []
    assert rules_of(game, "A", [{"card": "J", "unit": "U-A1"}], fate.ENEMY_MELEE) == ["VF-37"]
    conf = army_game("acw_confederate", ("J",))  # Heimatstolz: only the own phases (L2352)
    assert rules_of(conf, "A", [{"card": "J", "brigade": "BR-A1"}], fate.ENEMY_MELEE) == ["VF-37"]
    russia = army_game("russia_1809_1814", ("J",))  # Kosakenüberfall names an enemy unit
    assert rules_of(russia, "A", [{"card": "J", "unit": "U-A1"}]) == ["VF-222"]
    assert rules_of(russia, "A", [{"card": "J", "unit": "U-B1"}]) == []


def test_windows_follow_the_list_never_the_hand() -> None:
    """V-01: the windows an army has come from its table: the ACW lists have no card of the
    enemy's melee phase; their standing 6 and 8 open the start-of-turn window."""
    for army, expected in [
        ("russia_1809_1814", [fate.ENEMY_TURN, fate.ENEMY_MELEE]),
        ("acw_union", [fate.ENEMY_TURN]),
        ("acw_confederate", [fate.ENEMY_TURN]),
        ("bavaria_1809_1815", [fate.ENEMY_TURN, fate.ENEMY_MELEE]),
    ]:
        assert fate.window_hooks(army_game(army, (), "B"), "B") == expected, army


@settings(max_examples=60, deadline=None)
@given(
    army=st.sampled_from(sorted(NATIONAL)),
    held=st.sets(st.sampled_from(CARDS)),
    card=st.sampled_from(CARDS),
    window=st.sampled_from([None, fate.ENEMY_TURN, fate.ENEMY_MELEE]),
)
def test_checks_never_accept_a_card_that_is_not_built(
    army: str, held: set[str], card: str, window: str | None
) -> None:
    """Whatever the hand and the window: the windows are the list's alone, and a card not
    built or unknown is always refused by its rule (VF-222 or its gap), never accepted."""
    game = army_game(army, tuple(sorted(held)), "B")
    assert fate.window_hooks(game, "B") == fate.window_hooks(army_game(army, (), "B"), "B")
    entry: JSON = {"card": card, "unit": "U-B1", "brigade": "BR-B1"}
    rules = rules_of(game, "B", [entry], window)
    spec = fate.TABLES[army][card]
    if card not in held:
        assert rules == ["VF-36"]
    elif not spec.playable:
        assert rules == [spec.gap or "VF-222"]


# --- the national cards' effects ---


def test_geduld_und_disziplin_passes_a_morale_test_and_adds_one() -> None:
    """J (Austria, L1337): a failed morale test of an Austrian unit counts as passed; then
    +1 on Austrian morale tests to the end of this turn (AMB-3)."""
    game = set_unit(army_game("austria_1809_1815", ("J",)), "U-A1", casualties=4)
    c = sheet_ctx(game, {"fate": [{"card": "J", "unit": "U-A1"}]}, dice=(2,))
    take_casualties(c, "U-A1", 1, shooting=False, winner=False)  # 1 die: 2 fails
    assert not c.game.unit("U-A1").fled
    assert discard(c) == ("J",)
    assert fate.morale_modifier(c, c.game.unit("U-A2")) == 1
    assert fate.morale_modifier(c, c.game.unit("U-B1")) == 0
    c.rng = ScriptedDice((3,))  # the next test: 3 + 1 = 4 passes
    c.game = set_unit(c.game, "U-A2", casualties=4)
    take_casualties(c, "U-A2", 1, shooting=False, winner=False)
    assert not c.game.unit("U-A2").fled
    fate.clear(c.flow, "turn")
    assert fate.morale_modifier(c, c.game.unit("U-A2")) == 0
    # not for a resolve test (8 is; J names a morale test only)
    assert not fate.inspiration(c, "A", "brigade", "BR-A1")


def test_battle_cry_of_freedom_and_strenge_disziplin_are_the_same_kind() -> None:
    """K (Union, L2539) and J (1806, L2042): the failed test passes; +1 to the round's tests.
    Without the card the unit flees (the die 2 fails)."""
    for army, card in (("acw_union", "K"), ("prussia_saxony_1806", "J")):
        game = set_unit(army_game(army, (card,)), "U-A1", casualties=4)
        c = sheet_ctx(game, {"fate": [{"card": card, "unit": "U-A1"}]}, dice=(2,))
        take_casualties(c, "U-A1", 1, shooting=False, winner=False)
        assert not c.game.unit("U-A1").fled
        assert discard(c) == (card,)
        c = sheet_ctx(game, {"fate": []}, dice=(2,))
        take_casualties(c, "U-A1", 1, shooting=False, winner=False)
        assert c.game.unit("U-A1").fled


def test_the_steadfast_card_ignores_a_contingent_unit() -> None:
    """AMB-32: an Austrian card for Austrian units only."""
    game = set_unit(army_game("austria_1809_1815", ("J",)), "U-A1", casualties=4)
    game = set_unit(game, "U-A1", army_list="allied_french_british")
    c = sheet_ctx(game, {"fate": [{"card": "J", "unit": "U-A1"}]}, dice=(2,))
    take_casualties(c, "U-A1", 1, shooting=False, winner=False)
    assert c.game.unit("U-A1").fled
    assert discard(c) == ()


@pytest.mark.parametrize(
    ("army", "card", "brigade", "plus", "none"),
    [
        ("austria_1809_1815", "Q", "BR-A3", ("U-A8", "U-A9"), ("U-A1",)),  # cavalry, L1338
        ("austria_1809_1815", "K", "BR-A1", ("U-A1", "U-A3"), ("U-A4", "U-A8")),  # infantry
        ("prussia_1812_1815", "K", "BR-A1", ("U-A1", "U-A4"), ("U-A5",)),  # all, L1513
        ("prussia_saxony_1806", "K", "BR-A2", ("U-A5", "U-A7"), ("U-A1",)),  # all, L2044
        ("allied_french_british", "Q", "BR-A2", ("U-A6",), ("U-A9",)),  # all, L784
    ],
)
def test_brigade_melee_cards(
    army: str, card: str, brigade: str, plus: tuple[str, ...], none: tuple[str, ...]
) -> None:
    c = sheet_ctx(army_game(army, (card,)), {"fate": []})
    fate.play(c, "A", {"card": card, "brigade": brigade})
    for u in plus:
        assert fate.melee_bonus(c, c.game.unit(u)) == 1, u
    for u in none:
        assert fate.melee_bonus(c, c.game.unit(u)) == 0, u
    turn.STEPS["phase"](c, {"do": "phase", "to": "MELEE"})  # "for the rest of the phase"
    assert fate.melee_bonus(c, c.game.unit(plus[0])) == 0


def test_gut_bewaffnet_und_beritten_all_bavarian_cavalry() -> None:
    """Q (Bavaria, L2178): every Bavarian cavalry unit +1 melee this phase, no choice."""
    c = sheet_ctx(army_game("bavaria_1809_1815", ("Q",)), {"fate": []})
    fate.play(c, "A", {"card": "Q"})
    assert [fate.melee_bonus(c, c.game.unit(u)) for u in ("U-A8", "U-A9", "U-A1")] == [1, 1, 0]
    assert fate.melee_bonus(c, c.game.unit("U-B8")) == 0  # the enemy's cavalry


def test_rebel_yell_the_units_ordered_to_charge() -> None:
    """K (Confederates, L2354): +1 melee for the brigade's units given a Charge this turn."""
    sheet: dict[str, JSON] = {
        "fate": [],
        "units": {"U-A1": {"action": "CHARGE", "target": "U-B1", "path": [[16, 20]]},
                  "U-A2": {"action": "MOVE", "path": [[28, 20]]}},
    }  # fmt: skip
    c = sheet_ctx(army_game("acw_confederate", ("K",)), sheet)
    fate.play(c, "A", {"card": "K", "brigade": "BR-A1"})
    assert [fate.melee_bonus(c, c.game.unit(u)) for u in ("U-A1", "U-A2")] == [1, 0]


def test_kavallerie_zu_fuss_after_activation() -> None:
    """Q (Confederates, L2353): after the brigade activates, +6 in this phase."""
    game = army_game("acw_confederate", ("Q",))
    c = sheet_ctx(game, {"fate": [{"card": "Q", "brigade": "BR-A1"}]})
    turn.STEPS["brigade"](c, {"do": "brigade", "id": "BR-A1"})  # automatic activation
    assert fate.move_bonus(c, c.game.unit("U-A1")) == 6
    assert fate.move_bonus(c, c.game.unit("U-A5")) == 0


def test_standhaftigkeit_one_morale_for_the_game() -> None:
    """Q (Russia, L1693): a Russian unit +1 morale for the rest of the game."""
    c = sheet_ctx(army_game("russia_1809_1814", ("Q",)), {"fate": []})
    fate.play(c, "A", {"card": "Q", "unit": "U-A6"})
    assert c.game.unit("U-A6").stats.morale == 4
    fate.clear(c.flow, "turn")
    assert c.game.unit("U-A6").stats.morale == 4


def test_kosakenueberfall_one_casualty_near_an_edge() -> None:
    """J (Russia, L1692): an enemy unit within 18 in of a table edge suffers a casualty; at
    its morale value the casualty is a morale test (VF-102: 1 die, 5 passes)."""
    game = army_game("russia_1809_1814", ("J",))
    for casualties, dice, fled in ((0, (), False), (4, (5,), False), (4, (3,), True)):
        c = sheet_ctx(set_unit(game, "U-B1", casualties=casualties), {"fate": []}, dice=dice)
        card: dict[str, JSON] = {"do": "fate", "side": "A", "entry": {"card": "J", "unit": "U-B1"}}
        c.flow["queue"] = [card, {"do": "end_turn"}]
        turn.STEPS["fate"](c, card)  # U-B1 is 13 in from the north edge
        assert discard(c) == ("J",)
        queue = c.flow["queue"]
        assert isinstance(queue, list)
        step = queue[1]
        assert step == {"do": "fate_casualty", "unit": "U-B1"}
        turn.STEPS["fate_casualty"](c, step)
        assert c.game.unit("U-B1").casualties == min(4, casualties + 1)
        assert c.game.unit("U-B1").fled is fled
    # in the middle of the table: more than 18 in from every edge; the card stays
    far = c.game.unit("U-B5")
    dy = 30 - far.bases[0].y
    moved = tuple(replace(b, y=b.y + dy, x=b.x - 14) for b in far.bases)
    game = set_unit(game, "U-B5", bases=moved)
    assert fate.near_edge(game, game.unit("U-B5"), 18.0).value is False
    c = sheet_ctx(game, {"fate": []})
    with pytest.raises(Skip, match="more than 18 in"):
        fate.play(c, "A", {"card": "J", "unit": "U-B5"})


def test_nothardt_gewehr_rerolls_ones() -> None:
    """Q (1806, L2043): the brigade's hit rolls of 1 are rerolled this phase (VF-3: once).
    Dice 1 3 5, the 1 rerolled to 6: 2 hits; without the card 1 hit."""
    c = sheet_ctx(army_game("prussia_saxony_1806", ("Q",)), {"fate": []}, dice=(1, 3, 5, 6))
    fate.play(c, "A", {"card": "Q", "brigade": "BR-A1", "phase": "melee"})
    assert fate.hit_tests(c, c.game.unit("U-A1"), 3, 0, False) == ([6, 3, 5], 2)
    c.rng = ScriptedDice((1, 3, 5))
    assert fate.hit_tests(c, c.game.unit("U-A5"), 3, 0, False) == ([1, 3, 5], 1)


def test_heimatstolz_in_the_shooting_phase() -> None:
    """J (Confederates, L2352): own shooting or melee phase; the named brigade rerolls 1s."""
    game = army_game("acw_confederate", ("J",))
    c = sheet_ctx(game, {"fate": [{"card": "J", "brigade": "BR-A2"}]}, dice=(1, 1, 4, 2))
    step = fate.steps_for(c.flow["sheet"], game, "A", fate.OWN_SHOOTING)  # type: ignore[arg-type]
    assert len(step) == 1
    turn.STEPS["fate"](c, step[0])  # type: ignore[arg-type]
    assert fate.hit_tests(c, c.game.unit("U-A5"), 2, 0, False) == ([4, 2], 1)


def test_artillerieexperte_only_for_an_all_artillery_shot() -> None:
    """Q (Union, L2538): in the shooting phase, 1s rerolled when the firer and all its
    supporters are artillery."""
    shots: list[JSON] = [
        {"target": "U-B4", "firer": "U-A4"},
        {"target": "U-B1", "firer": "U-A4", "supporters": ["U-A1"]},
    ]
    sheet: dict[str, JSON] = {"fate": [], "shooting": shots}
    game = army_game("acw_union", ("Q",))
    game = replace(game, turn=replace(game.turn, phase=Phase.SHOOTING))
    c = sheet_ctx(game, sheet, dice=(1, 4, 5))
    fate.play(c, "A", {"card": "Q"})
    c.flow["shot"] = 0
    assert fate.hit_tests(c, c.game.unit("U-A4"), 2, 0, False) == ([5, 4], 2)
    c.flow["shot"] = 1
    c.rng = ScriptedDice((1, 4))
    assert fate.hit_tests(c, c.game.unit("U-A4"), 2, 0, False) == ([1, 4], 1)


def test_verheerendes_feuer_is_the_named_shot() -> None:
    """7 (ACW, L2348): +1 ranged for the units attacking the target; only the firer's ranged
    value makes dice (a supporter adds its die, VF-90), so the firer of the named shot."""
    c = sheet_ctx(army_game("acw_confederate", ("7",)), {"fate": []})
    fate.play(c, "A", {"card": "7", "shot": 0})
    assert fate.ranged_bonus(c, c.game.unit("U-A1"), 0) == 1
    assert fate.ranged_bonus(c, c.game.unit("U-A1"), 1) == 0


# --- card 9: Überraschungsangriff ---


CHARGE: dict[str, JSON] = {"action": "CHARGE", "target": "U-B5", "path": [["62.82", 40]]}
MOVE_FACTS: dict[str, JSON] = {
    "cost": "6", "clear": True, "place": ["0", "6"], "start": False, "keep": True,
}  # fmt: skip


def surprise_ctx(dice: tuple[int, ...] = (), facts: dict[str, JSON] | None = None) -> Ctx:
    game = with_hand(army_game("france_1812_1815", ()), "A", ("9",))
    sheet: dict[str, JSON] = {
        "fate": [{"card": "9", "unit": "U-A5", "path": [["62.82", "20.785"]]}],
        "units": {"U-A5": CHARGE},
    }
    c = sheet_ctx(game, sheet, dice)
    given_facts(c, {"messenger": True, **MOVE_FACTS, **(facts or {})})
    return c


def test_ueberraschungsangriff_moves_before_the_charge() -> None:
    """9 (L978): before the unit's charge, its extra Move (the umpire's facts, V-06), then the
    charge from where it ended (stage "move": no second messenger test)."""
    c = surprise_ctx()
    follow = turn.STEPS["unit"](c, {"do": "unit", "unit": "U-A5"})
    assert [s["do"] for s in follow] == ["fate_move"]
    y0 = c.game.unit("U-A5").bases[0].y
    after = turn.STEPS["fate_move"](c, follow[0])
    assert after == [{"do": "unit", "unit": "U-A5", "stage": "move"}]
    assert c.game.unit("U-A5").bases[0].y == y0 + 6
    assert discard(c) == ("9",)
    assert [p["hook"] for p in _plays(c)] == [fate.BEFORE_CHARGE]


def test_ueberraschungsangriff_only_before_a_charge() -> None:
    c = surprise_ctx()
    sheet = c.flow["sheet"]
    assert isinstance(sheet, dict)
    sheet["units"] = {"U-A5": {"action": "MOVE", "path": [["62.82", 20]]}}
    assert fate.surprise(c, "U-A5") is None


def test_ueberraschungsangriff_after_a_failed_messenger_test() -> None:
    """VF-55: more than 12 in from its BG, the messenger test comes first; 3 fails: no action,
    no extra Move, the card stays in the hand."""
    c = surprise_ctx(dice=(3,), facts={"messenger": False})
    step = fate.surprise(c, "U-A5")
    assert step is not None
    assert turn.STEPS["fate_move"](c, step[0]) == []  # type: ignore[arg-type]
    assert c.game.unit("U-A5").turn_flags.action == "STAND"
    assert m.side_state(c.game, "A").fate.hand == ("9",)


def test_ueberraschungsangriff_too_long_is_skipped_and_the_charge_follows() -> None:
    """VF-57: attack column's allowance is 12 in: a 13 in path is skipped and logged, the card
    stays, the charge follows as ordered."""
    c = surprise_ctx(facts={"cost": "13"})
    step = fate.surprise(c, "U-A5")
    assert step is not None
    assert turn.STEPS["fate_move"](c, step[0]) == [  # type: ignore[arg-type]
        {"do": "unit", "unit": "U-A5", "stage": "move"}
    ]
    assert m.side_state(c.game, "A").fate.hand == ("9",)
    assert any("Skipped (VF-57)" in str(e.text) for e in c.log)
    c = surprise_ctx(facts={"keep": False})
    step = fate.surprise(c, "U-A5")
    assert step is not None
    turn.STEPS["fate_move"](c, step[0])  # type: ignore[arg-type]
    assert any("Skipped (VF-58)" in str(e.text) for e in c.log)


@pytest.mark.parametrize(
    "entry",
    [
        {"card": "9", "unit": "U-A5", "path": [[1]]},
        {"card": "9", "unit": "U-A5", "path": [1, 2]},
        {"card": "4", "brigade": "BR-A1", "moves": [{"unit": "U-A1"}]},
        {"card": "4", "brigade": "BR-A1", "moves": "U-A1"},
        {"card": "Q", "brigade": "BR-A1", "phase": "command"},
    ],
)
def test_malformed_moves_are_refused_by_form(entry: JSON) -> None:
    """The sheet's schema leaves fate entries to fate.py: a path, moves or phase out of form
    is refused ("schema"), never read."""
    game = with_hand(army_game("prussia_saxony_1806", ()), "A", ("4", "9", "Q"))
    assert rules_of(game, "A", [entry]) == ["schema"]


def test_ueberraschungsangriff_entries_are_checked() -> None:
    game = with_hand(army_game("france_1812_1815", ()), "A", ("9",))
    assert rules_of(game, "A", [{"card": "9", "unit": "U-A5"}]) == ["VF-222"]  # no path
    assert rules_of(game, "A", [{"card": "9", "unit": "U-A5", "path": [[1, 2]]}]) == []
    assert rules_of(game, "A", [{"card": "9", "unit": "U-A5", "path": [[1, 2]]}],
                    fate.ENEMY_MELEE) == ["VF-37"]  # fmt: skip


# --- card 4: Durchbruch ---


def durchbruch_ctx(facts: dict[str, JSON] | None = None) -> tuple[Ctx, dict[str, JSON]]:
    game = with_hand(army_game("france_1812_1815", ()), "A", ("4",))
    entry: dict[str, JSON] = {
        "card": "4",
        "brigade": "BR-A1",
        "moves": [
            {"unit": "U-A1", "path": [["16.46", 20]]},
            {"unit": "U-A2", "path": [["28.46", 20]]},
        ],
    }
    c = sheet_ctx(game, {"fate": [entry]})
    given_facts(c, {**MOVE_FACTS, **(facts or {})})
    return c, entry


def test_durchbruch_queues_one_move_per_unit() -> None:
    """4 (L973): at the end of the melee phase, after its resolve tests, each named unit of
    the own brigade makes one single Move (AMB-44: no activation or messenger test)."""
    c, _entry = durchbruch_ctx()
    steps = turn.queue_of(c.flow["sheet"], c.game)  # type: ignore[arg-type]
    dos = [s["do"] for s in steps]
    at = dos.index("fate")
    assert steps[at - 1] == {"do": "resolve", "phase": "MELEE"}
    assert dos[at + 1] == "end_turn"
    c.flow["queue"] = [steps[at], {"do": "end_turn"}]
    turn.STEPS["fate"](c, steps[at])
    queue = c.flow["queue"]
    assert isinstance(queue, list)
    found = [(s["do"], s.get("unit")) for s in queue if isinstance(s, dict)]
    assert found == [
        ("fate", None), ("fate_move", "U-A1"), ("fate_move", "U-A2"), ("end_turn", None)
    ]  # fmt: skip
    assert discard(c) == ("4",)
    y0 = c.game.unit("U-A1").bases[0].y
    assert turn.STEPS["fate_move"](c, queue[1]) == []  # type: ignore[arg-type]
    assert c.game.unit("U-A1").bases[0].y == y0 + 6
    assert not any(e.data for e in c.log if isinstance(e.data, dict) and "roll" in e.data)


def test_durchbruch_a_move_too_long_is_skipped() -> None:
    """VF-57: line infantry moves 8 in; a single Move, never doubled (the card's text)."""
    c, _ = durchbruch_ctx({"cost": "8.5"})
    with pytest.raises(Skip, match="allowance is 8"):
        turn.STEPS["fate_move"](c, {"do": "fate_move", "side": "A", "card": "4", "unit": "U-A1",
                                    "path": [["16.46", 20]]})  # fmt: skip


def test_durchbruch_entries_are_checked() -> None:
    """AMB-44: an own brigade; its own units, each once; not in the enemy's melee phase (no
    window is opened at its end: VF-37)."""
    game = with_hand(army_game("france_1812_1815", ()), "A", ("4",))
    mv: JSON = {"unit": "U-A5", "path": [[1, 2]]}
    assert rules_of(game, "A", [{"card": "4", "brigade": "BR-A1", "moves": [mv]}]) == ["VF-222"]
    assert rules_of(game, "A", [{"card": "4", "brigade": "BR-B1", "moves": []}]) == [
        "VF-222", "VF-222",
    ]  # fmt: skip
    ok: JSON = {"card": "4", "brigade": "BR-A2", "moves": [mv]}
    assert rules_of(game, "A", [ok]) == []
    assert rules_of(game, "A", [ok], fate.ENEMY_MELEE) == ["VF-37"]
    twice: JSON = {"card": "4", "brigade": "BR-A2", "moves": [mv, mv]}
    assert rules_of(game, "A", [twice]) == ["VF-222"]


def test_the_acw_durchbruch_at_the_end_of_the_own_melee_phase() -> None:
    """4 (Confederates L2345, Union L2530): played by the sheet at the same place, after the
    melee phase's resolve tests."""
    for army in ("acw_confederate", "acw_union"):
        game = with_hand(army_game(army, ()), "A", ("4",))
        moves: list[JSON] = [{"unit": "U-A1", "path": [[16, 20]]}]
        entry: JSON = {"card": "4", "brigade": "BR-A1", "moves": moves}
        assert rules_of(game, "A", [entry]) == []
        assert len(fate.steps_for({"fate": [entry]}, game, "A", fate.END_MELEE)) == 1


def test_a_whole_turn_with_durchbruch_and_ueberraschungsangriff() -> None:
    """Through the Ruleset (auto_geometry): the sheet's 9 before U-A5's charge and 4 at the
    end of the melee phase, each logged with its hook (VF-223)."""
    match = starter(auto_geometry=True)
    init = match.flow["initiative"]
    assert isinstance(init, dict)
    match = RULESET.apply(
        match, Action(str(init["decider"]), "choose_first_side", {"side": "A"}), Rng(1)
    ).state
    match = m.Match(with_hand(match.game, "A", ("4", "9")), match.flow)
    match = RULESET.apply(match, Action("B", "play_fate", {"plays": []}), Rng(2)).state
    a1 = match.game.unit("U-A1").bases[0]
    sheet: JSON = {
        "brigade_order": ["BR-A2"],
        "units": {"U-A5": {"action": "CHARGE", "target": "U-B5", "path": [["62.82", 25]]}},
        "fate": [
            {"card": "9", "unit": "U-A5", "path": [["62.82", 18]]},
            {"card": "4", "brigade": "BR-A1",
             "moves": [{"unit": "U-A1", "path": [[str(a1.x), 16]]}]},
        ],
    }  # fmt: skip
    assert not RULESET.validate(match, Action("A", "turn_orders", sheet))
    step = RULESET.apply(match, Action("A", "turn_orders", sheet), Rng(3))
    log = list(step.log)
    assert fate.window(step.state.flow) == {"side": "B", "hook": fate.ENEMY_MELEE}
    step = RULESET.apply(step.state, Action("B", "play_fate", {"plays": []}), Rng(4))
    log += step.log
    plays = [e.data["fate_play"] for e in log if isinstance(e.data, dict)
             and "fate_play" in e.data]  # fmt: skip
    assert [(p["card"], p["hook"]) for p in plays if isinstance(p, dict)] == [
        ("9", fate.BEFORE_CHARGE), ("4", fate.END_MELEE)
    ]  # fmt: skip
    game = step.state.game
    assert game.unit("U-A1").bases[0].y > a1.y
    assert m.side_state(game, "A").fate.discard == ("9", "4")


def _plays(c: Ctx) -> list[dict[str, JSON]]:
    return [e.data["fate_play"] for e in c.log  # type: ignore[misc]
            if isinstance(e.data, dict) and "fate_play" in e.data]  # fmt: skip


@pytest.mark.parametrize("army", sorted(NATIONAL))
def test_random_play_with_every_armys_table(army: str) -> None:
    """Both sides field `army` (its table, its windows): random play, every action valid,
    reaches a result in two turns each."""
    match = starter(turn_limit=2)
    game = as_army(as_army(match.game, "A", army), "B", army)
    end, log = play_to_end(m.Match(game, match.flow), 1)
    assert end.flow.get("result")
    assert any(a.kind == "turn_orders" for a in log)
