"""Napoleon's Triumph (Simmons Games, 2007): the two-player rules engine (rulebook chapters 1-18).

One module per rulebook chapter; rule ids of the digest (NT-n) in short comments. See README.md.
"""

from games.napoleons_triumph.randomplay import random_action
from games.napoleons_triumph.rules import NapoleonsTriumph

RULESET = NapoleonsTriumph(random_player=random_action)

__all__ = ["RULESET", "NapoleonsTriumph"]
