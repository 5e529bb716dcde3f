"""Written orders by email (team digest napoleons-triumph-team.md 3.8): `ORDER <rank>: <order>`
lines of the commander-in-chief become `write_order` actions for the seat of that rank, with the
text unchanged so that the engine's grammar (3.4.2, G-1..G-6) judges it; `NO ORDER <rank>` and
`SEAL` have no action in our engine and are refused naming NT-TEAM-18; every refusal names its
rule and the line ("/line/<n>"). Ordinary order lines keep working in the same text.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.core.protocol import JSON, Action, Rejection
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import engine
from games.napoleons_triumph.team.engine import data_of
from games.napoleons_triumph.team.text_orders import WRITE_ORDER
from tests.engines.napoleons_triumph.team.test_team_engine import conferences, in_play, new, play
from tests.engines.napoleons_triumph.test_text import COMMAND, pos

ROLES: dict[str, JSON] = {
    "al1": "AL",
    "al2": "AL",
    "al3": "AL",
    "al4": "AL",
    "fr1": "F",
    "fr2": "F",
}
OPTIONS: dict[str, JSON] = {"team_play": True, "board": "austerlitz", "roles": ROLES}
DIGEST = """ORDER 2: Pratze, Pratzeberg, Aujezd verteidigen
ORDER 3: Telnitz angreifen
NO ORDER 4
SEAL"""


@pytest.fixture(scope="module")
def allied_part() -> GameState:
    """The Allied CinC's first part: his order phase is open (NT-TEAM-18 (a))."""
    state = conferences(new(OPTIONS))
    state = play(state, Rng(3), lambda s: in_play(s) and s.active == "AL")
    assert engine.may_write(data_of(state), state, "al1")
    return state


def parsed(state: GameState, role: str, text: str) -> list[Action]:
    out = R.parse_text(state, role, text)
    assert not isinstance(out, Rejection), out
    return list(out)


def refused(state: GameState, role: str, text: str, rule: str, line: int) -> str:
    out = R.parse_text(state, role, text)
    assert isinstance(out, Rejection), f"{text!r} was read as {out}"
    assert (out.rule, out.path) == (rule, f"/line/{line}"), out
    assert out.message.startswith(f"line {line}: ")
    return out.message


def applied(state: GameState, actions: Sequence[Action]) -> GameState:
    for a in actions:
        assert not R.validate(state, a), (a, R.validate(state, a))
        state = R.apply(state, a, Rng(0)).state
    return state


def drafts(state: GameState) -> dict[str, JSON]:
    view = R.view(state, "al1")
    assert isinstance(view, dict)
    assert isinstance(view["team"], dict)
    found = view["team"]["drafts"]
    assert isinstance(found, dict)
    return found


def test_the_kind_is_the_engines() -> None:
    assert WRITE_ORDER == engine.WRITE_ORDER


def test_the_digest_example_order_lines_with_their_canonical_texts(
    allied_part: GameState,
) -> None:
    order_lines = "\n".join(DIGEST.splitlines()[:2])
    actions = parsed(allied_part, "al1", order_lines)
    assert actions == [
        Action(
            "al1",
            "write_order",
            {"recipient": "al2", "text": "Pratze, Pratzeberg, Aujezd verteidigen"},
        ),
        Action("al1", "write_order", {"recipient": "al3", "text": "Telnitz angreifen"}),
    ]
    state = applied(allied_part, actions)
    found = drafts(state)
    assert sorted(found) == ["al2", "al3"]
    al2, al3 = found["al2"], found["al3"]
    assert isinstance(al2, dict)
    assert isinstance(al3, dict)
    assert al2["text_de"] == "Pratze, Pratzeberg, Aujezd verteidigen"
    assert al2["text_en"] == "Defend Pratze, Pratzeberg, Aujezd"
    assert al3["text_de"] == "Telnitz angreifen"
    assert al3["text_en"] == "Attack Telnitz"
    assert al2["verb"] == "DEFEND"
    assert al3["verb"] == "ATTACK"


def test_the_digest_example_refuses_no_order_and_seal_naming_the_rule(
    allied_part: GameState,
) -> None:
    message = refused(allied_part, "al1", DIGEST, "NT-TEAM-18", 3)
    assert "rank 4" in message
    assert "AMB-4" in message
    seal = refused(allied_part, "al1", "ORDER 3: Telnitz angreifen\nSEAL", "NT-TEAM-18", 2)
    assert "NT-TEAM-18" in seal
    assert "first command" in seal
    refused(allied_part, "al1", "no order 2", "NT-TEAM-18", 1)
    refused(allied_part, "al1", "seal", "NT-TEAM-18", 1)


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        (
            "ORDER 5: Telnitz angreifen",
            "NT-TEAM-18",
            "no rank 5: your subordinates are ranks 2 to 4",
        ),
        ("ORDER 1: Telnitz angreifen", "NT-TEAM-18", "rank 1 is you"),
        ("NO ORDER 9", "NT-TEAM-18", "no rank 9"),
        ("ORDER two: Telnitz angreifen", "NT-0", "rank as a number"),
        ("ORDER 2 Telnitz angreifen", "NT-0", "ORDER <rank>: <order>"),
        ("NO ORDER", "NT-0", "rank as a number"),
        ("SEAL the orders", "NT-0", "SEAL alone"),
    ],
)
def test_form_errors_name_the_rule_and_the_line(
    allied_part: GameState, text: str, rule: str, words: str
) -> None:
    message = refused(allied_part, "al1", f"move A01 to 24\n{text}", rule, 2)
    assert words in message


