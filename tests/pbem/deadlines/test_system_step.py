"""A game waiting on a system step: the engine prompts the system role (a die it rolls itself),
no player acts, so the stuck-turns sweep asks a worker to perform it (`play.system_step`).

Napoleon's Triumph never prompts the system, so a tiny dice ruleset, registered only in these
tests, plays that part."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User

from games import registry
from games.core.protocol import (
    JSON,
    SYSTEM,
    Action,
    ActionSpec,
    GameConfig,
    Prompt,
    Rejection,
    Result,
    RoleInfo,
    Step,
)
from games.core.rng import Rng
from pbem.play import tasks
from pbem.play.models import Event, Game
from pbem.play.services.games import game_create
from pbem.play.services.sweeps import games_waiting_on_system, stuck_turns_sweep
from pbem.play.services.system_steps import system_step_apply

State = dict[str, Any]


class DiceRuleset:
    """One player "p"; the engine first rolls a die (a system step), then "p" passes."""

    id = "dice_test"
    version = 1
    title = "Dice (test)"

    def scenarios(self) -> Sequence[str]:
        return ["only"]

    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]:
        return [RoleInfo("p", "Player")]

    def setup(self, config: GameConfig, rng: Rng) -> State:
        return {"die": None}

    def prompts(self, state: State) -> Mapping[str, Prompt]:
        if state["die"] is None:
            return {SYSTEM: Prompt(SYSTEM, {"roll": "the engine rolls a die"}, "Rolling.")}
        return {"p": Prompt("p", {"pass": "nothing"}, "Your turn.")}

    def validate(self, state: State, action: Action) -> Sequence[Rejection]:
        prompt = self.prompts(state).get(action.role)
        if prompt is None or action.kind not in prompt.kinds:
            return [Rejection("T-1", "not prompted for that")]
        return []

    def apply(self, state: State, action: Action, rng: Rng) -> Step[State]:
        if action.kind == "roll":
            return Step({"die": rng.d6()}, turn_ended=True)
        return Step(dict(state))

    def view(self, state: State, role: str) -> JSON:
        return dict(state)

    def result(self, state: State) -> Result | None:
        return None

    def dump(self, state: State) -> JSON:
        return dict(state)

    def load(self, data: JSON) -> State:
        assert isinstance(data, dict)
        return dict(data)

    def parse_text(self, state: State, role: str, text: str) -> Sequence[Action] | Rejection:
        return Rejection("T-2", "no text orders")

    def random_action(self, state: State, role: str, rng: Rng) -> Action | None:
        return None

    def actions(self, state: State, role: str) -> Sequence[ActionSpec]:
        return []

    def payload_schemas(self) -> Mapping[str, JSON]:
        return {"pass": {"type": "object"}}

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        return []

    def private_kinds(self) -> frozenset[str]:
        return frozenset()


DICE = DiceRuleset()


@pytest.fixture
def dice_game(
    u1: User, clock: time_machine.Coordinates, monkeypatch: pytest.MonkeyPatch
) -> Game:
    entry = registry.Entry(ruleset=f"{__name__}:DICE")
    monkeypatch.setitem(registry.RULESETS, DICE.id, entry)
    return game_create(
        ruleset_id=DICE.id,
        scenario="only",
        options={},
        seats={"p": u1},
        creator=u1,
        accepted=True,
    )


def test_a_game_waiting_on_the_system_is_found(dice_game: Game, game: Game) -> None:
    assert dice_game.active_roles == [SYSTEM]
    assert games_waiting_on_system() == [(dice_game.pk, dice_game.head_seq)]  # not the NT game


def test_the_stuck_sweep_has_the_worker_perform_the_system_step(
    dice_game: Game, game: Game
) -> None:
    nt_head = game.head_seq
    assert stuck_turns_sweep() == 1  # eager: the step is applied at once
    dice_game.refresh_from_db()
    assert dice_game.head_seq == 2
    assert dice_game.active_roles == ["p"]
    step = Event.objects.get(game=dice_game, seq=2)
    assert (step.role, step.kind, step.source_ref) == (SYSTEM, "roll", ".system@1")
    assert stuck_turns_sweep() == 0  # nothing waits any more
    game.refresh_from_db()
    assert game.head_seq == nt_head  # a game waiting on its players is left alone


def test_the_sweep_enqueues_the_system_step_by_name(
    dice_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr(tasks.system_step_task, "delay", lambda g, s: sent.append((g, s)))
    assert stuck_turns_sweep() == 1
    assert sent == [(str(dice_game.pk), 1)]


def test_the_system_step_is_appended_once(dice_game: Game) -> None:
    first = system_step_apply(game_id=dice_game.pk, after_seq=1)
    assert first is not None
    assert system_step_apply(game_id=dice_game.pk, after_seq=1) is None  # the head moved on
    assert system_step_apply(game_id=dice_game.pk, after_seq=2) is None  # "p" is prompted
    assert Event.objects.filter(game=dice_game, kind="roll").count() == 1
