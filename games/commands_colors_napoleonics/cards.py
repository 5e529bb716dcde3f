"""The deck of 70 command cards (digest 2.8; rulebook L35, L1099-1290): codes and counts only.
Their effects come with the cards slice."""

from __future__ import annotations

from collections.abc import Mapping

SECTION_CARDS: Mapping[str, int] = {
    "SCOUT_LEFT": 2,
    "SCOUT_CENTER": 2,
    "SCOUT_RIGHT": 2,
    "PROBE_LEFT": 4,
    "PROBE_CENTER": 6,
    "PROBE_RIGHT": 4,
    "ATTACK_LEFT": 4,
    "ATTACK_CENTER": 6,
    "ATTACK_RIGHT": 4,
    "ASSAULT_LEFT": 2,
    "ASSAULT_CENTER": 2,
    "ASSAULT_RIGHT": 2,
    "COORDINATED_ADVANCE": 2,
    "FLANK_ATTACK": 2,
    "FORWARD": 2,
    "RECON_IN_FORCE": 2,
}
TACTIC_CARDS: Mapping[str, int] = {
    "BAYONET_CHARGE": 2,
    "BOMBARD": 2,
    "CAVALRY_CHARGE": 3,
    "COUNTER_ATTACK": 2,
    "ELAN": 1,
    "FIRE_AND_HOLD": 2,
    "FIRST_STRIKE": 2,
    "FORCE_MARCH": 2,
    "GIVE_THEM_THE_COLD_STEEL": 1,
    "LEADERSHIP": 2,
    "LA_GRANDE_MANOEUVRE": 1,
    "RALLY": 1,
    "SHORT_SUPPLY": 1,
}
DECK: Mapping[str, int] = {**SECTION_CARDS, **TACTIC_CARDS}
DECK_SIZE = 70  # seed L35: 48 section cards + 22 tactic cards
