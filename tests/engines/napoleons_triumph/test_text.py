"""Plain-text orders (`parse_text`, README "Plain-text orders") on the reconstructed board.

The parser only reads names: every test that claims an order works also has `RULESET.validate`
accept the parsed action in a real position (the round trips below). Rule id of a form error: NT-0.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.canonical import state_hash
from games.core.protocol import JSON, Action, GameConfig, Rejection
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import board_named, normalise_name
from games.napoleons_triumph.context import Ctx, unit_alias
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.text import ATTACK_KEYS, MOVE_KEYS, parse_orders, parse_text
from tests.support.napoleons_triumph import ROLE, Table, position
from tests.support.nt_text import action_text

BOARD = board_named("austerlitz")


def pos(pieces: list[str], active: str = "F", round_: int = 1) -> GameState:
    state = position(BOARD, pieces, active=active, round_=round_)
    state.scenario = "DEC2"  # the real board's scenario (reinforcement rounds, time track)
    return state


# A French command-phase position: legrand's corps west of Sokolnitz, F01/F02 at Telnitz facing
# two Allied units in Sokolnitz across A052, davout's corps waiting off the map (round 2).
COMMAND = [
    "F F01 INF2 @TELNITZ.A052 [-]",
    "F F02 INF3 @TELNITZ.R [-]",
    "F F05 CAV2 @TELNITZ_WEST.R [-]",
    "F F10 INF2 @SOKOLNITZ_WEST.R [legrand]",
    "F F11 INF2 @SOKOLNITZ_WEST.R [legrand]",
    "F F12 INF2 @SOKOLNITZ_WEST.R [legrand]",
    "F F13 INF2 @ZURAN_BERG.R [st-hilaire]",
    "F F14 INF2 @ZURAN_BERG.R [st-hilaire]",
    "F F33 GUARD3 @ZURAN_BERG.R [-]",
    "F F30 INF3 @off [davout]",
    "F F31 INF3 @off [davout]",
    "AL A01 INF1 @SOKOLNITZ.A052 [-]",
    "AL A02 INF3 @SOKOLNITZ.A052 [-]",
    "AL A03 INF2 @BELLOWITZ.R [kienmayer]",
]


def ctx_of(state: GameState) -> Ctx:
    return RULESET.ctx(state)


def parse(state: GameState, side: str, text: str) -> list[Action]:
    out = parse_text(ctx_of(state), ROLE[side], text)
    assert not isinstance(out, Rejection), out
    return list(out)


def one(state: GameState, side: str, text: str) -> tuple[str, JSON]:
    actions = parse(state, side, text)
    assert len(actions) == 1
    return actions[0].kind, actions[0].payload


def refused(state: GameState, side: str, text: str) -> Rejection:
    out = parse_text(ctx_of(state), ROLE[side], text)
    assert isinstance(out, Rejection), f"{text!r} was read as {out}"
    assert out.rule == "NT-0"
    return out


def accepted(state: GameState, actions: Sequence[Action]) -> GameState:
    """Validate and apply the actions one by one, as the platform does."""
    for a in actions:
        assert RULESET.validate(state, a) == (), (a, RULESET.validate(state, a))
        state = RULESET.apply(state, a, Rng(0)).state
    return state


def waiting(t: Table) -> str | None:
    return None if t.state.pending is None else t.state.pending.kind


def say(t: Table, side: str, text: str) -> list[Action]:
    actions = parse(t.state, side, text)
    for a in actions:
        t.play(side, a.kind, a.payload)
    return actions


# ----------------------------------------------------------------------------- command forms


def test_move_to_toponym_and_number() -> None:
    """unit_move by name and by locale number give the same payload (Telnitz = 24)."""
    s = pos(COMMAND)
    want = ("unit_move", {"unit": "F05", "road": False, "to": {"locale": 24, "approach": None}})
    assert one(s, "F", "move F05 to Telnitz") == want
    assert one(s, "F", "MOVE f05 TO 24") == want


def test_move_blocking_place_or_approach_id() -> None:
    """`<place> blocking <place2>` picks the approach joining them; an approach id works too."""
    s = pos(COMMAND)
    want = ("unit_move", {"unit": "F05", "road": False, "to": {"locale": 24, "approach": "A052"}})
    assert one(s, "F", "move F05 to 24 blocking 20") == want
    assert one(s, "F", "move F05 to Telnitz blocking Sokolnitz") == want
    assert one(s, "F", "move F05 to Telnitz blocking a052") == want
    assert "not adjacent" in refused(s, "F", "move F05 to Telnitz blocking Zuran Berg").message
    assert "A017 is not an approach" in refused(s, "F", "move F05 to 24 blocking A017").message


def test_move_by_road() -> None:
    """`by road via <places> [blocking ...]`: the end approach is taken at the last locale."""
    s = pos(COMMAND)
    want = ("unit_move", {"unit": "F05", "road": True, "path": [13, 22], "end_approach": "A050"})
    assert one(s, "F", "move F05 by road via 13, 22 blocking 20") == want
    assert one(s, "F", "move F05 by road via Turas, sokolnitz west blocking Sokolnitz") == want
    assert one(s, "F", "move F05 by road via 13 22 blocking 20") == want
    assert "either 'to'" in refused(s, "F", "move F05 to 24 by road via 13").message
    assert "by road via" in refused(s, "F", "move F05 by cart via 13").message


def test_corps_move_display_name_and_detach() -> None:
    """corps_move: commander by id or display name ('St. Hilaire'), `detach` anywhere."""
    s = pos(COMMAND)
    want = (
        "corps_move",
        {"commander": "st-hilaire", "detach": ["F13"], "road": False,
         "to": {"locale": 8, "approach": None}},
    )  # fmt: skip
    assert one(s, "F", "corps St. Hilaire to 8 detach F13") == want
    assert one(s, "F", "corps st-hilaire detach F13 to 8") == want
    kind, payload = one(s, "F", "corps legrand by road via 20, 24")
    assert kind == "corps_move"
    assert payload == {
        "commander": "legrand", "detach": [], "road": True, "path": [20, 24], "end_approach": None
    }  # fmt: skip


def test_detach_and_attach() -> None:
    """detach_move (commander, then units) and attach (unit to commander)."""
    s = pos(COMMAND)
    assert one(s, "F", "detach legrand F11 and F12 to Ottmarau") == (
        "detach_move",
        {"commander": "legrand", "units": ["F11", "F12"], "road": False,
         "to": {"locale": 23, "approach": None}},
    )  # fmt: skip
    assert one(s, "F", "detach St. Hilaire F13 to 8")[1] == {
        "commander": "st-hilaire", "units": ["F13"], "road": False,
        "to": {"locale": 8, "approach": None},
    }  # fmt: skip
    assert one(s, "F", "attach F33 to st. hilaire") == (
        "attach",
        {"commander": "st-hilaire", "unit": "F33"},
    )


def test_enter_reinforcement_commander_or_unit() -> None:
    """enter: a commander -> corps_move, a unit -> unit_move; without `via` the entry locale."""
    s = pos(COMMAND, round_=2)
    assert one(s, "F", "enter Davout at EF1 via 1, 5") == (
        "enter_reinforcement",
        {"command": "corps_move", "commander": "davout", "entry": "EF1", "path": [1, 5],
         "end_approach": None},
    )  # fmt: skip
    assert one(s, "F", "enter F30 at ef1") == (
        "enter_reinforcement",
        {"command": "unit_move", "unit": "F30", "entry": "EF1", "path": [1],
         "end_approach": None},
    )  # fmt: skip
    assert "did you mean EF1" in refused(s, "F", "enter F30 at EF11").message


def test_threaten_with_guard() -> None:
    """attack from <place> towards <place | approach id> [guard <unit>] -> threaten."""
    s = pos(COMMAND)
    want = (
        "threaten",
        {"attack_locale": 7, "approach": "A017", "guard_attack": True, "show_guard": "F33"},
    )
    assert one(s, "F", "attack from Zuran Berg towards Bellowitz guard F33") == want
    assert one(s, "F", "Attack from 7 towards A017 Guard f33") == want
    assert one(s, "F", "attack from Telnitz towards Sokolnitz")[1] == {
        "attack_locale": 24, "approach": "A052", "guard_attack": False, "show_guard": None
    }  # fmt: skip


def test_end_turn_and_punctuation() -> None:
    s = pos(COMMAND)
    assert one(s, "F", "End turn.") == ("end_turn", {})
    assert one(s, "F", "end of turn") == ("end_turn", {})
    assert refused(s, "F", "end game").message == "line 1: write 'end turn'"


# ----------------------------------------------------------------------------- names


def test_toponym_aliases() -> None:
    """Every gazetteer alias, in any case and spacing, names the toponym's locale."""
    s = pos(COMMAND)
    for name, loc in [("Tellnitz", 24), ("telnice", 24), ("Sokolnice", 20), ("SOKOLNITZ", 20),
                      ("das  Schloss", 21), ("Schloss Sokolnitz", 21), ("Žuráň", 7),
                      ("zuranberg", 7), ("Loesch", 3), ("Lösch", 3), ("Pratzeberg North", 41),
                      ("sokolnitz_west", 22)]:  # fmt: skip
        _, payload = one(s, "F", f"move F05 to {name}")
        assert payload == {"unit": "F05", "road": False, "to": {"locale": loc, "approach": None}}


