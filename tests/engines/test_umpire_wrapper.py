"""The umpire seat every ruleset gets (games.core.umpire): a ruling changes no state and speaks
only to its audience; only the umpire rules or corrects (UMP-2); the umpire sends no player's
order (UMP-4) unless its own prompt offers the kind; a ruleset that proposes no facts refuses a
correction (UMP-3); the umpire's view is the omniscient one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from games.core.canonical import state_hash
from games.core.protocol import (
    JSON,
    OMNISCIENT,
    Action,
    GameConfig,
    Prompt,
    Rejection,
    Step,
    random_legal_action,
)
from games.core.rng import Rng
from games.core.umpire import (
    CORRECTION_KIND,
    RULING_KIND,
    UMPIRE,
    Umpired,
    ruling_problems,
)
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState

UMPIRED = Umpired(RULESET)


def _state(steps: int = 2) -> GameState:
    config = GameConfig("DEC2", {"board": "austerlitz"}, ("allied", "french"))
    state = RULESET.setup(config, Rng(5))
    rng = Rng(6)
    for seq in range(steps):
        role = sorted(RULESET.prompts(state))[0]
        action = random_legal_action(RULESET, state, role, rng)
        assert action is not None
        state = RULESET.apply(state, action, Rng.for_event(bytes(32), seq + 2)).state
    return state


def _rules(rejections: Sequence[Rejection]) -> list[str]:
    return [r.rule for r in rejections]


def test_a_ruling_changes_nothing_and_speaks_to_its_audience() -> None:
    state = _state()
    before = state_hash(RULESET.dump(state))
    ruling = Action(
        UMPIRE,
        RULING_KIND,
        {"text": "The wood blocks the view.", "rule": "NT-84", "audience": ["allied"]},
    )
    assert UMPIRED.validate(state, ruling) == ()
    step = UMPIRED.apply(state, ruling, Rng(1))
    assert state_hash(RULESET.dump(step.state)) == before
    assert not step.turn_ended
    (line,) = step.log
    assert line.text == "Umpire's ruling on NT-84: The wood blocks the view."
    assert line.audience == frozenset({UMPIRE, "allied"})
    everyone = UMPIRED.apply(state, Action(UMPIRE, RULING_KIND, {"text": "Play on."}), Rng(1))
    assert everyone.log[0].audience is None
    assert everyone.log[0].text == "Umpire's ruling: Play on."
    assert RULING_KIND in UMPIRED.private_kinds()
    assert set(RULESET.private_kinds()) <= set(UMPIRED.private_kinds())


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({}, "/text"),
        ({"text": ""}, "/text"),
        ({"text": "x" * 4001}, "/text"),
        ({"text": "ok", "rule": 5}, "/rule"),
        ({"text": "ok", "audience": []}, "/audience"),
        ({"text": "ok", "audience": "allied"}, "/audience"),
        ({"text": "ok", "audience": [3]}, "/audience/0"),
        ({"text": "ok", "seal": True}, "/seal"),
        ("a ruling", ""),
    ],
)
def test_a_malformed_ruling_is_refused_with_its_path(payload: JSON, path: str) -> None:
    found = UMPIRED.validate(_state(0), Action(UMPIRE, RULING_KIND, payload))
    assert _rules(found)
    assert set(_rules(found)) == {"UMP-1"}
    assert path in [r.path for r in found]
    assert _rules(UMPIRED.payload_errors(RULING_KIND, payload)) == _rules(found)


def test_the_audience_names_only_the_games_roles() -> None:
    payload: JSON = {"text": "ok", "audience": ["allied", "prussian", UMPIRE]}
    (problem,) = ruling_problems(payload, ["allied", "french"])
    assert problem.path == "/audience/1"
    assert "prussian" in problem.message


def test_only_the_umpire_rules_and_the_umpire_sends_no_players_order() -> None:
    state = _state(0)
    assert _rules(UMPIRED.validate(state, Action("allied", RULING_KIND, {"text": "mine"}))) == [
        "UMP-2"
    ]
    order = random_legal_action(RULESET, state, "allied", Rng(3))
    assert order is not None
    assert UMPIRED.validate(state, order) == ()  # the player's own order passes through
    as_umpire = Action(UMPIRE, order.kind, order.payload)
    assert _rules(UMPIRED.validate(state, as_umpire)) == ["UMP-4"]
    assert _rules(UMPIRED.validate_owned(state, as_umpire)) == ["UMP-4"]


def test_a_ruleset_that_proposes_no_facts_refuses_a_correction() -> None:
    correction = Action(UMPIRE, CORRECTION_KIND, {"fact": 1, "value": 2, "reason": "tape"})
    assert _rules(UMPIRED.validate(_state(0), correction)) == ["UMP-3"]
    player = Action("french", CORRECTION_KIND, {})
    assert _rules(UMPIRED.validate(_state(0), player)) == ["UMP-2"]


def test_the_umpire_sees_the_omniscient_view_and_may_rule_any_time() -> None:
    state = _state()
    assert UMPIRED.view(state, UMPIRE) == RULESET.view(state, OMNISCIENT)
    assert UMPIRED.view(state, "french") == RULESET.view(state, "french")
    assert UMPIRED.view(state, UMPIRE) != RULESET.view(state, "french")
    kinds = [a.kind for a in UMPIRED.actions(state, UMPIRE)]
    assert RULING_KIND in kinds
    assert RULING_KIND not in [a.kind for a in UMPIRED.actions(state, "allied")]


class _Proposing:
    """A ruleset whose only prompt is the umpire's: confirm or override a proposed fact."""

    id, version, title = "proposing", 1, "Proposing"

    def prompts(self, state: int) -> Mapping[str, Prompt]:
        return {UMPIRE: Prompt(UMPIRE, {"confirm": "accept the proposed range"}, "range?")}

    def validate(self, state: int, action: Action) -> Sequence[Rejection]:
        return ()

    def apply(self, state: int, action: Action, rng: Rng) -> Step[int]:
        return Step(state + 1)

    def umpire_kinds(self) -> frozenset[str]:
        return frozenset({CORRECTION_KIND})


def test_an_umpire_prompt_and_a_correction_pass_to_an_engine_that_proposes() -> None:
    proposing: Umpired[int] = Umpired(_Proposing())  # type: ignore[arg-type]
    assert proposing.validate(0, Action(UMPIRE, "confirm", {})) == ()
    assert proposing.validate(0, Action(UMPIRE, CORRECTION_KIND, {})) == ()
    assert _rules(proposing.validate(0, Action(UMPIRE, "move", {}))) == ["UMP-4"]
    assert proposing.apply(0, Action(UMPIRE, CORRECTION_KIND, {}), Rng(1)).state == 1
