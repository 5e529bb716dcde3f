"""One focused test per digest rule id that no other test names (digest sections 3.x and
Addendum A). Each docstring starts with the rule id(s) it covers; exact values are asserted."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator

import pytest
import yaml

from games.core.protocol import JSON, OBSERVER, Action, GameConfig, LogEntry
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import DATA_DIR, board_named, parse_board
from games.napoleons_triumph.context import unit_alias
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.invariants import violations
from games.napoleons_triumph.pieces import is_heavy_cav
from games.napoleons_triumph.random_setup import draw_setup as _setup
from games.napoleons_triumph.state import GameState, Unit
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    Spec,
    Table,
    fragment,
    pair,
    position,
)

X, Y, Z1, Z2, W = 1, 2, 3, 4, 5


def new_game(scenario: str = "DEC2", **options: JSON) -> GameState:
    return RULESET.setup(GameConfig(scenario, {"board": "austerlitz", **options}), Rng(1))


def view_of(state: GameState, role: str) -> dict[str, JSON]:
    v = RULESET.view(state, role)
    assert isinstance(v, dict)
    return v


def dicts(value: JSON) -> list[dict[str, JSON]]:
    assert isinstance(value, list)
    out = [x for x in value if isinstance(x, dict)]
    assert len(out) == len(value)
    return out


def entry_of(view: dict[str, JSON], key: str, uid: str) -> dict[str, JSON]:
    return next(u for u in dicts(view[key]) if u["id"] == uid)


def after_allied_setup(scenario: str = "DEC2") -> Table:
    state = new_game(scenario)
    ctx = RULESET.ctx(state)
    for seed in range(40):
        payload = _setup(ctx, "AL", Rng(seed))
        if not RULESET.validate(state, Action("allied", "allied_setup", payload)):
            t = Table(state)
            t.play("AL", "allied_setup", payload)
            return t
    raise AssertionError("no legal Allied set-up found")


def random_game(seed: int) -> Iterator[tuple[GameState, tuple[LogEntry, ...]]]:
    """A whole random game on the reconstructed board: each state with the log of its step."""
    state = new_game()
    rng = Rng(seed)
    yield state, ()
    for _ in range(3000):
        prompts = RULESET.prompts(state)
        if not prompts:
            return
        role = sorted(prompts)[0]
        action = RULESET.random_action(state, role, rng)
        assert action is not None
        step = RULESET.apply(state, action, Rng(0))
        state = step.state
        yield state, tuple(step.log)
    raise AssertionError("the random game did not end")


# ----------------------------------------------------------------------------- 3.1 pieces


def test_nt1_nt2_nt3_nt6_sides_pieces_and_faces() -> None:
    """NT-1, NT-2, NT-3, NT-6: two sides (French, Allied) and two players; commanders (named)
    and units; four unit types with strengths (ART 1, GUARD 3, INF/CAV 1-3, heavy cav = CAV3);
    the armies come from the board's army displays, not from the box's component counts."""
    roles = RULESET.roles("DEC2", {"board": "austerlitz"})
    assert sorted((r.id, r.name, r.team) for r in roles) == [
        ("allied", "Allied army", "AL"), ("french", "French army", "F")]  # fmt: skip
    state = new_game()
    assert state.roles == {"allied": "AL", "french": "F"}
    view = view_of(state, "french")
    assert view["order_of_battle"] == {
        "AL": {"ART1": 4, "CAV1": 3, "CAV2": 6, "CAV3": 2, "GUARD3": 3, "INF1": 2, "INF2": 19,
               "INF3": 5},
        "F": {"ART1": 3, "CAV2": 5, "CAV3": 3, "GUARD3": 2, "INF2": 16, "INF3": 7},
    }  # fmt: skip
    commanders = dicts(view["commanders"])
    assert Counter(str(c["side"]) for c in commanders) == {"F": 8, "AL": 9}
    assert {"davout", "bernadotte", "kienmayer", "bagration"} <= {c["id"] for c in commanders}
    units = list(state.units.values())
    assert Counter(u.side for u in units) == {"F": 36, "AL": 44}
    assert {u.type for u in units} == {"INF", "GUARD", "CAV", "ART"}
    for u in units:
        allowed = {"ART": {1}, "GUARD": {3}, "INF": {1, 2, 3}, "CAV": {1, 2, 3}}[u.type]
        assert u.strength in allowed, u
    # NT-6: 80 units and 17 commanders on this board (the box has 140 blocks, 18 commanders);
    # another board's army display gives another army.
    assert len(units) <= 140
    assert len(state.commanders) == 17 <= 18
    fragment_board = pair("nt6")
    small = RULESET.setup(GameConfig("T", {"board": fragment_board.name}), Rng(1))
    assert sorted((u.id, u.side, u.type, u.strength) for u in small.units.values()) == [
        ("A01", "AL", "INF", 2),
        ("F01", "F", "INF", 2),
    ]


def test_nt4_only_the_owner_sees_faces() -> None:
    """NT-4: the owner sees his units' faces, the opponent sees an alias and no face; a unit is
    shown only when a rule requires it (here: a Guard shown for a Guard attack, NT-124);
    commander names are always readable."""
    board = pair("nt4")
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "F u1 INF2 @X.R [soult]",
                               "AL a1 INF2 @Y.R [kutuzov]"]))  # fmt: skip
    own = view_of(t.state, "french")
    assert entry_of(own, "units", "g1")["face"] == {"type": "GUARD", "strength": 3}
    enemy = view_of(t.state, "allied")
    g1_alias = t.alias("AL", "g1")
    assert g1_alias != "g1"
    assert entry_of(enemy, "enemy_units", g1_alias)["face"] is None
    assert all(u["id"] not in ("g1", "u1") for u in dicts(enemy["enemy_units"]))
    names = {c["id"] for c in dicts(enemy["commanders"])}
    assert {"soult", "kutuzov"} <= names
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY", "guard_attack": True,
                             "show_guard": "g1"})  # fmt: skip
    enemy = view_of(t.state, "allied")
    assert entry_of(enemy, "enemy_units", g1_alias)["face"] == {"type": "GUARD", "strength": 3}
    assert entry_of(enemy, "enemy_units", t.alias("AL", "u1"))["face"] is None


# ----------------------------------------------------------------------------- 3.2 the board


def test_nt7_locales_approaches_and_reserve() -> None:
    """NT-7: the map is locales; each approach is the edge between two locales; a piece stands in
    a locale's reserve (approach None) or at one of its approaches."""
    board = pair("nt7")
    assert sorted(board.locales) == [1, 2, 3, 4, 5, 6]
    assert board.approaches_of(Y) == ("XY", "YZ1", "YZ2")
    assert board.approaches_of(X) == ("XW", "XY")
    assert (board.approaches["XY"].a, board.approaches["XY"].b) == (X, Y)
    assert board.other_locale("XY", X) == Y
    t = Table(position(board, ["F u1 INF2 @X.R [-]", "F u2 INF2 @X.XY [-]"]))
    v = view_of(t.state, "french")
    assert entry_of(v, "units", "u1")["position"] == {"locale": X, "approach": None}
    assert entry_of(v, "units", "u2")["position"] == {"locale": X, "approach": "XY"}
    real = board_named("austerlitz")
    for app in real.approaches.values():
        assert app.a != app.b
        assert app.id in real.approaches_of(app.a)
        assert app.id in real.approaches_of(app.b)