def test_unknown_place_lists_closest_toponyms() -> None:
    """NT-0 with the closest gazetteer names, each toponym once; the path names the line."""
    s = pos(COMMAND)
    r = refused(s, "F", "move F05 to Telnits")
    assert r.path == "/line/1"
    assert r.message.startswith("line 1: 'Telnits' is not a known place; did you mean Telnitz")
    assert r.message.count("Telnitz,") == 1  # the alias 'Tellnitz' does not repeat the toponym
    r = refused(s, "F", "move F05 to Sokolnitzz")
    assert "did you mean Sokolnitz" in r.message
    r = refused(s, "F", "move F05 to Xyzzy")
    assert r.message == "line 1: 'Xyzzy' is not a known place"
    assert "no locale 999" in refused(s, "F", "move F05 to 999").message


def test_ambiguous_pratzeberg() -> None:
    """Pratzeberg names 41 and 43: refused with both numbers, unless `blocking` picks one."""
    s = pos(COMMAND)
    r = refused(s, "F", "move F05 to Pratzeberg")
    assert r.message == (
        "line 1: 'Pratzeberg' names locales 41 (pratzeberg_north), 43 (pratzeberg_south); "
        "write the locale number"
    )
    # Pratze (40) borders only the northern locale: the order's other fact decides.
    assert one(s, "F", "move F05 to Pratzen Heights blocking Pratze")[1] == {
        "unit": "F05", "road": False, "to": {"locale": 41, "approach": BOARD.between(41, 40)},
    }  # fmt: skip
    # Both locales border each other: still ambiguous.
    assert "names locales 41" in refused(s, "F", "move F05 to Pratzeberg blocking 44").message


