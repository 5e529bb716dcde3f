"""Digest 4.5: the turn order sheet written as text (`order_text.py`): the notation, every
refusal (with its rule id and line number), round trips (a sheet -> text -> the same sheet),
the initiative choice and the umpire's answers by text, and a whole starter game played by text
only."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON, Action, Prompt, Rejection
from games.core.rng import Rng
from games.core.umpire import CORRECTION_KIND, UMPIRE
from games.valour_fortitude import match as m
from games.valour_fortitude import order_text as ot
from games.valour_fortitude.context import BOOL, COUNT, COVER, INCHES, OFFSET
from games.valour_fortitude.rules import RULESET, schema_errors
from tests.engines.valour_fortitude.vf_play import starter

MATCH = starter()
GAME = MATCH.game
OWN = [u.id for u in GAME.units if u.side == "A"]
FOES = [u.id for u in GAME.units if u.side == "B"]
ALL = OWN + FOES
BRIGADES = [b.id for b in GAME.brigades]
LEADERS = [x.id for x in GAME.leaders]


def _orders(state: m.Match) -> m.Match:
    """The starter match with side A to send its sheet (B chooses A to begin; any other
    prompt before the sheet, such as a fate window, is answered by random play)."""
    state = RULESET.apply(state, Action("B", "choose_first_side", {"side": "A"}), Rng(3)).state
    rng = Rng(4)
    for i in range(20):
        prompts = RULESET.prompts(state)
        if "turn_orders" in prompts.get("A", Prompt("A", {}, "")).kinds:
            return state
        role = sorted(prompts)[0]
        action = RULESET.random_action(state, role, rng)
        assert action is not None
        state = RULESET.apply(state, action, Rng.for_event(b"vf-orders", i)).state
    raise AssertionError("side A is never asked for its sheet")


def sheet_of(text: str, role: str = "A") -> dict[str, JSON]:
    actions = RULESET.parse_text(MATCH, role, text)
    assert not isinstance(actions, Rejection), actions
    assert len(actions) == 1
    assert actions[0].kind == "turn_orders"
    payload = actions[0].payload
    assert isinstance(payload, dict)
    assert not schema_errors("turn_orders", payload)
    return payload


def refusal(text: str, role: str = "A", state: m.Match = MATCH) -> Rejection:
    found = RULESET.parse_text(state, role, text)
    assert isinstance(found, Rejection), found
    return found


def test_the_notation_reads_every_field_of_the_sheet() -> None:
    text = """
    # side A, round 1
    fire U-A1 at U-B2 mode skirmish support U-A3 U-A4
    shoot u-a5 u-b6                  # ids in any case, `at` may be left out
    brigades BR-A2 br-a1
    move U-A2 to (50, 20) (54.25,27)
    U-A6 charge at U-B3 to 60,20.5   # the unit may come first
    rally U-A9
    stand U-A8
    withdraw U-A7 via 10 11
    march U-A3 path 1,2 3,4
    bg L-A2 to 52,18
    cinc to 40,10 45,14
    fight U-A6 at U-B3 support none brigade U-A5
    fight U-A1 U-B1 support U-A4 brigade none
    on_illegal skip
    strike_back auto                 # the standing V-09 policy for the enemy's turns
    """
    assert sheet_of(text) == {
        "shooting": [
            {"target": "U-B2", "firer": "U-A1", "mode": "skirmish", "supporters": ["U-A3", "U-A4"]},
            {"target": "U-B6", "firer": "U-A5"},
        ],
        "brigade_order": ["BR-A2", "BR-A1"],
        "units": {
            "U-A2": {"action": "MOVE", "path": [["50", "20"], ["54.25", "27"]]},
            "U-A6": {"action": "CHARGE", "target": "U-B3", "path": [["60", "20.5"]]},
            "U-A9": {"action": "RALLY"},
            "U-A8": {"action": "STAND"},
            "U-A7": {"action": "WITHDRAW", "path": [["10", "11"]]},
            "U-A3": {"action": "MARCH", "path": [["1", "2"], ["3", "4"]]},
        },
        "bg_moves": {"L-A2": [["52", "18"]]},
        "cinc_move": [["40", "10"], ["45", "14"]],
        "melee_plan": [
            {"attacker": "U-A6", "target": "U-B3", "supporters": [], "brigade_supporter": "U-A5"},
            {
                "attacker": "U-A1",
                "target": "U-B1",
                "supporters": ["U-A4"],
                "brigade_supporter": None,
            },
        ],
        "on_illegal": "skip",
        "strike_back": "auto",
    }


def test_small_forms() -> None:
    assert sheet_of("pass") == {}
    assert sheet_of("melee auto") == {"melee_plan": "auto"}
    assert sheet_of("brigade order BR-A3\nbrigades BR-A1") == {"brigade_order": ["BR-A3", "BR-A1"]}
    assert sheet_of("move U-A1 to 1,2 formation formation=LINE files=6")["units"] == {
        "U-A1": {
            "action": "MOVE",
            "path": [["1", "2"]],
            "formation_after": {"formation": "LINE", "files": 6},
        }
    }


def test_the_sheet_is_one_action_among_the_others() -> None:
    actions = RULESET.parse_text(MATCH, "A", "confirm\nrally U-A1\nfirst B\nstand U-A2")
    assert isinstance(actions, list)
    assert [a.kind for a in actions] == ["confirm", "turn_orders", "choose_first_side"]
    assert actions[1].payload == {
        "units": {"U-A1": {"action": "RALLY"}, "U-A2": {"action": "STAND"}}
    }


@pytest.mark.parametrize(
    ("text", "rule", "line", "words"),
    [
        ("", "4.5", None, "no orders found"),
        ("# only a comment", "4.5", None, "no orders found"),
        ("rally U-A1\nadvance U-A2", "4.5", 2, "'advance' is no order"),
        ("fire U-A1 at U-X9", "4.5", 1, "did you mean: U-B9, U-A9"),
        ("move U-A1 to 1,2,3", "4.5", 1, "x,y in inches"),
        ("move U-A1 to 1,two", "4.5", 1, "x,y in inches"),
        ("move U-A1 to 1.2345,2", "4.5", 1, "1.2345 is not a distance"),
        ("move U-A1 to 12345,2", "4.5", 1, "12345 is not a distance"),
        ("move U-A1 to " + " ".join(["1,1"] * 13), "4.5", 1, "at most 12 points"),
        ("move U-A1 to 1,1 to 2,2", "4.5", 1, "'to' is given twice"),
        ("move U-A1 U-A2 to 1,1", "4.5", 1, "write: move <unit>"),
        ("charge U-A1 at U-B1 U-B2 to 1,1", "4.5", 1, "write: charge <unit>"),
        ("move U-A1 to 1,1 formation LINE", "4.5", 1, "key=value"),
        ("fire U-A1 at U-B1 mode volley", "4.5", 1, "full, skirmish, carbine"),
        ("fire U-A1", "4.5", 1, "write: fire <firer>"),
        ("fire U-A1 at U-B1 support", "4.5", 1, "support none"),
        ("rally U-A1\n\nstand U-A1", "4.5", 3, "units/U-A1 was already given on line 1"),
        ("bg L-A1 to 1,1\nbg L-A1 to 2,2", "4.5", 2, "already given on line 1"),
        ("bg L-A9 to 1,1", "4.5", 1, "there is no leader L-A9"),
        ("bg L-A1", "4.5", 1, "write: bg <leader> to <points>"),
        ("cinc to 1,1\ncinc to 2,2", "4.5", 2, "cinc_move was already given"),
        ("cinc L-A0 to 1,1", "4.5", 1, "write: cinc to <points>"),
        ("brigades", "4.5", 1, "write: brigades"),
        ("brigades BR-Z1", "4.5", 1, "there is no brigade BR-Z1"),
        ("melee auto\nfight U-A1 at U-B1", "4.5", 2, "drop it or the fights"),
        ("fight U-A1 at U-B1\nmelee auto", "4.5", 2, "melee_plan was already given on line 1"),
        ("melee sometimes", "4.5", 1, "melee auto"),
        ("fight U-A1 at U-B1 brigade U-A2 U-A3", "4.5", 1, "write: fight"),
        ("on_illegal maybe", "4.5", 1, "on_illegal skip"),
        ("on_illegal skip\non_illegal ask", "4.5", 2, "already given"),
        ("pass now", "4.5", 1, "stands alone"),
        ("strike_back sometimes", "4.5", 1, "strike_back auto"),
        ("strike_back auto\nstrike_back none", "4.5", 2, "strike_back was already given"),
        ("rally U-A1\npass", "4.5", 2, "cannot come with other orders"),
        ("fate 11 unit U-A1", "VF-222", 1, "write: fate <card>"),
        ("fate 5 unit U-A1 U-A2", "VF-222", 1, "write: fate <card>"),
        ("fate 7 shot first", "VF-222", 1, "number of a shooting order"),
        ("fate 4 brigade BR-A1 move U-A1", "VF-222", 1, "write: fate <card>"),
        ("fate 4 brigade BR-A1 move to 1,2", "VF-222", 1, "write: fate <card>"),
        ("rally U-A1\nplay Z", "VF-222", 2, "write: fate <card>"),
        ("reserve U-A1 to 1,2", "VF-120", 1, "write: reserve"),
        ("reserve U-A1 at 1,2 3,4 to 5,6", "VF-120", 1, "write: reserve"),
        ("reserve U-A1 at 1,2 to 5,6 after BR-Z9", "4.5", 1, "there is no brigade BR-Z9"),
        ("first C", "VF-251", 1, "first A"),
        ("first", "VF-251", 1, "first A"),
        ("correct key yes", "V-14", 1, "because <reason>"),
        ("correct key because reason", "V-14", 1, "because <reason>"),
        ("correct key yes because", "V-14", 1, "because <reason>"),
        ("confirm " + "x" * 401, "V-14", 1, "400 characters"),
        ("rally U-A1 " + "#" * 10 + " " + "y" * 1300, "4.5", 1, "at most 1200 characters"),
    ],
)
def test_refusals_name_the_rule_and_the_line(
    text: str, rule: str, line: int | None, words: str
) -> None:
    found = refusal(text)
    assert found.rule == rule
    assert words in found.message
    if line is not None:
        assert found.message.startswith(f"line {line}: ")
        assert found.path == f"/line/{line}"


def test_too_many_lines_are_refused() -> None:
    found = refusal("rally U-A1\n" * 401)
    assert found.rule == "4.5"
    assert "at most 400 lines" in found.message


def test_parsed_sheets_are_judged_by_the_ruleset_not_the_reader() -> None:
    """The reader never judges legality: a foreign unit parses, and the ruleset refuses it."""
    state = _orders(MATCH)
    actions = RULESET.parse_text(state, "A", "rally U-B1")
    assert isinstance(actions, list)
    assert RULESET.validate(state, actions[0])[0].rule == "VF-53"
    actions = RULESET.parse_text(state, "A", "on_illegal ask")
    assert isinstance(actions, list)
    assert RULESET.validate(state, actions[0])[0].rule == "4.5"


# ----------------------------------------------------------------------------- round trips

COORDS = st.one_of(
    st.integers(-999, 999).map(str),
    st.decimals(-999, 999, places=3, allow_nan=False, allow_infinity=False).map(str),
    st.integers(-999, 999),
)
PATHS = st.lists(st.lists(COORDS, min_size=2, max_size=2), min_size=1, max_size=12)
IDS = st.lists(st.sampled_from(ALL), max_size=3, unique=True)
SHOTS = st.fixed_dictionaries(
    {"target": st.sampled_from(ALL), "firer": st.sampled_from(ALL)},
    optional={"mode": st.sampled_from(["full", "skirmish", "carbine"]), "supporters": IDS},
)
FIGHTS = st.fixed_dictionaries(
    {"attacker": st.sampled_from(ALL), "target": st.sampled_from(ALL)},
    optional={"supporters": IDS, "brigade_supporter": st.none() | st.sampled_from(ALL)},
)
CHANGES = st.fixed_dictionaries(
    {"formation": st.sampled_from(["LINE", "ATTACK_COLUMN", "MARCH_COLUMN", "SQUARE"])},
    optional={
        "pivot": st.integers(0, 40),
        "files": st.integers(0, 99),
        "ranks": st.integers(0, 9),
        "facing": st.integers(0, 359),
        "gap_in": st.sampled_from(["0.5", "1.25"]),  # a whole number reads back as a number
    },
)
ORDERS = st.fixed_dictionaries(
    {
        "action": st.sampled_from(
            ["STAND", "MOVE", "WITHDRAW", "CHARGE", "MARCH", "RALLY", "OCCUPY"]
        )
    },
    optional={
        "path": PATHS,
        "target": st.sampled_from(ALL),
        "feature": st.sampled_from(["V1", "V2", "W1"]),  # VF-195
        "formation_after": CHANGES,
        "formation_before": CHANGES,
    },
)
FATE_ENTRIES = st.fixed_dictionaries(
    {"card": st.sampled_from(ot.CARDS)},
    optional={
        "unit": st.sampled_from(ALL),
        "brigade": st.sampled_from(BRIGADES),
        "objective": st.sampled_from(["O1", "O2", "O3"]),
        "shot": st.integers(0, 29),
        "as": st.just("eigeninitiative"),
        "phase": st.sampled_from(["shooting", "melee"]),
        "path": PATHS,
        "moves": st.lists(
            st.fixed_dictionaries({"unit": st.sampled_from(ALL), "path": PATHS}), max_size=3
        ),
    },
)
RESERVES = st.fixed_dictionaries(
    {"unit": st.sampled_from(ALL), "at": PATHS.map(lambda p: p[0]), "path": PATHS},
    optional={"after": st.sampled_from(BRIGADES)},
)
SHEETS = st.fixed_dictionaries(
    {},
    optional={
        "shooting": st.lists(SHOTS, max_size=4),
        "brigade_order": st.lists(st.sampled_from(BRIGADES), max_size=4),
        "units": st.dictionaries(st.sampled_from(ALL), ORDERS, max_size=5),
        "bg_moves": st.dictionaries(st.sampled_from(LEADERS), PATHS, max_size=3),
        "cinc_move": PATHS,
        "melee_plan": st.just("auto") | st.lists(FIGHTS, max_size=4),
        "on_illegal": st.sampled_from(["skip", "ask"]),
        "strike_back": st.sampled_from(["none", "auto"]),
        "occupy_after_melee": st.sampled_from(["yes", "no"]),  # V-12
        "fate": st.lists(FATE_ENTRIES, max_size=3),
        "reserves": st.lists(RESERVES, max_size=3),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SHEETS)
def test_round_trip_sheet_text_sheet(sheet: dict[str, JSON]) -> None:
    """Any sheet of the schema -> text -> its canonical form (empty lists left out, points as
    text), in its order; the canonical form round-trips exactly and is still schema-valid."""
    assume(not schema_errors("turn_orders", sheet))  # formation changes follow their schema
    text = ot.format_sheet(sheet)
    back = sheet_of(text)
    want = ot.canonical(sheet)
    assert back == want
    for key in ("units", "bg_moves"):
        if key in want:
            assert list(back[key]) == list(want[key])  # type: ignore[arg-type]
    assert sheet_of(ot.format_sheet(back)) == back
    assert ot.canonical(back) == back


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_any_text_gives_actions_or_a_rejection(text: str) -> None:
    found = RULESET.parse_text(MATCH, "A", text)
    assert isinstance(found, (Rejection, list))


# ----------------------------------------------------------------------------- other kinds


def test_first_side_by_text() -> None:
    for text, side in (("first A", "A"), ("First side b", "B"), ("begin: A", "A")):
        actions = RULESET.parse_text(MATCH, "B", text)
        assert actions == [Action("B", "choose_first_side", {"side": side})]
    after = RULESET.apply(MATCH, Action("B", "choose_first_side", {"side": "B"}), Rng(1)).state
    assert after.game.turn.active_side == "B"


def _pending() -> m.Match:
    """Side A's sheet in, the umpire asked for facts (no auto_geometry)."""
    state = _orders(starter())
    sheet = sheet_of(f"fire U-A1 at {FOES[0]}\nbrigades BR-A1\nmelee auto")
    state = RULESET.apply(state, Action("A", "turn_orders", sheet), Rng(5)).state
    assert state.pending
    return state


