"""games.core.i18n: `T` writes exactly the English sentence; a sentence is traced back to its
template (the most specific first, repeated fields consistent) and translated with its values;
what no template fits stays as it is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.core.i18n import T, TemplateIndex, fields_of, templates_in

CATALOG = {
    "{unit} is not one of your units": "{unit} ist keine deiner Einheiten",
    "locale {locale} would hold {n} units, its capacity is {capacity}": (
        "Stellung {locale} hätte {n} Einheiten, ihre Kapazität ist {capacity}"
    ),
    "{x} and {x} again": "{x} und nochmal {x}",
    "it is not your turn": "du bist nicht am Zug",
    "{kind} is not a command; nothing is waiting for it": "{kind} ist kein Befehl",
    "{anything}": "",  # untranslated: never matched
    "{a} broke {b}": "{c} kaputt",  # a translation naming another field: left English
}
INDEX = TemplateIndex(CATALOG)


def test_T_writes_the_english_sentence() -> None:
    assert T("it is not your turn") == "it is not your turn"
    assert T("{unit} is not one of your units", unit="'F99'") == "'F99' is not one of your units"
    assert fields_of("locale {locale} would hold {n} units") == ["locale", "n"]


def test_a_sentence_is_translated_through_its_template() -> None:
    english = T(
        "locale {locale} would hold {n} units, its capacity is {capacity}",
        locale=12,
        n=5,
        capacity=4,
    )
    assert INDEX.translate(english) == "Stellung 12 hätte 5 Einheiten, ihre Kapazität ist 4"
    assert INDEX.translate("it is not your turn") == "du bist nicht am Zug"
    assert INDEX.translate("'A07' is not one of your units") == "'A07' ist keine deiner Einheiten"
    assert INDEX.translate("cat and cat again") == "cat und nochmal cat"
    assert INDEX.translate("cat and dog again") == "cat and dog again"  # {x} twice: one value
    assert INDEX.translate("Something else entirely.") == "Something else entirely."
    assert INDEX.translate("the wheel broke the axle") == "the wheel broke the axle"
    assert INDEX.translate_lines("it is not your turn\nno idea") == "du bist nicht am Zug\nno idea"


@given(unit=st.text(min_size=1, max_size=30).filter(lambda s: "\n" not in s))
def test_any_value_comes_back_in_its_place(unit: str) -> None:
    english = T("{unit} is not one of your units", unit=unit)
    assert INDEX.translate(english) == f"{unit} ist keine deiner Einheiten"


def test_the_extraction_finds_the_literal_templates() -> None:
    source = 'T("a {b}", b=1)\nx = T(name)\nfrom q import T as U\nU("not this")\nT("plain")'
    assert templates_in([source]) == ["a {b}", "plain"]
