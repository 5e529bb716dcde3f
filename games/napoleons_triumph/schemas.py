"""JSON Schemas (draft 2020-12) of every action payload; the view's is
`view_schema` (re-exported here as `VIEW_SCHEMA`).

Written from what the handlers read through `payload.py`: each object lists its fields, refuses
unknown ones (`additionalProperties: false`) and names the required ones; strings and arrays are
bounded. Optional fields also accept null, as `payload.py` reads a null like a missing field.
The schemas say only what an order looks like; whether it is legal now is the rules' business.
`payload_errors` checks a payload against its kind's schema and turns every failure into a
`Rejection` with the rule id "schema" and a JSON pointer `/payload/...`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.napoleons_triumph.view_schema import DRAFT, VIEW_SCHEMA

__all__ = [
    "DRAFT",
    "PAYLOADS",
    "TEAM_PAYLOADS",
    "VIEW_SCHEMA",
    "payload_schema",
    "schema_errors",
]

ID_LEN = 64  # unit ids, enemy aliases, commander ids, approach ids, entry ids
MAX_PIECES = 64  # any list of pieces
MAX_PATH = 8  # a road path (3 locales at most are legal, NT-51)
MAX_CORPS = 32  # corps entries of a set-up
MAX_REJECTIONS = 10


def _s(desc: str, nullable: bool = False, max_len: int = ID_LEN) -> dict[str, JSON]:
    return {
        "type": ["string", "null"] if nullable else "string",
        "maxLength": max_len,
        "description": desc,
    }


def _i(desc: str, nullable: bool = False) -> dict[str, JSON]:
    return {"type": ["integer", "null"] if nullable else "integer", "description": desc}


def _b(desc: str) -> dict[str, JSON]:
    return {"type": ["boolean", "null"], "description": desc}


def _enum(desc: str, values: list[JSON], nullable: bool = False) -> dict[str, JSON]:
    vals = [*values, None] if nullable else list(values)
    return {"enum": vals, "description": desc}


def _ids(desc: str, nullable: bool = True, max_items: int = MAX_PIECES) -> dict[str, JSON]:
    return {
        "type": ["array", "null"] if nullable else "array",
        "items": {"type": "string", "maxLength": ID_LEN},
        "maxItems": max_items,
        "uniqueItems": True,
        "description": desc,
    }


def _ints(desc: str, nullable: bool = True, max_items: int = MAX_PATH) -> dict[str, JSON]:
    return {
        "type": ["array", "null"] if nullable else "array",
        "items": {"type": "integer"},
        "maxItems": max_items,
        "description": desc,
    }


def _obj(
    props: Mapping[str, JSON], required: tuple[str, ...] = (), desc: str = "", **extra: JSON
) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "type": "object",
        "properties": dict(props),
        "required": list(required),
        "additionalProperties": False,
    }
    if desc:
        out["description"] = desc
    out.update(extra)
    return out


def _position(desc: str) -> dict[str, JSON]:
    return _obj(
        {
            "locale": _i("locale number"),
            "approach": _s("approach id it blocks; null for the reserve", nullable=True),
        },
        ("locale",),
        desc,
    )


def _road_or_to() -> dict[str, JSON]:
    """A move goes by road (`road: true` with `path`) or to a position (`to`)."""
    return {
        "if": {"properties": {"road": {"const": True}}, "required": ["road"]},
        "then": {"required": ["path"]},
        "else": {"required": ["to"]},
    }


MOVE_FIELDS: dict[str, JSON] = {
    "road": _b("a road move (NT-51..NT-55); false or absent for an ordinary move"),
    "path": _ints("road move: the locales entered, in order"),
    "end_approach": _s("road move of cavalry: end blocking this approach (NT-53)", nullable=True),
    "to": _position("ordinary move: the destination (NT-48, NT-49)"),
}


def _move(kind: str) -> dict[str, JSON]:
    props: dict[str, JSON] = dict(MOVE_FIELDS)
    if kind == "unit_move":
        props["unit"] = _s("own unit id")
        required: tuple[str, ...] = ("unit",)
    elif kind == "corps_move":
        props["commander"] = _s("own commander id")
        props["detach"] = _ids("units of the corps left behind, detached (NT-39)")
        required = ("commander",)
    else:
        props["commander"] = _s("own commander id")
        props["units"] = _ids("the units of his corps that move (NT-40)", nullable=False)
        required = ("commander", "units")
    return _obj(props, required, allOf=[_road_or_to()])


def _command_spec() -> dict[str, JSON]:
    """One command that carries out an attack (NT-65, NT-66; NT-68 with road)."""
    return _obj(
        {
            "kind": _enum("the move command", ["corps_move", "detach_move", "unit_move"]),
            "unit": _s("unit_move: own unit id"),
            "commander": _s("corps_move / detach_move: own commander id"),
            "detach": _ids("corps_move: units left behind"),
            "units": _ids("detach_move: the units that move"),
            "road": _b(
                "true only for the command of a road attack (NT-68), announced in a feint or "
                "after a vacate"
            ),
            "path": _ints(
                "road attack: the locales entered before the defense locale, ending with the "
                "attack locale ([] when the cavalry start there; the entry locale first with entry)"
            ),
            "entry": _s(
                "road attack of cavalry reinforcements as they enter (NT-145): own entry area id"
            ),
        },
        ("kind",),
        allOf=[
            {
                "if": {"properties": {"kind": {"const": "unit_move"}}},
                "then": {"required": ["unit"]},
                "else": {"required": ["commander"]},
            },
            {
                "if": {"properties": {"road": {"const": True}}, "required": ["road"]},
                "then": {"required": ["path"]},
            },
        ],
    )


def _commands(desc: str) -> dict[str, JSON]:
    return {"type": "array", "items": _command_spec(), "maxItems": 8, "description": desc}


def _losses(desc: str, nullable: bool = True) -> dict[str, JSON]:
    return {
        "type": ["array", "null"] if nullable else "array",
        "items": _obj(
            {"unit": _s("own unit id"), "sp": _i("strength points it loses")}, ("unit", "sp")
        ),
        "maxItems": MAX_PIECES,
        "description": desc,
    }


def _str_map(desc: str, value: dict[str, JSON]) -> dict[str, JSON]:
    return {
        "type": ["object", "null"],
        "propertyNames": {"maxLength": ID_LEN},
        "additionalProperties": value,
        "maxProperties": MAX_PIECES,
        "description": desc,
    }


def _retreat_plan(desc: str) -> dict[str, JSON]:
    return _obj(
        {
            "losses": _losses("retreat losses (NT-105); forced ones may be left out"),
            "anchors": _str_map(
                "commander id -> the unit that stays with him (NT-108)", _s("own unit id")
            ),
            "destinations": _str_map(
                "unit id -> the locale it retreats to (NT-106)", {"type": "integer"}
            ),
        },
        (),
        desc,
    )


def _setup_corps() -> dict[str, JSON]:
    return {
        "type": "array",
        "maxItems": MAX_CORPS,
        "description": "every own commander once, with the units of his corps (NT-21, NT-22)",
        "items": _obj(
            {
                "commander": _s("own commander id"),
                "units": _ids("the units of his corps", nullable=False, max_items=MAX_PIECES),
                "approach": _s("blocks this approach of his set-up locale", nullable=True),
                "off_map": _b("starts off the map (reinforcement)"),
            },
            ("commander", "units"),
        ),
    }


EMPTY: dict[str, JSON] = _obj({}, (), "no fields")

PAYLOADS: dict[str, dict[str, JSON]] = {
    # set-up (NT-19..NT-24)
    # the auction for sides (NT-134, NT-135): only with the option {"balance": "auction"}
    "auction_bid": _obj(
        {"amount": {"type": "integer", "minimum": 0, "maximum": 1000, "description": "the bid"}},
        ("amount",),
    ),
    "auction_pass": _obj({}, (), "pass: the other player wins the auction (NT-135)"),
    "auction_choose_side": _obj(
        {"side": _enum("the winner's side (NT-135)", ["AL", "F"])}, ("side",)
    ),
    "allied_setup": _obj({"corps": _setup_corps()}, ("corps",)),
    "french_setup": _obj(
        {
            "corps": _setup_corps(),
            "detachments": {
                "type": ["array", "null"],
                "maxItems": 16,
                "description": "set-up detachments (NT-23)",
                "items": _obj(
                    {"unit": _s("own unit id"), "position": _position("where it stands")},
                    ("unit", "position"),
                ),
            },
            "fixed_battery": {
                "anyOf": [
                    _obj(
                        {
                            "unit": _s("own artillery unit id"),
                            "approach": _s("the approach it blocks", nullable=True),
                        },
                        ("unit",),
                    ),
                    {"type": "null"},
                ],
                "description": "the fixed battery (NT-24); null only without artillery",
            },
        },
        ("corps",),
    ),
    # commands of the active side (NT-35..NT-63)
    "corps_move": _move("corps_move"),
    "detach_move": _move("detach_move"),
    "unit_move": _move("unit_move"),
    "attach": _obj(
        {"commander": _s("own commander id"), "unit": _s("own unit id")}, ("commander", "unit")
    ),
    "enter_reinforcement": _obj(
        {
            "command": _enum("how they enter (NT-61)", ["corps_move", "unit_move"]),
            "commander": _s("corps_move: the waiting commander"),
            "unit": _s("unit_move: the waiting unit"),
            "detach": _ids("corps_move: must be empty; a corps enters whole (NT-61, L308)"),
            "entry": _s("own entry area id"),
            "path": _ints("the locales entered by road, starting with the entry locale", False),
            "end_approach": _s("cavalry: end blocking this approach", nullable=True),
        },
        ("command", "entry", "path"),
        allOf=[
            {
                "if": {"properties": {"command": {"const": "unit_move"}}},
                "then": {"required": ["unit"]},
                "else": {"required": ["commander"]},
            }
        ],
    ),
    "threaten": _obj(
        {
            "attack_locale": _i("the locale the attack comes from"),
            "approach": _s("the attack approach"),
            "guard_attack": _b("a Guard attack (NT-124)"),
            "show_guard": _s("the Guard unit shown for a Guard attack", nullable=True),
        },
        ("attack_locale", "approach"),
    ),
    "ride_on": _obj(
        {
            "path": _ints("the locales entered further along the road (NT-98)", False),
            "end_approach": _s("end blocking this approach", nullable=True),
        },
        ("path",),
    ),
    "end_turn": EMPTY,
    # answers inside an attack (NT-64..NT-109)
    "defend": _obj(
        {
            "named": _ids("own units and commanders named as defenders (NT-72)", False),
            "leading": _ids("defense leading units, 0-2 of the named (NT-79)"),
        },
        ("named",),
    ),
    "vacate": _obj(
        {"retreat": {"anyOf": [_retreat_plan("the retreat at once"), {"type": "null"}]}}, ()
    ),
    "retreat_plan": _retreat_plan("the retreat (NT-102..NT-108)"),
    "declare_after_vacate": _obj(
        {
            "commands": _commands("the command(s) that move in (NT-75)"),
            "artillery": _b("an artillery attack: the guns stay"),
        },
        ("commands",),
    ),
    "declare_feint": _obj(
        {
            "commands": _commands("the command(s) of the feint (NT-76)"),
            "end": _enum("where the attackers end (NT-77)", ["block", "reserve"]),
        },
        ("commands", "end"),
    ),
    "no_feint": EMPTY,
    "lead_defense": _obj(
        {"leading": _ids("0-2 named units that lead the defense (NT-79, NT-TEAM-41)", False)},
        ("leading",),
    ),
    "feint_hold": _obj(
        {"pieces": _ids("named reserve pieces that block the approach", False)}, ("pieces",)
    ),
    "hold": _obj(
        {"pieces": _ids("named reserve pieces that block the approach", False)}, ("pieces",)
    ),
    "declare_attack": _obj(
        {
            "commands": _commands("the command(s) that attack (NT-81)"),
            "width": _enum("the front (NT-82)", ["narrow", "wide"], nullable=True),
            "target": _s("narrow front against two: the target's alias", nullable=True),
            "leading": _ids("attack leading units (NT-83)"),
        },
        ("commands",),
    ),
    "counter": _obj({"units": _ids("0-2 named units that counter-attack (NT-88)")}, ()),
    "place_odd_loss": _obj(
        {"units": _ids("the candidates that take a point (own ids or enemy aliases)", False)},
        ("units",),
    ),
    "assign_losses": _obj({"losses": _losses("the points per unit (NT-90)", False)}, ("losses",)),
    "choose_anchor": _obj(
        {"anchors": _str_map("commander id -> the unit that stays with him", _s("own unit id"))},
        (),
    ),
    # at any time
    "set_defense_plan": _obj(
        {
            "scope": _obj(
                {
                    "default": {"const": True, "description": "the plan for every locale"},
                    "locale": _i("the plan for one locale"),
                },
                (),
                'exactly one of {"default": true} or {"locale": n}',
                minProperties=1,
                maxProperties=1,
            ),
            "on_threat": _obj(
                {
                    "mode": _enum("answer to a threat", ["defend", "vacate", "ask"]),
                    "leading": _enum("leading units", ["strongest", "none"]),
                },
            ),
            "counter": _obj(
                {"policy": _enum("counter-attack", ["none", "ask", "win_if_possible"])}
            ),
            "loss_priority": _ids("own units to take losses first"),
            "hold": _enum("hold after a feint or a won defense", ["all_named", "ask"]),
            "retreat": _obj({"mode": _enum("the retreat plan", ["default", "ask"])}),
        },
        ("scope",),
    ),
    "resign": EMPTY,
}


# Team play (rulebook chapter 19, team/engine.py): the conference actions of team/phases.py
# (digest 2.2, 3.7), end_part (NT-TEAM-32) and write_order (NT-TEAM-17..21: the text of 3.4.2 or
# the structured form of 3.4.3). Refused in two-player games (NT-TEAM-1).
_ROLE = _s("a role id", max_len=32)
_NO_PAYLOAD: dict[str, JSON] = {
    "type": ["object", "null"],
    "properties": {},
    "required": [],
    "additionalProperties": False,
}
_RANKS: dict[str, JSON] = _obj(
    {
        "ranks": {
            "type": "object",
            "description": "role -> rank (1 = commander-in-chief), every seat of your team",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 4},
            "maxProperties": 4,
        }
    },
    ("ranks",),
)
TEAM_PAYLOADS: dict[str, dict[str, JSON]] = {
    "set_ranks": {**_RANKS, "description": "propose the rank order (NT-TEAM-5)"},
    "confirm_ranks": {**_RANKS, "description": "confirm the proposed rank order (NT-TEAM-5)"},
    "assign_corps": {
        **_obj(
            {
                "corps": {
                    "type": "object",
                    "description": "commander id -> role",
                    "additionalProperties": _ROLE,
                    "maxProperties": MAX_CORPS,
                }
            },
            ("corps",),
        ),
        "description": "the commander-in-chief assigns every corps to a seat (NT-TEAM-7, -10)",
    },
    "close_conference": {**_NO_PAYLOAD, "description": "close the conference (NT-TEAM-4, -9)"},
    "skip_conference": {**_NO_PAYLOAD, "description": "skip the night conference (NT-TEAM-9)"},
    "chat_message": {
        **_obj({"text": _s("a message to your team (NT-TEAM-6)", max_len=4000)}, ("text",)),
        "description": "talk to your team while a conference is open (3.7)",
    },
    "end_part": {**_NO_PAYLOAD, "description": "end your part of the team turn (NT-TEAM-32)"},
    "write_order": {
        "type": "object",
        "description": "a written order to one subordinate (NT-TEAM-17..21): text or structured",
        "properties": {
            "recipient": _ROLE,
            "text": _s("the order as text: a verb and toponyms (3.4.2)", max_len=2000),
            "order": _obj(
                {
                    "verb": _enum("the verb (NT-TEAM-20)", ["ATTACK", "DEFEND"]),
                    "toponyms": {
                        "type": "array",
                        "items": _s("a toponym id of the board"),
                        "maxItems": MAX_PIECES,
                    },
                    "text_de": _s("the canonical German text", max_len=2000),
                    "text_en": _s("the canonical English text", max_len=2000),
                },
                ("verb", "toponyms"),
            ),
        },
        "required": ["recipient"],
        "oneOf": [{"required": ["text"]}, {"required": ["order"]}],
        "additionalProperties": False,
    },
}
# The team set-up machine (rulebook 19, L688-694; team/setup.py, NT-TEAM-27..31): each seat's own
# part of the set-up; the engine's allied_setup / french_setup is refused in team play.
_CORPS_ORG: dict[str, JSON] = _obj(
    {
        "corps": {
            "type": "array",
            "maxItems": MAX_CORPS,
            "description": "every commander of your side once, with the units of his corps",
            "items": _obj(
                {
                    "commander": _s("own commander id"),
                    "units": _ids("the units of his corps", nullable=False),
                },
                ("commander", "units"),
            ),
        }
    },
    ("corps",),
)
SETUP_PAYLOADS: dict[str, dict[str, JSON]] = {
    "organize_corps": {
        **_CORPS_ORG,
        "description": "the commander-in-chief organizes the corps (NT-TEAM-27, NT-21, NT-22)",
    },
    "choose_starting_corps": {
        **_obj(
            {"corps": {**_ids("the two corps on the board", nullable=False), "maxItems": 2}},
            ("corps",),
        ),
        "description": "DEC1: the Allied commander-in-chief's two starting corps (NT-TEAM-28)",
    },
    "place_corps": {
        **_obj(
            {
                "commander": _s("one of your corps that starts on the board"),
                "approach": _s("blocks this approach of his set-up locale; null: reserve", True),
            },
            ("commander",),
        ),
        "description": "place one of your own corps, in your part (NT-TEAM-29, NT-21)",
    },
    "detach_unit": {
        **_obj(
            {"unit": _s("a unit of one of your corps"), "position": _position("where it stands")},
            ("unit", "position"),
        ),
        "description": "detach a unit of your own corps, 6 for the team (NT-TEAM-30, NT-23)",
    },
    "choose_fixed_battery": {
        **_obj(
            {
                "unit": _s("a French artillery unit on the board; null: none on it", True),
                "approach": _s("the approach it blocks (null: as it stands)", True),
            },
            ("unit",),
        ),
        "description": "the French commander-in-chief's fixed battery (NT-TEAM-31, NT-24)",
    },
    "end_setup_part": {
        **_NO_PAYLOAD,
        "description": "end your part of the placement or detachments (NT-TEAM-29, -30)",
    },
}
TEAM_PAYLOADS.update(SETUP_PAYLOADS)
PAYLOADS.update(TEAM_PAYLOADS)


def payload_schema(kind: str) -> dict[str, JSON]:
    """The payload schema of `kind`, with `$schema` (a new dict each call)."""
    return {"$schema": DRAFT, "title": kind, **PAYLOADS[kind]}


@cache
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(payload_schema(kind))


def _pointer(parts: object) -> str:
    out = "/payload"
    for p in parts:  # type: ignore[attr-defined]
        out += "/" + str(p).replace("~", "~0").replace("/", "~1")
    return out


def _rejections(e: ValidationError) -> list[Rejection]:
    where = _pointer(e.absolute_path)
    field = repr(str(e.absolute_path[-1])) if e.absolute_path else None
    v, inst, sch = e.validator, e.instance, e.schema
    if v == "additionalProperties" and isinstance(inst, dict) and isinstance(sch, dict):
        props = sch.get("properties")
        known = sorted(props) if isinstance(props, dict) else []
        return [
            Rejection(
                "schema",
                T(
                    "unknown field {field}; known fields: {known}",
                    field=repr(k),
                    known=", ".join(known),
                )
                if known
                else T("unknown field {field}", field=repr(k)),
                f"{where}/{k}",
            )
            for k in sorted(inst)
            if k not in known
        ] or [Rejection("schema", e.message, where)]
    if v == "required" and isinstance(e.validator_value, list) and isinstance(inst, dict):
        return [
            Rejection("schema", T("field {field} is missing", field=repr(k)), f"{where}/{k}")
            for k in e.validator_value
            if isinstance(k, str) and k not in inst
        ]
    if v == "type":
        want = e.validator_value
        names = " or ".join(want) if isinstance(want, list) else str(want)
        if field is None:
            return [
                Rejection("schema", T("the payload must be of type {types}", types=names), where)
            ]
        return [
            Rejection(
                "schema",
                T("field {field} must be of type {types}", field=field, types=names),
                where,
            )
        ]
    if v == "enum":
        values = str(e.validator_value)
        if field is None:
            return [
                Rejection("schema", T("the payload must be one of {values}", values=values), where)
            ]
        return [
            Rejection(
                "schema",
                T("field {field} must be one of {values}", field=field, values=values),
                where,
            )
        ]
    if field is None:
        return [Rejection("schema", T("the payload: {error}", error=e.message), where)]
    return [Rejection("schema", T("field {field}: {error}", field=field, error=e.message), where)]


def schema_errors(kind: str, payload: JSON) -> list[Rejection]:
    """The payload's schema failures (empty when it matches); `kind` must be in PAYLOADS."""
    errors = sorted(_validator(kind).iter_errors(payload), key=lambda e: list(map(str, e.path)))
    out: list[Rejection] = []
    for e in errors:
        for r in _rejections(e):
            if r not in out:
                out.append(r)
    return out[:MAX_REJECTIONS]