def test_nt8_width_and_whole_locale_capacity() -> None:
    """NT-8: an approach is narrow (1) or wide (2); width limits leading units (NT-79) but not
    how many units block it: capacity is for the whole locale (NT-10)."""
    board = pair("nt8", specs={"YZ1": Spec(wide=True)}, capacity={"X": 3})
    assert board.side("XY", X).width == 1
    assert board.side("YZ1", Y).width == 2
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F u2 INF2 @X.XY [-]", "F u3 INF2 @X.R [-]",
                               "F u4 INF2 @W.R [-]", "AL a1 INF3 @Y.R [-]"]))  # fmt: skip
    t.play("F", "unit_move", {"unit": "u3", "to": {"locale": X, "approach": "XY"}})
    assert [t.unit(u).app for u in ("u1", "u2", "u3")] == ["XY", "XY", "XY"]
    assert t.refuse("F", "unit_move", {"unit": "u4", "to": {"locale": X, "approach": None}}
                    ).rule == "NT-10"  # fmt: skip
    t.play("F", "end_turn")
    t.play("AL", "threaten", {"attack_locale": Y, "approach": "XY"})
    assert t.refuse("F", "defend", {"named": ["u1", "u2", "u3"], "leading": ["u1", "u2"]}
                    ).rule == "NT-79"  # fmt: skip
    t.play("F", "defend", {"named": ["u1", "u2", "u3"], "leading": ["u1"]})


def test_nt9_symbols_penalise_attacks_into_the_locale_only() -> None:
    """NT-9: an `I` printed inside Y at XY costs 1 when infantry attacks Y across XY, nothing
    when infantry attacks out of Y across XY; symbols have no effect on movement (AMB-7)."""
    specs = {"XY": Spec(sides={"Y": {"penalties": ["I"], "obstructed": True}})}
    into = Table(position(pair("nt9a", specs=specs),
                          ["F u1 INF3 @X.R [-]", "AL a1 INF1 @Y.XY [-]"]))  # fmt: skip
    into.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    into.play("AL", "defend", {"named": ["a1"], "leading": []})
    into.play("F", "no_feint")
    into.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                      "leading": ["u1"]})  # fmt: skip
    assert into.state.attack is not None
    assert into.state.attack.prelim == 1  # 3 - 1 (defender blocks) - 1 (I inside Y)
    out = Table(
        position(
            pair("nt9b", specs=specs), ["AL b1 INF3 @Y.R [-]", "F f1 INF1 @X.XY [-]"], active="AL"
        )
    )
    out.play("AL", "threaten", {"attack_locale": Y, "approach": "XY"})
    out.play("F", "defend", {"named": ["f1"], "leading": []})
    out.play("AL", "no_feint")
    out.play("AL", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "b1"}],
                                      "leading": ["b1"]})  # fmt: skip
    assert out.state.attack is not None
    assert out.state.attack.prelim == 2  # 3 - 1 (defender blocks); no penalty out of Y
    move = Table(position(pair("nt9c", specs=specs), ["F u1 INF3 @X.XY [-]"]))
    move.play("F", "unit_move", {"unit": "u1", "to": {"locale": Y, "approach": None}})
    assert (move.unit("u1").loc, move.unit("u1").app) == (Y, None)


def test_nt11_hill_matters_only_for_consecutive_artillery_attacks() -> None:
    """NT-11: a hill is board data; its one effect is the exception of NT-84: from a hill into a
    non-hill locale artillery may attack across the same approach in consecutive turns."""
    real = board_named("austerlitz")
    assert sorted(loc.id for loc in real.locales.values() if loc.hill) == [
        2, 6, 7, 26, 27, 38, 41, 43]  # fmt: skip
    results: dict[bool, str] = {}
    for hill in (False, True):
        board = pair(f"nt11_{hill}", hills=["X"] if hill else [])
        state = position(board, ["F a1 ART1 @X.XY [-]", "AL y1 INF2 @Y.R [-]"], round_=2)
        state.last_artillery = {"F|XY|1": 1}  # F's artillery attacked across XY last round
        t = Table(state)
        t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
        t.play("AL", "defend", {"named": ["y1"], "leading": ["y1"]})
        t.play("F", "no_feint")
        declare: JSON = {"commands": [{"kind": "unit_move", "unit": "a1"}], "leading": ["a1"]}
        if not hill:
            results[hill] = t.refuse("F", "declare_attack", declare).rule
            continue
        t.play("F", "declare_attack", declare)
        results[hill] = t.face("y1")
        assert t.state.morale == {"F": 23, "AL": 26}
        assert t.state.last_artillery == {"F|XY|1": 2}
    assert results == {False: "NT-84", True: "INF1"}


