"""Form fields generated from a JSON Schema object (an action's payload, a ruleset's options).

Each top-level property becomes one labelled field: an `enum` a select, a boolean a yes/no select,
an integer a number box, a string a text box, an array of strings (ids: `units` of an order) a
text box of words separated by spaces or commas (a click on the board adds one), anything else
(other arrays, objects) a JSON text area.
`read_fields` turns the submitted values back into a JSON object; a value that cannot be read
is a `FieldError` naming the field. Nothing here is specific to a ruleset."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.core.protocol import JSON
from pbem.conf import pbem_settings
from pbem.play.json_depth import nests_deeper

TEXT, NUMBER, SELECT, BOOLEAN, JSON_AREA = "text", "number", "select", "boolean", "json"
WORDS = "words"  # an array of strings, typed as words
JSON_MAX = 65536  # characters of one JSON field (the order path bounds the payload again)


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One form field: `name` is the form's key (`<prefix>.<property>`), `prop` the property."""

    name: str
    prop: str
    label: str
    widget: str
    help: str = ""
    required: bool = False
    nullable: bool = False
    options: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (value, label)


class FieldError(ValueError):
    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


def _types(schema: Mapping[str, JSON]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [str(k) for k in kind]
    return []


def field_for(prefix: str, prop: str, schema: JSON, required: bool) -> FieldSpec | None:
    """The field of one property (None for a `const`, which the payload carries by itself)."""
    if not isinstance(schema, dict):
        schema = {}
    if "const" in schema:
        return None
    name = f"{prefix}.{prop}"
    label = prop.replace("_", " ")
    help_text = str(schema.get("description", ""))
    types = _types(schema)
    nullable = "null" in types
    enum = schema.get("enum")
    if isinstance(enum, list):
        options = tuple((json.dumps(v), "—" if v is None else str(v)) for v in enum)
        return FieldSpec(name, prop, label, SELECT, help_text, required, nullable, options)
    concrete = [t for t in types if t != "null"]
    if concrete == ["boolean"]:
        options = (("true", _("yes")), ("false", _("no")))
        return FieldSpec(name, prop, label, BOOLEAN, help_text, required, nullable, options)
    if concrete == ["integer"]:
        return FieldSpec(name, prop, label, NUMBER, help_text, required, nullable)
    if concrete == ["string"]:
        return FieldSpec(name, prop, label, TEXT, help_text, required, nullable)
    items = schema.get("items")
    if concrete == ["array"] and isinstance(items, dict) and _types(items) == ["string"]:
        return FieldSpec(name, prop, label, WORDS, help_text, required, nullable)
    return FieldSpec(name, prop, label, JSON_AREA, help_text, required, nullable)


def fields_for(prefix: str, schema: JSON) -> list[FieldSpec]:
    """The fields of a JSON Schema object's properties, in the schema's order."""
    if not isinstance(schema, dict):
        return []
    props = schema.get("properties")
    if not isinstance(props, dict):
        return []
    needed = schema.get("required")
    required = {str(r) for r in needed} if isinstance(needed, list) else set()
    found = (field_for(prefix, p, s, p in required) for p, s in props.items())
    return [f for f in found if f is not None]


def parse_json(name: str, raw: str) -> JSON:
    if len(raw) > JSON_MAX:
        raise FieldError(name, _("at most %(n)d characters") % {"n": JSON_MAX})
    depth = int(pbem_settings.MAX_JSON_DEPTH)
    if nests_deeper(raw, depth):
        raise FieldError(name, _("nested deeper than %(n)d levels") % {"n": depth})
    try:
        value: JSON = json.loads(raw)
    except (ValueError, RecursionError):
        raise FieldError(name, _("this is not valid JSON")) from None
    return value


def read_value(spec: FieldSpec, raw: str) -> JSON:
    """One submitted value as JSON (the caller leaves out empty ones)."""
    if spec.widget in (SELECT, JSON_AREA):
        return parse_json(spec.name, raw)
    if spec.widget == WORDS:  # `a b c`, `a, b, c`, or the JSON list itself
        if raw.startswith("["):
            return parse_json(spec.name, raw)
        if len(raw) > JSON_MAX:
            raise FieldError(spec.name, _("at most %(n)d characters") % {"n": JSON_MAX})
        return [w for w in raw.replace(",", " ").split() if w]
    if spec.widget == BOOLEAN:
        if raw not in ("true", "false"):
            raise FieldError(spec.name, _("choose yes or no"))
        return raw == "true"
    if spec.widget == NUMBER:
        try:
            return int(raw)
        except ValueError:
            raise FieldError(spec.name, _("enter a whole number")) from None
    return raw


def read_fields(specs: list[FieldSpec], data: Mapping[str, str]) -> dict[str, JSON]:
    """The JSON object the submitted fields describe: empty fields are left out (the engine
    names a missing required one)."""
    out: dict[str, JSON] = {}
    for spec in specs:
        raw = str(data.get(spec.name, "")).strip()
        if raw:
            out[spec.prop] = read_value(spec, raw)
    return out
