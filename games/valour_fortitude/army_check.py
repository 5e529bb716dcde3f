"""A submitted army checked against the list it names (digest 3.18, VF-230..VF-240; VF-T38): the
one entry point for a player's army document, from the army page, the API or a file.

`army_report(text_or_doc)` reads a YAML/JSON text (bounded, no anchors) or an already parsed
mapping, takes the list its `army_list` names (VF-14), and returns the list, the army's cost and
every problem, each naming its place in the document, the rule and what is wrong."""

from __future__ import annotations

from dataclasses import dataclass

from games.core.bounded_yaml import YamlRefused, parse_yaml
from games.valour_fortitude.armies import army_lists, army_points, check_army
from games.valour_fortitude.problems import Problem

ARMY_MAX_BYTES = 64 * 1024  # an army document (a whole army of 8 brigades is about 4 KiB)


@dataclass(frozen=True, slots=True)
class ArmyReport:
    army_list: str | None  # the list checked against (None: the document names none we have)
    points: int | None  # the army's cost (VF-230), None when the list is unknown
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def army_report(submitted: str | object) -> ArmyReport:
    """Every problem of a submitted army; its cost against the list it names."""
    doc = submitted
    if isinstance(submitted, str):
        try:
            doc = parse_yaml(submitted, max_bytes=ARMY_MAX_BYTES)
        except YamlRefused as e:
            return ArmyReport(None, None, (Problem("", "format", str(e)[:300]),))
    if not isinstance(doc, dict):
        return ArmyReport(None, None, (Problem("", "format", "an army is a mapping"),))
    named = doc.get("army_list")
    lists = army_lists()
    found = lists.get(named) if isinstance(named, str) else None
    if found is None:
        known = ", ".join(sorted(lists))
        message = f"no army list {str(named)[:60]!r}; the lists are {known}"
        return ArmyReport(None, None, (Problem("army_list", "VF-14", message),))
    problems = tuple(check_army(found, doc, lists))
    return ArmyReport(found.id, army_points(found, doc, lists), problems)