def test_nt12_setup_locales_objectives_entry_areas() -> None:
    """NT-12: set-up locales labelled with a commander (the Allied corps are placed there),
    objectives (stars of one or more colours) and entry areas by colour are board data."""
    board = board_named("austerlitz")
    assert board.commanders["kienmayer"].setup_locale == 46
    assert "kienmayer" in board.locales[46].setup
    assert board.locales[35].stars == frozenset({"black", "green", "red"})
    assert board.locales[1].stars == frozenset({"blue"})
    assert [(e.id, e.main) for e in board.entries if e.side == "F"] == [
        ("EF1", True),
        ("EF2", False),
        ("EF3", False),
        ("EF4", False),
        ("EF5", False),
    ]
    assert [(e.id, e.main) for e in board.entries if e.side == "AL"] == [
        ("EA1", True), ("EA2", True), ("EA3", False), ("EA4", False)]  # fmt: skip
    t = after_allied_setup()
    for c in t.state.commanders.values():
        if c.side == "AL":
            assert c.where == "map"
            assert c.loc == board.commanders[c.id].setup_locale
            assert c.loc is not None
            assert c.id in board.locales[c.loc].setup


def test_nt13_one_position_and_same_position() -> None:
    """NT-13: a piece blocks one approach or is in reserve; pieces are in the same position only
    if in the same locale and both in reserve or both blocking the same approach (NT-41 Attach
    needs the same position); a blocking piece cannot switch to another approach (NT-49)."""
    board = pair("nt13")
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F s1 INF2 @X.R [soult]",
                               "F u2 INF2 @X.XY [-]"]))  # fmt: skip
    assert t.refuse("F", "attach", {"commander": "soult", "unit": "u1"}).rule == "NT-41"
    assert t.refuse("F", "unit_move", {"unit": "u2", "to": {"locale": X, "approach": "XW"}}
                    ).rule == "NT-49"  # fmt: skip
    t.play("F", "unit_move", {"unit": "u1", "to": {"locale": X, "approach": None}})
    t.play("F", "attach", {"commander": "soult", "unit": "u1"})
    assert t.unit("u1").corps == "soult"
    assert [(t.unit(u).loc, t.unit(u).app) for u in ("u1", "s1", "u2")] == [
        (X, None), (X, None), (X, "XY")]  # fmt: skip


def test_nt15_terrain_is_decoration_roads_are_not() -> None:
    """NT-15: terrain (villages, woods, hills drawn on the map) is decoration: a board whose every
    locale is re-labelled "open" is the same board. Roads do matter: by local road a piece
    enters 2 locales in one move, without a road only 1 (NT-51)."""
    doc = yaml.safe_load((DATA_DIR / "austerlitz.yaml").read_text(encoding="utf-8"))
    assert {"village", "open", "hill"} <= {loc["terrain"] for loc in doc["locales"]}
    for loc in doc["locales"]:
        loc["terrain"] = "open"
    flat = parse_board(doc, "nt15-open")
    real = board_named("austerlitz")
    assert dict(flat.locales) == dict(real.locales)
    assert dict(flat.approaches) == dict(real.approaches)
    board = pair("nt15", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)])
    t = Table(position(board, ["F u1 INF2 @W.R [-]", "F u2 INF2 @W.R [-]"]))
    assert t.refuse("F", "unit_move", {"unit": "u2", "to": {"locale": Y, "approach": None}}
                    ).rule == "NT-48"  # fmt: skip
    t.play("F", "unit_move", {"unit": "u1", "road": True, "path": [X, Y]})
    assert t.unit("u1").loc == Y


# ----------------------------------------------------------------------------- 3.3 scenarios


def test_nt16_nt17_nt18_scenarios_rounds_and_night() -> None:
    """NT-16, NT-17, NT-18: two scenarios; DEC2 = 10 rounds 7:00-16:00 on 2 December, no night;
    DEC1 = 10 day rounds on 1 December, one night round (round 11), 10 on 2 December; the
    view shows the round; an unknown scenario is refused."""
    board = board_named("austerlitz")
    assert RULESET.scenarios() == ("DEC2", "DEC1")
    dec2 = board.scenarios["DEC2"]
    assert dec2.allied_start == "all_corps_on_board"
    assert [(r.day, r.hour, r.night) for r in dec2.rounds] == [(2, h, False) for h in range(7, 17)]
    dec1 = board.scenarios["DEC1"]
    assert dec1.allied_start == "two_corps_chosen_by_allied_player"
    assert len(dec1.rounds) == 21
    assert [r.index for r in dec1.rounds if r.night] == [11]
    assert [(r.day, r.hour) for r in dec1.rounds[:10]] == [(1, h) for h in range(7, 17)]
    assert (dec1.rounds[10].day, dec1.rounds[10].hour) == (1, None)
    assert [(r.day, r.hour) for r in dec1.rounds[11:]] == [(2, h) for h in range(7, 17)]
    assert view_of(new_game(), "french")["round"] == {
        "index": 1, "of": 10, "day": 2, "hour": 7, "night": False}  # fmt: skip
    night = new_game("DEC1")
    night.round = 11
    assert view_of(night, "allied")["round"] == {
        "index": 11, "of": 21, "day": 1, "hour": None, "night": True}  # fmt: skip
    with pytest.raises(Illegal) as err:
        new_game("DEC3")
    assert err.value.rejection.rule == "NT-16"


def test_nt20_order_of_battle_is_public() -> None:
    """NT-20: each side's starting order of battle is public (face counts), its distribution over
    the corps is not: in set-up each side sees only its own pool."""
    state = new_game()
    v = view_of(state, "allied")
    oob = v["order_of_battle"]
    assert isinstance(oob, dict)
    assert oob["F"] == {"ART1": 3, "CAV2": 5, "CAV3": 3, "GUARD3": 2, "INF2": 16, "INF3": 7}
    pool = dicts(v["pool"])
    assert len(pool) == 44
    assert {u["side"] for u in pool} == {"AL"}


# ----------------------------------------------------------------------------- 3.5 turns


