"""Games from a scenario document (the option `scenario_document`, digest 8.2): the same loader
and checks as a shipped file, the id check, the size bound, the same play as the shipped
scenario, and states that carry their document through JSON snapshots into a process whose
caches are empty."""

from __future__ import annotations

import importlib
import json
import pkgutil
from typing import Any

import pytest
import yaml

import games.commands_colors_napoleonics as ccn
from games.commands_colors_napoleonics import RULESET as R
from games.commands_colors_napoleonics.documents import clear_cache
from games.commands_colors_napoleonics.options import (
    GAME_OPTIONS,
    MAX_DOCUMENT_BYTES,
    SCENARIO_DOCUMENT,
)
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR
from games.commands_colors_napoleonics.state import GameState
from games.core.canonical import state_hash
from games.core.protocol import OBSERVER, GameConfig, SetupError
from games.core.rng import Rng
from tests.engines.commands_colors_napoleonics.ccn_play import EXAMPLE, view_of

EXAMPLE_TEXT = (SCENARIOS_DIR / "example.yaml").read_text(encoding="utf-8")
ROLES = ("top", "bottom", OBSERVER)


def with_doc(text: str) -> dict[str, Any]:
    return {SCENARIO_DOCUMENT: text}


def own_doc(example_doc: dict[str, Any]) -> tuple[str, str]:
    """A scenario no file ships: the example with another id, title and one more forest."""
    example_doc["id"] = "my-ford"
    example_doc["title"] = "My Ford"
    example_doc["terrain"].append({"hex": [3, 6], "type": "forest"})
    return "my-ford", yaml.safe_dump(example_doc, sort_keys=False, allow_unicode=True)


def clear_every_cache() -> None:
    """As in a fresh worker process: every cache of the engine's modules emptied."""
    clear_cache()
    for info in pkgutil.iter_modules(ccn.__path__):
        module = importlib.import_module(f"{ccn.__name__}.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def play(state: GameState, seed: int, n: int) -> tuple[GameState, list[str]]:
    """`n` random legal actions (fewer if the game ends); the state hash after each."""
    chooser = Rng(seed)
    hashes: list[str] = []
    for i in range(n):
        prompts = R.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = R.random_action(state, role, chooser)
        assert action is not None
        assert not R.validate(state, action)
        state = R.apply(state, action, Rng(1000 * seed + i)).state
        hashes.append(state_hash(R.dump(state)))
    return state, hashes


def test_the_option_is_declared_with_its_bound() -> None:
    assert SCENARIO_DOCUMENT in GAME_OPTIONS
    assert MAX_DOCUMENT_BYTES == 256 * 1024


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_example_as_a_document_plays_as_the_shipped_example(seed: int) -> None:
    by_name = R.setup(GameConfig(EXAMPLE, {}), Rng(seed))
    by_doc = R.setup(GameConfig(EXAMPLE, with_doc(EXAMPLE_TEXT)), Rng(seed))
    assert R.roles(EXAMPLE, with_doc(EXAMPLE_TEXT)) == R.roles(EXAMPLE, {})
    a, b, chooser_a, chooser_b = by_name, by_doc, Rng(seed), Rng(seed)
    for i in range(150):
        for role in ROLES:
            assert R.view(a, role) == R.view(b, role)
            assert R.report_text(a, role) == R.report_text(b, role)
        prompts = R.prompts(a)
        assert prompts == R.prompts(b)
        if not prompts:
            break
        role = sorted(prompts)[chooser_a.below(len(prompts))]
        assert role == sorted(prompts)[chooser_b.below(len(prompts))]
        action = R.random_action(a, role, chooser_a)
        assert action == R.random_action(b, role, chooser_b)
        assert action is not None
        step_a = R.apply(a, action, Rng(7 * seed + i))
        step_b = R.apply(b, action, Rng(7 * seed + i))
        assert step_a.log == step_b.log
        a, b = step_a.state, step_b.state
    plain: Any = R.dump(a)
    assert "document" not in plain  # a shipped scenario's state is as before
    dumped: Any = R.dump(b)
    assert dumped["document"]["text"] == EXAMPLE_TEXT


def test_a_state_from_a_document_survives_json_and_empty_caches(
    example_doc: dict[str, Any],
) -> None:
    name, text = own_doc(example_doc)
    state = R.setup(GameConfig(name, with_doc(text)), Rng(4))
    state, _ = play(state, 4, 40)
    snapshot = json.dumps(R.dump(state))
    expected_state, expected = play(state, 5, 60)
    clear_every_cache()
    loaded = R.load(json.loads(snapshot))
    assert state_hash(R.dump(loaded)) == state_hash(json.loads(snapshot))
    clear_every_cache()
    again_state, again = play(loaded, 5, 60)
    assert again == expected
    for role in ROLES:
        assert R.view(again_state, role) == R.view(expected_state, role)
    view = view_of(loaded, "top")
    assert view["scenario"] == "my-ford"
    assert view["title"] == "My Ford"
    assert {"hex": [3, 6], "type": "forest"} in view["map"]["terrain"]


def test_the_view_does_not_echo_the_document(example_doc: dict[str, Any]) -> None:
    name, text = own_doc(example_doc)
    state = R.setup(GameConfig(name, with_doc(text)), Rng(4))
    for role in ROLES:
        shown = json.dumps(R.view(state, role))
        assert "Designed for engine tests" not in shown  # the notes stay out
        assert "SR-1" not in shown
        assert (
            len(shown)
            < len(json.dumps(R.view(R.setup(GameConfig(EXAMPLE, {}), Rng(4)), role))) + 200
        )


def test_a_document_is_checked_like_a_shipped_file(example_doc: dict[str, Any]) -> None:
    for unit in example_doc["units"]:
        if unit["id"] == "B-HC1":
            del unit["blocks"]  # British heavy cavalry: blocks unknown (GAP-2)
    example_doc["units"][0]["hex"] = [40, 40]
    text = yaml.safe_dump(example_doc)
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig(EXAMPLE, with_doc(text)), Rng(1))
    found = {(r.rule, r.path) for r in info.value.rejections}
    assert ("GAP-2", "units[10].blocks") in found  # every problem, each with its rule
    assert ("§2.1", "units[0].hex") in found
    with pytest.raises(SetupError) as info:
        R.roles(EXAMPLE, with_doc(text))
    assert "GAP-2" in {r.rule for r in info.value.rejections}
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig(EXAMPLE, with_doc("a: &x 1\nb: *x\n")), Rng(1))
    assert info.value.rejection.rule == "§8.2"  # anchors refused, as for files
    with pytest.raises(SetupError) as info:
        R.setup(
            GameConfig(EXAMPLE, with_doc(EXAMPLE_TEXT.replace("ccn-scenario/1", "x/2"))), Rng(1)
        )
    assert info.value.rejection.path == "format"


