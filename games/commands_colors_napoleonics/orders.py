"""Phases 1 and 2: playing a card (CCN-9..11, 3.22) and ordering units and leaders (CCN-12..22,
CCN-185..200), and what an ordered piece may then do (the card's move rules, CCN-31).

Cards whose effect is not built are refused with their rule id (`NOT_BUILT`). So that a player
always has a legal play, a hand holding only such cards may play one of them without effect: the
engine cannot carry it out, so it orders nothing and the turn goes to phase 5 as CCN-11 says
for a card that can order nothing (logged with the card's rule id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.commands_colors_napoleonics import supply
from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.card_effects import (
    EFFECTS,
    After,
    MoveRule,
    Piece,
    fallback_applies,
    in_group,
    may_order,
    move_rules,
)
from games.commands_colors_napoleonics.cards_data import BASE, Card, CardKind, Detach
from games.commands_colors_napoleonics.deck import (
    command_value,
    from_square_track,
    play,
    reshuffle_all,
)
from games.commands_colors_napoleonics.dice_cards import (
    DICE_CARDS,
    can_order,
    elan_orders_check,
    pool_of,
    rally,
)
from games.commands_colors_napoleonics.illegal import Illegal, require
from games.commands_colors_napoleonics.rolls import current_rng, roll_for
from games.commands_colors_napoleonics.section_orders import assign_sections, section_quotas
from games.commands_colors_napoleonics.state import GameState, other
from games.commands_colors_napoleonics.terrain import UnitClass
from games.commands_colors_napoleonics.units import UNIT_TYPES
from games.commands_colors_napoleonics.world import (
    adjacent_enemies,
    attached,
    scen,
    sections,
    unit_at,
    unit_class,
)
from games.core.i18n import T
from games.core.protocol import JSON

# Tactic cards whose effect is not built yet -> the rule refused.
NOT_BUILT: Mapping[str, str] = {}
FIRST_STRIKE = "first_strike"  # a reaction (CCN-146); in phase 1 only per AMB-19


def card(code: str) -> Card:
    return BASE.cards[code]


def effect_of(code: str | None) -> str | None:
    return None if code is None else card(code).effect


def acting(state: GameState) -> str | None:
    """The card as carried out this turn: a Counter-attack's copy, else the card played."""
    return state.turn.acts_as or state.turn.card


def copied(state: GameState, side: str) -> str | None:
    """What a Counter-attack of `side` becomes (CCN-193, AMB-19): the card the opponent played
    in phase 1 of its last turn (as carried out), a section card with left and right swapped;
    None (it orders nothing) with no such card or a First Strike."""
    last = state.last_card.get(other(side))
    if last is None or effect_of(last) == FIRST_STRIKE:
        return None
    return BASE.mirrored(last)


def _built(state: GameState, side: str, code: str) -> bool:
    eff = effect_of(code)
    if eff == "counter_attack":
        copy = copied(state, side)
        return copy is None or _built(state, side, copy)
    return eff is None or (eff not in NOT_BUILT and eff != FIRST_STRIKE)


def playable(state: GameState, side: str) -> list[str]:
    """The cards `side` may play now (CCN-9, AMB-19, the not-built fallback above)."""
    hand = list(dict.fromkeys(state.deck.hand(side)))
    built = [c for c in hand if _built(state, side, c)]
    if built:
        return built
    return hand  # only First Strike (AMB-19) or cards not built: played without effect


def piece_of(state: GameState, pid: str) -> Piece:
    if pid in state.leaders:
        return Piece(pid)
    u = state.units[pid]
    return Piece(
        pid,
        u.type,
        unit_class(u),
        has_leader=attached(state, u) is not None,
        in_square=u.in_square is not None,
        adjacent_enemy=bool(adjacent_enemies(state, u.hex, u.side)),
    )


def own_pieces(state: GameState, side: str) -> list[str]:
    return [u.id for u in state.units.values() if u.side == side] + [
        ld.id for ld in state.leaders.values() if ld.side == side
    ]


def _in_section(state: GameState, side: str) -> object:
    def f(pid: str, section: Section) -> bool:
        h = state.units[pid].hex if pid in state.units else state.leaders[pid].hex
        return section in sections(state, h, side)

    return f


