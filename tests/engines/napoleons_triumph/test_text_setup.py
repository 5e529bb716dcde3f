"""Set-up as plain text (text_setup.py, README "Plain-text orders"): during setup_AL / setup_F the
whole text is one allied_setup / french_setup action, one line per corps, detachment and battery.

Real commanders and units of the austerlitz board in DEC2 (every Allied corps on the map) and
DEC1 (two); every text claimed to work is also accepted by `RULESET.validate` and applied. The
platform finds the lines an action used by parsing prefixes, so a proper prefix of a set-up text
must be refused or read as a different action: checked over every prefix of random set-ups.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.canonical import state_hash
from games.core.protocol import Action, GameConfig, Rejection
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.text import parse_orders, parse_text
from games.napoleons_triumph.text_setup import MAX_LINE_CHARS, MAX_LINES
from tests.support.nt_text import action_text

AL_DEC2 = """# Allied set-up, 2 December
corps Bagration: A01, A02, A03, A04, A05, A06, A07, A08 blocking Holubitz
corps constantine: A09, A10, A11, A12, A13, A14 blocking a090
corps Miloradovich A15 A16 A17 A18 A19
corps langeron: A20, A21, A22, A23 and A24
corps prebyshevsky: A25, A26, A27, A28
corps kollowrath: A29, A30, A31, A32
corps dokhturov: A33, A34, A35, A36
corps liechtenstein: A37, A38, A39, A40
corps kienmayer: A41, A42, A43, A44.
--
Kutusov
"""

F_CORPS = """corps Bessières: F35, F36, F01, F28
corps murat: F04, F05, F06, F07, F08
corps lannes: F02, F12, F13, F14, F29
corps vandamme: F15, F16, F17, F30
corps St. Hilaire: F18, F19, F20, F31
corps legrand: F21, F22, F23
corps bernadotte: F09, F24, F25, F32, F33 off map
corps davout off map: F10, F11, F26, F27, F34, F03
"""
F_DEC2 = (
    F_CORPS + "detachment F13 at Bellowitz blocking Zuran Berg\nbattery F01 blocking Schlapanitz\n"
)

AL_DEC1 = """corps bagration: A01, A02, A03, A04, A05, A06, A07, A08
corps kienmayer: A41, A42, A43, A44 blocking Satschan
corps constantine: A09, A10, A11, A12, A13, A14 off map
corps miloradovich: A15, A16, A17, A18, A19 off map
corps langeron: A20, A21, A22, A23, A24 off map
corps prebyshevsky: A25, A26, A27, A28 off map
corps kollowrath: A29, A30, A31, A32 off map
corps dokhturov: A33, A34, A35, A36 off map
corps liechtenstein: A37, A38, A39, A40 off map
"""
F_DEC1 = (
    F_CORPS.replace("corps lannes: F02, F12, F13, F14, F29", "corps lannes: F02 F12 F13 F14 F29 "
                    "blocking Bellowitz")
    + "detachment F12 at Siwitz\nfixed battery F02\n"
)  # fmt: skip


def start(scenario: str) -> GameState:
    return RULESET.setup(GameConfig(scenario, {"board": "austerlitz"}), Rng(1))


def read(state: GameState, role: str, text: str) -> Action:
    out = parse_text(RULESET.ctx(state), role, text)
    assert not isinstance(out, Rejection), out
    assert len(out) == 1
    return out[0]


def payload(a: Action) -> dict[str, Any]:
    """The payload of a set-up action, for reading in the tests."""
    assert isinstance(a.payload, dict)
    return a.payload


def applied(state: GameState, action: Action) -> GameState:
    assert RULESET.validate(state, action) == (), RULESET.validate(state, action)
    return RULESET.apply(state, action, Rng(0)).state


def refused(state: GameState, role: str, text: str) -> Rejection:
    out = parse_text(RULESET.ctx(state), role, text)
    assert isinstance(out, Rejection), f"{text!r} was read as {out}"
    assert out.rule == "NT-0"
    return out


@cache
def french_turn(scenario: str) -> GameState:
    """The setup_F state after the Allied text of `scenario`."""
    s = start(scenario)
    return applied(s, read(s, "allied", AL_DEC2 if scenario == "DEC2" else AL_DEC1))


# ----------------------------------------------------------------------------- whole set-ups


def test_allied_setup_dec2() -> None:
    """Nine corps by display name or id, with or without ':', `blocking` by place or approach id;
    the signature after '--' is not read. Accepted and applied: the French set up next."""
    s = start("DEC2")
    a = read(s, "allied", AL_DEC2)
    assert (a.role, a.kind) == ("allied", "allied_setup")
    corps = payload(a)["corps"]
    assert [c["commander"] for c in corps] == [
        "bagration", "constantine", "miloradovich", "langeron", "prebyshevsky", "kollowrath",
        "dokhturov", "liechtenstein", "kienmayer",
    ]  # fmt: skip
    assert corps[0] == {
        "commander": "bagration",
        "units": ["A01", "A02", "A03", "A04", "A05", "A06", "A07", "A08"],
        "approach": "A074",  # Bagration's locale 32 towards Holubitz (29)
    }
    assert corps[1]["approach"] == "A090"
    assert corps[2]["units"] == ["A15", "A16", "A17", "A18", "A19"]
    assert corps[3]["units"] == ["A20", "A21", "A22", "A23", "A24"]
    after = applied(s, a)
    assert after.phase == "setup_F"
    assert (after.units["A01"].loc, after.units["A01"].app) == (32, "A074")
    assert (after.units["A44"].loc, after.units["A44"].app) == (46, None)


def test_french_setup_dec2() -> None:
    """Eight corps (two off the map), a detachment by place names and the fixed battery blocking
    towards a place, resolved from its corps' set-up locale (Zuran Berg, 7)."""
    s = french_turn("DEC2")
    a = read(s, "french", F_DEC2)
    assert a.kind == "french_setup"
    p = a.payload
    assert isinstance(p, dict)
    corps = p["corps"]
    assert isinstance(corps, list)
    assert [c["commander"] for c in corps if isinstance(c, dict) and c.get("off_map")] == [
        "bernadotte", "davout"
    ]  # fmt: skip
    assert p["detachments"] == [{"unit": "F13", "position": {"locale": 9, "approach": "A017"}}]
    assert p["fixed_battery"] == {"unit": "F01", "approach": "A018"}
    after = applied(s, a)
    assert after.phase == "turn"
    assert (after.units["F13"].loc, after.units["F13"].app, after.units["F13"].corps) == (
        9, "A017", None
    )  # fmt: skip
    f01 = after.units["F01"]
    assert (f01.loc, f01.app, f01.fixed) == (7, "A018", True)
    assert after.units["F10"].where == after.commanders["davout"].where != "map"


