"""Engine sentences in the reader's language (games.core.i18n): the gettext domain `engine`.

The engines write English through `T(template, **values)`; `locale/<lang>/LC_MESSAGES/engine.po`
translates the templates (`./dev messages` collects them from games/). `engine_text(text)` gives
a sentence in the active language (django.utils.translation): the catalog's translation of the
template it was written from, with the same values; a sentence no template matches stays English.

- **Values that are sentences too.** An engine may fill a field with a phrase it wrote through `T`
  itself (a morale reason, an elite trigger, a refusal inside "line {n}: {error}"): each filled-in
  value that is itself a sentence of a known template is translated the same way (nested up to
  `NESTING` deep), except the fields in `VERBATIM`, which carry what a person wrote. A value that
  matches no template but is a list ("; " or ", " outside brackets: a report's positions, pieces,
  seats) has each of its items translated so.
- **Wrapped lines.** A report wraps a line longer than `WIDTH` characters after ", " or "; ",
  indenting the continuation lines 4 spaces deeper (games.core.wrap). A
  line that matches no template is joined with the continuation lines that follow it; when the
  joined line matches a template, its translation is wrapped again by the same rule.
"""

from __future__ import annotations

import functools
import gettext

from django.conf import settings
from django.utils import translation

from games.core.i18n import TemplateIndex
from games.core.wrap import INDENT, wrap

DOMAIN = "engine"
SOURCE_LANGUAGE = "en"
NESTING = 4  # how deep values inside values are translated
LIST_SEPARATORS = ("; ", ", ")  # a value that is a list: its items are translated one by one
VERBATIM = frozenset({"text", "author"})  # fields holding what a person wrote: never translated
CACHE_MAX = 20_000  # translated sentences kept per language


class Translator:
    """Translates engine sentences with a catalog (template -> translation)."""

    def __init__(self, catalog: dict[str, str]) -> None:
        self._catalog = {k: v for k, v in catalog.items() if k and v}
        self._index = TemplateIndex(self._catalog)
        self._cache: dict[str, str | None] = {}

    def sentence(self, text: str) -> str | None:
        """`text` translated, None when no template matches it."""
        if text in self._cache:
            return self._cache[text]
        translated = self._sentence(text, NESTING)
        if len(self._cache) >= CACHE_MAX:
            self._cache.clear()
        self._cache[text] = translated
        return translated

    def _sentence(self, text: str, depth: int) -> str | None:
        found = self._index.match(text)
        if found is None:
            return None
        template, values = found
        if depth > 0:
            values = {
                name: value if name in VERBATIM else self._value(value, depth - 1)
                for name, value in values.items()
            }
        try:
            return self._catalog[template].format(**values)
        except (KeyError, IndexError, ValueError):  # a translation naming another field
            return None

    def _value(self, value: str, depth: int) -> str:
        translated = self._sentence(value, depth)
        if translated is not None:
            return translated
        for sep in LIST_SEPARATORS:  # a list: each item that is a sentence, translated
            items = split_top(value, sep)
            if len(items) > 1:
                return sep.join(self._value(item, depth) for item in items)
        return value

    def lines(self, text: str) -> str:
        """Each line on its own, a wrapped line joined again (see the module's docstring)."""
        lines = text.split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            taken, translated = self._wrapped(lines, i)
            if taken:
                out.extend(wrap(translated))
                i += taken
                continue
            line = lines[i]
            found = self.sentence(line)
            out.append(line if found is None else found)
            i += 1
        return "\n".join(out)

    def _wrapped(self, lines: list[str], i: int) -> tuple[int, str]:
        """How many lines from `i` make one wrapped sentence a template matches (0 when none
        does), and its translation; the longest such sentence wins."""
        first = lines[i]
        if not first.endswith((",", ";")):
            return 0, ""
        more = " " * (len(first) - len(first.lstrip()) + INDENT)
        joined = [first]
        j = i + 1
        while j < len(lines) and joined[-1].endswith((",", ";")):
            nxt = lines[j]
            if not nxt.startswith(more) or not nxt[len(more) :].strip():
                break
            joined.append(joined[-1] + " " + nxt[len(more) :])
            j += 1
        for k in range(len(joined) - 1, 0, -1):  # the longest first
            found = self.sentence(joined[k])
            if found is not None:
                return k + 1, found
        return 0, ""


def split_top(text: str, sep: str) -> list[str]:
    """`text` split at each `sep` outside brackets ("A [B, C], D" -> "A [B, C]", "D")."""
    items: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and text.startswith(sep, i):
            items.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    items.append(text[start:])
    return items


@functools.cache
def _translator(language: str) -> Translator | None:
    for path in settings.LOCALE_PATHS:
        found = gettext.translation(DOMAIN, str(path), languages=[language], fallback=True)
        catalog = getattr(found, "_catalog", None)  # GNUTranslations: msgid -> msgstr
        if isinstance(catalog, dict):
            entries = {k: v for k, v in catalog.items() if isinstance(k, str) and k}
            return Translator(entries)
    return None


def _language(language: str | None) -> str:
    code = language or translation.get_language() or SOURCE_LANGUAGE
    return code.split("-")[0].lower()


def engine_text(text: str, language: str | None = None) -> str:
    """`text` (an engine sentence, or several lines of them) in `language`, else the active one."""
    code = _language(language)
    if code == SOURCE_LANGUAGE or not text:
        return text
    translator = _translator(code)
    return text if translator is None else translator.lines(text)
