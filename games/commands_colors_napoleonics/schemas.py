"""The payload of every action kind as a JSON Schema (draft 2020-12; objects refuse unknown
keys), and a payload's schema failures as Rejections (rule "schema")."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from jsonschema import Draft202012Validator

from games.core.i18n import T
from games.core.protocol import JSON, Rejection

HEX: JSON = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 40},
    "minItems": 2,
    "maxItems": 2,
}
ID: JSON = {"type": "string", "minLength": 1, "maxLength": 40}
PATH: JSON = {"type": "array", "items": HEX, "maxItems": 12}


def _obj(props: Mapping[str, JSON], required: tuple[str, ...] = ()) -> JSON:
    return {
        "type": "object",
        "properties": dict(props),
        "required": list(required),
        "additionalProperties": False,
    }


PAYLOADS: Mapping[str, JSON] = {
    "play_card": _obj({"card": ID}, ("card",)),
    "give_orders": _obj(
        {
            "units": {"type": "array", "items": ID, "maxItems": 40},
            "leaders": {"type": "array", "items": ID, "maxItems": 20},
            "section": {"enum": ["LEFT", "CENTER", "RIGHT"]},
            "mode": {"enum": ["strategic", "one_unit"]},
            "leave_square": {"type": "array", "items": ID, "maxItems": 4},
            "short_supply": ID,
            "rally": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10},
                "maxProperties": 20,
            },
        }
    ),
    "move": _obj({"piece": ID, "path": PATH, "exit": {"type": "boolean"}}, ("piece", "path")),
    "end_moves": _obj({}),
    "battle": _obj(
        {
            "unit": ID,
            "target": ID,
            "combat": {"enum": ["melee", "ranged"]},
            "artillery": {"type": "array", "items": ID, "maxItems": 6},
        },
        ("unit", "target", "combat"),
    ),
    "end_battles": _obj({}),
    "retreat": _obj(
        {"flags": {"type": "integer", "minimum": 0, "maximum": 20}, "path": PATH},
        ("flags", "path"),
    ),
    "leader_retreat": _obj({"path": PATH, "off": {"type": "boolean"}}, ("path", "off")),
    "take_ground": _obj(
        {"advance": {"type": "boolean"}, "extra": {"anyOf": [HEX, {"type": "null"}]}},
        ("advance", "extra"),
    ),
    "bonus_melee": _obj(
        {
            "target": {"anyOf": [ID, {"type": "null"}]},
            "artillery": {"type": "array", "items": ID, "maxItems": 6},
        },
        ("target",),
    ),
    "battle_back": _obj({"battle": {"type": "boolean"}}, ("battle",)),
    "scout_keep": _obj({"card": ID}, ("card",)),
    "melee_response": _obj(
        {"response": {"enum": ["none", "first_strike", "retire", "form_square"]}}, ("response",)
    ),
    "retire": _obj({"path": PATH}, ("path",)),
    "supply_place": _obj({"hex": {"anyOf": [HEX, {"type": "null"}]}}, ("hex",)),
    "set_policy": {
        **_obj(  # type: ignore[dict-item]
            {
                "battle_back": {"enum": ["ask", "always", "never"]},
                "melee_response": {"enum": ["ask", "none"]},
            }
        ),
        "minProperties": 1,
    },
}


@cache
def _validator(kind: str) -> Draft202012Validator:
    schema = PAYLOADS[kind]
    assert isinstance(schema, dict)
    return Draft202012Validator(schema)


def schema_errors(kind: str, payload: JSON) -> list[Rejection]:
    out: list[Rejection] = []
    for e in sorted(_validator(kind).iter_errors(payload), key=lambda e: list(map(str, e.path))):
        where = "".join(f"/{p}" for p in e.absolute_path)
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            schema = e.schema if isinstance(e.schema, dict) else {}
            known = sorted(schema.get("properties", {}))
            for k in sorted(str(k) for k in e.instance):
                if k not in known:
                    out.append(
                        Rejection(
                            "schema",
                            T(
                                "unknown field {field}; known fields: {known}",
                                field=repr(k)[:40],
                                known=", ".join(known) or "none",
                            ),
                            f"{where}/{k}"[:80],
                        )
                    )
            continue
        out.append(
            Rejection(
                "schema",
                T("the payload does not match its form: {error}", error=e.message[:120]),
                where[:80],
            )
        )
    return out[:10]