def test_unknown_pieces_and_words_suggest_ids() -> None:
    s = pos(COMMAND)
    assert "did you mean F05" in refused(s, "F", "move F5 to 24").message
    r = refused(s, "F", "corps legrandd to 24")
    assert "'legrandd' is not one of your commanders; did you mean Legrand" in r.message
    r = refused(s, "F", "corps St Hilare to 24")
    assert "did you mean St. Hilaire" in r.message
    # Enemy ids are never confirmed: A01 is simply not one of the French player's units.
    assert "'A01' is not one of your units" in refused(s, "F", "move A01 to 24").message
    r = refused(s, "F", "mvoe F05 to 24")
    assert "'mvoe' is not an order; did you mean move" in r.message
    r = refused(s, "F", "frobnicate")
    assert "an order starts with one of: move, corps" in r.message
    r = refused(s, "F", "move F05 towards 24")
    assert "write 'move <unit> to <place>'" in r.message


def test_grammar_keywords_never_occur_in_names() -> None:
    """The keywords that end a name never appear inside a toponym or commander name."""
    words = set(MOVE_KEYS | ATTACK_KEYS | {"from", "towards", "guard", "at", "and"})
    names = [n for t in BOARD.toponyms for n in (t.name, *t.aliases)]
    names += [c.name for c in BOARD.commanders.values()]
    for n in names:
        assert not set(normalise_name(n).split()) & words, n


