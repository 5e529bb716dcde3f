"""What a role sees (digest 4.6).

`visibility: open` (the default): the whole table, every unit, casualty marker, leader,
objective and setback; the discard piles. Fate hands are secret (VF-36): a side sees its own
hand and the other's count; no one but the omniscient reader (the umpire) sees a deck's order.
The order sheet being executed and the facts put to the umpire are shown to the side that wrote
it and to the umpire only (the sheet is sealed until it is resolved).

`visibility: umpire_filtered` (4.6, "MAY hide enemy units outside any friendly unit's LOS"):
the umpire (the omniscient reader) sees everything. A side sees its own units and those enemy
units on the table to which at least one of its own units on the table has a line of sight
(VF-43 front arc and VF-44 sight line, the geometry aid's `line_of_sight`); every other enemy
unit (fled ones too) is left out, and only its id is listed in `hidden_units`. Readings (4.6
leaves them open, README "Readings"): only the side's own units and the terrain block the sight
lines measured for this view (an enemy unit never hides another one, so nothing the side cannot
see shapes what it sees); leaders, brigades, objectives, setbacks and fate counts stay open
(4.6 names units only); the queue of steps and the pending proposals (which name and measure
enemy units) are the umpire's alone; a role that is no side sees no unit at all.
"""

from __future__ import annotations

from games.core.protocol import JSON, OMNISCIENT
from games.valour_fortitude.match import Match, on_table
from games.valour_fortitude.sight_lines import line_of_sight
from games.valour_fortitude.state import GameState

OPEN, FILTERED = "open", "umpire_filtered"


def view(match: Match, role: str) -> JSON:
    game = match.game
    data = match.game_json()
    assert isinstance(data, dict)
    sides = data["sides"]
    assert isinstance(sides, list)
    for side in sides:
        assert isinstance(side, dict)
        fate = side["fate"]
        assert isinstance(fate, dict)
        deck, hand = fate["deck"], fate["hand"]
        assert isinstance(deck, list)
        assert isinstance(hand, list)
        fate["deck_count"] = len(deck)
        fate["hand_count"] = len(hand)
        if role != OMNISCIENT:
            fate["deck"] = None
            if role != side["id"]:
                fate["hand"] = None
    flow = match.flow
    active = game.turn.active_side
    insider = role in (OMNISCIENT, active)
    filtered = flow.get("visibility") == FILTERED and role != OMNISCIENT
    out: dict[str, JSON] = {
        "ruleset": "valour_fortitude",
        "role": role,
        "stage": match.stage,
        "auto_geometry": match.auto_geometry,
        "visibility": FILTERED if flow.get("visibility") == FILTERED else OPEN,
        "initiative": flow.get("initiative"),
        "game": data,
        "sheet": flow.get("sheet") if insider else None,
        "queue": flow.get("queue") if insider and not filtered else None,
        "pending": flow.get("pending") if insider and not filtered else None,
        "attacked": flow.get("attacked"),
        "result": flow.get("result"),
        "strike_back": _policies(flow.get("strike_back"), role),  # V-09: each side its own
    }
    if filtered:
        seen = visible_units(game, role)
        units = data["units"]
        assert isinstance(units, list)
        data["units"] = [u for u in units if isinstance(u, dict) and u["id"] in seen]
        out["hidden_units"] = list[JSON](sorted(u.id for u in game.units if u.id not in seen))
        attacked = flow.get("attacked")
        out["attacked"] = [a for a in attacked if a in seen] if isinstance(attacked, list) else []
    return out


def _policies(found: JSON, role: str) -> JSON:
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if role in (OMNISCIENT, k)}


def visible_units(game: GameState, side: str) -> frozenset[str]:
    """4.6 `umpire_filtered`: the ids of the units `side` sees: its own, and each enemy unit on
    the table to which one of its own units on the table has a line of sight (VF-43, VF-44),
    only its own units blocking the sight lines."""
    own = [u for u in game.units if u.side == side]
    eyes = [u for u in own if on_table(u) and (u.bases or u.occupying)]
    seen = {u.id for u in own}
    for enemy in game.units:
        if enemy.side == side or not on_table(enemy):
            continue
        if any(line_of_sight(e, enemy, [*eyes, enemy], game.terrain).value for e in eyes):
            seen.add(enemy.id)
    return frozenset(seen)
