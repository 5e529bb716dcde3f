"""The rulesets this server offers: games.registry filtered by settings.PBEM["RULESETS"]."""

from __future__ import annotations

from django.conf import settings

from games import registry
from games.core.protocol import Ruleset


class UnknownRuleset(LookupError):
    pass


def enabled() -> list[str]:
    wanted = set(settings.PBEM.get("RULESETS", []))
    return [r for r in registry.available() if r in wanted]


def ruleset_get(ruleset_id: str) -> Ruleset[object]:
    if ruleset_id not in enabled():
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}; this server offers {enabled()}")
    return registry.get(ruleset_id)
