"""Valour & Fortitude (2nd edition, German v1.4), an umpired miniatures game measured in inches,
following the digest `valour-and-fortitude.md` (rule ids VF-n, AMB-n, GAP-n).

First slice: the army lists as data with `check_army` (armies), the state model with JSON dump
and load (state, state_json), the geometry aid proposing facts to the umpire (geometry,
sight_lines) and the starter scenario (scenario). There is no Ruleset yet: see README.md.
"""
