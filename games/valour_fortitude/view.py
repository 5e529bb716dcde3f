"""What a role sees (digest 4.6, `visibility: open`): the whole table, every unit, casualty
marker, leader, objective and setback; the discard piles. Fate hands are secret (VF-36): a side
sees its own hand and the other's count; no one but the omniscient reader (the umpire) sees a
deck's order. The order sheet being executed and the facts put to the umpire are shown to the
side that wrote it and to the umpire only (the sheet is sealed until it is resolved)."""

from __future__ import annotations

from games.core.protocol import JSON, OMNISCIENT
from games.valour_fortitude.match import Match


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
    return {
        "ruleset": "valour_fortitude",
        "role": role,
        "stage": match.stage,
        "auto_geometry": match.auto_geometry,
        "initiative": flow.get("initiative"),
        "game": data,
        "sheet": flow.get("sheet") if insider else None,
        "queue": flow.get("queue") if insider else None,
        "pending": flow.get("pending") if insider else None,
        "attacked": flow.get("attacked"),
        "result": flow.get("result"),
    }