def test_a_document_whose_id_is_not_the_scenario_is_refused(example_doc: dict[str, Any]) -> None:
    name, text = own_doc(example_doc)
    for call in (
        lambda: R.setup(GameConfig(EXAMPLE, with_doc(text)), Rng(1)),
        lambda: R.roles(EXAMPLE, with_doc(text)),
    ):
        with pytest.raises(SetupError) as info:
            call()
        assert info.value.rejection.rule == "§8.2"
        assert "my-ford" in info.value.rejection.message
        assert EXAMPLE in info.value.rejection.message
    roles = R.roles(name, with_doc(text))
    assert [(r.id, r.name) for r in roles] == [("top", "French"), ("bottom", "Anglo-Portuguese")]


def test_an_over_long_document_is_refused() -> None:
    long = EXAMPLE_TEXT + "\n#" + "x" * (MAX_DOCUMENT_BYTES - len(EXAMPLE_TEXT.encode()))
    assert len(long.encode()) > MAX_DOCUMENT_BYTES
    for call in (
        lambda: R.setup(GameConfig(EXAMPLE, with_doc(long)), Rng(1)),
        lambda: R.roles(EXAMPLE, with_doc(long)),
    ):
        with pytest.raises(SetupError) as info:
            call()
        assert info.value.rejection.rule == "§8.2"
        assert info.value.rejection.path == "/options/scenario_document"
        assert str(MAX_DOCUMENT_BYTES) in info.value.rejection.message
    fits = EXAMPLE_TEXT + "\n#" + "é" * ((MAX_DOCUMENT_BYTES - len(EXAMPLE_TEXT.encode()) - 3) // 2)
    assert len(fits.encode()) <= MAX_DOCUMENT_BYTES
    assert R.setup(GameConfig(EXAMPLE, with_doc(fits)), Rng(1)).scenario == EXAMPLE
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig(EXAMPLE, {SCENARIO_DOCUMENT: 42}), Rng(1))
    assert info.value.rejection.rule == "§8.2"
    with pytest.raises(SetupError) as info:
        R.setup(GameConfig(EXAMPLE, {**with_doc(EXAMPLE_TEXT), "speed": 2}), Rng(1))
    assert info.value.rejection.rule == "§6"


def test_a_snapshot_whose_document_does_not_match_its_hash_is_refused(
    example_doc: dict[str, Any],
) -> None:
    name, text = own_doc(example_doc)
    data: Any = R.dump(R.setup(GameConfig(name, with_doc(text)), Rng(4)))
    data["document"] = {**data["document"], "text": text + "\n# changed"}
    with pytest.raises(ValueError, match="sha256"):
        R.load(data)
