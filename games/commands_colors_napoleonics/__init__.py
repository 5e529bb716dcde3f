"""Commands & Colors: Napoleonics (base game, German rulebook 3rd edition), following the digest
`commands-and-colors-napoleonics.md` (rule ids CCN-n, AMB-n, GAP-n): the data foundation, the
cards, dice and line of sight, and the Ruleset (`RULESET`): turn sequence, orders, movement,
combat, retreats, leaders, victory. What is built and what is refused by rule id: README.md.
"""

from games.commands_colors_napoleonics.randomplay import random_action
from games.commands_colors_napoleonics.rules import CommandsColorsNapoleonics

RULESET = CommandsColorsNapoleonics(random_action)
