"""The checks for the fuzzer and the contract tests (games.core.checks): invariants after every
event (block counts, deck conservation, pieces on the board), the non-interference probe (only
the other hand and the deck order change) and what no view may show."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.deck import conserved
from games.commands_colors_napoleonics.rules import KNOWN
from games.commands_colors_napoleonics.state import SIDES, GameState, clone
from games.commands_colors_napoleonics.world import scen, unit_class
from games.core.checks import Checks
from games.core.protocol import Role
from games.core.rng import Rng


def _s(state: object) -> GameState:
    assert isinstance(state, GameState), f"not a C&C:N state: {type(state)}"
    return state


def violations(state: object) -> list[str]:
    s = _s(state)
    out = []
    if not conserved(s.deck, BASE):
        out.append("the deck does not hold every card exactly once (deck.conserved)")
    sc = scen(s)
    hexes = Counter(u.hex for u in s.units.values())
    out += [f"two units in {h}" for h, n in hexes.items() if n > 1]  # CCN-25
    lh = Counter(ld.hex for ld in s.leaders.values())
    out += [f"two leaders in {h}" for h, n in lh.items() if n > 1]  # CCN-35
    for u in s.units.values():
        if not 1 <= u.blocks <= u.start_blocks:
            out.append(f"{u.id} has {u.blocks} blocks (1..{u.start_blocks})")
        if not sc.board.contains(u.hex) or not sc.terrain_at(u.hex).may_enter(unit_class(u)):
            out.append(f"{u.id} stands on {u.hex}, where it may not")
    for ld in s.leaders.values():
        if not sc.board.contains(ld.hex):
            out.append(f"{ld.id} is off the board")
        for u in s.units.values():
            if u.hex == ld.hex and u.side != ld.side:
                out.append(f"{ld.id} shares a hex with an enemy unit")
    if len(s.units) + len(s.leaders) + len(s.gone) != len(sc.units) + len(sc.leaders):
        out.append("pieces appear or vanish")
    for side in SIDES:
        if s.banners[side] < 0:
            out.append(f"{side} has negative banners")
        markers = sorted(u.in_square for u in s.units.values() if u.side == side and u.in_square)
        if markers != sorted(s.deck.track(side)):  # CCN-123: one card under each marker
            out.append(f"{side}'s square markers {markers} and track {sorted(s.deck.track(side))}")
    if s.phase != "over" and s.pending is not None and s.pending.get("side") not in SIDES:
        out.append("the open decision has no side")
    return out


def perturb(state: object, role: Role, rng: Rng) -> object | None:
    """The same state with only what `role` may not see changed: the other hand and the other
    side's square-track cards dealt again from themselves plus the draw pile, the draw pile
    reshuffled, the other side's standing choices dropped."""
    s = _s(state)
    if role not in SIDES:
        new = clone(s)
        pool = list(new.deck.draw)
        for side in SIDES:
            pool += list(new.deck.hands[side])
        rng.shuffle(pool)
        hands = {}
        for side in SIDES:
            n = len(new.deck.hands[side])
            hands[side] = tuple(sorted(pool[:n]))
            del pool[:n]
        new.deck = replace(new.deck, hands=hands, draw=tuple(pool))
        return new
    other = "bottom" if role == "top" else "top"
    new = clone(s)
    track = new.deck.track(other)  # the cards under the other side's square markers
    pool = list(new.deck.draw) + list(new.deck.hands[other]) + list(track.values())
    rng.shuffle(pool)
    n = len(new.deck.hands[other])
    hands = {**new.deck.hands, other: tuple(sorted(pool[:n]))}
    del pool[:n]
    tracks = {**new.deck.tracks, other: {m: pool.pop() for m in sorted(track)}}
    new.deck = replace(new.deck, draw=tuple(pool), hands=hands, tracks=tracks)
    new.policies.pop(other, None)
    return new


def hidden_ids(state: object, role: Role) -> set[str]:
    return set()  # every piece is public (2.12)


def secrets(state: object) -> list[str]:
    return []


VOCABULARY = (
    "card",
    "units",
    "leaders",
    "section",
    "mode",
    "piece",
    "path",
    "exit",
    "unit",
    "target",
    "combat",
    "melee",
    "ranged",
    "flags",
    "off",
    "advance",
    "extra",
    "battle",
    "battle_back",
    "artillery",
    "LEFT",
    "CENTER",
    "strategic",
    "one_unit",
    "F-LN1",
    "F-LC1",
    "B-LN2",
    "B-HC1",
    "F-L1",
    "P-L1",
    "ATTACK_CENTER",
    "PROBE_LEFT",
    "ELAN",
    "FIRST_STRIKE",
    "always",
)

CHECKS = Checks(
    violations=violations,
    perturb=perturb,
    fast_options={},
    max_actions=6000,
    kinds=KNOWN,
    hidden_ids=hidden_ids,
    secrets=secrets,
    vocabulary=VOCABULARY,
)