def play_card(state: GameState, side: str, code: str) -> bool:
    """Phase 1. Returns True when the card orders nothing (CCN-11: straight to phase 5)."""
    require(state.phase == "card", "CCN-7", T("a card is played in phase 1 only"), "/card")
    require(
        code in state.deck.hand(side), "CCN-9", T("{card} is not in your hand", card=code), "/card"
    )
    eff = effect_of(code)
    if code not in playable(state, side):
        if eff == FIRST_STRIKE:
            raise Illegal(
                "CCN-146",
                T("First Strike is played against a melee, not in phase 1 (AMB-19)"),
                "/card",
            )
        assert eff is not None
        what = effect_of(copied(state, side)) if eff == "counter_attack" else eff
        assert what is not None
        raise Illegal(
            NOT_BUILT[what],
            T("{card} is not built yet ({rule})", card=code, rule=NOT_BUILT[what]),
            "/card",
        )
    built = _built(state, side, code)
    state.deck = play(state.deck, side, code)
    state.turn.card = code
    if eff == "counter_attack":
        state.turn.acts_as = copied(state, side)
        if state.turn.acts_as is None:
            state.last_card.pop(side, None)
            return True  # AMB-19: nothing to copy, it orders nothing (CCN-11)
    state.last_card[side] = acting(state) or code
    if not built:
        return True
    eff = effect_of(acting(state))
    if eff in DICE_CARDS:  # Élan, Rally: the roll of command-value dice (CCN-194, CCN-201)
        faces = roll_for(state, side, eff, command_value(state.deck, side))
        state.turn.pool = pool_of(eff, faces)
        if eff == "elan" and scen(state).options.get("elan_shuffle_timing") == "on_play":
            state.deck = reshuffle_all(state.deck, current_rng())  # AMB-21 alternative
    return not can_order_any(state, side)


def can_order_any(state: GameState, side: str) -> bool:
    """CCN-11: whether the played card can order any of the player's units or leaders."""
    code = acting(state)
    assert code is not None
    c = card(code)
    pieces = own_pieces(state, side)
    if c.kind is CardKind.SECTION:
        quotas = section_quotas(c.section_orders(), command_value(state.deck, side))
        in_sec = _in_section(state, side)
        return any(quotas[s] > 0 and in_sec(p, s) for p in pieces for s in quotas)  # type: ignore[operator]
    eff = c.effect
    assert eff is not None
    if eff in DICE_CARDS:
        return can_order(state, side, eff)
    return bool(pieces)  # every built tactic card orders something or falls back (CCN-189)


def _detach_allowed(state: GameState, code: str) -> bool:
    """CCN-17, AMB-31: section cards, Leadership, La Grande Manoeuvre."""
    c = card(code)
    return (
        c.kind is CardKind.SECTION
        or c.detach in (Detach.YES, Detach.FLAG_ONLY)  # Élan: every leader is ordered by a flag
        or c.effect
        in (
            "leadership",
            "la_grande_manoeuvre",
        )
    )


def _strs(value: JSON, path: str) -> list[str]:
    if value is None:
        return []
    require(
        isinstance(value, list) and all(isinstance(v, str) for v in value),
        "schema",
        T("a list of ids"),
        path,
    )
    assert isinstance(value, list)
    return [str(v) for v in value]


