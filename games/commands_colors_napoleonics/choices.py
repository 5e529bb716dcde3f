"""The legal payloads of an action kind, computed only from what the role may know (its own
hand, the public board): `ActionSpec.choices` and the random player's menu."""

from __future__ import annotations

from games.commands_colors_napoleonics import combat, movement, orders
from games.commands_colors_napoleonics import state as S
from games.commands_colors_napoleonics.card_effects import EFFECTS, fallback_applies, may_order
from games.commands_colors_napoleonics.cards_data import CardKind
from games.commands_colors_napoleonics.deck import command_value
from games.commands_colors_napoleonics.dice_cards import random_rally
from games.commands_colors_napoleonics.illegal import Illegal
from games.commands_colors_napoleonics.section_orders import assign_sections, section_quotas
from games.commands_colors_napoleonics.state import GameState, hex_json
from games.commands_colors_napoleonics.world import unit_at
from games.core.protocol import JSON


def battles(state: GameState, side: str) -> list[dict[str, JSON]]:
    """Every battle the active side may declare now (D-08)."""
    out: list[dict[str, JSON]] = []
    if state.phase != "battle" or state.pending is not None or side != state.active:
        return out
    for uid in state.turn.orders:
        if uid not in state.units or uid in state.turn.battled:
            continue
        targets = [u.id for u in state.units.values() if u.side != side]
        targets += [
            ld.id
            for ld in state.leaders.values()
            if ld.side != side and unit_at(state, ld.hex) is None
        ]
        for tid in targets:
            for kind in ("melee", "ranged"):
                payload: dict[str, JSON] = {"unit": uid, "target": tid, "combat": kind}
                try:
                    combat.check_declaration(state, side, payload)
                except Illegal:
                    continue
                out.append(payload)
                if kind == "melee":
                    out += _combined(state, side, payload)
    return out


def _combined(state: GameState, side: str, payload: dict[str, JSON]) -> list[dict[str, JSON]]:
    """The melee with one ordered artillery unit more (combined arms, CCN-137)."""
    out: list[dict[str, JSON]] = []
    for aid in state.turn.orders:
        a = state.units.get(aid)
        if a is None or aid == payload["unit"] or aid in state.turn.battled:
            continue
        with_art: dict[str, JSON] = {**payload, "artillery": [aid]}
        try:
            combat.check_declaration(state, side, with_art)
        except Illegal:
            continue
        out.append(with_art)
    return out


def moves(state: GameState, side: str, only: str | None = None) -> list[dict[str, JSON]]:
    """Every legal move of the ordered pieces (of `only`, when given)."""
    out: list[dict[str, JSON]] = []
    for pid in state.turn.orders:
        if only is not None and pid != only:
            continue
        if pid in state.turn.done or pid in state.turn.joined:
            continue
        if pid not in state.units and pid not in state.leaders:
            continue
        for path in movement.paths(state, pid):
            out.append({"piece": pid, "path": [hex_json(h) for h in path]})
        if pid in state.units and movement.exit_objective(state, state.units[pid]) is not None:
            for path in movement.paths(state, pid):
                payload: dict[str, JSON] = {
                    "piece": pid,
                    "path": [hex_json(h) for h in path],
                    "exit": True,
                }
                try:
                    movement.exit_check(state, pid, path)
                except Illegal:
                    continue
                out.append(payload)
    return out


ORDERINGS = 6  # complete orders listed per card, besides ordering nothing


def _legal(state: GameState, side: str, payload: dict[str, JSON]) -> bool:
    try:
        orders.give_orders(S.clone(state), side, payload)
    except Illegal:
        return False
    return True


def _payload(base: JSON, chosen: list[str], state: GameState) -> dict[str, JSON]:
    assert isinstance(base, dict)
    payload = dict(base)
    units = [p for p in chosen if p in state.units]
    leaders = [p for p in chosen if p in state.leaders]
    if units:
        payload["units"] = list[JSON](units)
    if leaders:
        payload["leaders"] = list[JSON](leaders)
    return payload


def _section_orderings(state: GameState, side: str, own: list[str]) -> list[JSON]:
    """Up to ORDERINGS orders that fill the section card's quotas greedily (CCN-14, CCN-185),
    each starting from another own piece, so a client choosing from the list moves its army."""
    c = orders.card(str(orders.acting(state)))
    quotas = section_quotas(c.section_orders(), command_value(state.deck, side))
    inside = orders._in_section(state, side)
    pool = [p for p in own if p in state.units] + [
        p for p in own if p in state.leaders and orders._lone(state, p)
    ]
    found: list[JSON] = []
    for k in range(min(len(pool), ORDERINGS)):
        chosen: list[str] = []
        for p in pool[k:] + pool[:k]:
            if assign_sections([*chosen, p], quotas, inside) is not None:  # type: ignore[arg-type]
                chosen.append(p)
        payload = _payload({}, chosen, state)
        if chosen and payload not in found and _legal(state, side, payload):
            found.append(payload)
    return found


