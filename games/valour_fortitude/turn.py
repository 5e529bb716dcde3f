"""The turn state machine (digest 4.4): a turn's fate draw (VF-35, VF-36), the order sheet's
steps through shooting, command and melee (VF-31), the resolve tests that close each phase
(VF-109), the end of the turn (objective control VF-22, the turn limit VF-24, victory
VF-115), and the next turn (VF-30).

The queue of steps lives in `flow["queue"]`; `run` executes steps until the queue is empty, the
umpire must rule on facts (`flow["pending"]`), or the next order sheet is awaited. A step that
raises `Skip` is logged and dropped (digest 4.5, `on_illegal: skip`); one that raises
`NeedFacts` is put back as it was.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON, OMNISCIENT
from games.core.umpire import UMPIRE
from games.valour_fortitude import command, fate, melee, morale, relentless, reserves
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import occupation as occ
from games.valour_fortitude.context import Ctx, Fact, NeedFacts
from games.valour_fortitude.fate import ON_DRAW
from games.valour_fortitude.shooting import bind, shoot
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import FateState, GameState, Phase, TurnFlags

Step = dict[str, JSON]


def queue_of(sheet: dict[str, JSON], game: GameState | None = None) -> list[Step]:
    """The steps of a turn, in the order of digest 4.4; with the game, the sheet's fate cards
    at their hooks and the inactive side's window at the start of the melee phase (V-01)."""
    side = str(game.turn.active_side) if game is not None else ""

    def cards(hook: str) -> list[Step]:
        found = [] if game is None else fate.steps_for(sheet, game, side, hook)
        return [s for s in found if isinstance(s, dict)]

    shots = sheet.get("shooting")
    order = sheet.get("brigade_order")
    fire: list[Step] = [
        {"do": "shoot", "i": i} for i in range(len(shots) if isinstance(shots, list) else 0)
    ]
    brigades: list[Step] = list(reserves.steps(sheet, None))  # type: ignore[arg-type]
    for b in order if isinstance(order, list) else []:  # AMB-49: where the CinC puts them
        brigades.append({"do": "brigade", "id": b})
        brigades.extend(reserves.steps(sheet, str(b)))  # type: ignore[arg-type]
    window: list[Step] = [] if game is None else [{"do": "window", "hook": fate.ENEMY_MELEE}]
    return [
        *cards(fate.OWN_FATE),
        *cards(fate.OWN_SHOOTING),
        *fire,
        {"do": "resolve", "phase": "SHOOTING"},
        {"do": "phase", "to": "COMMAND"},
        *brigades,
        {"do": "cinc_move"},
        {"do": "resolve", "phase": "COMMAND"},
        {"do": "phase", "to": "MELEE"},
        *cards(fate.OWN_MELEE),
        *cards(fate.ANY_MELEE),
        *window,
        {"do": "melee_plan"},
        {"do": "resolve", "phase": "MELEE"},
        *cards(fate.END_MELEE),  # 4 (Durchbruch), after the resolve tests
        {"do": "end_turn"},
    ]


def begin_orders(ctx: Ctx, sheet: dict[str, JSON]) -> None:
    """The active side's sheet is in: the shooting phase begins (VF-40)."""
    ctx.flow["sheet"] = copy.deepcopy(sheet)
    ctx.flow["queue"] = list[JSON](queue_of(sheet, ctx.game))
    ctx.flow["stage"] = m.RESOLVING
    ctx.flow["attacked"] = []
    ctx.game = replace(ctx.game, turn=replace(ctx.game.turn, phase=Phase.SHOOTING))
    run(ctx)


def run(ctx: Ctx) -> None:
    while (
        ctx.flow["stage"] == m.RESOLVING
        and not ctx.flow.get("pending")
        and not fate.window(ctx.flow)
    ):
        queue = ctx.flow["queue"]
        assert isinstance(queue, list)
        if not queue:
            return
        step = queue[0]
        assert isinstance(step, dict)
        before = (ctx.game, json.loads(json.dumps(ctx.flow)), len(ctx.log))
        follow: list[Step] = []
        try:
            follow = STEPS[str(step["do"])](ctx, step) or []
        except NeedFacts as need:
            ctx.game, ctx.flow = before[0], before[1]
            del ctx.log[before[2] :]
            ctx.flow["pending"] = need.proposals  # type: ignore[assignment]
            return
        except Skip as skip:
            ctx.game, ctx.flow = before[0], before[1]
            del ctx.log[before[2] :]
            ctx.say(T("Skipped ({rule}): {why}", rule=skip.rule, why=skip.message))
        queue = ctx.flow.get("queue")
        if isinstance(queue, list) and queue:
            queue.pop(0)
            queue[0:0] = follow
        ctx.flow["facts"] = {}


