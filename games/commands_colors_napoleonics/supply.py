"""Short Supply (digest 3.22, CCN-202, AMB-24): the card's owner picks one unit of either side,
not in square (CCN-136) (D-05, given as `give_orders.short_supply`); its owner moves it to an
empty hex of its own baseline in the same section, else the row in front, else the next row
towards the centre (AMB-24) (D-06, `supply_place`); an attached leader goes with it. The card
orders nothing else."""

from __future__ import annotations

from games.commands_colors_napoleonics.board import Side
from games.commands_colors_napoleonics.hexes import Hex
from games.commands_colors_napoleonics.illegal import require
from games.commands_colors_napoleonics.state import GameState, hex_json, hex_of
from games.commands_colors_napoleonics.world import (
    attached,
    leader_at,
    scen,
    sections,
    unit_at,
    unit_class,
)
from games.core.i18n import T
from games.core.protocol import JSON


def places(state: GameState, uid: str) -> list[Hex]:
    """The hexes the unit may be put on: the first row from its baseline that has an empty hex
    in one of its sections (a dual hex: either, AMB-24)."""
    u = state.units[uid]
    s = scen(state)
    side = Side(u.side)
    mine = sections(state, u.hex, u.side)
    row, step = s.board.baselines[side], -s.board.home_step(side)
    while 0 <= row < s.board.grid.rows:
        found = [
            h
            for h in s.board.grid
            if h.row == row
            and h != u.hex
            and unit_at(state, h) is None
            and leader_at(state, h) is None
            and s.terrain_at(h).may_enter(unit_class(u))
            and sections(state, h, u.side) & mine
        ]
        if found:
            return sorted(found)
        row += step
    return []


def pick(state: GameState, side: str, uid: str) -> None:
    """D-05: the unit picked (any side, not a square)."""
    u = state.units.get(uid)
    require(
        u is not None, "CCN-202", T("{id} is not a unit on the board", id=uid[:40]), "/short_supply"
    )
    assert u is not None
    require(
        u.in_square is None,
        "CCN-136",
        T("a square cannot be picked for Short Supply"),
        "/short_supply",
    )
    state.turn.orders = []
    if u.side == side:
        state.turn.no_battle.append(uid)  # CCN-202: it may not battle this turn
    state.pending = {"kind": "supply_place", "side": u.side, "unit": uid}
    if len(places(state, uid)) <= 1:
        place(state, {"hex": hex_json(places(state, uid)[0]) if places(state, uid) else None})


def choices(state: GameState) -> list[dict[str, JSON]]:
    assert state.pending is not None
    return [{"hex": hex_json(h)} for h in places(state, str(state.pending["unit"]))]


def place(state: GameState, answer: dict[str, JSON]) -> None:
    """D-06: the owner's choice of hex; with none free the card has no effect (AMB-24)."""
    assert state.pending is not None
    uid = str(state.pending["unit"])
    options = places(state, uid)
    if options:
        require(
            {"hex": answer.get("hex")} in choices(state),
            "CCN-202",
            T("not a hex the unit may be put on"),
            "/hex",
        )
        u = state.units[uid]
        ld = attached(state, u)
        start = u.hex
        u.hex = hex_of(answer["hex"])
        if ld is not None and ld.hex == start:
            ld.hex = u.hex
    state.pending = None
