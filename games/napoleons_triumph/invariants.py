"""State invariants INV-1..INV-7 (digest 2.4), checked by the fuzzer and the tests after every
action, and `perturb_hidden`, the non-interference probe: it changes only what one side may not
see."""

from __future__ import annotations

from games.core.rng import Rng
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import DEAD, MAP, GameState, clone, other


def violations(board: Board, state: GameState) -> list[str]:
    out: list[str] = []
    for c in state.commanders.values():
        members = [u for u in state.units.values() if u.corps == c.id and u.where != DEAD]
        if c.where == DEAD:
            if members:
                out.append(f"INV-2: dead commander {c.id} still has units")
            continue
        if c.where == MAP:
            on_map = [u for u in members if u.where == MAP]
            if not 1 <= len(on_map) <= 8:
                out.append(f"INV-2: corps {c.id} has {len(on_map)} units on the map")
            for u in on_map:
                if (u.loc, u.app) != (c.loc, c.app):
                    out.append(f"INV-1: {u.id} is not with its commander {c.id}")
    for u in state.units.values():
        if u.where == MAP and (u.loc is None or u.loc not in board.locales):
            out.append(f"INV-1: {u.id} has no position")
        if u.where == MAP and u.app is not None:
            if u.app not in board.approaches_of(u.loc or 0):
                out.append(f"INV-1: {u.id} blocks {u.app}, not an approach of its locale")
            elif board.approaches[u.app].impassable:
                out.append(f"INV-5: {u.id} blocks an impassable approach")
        if u.where == MAP and not 1 <= u.strength <= 3:
            out.append(f"INV: {u.id} has strength {u.strength}")
    held: dict[int, str] = {}
    counts: dict[tuple[int, str], int] = {}
    for u in state.units.values():
        if u.where == MAP and u.loc is not None:
            if held.setdefault(u.loc, u.side) != u.side:
                out.append(f"INV-4: locale {u.loc} holds both sides")
            counts[(u.loc, u.side)] = counts.get((u.loc, u.side), 0) + 1
    if state.attack is None:
        for (loc, side), n in counts.items():
            if n > board.locales[loc].capacity:
                out.append(
                    f"INV-3: locale {loc} holds {n} {side} units (capacity "
                    f"{board.locales[loc].capacity})"
                )
    for side, m in state.morale.items():
        if m < 0 or (m == 0 and state.phase != "over"):
            out.append(f"INV-6: {side} morale {m}")
    return out


def perturb_hidden(state: GameState, viewer: str, rng: Rng) -> GameState:
    """A state that differs from `state` only in what `viewer` (a side) may not see: the faces of
    hidden enemy units are permuted among themselves (the order of battle stays the same), the
    enemy's standing instructions are replaced, and an unrevealed committed defense is changed."""
    s = clone(state)
    if s.phase == "over":
        return s
    enemy = other(viewer)
    hidden = sorted(
        u.id for u in s.units.values() if u.side == enemy and not u.revealed and u.where != DEAD
    )
    faces = [(s.units[i].type, s.units[i].strength) for i in hidden]
    rng.shuffle(faces)
    for uid, (t, st) in zip(hidden, faces, strict=True):
        s.units[uid].type, s.units[uid].strength = t, st
    s.plans[enemy] = {
        "default": {
            "mode": "vacate",
            "leading": "none",
            "counter": "none",
            "loss_priority": [],
            "hold": "ask",
            "retreat": "ask",
        }
    }
    atk = s.attack
    if (
        atk is not None
        and atk.attacker == viewer
        and atk.step in ("defense", "feint", "feint_hold")
    ):
        atk.committed_leading = []
    return s