def give_orders(state: GameState, side: str, payload: Mapping[str, JSON]) -> None:
    """Phase 2 (CCN-12..22): the units and leaders the card orders, all at once."""
    require(state.phase == "orders", "CCN-22", T("orders are given in phase 2"))
    code = acting(state)
    assert code is not None
    c = card(code)
    units = _strs(payload.get("units"), "/units")
    leaders = _strs(payload.get("leaders"), "/leaders")
    leave = _strs(payload.get("leave_square"), "/leave_square")
    for i, uid in enumerate(units):
        u = state.units.get(uid)
        require(
            u is not None and u.side == side,
            "CCN-12",
            T("{id} is not one of your units", id=uid[:40]),
            f"/units/{i}",
        )
    for i, lid in enumerate(leaders):
        ld = state.leaders.get(lid)
        require(
            ld is not None and ld.side == side,
            "CCN-12",
            T("{id} is not one of your leaders", id=lid[:40]),
            f"/leaders/{i}",
        )
    require(
        len(set(units)) == len(units) and len(set(leaders)) == len(leaders),
        "CCN-13",
        T("each unit and leader gets one order at most"),
    )
    for lid in leaders:
        ld = state.leaders[lid]
        if not _lone(state, lid):
            require(
                _detach_allowed(state, code),
                "CCN-17",
                T("{card} does not let an attached leader detach", card=code),
                "/leaders",
            )
            host = unit_at(state, ld.hex)
            assert host is not None
            require(
                host.in_square is None or host.id in leave,
                "CCN-20",
                T("a leader with a square detaches only when the square is left"),
                "/leaders",
            )
    pieces = units + leaders
    mode = payload.get("mode")
    section = payload.get("section")
    if c.effect == "short_supply":
        _short_supply(state, side, payload)
        return
    require(
        payload.get("short_supply") is None,
        "CCN-202",
        T("only Short Supply picks a unit to send back"),
        "/short_supply",
    )
    if c.kind is CardKind.SECTION:
        require(
            mode is None and section is None,
            "CCN-185",
            T("a section card takes no mode or section"),
        )
        quotas = section_quotas(c.section_orders(), command_value(state.deck, side))
        found = assign_sections(pieces, quotas, _in_section(state, side))  # type: ignore[arg-type]
        require(
            found is not None,
            "CCN-188",
            T("these pieces are more than {card} can order in their sections", card=code),
        )
        state.turn.orders = pieces
    else:
        chosen = _tactic_orders(state, side, c, units, leaders, mode, section, payload.get("rally"))
        state.turn.orders = pieces if chosen is None else chosen
    _leave_squares(state, side, leave)
    state.phase = "move"


def _short_supply(state: GameState, side: str, payload: Mapping[str, JSON]) -> None:
    """CCN-202: the unit picked goes back to its baseline; the card orders nothing else."""
    others = {k for k, v in payload.items() if v and k != "short_supply"}
    require(not others, "CCN-202", T("Short Supply orders nothing; it picks one unit"), "/")
    target = payload.get("short_supply")
    eligible = [u.id for u in state.units.values() if u.in_square is None]
    state.phase = "move"
    state.turn.orders = []
    if target is None:
        require(not eligible, "CCN-202", T("pick one unit of either side"), "/short_supply")
        return
    supply.pick(state, side, str(target))


def _leave_squares(state: GameState, side: str, leave: Sequence[str]) -> None:
    """CCN-134: an ordered square may leave square, unless enemy cavalry is adjacent; the card
    goes back to the hand, the marker to the track."""
    require(len(set(leave)) == len(leave), "CCN-13", T("each square leaves once"), "/leave_square")
    for i, uid in enumerate(leave):
        u = state.units.get(uid)
        require(
            u is not None and u.side == side and u.in_square is not None,
            "CCN-134",
            T("{id} is not one of your squares", id=uid[:40]),
            f"/leave_square/{i}",
        )
        assert u is not None
        require(
            uid in state.turn.orders,
            "CCN-134",
            T("{id} needs an order to leave square", id=uid),
            f"/leave_square/{i}",
        )
        cav = [e for e in adjacent_enemies(state, u.hex, side) if unit_class(e) is UnitClass.CAV]
        require(
            not cav,
            "CCN-134",
            T("{id} may not leave square next to enemy cavalry", id=uid),
            f"/leave_square/{i}",
        )
    for uid in leave:
        u = state.units[uid]
        assert u.in_square is not None
        state.deck = from_square_track(state.deck, side, u.in_square)
        u.in_square = None


def _lone(state: GameState, lid: str) -> bool:
    ld = state.leaders[lid]
    u = unit_at(state, ld.hex)
    return u is None or u.side != ld.side