def test_nt25_nt26_nt27_nt28_rounds_turns_shuffle_night_and_end() -> None:
    """NT-25: Allied turn, then French turn, in every round; NT-26: only the active player moves,
    and only his own pieces; NT-27: at every turn end the enemy units' aliases are re-drawn
    (corps membership and positions stay); NT-28: the night recovery comes before the Allied
    turn of the night round, and the game ends after the French turn of the last round."""
    board = pair("nt25", rounds=2, night_rounds=[2])
    state = position(board, ["F f1 INF2 @X.R [soult]", "F f2 INF2 @X.R [soult]",
                             "F f3 INF2 @W.R [-]", "AL a1 INF2 @Y.R [-]"],
                     active="AL", morale={"F": 20, "AL": 17})  # fmt: skip
    state.morale_lost = {"F": 3, "AL": 10}
    t = Table(state)
    assert (t.state.round, t.state.active) == (1, "AL")
    assert t.refuse("F", "unit_move", {"unit": "f3", "to": {"locale": X, "approach": None}}
                    ).rule == "NT-35"  # fmt: skip
    assert t.refuse("AL", "unit_move", {"unit": "f3", "to": {"locale": X, "approach": None}}
                    ).rule == "NT-42"  # fmt: skip
    before = {u: t.alias("AL", u) for u in ("f1", "f2", "f3")}
    seen = sorted((str(u["corps"]), json.dumps(u["position"]))
                  for u in dicts(view_of(t.state, "allied")["enemy_units"]))  # fmt: skip
    t.play("AL", "unit_move", {"unit": "a1", "to": {"locale": Y, "approach": "XY"}})
    assert {u: t.alias("AL", u) for u in ("f1", "f2", "f3")} == before  # stable within a turn
    t.play("AL", "end_turn")
    assert (t.state.round, t.state.active) == (1, "F")
    after = {u: t.alias("AL", u) for u in ("f1", "f2", "f3")}
    assert not set(after.values()) & set(before.values())
    assert seen == sorted(
        (str(u["corps"]), json.dumps(u["position"]))
        for u in dicts(view_of(t.state, "allied")["enemy_units"])
    )
    t.play("F", "unit_move", {"unit": "f3", "to": {"locale": X, "approach": None}})
    n = len(t.log)
    t.play("F", "end_turn")
    assert (t.state.round, t.state.active) == (2, "AL")
    new = t.log[n:]
    assert new == [
        "Allied morale 17 -> 21 (night recovery).",  # half of 10 lost, at most 4
        "French morale 20 -> 22 (night recovery).",  # half of 3 lost, rounded up
        "Round 2 (day 2, night): the Allied turn.",
    ]
    t.play("AL", "end_turn")
    assert t.state.phase == "turn"
    t.play("F", "end_turn")
    assert t.state.phase == "over"
    assert t.state.result is not None
    assert (t.state.result["winner"], t.state.result["kind"]) == ("F", "marginal")


# ----------------------------------------------------------------------------- 3.6 corps


def test_nt29_corps_of_one_to_eight_units() -> None:
    """NT-29: a corps has 1 to 8 units: a ninth unit cannot be attached; below the set-up minimum
    is fine during play (a corps of 1 after a Detachment Move)."""
    board = pair("nt29")
    pieces = [f"F s{i} INF2 @X.R [soult]" for i in range(1, 9)]
    t = Table(position(board, [*pieces, "F u9 INF2 @X.R [-]", "F m1 INF2 @W.R [murat]",
                               "F m2 INF2 @W.R [murat]"]))  # fmt: skip
    refused = t.refuse("F", "attach", {"commander": "soult", "unit": "u9"})
    assert (refused.rule, refused.message) == ("NT-29", "soult's corps already has 8 units")
    t.play("F", "detach_move", {"commander": "murat", "units": ["m1"],
                                "to": {"locale": X, "approach": None}})  # fmt: skip
    assert [u.id for u in t.state.units.values() if u.corps == "murat"] == ["m2"]
    assert violations(board, t.state) == []  # a corps of one unit is a valid corps


def test_nt30_corps_membership_is_public_and_commander_is_with_it() -> None:
    """NT-30: how a corps stands has no meaning; membership (`unit.corps`) is public: the
    opponent sees which enemy units belong to which commander, and the commander's position
    is the corps' position."""
    board = pair("nt30")
    t = Table(position(board, ["F s1 INF2 @X.R [soult]", "F s2 CAV2 @X.R [soult]",
                               "F d1 INF2 @X.R [-]"]))  # fmt: skip
    enemy = view_of(t.state, "allied")
    assert entry_of(enemy, "enemy_units", t.alias("AL", "s1"))["corps"] == "soult"
    assert entry_of(enemy, "enemy_units", t.alias("AL", "s2"))["corps"] == "soult"
    assert entry_of(enemy, "enemy_units", t.alias("AL", "d1"))["corps"] is None
    soult = next(c for c in dicts(enemy["commanders"]) if c["id"] == "soult")
    assert soult["position"] == {"locale": X, "approach": None}
    assert soult["units_on_map"] == 2


def test_nt31_detached_until_attached() -> None:
    """NT-31: a Unit Move detaches the unit; it stays detached over turns until an Attach joins it
    to a corps (here another commander's)."""
    board = pair("nt31")
    t = Table(position(board, ["F s1 INF2 @X.R [soult]", "F s2 INF2 @X.R [soult]",
                               "F m1 INF2 @W.R [murat]"]))  # fmt: skip
    t.play("F", "unit_move", {"unit": "s1", "to": {"locale": W, "approach": None}})
    assert t.unit("s1").corps is None
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    assert t.unit("s1").corps is None
    t.play("F", "attach", {"commander": "murat", "unit": "s1"})
    assert t.unit("s1").corps == "murat"
    assert t.state.commanders["murat"].commands == 1


def test_nt33_pieces_of_a_corps_share_one_position() -> None:
    """NT-33: after a Detachment Move the commander stays with the units left in his corps and
    the moved units are detached; the invariant check flags a corps split over positions."""
    board = pair("nt33")
    t = Table(position(board, ["F s1 INF2 @X.R [soult]", "F s2 INF2 @X.R [soult]",
                               "F s3 INF2 @X.R [soult]"]))  # fmt: skip
    t.play("F", "detach_move", {"commander": "soult", "units": ["s1", "s2"],
                                "to": {"locale": X, "approach": "XY"}})  # fmt: skip
    assert [(t.unit(u).app, t.unit(u).corps) for u in ("s1", "s2", "s3")] == [
        ("XY", None), ("XY", None), (None, "soult")]  # fmt: skip
    soult = t.state.commanders["soult"]
    assert (soult.loc, soult.app) == (X, None)
    assert violations(board, t.state) == []
    t.state.units["s3"].app = "XY"
    assert violations(board, t.state) == ["INV-1: s3 is not with its commander soult"]