def _tactic_orderings(
    state: GameState, side: str, bases: list[JSON], pieces: list[str]
) -> list[JSON]:
    """Up to ORDERINGS orders of the tactic card: for each base payload and each starting
    piece, the most eligible pieces (4 down to 1) that the card's rules accept."""
    units = [p for p in pieces if p in state.units]
    found: list[JSON] = []
    for base in bases:
        for k in range(len(units)):
            turned = units[k:] + units[:k]
            for n in (4, 3, 2, 1):
                payload = _payload(base, turned[:n], state)
                if payload not in found and _legal(state, side, payload):
                    found.append(payload)
                    break
            if len(found) >= ORDERINGS:
                return found
    return found


def order_candidates(state: GameState, side: str) -> dict[str, JSON]:
    """What the played card may order: ordering nothing, a few complete orders that move the
    army (`_section_orderings`, `_tactic_orderings`), and the eligible pieces (the full set of
    combinations is not listed)."""
    code = orders.acting(state)
    assert code is not None
    c = orders.card(code)
    own = orders.own_pieces(state, side)
    base: list[JSON] = [{}]
    if c.kind is CardKind.SECTION:
        listed = [*_section_orderings(state, side, own), *base]
        return {"payloads": listed, "complete": False, "pieces": list[JSON](own)}
    eff = c.effect
    assert eff is not None
    if eff == "la_grande_manoeuvre":
        base = [{"mode": "strategic"}, {"mode": "one_unit"}]
    elif eff == "short_supply":
        targets = [u.id for u in state.units.values() if u.in_square is None]
        return {"payloads": [{"short_supply": t} for t in targets], "complete": True}
    elif eff == "rally":
        units = [u for u in own if u in state.units]
        base = [{}, {"rally": random_rally(state, side, units)}]
        return {"payloads": base, "complete": False, "pool": dict[str, JSON](state.turn.pool)}
    elif eff == "elan":
        return {
            "payloads": base,
            "complete": False,
            "pieces": list[JSON](own),
            "pool": dict[str, JSON](state.turn.pool),
        }
    elif eff == "force_march" and not _fallback(state, side, eff):
        base = [{"section": s} for s in ("LEFT", "CENTER", "RIGHT")]
    pieces = [p for p in own if may_order(eff, orders.piece_of(state, p))]
    listed = [*_tactic_orderings(state, side, base, pieces), *base]
    return {"payloads": listed, "complete": False, "pieces": list[JSON](pieces)}


def _fallback(state: GameState, side: str, eff: str) -> bool:
    own = [orders.piece_of(state, p) for p in orders.own_pieces(state, side)]
    units = [p for p in own if not p.is_leader]
    return fallback_applies(eff, units if EFFECTS[eff].group != "leader" else own)


def choices(state: GameState, role: str, kind: str) -> JSON:
    side = role
    if kind == "play_card":
        return {"payloads": [{"card": c} for c in orders.playable(state, side)], "complete": True}
    if kind == "give_orders":
        return order_candidates(state, side)
    if kind == "move":
        return {"payloads": list[JSON](moves(state, side)), "complete": True}
    if kind in ("end_moves", "end_battles"):
        return {"payloads": [{}], "complete": True}
    if kind == "battle":
        return {"payloads": list[JSON](battles(state, side)), "complete": True}
    if state.combat is None and kind not in ("scout_keep", "supply_place"):
        return None
    if kind == "retreat":
        assert state.combat is not None
        return {
            "payloads": list[JSON](combat.retreat_options(state, state.combat)),
            "complete": True,
        }
    if kind == "leader_retreat":
        assert state.pending is not None
        lid = str(state.pending["leader"])
        return {"payloads": list[JSON](combat.leader_choices(state, lid)), "complete": True}
    if kind == "take_ground":
        return {"payloads": list[JSON](combat.advance_choices(state)), "complete": True}
    if kind == "bonus_melee":
        bonus: list[JSON] = [{"target": None}, *combat.bonus_options(state)]
        return {"payloads": bonus, "complete": True}
    if kind == "battle_back":
        return {"payloads": [{"battle": True}, {"battle": False}], "complete": True}
    if kind == "melee_response":
        answers: list[JSON] = [{"response": r} for r in combat.response_choices(state)]
        return {"payloads": answers, "complete": True}
    if kind == "retire":
        return {"payloads": list[JSON](combat.retire_choices(state)), "complete": True}
    if kind == "supply_place":
        from games.commands_colors_napoleonics import supply

        return {"payloads": list[JSON](supply.choices(state)), "complete": True}
    if kind == "scout_keep":
        pair = state.deck.scout.get(side, ())
        return {"payloads": [{"card": c} for c in dict.fromkeys(pair)], "complete": True}
    return None
