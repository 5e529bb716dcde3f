"""Road attacks (NT-68, NT-76, NT-77, NT-98, NT-141, NT-143): cavalry attacking out of a road move.

The threat names only the approach (step 1, NT-70, L335): which pieces attack, and so whether it is
a road attack, is told at the announcement, in step (3) (it must then be a feint, NT-76) or after
a vacate. The road attack's command carries `"road": true` and `path` (the locales it enters before
the defense locale, ending with the attack locale; empty when the cavalry start there); the road
starts where its pieces stand, in reserve. After a vacate the cavalry enter the defense locale and
MAY ride on within the road distance left, also into further road attacks (NT-98). Any other
command ends the ride-on (NT-143).

| module | step | rules |
|---|---|---|
| `options` | (1) the road attacks that could back a threat | AMB-17, NT-68, NT-145 |
| `declaration` | (3) or after a vacate: the road attack's command | NT-68, NT-75..NT-77, NT-141 |
| `ride` | after a vacated road attack: the ride-on | NT-98, NT-143 |

Each module imports only modules below it in this order (lowest first): ride, declaration,
options. This package re-exports what the rest of the engine calls: the handlers that `rules.py`
dispatches to and what the attack steps (`attack`) ask of a road attack.
"""

from games.napoleons_triumph.road_attack.declaration import declare, is_road, road_blocked
from games.napoleons_triumph.road_attack.options import road_attacks, road_threats
from games.napoleons_triumph.road_attack.ride import close_ride, ride_on

__all__ = [
    "close_ride",
    "declare",
    "is_road",
    "ride_on",
    "road_attacks",
    "road_blocked",
    "road_threats",
]
