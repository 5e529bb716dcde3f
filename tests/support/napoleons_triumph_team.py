"""Fixtures shared by the team-play tests (digest napoleons-triumph-team.md 5.1): board TB, the
teams and corps assignment of its cases, and the 5.1 corps of the full Austerlitz board."""

from __future__ import annotations

from collections.abc import Mapping

from games.napoleons_triumph.board import Board
from games.napoleons_triumph.state import AL, F
from games.napoleons_triumph.team.model import Team, TeamSeat
from tests.support.napoleons_triumph import Spec, fragment

# --- board TB and its teams (5.1) ---------------------------------------------------------------

TB_LOCALES = {f"L{i}": i for i in range(1, 9)}
TB_APPROACHES = [
    ("A12", "L1", "L2"),
    ("A23", "L2", "L3"),
    ("A34", "L3", "L4"),
    ("A45", "L4", "L5"),
    ("A56", "L5", "L6"),
    ("A67", "L6", "L7"),
    ("A48", "L4", "L8"),
    ("A27", "L2", "L7"),  # impassable
]
TB_COMMANDERS = [
    ("kienmayer", AL, None, False),
    ("langeron", AL, None, False),
    ("dokhturov", AL, None, False),
    ("kollowrath", AL, None, False),
    ("bagration", AL, None, False),
    ("liechtenstein", AL, None, False),
    ("vandamme", F, None, False),
    ("legrand", F, None, False),
    ("st-hilaire", F, None, False),
    ("davout", F, None, True),
]


def tb() -> Board:
    """Board TB (5.1): passable 1-2, 2-3, 3-4, 4-5, 5-6, 6-7, 4-8; 2-7 impassable."""
    return fragment(
        "team-tb", TB_LOCALES, TB_APPROACHES, {"A27": Spec(impassable=True)},
        commanders=TB_COMMANDERS,
    )  # fmt: skip


def team(side: str, n: int) -> Team:
    return Team(side, tuple(TeamSeat(f"{side}{r}", side, r) for r in range(1, n + 1)))


ALLIES, FRENCH = team(AL, 3), team(F, 2)
ASSIGNMENT: Mapping[str, str] = {
    "kienmayer": "AL1",
    "langeron": "AL2",
    "dokhturov": "AL2",
    "kollowrath": "AL3",
    "vandamme": "F1",
    "legrand": "F1",
    "st-hilaire": "F2",
    "davout": "F2",
}

# --- the 5.1 corps on the full board; the commanders a case does not name go to the CinC ---------

AL_CORPS = {
    "kienmayer": "AL1",
    "langeron": "AL2",
    "dokhturov": "AL2",
    "kollowrath": "AL3",
    "bagration": "AL1",
    "constantine": "AL1",
    "miloradovich": "AL1",
    "prebyshevsky": "AL1",
    "liechtenstein": "AL1",
}
F_CORPS = {
    "vandamme": "F1",
    "legrand": "F1",
    "st-hilaire": "F2",
    "bessieres": "F1",
    "murat": "F1",
    "lannes": "F1",
    "bernadotte": "F1",
    "davout": "F1",
}
