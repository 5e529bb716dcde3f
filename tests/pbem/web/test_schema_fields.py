"""Form fields from a JSON Schema (pbem.web.schema_fields): each kind of property gets its
widget, and the submitted text reads back to the JSON the schema describes; an array of strings
(the units of a C&C order) is typed as words, and a click on the board adds one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.protocol import JSON
from pbem.web.schema_fields import (
    BOOLEAN,
    JSON_AREA,
    JSON_MAX,
    NUMBER,
    SELECT,
    TEXT,
    WORDS,
    FieldError,
    fields_for,
    read_fields,
)

SCHEMA: JSON = {
    "type": "object",
    "required": ["units"],
    "properties": {
        "units": {"type": "array", "items": {"type": "string"}, "description": "unit ids"},
        "mode": {"enum": ["move", "fire"]},
        "bonus": {"type": "boolean"},
        "count": {"type": "integer"},
        "note": {"type": "string"},
        "path": {"type": "array", "items": {"type": "array"}},
        "kind": {"const": "order"},
    },
}


def _specs() -> dict[str, str]:
    return {f.prop: f.widget for f in fields_for("k", SCHEMA)}


def test_each_property_gets_its_widget() -> None:
    assert _specs() == {
        "units": WORDS,
        "mode": SELECT,
        "bonus": BOOLEAN,
        "count": NUMBER,
        "note": TEXT,
        "path": JSON_AREA,
    }


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("F1 F2 F3", ["F1", "F2", "F3"]),
        ("F1, F2,F3", ["F1", "F2", "F3"]),
        ("  F1   F2 ", ["F1", "F2"]),
        ('["F1", "F2"]', ["F1", "F2"]),
    ],
)
def test_words_read_as_a_list_of_strings(typed: str, read: list[str]) -> None:
    specs = fields_for("k", SCHEMA)
    assert read_fields(specs, {"k.units": typed}) == {"units": read}


def test_words_are_bounded_and_json_is_still_checked() -> None:
    specs = fields_for("k", SCHEMA)
    with pytest.raises(FieldError, match="at most"):
        read_fields(specs, {"k.units": "F1 " * JSON_MAX})
    with pytest.raises(FieldError, match="not valid JSON"):
        read_fields(specs, {"k.units": "[F1"})


@given(st.lists(st.text(alphabet="ABCDEFGHIJ0123456789-_", min_size=1, max_size=8), max_size=12))
def test_ids_typed_with_spaces_read_back(ids: list[str]) -> None:
    specs = fields_for("k", SCHEMA)
    typed = " ".join(ids)
    assert read_fields(specs, {"k.units": typed}).get("units", []) == ids
