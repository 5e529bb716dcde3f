"""Engine sentences a page or a mail can show in the reader's language.

An engine writes a sentence a player reads (a refusal, a prompt, a log line) as
`T("the {unit} cannot move {n} locales", unit=..., n=...)`: `T` returns the English text,
formatted, and nothing else. The engine's output, its logs and their hashes are what they were.

The translations live outside the engine, in the gettext domain `engine`
(`locale/<lang>/LC_MESSAGES/engine.po`), whose msgids are the templates given to `T` (the
platform's message extraction collects them from the source: the keyword `T`). To show an engine
sentence in German, the platform finds the template it was formatted from (`TemplateIndex.match`:
each template becomes an anchored pattern, its `{name}` fields the groups) and formats the German
template with the same values. A sentence no template matches is shown as it is: in English.

Fields are `{name}` only (no conversions or format specs): an engine passes values already
written as it wants them shown (`kind=repr(kind)`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def T(template: str, /, **values: object) -> str:
    """The English sentence: `template` with its `{name}` fields filled."""
    return template.format(**values) if values else template


def fields_of(template: str) -> list[str]:
    return FIELD.findall(template)


@dataclass(frozen=True, slots=True)
class _Pattern:
    template: str
    regex: re.Pattern[str]
    literal: int  # characters of fixed text: the more, the more specific
    prefix: str  # the fixed text before the first field
    anchor: str  # its longest run of fixed text: a sentence without it cannot fit

    @property
    def order(self) -> tuple[int, str]:
        return (-self.literal, self.template)


PREFIX = 2  # patterns are filed by this many characters of their fixed beginning
CACHE_MAX = 20_000  # translated sentences kept (pages and mails repeat their log lines)


def _compile(template: str) -> _Pattern:
    parts, seen, pos = [], set(), 0
    for m in FIELD.finditer(template):
        parts.append(re.escape(template[pos : m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    literal = len(FIELD.sub("", template))
    first = FIELD.search(template)
    prefix = template[: first.start()] if first else template
    anchor = max(FIELD.split(template)[::2], key=len)  # the split's even items: fixed text
    return _Pattern(template, re.compile("".join(parts), re.DOTALL), literal, prefix, anchor)


class TemplateIndex:
    """Finds the template an engine sentence was written from, and translates it."""

    def __init__(self, catalog: Mapping[str, str]) -> None:
        """`catalog`: template -> its translation (empty translations are left out)."""
        self._exact = {k: v for k, v in catalog.items() if v and not FIELD.search(k)}
        patterned = sorted(
            (_compile(k) for k, v in catalog.items() if v and FIELD.search(k)),
            key=lambda p: p.order,
        )
        # filed by the first PREFIX characters of their fixed beginning; a shorter beginning
        # (a template that opens with a field, say) is a candidate for every sentence
        self._by_prefix: dict[str, list[_Pattern]] = {}
        self._anywhere: list[_Pattern] = []
        for pattern in patterned:
            if len(pattern.prefix) >= PREFIX:
                self._by_prefix.setdefault(pattern.prefix[:PREFIX], []).append(pattern)
            else:
                self._anywhere.append(pattern)
        self._catalog = dict(catalog)
        self._cache: dict[str, str] = {}
        self._merged: dict[str, list[_Pattern]] = {}

    def _candidates(self, text: str) -> list[_Pattern]:
        """The patterns that may fit `text`, the most specific first (as without the filing)."""
        key = text[:PREFIX]
        merged = self._merged.get(key)
        if merged is None:
            filed = [*self._by_prefix.get(key, []), *self._anywhere]
            merged = self._merged[key] = sorted(filed, key=lambda p: p.order)
        return merged

    def match(self, text: str) -> tuple[str, dict[str, str]] | None:
        """The template `text` was formatted from and its field values; None when none fits."""
        if text in self._exact:
            return text, {}
        for pattern in self._candidates(text):
            if pattern.anchor not in text:
                continue
            found = pattern.regex.fullmatch(text)
            if found is not None:
                return pattern.template, found.groupdict()
        return None

    def translate(self, text: str) -> str:
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        translated = self._translate(text)
        if len(self._cache) >= CACHE_MAX:
            self._cache.clear()
        self._cache[text] = translated
        return translated

    def _translate(self, text: str) -> str:
        found = self.match(text)
        if found is None:
            return text
        template, values = found
        try:
            return self._catalog[template].format(**values)
        except (KeyError, IndexError, ValueError):  # a translation naming another field
            return text

    def translate_lines(self, text: str) -> str:
        """Each line on its own (a report, a multi-line prompt)."""
        return "\n".join(self.translate(line) for line in text.split("\n"))


def templates_in(sources: Iterable[str]) -> list[str]:
    """The string literals given to `T(...)` in Python sources (what the extraction collects)."""
    import ast

    found: list[str] = []
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "T"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return found
