"""The options of a new game, as its ruleset declares them.

A ruleset may declare its options as a JSON Schema object (`options_schema()`, optional: the
protocol does not require it); each property becomes a labelled field (pbem.web.schema_fields).
Every ruleset also gets a JSON box for options given as an object. The engine checks them: its
set-up refusal (`SetupError`: rule, message, JSON pointer `/options/<key>`) is shown next to the
field it names, else next to the JSON box."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from games.core.protocol import JSON, GameConfig, Ruleset, SetupError
from games.core.rng import Rng
from pbem.web.schema_fields import FieldError, FieldSpec, fields_for, parse_json, read_fields

OPTIONS_JSON = "options_json"
PREFIX = "option"
PROBE_SEED = bytes(32)  # set-up is only tried here; the game gets its own secret seed


def option_fields(ruleset: Ruleset[object]) -> list[FieldSpec]:
    declare = getattr(ruleset, "options_schema", None)
    if not callable(declare):
        return []
    schema: JSON = declare()
    return fields_for(PREFIX, schema)


def options_from(specs: list[FieldSpec], data: Mapping[str, str]) -> dict[str, JSON]:
    """The options the form gives: the JSON box's object, then the fields over it."""
    raw = str(data.get(OPTIONS_JSON, "")).strip()
    base: JSON = parse_json(OPTIONS_JSON, raw) if raw else {}
    if not isinstance(base, dict):
        raise FieldError(OPTIONS_JSON, _("give the options as a JSON object"))
    return {**base, **read_fields(specs, data)}


def setup_problem(
    ruleset: Ruleset[object], scenario: str, options: Mapping[str, JSON]
) -> tuple[str, str] | None:
    """(field name, message) when the engine refuses to set up a game with these options."""
    try:
        roles = tuple(sorted(r.id for r in ruleset.roles(scenario, options)))
        ruleset.setup(GameConfig(scenario, dict(options), roles), Rng.for_event(PROBE_SEED, 1))
    except SetupError as e:
        r = e.rejection
        key = (
            r.path.removeprefix("/options/").split("/")[0] if r.path.startswith("/options/") else ""
        )
        field = (
            f"{PREFIX}.{key}" if key else (OPTIONS_JSON if r.path.startswith("/options") else "")
        )
        return field, f"{r.rule}: {r.message}" if r.rule else r.message
    return None
