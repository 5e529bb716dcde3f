"""pbem.play.rulesets offers every games.registry entry unless the setting RULESETS lists some."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games import registry
from games.registry import Entry
from pbem.play.rulesets import UnknownRuleset, enabled, ruleset_get


def test_by_default_every_registered_ruleset_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.RULESETS, "zz_next", Entry("games.napoleons_triumph:RULESET"))
    with override_settings(PBEM={}):
        assert enabled() == sorted(registry.RULESETS)
        assert "zz_next" in enabled()


def test_a_list_offers_only_those() -> None:
    with override_settings(PBEM={"RULESETS": []}):
        assert enabled() == []
        with pytest.raises(UnknownRuleset, match="this server offers"):
            ruleset_get("napoleons_triumph")
    with override_settings(PBEM={"RULESETS": ["napoleons_triumph", "not_registered"]}):
        assert enabled() == ["napoleons_triumph"]
