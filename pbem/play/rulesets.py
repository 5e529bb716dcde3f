"""The rulesets this server offers: every entry of games.registry, or only those the setting
RULESETS lists (None, the default, offers them all). Each comes with the umpire seat
(games.core.umpire: rulings and corrections as events, the umpire's omniscient view)."""

from __future__ import annotations

import functools

from games import registry
from games.core.protocol import Ruleset
from games.core.umpire import Umpired
from pbem.conf import pbem_settings


class UnknownRuleset(LookupError):
    pass


def enabled() -> list[str]:
    wanted = pbem_settings.RULESETS
    if wanted is None:
        return registry.available()
    return [r for r in registry.available() if r in set(wanted)]


def ruleset_get(ruleset_id: str) -> Ruleset[object]:
    if ruleset_id not in enabled():
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}; this server offers {enabled()}")
    return _umpired(ruleset_id)


@functools.cache
def _umpired(ruleset_id: str) -> Ruleset[object]:
    return Umpired(registry.get(ruleset_id))
