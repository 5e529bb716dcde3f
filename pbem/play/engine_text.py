"""Engine sentences in the reader's language (games.core.i18n): the gettext domain `engine`.

The engines write English through `T(template, **values)`; `locale/<lang>/LC_MESSAGES/engine.po`
translates the templates (`./dev messages` collects them from games/). `engine_text(text)` gives
a sentence in the active language (django.utils.translation): the catalog's translation of the
template it was written from, with the same values; a sentence no template matches stays English.
"""

from __future__ import annotations

import functools
import gettext

from django.conf import settings
from django.utils import translation

from games.core.i18n import TemplateIndex

DOMAIN = "engine"
SOURCE_LANGUAGE = "en"


@functools.cache
def _index(language: str) -> TemplateIndex | None:
    for path in settings.LOCALE_PATHS:
        found = gettext.translation(DOMAIN, str(path), languages=[language], fallback=True)
        catalog = getattr(found, "_catalog", None)  # GNUTranslations: msgid -> msgstr
        if isinstance(catalog, dict):
            entries = {k: v for k, v in catalog.items() if isinstance(k, str) and k}
            return TemplateIndex(entries)
    return None


def _language(language: str | None) -> str:
    code = language or translation.get_language() or SOURCE_LANGUAGE
    return code.split("-")[0].lower()


def engine_text(text: str, language: str | None = None) -> str:
    """`text` (an engine sentence, or several lines of them) in `language`, else the active one."""
    code = _language(language)
    if code == SOURCE_LANGUAGE or not text:
        return text
    index = _index(code)
    return text if index is None else index.translate_lines(text)
