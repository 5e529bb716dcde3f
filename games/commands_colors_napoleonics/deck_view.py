"""The deck as one role sees it (digest 2.12, 4.3): its own hand, square-track cards and Scout
pair; of the others only counts."""

from __future__ import annotations

from games.commands_colors_napoleonics.deck import DeckState
from games.core.protocol import JSON


def deck_view(state: DeckState, viewer: str | None) -> dict[str, JSON]:
    """The deck as `viewer` sees it (None: an observer): its own hand, square-track cards and
    Scout pair; of the others only counts (and which markers are used: the markers are on the
    board); the draw pile as a count; the discard pile and the cards in play face up, but a
    private Scout discard only to its owner."""
    hands: dict[str, JSON] = {}
    for seat in sorted(state.hands):
        own = seat == viewer
        track = state.track(seat)
        pair = state.scout.get(seat, ())
        entry: dict[str, JSON] = {
            "hand_count": len(state.hands[seat]),
            "square_markers": list[JSON](sorted(track)),
            "scout_count": len(pair),
        }
        if own:
            entry["hand"] = list(state.hands[seat])
            entry["square_cards"] = {str(m): track[m] for m in sorted(track)}
            entry["scout"] = list(pair)
        hands[seat] = entry
    return {
        "draw_count": len(state.draw),
        "discard": [
            d.code if d.private_to is None or d.private_to == viewer else None
            for d in state.discard
        ],
        "in_play": [{"seat": p.seat, "card": p.code} for p in state.in_play],
        "seats": hands,
    }
