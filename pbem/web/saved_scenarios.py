"""Scenarios saved in the Commands & Colors scenario editor, played as games (issue 16: "a player
who owns the printed booklet can enter a historical battle in minutes" and play it).

The create page lists the reader's own saved scenarios and the shared ones as `saved:<id>`. A game
made from one gets the document's whole text as its `scenario_document` option
(games.core.protocol.SCENARIO_DOCUMENT), which the engine checks exactly as it checks a shipped
scenario file. The game's first event therefore holds the scenario it is played with: a later
edit or deletion of the saved scenario changes no game, and the log replays on its own.
Privacy as on the scenario pages: another user's private scenario is "no such scenario"."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Q

from games.core.protocol import JSON, SCENARIO_DOCUMENT
from pbem.web.ccn_scenario_edit import EditRefused, read_document
from pbem.web.models import CcnScenario

SAVED_PREFIX = "saved:"
SAVED_RULESETS = frozenset({"commands_colors_napoleonics"})
MAX_LISTED = 100  # the most recently changed first


@dataclass(frozen=True)
class SavedScenario:
    value: str  # `saved:<id>`, what the create form posts
    label: str
    scenario: str  # the document's own id, the game's scenario
    text: str

    def options(self) -> dict[str, JSON]:
        return {SCENARIO_DOCUMENT: self.text}


def _visible(user: User) -> Q:
    return Q(owner=user) | Q(shareable=True)


def saved_choices(user: User | None, ruleset_id: str) -> list[tuple[str, str]]:
    """(value, label) of the saved scenarios `user` may play with `ruleset_id`."""
    if user is None or ruleset_id not in SAVED_RULESETS:
        return []
    rows = CcnScenario.objects.filter(_visible(user)).select_related("owner")[:MAX_LISTED]
    return [(f"{SAVED_PREFIX}{s.pk}", _label(s, user)) for s in rows]


def _label(s: CcnScenario, user: User) -> str:
    return s.title if s.owner_id == user.pk else f"{s.title} ({s.owner.username})"


def saved_scenario(user: User | None, ruleset_id: str, value: str) -> SavedScenario | None:
    """The saved scenario a create form names, or None when `value` names none `user` may play
    (not `saved:<id>`, another ruleset, unknown, another user's private one, unreadable)."""
    if user is None or ruleset_id not in SAVED_RULESETS or not value.startswith(SAVED_PREFIX):
        return None
    number = value.removeprefix(SAVED_PREFIX)
    if not number.isdigit() or len(number) > 12:
        return None
    row = CcnScenario.objects.filter(_visible(user), pk=int(number)).select_related("owner")
    found = row.first()
    if found is None:
        return None
    try:
        doc = read_document(found.text)
    except EditRefused:
        return None
    scenario = doc.get("id")
    if not isinstance(scenario, str) or not scenario:
        return None
    return SavedScenario(value, _label(found, user), scenario, found.text)
