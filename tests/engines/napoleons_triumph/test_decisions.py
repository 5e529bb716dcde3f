"""The table of pending decisions (decisions.py, digest 4.3): every decision the engine can open
has exactly one complete entry, and the rules, the legal choices, the text orders and the random
player all read it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import games.napoleons_triumph as nt
from games.core.protocol import GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph import choices_answers as O
from games.napoleons_triumph import policies as D
from games.napoleons_triumph import random_answers as R
from games.napoleons_triumph.decisions import (
    DECISIONS,
    Decision,
    Reply,
    default_answer,
    random_answer,
    standing_answer,
    text_kind,
)
from games.napoleons_triumph.schemas import PAYLOADS
from games.napoleons_triumph.state import Pending
from games.napoleons_triumph.text import ORDERS

PACKAGE = Path(nt.__file__).parent
# Where a kind is a parameter handed on, not a name: ask() builds the Pending, hold_or_ask() asks.
PASS_THROUGH = {("Pending", "ask"), ("ask", "hold_or_ask")}
KIND_ARG = {"Pending": 1, "ask": 2, "hold_or_ask": 2}


def _created_kinds() -> set[str]:
    """Every decision kind the engine's code opens: the kind argument of each Pending(...),
    ask(...) and hold_or_ask(...) call in the package."""
    kinds: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                    continue
                name = call.func.id
                if name not in KIND_ARG or len(call.args) <= KIND_ARG[name]:
                    continue
                arg = call.args[KIND_ARG[name]]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    kinds.add(arg.value)
                else:
                    where = f"{path.name}:{call.lineno}"
                    assert (name, fn.name) in PASS_THROUGH, f"a computed decision kind at {where}"
    return kinds


def test_every_decision_the_engine_opens_has_exactly_one_entry() -> None:
    created = _created_kinds()
    assert len(created) >= 11  # defend, feint, declare, counter, losses, retreat, anchor, ...
    assert created == set(DECISIONS), (
        f"without an entry: {sorted(created - set(DECISIONS))}; "
        f"never opened: {sorted(set(DECISIONS) - created)}"
    )
    assert all(d.kind == kind for kind, d in DECISIONS.items())


@pytest.mark.parametrize("kind", sorted(DECISIONS))
def test_every_entry_is_complete(kind: str) -> None:
    d = DECISIONS[kind]
    assert d.answers
    assert set(d.answers) <= set(PAYLOADS)  # every answer kind has its payload schema
    assert all(callable(r.handler) and callable(r.options) for r in d.answers.values())
    assert callable(d.default)
    assert callable(d.random)
    # every answer kind has a text order, and every text order of the entry is one text.py reads
    assert set(d.text.values()) == set(d.answers)
    assert all(order.split()[0] in ORDERS for order in d.text)


def test_an_incomplete_entry_is_refused_when_it_is_built() -> None:
    reply = Reply(lambda c, s, p: None, O.options_counter)
    no_random: Any = None
    with pytest.raises(TypeError, match=r"'counter' is incomplete: missing \['random'\]"):
        Decision(
            "counter", {"counter": reply}, D.default_counter, None, no_random, {"c": "counter"}
        )
    with pytest.raises(TypeError, match=r"missing \['answers', 'text'\]"):
        Decision("counter", {}, D.default_counter, None, R.random_counter, {})
    with pytest.raises(TypeError, match=r"do not answer it: \['hold'\]"):
        Decision(
            "counter",
            {"counter": reply},
            D.default_counter,
            None,
            R.random_counter,
            {"hold": "hold"},
        )


def test_only_the_defenders_decisions_have_standing_answers() -> None:
    """Digest 4.5: the attacker decides in his own sitting; he files no standing instruction."""
    standing = {k for k, d in DECISIONS.items() if d.standing is not None}
    assert standing == {
        "defend",
        "defense_leading",
        "retreat",
        "feint_hold",
        "hold",
        "counter",
        "odd_loss",
        "assign_losses",
    }


def test_text_orders_give_the_answer_kind_of_the_open_decision() -> None:
    assert text_kind(Pending("AL", "feint_hold"), "hold", "hold") == "feint_hold"
    assert text_kind(Pending("AL", "hold"), "hold", "hold") == "hold"
    assert text_kind(None, "hold", "hold") == "hold"
    after = Pending("F", "after_vacate")
    assert text_kind(after, "attack", "declare_attack") == "declare_after_vacate"
    assert text_kind(Pending("F", "declare"), "attack", "declare_attack") == "declare_attack"
    assert text_kind(Pending("AL", "defend"), "attack", "declare_attack") == "declare_attack"


def test_random_games_answer_every_decision_through_its_entry() -> None:
    """In random games, at every open decision: the prompt offers exactly the entry's answer
    kinds, and the default, the standing and the random answers are among them."""
    seen: set[str] = set()
    for g in range(2):
        seed = f"decisions:{g}".encode()
        state = RULESET.setup(GameConfig("DEC2", {}), Rng.for_event(seed, 0))
        chooser = Rng.for_event(seed, 1)
        for i in range(3000):
            prompts = RULESET.prompts(state)
            if not prompts:
                break
            pending = state.pending
            if pending is not None:
                d = DECISIONS[pending.kind]
                seen.add(pending.kind)
                (prompt,) = prompts.values()
                assert set(prompt.kinds) == set(d.answers)
                ctx = RULESET.ctx(state)
                assert default_answer(ctx, pending)[0] in d.answers
                standing = standing_answer(ctx, pending)
                assert standing is None or standing[0] in d.answers
                side = pending.side
                assert random_answer(ctx, side, Rng.for_event(seed, 1 << 30 | i))[0] in d.answers
            role = sorted(prompts)[chooser.below(len(prompts))]
            action = RULESET.random_action(state, role, chooser)
            assert action is not None
            state = RULESET.apply(state, action, Rng.for_event(seed, i + 2)).state
    assert {"defend", "declare", "counter"} <= seen
