"""The turn around the phases (digest 3.2, 3.23): from phase 1 to phase 5, the draw (a Scout's
two cards, D-17), and the next player's turn with its start-of-turn objectives (CCN-208)."""

from __future__ import annotations

from games.commands_colors_napoleonics.deck import end_turn as deck_end_turn
from games.commands_colors_napoleonics.deck import scout_keep
from games.commands_colors_napoleonics.illegal import require
from games.commands_colors_napoleonics.orders import acting, card, effect_of
from games.commands_colors_napoleonics.state import GameState, Turn, other
from games.commands_colors_napoleonics.victory import start_of_turn
from games.commands_colors_napoleonics.world import scen
from games.core.i18n import T
from games.core.rng import Rng


def phase_five(state: GameState, rng: Rng) -> None:
    """CCN-203..206: the card to the discard pile, the draw (2 keep 1 after a Scout)."""
    code = acting(state)
    scout = code is not None and card(code).draw == 2
    elan = effect_of(code) == "elan" and scen(state).options.get("elan_shuffle_timing") != "on_play"
    state.deck = deck_end_turn(
        state.deck,
        rng,
        active=state.active,
        scout=scout,
        first_strike_by=state.turn.first_strike_by,
        elan_reshuffle=elan,  # CCN-206, AMB-21 default: in phase 5, before drawing
    )
    if state.deck.scout.get(state.active):
        state.phase = "scout"
        state.pending = {"kind": "scout_keep", "side": state.active}
        return
    next_turn(state)


def keep(state: GameState, side: str, code: object) -> None:
    """D-17: which of the two drawn cards to keep (CCN-186); the other is discarded, face up
    (AMB-20 default)."""
    pair = state.deck.scout.get(side, ())
    require(
        isinstance(code, str) and code in pair,
        "CCN-186",
        T("keep one of the two cards drawn"),
        "/card",
    )
    public = bool(scen(state).options.get("scout_discard_public", True))
    state.deck = scout_keep(state.deck, side, str(code), discard_public=public)
    state.pending = None
    next_turn(state)


def next_turn(state: GameState) -> None:
    """CCN-8: the other player's turn; its start-of-turn objectives first (CCN-208)."""
    state.active = other(state.active)
    state.turn_no += 1
    state.turn = Turn()
    state.phase = "card"
    state.combat = None
    start_of_turn(state)
