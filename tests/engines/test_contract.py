"""The Ruleset contract, as Hypothesis properties over every registered ruleset (pure, no Django).

For each ruleset id of `games.registry.available()`, random legal games (the ruleset's own
`random_action`, driven by a `games.core.rng.Rng` seeded from a Hypothesis integer) must be:

(a) deterministic: the same seed and the same random action sequence give the same state hashes;
(b) replayable: applying the log to a fresh set-up gives the hashes of the incremental play;
(c) storable: `load(dump(s))` hashes and dumps like `s`, and plays on like `s`;
(d) redacted: every view (each role, "@observer", "@omniscient") is JSON, carries no internal id of
    a piece the viewer may only know under an alias, and never a secret (the alias salt);
(e) non-interfering: a role's view does not change when only what that role may not see changes;
(f) finite: random legal play reaches `result()` within a bound, invariants holding throughout;
(g) robust: `validate()` never raises on malformed payloads, rejects with a rule and a message, and
    leaves the state untouched.

Engine-specific knowledge (fast options, invariants, the hidden-fact probe, what must never leak)
is the ruleset's Checks (games.core.checks), named by its games.registry entry; a ruleset without
them fails loudly (games.registry.MissingHook).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.canonical import state_hash
from games.core.checks import Checks
from games.core.protocol import JSON, OBSERVER, OMNISCIENT, Action, GameConfig, Ruleset
from games.core.rng import Rng
from games.registry import available, checks, get

# ----------------------------------------------------------------------------- per-ruleset hooks

EXTRA_ROLES = (OBSERVER, OMNISCIENT)  # readers checked besides the ruleset's own roles


@cache
def hooks_for(ruleset_id: str) -> Checks:
    return checks(ruleset_id)  # MissingHook, naming the entry, for a ruleset without them


RULESETS = pytest.mark.parametrize("ruleset_id", available())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

# ----------------------------------------------------------------------------- random play


@dataclass
class Trace:
    config: GameConfig
    seed: bytes
    log: list[Action]
    hashes: list[str]  # hashes[i] = the state after i actions
    states: list[object]


def _config(rules: Ruleset[object], ruleset_id: str, scenario_index: int) -> GameConfig:
    scenarios = rules.scenarios()
    options = hooks_for(ruleset_id).fast_options
    return GameConfig(scenarios[scenario_index % len(scenarios)], options)


def _h(rules: Ruleset[object], state: object) -> str:
    return state_hash(rules.dump(state))


def steps(
    rules: Ruleset[object], config: GameConfig, game_seed: int, chooser_seed: int, limit: int
) -> Iterator[tuple[object, Action | None]]:
    """The states of one random game (with the action that led to each), at most `limit` actions;
    stops early when nobody is prompted."""
    seed = f"contract:{game_seed}".encode()
    state = rules.setup(config, Rng.for_event(seed, 0))
    yield state, None
    chooser = Rng(chooser_seed)
    for i in range(limit):
        prompts = rules.prompts(state)
        if not prompts:
            return
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = rules.random_action(state, role, chooser)
        assert action is not None, f"{role} is prompted but random_action offers nothing"
        state = rules.apply(state, action, Rng.for_event(seed, i + 2)).state
        yield state, action


def play(
    rules: Ruleset[object], config: GameConfig, game_seed: int, chooser_seed: int, limit: int
) -> Trace:
    trace = Trace(config, f"contract:{game_seed}".encode(), [], [], [])
    for state, action in steps(rules, config, game_seed, chooser_seed, limit):
        if action is not None:
            trace.log.append(action)
        trace.hashes.append(_h(rules, state))
        trace.states.append(state)
    return trace


def replay(rules: Ruleset[object], trace: Trace) -> list[str]:
    state = rules.setup(trace.config, Rng.for_event(trace.seed, 0))
    out = [_h(rules, state)]
    for i, action in enumerate(trace.log):
        state = rules.apply(state, action, Rng.for_event(trace.seed, i + 2)).state
        out.append(_h(rules, state))
    return out


def side_roles(rules: Ruleset[object], config: GameConfig) -> list[str]:
    return [r.id for r in rules.roles(config.scenario, config.options)]


GAME = {
    "game_seed": SEEDS,
    "chooser_seed": SEEDS,
    "scenario_index": st.integers(min_value=0, max_value=7),
}

# ----------------------------------------------------------------------------- (a) determinism


@RULESETS
@settings(max_examples=10, deadline=None)
@given(length=st.integers(min_value=0, max_value=120), **GAME)
def test_same_seed_same_actions_same_hashes(
    ruleset_id: str, length: int, game_seed: int, chooser_seed: int, scenario_index: int
) -> None:
    rules = get(ruleset_id)
    config = _config(rules, ruleset_id, scenario_index)
    first = play(rules, config, game_seed, chooser_seed, length)
    second = play(rules, config, game_seed, chooser_seed, length)
    assert second.log == first.log
    assert second.hashes == first.hashes


# ----------------------------------------------------------------------------- (b) replay


@RULESETS
@settings(max_examples=10, deadline=None)
@given(length=st.integers(min_value=0, max_value=150), **GAME)
def test_incremental_apply_equals_replay_from_the_log(
    ruleset_id: str, length: int, game_seed: int, chooser_seed: int, scenario_index: int
) -> None:
    rules = get(ruleset_id)
    trace = play(rules, _config(rules, ruleset_id, scenario_index), game_seed, chooser_seed, length)
    assert replay(rules, trace) == trace.hashes
    # apply() never mutates its input: the recorded states still hash as they did
    assert [_h(rules, s) for s in trace.states] == trace.hashes


# ----------------------------------------------------------------------------- (c) dump / load


@RULESETS
@settings(max_examples=8, deadline=None)
@given(length=st.integers(min_value=0, max_value=120), **GAME)
def test_dump_load_round_trip(
    ruleset_id: str, length: int, game_seed: int, chooser_seed: int, scenario_index: int
) -> None:
    rules = get(ruleset_id)
    trace = play(rules, _config(rules, ruleset_id, scenario_index), game_seed, chooser_seed, length)
    for i, state in enumerate(trace.states):
        dumped = rules.dump(state)
        assert json.loads(json.dumps(dumped)) == dumped, "dump() is not plain JSON"
        loaded = rules.load(json.loads(json.dumps(dumped)))
        assert rules.dump(loaded) == dumped
        assert state_hash(rules.dump(loaded)) == trace.hashes[i]
        if i < len(trace.log):  # the loaded state plays on exactly like the original
            nxt = rules.apply(loaded, trace.log[i], Rng.for_event(trace.seed, i + 2)).state
            assert _h(rules, nxt) == trace.hashes[i + 1]


# ----------------------------------------------------------------------------- (d) views


WORD = re.compile(r"[A-Za-z0-9_-]+")


@RULESETS
@settings(max_examples=10, deadline=None)
@given(length=st.integers(min_value=0, max_value=150), **GAME)
def test_views_are_json_and_leak_no_hidden_ids_or_secrets(
    ruleset_id: str, length: int, game_seed: int, chooser_seed: int, scenario_index: int
) -> None:
    rules = get(ruleset_id)
    hooks = hooks_for(ruleset_id)
    config = _config(rules, ruleset_id, scenario_index)
    roles = side_roles(rules, config) + list(EXTRA_ROLES)
    for state, action in steps(rules, config, game_seed, chooser_seed, length):
        secrets = hooks.secrets(state)
        for role in roles:
            text = json.dumps(rules.view(state, role), allow_nan=False)
            words = set(WORD.findall(text))
            leaked = sorted(hooks.hidden_ids(state, role) & words)
            assert not leaked, f"view of {role} after {action} names hidden pieces {leaked}"
            for secret in secrets:
                assert secret not in text, f"view of {role} after {action} shows a secret"


# ----------------------------------------------------------------------------- (e) non-interference


@RULESETS
@settings(max_examples=25, deadline=None)
@given(
    length=st.integers(min_value=0, max_value=200),
    probe_seed=SEEDS,
    **GAME,
)
def test_views_do_not_depend_on_hidden_facts(
    ruleset_id: str,
    length: int,
    probe_seed: int,
    game_seed: int,
    chooser_seed: int,
    scenario_index: int,
) -> None:
    rules = get(ruleset_id)
    hooks = hooks_for(ruleset_id)
    config = _config(rules, ruleset_id, scenario_index)
    *_, (state, _) = steps(rules, config, game_seed, chooser_seed, length)
    before = _h(rules, state)
    probe = Rng(probe_seed)
    for role in side_roles(rules, config):
        for _ in range(3):
            other = hooks.perturb(state, role, probe)
            assert other is not None, f"{role} plays a side: something is hidden from it"
            assert rules.view(state, role) == rules.view(other, role), role
            # what is hidden from one side is hidden from spectators as well
            assert rules.view(state, OBSERVER) == rules.view(other, OBSERVER), role
    assert _h(rules, state) == before, "perturb() mutated the state it was given"


# ----------------------------------------------------------------------------- (f) playouts


@RULESETS
@settings(max_examples=8, deadline=None)
@given(**GAME)
def test_random_playouts_end_with_a_result_and_keep_the_invariants(
    ruleset_id: str, game_seed: int, chooser_seed: int, scenario_index: int
) -> None:
    rules = get(ruleset_id)
    hooks = hooks_for(ruleset_id)
    config = _config(rules, ruleset_id, scenario_index)
    state: object = None
    for n, (state, action) in enumerate(
        steps(rules, config, game_seed, chooser_seed, hooks.max_actions)
    ):
        bad = hooks.violations(state)
        assert not bad, f"invariants broken after action {n} {action}: {bad}"
    assert not rules.prompts(state), f"no result after {hooks.max_actions} actions"
    result = rules.result(state)
    assert result is not None, "nobody is prompted but there is no result"
    assert result.summary
    assert set(result.winners) <= set(side_roles(rules, config))


# ----------------------------------------------------------------------------- (g) validate


@cache
def state_pool(ruleset_id: str) -> tuple[tuple[object, str], ...]:
    """Varied states (set-up, moves, open attack decisions, game over) and their hashes."""
    rules = get(ruleset_id)
    pool: list[tuple[object, str]] = []
    for game in range(3):
        config = _config(rules, ruleset_id, game)
        trace = play(rules, config, 1000 + game, 7 * game + 1, hooks_for(ruleset_id).max_actions)
        picks = {0, 1, 2, len(trace.states) - 1}
        picks |= {i for i, a in enumerate(trace.log, start=1) if a.kind not in ("end_turn",)}
        for i in sorted(picks)[:: max(1, len(picks) // 40)]:
            pool.append((trace.states[i], trace.hashes[i]))
    return tuple(pool)


def json_values(vocabulary: tuple[str, ...]) -> st.SearchStrategy[JSON]:
    scalars: st.SearchStrategy[JSON] = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.integers(min_value=-2, max_value=120),
        st.text(max_size=8),
        st.sampled_from(vocabulary) if vocabulary else st.text(max_size=4),
    )
    keys = st.sampled_from(vocabulary) | st.text(max_size=6) if vocabulary else st.text(max_size=6)

    def extend(children: st.SearchStrategy[JSON]) -> st.SearchStrategy[JSON]:
        return st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(keys, children, max_size=5),
        )

    return st.recursive(scalars, extend, max_leaves=16)


@st.composite
def malformed(draw: st.DrawFn, ruleset_id: str) -> tuple[int, Action]:
    """A state index and an action: a random kind with a random payload, or a legal-looking
    action with one field dropped or replaced by junk."""
    rules = get(ruleset_id)
    hooks = hooks_for(ruleset_id)
    pool = state_pool(ruleset_id)
    index = draw(st.integers(min_value=0, max_value=len(pool) - 1))
    state = pool[index][0]
    roles = side_roles(rules, GameConfig(rules.scenarios()[0], hooks.fast_options))
    role = draw(st.sampled_from([*roles, *sorted(rules.prompts(state))]) | st.text(max_size=6))
    values = json_values(hooks.vocabulary)
    base = rules.random_action(state, role, Rng(draw(SEEDS))) if role in roles else None
    if base is not None and isinstance(base.payload, dict) and draw(st.booleans()):
        payload = dict(base.payload)
        change_one = draw(st.booleans())
        if payload and change_one:
            key = draw(st.sampled_from(sorted(payload)))
            if draw(st.booleans()):
                del payload[key]
            else:
                payload[key] = draw(values)
        else:
            payload[draw(st.sampled_from(hooks.vocabulary) | st.text(max_size=6))] = draw(values)
        return index, Action(role, base.kind, payload)
    kind = draw(st.sampled_from(hooks.kinds) | st.text(max_size=10))
    return index, Action(role, kind, draw(values))


@RULESETS
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_validate_never_raises_and_leaves_the_state_alone(
    ruleset_id: str, data: st.DataObject
) -> None:
    rules = get(ruleset_id)
    index, action = data.draw(malformed(ruleset_id))
    state, before = state_pool(ruleset_id)[index]
    rejections = rules.validate(state, action)
    for r in rejections:
        assert r.rule, f"rejection without a rule for {action}: {r}"
        assert r.message, f"rejection without a message for {action}: {r}"
        json.dumps(r.to_json())
    assert _h(rules, state) == before, f"validate({action}) changed the state"
    if not rejections:  # accepted: apply agrees and still leaves its input alone
        rules.apply(state, action, Rng(0))
        assert _h(rules, state) == before, f"apply({action}) changed its input state"