def test_role_without_side_and_empty_text() -> None:
    s = pos(COMMAND)
    out = parse_text(ctx_of(s), "spectator", "end turn")
    assert out == Rejection("NT-140", "'spectator' plays no side in this game", "/role")
    assert refused(s, "F", "\n  \n# only a comment\n").message == "the text holds no order"


# ----------------------------------------------------------------------------- email bodies


def test_multiline_email_body() -> None:
    """One order per line; blank, '#' and quoted lines skipped; '--' ends the orders."""
    s = pos(COMMAND, round_=2)
    body = (
        "# French orders, turn 1\n"
        "\n"
        "move F05 to Ottmarau\n"
        "> move F99 to nowhere (quoted from the last email)\n"
        "corps Legrand to Sokolnitz West blocking Turas   \n"
        "enter davout at EF1 via 1, 5\n"
        "end turn.\n"
        "-- \n"
        "Marshal Soult\n"
    )
    actions = parse(s, "F", body)
    assert [a.kind for a in actions] == [
        "unit_move",
        "corps_move",
        "enter_reinforcement",
        "end_turn",
    ]
    assert all(a.role == "french" for a in actions)
    assert actions[1].payload == {
        "commander": "legrand", "detach": [], "road": False,
        "to": {"locale": 22, "approach": BOARD.between(22, 13)},
    }  # fmt: skip
    after = accepted(s, actions)
    assert after.active == "AL"
    assert after.units["F05"].loc == 23
    assert (after.units["F10"].loc, after.units["F10"].app) == (22, BOARD.between(22, 13))
    assert after.units["F30"].loc == 5


def test_error_names_its_line() -> None:
    s = pos(COMMAND)
    r = refused(s, "F", "move F05 to 23\n\n# ok so far\ncorps legrand to Sokolnitx\nend turn\n")
    assert r.path == "/line/4"
    assert r.message.startswith("line 4: 'Sokolnitx' is not a known place; did you mean Sokolnitz")


# ----------------------------------------------------------------------------- round trips


def test_round_trip_command_phase() -> None:
    """Every command form parses to an action the engine accepts in the position."""
    s = pos(COMMAND, round_=2)
    for text in [
        "move F05 to Ottmarau",
        "move F05 to Telnitz West blocking Ottmarau",
        "corps legrand to 23 detach F12",
        "detach legrand F12 to 23",
        "enter Davout at EF1 via 1, 5",
        "enter F30 at EF1",
        "attach F33 to St. Hilaire",
        "attack from Telnitz towards Sokolnitz",
        "attack from Zuran Berg towards Bellowitz guard F33",
        "end turn",
    ]:
        accepted(s, parse(s, "F", text))


def test_round_trip_attack_answers() -> None:
    """An attack answered in text on the real board (A052 narrow, both sides' penalties 'A'):
    threaten, defend with leading, no feint, attack with unit, counter (NT-70, NT-79, NT-81,
    NT-88)."""
    t = Table(pos(COMMAND))
    say(t, "F", "attack from Telnitz towards Sokolnitz")
    assert waiting(t) == "defend"
    say(t, "AL", "defend with A01, A02 leading A01")
    say(t, "F", "no feint")
    say(t, "F", "attack with unit F02 leading F02")
    assert waiting(t) == "counter"
    assert one(t.state, "AL", "no counter") == ("counter", {"units": []})
    say(t, "AL", "counter with A02")
    assert t.state.attack is None or t.state.attack.counter == ["A02"]


