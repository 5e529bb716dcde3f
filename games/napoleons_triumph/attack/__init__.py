"""Attacks (rulebook chapter 11, NT-64..NT-101): one module per step of the attack sequence.

Each step that needs a player's decision opens a Pending for that side (digest 4.3); the server
steps (6), (8) and the automatic parts of (9)-(11) run on as soon as their input is there.

| module | step | rules |
|---|---|---|
| `threat` | (1) attack threat | NT-70, NT-117, NT-124, NT-125, AMB-17 |
| `defense` | (2) defend or vacate, (4) defense leading units | NT-71..NT-75, NT-79, NT-80 |
| `feint` | (3) feint | NT-76, NT-77 |
| `blocking` | the defender's reserve blocks, after (3) and in (11) | NT-78, NT-95, NT-142 |
| `announcement` | (5) attack declaration | NT-81..NT-85 |
| `resolution` | (6) to (10) results, counter-attack, losses | NT-86..NT-92, NT-126, NT-127 |
| `conclusion` | (11) retreat and advance, or fall back | NT-93..NT-96, NT-101 |
| `attackers` | the commands that carry out an attack | NT-65, NT-66, NT-83, NT-84, NT-99 |
| `common` | the attack in progress, its end | NT-64, NT-96, NT-100 |

Each module imports only modules below it in this order (lowest first): common, attackers,
blocking, conclusion, resolution, announcement, defense, feint; threat needs only attackers.
Road attacks are in `road_attack`. This package re-exports the handlers that `rules.py`
dispatches to.
"""

from games.napoleons_triumph.attack.announcement import declare_attack
from games.napoleons_triumph.attack.blocking import hold
from games.napoleons_triumph.attack.conclusion import answer_retreat, choose_anchor
from games.napoleons_triumph.attack.defense import declare_after_vacate, defend, vacate
from games.napoleons_triumph.attack.feint import declare_feint, no_feint
from games.napoleons_triumph.attack.resolution import assign_losses, counter, place_odd_loss
from games.napoleons_triumph.attack.threat import threaten

__all__ = [
    "answer_retreat",
    "assign_losses",
    "choose_anchor",
    "counter",
    "declare_after_vacate",
    "declare_attack",
    "declare_feint",
    "defend",
    "hold",
    "no_feint",
    "place_odd_loss",
    "threaten",
    "vacate",
]
