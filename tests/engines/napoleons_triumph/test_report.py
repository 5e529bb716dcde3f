"""A seat's view in words (`RULESET.report_text`, report.py): the body of a turn-report email.

Real positions name the role's own units with their strengths and the enemy only by alias; a
property over random games (two-player and team) checks that no enemy unit id, no face of a
face-down block and no secret ever occurs, that the report stays compact, and that it is the
same for a state changed only in what the role may not see (invariants.perturb_hidden, the
engine's non-interference probe) and for a team game with and without another seat's unread
written order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import cast

import pytest

from games.core.protocol import (
    JSON,
    OBSERVER,
    OMNISCIENT,
    Action,
    GameConfig,
    Prompt,
    Ruleset,
    random_legal_action,
)
from games.core.rng import Rng
from games.core.wrap import wrap
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import board_named
from games.napoleons_triumph.checks import CHECKS
from games.napoleons_triumph.context import unit_alias
from games.napoleons_triumph.invariants import perturb_hidden
from games.napoleons_triumph.report import TEXT_FORM, report
from games.napoleons_triumph.state import DEAD, GameState
from games.napoleons_triumph.team.engine import data_of
from tests.engines.napoleons_triumph.test_text import COMMAND, pos

FACE = r"(?:INF|CAV|ART|GUARD)\d"
MAX_LINES = 80


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def line_with(text: str, needle: str) -> str:
    """The first line that starts with `needle` (after its indent)."""
    found = [line for line in lines_of(text) if line.strip().startswith(needle)]
    assert found, f"{needle!r} not in the report:\n{text}"
    return found[0]


# --- real positions ---------------------------------------------------------------------------


def test_own_units_by_locale_with_strengths_and_commanders() -> None:
    state = pos(COMMAND)
    text = RULESET.report_text(state, "french")
    assert "Round 1 of 10, day 2, 7:00. Phase: turn. Active: French." in text
    assert "Morale: French 23, Allies 27." in text
    telnitz = line_with(text, "24 Telnitz:")
    assert "reserve: F02 INF3" in telnitz
    assert "blocking A052 towards 20 Sokolnitz: F01 INF2" in telnitz
    assert "Legrand [F10 INF2, F11 INF2, F12 INF2]" in line_with(text, "22 sokolnitz_west:")
    assert "St. Hilaire [F13 INF2, F14 INF2], F33 GUARD3" in line_with(text, "7 Zuran Berg:")
    assert "Your reinforcements: Davout [F30 INF3, F31 INF3]" in text
    # the enemy by alias only, without faces
    sokolnitz = line_with(text, "20 Sokolnitz:")
    for uid in ("A01", "A02"):
        alias = unit_alias(state, "F", uid)
        assert alias in sokolnitz
    assert not re.search(r"\bA0[123]\b", text)
    assert not re.search(rf"A-[0-9a-f]+ {FACE}", text)
    assert "Allied army as you see it (3 blocks on the map, 0 shown face up):" in text


def test_a_shown_enemy_face_is_in_the_report() -> None:
    state = pos(COMMAND)
    state.units["A02"].revealed = True
    text = RULESET.report_text(state, "french")
    assert f"{unit_alias(state, 'F', 'A02')} INF3" in text
    assert "1 shown face up" in text
    assert f"{unit_alias(state, 'F', 'A01')} INF1" not in text


def test_the_prompt_with_the_text_form_of_each_kind() -> None:
    state = pos(COMMAND)
    french = RULESET.report_text(state, "french")
    assert "Your decision: Your turn." in french
    for kind in RULESET.prompts(state)["french"].kinds:
        assert f"{TEXT_FORM[kind]}   ({kind})" in french
    allied = RULESET.report_text(state, "allied")
    assert "Nothing is asked of you now." in allied
    assert "Your decision" not in allied


def test_every_decision_kind_has_a_text_form_the_parser_reads() -> None:
    # the hint's first word is an order verb of text.py (or the team's ORDER line)
    from games.napoleons_triumph.text import ORDERS

    for kind, form in TEXT_FORM.items():
        verb = form.split()[0].lower()
        assert verb in ORDERS or verb in ("order", "bid", "pass", "side"), (kind, form)


def test_protocol_default_renders_nothing() -> None:
    # a ruleset that subclasses the protocol and does not write reports inherits ""
    assert Ruleset.report_text(cast("Ruleset[int]", None), 0, "p") == ""


def test_malformed_views_never_raise() -> None:
    board = board_named("austerlitz")
    prompt = Prompt("x", {"unknown_kind": "?"}, "Something.")
    views: list[JSON] = [
        None,
        [],
        {},
        {"units": "x", "round": 3, "team": [], "commanders": [1, None]},
        {"units": [{"position": {"locale": 9999, "approach": "A999"}, "face": 3}]},
        {"team": {"teams": [{"members": ["x"], "ranks": ["x", 2]}]}, "viewer": {"role": "x"}},
    ]
    for view in views:
        text = report(view, prompt, board)
        assert isinstance(text, str)


def test_long_lines_wrap_after_a_separator_only() -> None:
    line = "  12 Somewhere: reserve: " + ", ".join(f"A-{i:010x}" for i in range(20))
    out = wrap(line, 60)
    assert len(out) > 1
    assert all(len(x) <= 60 for x in out)
    assert " ".join(x.strip() for x in out) == line.strip()


# --- the property: nothing hidden, compact, non-interference ------------------------------------


def random_states(
    options: dict[str, JSON], seed: int, steps: int, every: int
) -> Iterator[GameState]:
    """Every `every`-th state of a random game (at most `steps` actions)."""
    state = RULESET.setup(GameConfig("DEC2", options), Rng(seed))
    rng = Rng(seed + 100)
    for n in range(steps):
        if n % every == 0:
            yield state
        prompts = RULESET.prompts(state)
        if not prompts:
            yield state
            return
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(RULESET, state, role, rng)
        assert action is not None
        state = RULESET.apply(state, action, Rng(rng.next64())).state


def check_report(state: GameState, role: str) -> None:
    text = RULESET.report_text(state, role)
    assert text.strip()
    assert not text.startswith("(the report could not")
    assert len(lines_of(text)) < MAX_LINES, text
    for secret in CHECKS.secrets(state):
        assert secret not in text
    for uid in CHECKS.hidden_ids(state, role):
        assert not re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text), (uid, role, text)
    side = state.roles.get(role, OBSERVER)
    over = state.phase == "over"
    for u in state.units.values():
        if role == OMNISCIENT or u.side == side or u.revealed or over or u.where == DEAD:
            continue
        alias = unit_alias(state, side, u.id)
        assert not re.search(rf"{re.escape(alias)} {FACE}", text), (alias, role)


def check_noninterference(state: GameState, role: str, rng: Rng) -> None:
    other = perturb_hidden(state, state.roles[role], rng)
    assert RULESET.report_text(other, role) == RULESET.report_text(state, role)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reports_of_random_two_player_games(seed: int) -> None:
    rng = Rng(seed)
    seen = 0
    for state in random_states({"board": "austerlitz"}, seed, 400, 9):
        for role in (*state.roles, OBSERVER, OMNISCIENT):
            check_report(state, role)
        for role in state.roles:
            check_noninterference(state, role, rng)
        seen += 1
    assert seen > 5


def test_full_board_reports_stay_compact() -> None:
    states = list(random_states({}, 7, 150, 25))  # the published board, 80 blocks
    assert any(sum(u.where == "map" for u in s.units.values()) > 60 for s in states)
    for state in states:
        for role in (*state.roles, OBSERVER):
            check_report(state, role)


TEAM: dict[str, JSON] = {
    "team_play": True,
    "board": "austerlitz",
    "roles": {"al1": "AL", "al2": "AL", "al3": "AL", "fr1": "F", "fr2": "F"},
}


def test_reports_of_a_random_team_game() -> None:
    rng = Rng(9)
    kinds: set[str] = set()
    for state in random_states(TEAM, 11, 600, 13):
        kinds.add(data_of(state).layer.phase)
        for role in (*state.roles, OBSERVER):
            check_report(state, role)
        for role in state.roles:
            check_noninterference(state, role, rng)
    assert "play" in kinds


# --- team play: the written-order block -------------------------------------------------------


def team_in_play(side: str) -> GameState:
    """A team game (3 Allied seats, 2 French) at the start of `side`'s first team turn."""
    from tests.engines.napoleons_triumph.team.test_team_engine import (
        conferences,
        in_play,
        new,
        play,
    )

    state = conferences(new(TEAM))
    return play(state, Rng(3), lambda s: in_play(s) and s.active == side)