def test_target_alias_and_wide_front() -> None:
    """declare_attack: `target <alias>` names the enemy unit by the alias of the attacker's view;
    `wide` and two leading units (NT-79, NT-82)."""
    pieces = [
        "F F01 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "F F02 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "AL A01 INF2 @TELNITZ_WEST.R [kienmayer]",
        "AL A02 INF2 @TELNITZ_WEST.R [kienmayer]",
    ]
    t = Table(pos(pieces))
    say(t, "F", "attack from 22 towards telnitz west")  # A054, wide
    say(t, "AL", "defend with A01, A02, Kienmayer leading A01 A02")
    say(t, "F", "no feint")
    alias = unit_alias(t.state, "F", "A01")
    kind, payload = one(t.state, "F", f"attack with corps Legrand leading F01 target {alias}")
    assert payload == {
        "commands": [{"kind": "corps_move", "commander": "legrand", "detach": []}],
        "width": "narrow", "target": alias, "leading": ["F01"],
    }  # fmt: skip
    assert RULESET.validate(t.state, Action("french", kind, payload)) == ()
    # the real id is not an alias: refused, with the aliases offered
    r = refused(t.state, "F", "attack with corps legrand leading F01 target A01")
    assert "'A01' is not the alias of an enemy unit on the map" in r.message
    wide = parse(t.state, "F", "attack with corps legrand wide leading F01, F02")
    assert wide[0].payload == {
        "commands": [{"kind": "corps_move", "commander": "legrand", "detach": []}],
        "width": "wide", "target": None, "leading": ["F01", "F02"],
    }  # fmt: skip
    accepted(t.state, wide)


def test_odd_loss_by_alias_and_retreat() -> None:
    """Wide attack, two attacking leaders against one: the one attacker loss point is placed by
    the defender (NT-90, step 9a) on an attacking unit named by its alias; then the defender
    retreats by the default plan with one destination changed (NT-102..NT-109)."""
    pieces = [
        "F F01 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "F F02 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "AL A01 INF2 @TELNITZ_WEST.R [kienmayer]",
        "AL A02 INF1 @TELNITZ_WEST.R [kienmayer]",
        "AL A03 INF3 @TELNITZ_WEST.R [kienmayer]",
    ]
    t = Table(pos(pieces))
    say(t, "F", "attack from Sokolnitz West towards 25")
    say(t, "AL", "defend with A01, kienmayer leading A01")
    say(t, "F", "no feint")
    say(t, "F", "attack with corps legrand wide leading F01, F02")
    # no counter step: the only named unit leads. R = 6 - 2 = 4, F wins; LA = 1 on two leaders
    assert waiting(t) == "odd_loss"
    alias = unit_alias(t.state, "AL", "F02")
    assert one(t.state, "AL", f"odd loss {alias}") == ("place_odd_loss", {"units": [alias]})
    r = refused(t.state, "AL", "odd loss F02")  # the real id of an enemy unit is no name
    assert "'F02' is neither your unit nor an enemy unit's alias" in r.message
    say(t, "AL", f"odd loss {alias.lower()}")
    assert (t.face("F01"), t.face("F02"), t.face("A01")) == ("INF3", "INF2", "dead")
    assert waiting(t) == "retreat"
    atk = t.state.attack
    assert atk is not None
    plan = default_plan(ctx_of(t.state), atk)
    assert plan == {
        "losses": [{"unit": "A03", "sp": 2}],
        "anchors": {"kienmayer": "A03"},
        "destinations": {"A02": 23, "A03": 26},
    }
    assert one(t.state, "AL", "retreat") == ("retreat_plan", plan)
    say(t, "AL", "retreat A03 to Telnitz")
    assert (t.unit("A03").loc, t.face("A03"), t.unit("A02").loc) == (24, "INF1", 23)
    assert t.state.commanders["kienmayer"].loc == 24  # the commander goes with his anchor
    assert "nothing to retreat from" in refused(t.state, "AL", "retreat").message


