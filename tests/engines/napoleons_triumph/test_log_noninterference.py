"""The log's unit order never follows hidden identities.

Server unit ids follow the order of battle (artillery first, ...), so a list of enemy units in
server-id order tells which block is which. A property over random games: relabel one side's unit
ids by a random permutation (each block keeps its face, place and alias, so nothing the other side
knows changes; only the hidden labels do), replay the same orders (the owner's translated to the
new labels), and the other side's and the spectator's log lines must be identical, event by event,
and so must their views. And every inline list of enemy units a reader gets is in alias order.
"""

from __future__ import annotations

import re

import pytest

from games.core.ids import alias as real_alias
from games.core.protocol import JSON, OBSERVER, Action, GameConfig, LogEntry
from games.core.rng import Rng
from games.napoleons_triumph import RULESET, policies, retreat
from games.napoleons_triumph import context as C
from games.napoleons_triumph import state as S
from games.napoleons_triumph.attack import attackers as attack
from games.napoleons_triumph.state import AL, F, GameState

OPTIONS: dict[str, JSON] = {"board": "austerlitz"}
MAX_ACTIONS = 500
SEEDS = [1, 2, 3, 4]

# first state, orders, each order's log, each order's views (role -> view, read before any patch)
Game = tuple[GameState, list[Action], list[tuple[LogEntry, ...]], list[dict[str, JSON]]]


def play(seed: int) -> Game:
    """A random game (at most MAX_ACTIONS orders): first state, orders, log and views of each."""
    first = RULESET.setup(GameConfig("DEC2", OPTIONS), Rng(seed))
    chooser = Rng(seed + 1000)
    state = first
    actions: list[Action] = []
    logs: list[tuple[LogEntry, ...]] = []
    views: list[dict[str, JSON]] = []
    while len(actions) < MAX_ACTIONS:
        prompts = RULESET.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = RULESET.random_action(state, role, chooser)
        assert action is not None
        step = RULESET.apply(state, action, Rng(0))
        state = step.state
        actions.append(action)
        logs.append(tuple(step.log))
        views.append({r: RULESET.view(state, r) for r in [*state.roles, OBSERVER]})
    return first, actions, logs, views


def relabel(value: JSON, pi: dict[str, str]) -> JSON:
    """`value` with every string (and key) that is a relabelled unit id replaced by its image."""
    if isinstance(value, str):
        return pi.get(value, value)
    if isinstance(value, list):
        return [relabel(v, pi) for v in value]
    if isinstance(value, dict):
        return {pi.get(k, k): relabel(v, pi) for k, v in value.items()}
    return value


def relabelled_state(state: GameState, pi: dict[str, str]) -> GameState:
    data = relabel(S.dump(state), pi)
    assert isinstance(data, dict)
    units = data["units"]
    assert isinstance(units, dict)
    data["units"] = dict(sorted(units.items()))  # the new labels' order, as a new game has it
    return S.load(data)