def test_dec1_setups() -> None:
    """DEC1: two Allied corps on the map, seven off it; the French battery named as it stands
    (with its corps, blocking Bellowitz) and a detachment in reserve."""
    s = start("DEC1")
    a = read(s, "allied", AL_DEC1)
    corps = payload(a)["corps"]
    assert [c.get("off_map", False) for c in corps] == [False, False] + [True] * 7
    assert corps[1]["approach"] == "A122"  # Aujezd (46) towards Satschan
    s = applied(s, a)
    f = read(s, "french", F_DEC1)
    p = f.payload
    assert isinstance(p, dict)
    assert p["fixed_battery"] == {"unit": "F02", "approach": None}
    assert p["detachments"] == [{"unit": "F12", "position": {"locale": 55, "approach": None}}]
    after = applied(s, f)
    assert (after.units["F02"].loc, after.units["F02"].app) == (8, "A020")
    assert after.units["F02"].fixed


def test_names_aliases_and_case() -> None:
    """Commanders by id or display name in any case, places by alias or locale number, approach
    ids in any case, lists by commas, 'and' or blanks, `fixed battery` = `battery`."""
    s = french_turn("DEC2")
    base = read(s, "french", F_DEC2).payload
    variants = [
        F_DEC2.replace("corps St. Hilaire:", "CORPS st-hilaire").replace("Bessières", "bessieres"),
        F_DEC2.replace("at Bellowitz blocking Zuran Berg", "AT bedřichovice BLOCKING žuráň"),
        F_DEC2.replace("at Bellowitz blocking Zuran Berg", "at 9 blocking a017"),
        F_DEC2.replace("battery F01 blocking Schlapanitz", "Fixed Battery f01 blocking A018"),
        F_DEC2.replace("battery F01 blocking Schlapanitz", "battery F01 blocking šlapanice"),
        F_DEC2.replace("F04, F05, F06, F07, F08", "F04 F05, F06 and f07 F08"),
    ]
    for text in variants:
        assert read(s, "french", text).payload == base, text


def test_battery_none_and_no_battery_line() -> None:
    """`battery none` is an explicit null (NT-24 refuses it while artillery is on the map); with no
    battery line the key is absent. Both read, validate judges."""
    s = french_turn("DEC2")
    none = read(s, "french", F_CORPS + "battery none").payload
    absent = read(s, "french", F_CORPS).payload
    assert isinstance(none, dict)
    assert isinstance(absent, dict)
    assert none["fixed_battery"] is None
    assert "fixed_battery" not in absent
    for p in (none, absent):
        rules = [r.rule for r in RULESET.validate(s, Action("french", "french_setup", p))]
        assert rules == ["NT-24"]