# ----------------------------------------------------------------------------- 3.7 commands


def test_nt36_corps_and_independent_commands() -> None:
    """NT-36: corps commands (given by a commander, one each per turn, at most 5 for the Allies)
    and independent commands (one unit; 3 for the Allies) are counted apart."""
    board = pair("nt36")
    t = Table(position(board, ["AL k1 INF2 @Y.R [kutuzov]", "AL k2 INF2 @Y.R [kutuzov]",
                               "AL a1 INF2 @Z1.R [-]"], active="AL"))  # fmt: skip
    t.play("AL", "corps_move", {"commander": "kutuzov", "to": {"locale": Z2, "approach": None}})
    assert (t.state.turn.corps_used, t.state.turn.independent_used) == (1, 0)
    assert t.state.commanders["kutuzov"].commands == 1
    t.play("AL", "unit_move", {"unit": "a1", "to": {"locale": Y, "approach": None}})
    assert (t.state.turn.corps_used, t.state.turn.independent_used) == (1, 1)
    assert t.refuse("AL", "attach", {"commander": "kutuzov", "unit": "k1"}).rule == "NT-37"


def test_nt44_every_command_is_public() -> None:
    """NT-44: every command is public: the opponent's view lists its kind, commander and units
    (enemy units by alias) and start locale, and the log line names them."""
    board = pair("nt44")
    t = Table(position(board, ["F u1 INF2 @X.R [-]", "F s1 INF2 @X.R [soult]",
                               "F s2 INF2 @X.R [soult]"]))  # fmt: skip
    t.play("F", "unit_move", {"unit": "u1", "to": {"locale": W, "approach": None}})
    t.play("F", "corps_move", {"commander": "soult", "to": {"locale": X, "approach": "XY"}})
    enemy = view_of(t.state, "allied")
    cmds = enemy["commands_this_turn"]
    assert isinstance(cmds, dict)
    u1, s1, s2 = (t.alias("AL", u) for u in ("u1", "s1", "s2"))
    assert cmds["log"] == [
        {"kind": "unit_move", "commander": None, "units": [u1], "from": X},
        {"kind": "corps_move", "commander": "soult", "units": sorted([s1, s2]), "from": X},
    ]
    assert cmds["independent"] == 1
    lines = t.lines_for("allied")
    assert f"Unit Move: {u1} from locale 1 to locale 5 (reserve)." in lines


# ----------------------------------------------------------------------------- 3.8 movement


def test_nt45_a_command_moves_its_pieces_together() -> None:
    """NT-45: all pieces moved by one command go from the same start to the same end position."""
    board = pair("nt45")
    t = Table(position(board, ["F s1 INF2 @X.R [soult]", "F s2 CAV2 @X.R [soult]",
                               "F s3 ART1 @X.R [soult]"]))  # fmt: skip
    t.play("F", "corps_move", {"commander": "soult", "to": {"locale": W, "approach": None}})
    soult = t.state.commanders["soult"]
    assert {(t.unit(u).loc, t.unit(u).app) for u in ("s1", "s2", "s3")} == {(W, None)}
    assert (soult.loc, soult.app) == (W, None)
    assert [t.unit(u).moves for u in ("s1", "s2", "s3")] == [1, 1, 1]


def test_nt47_moving_into_an_enemy_locale_is_an_attack() -> None:
    """NT-47: a move command may not simply enter an enemy-held locale; that is an attack, begun
    with `threaten`."""
    board = pair("nt47", roads=[("local", "X", "Y", 0, 0)])
    t = Table(position(board, ["F u1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    refused = t.refuse("F", "unit_move", {"unit": "u1", "to": {"locale": Y, "approach": None}})
    assert refused.rule == "NT-47"
    assert "threaten" in refused.message
    assert t.refuse("F", "unit_move", {"unit": "u1", "road": True, "path": [Y]}).rule == "NT-47"
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    assert t.state.attack is not None


def test_nt50_every_destination_respects_the_locks() -> None:
    """NT-50: a destination must respect capacity (NT-10), the road lock (NT-54(b)), the lock on a
    locale won by attack (NT-101) and INV-4 (NT-47). The locks are set as a road march and a
    won attack leave them."""
    board = pair("nt50", capacity={"W": 1})
    state = position(board, ["F u1 INF2 @Y.R [-]", "F w1 INF2 @W.R [-]", "F x1 INF2 @X.R [-]",
                             "AL a1 INF2 @Z2.R [-]"])  # fmt: skip
    state.turn.road_locked = [Z1]
    state.turn.conquered = [X]
    t = Table(state)
    assert t.refuse("F", "unit_move", {"unit": "x1", "to": {"locale": W, "approach": None}}
                    ).rule == "NT-10"  # fmt: skip
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": {"locale": Z1, "approach": None}}
                    ).rule == "NT-54"  # fmt: skip
    assert t.refuse("F", "unit_move", {"unit": "w1", "to": {"locale": X, "approach": None}}
                    ).rule == "NT-101"  # fmt: skip
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": {"locale": Z2, "approach": None}}
                    ).rule == "NT-47"  # fmt: skip
    t.play("F", "unit_move", {"unit": "u1", "to": {"locale": Y, "approach": "YZ1"}})


def test_nt53_road_moves_start_and_end_in_reserve_cavalry_may_block() -> None:
    """NT-53: a road move starts in reserve and ends in reserve; cavalry may end it blocking an
    approach crossed by a road connected to the one used, and is shown to be cavalry."""
    board = fragment(
        "nt53",
        PAIR_LOCALES,
        [*PAIR_APPROACHES, ("XL", "X", "L")],
        roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)],
    )
    t = Table(position(board, ["F c1 CAV2 @W.R [-]", "F c2 CAV2 @W.R [-]", "F i1 INF2 @W.R [-]",
                               "F b1 CAV2 @W.XW [-]"]))  # fmt: skip
    assert t.refuse("F", "unit_move", {"unit": "b1", "road": True, "path": [X]}).rule == "NT-53"
    assert t.refuse("F", "unit_move", {"unit": "i1", "road": True, "path": [X],
                                       "end_approach": "XY"}).rule == "NT-53"  # fmt: skip
    assert t.refuse("F", "unit_move", {"unit": "c2", "road": True, "path": [X],
                                       "end_approach": "XL"}).rule == "NT-53"  # fmt: skip
    t.play("F", "unit_move", {"unit": "c1", "road": True, "path": [X], "end_approach": "XY"})
    assert (t.unit("c1").loc, t.unit("c1").app, t.unit("c1").revealed) == (X, "XY", True)
    t.play("F", "unit_move", {"unit": "i1", "road": True, "path": [X]})
    assert (t.unit("i1").loc, t.unit("i1").app) == (X, None)


