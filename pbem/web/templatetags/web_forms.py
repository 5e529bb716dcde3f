"""Template helpers of the pages: `mapping|get:key` (a dict's value, "" when absent)."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def get(mapping: object, key: str) -> object:
    if isinstance(mapping, Mapping):
        return mapping.get(key, "")
    return ""