def test_the_umpire_confirms_and_corrects_by_text() -> None:
    state = _pending()
    fact = state.pending[0]  # type: ignore[index]
    key, kind = str(fact["key"]), str(fact["kind"])
    value = {BOOL: "no", COUNT: "3", COVER: "hard", OFFSET: "1.5,-2", INCHES: "12.5"}[kind]
    actions = RULESET.parse_text(
        state, UMPIRE, f"correct {key.upper()} {value} because the hedge is in the way\nconfirm"
    )
    assert isinstance(actions, list)
    assert [a.kind for a in actions] == [CORRECTION_KIND, "confirm"]
    assert actions[0].payload == {
        "fact": key,
        "value": ot.fact_value(kind, value.split()),
        "reason": "the hedge is in the way",
    }
    for action in actions:
        assert not RULESET.validate(state, action), RULESET.validate(state, action)
        state = RULESET.apply(state, action, Rng(8)).state
    assert ot.format_action(actions[0]).startswith(f"correct {key} ")
    assert RULESET.parse_text(MATCH, UMPIRE, "confirm looks right") == [
        Action(UMPIRE, "confirm", {"note": "looks right"})
    ]


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        (BOOL, "yes", True),
        (BOOL, "No", False),
        (COUNT, "31", 31),
        (COVER, "Soft", "soft"),
        (OFFSET, "(1.5, -2)", ["1.5", "-2"]),
        (OFFSET, "none", None),
        (INCHES, "12.25", "12.25"),
        (INCHES, "none", None),
        ("", "yes", True),
        ("", "7", 7),
        ("", "hard", "hard"),
        ("", "1,2", ["1", "2"]),
        ("", "3.5", "3.5"),
    ],
)
def test_fact_values_by_kind(kind: str, text: str, value: JSON) -> None:
    assert ot.fact_value(kind, text.split()) == value


