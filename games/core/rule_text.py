"""The text of a ruleset's rules by rule id, for the pages that link a refusal's rule id to it.

A ruleset's registry entry names (`Entry.rules_text`) a YAML file in its package data, built
from its digest by `python -m games.core.rule_text_build` and committed:

    source: <the digest files and their sha256>
    rules:
      NT-10: {section: "3.2 The board", title: "", text: "..."}

`RuleText` is one entry; `rules_text(path)` reads a file once per process.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml


@dataclass(frozen=True, slots=True)
class RuleText:
    rule: str
    section: str  # the digest section it stands in, e.g. "3.2 The board [seed: ...]"
    title: str  # the short title some rules carry (Addendum A), else ""
    text: str  # the rule as the digest words it (markdown emphasis kept), seed references included


@dataclass(frozen=True, slots=True)
class RulesText:
    source: str
    rules: dict[str, RuleText]

    def get(self, rule: str) -> RuleText | None:
        return self.rules.get(rule)


@functools.cache
def rules_text(path: str) -> RulesText:
    """The rules of the YAML file at `path` (inside a package, as the registry names it)."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    rules = {
        str(rule): RuleText(str(rule), str(r["section"]), str(r.get("title", "")), str(r["text"]))
        for rule, r in data["rules"].items()
    }
    return RulesText(str(data["source"]), rules)
