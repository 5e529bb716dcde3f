"""The engines' sentences in German (pbem.play.engine_text, the gettext domain `engine`): every
template the engines give to `T` has a German translation with the same fields, and a sentence
an engine writes comes out German for a German reader and unchanged for an English one."""

from __future__ import annotations

import gettext
from pathlib import Path

from django.conf import settings
from django.utils import translation

from games.core.i18n import T, fields_of, templates_in
from games.core.protocol import Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from pbem.play.engine_text import engine_text

GAMES = Path(__file__).resolve().parents[3] / "games"


def _catalog() -> dict[str, str]:
    found = gettext.translation("engine", str(settings.LOCALE_PATHS[0]), languages=["de"])
    catalog: dict[str, str] = found._catalog  # type: ignore[attr-defined]
    return catalog


def test_every_engine_template_has_its_german_with_the_same_fields() -> None:
    templates = templates_in(p.read_text(encoding="utf-8") for p in sorted(GAMES.rglob("*.py")))
    assert len(templates) >= 30
    catalog = _catalog()
    missing = sorted(t for t in set(templates) if not catalog.get(t))
    assert missing == [], "run ./dev messages and translate locale/de/LC_MESSAGES/engine.po"
    for template in set(templates):
        assert sorted(set(fields_of(catalog[template]))) == sorted(set(fields_of(template)))


def test_a_refusal_of_the_engine_reads_german_for_a_german_reader() -> None:
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    bad = Action("allied", "allied_setup", {"corps": [{"commander": "X9", "units": []}]})
    (refusal, *_) = RULESET.validate(state, bad)
    assert refusal.message == T("{commander} is not one of your commanders", commander="'X9'")
    assert engine_text(refusal.message, "de") == "'X9' ist keiner deiner Kommandeure"
    assert engine_text(refusal.message, "en") == refusal.message
    with translation.override("de"):
        assert engine_text("it is not your turn") == "du bist nicht am Zug"
        assert engine_text("A sentence of no template.") == "A sentence of no template."
    with translation.override("en"):
        assert engine_text("it is not your turn") == "it is not your turn"


def test_the_filed_index_finds_what_trying_every_template_finds() -> None:
    """TemplateIndex files its patterns by their beginning and skips those whose fixed text is
    absent: every engine template, filled in, is traced to the template trying them all finds."""
    import re

    from games.core.i18n import FIELD, TemplateIndex

    catalog = {k: v for k, v in _catalog().items() if k and v}
    index = TemplateIndex(catalog)

    def pattern(template: str) -> re.Pattern[str]:
        parts, seen, pos = [], set(), 0
        for m in FIELD.finditer(template):
            parts.append(re.escape(template[pos : m.start()]))
            name = m.group(1)
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
            pos = m.end()
        parts.append(re.escape(template[pos:]))
        return re.compile("".join(parts), re.DOTALL)

    ordered = sorted(
        (t for t in catalog if FIELD.search(t)), key=lambda t: (-len(FIELD.sub("", t)), t)
    )
    every = [(t, pattern(t)) for t in ordered]
    checked = 0
    for template in ordered:
        text = T(template, **{f: f"<{f}>" for f in fields_of(template)})
        brute = next((t for t, p in every if p.fullmatch(text)), None)
        found = index.match(text)
        assert (found[0] if found else None) == brute, text
        checked += 1
    assert checked > 300