# ----------------------------------------------------------------------------- 3.9 reinforcements


def _reinforcement_board(name: str, enemy: str = "Y") -> Table:
    board = pair(
        name,
        roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)],
        entries=[("EF", "F", "W", 0, "local", False)],
        commanders=[("davout", "F", None, True)],
    )
    return Table(position(board, ["F d1 CAV2 @off [davout]", "F d2 INF2 @off [davout]",
                                  f"AL a1 INF2 @{enemy}.R [-]"]))  # fmt: skip


def test_nt56_nt58_reinforcements_wait_then_become_normal_pieces() -> None:
    """NT-56: reinforcements start off the map and, once entered, are normal pieces; NT-58: the
    French may delay them as long as they like (morale and victory conditions unchanged)."""
    t = _reinforcement_board("nt56")
    assert t.refuse("F", "unit_move", {"unit": "d1", "to": {"locale": W, "approach": None}}
                    ).rule == "NT-42"  # fmt: skip
    for _ in range(2):
        t.play("F", "end_turn")
        t.play("AL", "end_turn")
    assert t.state.round == 3
    assert (t.unit("d1").where, t.state.reinforcements_entered, t.state.morale["F"]) == (
        "offmap", False, 23)  # fmt: skip
    t.play("F", "enter_reinforcement", {"command": "corps_move", "commander": "davout",
                                        "entry": "EF", "path": [W]})  # fmt: skip
    assert (t.unit("d1").where, t.unit("d1").loc, t.state.morale["F"]) == ("map", W, 27)
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    assert not t.unit("d2").arrived
    t.play("F", "unit_move", {"unit": "d2", "to": {"locale": X, "approach": None}})
    assert (t.unit("d2").loc, t.unit("d2").corps, t.unit("d2").moves) == (X, None, 1)
    assert t.refuse("F", "unit_move", {"unit": "d2", "to": {"locale": W, "approach": None}}
                    ).rule == "NT-43"  # fmt: skip


def test_nt145_reinforcement_attacks_by_road_as_it_enters() -> None:
    """NT-145 (addendum): a cavalry reinforcement may attack by road as part of its entering road
    move: a plain entering move into an enemy-held locale is an attack (NT-47), but the threat
    from the entry locale is backed by the cavalry off the map and the feint brings them on."""
    t = _reinforcement_board("nt145", enemy="X")
    refused = t.refuse(
        "F",
        "enter_reinforcement",
        {"command": "unit_move", "unit": "d1", "entry": "EF", "path": [W, X]},
    )
    assert refused.rule == "NT-47"
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    t.play("F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "d1", "road": True,
                                                "entry": "EF", "path": [W]}],
                                  "end": "reserve"})  # fmt: skip
    assert (t.unit("d1").loc, t.unit("d1").app, t.unit("d1").arrived) == (W, None, True)


# ----------------------------------------------------------------------------- 3.10-3.13 attacks


def test_nt65_attacking_pieces_stand_in_reserve_or_block_the_approach() -> None:
    """NT-65: only pieces in the attack reserve or blocking the attack approach may attack; a
    piece blocking another approach of the attack locale cannot, and a threat only such a
    piece could back is refused (AMB-17)."""
    board = pair("nt65")
    only = Table(position(board, ["F u1 INF2 @X.XW [-]", "AL a1 INF2 @Y.R [-]"]))
    assert only.refuse("F", "threaten", {"attack_locale": X, "approach": "XY"}).rule == "NT-70"
    t = Table(position(board, ["F u1 INF2 @X.XW [-]", "F u2 INF2 @X.R [-]",
                               "AL a1 INF2 @Y.R [-]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    t.play("F", "no_feint")
    assert t.refuse("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                            "leading": ["u1"]}).rule == "NT-65"  # fmt: skip
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u2"}],
                                   "leading": ["u2"]})  # fmt: skip
    assert t.state.attack is not None
    assert t.state.attack.attackers == ["u2"]


def test_nt67_the_defender_needs_no_commands() -> None:
    """NT-67: defending uses no command: the defending corps' commander gives none, its units
    count as not moved, and only the attacker's commands are recorded."""
    board = pair("nt67")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "AL k1 INF2 @Y.R [kutuzov]",
                               "AL k2 INF2 @Y.R [kutuzov]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["k1", "k2", "kutuzov"], "leading": ["k1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})  # fmt: skip
    t.play("AL", "counter", {"units": []})
    # R = 3 - 2 = +1: F wins; LA = 1 on u1; LD = 1 + 1 = 2 on k1
    assert (t.face("u1"), t.face("k1"), t.face("k2")) == ("INF2", "dead", "INF2")
    assert t.state.commanders["kutuzov"].commands == 0
    assert t.unit("k2").moves == 0
    assert [c["kind"] for c in t.state.turn.commands] == ["threaten", "unit_move"]
    assert (t.state.turn.independent_used, t.state.turn.corps_used) == (1, 0)


