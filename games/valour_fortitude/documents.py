"""Games from a scenario document (the game option `scenario_document`,
`games.core.protocol.SCENARIO_DOCUMENT`; digest 3.19, 5.4): a whole `vf-scenario/1` YAML text of
at most 256 KiB UTF-8, read by exactly the loader and checks of a shipped scenario file
(`bounded_yaml.parse_yaml`, `scenario.parse_scenario`, `scenario_checks.scenario_problems`: the
set-up rules VF-247..VF-250, `check_army` on each side's army, special rules not built). The
game's scenario must be the document's `id`.

The match carries the text and its sha256 (`match.ScenarioDocument`), so a process that never
set the game up rebuilds the scenario from a snapshot alone (`scenario_of`); parsed scenarios
are cached by the text's sha256.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Mapping

from games.core.bounded_yaml import YamlRefused, parse_yaml
from games.core.i18n import T
from games.core.protocol import JSON, SCENARIO_DOCUMENT, Rejection, SetupError
from games.valour_fortitude.match import Match, ScenarioDocument
from games.valour_fortitude.problems import DataError, Problem
from games.valour_fortitude.scenario import load_scenario, parse_scenario
from games.valour_fortitude.scenario_checks import scenario_problems
from games.valour_fortitude.scenario_model import Scenario

RULE = "5.4"  # the scenario file vf-scenario/1
SOURCE = "scenario_document"
MAX_DOCUMENT_BYTES = 256 * 1024
PATH = f"/options/{SCENARIO_DOCUMENT}"
CACHE_SIZE = 16
MAX_REJECTIONS = 40

_CACHE: OrderedDict[str, Scenario | DataError] = OrderedDict()


@functools.cache
def shipped(name: str) -> Scenario:
    """A shipped scenario by name (reading and checking it is slow: once per process; its state
    is immutable)."""
    return load_scenario(name)


def option_problems(options: Mapping[str, JSON]) -> list[Rejection]:
    """The option itself: a text of at most `MAX_DOCUMENT_BYTES` UTF-8 bytes."""
    if SCENARIO_DOCUMENT not in options:
        return []
    text = options[SCENARIO_DOCUMENT]
    if not isinstance(text, str):
        return [Rejection(RULE, T("the scenario document is a YAML text"), PATH)]
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DOCUMENT_BYTES:
        message = T(
            "the scenario document has {size} bytes; at most {limit} are allowed",
            size=size,
            limit=MAX_DOCUMENT_BYTES,
        )
        return [Rejection(RULE, message, PATH)]
    return []


def parsed(doc: ScenarioDocument) -> Scenario:
    """The checked scenario of `doc`; DataError with every problem when it is refused."""
    hit = _CACHE.get(doc.sha256)
    if hit is None:
        hit = _read(doc.text)
        _CACHE[doc.sha256] = hit
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(doc.sha256)
    if isinstance(hit, DataError):
        raise hit
    return hit


def _read(text: str) -> Scenario | DataError:
    try:
        raw = parse_yaml(text, max_bytes=MAX_DOCUMENT_BYTES)
    except YamlRefused as exc:
        return DataError(SOURCE, [Problem("", RULE, str(exc)[:300])])
    try:
        scenario = parse_scenario(raw, SOURCE)
    except DataError as exc:
        return exc
    problems = scenario_problems(scenario)
    return DataError(SOURCE, problems) if problems else scenario


def resolve(name: str, options: Mapping[str, JSON]) -> tuple[Scenario, ScenarioDocument | None]:
    """The scenario of a new game: the option's document when given (its `id` must be `name`),
    else the shipped scenario `name` (the caller has checked that it exists). SetupError names
    every problem, each with its place in the document and its rule."""
    text = options.get(SCENARIO_DOCUMENT)
    if not isinstance(text, str):
        return shipped(name), None
    bad = option_problems(options)
    if bad:
        raise SetupError(bad)
    doc = ScenarioDocument.of(text)
    try:
        scenario = parsed(doc)
    except DataError as exc:
        raise SetupError(refusals(exc, name)) from None
    if scenario.id != name:
        message = T(
            "the scenario document is {doc_id}, not the game's scenario {name}",
            doc_id=repr(scenario.id)[:60],
            name=repr(name)[:60],
        )
        raise SetupError(Rejection(RULE, message, PATH))
    return scenario, doc


def refusals(exc: DataError, name: str) -> list[Rejection]:
    out = [
        Rejection(p.rule, T("scenario {name}: {problem}", name=name[:40], problem=_where(p)), PATH)
        for p in exc.problems[:MAX_REJECTIONS]
    ]
    return out or [Rejection(RULE, T("scenario {name} does not load", name=name[:40]), PATH)]


def _where(p: Problem) -> str:
    return f"{p.path or '(document)'}: {p.message}"


def scenario_of(match: Match) -> Scenario:
    """The scenario of a match, from the match alone: its document's (cached by sha256) when it
    carries one, else the shipped scenario it names."""
    if match.document is not None:
        return parsed(match.document)
    return shipped(match.game.scenario)


def clear_cache() -> None:
    _CACHE.clear()
    shipped.cache_clear()
