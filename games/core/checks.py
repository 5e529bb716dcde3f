"""What a ruleset tells its testers beyond the Ruleset protocol: the fuzzer (games.fuzz) and the
contract tests (tests/engines/test_contract.py) read one `Checks` per ruleset from games.registry.

States are the engine's own objects (`object` here): each hook checks the type it expects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games.core.protocol import JSON, Role
from games.core.rng import Rng


@dataclass(frozen=True, slots=True)
class Checks:
    # the invariants a state breaks, one sentence each (empty: none)
    violations: Callable[[object], list[str]]
    # the same state with only what `role` may not see changed (a fresh object; the input stays
    # as it was), or None when `role` has nothing hidden from it to change (no side of its own)
    perturb: Callable[[object, Role, Rng], object | None]
    # options of a quick game (a small board) and the most actions a random game of it may take
    fast_options: Mapping[str, JSON]
    max_actions: int
    # every action kind the ruleset knows (thrown at `validate` with junk payloads)
    kinds: tuple[str, ...]
    # ids that must never appear in `role`'s view of a state, and strings never in any view
    hidden_ids: Callable[[object, Role], set[str]]
    secrets: Callable[[object], list[str]]
    # payload keys and ids worth throwing at `validate`
    vocabulary: tuple[str, ...] = ()
