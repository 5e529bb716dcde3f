"""A random legal player, biased towards the enemy so random games reach a result: it plays a
card, orders as many pieces as the card allows, mostly moves towards the nearest enemy, always
battles when it can, and answers decisions at random."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commands_colors_napoleonics import orders
from games.commands_colors_napoleonics.cards_data import CardKind
from games.commands_colors_napoleonics.choices import battles, choices, moves
from games.commands_colors_napoleonics.deck import command_value
from games.commands_colors_napoleonics.dice_cards import elan_fits, random_rally
from games.commands_colors_napoleonics.hexes import Hex, distance
from games.commands_colors_napoleonics.section_orders import assign_sections, section_quotas
from games.commands_colors_napoleonics.state import GameState, hex_of
from games.core.protocol import JSON, Action, Role
from games.core.rng import Rng

if TYPE_CHECKING:
    from games.commands_colors_napoleonics.rules import CommandsColorsNapoleonics


def _orders(rules: CommandsColorsNapoleonics, state: GameState, side: str, rng: Rng) -> JSON:
    code = orders.acting(state)
    assert code is not None
    c = orders.card(code)
    own = orders.own_pieces(state, side)
    rng.shuffle(own)
    units = [p for p in own if p in state.units]
    lone = [p for p in own if p in state.leaders and orders._lone(state, p)]
    if c.kind is CardKind.SECTION:
        quotas = section_quotas(c.section_orders(), command_value(state.deck, side))
        chosen: list[str] = []
        for p in units + lone:
            if assign_sections([*chosen, p], quotas, orders._in_section(state, side)) is not None:  # type: ignore[arg-type]
                chosen.append(p)
        picked: dict[str, JSON] = {
            "units": [p for p in chosen if p in state.units],
            "leaders": [p for p in chosen if p in state.leaders],
        }
        squares = [p for p in chosen if p in state.units and state.units[p].in_square]
        if squares and rng.below(2):
            leave = {**picked, "leave_square": list[JSON](squares[:1])}
            if not rules.validate(state, Action(side, "give_orders", leave)):
                return leave
        return picked
    if c.effect == "elan":  # as many pieces as the faces order (CCN-194)
        got_u: list[str] = []
        got_l: list[str] = []
        for p in units:
            if elan_fits(state, [*got_u, p], got_l):
                got_u.append(p)
        for p in lone:
            if elan_fits(state, got_u, [*got_l, p]):
                got_l.append(p)
        return {"units": list[JSON](got_u), "leaders": list[JSON](got_l)}
    if c.effect == "short_supply":  # an enemy unit, mostly (CCN-202)
        menu_s = choices(state, side, "give_orders")
        assert isinstance(menu_s, dict)
        targets = menu_s["payloads"]
        assert isinstance(targets, list)
        return targets[rng.below(len(targets))] if targets else {}
    if c.effect == "rally":  # the rolled blocks shared out (CCN-201)
        return {"rally": random_rally(state, side, units)}
    menu = choices(state, side, "give_orders")
    assert isinstance(menu, dict)
    listed = menu["payloads"]
    assert isinstance(listed, list)  # the bases: the listed payloads that order no piece yet
    bases = [b for b in listed if isinstance(b, dict) and not ({"units", "leaders"} & set(b))]
    base = bases[rng.below(len(bases))]
    assert isinstance(base, dict)
    pieces = menu["pieces"]
    assert isinstance(pieces, list)
    for n in (4, 3, 2, 1, 0):  # the largest legal set of eligible pieces first
        pick = [str(p) for p in pieces if p in state.units][:n]
        payload = dict(base)
        if pick:
            payload["units"] = list[JSON](pick)
        if not rules.validate(state, Action(side, "give_orders", payload)):
            return payload
        if units and n == 1:
            one: dict[str, JSON] = {**base, "units": [units[0]]}
            if not rules.validate(state, Action(side, "give_orders", one)):
                return one
    return dict(base)


def _nearest_enemy(state: GameState, side: str, h: Hex) -> int:
    return min((distance(h, u.hex) for u in state.units.values() if u.side != side), default=0)


def random_action(
    rules: CommandsColorsNapoleonics, state: GameState, role: Role, rng: Rng
) -> Action | None:
    prompt = rules.prompts(state).get(role)
    if prompt is None:
        return None
    kinds = list(prompt.kinds)
    side = role
    if state.pending is not None:
        kind = kinds[0]
        menu = choices(state, role, kind)
        assert isinstance(menu, dict)
        answers = menu["payloads"]
        assert isinstance(answers, list)
        assert answers
        if kind == "battle_back":
            return Action(role, kind, {"battle": rng.below(5) > 0})
        if kind == "melee_response" and rng.below(3) > 0:
            return Action(role, kind, {"response": "none"})
        return Action(role, kind, answers[rng.below(len(answers))])
    if state.phase == "card":
        hand = orders.playable(state, side)
        return Action(role, "play_card", {"card": hand[rng.below(len(hand))]})
    if state.phase == "orders":
        return Action(role, "give_orders", _orders(rules, state, side, rng))
    if state.phase == "move":
        pieces = [p for p in state.turn.orders if p not in state.turn.done]
        rng.shuffle(pieces)
        real: list[dict[str, JSON]] = []
        for pid in pieces:
            real = [o for o in moves(state, side, pid) if o["path"] or o.get("exit")]
            if real:
                break
        if not real or rng.below(8) == 0:
            return Action(role, "end_moves", {})
        exits = [o for o in real if o.get("exit")]
        if exits:
            return Action(role, "move", exits[rng.below(len(exits))])
        pid = str(real[rng.below(len(real))]["piece"])
        mine = [o for o in real if o["piece"] == pid]

        def score(o: dict[str, JSON]) -> int:
            path = o["path"]
            assert isinstance(path, list)
            return _nearest_enemy(state, side, hex_of(path[-1]))

        if rng.below(5) > 0:
            best = min(score(o) for o in mine)
            mine = [o for o in mine if score(o) == best]
        return Action(role, "move", mine[rng.below(len(mine))])
    if state.phase == "battle":
        fights = battles(state, side)
        if not fights or rng.below(12) == 0:
            return Action(role, "end_battles", {})
        return Action(role, "battle", fights[rng.below(len(fights))])
    return None
