"""Victory (rulebook chapter 16): decisive (NT-128) and marginal by objectives (NT-129..NT-132)."""

from __future__ import annotations

from collections import deque

from games.core.i18n import T
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import corps_units, occupant
from games.napoleons_triumph.state import AL, MAP, F, other

BLUE = "blue"
FRENCH_COLOURS = ("green", "red", "black")


def _reveal_everything(ctx: Ctx) -> None:
    for u in ctx.state.units.values():
        if u.where == MAP:
            u.revealed = True  # NT-130: all units are revealed at game end


def decisive(ctx: Ctx, loser: str) -> None:
    state = ctx.state
    winner = other(loser)
    state.phase = "over"
    state.pending = None
    state.result = {
        "winner": winner,
        "kind": "decisive",
        "reason": T("French morale reached 0") if loser == F else T("Allied morale reached 0"),
    }
    _reveal_everything(ctx)
    ctx.log(
        T("The French win a decisive victory (NT-128).")
        if winner == F
        else T("The Allies win a decisive victory (NT-128).")
    )


def controls(ctx: Ctx, side: str, loc: int) -> bool:
    """NT-130: a corps with infantry or artillery in the locale, and a road to an own main entry."""
    state, board = ctx.state, ctx.board
    has_corps = any(
        c.where == MAP
        and c.side == side
        and c.loc == loc
        and any(
            u.where == MAP and u.type in ("INF", "GUARD", "ART") for u in corps_units(state, c.id)
        )
        for c in state.commanders.values()
    )
    if not has_corps:
        return False
    enemy = other(side)
    targets = {(e.locale, e.strand) for e in board.entries if e.side == side and e.main}
    # AMB-34: any connected road, strands respected; no locale on the way held by the enemy.
    start = [(loc, s) for s in board.strands(loc)]
    seen = set(start)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        if node in targets:
            return True
        for step in board.road_steps(*node):
            nxt = (step.to_locale, step.to_strand)
            if nxt in seen or occupant(state, step.to_locale) == enemy:
                continue
            seen.add(nxt)
            queue.append(nxt)
    return False


def objectives(ctx: Ctx, side: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"blue": [], "green": [], "red": [], "black": []}
    for loc in sorted(ctx.board.locales):
        stars = ctx.board.locales[loc].stars
        if stars and controls(ctx, side, loc):
            for colour in stars:
                out[colour].append(loc)
    return out


def finish_game(ctx: Ctx) -> None:
    """NT-129..NT-132: after the last French turn, objectives decide a marginal victory."""
    state = ctx.state
    _reveal_everything(ctx)
    allied, french = objectives(ctx, AL), objectives(ctx, F)
    if not state.reinforcements_entered:  # NT-131
        allied_wins = bool(allied[BLUE]) and not any(french[c] for c in FRENCH_COLOURS)
        winner = AL if allied_wins else F
    else:  # NT-132
        french_wins = not allied[BLUE] and all(french[c] for c in FRENCH_COLOURS)
        winner = F if french_wins else AL
    state.phase = "over"
    state.pending = None
    state.result = {
        "winner": winner,
        "kind": "marginal",
        "reason": T("objectives at the end of the last round"),
        "objectives": {
            "AL": {"blue": jlist(allied[BLUE])},
            "F": {c: jlist(french[c]) for c in FRENCH_COLOURS},
        },
        "reinforcements_entered": state.reinforcements_entered,
    }
    ctx.log(
        T("The French win a marginal victory (NT-129).")
        if winner == F
        else T("The Allies win a marginal victory (NT-129).")
    )