@pytest.mark.parametrize(
    ("kind", "text"),
    [(BOOL, "maybe"), (COUNT, "many"), (COVER, "wood"), (OFFSET, "1"), (INCHES, "far")],
)
def test_fact_values_that_do_not_fit_are_refused(kind: str, text: str) -> None:
    with pytest.raises(ot.TextError) as refused:
        ot.fact_value(kind, [text])
    assert refused.value.rule == "V-14"


def test_every_action_kind_round_trips() -> None:
    for action in (
        Action("A", "choose_first_side", {"side": "A"}),
        Action(UMPIRE, "confirm", {}),
        Action(UMPIRE, "confirm", {"note": "fine"}),
        Action(UMPIRE, CORRECTION_KIND, {"fact": "k", "value": False, "reason": "r s"}),
        Action(UMPIRE, CORRECTION_KIND, {"fact": "k", "value": ["1", "2"], "reason": "r"}),
        Action(UMPIRE, CORRECTION_KIND, {"fact": "k", "value": None, "reason": "r"}),
        Action(UMPIRE, CORRECTION_KIND, {"fact": "k", "value": 4, "reason": "r"}),
        Action("B", "play_fate", {"plays": []}),
        Action("B", "play_fate", {"plays": [{"card": "3"}, {"card": "8", "unit": "U-B1"}]}),
    ):
        assert RULESET.parse_text(MATCH, action.role, ot.format_action(action)) == [action]