@pytest.fixture
def same_aliases(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """While active, a relabelled unit keeps the alias of its original label: the alias is the
    block's public name, the label is the hidden identity."""
    inverse: dict[str, str] = {}

    def alias(salt: str, viewer: str, epoch: int, unit: str, prefix: str = "") -> str:
        return real_alias(salt, viewer, epoch, inverse.get(unit, unit), prefix=prefix)

    monkeypatch.setattr(C, "alias", alias)
    return inverse


@pytest.fixture(scope="module")
def all_games() -> dict[int, Game]:
    return {seed: play(seed) for seed in SEEDS}


@pytest.fixture(params=SEEDS)
def game(request: pytest.FixtureRequest, all_games: dict[int, Game]) -> Game:
    return all_games[request.param]


def first_difference(game: Game, hidden_side: str, inverse: dict[str, str]) -> str | None:
    """Replay `game` with `hidden_side`'s unit ids relabelled; the first log line or view of the
    other side or a spectator that differs, or None."""
    first, actions, logs, views = game
    ids = sorted(u.id for u in first.units.values() if u.side == hidden_side)
    images = list(ids)
    Rng(len(actions)).shuffle(images)
    pi = dict(zip(ids, images, strict=True))
    assert pi != {i: i for i in ids}
    inverse.clear()
    inverse.update({b: a for a, b in pi.items()})
    readers = [*(r for r, s in first.roles.items() if s != hidden_side), OBSERVER]
    state = relabelled_state(first, pi)
    for n, (action, log, seen) in enumerate(zip(actions, logs, views, strict=True)):
        own = first.roles.get(action.role) == hidden_side
        moved = Action(
            action.role, action.kind, relabel(action.payload, pi) if own else action.payload
        )
        assert not RULESET.validate(state, moved), f"order {n} {moved} refused after relabelling"
        step = RULESET.apply(state, moved, Rng(0))
        state = step.state
        for role in readers:
            if RULESET.log_for(step.log, role) != RULESET.log_for(log, role):
                return f"order {n} ({action.kind}): the log of {role} differs"
            if RULESET.view(state, role) != seen[role]:
                return f"order {n} ({action.kind}): the view of {role} differs"
    return None


@pytest.mark.parametrize("hidden_side", [F, AL])
def test_relabelling_hidden_identities_changes_nothing_the_enemy_reads(
    game: Game, hidden_side: str, same_aliases: dict[str, str]
) -> None:
    assert first_difference(game, hidden_side, same_aliases) is None


def test_the_property_sees_lists_in_server_id_order(
    all_games: dict[int, Game], same_aliases: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The property is a real test: with lists sorted by server id (the old order), the
    relabelled games read differently for the enemy (in at least one of the random games)."""
    monkeypatch.setattr(C, "name_for", lambda state, viewer, unit_id: unit_id)
    found = [
        first_difference(g, side, same_aliases) for g in all_games.values() for side in (F, AL)
    ]
    assert any(d is not None and "log" in d for d in found), found


def test_the_property_sees_lines_in_server_id_order(
    all_games: dict[int, Game], same_aliases: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """And with runs of per-unit lines (losses, eliminations) left in server-id order (in at
    least one of the random games: not every game has such a run)."""
    monkeypatch.setattr(C.Ctx, "_reorder", lambda self, start, marks: None)
    found = [
        first_difference(g, side, same_aliases) for g in all_games.values() for side in (F, AL)
    ]
    assert any(d is not None and "log" in d for d in found), found


def test_the_property_sees_tie_breaks_by_server_id(
    all_games: dict[int, Game], same_aliases: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """And with defaults and standing instructions breaking ties by server id (as before: the
    unit a plan's retreat loss fell on named the block with the lowest id)."""
    monkeypatch.setattr(C, "public_key", lambda state, unit_id: unit_id)
    for module in (policies, retreat, attack):
        monkeypatch.setattr(module, "public_key", lambda state, unit_id: unit_id)
    found = [
        first_difference(g, side, same_aliases) for g in all_games.values() for side in (F, AL)
    ]
    assert any(d is not None for d in found), found


ALIAS = r"(?:F|A)-[0-9a-f]+"
LIST = re.compile(rf"{ALIAS}(?: \([A-Z]+\d\))?(?:, {ALIAS}(?: \([A-Z]+\d\))?)+")


def test_enemy_unit_lists_are_in_alias_order(game: Game) -> None:
    first, _, logs, _ = game
    lists = 0
    for log in logs:
        for role in [*first.roles, OBSERVER]:
            for line in RULESET.log_for(log, role):
                for m in LIST.finditer(line):
                    names = re.findall(ALIAS, m.group(0))
                    assert names == sorted(names), f"{role} reads a list out of order: {line}"
                    lists += 1
    assert lists > 0  # the games do list several enemy units at once