def test_parser_reads_names_validate_judges() -> None:
    """A missing commander or a French set-up in the Allied phase are read, and refused by the
    rules (NT-21, NT-19), not by the parser."""
    s = start("DEC2")
    short = read(s, "allied", "corps bagration: A01, A02, A03, A04")
    assert [r.rule for r in RULESET.validate(s, short)] == ["NT-21"]
    early = read(s, "french", F_DEC2)
    assert early.kind == "french_setup"
    assert [r.rule for r in RULESET.validate(s, early)] == ["NT-19"]


# ----------------------------------------------------------------------------- form errors

ERRORS: list[tuple[str, str, str, int, str]] = [
    # (scenario phase, role, text, line, part of the message)
    ("AL", "allied", "corps bagration: A01\nmove A02 to 32", 2, "'move' is not a set-up order"),
    ("AL", "allied", "corps bagration: A01\n\ndetachment A02 at 32", 3, "only the French"),
    ("AL", "allied", "corps", 1, "a commander is missing"),
    ("AL", "allied", "corps kutusov: A01", 1, "'kutusov' is not one of your commanders"),
    ("AL", "allied", "corps bagrat A01", 1, "did you mean Bagration"),
    ("AL", "allied", "# ok\ncorps bagration: A01, X99", 2, "'X99' is not one of your units"),
    ("AL", "allied", "corps bagration: A01, F01", 1, "'F01' is not one of your units"),
    ("AL", "allied", "corps bagration: A01 blocking Telnitz", 1, "are not adjacent"),
    ("AL", "allied", "corps bagration: A01 blocking A052", 1,
     "A052 is not an approach of Bagration's set-up locale 32"),
    ("AL", "allied", "corps bagration: A01 off road", 1, "write 'off map'"),
    ("AL", "allied", "corps bagration: A01 blocking 29 blocking 31", 1, "given twice"),
    ("AL", "allied", "corps bagration: A01: A02", 1, "one ':'"),
    ("AL", "allied", "corps bagration: A01 blocking Nowhere", 1, "is not a known place"),
    ("F", "french", "detachment F13 Bellowitz", 1, "write 'detachment <unit> at <place>"),
    ("F", "french", "detachment F13 at Pratzeberg", 1, "names locales 41"),
    ("F", "french", "detach F13 at 9", 1, "did you mean detachment"),
    ("F", "french", "battery F01 F02", 1, "write 'battery <unit>"),
    ("F", "french", "battery F01\n#\nbattery F02", 3, "already given on line 1"),
    ("F", "french", "corps murat: F04\nbattery F99", 2, "'F99' is not one of your units"),
    ("F", "french", "battery F03 blocking Telnitz", 1, "write the approach id"),
    ("F", "french", "corps lannes: F02\nbattery F02 blocking Telnitz", 2, "are not adjacent"),
    ("F", "french", "corps davout: F10 blocking Telnitz", 1, "Davout has no set-up locale"),
    ("F", "french", "corps murat: F04\nend turn", 2, "'end' is not a set-up order"),
    ("F", "french", "corps murat: " + "F04 " * MAX_LINE_CHARS, 1, "longer than"),
    ("F", "french", "corps murat: F04\n" * (MAX_LINES + 1), MAX_LINES + 1, "at most"),
]  # fmt: skip


@pytest.mark.parametrize(("phase", "role", "text", "line", "part"), ERRORS)
def test_form_errors_name_their_line(
    phase: str, role: str, text: str, line: int, part: str
) -> None:
    state = start("DEC2") if phase == "AL" else french_turn("DEC2")
    r = refused(state, role, text)
    assert r.message.startswith(f"line {line}: "), r
    assert part in r.message, r
    assert r.path == f"/line/{line}"


def test_empty_text_and_role_without_side() -> None:
    s = start("DEC2")
    r = refused(s, "allied", "# nothing\n\n> quoted\n")
    assert (r.message, r.path) == ("the text holds no order", "/")
    other = parse_text(RULESET.ctx(s), "umpire", "corps bagration: A01")
    assert isinstance(other, Rejection)
    assert other.rule == "NT-140"


def test_setup_lines_are_errors_outside_the_setup() -> None:
    """Once the game has begun, set-up lines are read as orders, and refused as such."""
    s = applied(french_turn("DEC2"), read(french_turn("DEC2"), "french", F_DEC2))
    assert s.phase == "turn"
    assert "'battery' is not an order" in refused(s, "french", "battery F01").message
    assert "'detachment' is not an order" in refused(s, "french", "detachment F13 at 9").message
    assert "say where the corps move goes" in refused(s, "french", "corps murat").message
    assert "not one of your commanders" in refused(s, "french", "corps murat: F04").message


# ----------------------------------------------------------------------------- random set-ups


