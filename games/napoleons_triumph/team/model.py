"""Teams and ranked seats (NT-TEAM-1, NT-TEAM-2, NT-TEAM-5) and the corps assignment
(NT-TEAM-7): the shared vocabulary of the team modules. Pure data, JSON round-trip."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.core.protocol import JSON
from games.napoleons_triumph.state import AL, F

MAX_SEATS = 4  # NT-TEAM-1: up to four players per team


@dataclass(frozen=True, slots=True)
class TeamSeat:
    """One player's place in a team: the engine role id, its side and its rank (1 = CinC)."""

    role: str
    side: str
    rank: int

    @property
    def is_cinc(self) -> bool:
        return self.rank == 1


@dataclass(frozen=True, slots=True)
class Team:
    """All seats of one side in rank order (rank 1 first); a team of one is the two-player side."""

    side: str
    seats: tuple[TeamSeat, ...]

    def __post_init__(self) -> None:
        if self.side not in (AL, F):
            raise ValueError(f"unknown side {self.side!r}")
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise ValueError(f"a team has 1 to {MAX_SEATS} seats (NT-TEAM-1)")
        if [s.rank for s in self.seats] != list(range(1, len(self.seats) + 1)):
            raise ValueError("ranks are 1..n without gaps, in order (NT-TEAM-5)")
        if any(s.side != self.side for s in self.seats):
            raise ValueError("every seat of a team plays its side")

    @property
    def cinc(self) -> TeamSeat:
        return self.seats[0]

    def seat(self, role: str) -> TeamSeat:
        for s in self.seats:
            if s.role == role:
                return s
        raise KeyError(role)

    def to_json(self) -> JSON:
        return {"side": self.side, "seats": [[s.role, s.rank] for s in self.seats]}

    @staticmethod
    def from_json(data: Mapping[str, JSON]) -> Team:
        side = str(data["side"])
        raw = data["seats"]
        if not isinstance(raw, list):
            raise ValueError("a team's seats are a list of [role, rank]")
        seats = []
        for item in raw:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int)):
                raise ValueError(f"a seat is [role, rank], not {item!r}")
            seats.append(TeamSeat(str(item[0]), side, item[1]))
        return Team(side, tuple(seats))


# NT-TEAM-7: corps (commander id) -> the role that owns it. A detached unit has no owner.
CorpsAssignment = Mapping[str, str]