# --- the steps ---


def _shoot(ctx: Ctx, step: Step) -> list[Step]:
    shots = command.sheet(ctx).get("shooting")
    assert isinstance(shots, list)
    index = int(str(step["i"]))
    shot = shots[index]
    assert isinstance(shot, dict)
    for _, entry in fate.sheet_entries(ctx, fate.SHOT):  # card 7 with the shot it names
        if entry.get("shot") == index:
            fate.play(ctx, str(ctx.game.turn.active_side), entry)
    ctx.flow["shot"] = index
    shoot(ctx, shot)
    return []


def _phase(ctx: Ctx, step: Step) -> list[Step]:
    phase = Phase(str(step["to"]))
    fate.clear(ctx.flow, "phase")  # AMB-3: "this phase" effects end with it
    ctx.game = replace(ctx.game, turn=replace(ctx.game.turn, phase=phase))
    ctx.say(T("The {phase} phase begins", phase=phase.value.lower()))
    return []


def _resolve(ctx: Ctx, step: Step) -> list[Step]:
    """VF-109: the brigades owing resolve tests at the end of the phase, active side first."""
    return [{"do": "resolve_brigade", "id": b} for b in morale.resolve_order(ctx)]


def _resolve_brigade(ctx: Ctx, step: Step) -> list[Step]:
    game = ctx.game
    brigade = m.brigade(game, str(step["id"]))
    if brigade.broken or brigade.pending_resolve_tests == 0:
        return []
    bg = game.leader(brigade.bg)
    cinc = game.leader(m.side_state(game, brigade.side).cinc)
    wanted: dict[str, Callable[[], Fact]] = {}
    if not bg.removed and not cinc.removed:
        wanted["cinc"] = bind(ms.within, game, cinc, bg, 12.0, "VF-109")
    facts = ctx.need(wanted)
    napoleon = "napoleon" in cinc.special_rules and bool(facts.get("cinc"))  # VF-207, AMB-45
    passed = morale.resolve_test(ctx, brigade.id, bool(facts.get("cinc")), napoleon)
    return [] if passed else [{"do": "waver", "id": brigade.id}]


def _waver(ctx: Ctx, step: Step) -> list[Step]:
    """VF-110: the facts first (within 6 in of an enemy unit), then the effects."""
    game = ctx.game
    brigade = m.brigade(game, str(step["id"]))
    wanted: dict[str, Callable[[], Fact]] = {}
    for unit_id in brigade.units:
        unit = game.unit(unit_id)
        if m.on_table(unit):
            wanted[unit_id] = bind(ms.enemy_within, game, unit, 6.0, "VF-110")
    facts = ctx.need(wanted)
    morale.waver(ctx, brigade.id, {k: bool(v) for k, v in facts.items()})
    return []


def _brigade(ctx: Ctx, step: Step) -> list[Step]:
    brigade_id = str(step["id"])
    follow = command.activate(ctx, brigade_id)
    side = str(ctx.game.turn.active_side)
    passed = m.brigade(ctx.game, brigade_id).activated_this_turn
    if passed:  # K (France): after a successful activation
        for _, entry in fate.sheet_entries(ctx, fate.ACTIVATED):
            if entry.get("brigade") == brigade_id:
                fate.play(ctx, side, entry)
        return follow
    used = any(e.get("card") == fate.ANY for e in fate.effects(ctx.flow))
    for _, entry in fate.sheet_entries(ctx, fate.FAILED_ACTIVATION):
        if entry.get("brigade") == brigade_id and not used:  # Eigeninitiative, once a phase
            fate.discard_any(ctx, side, entry)
            return [{"do": "unit", "unit": str(entry["unit"])}, *follow]
    return follow


