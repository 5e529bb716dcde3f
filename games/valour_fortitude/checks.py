"""Valour & Fortitude's checks for the fuzzer and the contract tests (games.core.checks): the
invariants after every event, the non-interference probe (only the other side's fate hand and
the decks' order change), and what no view may show."""

from __future__ import annotations

import json
from dataclasses import replace

from games.core.checks import Checks
from games.core.protocol import OMNISCIENT, Role
from games.core.rng import Rng
from games.valour_fortitude import match as m
from games.valour_fortitude.rules import SCHEMAS
from games.valour_fortitude.setup import CARDS
from games.valour_fortitude.state import FateState, GameState
from games.valour_fortitude.state_json import state_problems


def _match(state: object) -> m.Match:
    assert isinstance(state, m.Match), f"not a Valour & Fortitude match: {type(state)}"
    return state


def violations(state: object) -> list[str]:
    match = _match(state)
    game = match.game
    out = list(state_problems(game))
    for side in game.sides:
        f = side.fate
        cards = sorted((*f.deck, *f.hand, *f.discard))
        if cards != sorted(CARDS):
            out.append(f"side {side.id}: the fate cards are not the 13 of the deck (VF-25)")
    for unit in game.units:
        if unit.casualties < 0 or unit.casualties > unit.stats.morale:
            out.append(f"{unit.id}: {unit.casualties} casualty markers (VF-102)")
        if unit.fled and unit.bases:
            out.append(f"{unit.id} fled but stands on the table (VF-107)")
    for brigade in game.brigades:
        fled = [u for u in brigade.units if game.unit(u).fled]
        if sorted(fled) != sorted(brigade.fled_units):
            out.append(f"{brigade.id}: fled_units disagree with the units (VF-107)")
        if brigade.broken != (len(fled) == len(brigade.units)):
            out.append(f"{brigade.id}: broken disagrees with its units (VF-108)")
        if brigade.broken and not game.leader(brigade.bg).removed:
            out.append(f"{brigade.id}: broken but its BG is on the table (VF-108)")
    broken = {s.id: 0 for s in game.sides}
    for brigade in game.brigades:
        broken[brigade.side] += brigade.broken
    for side in game.sides:
        if side.setbacks < broken[side.id]:
            out.append(f"side {side.id}: fewer setbacks than broken brigades (VF-111)")
    stage = match.stage
    if stage not in (m.INITIATIVE, m.ORDERS, m.RESOLVING, m.OVER):
        out.append(f"unknown stage {stage}")
    window = match.flow.get("window")
    if stage == m.RESOLVING and not match.pending and not window:
        out.append("resolving with nothing for the umpire to rule on (the runner stopped)")
    if isinstance(window, dict) and window.get("side") == game.turn.active_side:
        out.append("a fate window open for the active side (V-01)")
    if match.pending and match.auto_geometry:
        out.append("auto_geometry, yet the umpire is asked")
    if (stage == m.OVER) != (match.flow.get("result") is not None):
        out.append("a result without the game being over, or the reverse")
    turn = game.turn
    if abs(turn.turns_taken_a - turn.turns_taken_b) > 1:
        out.append("the sides' turn counts differ by more than one (VF-30)")
    return out


def perturb(state: object, role: Role, rng: Rng) -> object | None:
    """Only what `role` may not see: the other side's hand (cards swapped with its deck) and
    the order of both decks."""
    match = _match(state)
    if role == OMNISCIENT:
        return None
    sides = []
    for side in match.game.sides:
        f = side.fate
        deck, hand = list(f.deck), list(f.hand)
        if side.id != role and deck and hand:
            pool = deck + hand
            rng.shuffle(pool)
            hand, deck = pool[: len(hand)], pool[len(hand) :]
        rng.shuffle(deck)
        sides.append(
            replace(
                side, fate=FateState(tuple(deck), tuple(hand), f.discard, f.first_fate_phase_done)
            )
        )
    game: GameState = replace(match.game, sides=tuple(sides))
    # the JSON form differs only in the fate records: patch it rather than dump again
    data = match.game_json()
    assert isinstance(data, dict)
    assert isinstance(data["sides"], list)
    for doc, side in zip(data["sides"], sides, strict=True):
        assert isinstance(doc, dict)
        assert isinstance(doc["fate"], dict)
        doc["fate"]["deck"], doc["fate"]["hand"] = list(side.fate.deck), list(side.fate.hand)
    return m.Match(game, match.flow, {"game": json.dumps(data)})


def hidden_ids(state: object, role: Role) -> set[str]:
    return set()  # open table (digest 4.6): every unit is named by its id


def secrets(state: object) -> list[str]:
    return []


VOCABULARY = (
    "target", "firer", "mode", "supporters", "shooting", "brigade_order", "units", "action",
    "path", "bg_moves", "cinc_move", "melee_plan", "on_illegal", "fate", "side", "fact",
    "value", "reason", "note", "attacker", "auto", "MOVE", "CHARGE", "MARCH", "RALLY",
    "WITHDRAW", "STAND", "full", "skirmish", "carbine", "U-A1", "U-B1", "U-A9", "BR-A1",
    "BR-B2", "L-A1", "A", "B", "cover", "place", "messenger",
)  # fmt: skip

CHECKS = Checks(
    violations=violations,
    perturb=perturb,
    fast_options={"turn_limit": 2},
    max_actions=3000,
    kinds=tuple(sorted(SCHEMAS)),
    hidden_ids=hidden_ids,
    secrets=secrets,
    vocabulary=VOCABULARY,
)