def act(state: GameState, role: str, kind: str, payload: JSON) -> GameState:
    action = Action(role, kind, payload)
    assert not RULESET.validate(state, action)
    return RULESET.apply(state, action, Rng(1)).state


def test_written_order_block_for_the_cinc_and_his_subordinates() -> None:
    state = team_in_play("AL")
    assert "Written orders: none drafted this turn" in RULESET.report_text(state, "al1")
    written = act(state, "al1", "write_order", {"recipient": "al2", "text": "telnitz ANGREIFEN"})
    cinc = RULESET.report_text(written, "al1")
    assert "ORDER 2 (al2): Telnitz angreifen (Attack Telnitz)" in cinc
    assert "ORDER <rank>: <toponyms> angreifen | verteidigen   (write_order)" in cinc
    assert "rank 1 al1 (commander-in-chief)" in cinc
    for role in ("al2", "al3", "fr1", "fr2", OBSERVER):
        text = RULESET.report_text(written, role)
        assert "Telnitz angreifen" not in text
        assert "Attack Telnitz" not in text
        # non-interference: the same report as without the order
        assert text == RULESET.report_text(state, role)
    for role in ("al2", "al3"):
        assert "No written order was delivered to you this round." in RULESET.report_text(
            written, role
        )
    # the CinC's part ends (the seal), and play goes on until the Allies' next team turn
    state = act(written, "al1", "end_part", {})
    rng = Rng(4)
    k = data_of(state).started["AL"]
    while data_of(state).started["AL"] == k:
        assert state.phase != "over"
        prompts = RULESET.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(RULESET, state, role, rng)
        assert action is not None
        state = RULESET.apply(state, action, Rng(rng.next64())).state
    al2 = RULESET.report_text(state, "al2")
    assert (
        f"Written order from your commander-in-chief (written in round {k}): Telnitz angreifen"
        " (Attack Telnitz)" in al2
    )
    assert "No written order was delivered to you this round." in RULESET.report_text(state, "al3")
    assert "Telnitz angreifen" not in RULESET.report_text(state, "fr1")