def _unit(ctx: Ctx, step: Step) -> list[Step]:
    unit_id = str(step["unit"])
    for _, entry in fate.sheet_entries(ctx, fate.BEFORE_ACTION) if "stage" not in step else ():
        if entry.get("unit") == unit_id:  # card 5 (not again for the stages of VF-60)
            fate.play(ctx, str(ctx.game.turn.active_side), entry)
    surprise = fate.surprise(ctx, unit_id) if "stage" not in step else None
    if surprise is not None:  # card 9: its extra Move, then the charge
        return [s for s in surprise if isinstance(s, dict)]
    return command.unit_step(ctx, step)  # VF-60: a formation change is a stage of its own


def _reserve(ctx: Ctx, step: Step) -> list[Step]:
    entry = step["entry"]
    assert isinstance(entry, dict)
    reserves.enter(ctx, entry)
    return []


def _fate(ctx: Ctx, step: Step) -> list[Step]:
    entry = step["entry"]
    assert isinstance(entry, dict)
    fate.play(ctx, str(step["side"]), entry)
    return []


def _window(ctx: Ctx, step: Step) -> list[Step]:
    fate.open_window(ctx, str(step["hook"]))
    return []


def _bg_move(ctx: Ctx, step: Step) -> list[Step]:
    command.bg_move(ctx, str(step["brigade"]))
    return []


def _cinc_move(ctx: Ctx, step: Step) -> list[Step]:
    command.cinc_move(ctx)
    return []


def _melee_plan(ctx: Ctx, step: Step) -> list[Step]:
    return melee.plan(ctx)


def _fight(ctx: Ctx, step: Step) -> list[Step]:
    return melee.fight(ctx, step)


def _fall_back(ctx: Ctx, step: Step) -> list[Step]:
    melee.fall_back(ctx, str(step["unit"]))
    return []


def _end_turn(ctx: Ctx, step: Step) -> list[Step]:
    """VF-22 objective control, then the turn count, the end of the game (VF-24, VF-115) or
    the next turn (VF-30)."""
    game = ctx.game
    wanted: dict[str, Callable[[], Fact]] = {}
    for obj in game.objectives:
        if obj.feature is None:
            for side in ("A", "B"):
                wanted[f"{obj.id}:{side}"] = bind(ms.figures_near, game, obj, side)
    facts = ctx.need(wanted)
    objectives = []
    for obj in game.objectives:
        controller = obj.controller
        if obj.feature is None:
            a, b = int(str(facts[f"{obj.id}:A"])), int(str(facts[f"{obj.id}:B"]))
            controller = "A" if a > b else "B" if b > a else controller
        else:  # AMB-7, VF-T36: a feature changes hands only by occupation
            controller = occ.objective_controller(game, obj.feature, controller)
        if controller != obj.controller:
            ctx.say(
                T(
                    "Side {side} takes control of objective {objective} (VF-22)",
                    side=controller,
                    objective=obj.id,
                )
            )
        objectives.append(replace(obj, controller=controller))
    turn = game.turn
    active = str(turn.active_side)
    taken_a = turn.turns_taken_a + (active == "A")
    taken_b = turn.turns_taken_b + (active == "B")
    turn = replace(turn, turns_taken_a=taken_a, turns_taken_b=taken_b)
    ctx.game = replace(game, objectives=tuple(objectives), turn=turn)
    limit = turn.turn_limit or 0
    if taken_a == taken_b and taken_a >= limit:
        finish(ctx)
    else:
        start_turn(ctx, m.other(active))
    return []


def _fate_casualty(ctx: Ctx, unit_id: str) -> list[Step]:
    """Kosakenüberfall (fate.py): one casualty, with its morale test (VF-102)."""
    morale.take_casualties(ctx, unit_id, 1, shooting=False, winner=False)
    return []


STEPS: dict[str, Callable[[Ctx, Step], list[Step]]] = {
    "shoot": _shoot,
    "resolve": _resolve,
    "resolve_brigade": _resolve_brigade,
    "waver": _waver,
    "phase": _phase,
    "brigade": _brigade,
    "unit": _unit,
    "bg_move": _bg_move,
    "cinc_move": _cinc_move,
    "melee_plan": _melee_plan,
    "fight": _fight,
    "fall_back": _fall_back,
    "relentless": relentless.charge,  # VF-163, V-13
    "end_turn": _end_turn,
    "fate": _fate,
    "reserve": _reserve,
    "window": _window,
    "fate_move": lambda ctx, step: [  # cards 4 and 9 (fate.py)
        s for s in fate.move_step(ctx, step, command._messenger) if isinstance(s, dict)
    ],
    "fate_casualty": lambda ctx, step: _fate_casualty(ctx, str(step["unit"])),
}