def _tactic_orders(
    state: GameState,
    side: str,
    c: Card,
    units: Sequence[str],
    leaders: Sequence[str],
    mode: JSON,
    section: JSON,
    rally_payload: JSON = None,
) -> list[str] | None:
    """Checks a tactic card's orders; the pieces it orders when the card picks them itself."""
    eff_id = c.effect
    assert eff_id is not None
    eff = EFFECTS[eff_id]
    own = [piece_of(state, p) for p in own_pieces(state, side)]
    own_units = [p for p in own if not p.is_leader]
    pieces = list(units) + list(leaders)
    if eff_id == "elan":
        require(mode is None and section is None, "CCN-194", T("Élan takes no mode or section"))
        elan_orders_check(state, units, leaders)
        return None
    if eff_id == "rally":
        require(
            mode is None and section is None and not units and not leaders,
            "CCN-201",
            T("Rally orders the units that get blocks back (rally)"),
        )
        return rally(state, side, rally_payload)
    if eff_id == "la_grande_manoeuvre":  # CCN-200: 4 strategic moves, or 1 unit normally
        require(
            mode in ("strategic", "one_unit"),
            "CCN-200",
            T("La Grande Manoeuvre needs mode strategic or one_unit"),
            "/mode",
        )
        require(section is None, "CCN-200", T("La Grande Manoeuvre takes no section"), "/section")
        if mode == "one_unit":
            require(len(units) <= 1 and not leaders, "CCN-200", T("one unit of your choice"))
            state.turn.fallback = True
            return None
        require(len(pieces) <= 4, "CCN-200", T("at most 4 units and leaders"))
        state.turn.strategic = True
        return None
    require(mode is None, "CCN-189", T("{card} takes no mode", card=c.code), "/mode")
    if fallback_applies(eff_id, own_units if eff.group != "leader" else own):
        require(
            section is None and len(units) <= 1 and not leaders,
            "CCN-189",
            T("you have none of the units {card} names: order 1 unit of your choice", card=c.code),
        )
        state.turn.fallback = True
        return None
    if eff_id == "force_march":  # CCN-197: every infantry unit of one section
        require(
            section in ("LEFT", "CENTER", "RIGHT"),
            "CCN-197",
            T("Force March needs a section"),
            "/section",
        )
        require(
            not units and not leaders,
            "CCN-197",
            T("Force March orders every infantry unit of the section"),
        )
        sec = Section(str(section))
        return [
            p.id
            for p in own_units
            if in_group("infantry", p) and sec in sections(state, state.units[p.id].hex, side)
        ]
    require(section is None, "CCN-189", T("{card} takes no section", card=c.code), "/section")
    if eff_id in ("leadership", "cold_steel"):  # CCN-198, CCN-199: all eligible, fixed now
        require(
            not units and not leaders,
            eff.rule,
            T("{card} orders every eligible piece itself", card=c.code),
        )
        chosen = [p.id for p in own if may_order(eff_id, p)]
        if eff_id == "leadership":
            chosen += [p.id for p in own if p.is_leader]
        return list(dict.fromkeys(chosen))
    require(
        len(pieces) <= (eff.count or 0),
        eff.rule,
        T("{card} orders {n} at most", card=c.code, n=eff.count or 0),
    )
    for pid in pieces:
        require(
            may_order(eff_id, piece_of(state, pid)),
            eff.rule,
            T("{card} cannot order {id}", card=c.code, id=pid),
        )
    return None


# --- what an ordered piece may do (CCN-31, 3.22) --------------------------------------------


def _rules(state: GameState, pid: str) -> tuple[MoveRule, ...]:
    code = acting(state)
    eff = effect_of(code)
    if eff is None or state.turn.fallback or pid not in state.units:
        return ()
    return move_rules(eff, piece_of(state, pid), scen(state).options)


def forbids(state: GameState, what: str) -> bool:
    eff = effect_of(acting(state))
    if eff is None or state.turn.fallback:
        return False
    return what in EFFECTS[eff].forbids


def allowance(state: GameState, pid: str) -> int:
    """How far an ordered piece may move this turn (CCN-31, CCN-32, the card's rules)."""
    if state.turn.strategic:
        return 4  # CCN-200
    if forbids(state, "move"):
        return 0
    if pid in state.leaders:
        return 3  # CCN-32
    if state.units[pid].in_square is not None:
        return 0  # CCN-125: a square cannot move
    t = UNIT_TYPES[state.units[pid].type]
    return max([t.max_move] + [r.hexes for r in _rules(state, pid)])


def may_battle_after(state: GameState, pid: str, melee: bool) -> str | None:
    """None when the unit may battle (this combat type) after its move, else the rule that
    forbids it (CCN-31, CCN-55, CCN-61, the cards' rules)."""
    if state.turn.strategic or forbids(state, "battle"):
        return "CCN-200"
    if forbids(state, "melee" if melee else "ranged"):
        eff = effect_of(acting(state))
        assert eff is not None
        return EFFECTS[eff].rule
    moved = state.turn.moved.get(pid, 0)
    t = UNIT_TYPES[state.units[pid].type]
    limit = t.battle_max_moved if t.battle_max_moved >= 0 else t.max_move
    if moved <= limit:
        return None
    want = After.MELEE if melee else After.RANGED
    for r in _rules(state, pid):
        if moved <= r.hexes and r.after in (After.ANY, want):
            return None
    return "CCN-31"
