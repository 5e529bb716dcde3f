"""Napoleon's Triumph (Simmons Games, 2007): the two-player rules engine (rulebook chapters 1-18).

One module per rulebook chapter; rule ids of the digest (NT-n) in short comments. See README.md.
"""

from games.napoleons_triumph.rules import NapoleonsTriumph

RULESET = NapoleonsTriumph()

__all__ = ["RULESET", "NapoleonsTriumph"]
