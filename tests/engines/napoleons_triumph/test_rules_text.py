"""The rules-text file: every rule id the engine cites has its text (NT-0 is a form error, not a
rule), and the builder reads the digest's bullet forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core.rule_text_build import parse
from games.registry import rule_text, ruleset_rules

ENGINE = Path(__file__).resolve().parents[3] / "games" / "napoleons_triumph"


def test_every_rule_the_engine_cites_has_its_text() -> None:
    cited = set()
    for source in ENGINE.rglob("*.py"):
        cited |= set(re.findall(r'"(NT(?:-TEAM)?-\d+)"', source.read_text(encoding="utf-8")))
    cited.discard("NT-0")
    assert len(cited) > 90
    missing = sorted(r for r in cited if rule_text("napoleons_triumph", r) is None)
    assert missing == []
    rules = ruleset_rules("napoleons_triumph")
    assert rules is not None
    assert "sha256:" in rules.source


def test_the_builder_reads_bullets_titles_nested_lists_and_sections() -> None:
    digest = """## 3. Rules
### 3.2 The board [seed: L1]
* **NT-7** The map is divided
  into locales.
* **NT-16** Two scenarios:
  * **2 December** (`DEC2`);
  * **1 December**.
Other text that ends the bullet.
## Addendum A
* **NT-141 (road attack).** An attack is
  an attempted move.
* **AMB-1** not kept with the prefix
"""
    rules = parse(digest, "NT-")
    assert list(rules) == ["NT-7", "NT-16", "NT-141"]
    assert rules["NT-7"] == {
        "section": "3.2 The board [seed: L1]",
        "title": "",
        "text": "The map is divided into locales.",
    }
    assert rules["NT-16"]["text"] == "Two scenarios:\n* **2 December** (`DEC2`);\n* **1 December**."
    assert rules["NT-141"]["title"] == "road attack"
    assert rules["NT-141"]["section"] == "Addendum A"
    assert rules["NT-141"]["text"] == "An attack is an attempted move."


def test_a_rule_id_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="NT-7 appears twice"):
        parse("* **NT-7** a\n* **NT-7** b\n", "NT-")