def test_answer_forms() -> None:
    """The answers' payloads; `hold` follows the open decision (hold or feint_hold)."""
    t = Table(pos(COMMAND))
    say(t, "F", "attack from Telnitz towards Sokolnitz")
    s = t.state
    assert one(s, "AL", "vacate") == ("vacate", {})
    assert one(s, "AL", "defend with A01 and A02") == (
        "defend", {"named": ["A01", "A02"], "leading": []}
    )  # fmt: skip
    assert one(s, "F", "feint with unit F01 block") == (
        "declare_feint", {"commands": [{"kind": "unit_move", "unit": "F01"}], "end": "block"}
    )  # fmt: skip
    assert one(s, "F", "feint with corps legrand detach F12 reserve")[1] == {
        "commands": [{"kind": "corps_move", "commander": "legrand", "detach": ["F12"]}],
        "end": "reserve",
    }
    assert "block' or 'reserve" in refused(s, "F", "feint with unit F01").message
    assert one(s, "F", "attack with detachment legrand F11, F12, unit F02 narrow")[1] == {
        "commands": [
            {"kind": "detach_move", "commander": "legrand", "units": ["F11", "F12"]},
            {"kind": "unit_move", "unit": "F02"},
        ],
        "width": "narrow", "target": None, "leading": [],
    }  # fmt: skip
    assert one(s, "F", "advance with unit F02 artillery") == (
        "declare_after_vacate",
        {"commands": [{"kind": "unit_move", "unit": "F02"}], "artillery": True},
    )
    assert one(s, "AL", "losses A01 1, A02 2") == (
        "assign_losses", {"losses": [{"unit": "A01", "sp": 1}, {"unit": "A02", "sp": 2}]}
    )  # fmt: skip
    assert "'<unit> <points>'" in refused(s, "AL", "losses A01").message
    assert one(s, "F", "anchor St. Hilaire F13, legrand F10") == (
        "choose_anchor", {"anchors": {"st-hilaire": "F13", "legrand": "F10"}}
    )  # fmt: skip
    assert one(s, "AL", "hold A01, kienmayer") == ("hold", {"pieces": ["A01", "kienmayer"]})


def test_hold_follows_the_open_decision() -> None:
    """After a blocking feint against a reserve defense the defender holds the approach
    (NT-76..NT-78): `hold` answers the open feint_hold decision."""
    pieces = [
        "F F01 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "F F02 INF3 @SOKOLNITZ_WEST.R [legrand]",
        "AL A01 INF2 @TELNITZ_WEST.R [kienmayer]",
        "AL A02 INF2 @TELNITZ_WEST.R [kienmayer]",
    ]
    t = Table(pos(pieces))
    say(t, "F", "attack from 22 towards 25")
    say(t, "AL", "defend with A01, A02, Kienmayer leading A02")
    say(t, "F", "feint with corps Legrand block")
    assert waiting(t) == "feint_hold"
    assert one(t.state, "AL", "hold A01 and Kienmayer") == (
        "feint_hold", {"pieces": ["A01", "kienmayer"]}
    )  # fmt: skip
    say(t, "AL", "hold A01, kienmayer")
    assert (t.unit("A01").loc, t.unit("A01").app) == (25, "A054")
    assert (t.unit("A02").loc, t.unit("A02").app) == (25, None)
    assert (t.unit("F01").loc, t.unit("F01").app) == (22, "A054")


# ----------------------------------------------------------------------------- random play