def test_nt85_attack_leading_units_are_revealed() -> None:
    """NT-85: the attack leading units are revealed when declared (step 5); the other attacking
    pieces are not."""
    board = pair("nt85")
    t = Table(position(board, ["F s1 INF3 @X.R [soult]", "F s2 INF2 @X.R [soult]",
                               "AL a1 INF1 @Y.XY [-]", "AL a2 INF3 @Y.XY [-]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    t.play("F", "no_feint")
    s1 = t.alias("AL", "s1")
    assert entry_of(view_of(t.state, "allied"), "enemy_units", s1)["face"] is None
    t.play("F", "declare_attack", {"commands": [{"kind": "corps_move", "commander": "soult"}],
                                   "leading": ["s1"]})  # fmt: skip
    assert t.state.pending is not None
    assert t.state.pending.kind == "counter"
    enemy = view_of(t.state, "allied")
    assert entry_of(enemy, "enemy_units", s1)["face"] == {"type": "INF", "strength": 3}
    assert entry_of(enemy, "enemy_units", t.alias("AL", "s2"))["face"] is None


def test_nt92_a_unit_that_takes_a_loss_is_revealed() -> None:
    """NT-92: a unit revealed when it takes a loss: the opponent's log shows the named, non
    leading a2 (INF2) losing 1 in example 3 (NT-T10), and it is hidden again afterwards."""
    board = pair("nt92")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "AL a1 ART1 @Y.XY [-]",
                               "AL a2 INF2 @Y.XY [-]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})  # fmt: skip
    a2 = t.alias("F", "a2")
    assert f"{a2} (INF2) loses 1 -> INF1 (defender loss)." in t.lines_for("french")
    assert t.face("a2") == "INF1"
    assert not t.unit("a2").revealed


def test_nt97_attackers_left_in_the_attack_locale_count_as_moved() -> None:
    """NT-97: after a lost attack the attacking pieces stay in the attack locale; the command is
    spent and they cannot move again this turn (example 4, NT-T11)."""
    board = pair("nt97")
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F u2 INF3 @X.R [-]",
                               "AL a1 INF1 @Y.XY [-]", "AL a2 INF3 @Y.XY [-]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u2"}],
                                   "leading": ["u2"]})  # fmt: skip
    t.play("AL", "counter", {"units": ["a2"]})
    assert t.state.attack is None
    assert (t.unit("u2").loc, t.unit("u2").app, t.unit("u2").moves) == (X, None, 1)
    assert t.state.turn.independent_used == 1
    assert t.refuse("F", "unit_move", {"unit": "u2", "to": {"locale": W, "approach": None}}
                    ).rule == "NT-43"  # fmt: skip
    t.play("F", "unit_move", {"unit": "u1", "to": {"locale": X, "approach": None}})


def test_nt103_all_pieces_in_the_locale_retreat() -> None:
    """NT-103: when the defender loses, every piece in the defense locale retreats, also units
    blocking other approaches and unnamed reserve units (with their NT-105 losses)."""
    board = pair("nt103")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "AL a1 INF1 @Y.XY [-]",
                               "AL a2 INF2 @Y.YZ2 [-]", "AL a3 INF2 @Y.R [-]"]))  # fmt: skip
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})  # fmt: skip
    t.play("AL", "counter", {"units": []})
    # R = F = 3 - 1 = +2; LA = 0; LD = 1 + 2 = 3, a1 (INF1) is eliminated, the rest ignored
    assert t.face("a1") == "dead"
    assert t.state.morale["AL"] == 26
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"
    t.play("AL", "retreat_plan", {"destinations": {"a2": Z1, "a3": Z2}})
    assert [(t.face(u), t.unit(u).loc) for u in ("a2", "a3")] == [("INF1", Z1), ("INF1", Z2)]
    assert not [u for u in t.state.units.values() if u.side == "AL" and u.loc == Y]
    assert t.state.morale["AL"] == 24  # 1 (YZ2 blocker) + 1 (unnamed reserve infantry)
    assert (t.unit("u1").loc, t.unit("u1").app) == (Y, None)


# ----------------------------------------------------------------------------- 3.14, 3.16 morale


def test_nt110_morale_levels_from_board_data() -> None:
    """NT-110: each side has a morale level, starting at the board's values (F 23, AL 27); both
    are public."""
    state = new_game()
    assert state.morale == {"F": 23, "AL": 27}
    assert board_named("austerlitz").scenarios["DEC1"].starting_morale == {"F": 23, "AL": 27}
    assert view_of(state, "allied")["morale"] == {"F": 23, "AL": 27}
    assert view_of(state, OBSERVER)["morale"] == {"F": 23, "AL": 27}


def test_nt119_heavy_cavalry_is_cavalry_of_strength_3() -> None:
    """NT-119: heavy cavalry = CAV3; its first use (leading) costs 2 morale (NT-120); reduced to
    CAV2 it is no longer heavy."""
    assert [
        is_heavy_cav(Unit("x", "F", t, s))
        for t, s in (("CAV", 3), ("CAV", 2), ("INF", 3), ("GUARD", 3))
    ] == [True, False, False, False]
    board = pair("nt119")
    t = Table(position(board, ["F c1 CAV3 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "c1"}],
                                   "leading": ["c1"]})  # fmt: skip
    # R = 3 - 2 = +1: F wins; LA = 1 on c1; LD = 1 + 1 = 2: a1 eliminated
    assert t.state.elite_committed["F"] == ["heavy_cav"]
    assert (t.face("c1"), t.face("a1")) == ("CAV2", "dead")
    assert t.state.morale == {"F": 21, "AL": 25}
    assert not is_heavy_cav(t.unit("c1"))
    assert (t.unit("c1").loc, t.unit("c1").app) == (Y, None)


def test_nt121_guard_is_infantry() -> None:
    """NT-121: Guard follows every infantry rule: leading against blockers it suffers the
    infantry deduction and the `I` penalty (R = 3 - 1 - 1 - 2 = -1); reduced it is infantry."""
    board = pair("nt121", specs={"XY": Spec(sides={"Y": {"penalties": ["I"]}})})
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "AL a1 INF2 @Y.XY [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "g1"}],
                                   "leading": ["g1"]})  # fmt: skip
    assert "Attack 1: preliminary result -1; the defender leads." in t.log
    # LA = 1 + 1 = 2 on g1 (GUARD3 -> INF1); LD = 1 (g1 counts as infantry) on a1
    assert (t.face("g1"), t.face("a1")) == ("INF1", "INF1")
    assert t.state.morale == {"F": 17, "AL": 27}  # 4 (first Guard use) + 2 (lost attack)
    assert "XY" in t.state.turn.closed


