"""The catalogue of special rules the army lists name (`data/special_rules.yaml`, format
`vf-special-rules/1`): each rule's German and English name, the digest's rule id and the
rulebook line that defines it, or the gap of a rule never defined ("Lanzen", GAP-5)."""

from __future__ import annotations

from games.core.bounded_yaml import at
from games.valour_fortitude.army_list_reading import ListReader

RULES_FORMAT = "vf-special-rules/1"


def read_special_rules(doc: object) -> dict[str, str]:
    """The rule catalogue: key -> German name; raises ValueError with the problems."""
    r = ListReader()
    top = r.mapping(doc, "", ("format", "unit_rules", "leader_rules"))
    out: dict[str, str] = {}
    if top is not None:
        r.choice(top.get("format"), "format", (RULES_FORMAT,))
        for group in ("unit_rules", "leader_rules"):
            rules = top.get(group)
            if not isinstance(rules, dict):
                r.fail(group, "expected a mapping of rule keys")
                continue
            for key, item in rules.items():
                path = at(group, str(key))
                fields = r.mapping(item, path, ("name_de", "name_en", "rule", "source"))
                if fields is None or r.identifier(key, path) is None:
                    continue
                r.known_or_gap(fields.get("source"), at(path, "source"))
                name = r.string(fields.get("name_de"), at(path, "name_de"))
                out[str(key)] = name or str(key)
    if r.problems:
        raise ValueError("; ".join(str(p) for p in r.problems[:10]))
    return out
