"""The two cards that order from a roll (digest 3.22): Élan (CCN-194: each INF, CAV or ART face
orders a unit of that class, each flag a unit or leader of any kind, +1 die for the turn; the
piles shuffled together in phase 5, AMB-21) and Rally (CCN-201: each INF, CAV or ART face gives
a block back to a reduced unit of that class; every unit that got one is ordered). The roll is
made when the card is played, with as many dice as the command value (CCN-10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.commands_colors_napoleonics.card_effects import elan_orders, rally_blocks
from games.commands_colors_napoleonics.illegal import require
from games.commands_colors_napoleonics.state import GameState
from games.commands_colors_napoleonics.world import unit_class
from games.core.i18n import T
from games.core.protocol import JSON

DICE_CARDS = ("elan", "rally")


def pool_of(effect: str, faces: Sequence[object]) -> dict[str, int]:
    """What a roll gives: Élan's orders by class ("ANY" for flags), Rally's blocks by class."""
    from games.commands_colors_napoleonics.dice import Face

    got = [Face(str(f)) for f in faces]
    if effect == "elan":
        return elan_orders(got)
    return {cls.value: n for cls, n in rally_blocks(got).items()}


def elan_fits(state: GameState, units: Sequence[str], leaders: Sequence[str]) -> bool:
    """Whether the rolled faces order these pieces: each unit by a face of its class or a flag,
    each leader by a flag (CCN-194)."""
    pool = state.turn.pool
    need = Counter(unit_class(state.units[u]).value for u in units)
    flags = sum(max(0, n - pool.get(cls, 0)) for cls, n in need.items()) + len(leaders)
    return flags <= pool.get("ANY", 0)


def elan_orders_check(state: GameState, units: Sequence[str], leaders: Sequence[str]) -> None:
    require(
        elan_fits(state, units, leaders),
        "CCN-194",
        T(
            "the Élan dice order {inf} infantry, {cav} cavalry, {art} artillery and {any} of any "
            "kind",
            inf=state.turn.pool.get("INF", 0),
            cav=state.turn.pool.get("CAV", 0),
            art=state.turn.pool.get("ART", 0),
            any=state.turn.pool.get("ANY", 0),
        ),
        "/units",
    )


def reduced(state: GameState, side: str, cls: str) -> list[str]:
    return [
        u.id
        for u in state.units.values()
        if u.side == side and unit_class(u).value == cls and u.blocks < u.start_blocks
    ]


def rally(state: GameState, side: str, given: JSON) -> list[str]:
    """CCN-201: the blocks given (unit -> blocks), within the rolled faces of each class and
    the units' starting blocks; the units that got a block, which are ordered."""
    if given is None:
        given = {}
    require(isinstance(given, dict), "schema", T("rally maps unit ids to blocks"), "/rally")
    assert isinstance(given, dict)
    used: Counter[str] = Counter()
    for uid, n in given.items():
        u = state.units.get(uid)
        require(
            u is not None and u.side == side,
            "CCN-201",
            T("{id} is not one of your units", id=uid[:40]),
            f"/rally/{uid[:40]}",
        )
        assert u is not None
        require(
            isinstance(n, int) and n >= 1 and u.blocks + n <= u.start_blocks,
            "CCN-201",
            T("{id} may get back {n} blocks at most", id=uid, n=u.start_blocks - u.blocks),
            f"/rally/{uid}",
        )
        used[unit_class(u).value] += int(str(n))
    for cls, n in used.items():
        require(
            n <= state.turn.pool.get(cls, 0),
            "CCN-201",
            T("the dice give {n} blocks of {cls}", n=state.turn.pool.get(cls, 0), cls=cls),
            "/rally",
        )
    for uid, n in given.items():
        state.units[uid].blocks += int(str(n))
    return list(given)


def can_order(state: GameState, side: str, effect: str) -> bool:
    """CCN-11 for the dice cards: whether the roll can order anything."""
    pool = state.turn.pool
    own_units = [u for u in state.units.values() if u.side == side]
    if effect == "elan":
        if pool.get("ANY", 0) and (
            own_units or any(ld.side == side for ld in state.leaders.values())
        ):
            return True
        return any(pool.get(unit_class(u).value, 0) for u in own_units)
    return any(pool.get(cls, 0) and reduced(state, side, cls) for cls in ("INF", "CAV", "ART"))


def random_rally(state: GameState, side: str, order: Sequence[str]) -> dict[str, JSON]:
    """A legal sharing out of the rolled blocks (greedy, in `order`)."""
    left = dict(state.turn.pool)
    out: dict[str, JSON] = {}
    for uid in order:
        u = state.units.get(uid)
        if u is None or u.side != side:
            continue
        cls = unit_class(u).value
        n = min(left.get(cls, 0), u.start_blocks - u.blocks)
        if n > 0:
            out[uid] = n
            left[cls] -= n
    return out