# ----------------------------------------------------------------------------- 3.19 the Santon


def _santon(name: str, pieces: list[str], active: str = "AL") -> Table:
    board = pair(name, santon="Y")
    state = position(board, pieces, active=active, options={"santon": True})
    state.units["fb"].fixed = True
    state.units["fb"].revealed = True
    return Table(state)


def test_nt136_the_santon() -> None:
    """NT-136: the Santon is a hill (locale 6 on this board, capacity 2, three approaches); the
    option `santon` is true or false."""
    board = board_named("austerlitz")
    santon = board.locales[6]
    assert (board.santon, santon.santon, santon.hill, santon.capacity) == (6, True, True, 2)
    assert len(board.approaches_of(6)) == 3
    with pytest.raises(Illegal) as err:
        new_game(santon="yes")
    assert err.value.rejection.rule == "NT-136"
    assert new_game(santon=True).options["santon"] is True


def test_nt142_santon_battery_alone_in_reserve_lapses_the_feint_duty() -> None:
    """NT-142 (addendum): if a feint leaves no named reserve unit that may move (only the fixed
    battery on the Santon), the duty to block with one lapses; the battery stays in reserve."""
    t = _santon("nt142", ["AL a1 INF3 @X.R [-]", "F fb ART1 @Y.R [-]"])
    t.play("AL", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("F", "defend", {"named": ["fb"], "leading": ["fb"]})
    t.play("AL", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "a1"}],
                                   "end": "block"})  # fmt: skip
    assert t.state.attack is None
    assert t.state.pending is None
    assert (t.unit("fb").loc, t.unit("fb").app) == (Y, None)
    assert (t.unit("a1").loc, t.unit("a1").app) == (X, "XY")
    assert t.state.turn.closed == ["XY"]


# ----------------------------------------------------------------------------- Addendum A


def test_nt144_feint_ending_in_its_starting_reserve_is_no_move_into_it() -> None:
    """NT-144 (addendum): a feint ending in the reserve where it started does not count as moving
    into that reserve for NT-54(a): a corps may still enter that locale by road; an ordinary
    move into it does lock it."""
    for ordinary in (False, True):
        board = pair(f"nt144_{ordinary}", roads=[("local", "W", "X", 0, 0)])
        t = Table(position(board, ["F u1 INF2 @X.R [-]", "F w1 INF2 @W.R [-]",
                                   "F s1 INF2 @W.R [soult]", "F s2 INF2 @W.R [soult]",
                                   "AL a1 INF2 @Y.R [-]"]))  # fmt: skip
        t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
        t.play("AL", "defend", {"named": ["a1"], "leading": []})
        t.play("F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                      "end": "reserve"})  # fmt: skip
        assert (t.unit("u1").loc, t.unit("u1").app) == (X, None)
        assert (t.unit("a1").loc, t.unit("a1").app) == (Y, "XY")  # forced to block (NT-78)
        assert t.state.turn.reserve_entered == []
        corps: JSON = {"commander": "soult", "road": True, "path": [X]}
        if ordinary:
            t.play("F", "unit_move", {"unit": "w1", "to": {"locale": X, "approach": None}})
            assert t.refuse("F", "corps_move", corps).rule == "NT-54"
        else:
            t.play("F", "corps_move", corps)
            assert t.state.commanders["soult"].loc == X


# ----------------------------------------------------------------------------- secrecy


HIDDEN_ID = re.compile(r"\b[AF]\d\d\b")


def test_nt146_nt147_seed_never_shown_observer_sees_no_hidden_face() -> None:
    """NT-146 (addendum): the alias salt (derived from the game's seed) is in no view of any role
    and in no log line or log data, during a whole random game. NT-147 (addendum): the observer
    view has no own units, names every unit by an alias (no server id), shows a face only for a
    revealed unit, and its log lines never carry a server unit id."""
    checked = 0
    final: GameState | None = None
    for state, log in random_game(seed=11):
        final = state
        salt = state.salt
        assert len(salt) == 32
        for role in ("french", "allied", OBSERVER):
            assert salt not in json.dumps(RULESET.view(state, role))
        for entry in log:
            assert salt not in entry.text
            assert salt not in json.dumps(entry.data)
            if entry.audience is None or OBSERVER in entry.audience:
                assert not HIDDEN_ID.search(entry.text), entry.text
        if state.phase != "turn":
            continue
        obs = view_of(state, OBSERVER)
        assert obs["units"] == []
        assert obs["pool"] == []
        assert "standing_instructions" not in obs
        shown = dicts(obs["enemy_units"])
        on_map = [u for u in state.units.values() if u.where == "map"]
        assert len(shown) == len(on_map)
        alias_of = {unit_alias(state, OBSERVER, u.id): u for u in on_map}
        for item in shown:
            uid = str(item["id"])
            assert not HIDDEN_ID.fullmatch(uid)
            unit = alias_of[uid]
            if unit.revealed:
                assert item["face"] == {"type": unit.type, "strength": unit.strength}
            else:
                assert item["face"] is None
        checked += 1
    assert checked > 50
    assert final is not None
    assert final.phase == "over"


def test_nt19_setup_runs_in_order() -> None:
    """NT-19: the Allied set-up comes first, then the French; no command before set-up ends;
    the platform's deadline has no default for set-up."""
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(7))
    assert state.phase == "setup_AL"
    early = RULESET.validate(state, Action("french", "french_setup", {"corps": []}))
    assert [r.rule for r in early] == ["NT-19"]  # the French set up after the Allies
    move = RULESET.validate(state, Action("allied", "end_turn", {}))
    assert [r.rule for r in move] == ["NT-19"]
    deadline = RULESET.validate(state, Action("@system", ".deadline", {}))
    assert [r.rule for r in deadline] == ["NT-19"]
    for role in ("allied", "french"):
        action = RULESET.random_action(state, role, Rng(3))
        if action is None:
            continue
        state = RULESET.apply(state, action, Rng(0)).state
    assert state.phase == "turn"
    assert state.active == "AL"
