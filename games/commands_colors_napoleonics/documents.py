"""Games from a scenario document (the game option `scenario_document`, digest 8.2): a whole
`ccn-scenario/1` YAML text, read by exactly the loader and checks of a shipped scenario file
(`scenario.parse_scenario` after `bounded_yaml.parse_yaml`, as `parse_scenario_text` does).

The state carries the text (`state.ScenarioDocument`), so a process that never set the game up
rebuilds the scenario from a snapshot alone; parsed scenarios are cached by the text's sha256.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass

from games.commands_colors_napoleonics.errors import Problem, ScenarioError
from games.commands_colors_napoleonics.scenario import Scenario, parse_scenario
from games.commands_colors_napoleonics.scenario_read import RULE
from games.commands_colors_napoleonics.state import ScenarioDocument
from games.core.bounded_yaml import YamlRefused, parse_yaml
from games.core.protocol import JSON

SOURCE = "scenario_document"
CACHE_SIZE = 16


@dataclass(frozen=True, slots=True)
class Parsed:
    scenario: Scenario
    board: JSON  # the document's `board` and `terrain` entries, unchanged (the view's map)
    terrain: JSON


_CACHE: OrderedDict[str, Parsed] = OrderedDict()


def parsed(doc: ScenarioDocument) -> Parsed:
    """The scenario of `doc` (ScenarioError with every problem when it does not load)."""
    hit = _CACHE.get(doc.sha256)
    if hit is not None:
        _CACHE.move_to_end(doc.sha256)
        return hit
    try:
        raw = parse_yaml(doc.text)
    except YamlRefused as exc:
        raise ScenarioError(SOURCE, [Problem("", RULE, str(exc))]) from None
    board = copy.deepcopy(raw.get("board")) if isinstance(raw, dict) else None
    terrain = copy.deepcopy(raw.get("terrain", [])) if isinstance(raw, dict) else []
    found = Parsed(parse_scenario(raw, SOURCE), board, terrain)
    _CACHE[doc.sha256] = found
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def document_scenario(doc: ScenarioDocument) -> Scenario:
    return parsed(doc).scenario


def clear_cache() -> None:
    _CACHE.clear()
