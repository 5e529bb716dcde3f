"""The action kinds a side or the umpire sends (digest 4.3, 4.5), named once for the rules and the
random player."""

from __future__ import annotations

TURN_ORDERS = "turn_orders"  # the sealed whole-turn order sheet (4.5)
FIRST_SIDE = "choose_first_side"  # the initiative winner's choice (VF-251)
CONFIRM = "confirm"  # the umpire confirms the proposed geometric facts (V-06)
PLAY_FATE = "play_fate"  # the inactive side's cards in an open fate window (V-01, fate.py)
