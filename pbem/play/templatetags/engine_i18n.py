"""`{{ text|engine_text }}`: an engine sentence in the page's or mail's language
(pbem.play.engine_text)."""

from __future__ import annotations

from django import template

from pbem.play.engine_text import engine_text as translate

register = template.Library()


@register.filter
def engine_text(text: object) -> str:
    return translate(str(text)) if text is not None else ""
