"""games.registry: one entry per ruleset names its Ruleset and its Checks; a missing or broken
hook is a MissingHook naming the ruleset and the field, and the fuzzer, the contract tests and the
platform all read this one table."""

from __future__ import annotations

import pytest

from games import registry
from games.core.checks import Checks
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.checks import CHECKS
from games.registry import Entry, MissingHook


def test_the_entry_names_the_ruleset_and_its_checks() -> None:
    assert registry.available() == sorted(registry.RULESETS)
    assert "napoleons_triumph" in registry.available()
    ruleset: object = registry.get("napoleons_triumph")
    assert ruleset is RULESET
    assert registry.checks("napoleons_triumph") is CHECKS


def test_an_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(
        KeyError, match="unknown ruleset 'chess'; known: " + ", ".join(sorted(registry.RULESETS))
    ):
        registry.get("chess")


def test_an_entry_without_checks_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.RULESETS, "bare", Entry(ruleset="games.napoleons_triumph:RULESET"))
    ruleset: object = registry.get("bare")
    assert ruleset is RULESET  # the platform needs only the ruleset
    with pytest.raises(MissingHook, match=r"ruleset 'bare' has no checks: set Entry\(checks="):
        registry.checks("bare")


def test_a_hook_that_is_not_there_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = Entry(ruleset="games.napoleons_triumph:NOPE", checks="games.nowhere:CHECKS")
    monkeypatch.setitem(registry.RULESETS, "broken", entry)
    with pytest.raises(MissingHook, match=r"'broken': its ruleset 'games.napoleons_triumph:NOPE'"):
        registry.get("broken")
    with pytest.raises(MissingHook, match=r"'broken': its checks 'games.nowhere:CHECKS'"):
        registry.checks("broken")


def test_checks_of_the_wrong_type_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    nt = "games.napoleons_triumph:RULESET"
    monkeypatch.setitem(registry.RULESETS, "odd", Entry(ruleset=nt, checks=nt))
    refused = r"is a NapoleonsTriumph, not a games\.core\.checks\.Checks"
    with pytest.raises(MissingHook, match=refused):
        registry.checks("odd")


def test_checks_require_every_hook() -> None:
    with pytest.raises(TypeError, match="secrets"):
        Checks(  # type: ignore[call-arg]
            violations=lambda s: [],
            perturb=lambda s, r, g: None,
            fast_options={},
            max_actions=10,
            kinds=(),
            hidden_ids=lambda s, r: set(),
        )


def test_the_fuzzer_uses_the_registry_checks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ruleset whose checks report a broken invariant fails every fuzzed game."""
    from games import fuzz

    broken = Checks(
        violations=lambda state: ["INV-X: always broken"],
        perturb=CHECKS.perturb,
        fast_options=CHECKS.fast_options,
        max_actions=CHECKS.max_actions,
        kinds=CHECKS.kinds,
        hidden_ids=CHECKS.hidden_ids,
        secrets=CHECKS.secrets,
    )
    monkeypatch.setattr(fuzz, "checks", lambda ruleset_id: broken)
    assert fuzz.main(["napoleons_triumph", "--games", "1", "--quiet", "--no-views"]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines()[-1] == "1 games, 0 actions, 0 decided, 1 failures"
    assert "INV-X: always broken" in out.err
