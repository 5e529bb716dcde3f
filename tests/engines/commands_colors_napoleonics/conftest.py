"""Fixtures of the Commands & Colors: Napoleonics tests: the example scenario (digest 9) as a
fresh document to change, and a way to collect the problems of a refused document."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from games.commands_colors_napoleonics.errors import Problem, ScenarioError
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR, Scenario, parse_scenario

EXAMPLE_PATH = SCENARIOS_DIR / "example.yaml"
_EXAMPLE_DOC: dict[str, Any] = yaml.safe_load(EXAMPLE_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def example_doc() -> dict[str, Any]:
    """The example scenario's document, a copy the test may change."""
    return copy.deepcopy(_EXAMPLE_DOC)


@pytest.fixture(scope="session")
def example() -> Scenario:
    return parse_scenario(copy.deepcopy(_EXAMPLE_DOC), "example.yaml")


@pytest.fixture
def refusal() -> Callable[[object], list[Problem]]:
    """The problems of a document the loader must refuse (fails the test if it loads)."""

    def problems(doc: object) -> list[Problem]:
        with pytest.raises(ScenarioError) as info:
            parse_scenario(doc, "test.yaml")
        return list(info.value.problems)

    return problems
