"""What each role may see (digest 2.5): the only way state leaves the engine.

Own units carry their ids and faces. Enemy units carry a per-viewer alias that changes at every
turn end (V-1, V-2) and a face only while revealed (V-5). Lists of enemy units are sorted by alias,
so no order betrays an internal id. Standing instructions, committed-but-unrevealed leading units
and the alias salt never appear in another side's view.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable

from games.core.protocol import JSON, OBSERVER, OMNISCIENT
from games.napoleons_triumph.auction import high_bid, max_bid
from games.napoleons_triumph.context import Ctx, unit_alias
from games.napoleons_triumph.movement import LOCAL_ROAD_REACH, MAIN_ROAD_REACH
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.state import AL, MAP, OFFMAP, POOL, Attack, F, GameState, Unit


def viewer_side(state: GameState, role: str) -> str | None:
    """A side for a player role; None for the omniscient reader; OBSERVER for spectators."""
    if role == OMNISCIENT:  # NT-147: any other non-player role is a spectator (OBSERVER)
        return None
    return state.roles.get(role, OBSERVER)


def _pos(u: Unit) -> JSON:
    return {"locale": u.loc, "approach": u.app}


def _sorted_by_id(views: Iterable[dict[str, JSON]]) -> list[JSON]:
    out = sorted(views, key=lambda d: str(d["id"]))
    return jlist(out)


def unit_view(state: GameState, viewer: str | None, u: Unit) -> dict[str, JSON]:
    own = viewer is None or viewer == u.side
    out: dict[str, JSON] = {
        "id": u.id if own else unit_alias(state, viewer or OBSERVER, u.id),
        "side": u.side,
        "position": _pos(u),
        "corps": u.corps,  # NT-30: corps membership is public
        "face": {"type": u.type, "strength": u.strength}  # NT-4: owner, or shown
        if own or u.revealed or state.phase == "over"
        else None,
    }
    if u.fixed:
        out["fixed_battery"] = True
    if own:
        out["moves"] = u.moves
        out["named_via"] = list(u.named_via)
        out["retreated"] = u.retreated
        out["arrived"] = u.arrived  # NT-62(a): entered as a reinforcement this turn
    return out


def ref(state: GameState, viewer: str | None, piece: str) -> str:
    """How a viewer names a piece: commanders by id, own units by id, enemy units by alias."""
    if piece in state.units:
        u = state.units[piece]
        if viewer is None or viewer == u.side:
            return piece
        return unit_alias(state, viewer, piece)
    return piece


def attack_view(state: GameState, viewer: str | None, atk: Attack) -> dict[str, JSON]:
    def refs(ids: list[str]) -> list[JSON]:
        return jlist(sorted(ref(state, viewer, x) for x in ids))

    defender = AL if atk.attacker == F else F
    out: dict[str, JSON] = {
        "id": atk.id,
        "attacker": atk.attacker,
        "attack_locale": atk.att_locale,
        "defense_locale": atk.def_locale,
        "approach": atk.approach,
        "step": atk.step,
        "guard_attack": atk.guard_attack,
        "vacated": atk.vacated,
        "named": refs(atk.named),
        "defenders_blocking": atk.def_blocking,
        "feint": atk.feint,
        "attackers": refs(atk.attackers),
        "attack_commanders": list(atk.att_commanders),
        "width": atk.width,
        "attack_leading": refs(atk.att_leading),
        "defense_leading": refs(atk.def_leading),
        "artillery": atk.artillery,
        "preliminary": atk.prelim,
        "counter": refs(atk.counter),
        "final": atk.final,
        "winner": atk.winner,
    }
    if viewer is None or viewer == defender:
        out["committed_leading"] = refs(atk.committed_leading)  # hidden from A until step (4)
    return out


def pending_view(state: GameState, viewer: str | None) -> JSON:
    p = state.pending
    if p is None:
        return None
    out: dict[str, JSON] = {"side": p.side, "decision": p.kind}
    if viewer is None or viewer == p.side:
        data: dict[str, JSON] = {}
        for k, v in p.data.items():
            if k == "candidates" and isinstance(v, list):
                data[k] = [ref(state, viewer, str(x)) for x in v]
            else:
                data[k] = copy.deepcopy(v)
        out["data"] = data
    return out


def auction_view(state: GameState) -> JSON:
    auction = state.auction
    assert auction is not None
    out = copy.deepcopy(auction)
    out["high_bid"] = high_bid(auction)
    out["max_bid"] = max_bid(state)
    return out


def ride_on_view(state: GameState, viewer: str | None) -> JSON:
    """An open ride-on (NT-98): the road attack's cavalry may still move on by road. Public, like
    the road attack that opened it: the units (own ids, enemy aliases), where they stand, the
    road strand they are on, the locales entered so far and how many are left (NT-51)."""
    ride = state.ride_on
    if ride is None:
        return None
    units = ride["units"]
    assert isinstance(units, list)
    entered = ride["entered"]
    assert isinstance(entered, int)
    reach = MAIN_ROAD_REACH if ride["main_only"] else LOCAL_ROAD_REACH
    return {
        "side": ride["side"],
        "command": ride["kind"],
        "commander": ride["commander"],
        "units": jlist(sorted(ref(state, viewer, str(u)) for u in units)),
        "locale": ride["locale"],
        "strand": ride["strand"],
        "entered": entered,
        "main_only": ride["main_only"],
        "road_left": max(0, reach - entered),
    }


def view(ctx: Ctx, role: str) -> JSON:
    state = ctx.state
    viewer = viewer_side(state, role)
    units_map = [u for u in state.units.values() if u.where == MAP]
    own_units = [
        unit_view(state, viewer, u) for u in units_map if viewer is None or u.side == viewer
    ]
    enemy_units = [
        unit_view(state, viewer, u) for u in units_map if viewer is not None and u.side != viewer
    ]
    own_units.sort(key=lambda d: str(d["id"]))
    enemy_units.sort(key=lambda d: str(d["id"]))
    commanders: list[JSON] = [
        {
            "id": c.id,
            "side": c.side,
            "status": c.where,
            "position": {"locale": c.loc, "approach": c.app} if c.where == MAP else None,
            "units_on_map": len([u for u in units_map if u.corps == c.id]),
            "commands_given": c.commands,
            "arrived": c.arrived,  # NT-62(b): entered this turn (public, like the entry)
        }
        for c in sorted(state.commanders.values(), key=lambda c: c.id)
    ]
    offmap: dict[str, JSON] = {}
    for side in (AL, F):
        waiting = [u for u in state.units.values() if u.side == side and u.where == OFFMAP]
        if viewer is None or viewer == side:
            offmap[side] = [
                {
                    "commander": cid,
                    "units": _sorted_by_id(
                        unit_view(state, viewer, u) for u in waiting if u.corps == cid
                    ),
                }
                for cid in sorted({str(u.corps) for u in waiting})
            ]
        else:  # AMB-3: the size of a waiting corps is public, its faces are not
            sizes = Counter(str(u.corps) for u in waiting)
            offmap[side] = [{"commander": cid, "units": n} for cid, n in sorted(sizes.items())]
    army: dict[str, JSON] = {}
    for side in (AL, F):  # NT-20: each side's order of battle is public
        faces = Counter(
            f"{u.type}{u.strength}"
            for u in state.units.values()
            if u.side == side and u.where != "dead"
        )
        army[side] = dict(sorted(faces.items()))
    pool: list[JSON] = []
    if viewer is None or viewer in (AL, F):
        pool = [
            unit_view(state, viewer, u)
            for u in sorted(state.units.values(), key=lambda u: u.id)
            if u.where == POOL and (viewer is None or u.side == viewer)
        ]
    rounds = ctx.board.scenarios[state.scenario].rounds
    rd = rounds[state.round - 1]
    commands: list[JSON] = []
    for rec in state.turn.commands:
        r = dict(rec)
        if isinstance(r.get("units"), list):
            ids = [str(x) for x in r["units"]]  # type: ignore[union-attr]
            r["units"] = jlist(sorted(ref(state, viewer, x) for x in ids))
        if isinstance(r.get("unit"), str):
            r["unit"] = ref(state, viewer, str(r["unit"]))
        commands.append(r)
    out: dict[str, JSON] = {
        "ruleset": "napoleons_triumph",
        "board": state.board,
        "scenario": state.scenario,
        "viewer": {"role": role, "side": viewer},
        "phase": state.phase,
        "round": {
            "index": state.round,
            "of": len(rounds),
            "day": rd.day,
            "hour": rd.hour,
            "night": rd.night,
        },
        "active": state.active,
        "morale": dict(state.morale),
        "elite_committed": {k: list(v) for k, v in state.elite_committed.items()},
        "guard_attack_banned": dict(state.guard_banned),
        "french_reinforcements_entered": state.reinforcements_entered,
        "commands_this_turn": {
            "independent": state.turn.independent_used,
            "allied_corps": state.turn.corps_used,
            "log": commands,
        },
        "locks": {
            "road": jlist(sorted(state.turn.road_locked)),
            "reserve_entered": jlist(sorted(state.turn.reserve_entered)),  # NT-54(a)
            "conquered": jlist(sorted(state.turn.conquered)),
            "closed_approaches": jlist(sorted(state.turn.closed)),
        },
        "units": jlist(own_units),
        "enemy_units": jlist(enemy_units),
        "commanders": commanders,
        "offmap": offmap,
        "order_of_battle": army,
        "pool": pool,
        "attack": None if state.attack is None else attack_view(state, viewer, state.attack),
        "pending": pending_view(state, viewer),
        "ride_on": ride_on_view(state, viewer),
        "result": state.result,
    }
    if state.auction is not None:  # NT-134, NT-135: the auction is public (bids in turn, L637)
        out["auction"] = auction_view(state)
    if viewer is not None and viewer in state.plans:
        out["standing_instructions"] = copy.deepcopy(state.plans[viewer])
    elif viewer is None:
        everyone: dict[str, JSON] = {s: copy.deepcopy(plan) for s, plan in state.plans.items()}
        out["standing_instructions"] = everyone
    return out
