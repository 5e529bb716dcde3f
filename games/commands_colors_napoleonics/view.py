"""What a role sees (digest 2.12, 4.3): the public board in the ccn-scenario/1 shape of the
scenario file (the contract with the board drawing: `map` with `board`, `terrain`, `units`,
`leaders`), the deck as `deck_view` shows it to that role (its own hand only), banners, the
phase, the open decision and the last dice. Another side's standing choices are never shown."""

from __future__ import annotations

import copy
from functools import cache

import yaml

from games.commands_colors_napoleonics.deck_view import deck_view
from games.commands_colors_napoleonics.documents import parsed
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR
from games.commands_colors_napoleonics.state import SIDES, GameState, hex_json
from games.commands_colors_napoleonics.victory import total
from games.commands_colors_napoleonics.world import attached, scen, shipped
from games.core.protocol import JSON


def _source(state: GameState) -> tuple[JSON, JSON]:
    """The scenario file's (or document's) `board` and `terrain` entries, unchanged."""
    if state.document is not None:
        found = parsed(state.document)
        return copy.deepcopy(found.board), copy.deepcopy(found.terrain)
    return _shipped_source(state.scenario)


@cache
def _shipped_source(scenario_id: str) -> tuple[JSON, JSON]:
    stem = shipped().get(scenario_id, scenario_id)
    doc = yaml.safe_load((SCENARIOS_DIR / f"{stem}.yaml").read_text(encoding="utf-8"))
    return doc.get("board"), doc.get("terrain", [])


def view(state: GameState, role: str) -> JSON:
    s = scen(state)
    board, terrain = _source(state)
    viewer = role if role in SIDES else None
    units: list[JSON] = []
    for u in state.units.values():
        entry_u: dict[str, JSON] = {
            "id": u.id,
            "side": u.side,
            "nation": u.nation,
            "type": u.type,
            "hex": hex_json(u.hex),
            "blocks": u.blocks,
        }
        if u.in_square is not None:
            entry_u["in_square"] = True
        units.append(entry_u)
    leaders: list[JSON] = []
    for ld in state.leaders.values():
        entry: dict[str, JSON] = {"id": ld.id, "side": ld.side, "hex": hex_json(ld.hex)}
        host = next((u for u in state.units.values() if attached(state, u) is ld), None)
        if host is not None:
            entry["attached_to"] = host.id
        leaders.append(entry)
    pending: JSON = None
    if state.pending is not None:
        pending = dict(state.pending)
    out: dict[str, JSON] = {
        "role": viewer,
        "map": {"board": board, "terrain": terrain, "units": units, "leaders": leaders},
        "deck": deck_view(state.deck, viewer),
        "scenario": s.id,
        "title": s.title,
        "sides": {
            side.value: {
                "army": info.army,
                "banners": total(state, side.value),
                "victory_banners": info.victory_banners,
            }
            for side, info in s.sides.items()
        },
        "objectives_held": dict(state.held),
        "active": state.active,
        "turn": state.turn_no,
        "phase": state.phase,
        "card": state.turn.card,
        "acts_as": state.turn.acts_as,
        "pool": dict[str, JSON](state.turn.pool),
        "orders": list(state.turn.orders),
        "moved": dict(state.turn.moved),
        "done": list(state.turn.done),
        "battled": list(state.turn.battled),
        "pending": pending,
        "combat": None if state.combat is None else dict(state.combat),
        "last_roll": list(state.last_roll),
        "gone": list(state.gone),
        "result": None if state.result is None else dict(state.result),
    }
    if viewer is not None:
        out["policy"] = dict(state.policies.get(viewer, {}))
    return out