@cache
def random_round_trips() -> tuple[dict[str, int], int]:
    """Random games on the real board: every action random play makes, the two set-ups
    included, written as text (tests/support/nt_text.py) and read back, is accepted and leads to
    exactly the same state. Returns (kinds checked, skipped)."""
    checked: dict[str, int] = {}
    skipped = 0
    for seed in range(1, 6):
        state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(seed))
        rng = Rng(1000 + seed)
        for _ in range(300):
            prompts = RULESET.prompts(state)
            if not prompts:
                break
            role = sorted(prompts)[0]
            action = RULESET.random_action(state, role, rng)
            assert action is not None
            want = RULESET.apply(state, action, Rng(0)).state
            text = action_text(state, role, action)
            if text is None:
                skipped += state.phase == "turn" and action.kind != "set_defense_plan"
                state = want
                continue
            got = parse_text(ctx_of(state), role, text)
            assert not isinstance(got, Rejection), (text, got)
            after = accepted(state, got)
            assert state_hash(RULESET.dump(after)) == state_hash(RULESET.dump(want)), (
                text,
                action,
                list(got),
            )
            checked[action.kind] = checked.get(action.kind, 0) + 1
            state = want
    return checked, skipped


def test_random_play_round_trip() -> None:
    """Text forms of random legal actions reproduce them exactly (same state hash after apply)."""
    checked, skipped = random_round_trips()
    for kind in ["allied_setup", "french_setup", "unit_move", "corps_move", "detach_move",
                 "attach", "enter_reinforcement", "threaten", "end_turn", "defend", "vacate",
                 "no_feint", "declare_feint", "declare_attack", "declare_after_vacate",
                 "feint_hold"]:  # fmt: skip
        assert checked.get(kind, 0) > 0, (kind, checked)
    assert skipped <= sum(checked.values()) // 20, (skipped, checked)


# ----------------------------------------------------------------------------- never raises


GRAMMAR_WORDS = sorted(
    MOVE_KEYS
    | ATTACK_KEYS
    | {"move", "attack", "from", "towards", "guard", "enter", "at", "retreat", "anchor", "hold",
       "odd", "loss", "losses", "no", "end", "turn", "defend", "vacate", "counter", "road", "and",
       ",", "#", "F01", "F05", "A01", "legrand", "St.", "Hilaire", "Pratzeberg", "Telnitz",
       "24", "20", "0", "-1", "99999999999999999999", "A052", "EF1", "\n", ">", "--", "."}
)  # fmt: skip

STATE = pos(COMMAND)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    for role in ("french", "allied", "nobody"):
        out = parse_orders(ctx_of(STATE), role, text)  # the parser proper, without the safety net
        assert isinstance(out, Rejection | list)
        assert isinstance(parse_text(ctx_of(STATE), role, text), Rejection | list)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(GRAMMAR_WORDS), max_size=14))
def test_never_raises_on_grammar_words(words: list[str]) -> None:
    text = " ".join(words)
    for state in (STATE, attack_state()):
        for role in ("french", "allied"):
            out = parse_orders(ctx_of(state), role, text)
            assert isinstance(out, Rejection | list)


@cache
def attack_state() -> GameState:
    t = Table(pos(COMMAND))
    say(t, "F", "attack from Telnitz towards Sokolnitz")
    return t.state


@pytest.mark.parametrize("text", ["move", "corps", "detach", "attach", "enter", "attack with",
                                  "feint with", "defend with", "odd", "losses", "anchor", "hold",
                                  "attack from", "move F05 to", "move F05 by road via",
                                  "retreat", "counter", "no", "attack with corps"])  # fmt: skip
def test_truncated_orders_are_form_errors(text: str) -> None:
    """Every order cut short is an NT-0 rejection that names line 1 (no attack is open)."""
    r = refused(pos(COMMAND), "F", text)
    assert r.path == "/line/1"


def test_an_overlong_line_is_refused_at_once() -> None:
    """A line longer than any order (500 characters) is a form error, read no further: the name
    look-ups grow with the square of a line's length (8000 words once took 3.5 s)."""
    text = "move F05 to Telnitz\ndetach " + "legrand " * 8000
    out = parse_text(ctx_of(STATE), "french", text)
    assert isinstance(out, Rejection)
    assert (out.rule, out.path) == ("NT-0", "/line/2")
    assert "longer than 500 characters" in out.message
