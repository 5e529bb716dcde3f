"""The JSON Schema (draft 2020-12) of `view()`: what a client reads (rulebook 3, Die Spielsteine,
with hidden faces redacted per role, digest 2.5). Objects list their fields and refuse unknown
ones; optional fields may be absent. The payload schemas are `schemas`.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core.protocol import JSON

__all__ = ["DRAFT", "VIEW_SCHEMA"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _view_obj(props: Mapping[str, JSON], optional: tuple[str, ...] = ()) -> dict[str, JSON]:
    return {
        "type": "object",
        "properties": dict(props),
        "required": [k for k in props if k not in optional],
        "additionalProperties": False,
    }


_STR: dict[str, JSON] = {"type": "string"}
_INT: dict[str, JSON] = {"type": "integer"}
_BOOL: dict[str, JSON] = {"type": "boolean"}
_SIDE: dict[str, JSON] = {"enum": ["F", "AL"]}
_NSTR: dict[str, JSON] = {"type": ["string", "null"]}
_NINT: dict[str, JSON] = {"type": ["integer", "null"]}
_STRS: dict[str, JSON] = {"type": "array", "items": _STR}
_INTS: dict[str, JSON] = {"type": "array", "items": _INT}
_POS: dict[str, JSON] = _view_obj({"locale": _NINT, "approach": _NSTR})
_UNIT: dict[str, JSON] = _view_obj(
    {
        "id": {"type": "string", "description": "own unit: its id; enemy unit: an alias"},
        "side": _SIDE,
        "position": _POS,
        "corps": _NSTR,
        "face": {
            "anyOf": [
                _view_obj({"type": {"enum": ["INF", "GUARD", "CAV", "ART"]}, "strength": _INT}),
                {"type": "null"},
            ],
            "description": "null while hidden from the viewer",
        },
        "fixed_battery": _BOOL,
        "moves": _INT,
        "named_via": _STRS,
        "retreated": _BOOL,
        "arrived": {**_BOOL, "description": "own unit: entered as a reinforcement this turn"},
    },
    optional=("fixed_battery", "moves", "named_via", "retreated", "arrived"),
)
_PLAN: dict[str, JSON] = {
    "type": "object",
    "description": "scope ('default' or a locale number) -> the standing instruction",
    "additionalProperties": _view_obj(
        {
            "mode": _STR,
            "leading": _STR,
            "counter": _STR,
            "loss_priority": _STRS,
            "hold": _STR,
            "retreat": _STR,
        }
    ),
}
_PENDING: dict[str, JSON] = _view_obj(
    {
        "side": _SIDE,
        "decision": {"type": "string", "description": "the open decision (digest 4.3)"},
        "data": {"type": "object", "description": "only for the side that decides"},
    },
    optional=("data",),
)
_ATTACK: dict[str, JSON] = _view_obj(
    {
        "id": _INT,
        "attacker": _SIDE,
        "attack_locale": _INT,
        "defense_locale": _INT,
        "approach": _STR,
        "step": _STR,
        "guard_attack": _BOOL,
        "vacated": _BOOL,
        "named": _STRS,
        "defenders_blocking": _BOOL,
        "feint": _BOOL,
        "attackers": _STRS,
        "attack_commanders": _STRS,
        "width": _INT,
        "attack_leading": _STRS,
        "defense_leading": _STRS,
        "artillery": _BOOL,
        "preliminary": _NINT,
        "counter": _STRS,
        "final": _NINT,
        "winner": {"enum": ["F", "AL", None]},
        "committed_leading": _STRS,
    },
    optional=("committed_leading",),
)
_OFFMAP_CORPS: dict[str, JSON] = _view_obj(
    {
        "commander": _STR,
        "units": {
            "anyOf": [{"type": "array", "items": _UNIT}, _INT],
            "description": "own side: the units; the enemy's: how many (AMB-3)",
        },
    }
)

_AUCTION: dict[str, JSON] = _view_obj(
    {
        "players": _STRS,
        "first": {"type": "string", "description": "who bids first, by lot (NT-134)"},
        "to_bid": {"type": ["string", "null"], "description": "whose turn it is to bid"},
        "bids": {
            "type": "array",
            "items": _view_obj({"role": _STR, "amount": _INT, "pass": _BOOL}, ("amount", "pass")),
        },
        "high_bid": _NINT,
        "max_bid": _INT,
        "winner": _NSTR,
        "sides": {"type": "object", "additionalProperties": _SIDE},
    },
    optional=("sides",),
)

_RIDE_ON: dict[str, JSON] = _view_obj(
    {
        "side": _SIDE,
        "command": {"enum": ["corps_move", "detach_move", "unit_move"]},
        "commander": _NSTR,
        "units": {**_STRS, "description": "own ids, enemy aliases"},
        "locale": _INT,
        "strand": _INT,
        "entered": {**_INT, "description": "locales of road entered so far (NT-51)"},
        "main_only": {**_BOOL, "description": "only main roads so far (3 locales, else 2)"},
        "road_left": {**_INT, "description": "locales of road the ride-on may still enter"},
    }
)

_SLOT: dict[str, JSON] = _view_obj(
    {
        "side": _SIDE,
        "author": _STR,
        "recipient": _STR,
        "turn": _INT,
        "readable_from_turn": _INT,
        "order": {"type": ["object", "null"], "description": "verb, toponyms, texts (3.4.3)"},
    }
)
_SLOTS: dict[str, JSON] = {"type": "array", "items": _SLOT}
# Team play (rulebook chapter 19): team/engine_view.py; public, own team, own seat parts
_TEAM: dict[str, JSON] = _view_obj(
    {
        "phase": {
            "enum": ["auction", "conference_initial", "setup", "play", "conference_night", "over"]
        },
        "phase_side": {"enum": ["F", "AL", None]},
        "teams": {
            "type": "array",
            "items": _view_obj(
                {
                    "key": _STR,
                    "side": {"enum": ["F", "AL", None]},
                    "members": _STRS,
                    "ranks": {"type": ["array", "null"], "items": _STR},
                    "corps": {"type": "object", "additionalProperties": _STR},
                    "conference": _NSTR,
                    "proposal": {"type": ["array", "null"], "items": _STR},
                    "confirmed": _STRS,
                    "corps_draft": {"type": ["object", "null"], "additionalProperties": _STR},
                },
                optional=("proposal", "confirmed", "corps_draft"),
            ),
        },
        "acting": {**_NSTR, "description": "the seat whose part is running (NT-TEAM-32)"},
        "decider": {**_NSTR, "description": "the seat that must act now (3.3)"},
        "parts_ended": _NINT,
        "budget": _view_obj({"side": _SIDE, "independent_left": _INT, "corps_left": _NINT}),
        "inbox": {**_SLOTS, "description": "written orders this seat may read (NT-TEAM-22)"},
        "commitments": {
            "type": "array",
            "items": _view_obj({"side": _SIDE, "turn": _INT, "recipient": _STR}),
            "description": "the sealed slots (n - 1 a team turn); hashes in the log (3.4.5)",
        },
        "chat": {"type": "array", "items": {"type": "object"}},
        "sent": {**_SLOTS, "description": "the CinC's own sealed orders (NT-TEAM-23)"},
        "drafts": {"type": "object", "description": "the CinC's drafts: recipient -> order"},
        "archive": {**_SLOTS, "description": "every written order, after the game (NT-TEAM-26)"},
        "setup": {
            "type": "object",
            "description": "the own team's set-up in progress (NT-TEAM-27..31, team/setup.py)",
            "properties": {
                "side": _SIDE,
                "step": {"enum": ["organize", "starting", "place", "detach", "battery", "done"]},
                "acting": _NSTR,
                "ranks": _STRS,
                "part": _INT,
            },
            "required": ["side", "step", "acting"],
        },
    },
    optional=("sent", "drafts", "archive", "setup"),
)

VIEW_SCHEMA: dict[str, JSON] = {
    "$schema": DRAFT,
    "title": "napoleons_triumph view",
    **_view_obj(
        {
            "ruleset": {"const": "napoleons_triumph"},
            "board": _STR,
            "scenario": _STR,
            "viewer": _view_obj({"role": _STR, "side": {"enum": ["F", "AL", "@observer", None]}}),
            "phase": {"enum": ["auction", "setup_AL", "setup_F", "turn", "over"]},
            "round": _view_obj(
                {"index": _INT, "of": _INT, "day": _INT, "hour": _NINT, "night": _BOOL}
            ),
            "active": _SIDE,
            "morale": {"type": "object", "additionalProperties": _INT},
            "elite_committed": {"type": "object", "additionalProperties": _STRS},
            "guard_attack_banned": {"type": "object", "additionalProperties": _BOOL},
            "french_reinforcements_entered": _BOOL,
            "commands_this_turn": _view_obj(
                {
                    "independent": _INT,
                    "allied_corps": _INT,
                    "log": {
                        "type": "array",
                        "items": {"type": "object", "description": "a command given (NT-44)"},
                    },
                }
            ),
            "locks": _view_obj(
                {
                    "road": _INTS,
                    "reserve_entered": {
                        **_INTS,
                        "description": "locales whose reserve pieces entered this turn (NT-54 a)",
                    },
                    "conquered": _INTS,
                    "closed_approaches": _STRS,
                }
            ),
            "units": {"type": "array", "items": _UNIT, "description": "own units on the map"},
            "enemy_units": {"type": "array", "items": _UNIT},
            "commanders": {
                "type": "array",
                "items": _view_obj(
                    {
                        "id": _STR,
                        "side": _SIDE,
                        "status": {"enum": ["pool", "offmap", "map", "dead"]},
                        "position": {"anyOf": [_POS, {"type": "null"}]},
                        "units_on_map": _INT,
                        "commands_given": _INT,
                        "arrived": {**_BOOL, "description": "entered this turn (NT-62)"},
                    }
                ),
            },
            "offmap": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": _OFFMAP_CORPS},
            },
            "order_of_battle": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": _INT},
            },
            "pool": {"type": "array", "items": _UNIT},
            "attack": {"anyOf": [_ATTACK, {"type": "null"}]},
            "pending": {"anyOf": [_PENDING, {"type": "null"}]},
            "ride_on": {
                "anyOf": [_RIDE_ON, {"type": "null"}],
                "description": "an open ride-on after a vacated road attack (NT-98); public",
            },
            "result": {"type": ["object", "null"]},
            "standing_instructions": {
                "type": "object",
                "description": "own standing instructions (omniscient: side -> plans)",
            },
            "auction": {
                "anyOf": [_AUCTION, {"type": "null"}],
                "description": "the auction for sides (NT-134, NT-135); public",
            },
            "team": {**_TEAM, "description": "team play (rulebook chapter 19); team games only"},
        },
        optional=("standing_instructions", "auction", "team"),
    ),
}