def test_the_report_shows_how_to_write_and_its_example_parses() -> None:
    state = _orders(starter())
    text = RULESET.report_text(state, "A")
    assert "Write your orders one a line" in text
    example = text.split("for example:\n", 1)[1].splitlines()
    actions = RULESET.parse_text(state, "A", "\n".join(example))
    assert isinstance(actions, list)
    assert actions[0].kind == "turn_orders"
    assert not RULESET.validate(state, actions[0])
    assert "Write: first A, or first B" in RULESET.report_text(MATCH, "B")
    state = _pending()
    umpire = RULESET.report_text(state, "@omniscient")  # how core.umpire asks for @umpire's
    assert "Write: confirm, or one line a fact" in umpire
    for fact in state.pending or []:
        assert f"    {fact['key']}: {fact['fact']}, proposed" in umpire


@pytest.mark.parametrize("seed", [21, 22])
def test_a_whole_starter_game_played_by_text_only(seed: int) -> None:
    """Every action of a random game (both sides and the umpire) goes through text: written
    with `format_action`, read back with `parse_text`, validated and applied; each sheet also
    sets the strike-back policy `auto` (V-09)."""
    state = starter(turn_limit=2)
    rng = Rng(seed)
    kinds: set[str] = set()
    for i in range(600):
        prompts = RULESET.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[rng.below(len(prompts))]
        action = RULESET.random_action(state, role, rng)
        assert action is not None
        payload = action.payload
        if action.kind == "turn_orders" and isinstance(payload, dict):
            payload = {**payload, "strike_back": "auto"}  # V-09 in play too
        actions = RULESET.parse_text(
            state, role, ot.format_action(Action(role, action.kind, payload))
        )
        assert isinstance(actions, list), actions
        assert len(actions) == 1
        read = actions[0]
        if read.kind == "turn_orders":
            assert isinstance(payload, dict)
            assert isinstance(read.payload, dict)
            assert read.payload == ot.canonical(payload)
        else:
            assert read == action
        assert not RULESET.validate(state, read), RULESET.validate(state, read)
        state = RULESET.apply(state, read, Rng.for_event(b"vf-text", i)).state
        kinds.add(read.kind)
    assert RULESET.result(state) is not None
    assert {"choose_first_side", "turn_orders", "confirm", "play_fate"} <= kinds