# --- turns ---


def start_turn(ctx: Ctx, side: str) -> None:
    """VF-30, VF-31: the next turn; flags of the last turn cleared; the fate draw (VF-35)."""
    game = ctx.game
    turn = game.turn
    new_round = side == turn.first_side and (turn.turns_taken_a + turn.turns_taken_b) > 0
    turn = replace(
        turn, active_side=side, phase=Phase.FATE, round=turn.round + (1 if new_round else 0)
    )
    units = tuple(replace(u, turn_flags=TurnFlags()) for u in game.units)
    brigades = tuple(replace(b, activated_this_turn=None) for b in game.brigades)
    state = replace(m.side_state(game, side), auto_activation_used_this_turn=False)
    ctx.game = m.with_side(replace(game, turn=turn, units=units, brigades=brigades), state)
    ctx.flow.update(stage=m.ORDERS, sheet=None, queue=[], attacked=[], facts={}, pending=None)
    ctx.flow.update(standing=None, window=None, shot=None)
    fate.clear(ctx.flow, "turn")
    ctx.say(
        T("Round {round}: side {side}'s turn begins", round=turn.round, side=side),
        data={"notice": {"roles": [side], "title": f"V&F round {turn.round}, side {side}"}},
    )
    draw(ctx, side)
    fate.open_window(ctx, fate.ENEMY_TURN)  # V-01: card 3, standing 6 and 8


def draw(ctx: Ctx, side: str) -> None:
    """VF-35: the top card; GAP-1: none when the deck is empty; card 2 (Schlachtenglück) is
    played at once: every discarded card and itself shuffled back (seed L774)."""
    state = m.side_state(ctx.game, side)
    fate = state.fate
    if not fate.deck:
        ctx.say(T("Side {side}'s fate deck is empty: no card is drawn (GAP-1)", side=side))
        return
    card, deck = fate.deck[0], fate.deck[1:]
    hand = (*fate.hand, card)
    secret = frozenset({side, UMPIRE, OMNISCIENT})
    ctx.say(T("Side {side} draws a fate card", side=side))
    ctx.say(T("You draw the fate card {card}", card=card), secret)
    if card == "2":
        pool = [*deck, *fate.discard, card]
        ctx.rng.shuffle(pool)
        hand, deck = fate.hand, tuple(pool)
        ctx.say(
            T(
                "Side {side} plays Schlachtenglück (2): the discards go back into the deck",
                side=side,
            ),
            data={"fate_play": {"side": side, "hook": ON_DRAW, "card": "2", "choices": {}}},
        )  # VF-223
        fate = FateState(deck, hand, (), True)
    else:
        fate = FateState(deck, hand, fate.discard, True)
    ctx.game = m.with_side(ctx.game, replace(state, fate=fate))


def finish(ctx: Ctx) -> None:
    """VF-115: objectives held + setbacks inflicted on the enemy army; the higher total wins,
    else a draw."""
    game = ctx.game
    scores = {}
    for side in ("A", "B"):
        held = sum(fate.objective_points(o, side) for o in game.objectives)  # card 10
        scores[side] = held + m.side_state(game, m.other(side)).setbacks
    winners = [s for s in ("A", "B") if scores[s] > scores[m.other(s)]]
    summary = (
        T("Side {side} wins {a} to {b} (VF-115)", side=winners[0], a=scores["A"], b=scores["B"])
        if winners
        else T("A draw, {a} to {b} (VF-115)", a=scores["A"], b=scores["B"])
    )
    ctx.flow.update(stage=m.OVER, queue=[], pending=None)
    ctx.flow["result"] = {"winners": list(winners), "summary": summary, "scores": dict(scores)}
    ctx.game = replace(ctx.game, turn=replace(ctx.game.turn, phase=Phase.OVER))
    ctx.say(summary)
