"""Napoleon's Triumph's checks for the fuzzer and the contract tests (games.core.checks): the
invariants INV-1..INV-7, the non-interference probe, and what no view may ever show."""

from __future__ import annotations

from games.core.checks import Checks
from games.core.protocol import OMNISCIENT, Role
from games.core.rng import Rng
from games.napoleons_triumph.invariants import perturb_hidden, violations
from games.napoleons_triumph.rules import KNOWN
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.state import DEAD, GameState


def _nt(state: object) -> GameState:
    assert isinstance(state, GameState), f"not a Napoleon's Triumph state: {type(state)}"
    return state


def _violations(state: object) -> list[str]:
    s = _nt(state)
    return violations(board_for(s), s)


def _perturb(state: object, role: Role, rng: Rng) -> object | None:
    s = _nt(state)
    side = s.roles.get(role)
    return None if side is None else perturb_hidden(s, side, rng)


def _hidden_ids(state: object, role: Role) -> set[str]:
    # Enemy units are always named by alias (V-1..V-3), revealed or not; the observer knows no
    # unit by id, the omniscient reader all.
    s = _nt(state)
    if role == OMNISCIENT:
        return set()
    side = s.roles.get(role)
    return {u.id for u in s.units.values() if u.side != side and u.where != DEAD}


def _secrets(state: object) -> list[str]:
    return [_nt(state).salt]  # NT-146: the alias salt


VOCABULARY = (
    "unit", "units", "commander", "commands", "to", "locale", "approach", "road", "path",
    "end_approach", "detach", "attack_locale", "guard_attack", "show_guard", "named",
    "leading", "retreat", "end", "kind", "width", "target", "losses", "sp", "anchors",
    "destinations", "pieces", "artillery", "entry", "command", "corps", "detachments",
    "fixed_battery", "position", "off_map", "default", "mode", "block", "reserve", "narrow",
    "wide", "A01", "A07", "F01", "F12", "kienmayer", "davout", "lannes", "bagration",
)  # fmt: skip

CHECKS = Checks(
    violations=_violations,
    perturb=_perturb,
    fast_options={"board": "austerlitz"},
    max_actions=5000,
    kinds=tuple(sorted(KNOWN)),
    hidden_ids=_hidden_ids,
    secrets=_secrets,
    vocabulary=VOCABULARY,
)
