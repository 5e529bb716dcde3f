"""OpenAPI typing from the engines' own JSON Schemas.

The engines describe their payloads (`Ruleset.payload_schemas()`, draft 2020-12) and their views
(`view_schema()`, where a ruleset has one); these helpers turn them into the schemas of the API
document: the view of `GET /games/{id}/view`, each action's `choices`, and the order body of
`POST /games/{id}/actions` as one alternative per action kind.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema

from games import registry
from pbem.play.rulesets import enabled

ROLE_FIELD: dict[str, Any] = {
    "type": "string",
    "maxLength": 60,
    "description": "the seat you act as; may be left out when you hold exactly one",
}

CHOICES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "the legal choices computed only from what the seat may know",
    "properties": {
        "payloads": {
            "type": "array",
            "items": {"type": "object"},
            "description": "complete legal payloads, each ready to send as it is",
        },
        "complete": {
            "type": "boolean",
            "description": "true when these are all the legal payloads; else a subset",
        },
    },
    "required": ["payloads", "complete"],
    "additionalProperties": True,  # per-field hints, e.g. "units", "approaches"
}

JSON_SCHEMA_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "a JSON Schema (draft 2020-12) of the payload; objects refuse unknown fields",
    "additionalProperties": True,
}


def _embeddable(schema: Any) -> dict[str, Any]:
    """An engine schema without its `$schema` (not a keyword inside an OpenAPI document)."""
    out = dict(schema) if isinstance(schema, dict) else {}
    out.pop("$schema", None)
    return out


def _rulesets() -> list[Any]:
    return [registry.get(rid) for rid in enabled()]


def view_schema() -> dict[str, Any]:
    """The engine view: each enabled ruleset's `view_schema()` (one of them when several)."""
    schemas = [
        _embeddable(r.view_schema())
        for r in _rulesets()
        if callable(getattr(r, "view_schema", None))
    ]
    if not schemas:
        return {"type": "object", "description": "the engine's view for the seat"}
    if len(schemas) == 1:
        return schemas[0]
    return {"oneOf": schemas}


def order_submit_schema() -> dict[str, Any]:
    """The body of an order: one alternative per action kind of every enabled ruleset,
    `{"role"?, "kind": k, "payload": schema of k}` (the kind is an enum of one value, which
    OpenAPI 3.0 and 3.1 both read)."""
    alternatives: list[dict[str, Any]] = []
    for ruleset in _rulesets():
        for kind, schema in sorted(ruleset.payload_schemas().items()):
            alternatives.append(
                {
                    "type": "object",
                    "title": kind,
                    "properties": {
                        "role": ROLE_FIELD,
                        "kind": {"type": "string", "enum": [kind]},
                        "payload": _embeddable(schema),
                    },
                    "required": ["kind", "payload"],
                    "additionalProperties": False,
                }
            )
    return {"oneOf": alternatives, "description": "an order: its kind and that kind's payload"}


def register_order_request(serializer_class: type) -> type[OpenApiSerializerExtension]:
    """Publish `order_submit_schema()` as the schema of `serializer_class` (the order input
    serializer) in the OpenAPI document; its component keeps its name. Returns the extension."""

    class OrderSubmitRequestExtension(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
        target_class = serializer_class

        def map_serializer(self, auto_schema: AutoSchema, direction: str) -> Any:
            return order_submit_schema()

        def get_name(self, auto_schema: AutoSchema, direction: str) -> str | None:
            return None  # the serializer's own component name

    return OrderSubmitRequestExtension


__all__ = [
    "CHOICES_SCHEMA",
    "JSON_SCHEMA_SCHEMA",
    "order_submit_schema",
    "register_order_request",
    "view_schema",
]