def test_only_the_commander_in_chief_writes(allied_part: GameState) -> None:
    message = refused(allied_part, "al2", "ORDER 3: Telnitz angreifen", "NT-TEAM-17", 1)
    assert "you are rank 2" in message
    refused(allied_part, "fr2", "# the French rank 2\nSEAL", "NT-TEAM-17", 2)
    # the French CinC may write, but not in the Allied turn: the engine refuses it (NT-TEAM-18)
    (action,) = parsed(allied_part, "fr1", "ORDER 2: Telnitz angreifen")
    assert action.payload == {"recipient": "fr2", "text": "Telnitz angreifen"}
    assert R.validate(allied_part, action)[0].rule == "NT-TEAM-18"


def test_order_lines_in_a_two_player_game() -> None:
    state = pos(COMMAND)  # a French command phase of a two-player game
    message = refused(state, "french", "ORDER 2: Telnitz angreifen", "NT-TEAM-1", 1)
    assert "team play" in message
    refused(state, "allied", "end turn\nSEAL", "NT-TEAM-1", 2)


def test_before_the_ranks_are_settled() -> None:
    state = new(OPTIONS)  # the initial conference is open
    refused(state, "al1", "ORDER 2: Telnitz angreifen", "NT-TEAM-5", 1)


def test_the_engines_grammar_judges_the_text(allied_part: GameState) -> None:
    (action,) = parsed(allied_part, "al1", "ORDER 2: Telnits angreifen")
    (rejection,) = R.validate(allied_part, action)
    assert rejection.rule == "NT-TEAM-21"
    assert "Telnitz" in rejection.message  # the closest toponym
    (empty,) = parsed(allied_part, "al1", "ORDER 2:")
    assert R.validate(allied_part, empty)[0].rule == "NT-TEAM-19"


def test_order_lines_with_commands_and_end_part_round_trip(allied_part: GameState) -> None:
    """ORDER lines, then a command of the CinC's own (it seals, NT-TEAM-18 (a)), then his part
    ends: all read from one text, all validate and apply in order."""
    state = allied_part
    own = next(
        a
        for a in R.actions(state, "al1")
        if a.kind == "unit_move" and isinstance(a.choices, dict) and a.choices["payloads"]
    )
    assert isinstance(own.choices, dict)
    payloads = own.choices["payloads"]
    assert isinstance(payloads, list)
    move = payloads[0]
    assert isinstance(move, dict)
    assert isinstance(move["to"], dict)
    text = (
        "# Allied orders\n"
        "ORDER 3: Telnitz angreifen\n"
        "Order 2 : pratze und AUJEZD verteidigen.\n"
        f"move {move['unit']} to {move['to']['locale']}\n"
        "end part\n"
        "--\nKutusov"
    )
    actions = parsed(state, "al1", text)
    assert [a.kind for a in actions] == ["write_order", "write_order", "unit_move", "end_part"]
    state = applied(state, actions)
    slots = [s for s in data_of(state).slots if s["side"] == "AL"]
    by_recipient = {str(s["recipient"]): s["order"] for s in slots}
    assert sorted(by_recipient) == ["al2", "al3", "al4"]  # one slot per subordinate (AMB-4)
    assert by_recipient["al4"] is None
    al2, al3 = by_recipient["al2"], by_recipient["al3"]
    assert isinstance(al2, dict)
    assert isinstance(al3, dict)
    assert (al2["text_de"], al3["text_de"]) == ("Pratze, Aujezd verteidigen", "Telnitz angreifen")
    assert engine.acting(data_of(state), state) == "al2"


def test_an_order_after_the_first_command_is_refused_by_the_engine(
    allied_part: GameState,
) -> None:
    move = next(a for a in R.actions(allied_part, "al1") if a.kind == "unit_move").choices
    assert isinstance(move, dict)
    assert isinstance(move["payloads"], list)
    first = Action("al1", "unit_move", move["payloads"][0])
    state = applied(allied_part, [first])
    (late,) = parsed(state, "al1", "ORDER 2: Telnitz angreifen")
    assert R.validate(state, late)[0].rule == "NT-TEAM-18"


def test_end_turn_stays_end_turn_and_the_team_engine_refuses_it(allied_part: GameState) -> None:
    (action,) = parsed(allied_part, "al1", "end turn")
    assert action.kind == "end_turn"
    assert R.validate(allied_part, action)[0].rule == "NT-TEAM-32"
    assert parsed(allied_part, "al1", "end my part")[0].kind == "end_part"
