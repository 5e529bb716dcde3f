"""Template helpers of the pages: `mapping|get:key` (a dict's value, "" when absent) and
`{% rule_href ruleset rule %}` (the page of a rule's text)."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def get(mapping: object, key: str) -> object:
    if isinstance(mapping, Mapping):
        return mapping.get(key, "")
    return ""


@register.simple_tag
def rule_href(ruleset_id: str, rule: str) -> str:
    """`{% rule_href game.ruleset_id rule %}`: the page of the rule's text, "" when none."""
    from pbem.web.rule_views import rule_href as href

    return href(ruleset_id, rule)
