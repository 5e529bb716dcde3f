"""Legal orders in the view: payload schemas, `payload_errors`, and the legal
choices `actions(state, role)` lists: (a) every listed payload is legal, (b) the lists are
computed only from what the role may know, (c) a player who only picks among the listed
payloads always has one and reaches the end of the game, (d) the any-time kinds are listed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from games.core.protocol import JSON, OBSERVER, OMNISCIENT, Action, ActionSpec, GameConfig
from games.core.protocol import random_legal_action as random_legal
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.choices import MAX_PAYLOADS
from games.napoleons_triumph.invariants import perturb_hidden
from games.napoleons_triumph.rules import KNOWN, NOT_YET
from games.napoleons_triumph.state import GameState
from tests.support.napoleons_triumph import Spec, Table, pair, position

CONFIGS = [
    ("DEC2", {"board": "austerlitz"}),
    ("DEC1", {"board": "austerlitz"}),
    ("DEC2", {}),
    ("DEC1", {}),
]
SAMPLE = 12  # payloads checked per kind and state in the random-play property
VIEW_BYTES = 256_000  # the whole list of actions of one role, as JSON
VIEW_VALIDATOR = Draft202012Validator(R.view_schema())  # type: ignore[arg-type]


def _payloads(spec: ActionSpec) -> list[JSON]:
    choices = spec.choices
    assert isinstance(choices, dict)
    payloads = choices["payloads"]
    assert isinstance(payloads, list)
    assert isinstance(choices["complete"], bool)
    return payloads


def _sample(items: list[JSON], rng: Rng, n: int) -> list[JSON]:
    return items if len(items) <= n else rng.sample(items, n)


def check_state(state: GameState, rng: Rng, seen: set[str], sample: int = SAMPLE) -> None:
    """Every claim about the actions of every role in this state (a), (b), (d), bounds."""
    prompts = R.prompts(state)
    for role in (*sorted(state.roles), OBSERVER):
        specs = R.actions(state, role)
        kinds = [s.kind for s in specs]
        side = state.roles.get(role)
        if side is None or state.phase == "over":
            assert specs == ()
            continue
        prompt = prompts.get(role)
        prompted = sorted(prompt.kinds) if prompt is not None else []
        assert kinds == [*prompted, "resign", "set_defense_plan"]  # (d)
        assert [s.any_time for s in specs] == [False] * len(prompted) + [True, True]
        assert len(json.dumps([s.to_json() for s in specs])) <= VIEW_BYTES
        legal_prompted = 0
        for spec in specs:
            assert spec.schema == R.payload_schemas()[spec.kind]
            payloads = _payloads(spec)
            assert len(payloads) <= MAX_PAYLOADS
            for payload in _sample(payloads, rng, sample):  # (a)
                assert R.payload_errors(spec.kind, payload) == ()
                action = Action(role, spec.kind, payload)
                assert R.validate(state, action) == (), (state.phase, action)
                seen.add(spec.kind)
            if not spec.any_time:
                legal_prompted += len(payloads)
        if prompt is not None:
            assert legal_prompted > 0, f"{role} prompted in {state.phase} with nothing listed"
        other = perturb_hidden(state, side, rng)  # (b): hidden facts change, the lists do not
        assert [s.to_json() for s in R.actions(other, role)] == [s.to_json() for s in specs]
    for role in (*sorted(state.roles), OBSERVER, OMNISCIENT):
        VIEW_VALIDATOR.validate(R.view(state, role))


def random_states(scenario: str, options: dict[str, JSON], seed: int) -> Iterator[GameState]:
    """Every state of one random game (the engine's random play, biased towards fighting)."""
    state = R.setup(GameConfig(scenario, options), Rng(seed))
    rng = Rng(seed + 1)
    n = 0
    while True:
        yield state
        prompts = R.prompts(state)
        if not prompts:
            return
        action = random_legal(R, state, sorted(prompts)[rng.below(len(prompts))], rng)
        assert action is not None
        state = R.apply(state, action, Rng(n)).state
        n += 1


# ----------------------------------------------------------------------------- schemas


def _walk(schema: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        yield path, schema
        for k, v in schema.items():
            yield from _walk(v, f"{path}/{k}")
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            yield from _walk(v, f"{path}/{i}")


def _types(node: dict[str, Any]) -> set[str]:
    t = node.get("type")
    return set(t) if isinstance(t, list) else {t} if isinstance(t, str) else set()


def test_every_kind_a_player_may_send_has_a_strict_bounded_schema() -> None:
    schemas = R.payload_schemas()
    assert set(schemas) == KNOWN - set(NOT_YET)
    for kind, schema in schemas.items():
        Draft202012Validator.check_schema(schema)  # type: ignore[arg-type]
        assert isinstance(schema, dict)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        for where, node in _walk(schema):
            types = _types(node)
            if "object" in types and "properties" in node:
                assert node["additionalProperties"] is False, (kind, where)
                assert isinstance(node["required"], list), (kind, where)
            if "string" in types:
                assert "maxLength" in node, (kind, where)
            if "array" in types:
                assert "maxItems" in node, (kind, where)


def test_payload_errors_name_the_kind_and_every_unknown_field() -> None:
    unknown = R.payload_errors("bogus", {})
    assert [(r.rule, r.path) for r in unknown] == [("unknown_kind", "/kind")]
    assert "bogus" in unknown[0].message
    assert R.payload_errors("auction_bid", {})[0].rule == "schema"  # NT-134: amount is required

    errors = R.payload_errors("end_turn", {"foo": 1, "bar": 2})
    assert [(r.rule, r.path) for r in errors] == [
        ("schema", "/payload/bar"),
        ("schema", "/payload/foo"),
    ]
    assert errors[1].message.startswith("unknown field 'foo'")

    nested = R.payload_errors("unit_move", {"unit": "F01", "to": {"locale": 3, "apporach": "A1"}})
    assert [(r.rule, r.path) for r in nested] == [("schema", "/payload/to/apporach")]

    missing = R.payload_errors("unit_move", {"unit": "F01"})
    assert [(r.rule, r.path, r.message) for r in missing] == [
        ("schema", "/payload/to", "field 'to' is missing")
    ]
    by_road = R.payload_errors("unit_move", {"unit": "F01", "road": True})
    assert [r.path for r in by_road] == ["/payload/path"]

    wrong = R.payload_errors("threaten", {"attack_locale": "7", "approach": "A017"})
    assert [(r.rule, r.path) for r in wrong] == [("schema", "/payload/attack_locale")]
    assert "integer" in wrong[0].message

    assert R.payload_errors("end_turn", None)[0].path == "/payload"
    too_long = R.payload_errors("attach", {"commander": "x" * 500, "unit": "F01"})
    assert [r.path for r in too_long] == ["/payload/commander"]
    assert R.payload_errors("end_turn", {}) == ()
    assert R.payload_errors("set_defense_plan", {"scope": {"default": True}}) == ()
    assert R.payload_errors("set_defense_plan", {"scope": {}})[0].path == "/payload/scope"


def test_validate_refuses_a_malformed_payload_with_every_schema_failure() -> None:
    state = R.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    rejections = R.validate(state, Action("allied", "allied_setup", {"corps": [], "x": 1, "y": 2}))
    assert [(r.rule, r.path) for r in rejections] == [
        ("schema", "/payload/x"),
        ("schema", "/payload/y"),
    ]
    with pytest.raises(Exception, match="schema"):
        R.apply(state, Action("allied", "allied_setup", {"corps": 7}), Rng(0))
    # still the rules' own ids for what the schema cannot know
    assert R.validate(state, Action("allied", "allied_setup", {"corps": []}))[0].rule == "NT-21"
    assert R.validate(state, Action("allied", "bogus", {}))[0].rule == "NT-0"


def test_the_view_schema_describes_the_view_of_every_role() -> None:
    Draft202012Validator.check_schema(R.view_schema())  # type: ignore[arg-type]
    state = R.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(2))
    for role in ("allied", "french", OBSERVER, OMNISCIENT):
        VIEW_VALIDATOR.validate(R.view(state, role))
    bad = R.view(state, "allied")
    assert isinstance(bad, dict)
    bad["surprise"] = 1
    assert not VIEW_VALIDATOR.is_valid(bad)


# ----------------------------------------------------------------------------- (a), (b), (d)


@pytest.mark.parametrize(("scenario", "options"), CONFIGS)
def test_every_listed_payload_is_legal_and_needs_no_hidden_fact(
    scenario: str, options: dict[str, JSON]
) -> None:
    """(a), (b), (d) at every state of a random game (set-up, commands, attack decisions,
    retreats, losses, the end), on both boards and in both scenarios."""
    seen: set[str] = set()
    rng = Rng(99)
    states = 0
    for i, state in enumerate(random_states(scenario, options, seed=len(options))):
        # every decision, every second (third on the slower published board) command state
        if state.phase != "turn" or state.pending is not None or i % (2 if options else 3) == 0:
            check_state(state, rng, seen, sample=SAMPLE if options else 6)
            states += 1
    assert state.phase == "over"
    assert states > 50
    assert {"allied_setup", "french_setup", "unit_move", "corps_move", "end_turn"} <= seen
    assert {"threaten", "defend", "set_defense_plan", "resign"} <= seen


@pytest.mark.parametrize(
    "decision",
    ["declare", "counter", "odd_loss", "assign_losses", "anchor", "ride_on", "hold", "retreat"],
)
def test_rare_decisions_list_legal_payloads(decision: str) -> None:
    """Positions of the rulebook's examples that reach each rarer decision: every state on the
    way is checked in full (a, b, d) and the decision has payloads."""
    seen: set[str] = set()
    rng = Rng(5)
    states: list[GameState] = []
    corps: JSON = {"kind": "corps_move", "commander": "v"}
    if decision in ("declare", "counter", "odd_loss"):
        t = Table(
            position(
                pair("ch_odd", specs={"XY": Spec(wide=True)}),
                [
                    "F a1 INF3 @X.R [v]",
                    "F a2 INF3 @X.R [v]",
                    "AL b1 INF3 @Y.XY [-]",
                    "AL b2 INF3 @Y.XY [-]",
                    "AL c1 CAV2 @Y.XY [k]",
                    "AL c2 CAV2 @Y.XY [k]",
                ],
            )
        )
        steps: list[tuple[str, str, JSON]] = [
            ("F", "threaten", {"attack_locale": 1, "approach": "XY"}),
            ("AL", "defend", {"named": ["b1", "b2", "c1", "c2", "k"], "leading": ["b1", "b2"]}),
            ("F", "no_feint", {}),
            (
                "F",
                "declare_attack",
                {"commands": [corps], "width": "wide", "leading": ["a1", "a2"]},
            ),
            ("AL", "counter", {"units": ["c1", "c2"]}),
        ]
        want = {"declare": "declare_attack", "counter": "counter", "odd_loss": "place_odd_loss"}
    elif decision in ("assign_losses", "retreat"):
        t = Table(
            position(
                pair("ch_assign"),
                [
                    "F v1 INF2 @X.R [v]",
                    "F v2 INF2 @X.R [v]",
                    "F v3 INF2 @X.R [v]",
                    "AL d1 INF3 @Y.R [k]",
                    "AL d2 INF3 @Y.R [k]",
                ],
            )
        )
        steps = [
            ("F", "threaten", {"attack_locale": 1, "approach": "XY"}),
            ("AL", "defend", {"named": ["d1", "d2"], "leading": []}),
            ("F", "no_feint", {}),
            ("F", "declare_attack", {"commands": [corps], "leading": []}),
            ("AL", "counter", {"units": ["d1"]}),
        ]
        want = {"assign_losses": "assign_losses", "retreat": "retreat_plan"}
        if decision == "retreat":
            steps = [steps[0], ("AL", "vacate", {})]
    elif decision in ("anchor", "hold"):
        t = Table(
            position(
                pair("ch_anchor"),
                [
                    "F v1 INF3 @X.XY [v]",
                    "F v2 INF2 @X.XY [v]",
                    "F v3 CAV2 @X.XY [v]",
                    "AL a1 INF3 @Y.R [k]",
                    "AL a2 INF3 @Y.R [k]",
                    "AL a3 INF2 @Y.R [k]",
                ],
            )
        )
        steps = [
            ("F", "threaten", {"attack_locale": 1, "approach": "XY"}),
            ("AL", "defend", {"named": ["a1", "a2", "a3", "k"], "leading": ["a1"]}),
            ("F", "no_feint", {}),
            ("F", "declare_attack", {"commands": [corps], "leading": ["v1"]}),
            ("AL", "counter", {"units": ["a2"]}),
            ("F", "choose_anchor", {"anchors": {"v": "v3"}}),
        ]
        want = {"anchor": "choose_anchor", "hold": "hold"}
        if decision == "anchor":
            steps = steps[:-1]
    else:
        board = pair("ch_ride", roads=[("local", "X", "Y", 0, 0), ("local", "Y", "Z1", 0, 0)])
        t = Table(
            position(board, ["F u1 INF2 @X.XY [-]", "F u2 CAV2 @X.R [-]", "AL a1 INF2 @Y.R [-]"])
        )
        road: JSON = {"kind": "unit_move", "unit": "u2", "road": True, "path": []}
        steps = [
            ("F", "threaten", {"attack_locale": 1, "approach": "XY"}),
            ("AL", "vacate", {"retreat": {"destinations": {"a1": 3}}}),
            ("F", "declare_after_vacate", {"commands": [road]}),
        ]
        want = {"ride_on": "ride_on"}
    states.append(t.state)
    for side, kind, payload in steps:
        t.play(side, kind, payload)
        states.append(t.state)
    for state in states:
        check_state(state, rng, seen, sample=MAX_PAYLOADS)
    assert want[decision] in seen


# ----------------------------------------------------------------------------- (c)


def play_from_choices(scenario: str, options: dict[str, JSON], seed: int) -> tuple[int, str]:
    """A player who knows only `actions`: a prompted kind with payloads, then a payload, each
    uniformly at random. Returns (actions played, how the game ended)."""
    state = R.setup(GameConfig(scenario, options), Rng(seed))
    rng = Rng(seed + 7)
    for n in range(20_000):
        prompts = R.prompts(state)
        if not prompts:
            assert state.result is not None
            return n, str(state.result["kind"])
        role = sorted(prompts)[rng.below(len(prompts))]
        specs = [s for s in R.actions(state, role) if not s.any_time and _payloads(s)]
        assert specs, f"{role} is prompted in {state.phase} with nothing listed"
        spec = rng.choice(specs)
        payload = rng.choice(_payloads(spec))
        action = Action(role, spec.kind, payload)
        assert R.validate(state, action) == (), action
        state = R.apply(state, action, Rng(n)).state
    raise AssertionError("no end after 20000 actions")


@pytest.mark.parametrize(
    ("scenario", "options", "seed"),
    [
        ("DEC2", {"board": "austerlitz"}, 1),
        ("DEC2", {"board": "austerlitz"}, 2),
        ("DEC1", {"board": "austerlitz"}, 3),
        ("DEC2", {}, 4),
    ],
)
def test_a_player_picking_only_listed_payloads_reaches_the_end(
    scenario: str, options: dict[str, JSON], seed: int
) -> None:
    played, how = play_from_choices(scenario, options, seed)
    assert played > 20
    assert how in ("decisive", "marginal")  # never a resignation: any-time kinds are not picked


def test_actions_are_fast_enough_for_every_view() -> None:
    """Measured on mid-game states of the published board (the view calls it on every GET)."""
    states = [s for i, s in enumerate(random_states("DEC2", {}, seed=3)) if i % 7 == 0]
    mid = states[len(states) // 4 : 3 * len(states) // 4]
    started = time.perf_counter()
    for state in mid:
        for role in state.roles:
            R.actions(state, role)
    per_view = (time.perf_counter() - started) / (2 * len(mid))
    assert per_view < 0.5, f"{per_view * 1000:.0f} ms per actions() call"


def test_no_actions_when_over_or_unseated() -> None:
    t = Table(position(pair("ch_over"), ["F u1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    assert R.actions(t.state, "nobody") == ()
    assert [s.kind for s in R.actions(t.state, "allied")] == ["resign", "set_defense_plan"]
    t.play("F", "resign", {})
    assert t.state.phase == "over"
    assert R.actions(t.state, "french") == ()
    assert R.actions(t.state, "allied") == ()