@cache
def random_setups() -> list[tuple[GameState, str, Action]]:
    """(state, role, action) of random legal set-ups, Allied and French, DEC1 and DEC2."""
    out: list[tuple[GameState, str, Action]] = []
    for scenario in ("DEC1", "DEC2"):
        for seed in range(1, 9):
            state = start(scenario)
            rng = Rng(500 + seed)
            for role in ("allied", "french"):
                action = RULESET.random_action(state, role, rng)
                assert action is not None
                assert action.kind.endswith("_setup")
                out.append((state, role, action))
                state = RULESET.apply(state, action, Rng(0)).state
    return out


def test_random_setups_round_trip() -> None:
    """A random legal set-up written as text reads back to an action that gives exactly the same
    state (hash) as the original."""
    for state, role, action in random_setups():
        text = action_text(state, role, action)
        assert text is not None
        got = read(state, role, text)
        want = RULESET.apply(state, action, Rng(0)).state
        assert state_hash(RULESET.dump(applied(state, got))) == state_hash(RULESET.dump(want))


def test_auction_then_setups_by_text() -> None:
    """With the auction for sides (NT-134), every random action up to the first turn, bids and
    both set-ups, goes through its text and gives exactly the same state."""
    kinds: set[str] = set()
    for seed in range(1, 7):
        state = RULESET.setup(
            GameConfig("DEC2", {"board": "austerlitz", "balance": "auction"}), Rng(seed)
        )
        rng = Rng(seed)
        while state.phase != "turn":
            role = sorted(RULESET.prompts(state))[0]
            action = RULESET.random_action(state, role, rng)
            assert action is not None
            text = action_text(state, role, action)
            assert text is not None, action
            got = read(state, role, text)
            want = RULESET.apply(state, action, Rng(0)).state
            state = applied(state, got)
            assert state_hash(RULESET.dump(state)) == state_hash(RULESET.dump(want)), text
            kinds.add(action.kind)
    assert {
        "auction_bid",
        "auction_pass",
        "auction_choose_side",
        "allied_setup",
        "french_setup",
    } <= kinds


def test_every_prefix_is_refused_or_differs() -> None:
    """For every proper prefix of the order lines of a set-up text (comments between them
    kept), the parse is a rejection or an action different from the full text's: random set-ups,
    the hand-written ones, and a last line that adds a null (`battery none`)."""
    texts = [(s, role, action_text(s, role, a)) for s, role, a in random_setups()]
    texts += [
        (start("DEC2"), "allied", AL_DEC2.split("--")[0]),
        (start("DEC1"), "allied", AL_DEC1),
        (french_turn("DEC2"), "french", F_DEC2),
        (french_turn("DEC1"), "french", F_DEC1),
        (french_turn("DEC2"), "french", F_CORPS + "battery none"),
        (french_turn("DEC2"), "french", F_CORPS + "detachment F13 at 9\ncorps murat: F04"),
    ]
    prefixes = 0
    for state, role, text in texts:
        assert text is not None
        lines = [line for line in text.splitlines() if line and not line.startswith("#")]
        with_comments = [x for line in lines for x in (line, "# a comment")]
        full = parse_text(RULESET.ctx(state), role, "\n".join(with_comments))
        assert not isinstance(full, Rejection)
        for k in range(len(with_comments) - 1):  # the last order line is always left out
            got = parse_text(RULESET.ctx(state), role, "\n".join(with_comments[:k]))
            assert isinstance(got, Rejection) or list(got) != list(full), (k, got)
            prefixes += 1
    assert prefixes > 100


# ----------------------------------------------------------------------------- never raises

WORDS = [
    "corps", "detachment", "battery", "fixed", "none", "blocking", "off", "map", "at", ":", ",",
    "and", "bagration", "St.", "Hilaire", "murat", "davout", "A01", "F01", "F02", "F13", "A052",
    "A017", "Telnitz", "Pratzeberg", "9", "0", "-1", "99999999999999999999", "\n", "#", "--",
    ".", ";", "žuráň",
]  # fmt: skip


@cache
def setup_states() -> tuple[GameState, ...]:
    return (start("DEC1"), start("DEC2"), french_turn("DEC1"), french_turn("DEC2"))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    for state in setup_states():
        for role in ("allied", "french", "nobody"):
            out = parse_orders(RULESET.ctx(state), role, text)  # without parse_text's safety net
            assert isinstance(out, Rejection | list)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=16))
def test_never_raises_on_setup_words(words: list[str]) -> None:
    text = " ".join(words)
    for state in setup_states():
        for role in ("allied", "french"):
            out = parse_orders(RULESET.ctx(state), role, text)
            assert isinstance(out, Rejection | list)
            if isinstance(out, list):
                assert len(out) == 1
                assert out[0].kind.endswith("_setup")
