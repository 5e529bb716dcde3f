"""Valour & Fortitude (2nd edition, German v1.4), an umpired miniatures game measured in inches,
following the digest `valour-and-fortitude.md` (rule ids VF-n, AMB-n, GAP-n).

The army lists with `check_army` (armies), the state model (state, state_json), the geometry aid
(geometry, sight_lines, measures), the starter scenario (scenario, setup) and the Ruleset
(rules: the turn machine in turn, shooting, command, melee, morale). See README.md.
"""

from games.valour_fortitude.rules import RULESET

__all__ = ["RULESET"]
