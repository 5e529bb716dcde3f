"""Rounds and turns (NT-25..NT-28), the end-of-turn shuffle (V-2) and the night (NT-116..NT-118)."""

from __future__ import annotations

from games.core.i18n import T
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.morale import night_recovery
from games.napoleons_triumph.state import AL, MAP, F, TurnBook
from games.napoleons_triumph.victory import finish_game


def hide_all(ctx: Ctx) -> None:
    """NT-96: all units are hidden again (the fixed battery stays face up, AMB-4)."""
    for u in ctx.state.units.values():
        u.revealed = u.fixed and u.where == MAP


def is_night(ctx: Ctx) -> bool:
    rounds = ctx.board.scenarios[ctx.state.scenario].rounds
    return rounds[ctx.state.round - 1].night  # NT-17, NT-18


def start_turn(ctx: Ctx, side: str) -> None:
    state = ctx.state
    state.active = side
    state.turn = TurnBook()
    for u in state.units.values():
        u.moves, u.arrived, u.named_via, u.retreated = 0, False, [], False
    for c in state.commanders.values():
        c.commands, c.arrived = 0, False
    rd = ctx.board.scenarios[state.scenario].rounds[state.round - 1]
    when = {"round": state.round, "day": rd.day, "hour": f"{rd.hour}:00"}
    if rd.night:
        ctx.log(
            T("Round {round} (day {day}, night): the Allied turn.", **when)
            if side == AL
            else T("Round {round} (day {day}, night): the French turn.", **when)
        )
    else:
        ctx.log(
            T("Round {round} (day {day}, {hour}): the Allied turn.", **when)
            if side == AL
            else T("Round {round} (day {day}, {hour}): the French turn.", **when)
        )


def start_game(ctx: Ctx) -> None:
    ctx.state.turn_number += 1  # new alias epoch: set-up identities are forgotten
    start_round(ctx)


def start_round(ctx: Ctx) -> None:
    if is_night(ctx):
        night_recovery(ctx)  # NT-118
    start_turn(ctx, AL)  # NT-25: the Allies move first in every round


def end_turn(ctx: Ctx) -> None:
    """NT-27 / V-2: hide everything and re-draw every alias (the shuffle), then the next turn."""
    state = ctx.state
    hide_all(ctx)
    state.turn_number += 1
    state.attack = None
    state.pending = None
    state.ride_on = None
    if state.active == AL:
        start_turn(ctx, F)
        return
    last = len(ctx.board.scenarios[state.scenario].rounds)  # NT-28
    if state.round >= last:
        finish_game(ctx)  # NT-129
        return
    state.round += 1
    start_round(ctx)
