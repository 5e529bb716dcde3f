"""The team layer's state (rulebook chapter 19, digest napoleons-triumph-team.md 3.2): the team
phases, the frozen dataclasses (teams, conferences, events, the engine's point), the lookups and
updates on them, and the JSON round-trip `to_json` / `from_json`. Rules: the fields kept for
NT-TEAM-4, -5, -7..-12, -45 (the rules themselves are applied in conference.py, chat.py,
phase_gate.py and phases.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.core.protocol import JSON

# Team phases (digest 3.2)
AUCTION = "auction"  # set-up step (2) with the balance auction: only the spokesmen act
CONF_INITIAL = "conference_initial"  # NT-TEAM-4: both teams, in parallel
SETUP = "setup"  # set-up steps 5-9 (team/setup.py)
PLAY = "play"
CONF_NIGHT = "conference_night"  # NT-TEAM-9: one side, before its night turn (DEC1)
OVER = "over"
PHASES = (AUCTION, CONF_INITIAL, SETUP, PLAY, CONF_NIGHT, OVER)

INITIAL, NIGHT = "initial", "night"
NIGHT_SCENARIO = "DEC1"  # NT-TEAM-9: the night conference exists only in "1. Dezember"

PUBLIC = "public"  # event audience: everybody; otherwise the team's key (its own seats only)


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Conference:
    """One conference session of a team (NT-TEAM-4, NT-TEAM-9)."""

    kind: str  # initial | night
    round: int  # 0 for the initial conference, else the night round
    open: bool
    skipped: bool = False
    messages: int = 0  # chat messages posted; the next one gets seq messages + 1 (3.7)
    in_play: tuple[str, ...] = ()  # night: the side's commanders still in play (AMB-14)


@dataclass(frozen=True, slots=True)
class TeamRecord:
    """One team. `key` is its side, or its auction seat (`player_1`/`player_2`) when the balance
    auction decides the sides (NT-TEAM-45); `side` is None until the auction has ended."""

    key: str
    side: str | None
    members: tuple[str, ...]  # role ids in lobby order (AMB-1, AMB-25 fallback order)
    spokesman: str | None = None  # NT-TEAM-45
    proposal: tuple[str, ...] | None = None  # NT-TEAM-5: proposed rank order (rank 1 first)
    confirmed: tuple[str, ...] = ()  # seats that confirmed `proposal`, in member order
    ranks: tuple[str, ...] | None = None  # NT-TEAM-10: locked rank order, from the initial close
    corps: tuple[tuple[str, str], ...] = ()  # NT-TEAM-8/11: announced (commander, role)
    draft: tuple[tuple[str, str], ...] | None = None  # NT-TEAM-7: the CinC's draft assignment
    conferences: tuple[Conference, ...] = ()

    @property
    def conference(self) -> Conference | None:
        """The open conference, if any."""
        if self.conferences and self.conferences[-1].open:
            return self.conferences[-1]
        return None

    @property
    def agreed(self) -> bool:
        """NT-TEAM-5 (AMB-1): a proposal every seat has confirmed."""
        return self.proposal is not None and len(self.confirmed) == len(self.members)

    @property
    def cinc(self) -> str | None:
        """Rank 1: the locked one, else the one of the agreed proposal."""
        if self.ranks is not None:
            return self.ranks[0]
        if self.agreed:
            assert self.proposal is not None
            return self.proposal[0]
        return None


@dataclass(frozen=True, slots=True)
class TeamState:
    scenario: str
    notes_allowed: bool  # NT-TEAM-12: options.conference_notes_allowed
    auction: bool  # NT-TEAM-45: options.balance == "auction"
    commanders: tuple[tuple[str, tuple[str, ...]], ...]  # side -> commanders in tableau order
    teams: tuple[TeamRecord, ...]  # two teams
    phase: str
    phase_side: str | None = None  # the side of a night conference
    turn: tuple[str, int] | None = None  # the last team turn (side, round) that has started


@dataclass(frozen=True, slots=True)
class TeamPhase:
    name: str
    side: str | None = None


@dataclass(frozen=True, slots=True)
class TeamEvent:
    """What the server publishes; `audience` is PUBLIC or the team's key (its own seats only)."""

    kind: str
    audience: str
    team: str
    data: JSON = None

    def to_json(self) -> JSON:
        return {"kind": self.kind, "audience": self.audience, "team": self.team, "data": self.data}


@dataclass(frozen=True, slots=True)
class Applied:
    state: TeamState
    events: tuple[TeamEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class EnginePoint:
    """Where the engine is (GameState.phase: auction | setup_AL | setup_F | turn | over)."""

    phase: str
    round: int
    active: str
    night: bool = False  # the round is a night round (the board's round definitions)
    sides: tuple[tuple[str, str], ...] = ()  # after the auction: auction seat -> side
    in_play: tuple[str, ...] = ()  # commanders not eliminated (AMB-14)


# ---------------------------------------------------------------------------------------------
# Lookups and updates


def team_at(state: TeamState, key: str) -> TeamRecord:
    """The team by its key or its side."""
    for t in state.teams:
        if key in (t.key, t.side):
            return t
    raise KeyError(key)


def team_of_role(state: TeamState, role: str) -> TeamRecord | None:
    for t in state.teams:
        if role in t.members:
            return t
    return None


def side_commanders(state: TeamState, side: str) -> tuple[str, ...]:
    return dict(state.commanders)[side]


def with_team(state: TeamState, team: TeamRecord) -> TeamState:
    return replace(state, teams=tuple(team if t.key == team.key else t for t in state.teams))


def set_conference(team: TeamRecord, conf: Conference) -> TeamRecord:
    return replace(team, conferences=(*team.conferences[:-1], conf))


# ---------------------------------------------------------------------------------------------
# JSON


def _pairs(xs: tuple[tuple[str, str], ...]) -> JSON:
    return [[a, b] for a, b in xs]


def to_json(state: TeamState) -> JSON:
    return {
        "scenario": state.scenario,
        "notes_allowed": state.notes_allowed,
        "auction": state.auction,
        "commanders": {s: list(cs) for s, cs in state.commanders},
        "teams": [_team_json(t) for t in state.teams],
        "phase": state.phase,
        "phase_side": state.phase_side,
        "turn": None if state.turn is None else [state.turn[0], state.turn[1]],
    }


def _team_json(t: TeamRecord) -> JSON:
    return {
        "key": t.key,
        "side": t.side,
        "members": list(t.members),
        "spokesman": t.spokesman,
        "proposal": None if t.proposal is None else list(t.proposal),
        "confirmed": list(t.confirmed),
        "ranks": None if t.ranks is None else list(t.ranks),
        "corps": _pairs(t.corps),
        "draft": None if t.draft is None else _pairs(t.draft),
        "conferences": [
            {
                "kind": c.kind,
                "round": c.round,
                "open": c.open,
                "skipped": c.skipped,
                "messages": c.messages,
                "in_play": list(c.in_play),
            }
            for c in t.conferences
        ],
    }


def _obj(v: JSON) -> dict[str, JSON]:
    if not isinstance(v, dict):
        raise ValueError("team state: expected an object")
    return v


def _str(v: JSON) -> str:
    if not isinstance(v, str):
        raise ValueError("team state: expected a string")
    return v


def _opt_str(v: JSON) -> str | None:
    return None if v is None else _str(v)


def _int(v: JSON) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError("team state: expected an integer")
    return v


def _bool(v: JSON) -> bool:
    if not isinstance(v, bool):
        raise ValueError("team state: expected a boolean")
    return v


def _strs(v: JSON) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise ValueError("team state: expected a list")
    return tuple(_str(x) for x in v)


def _opt_strs(v: JSON) -> tuple[str, ...] | None:
    return None if v is None else _strs(v)


def _pair_list(v: JSON) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, list):
        raise ValueError("team state: expected a list of pairs")
    out = []
    for x in v:
        a, b = _strs(x)
        out.append((a, b))
    return tuple(out)


def from_json(data: JSON) -> TeamState:
    d = _obj(data)
    turn = d["turn"]
    teams = []
    for raw in _list(d["teams"]):
        t = _obj(raw)
        confs = tuple(
            Conference(
                kind=_str(c["kind"]),
                round=_int(c["round"]),
                open=_bool(c["open"]),
                skipped=_bool(c["skipped"]),
                messages=_int(c["messages"]),
                in_play=_strs(c["in_play"]),
            )
            for c in (_obj(x) for x in _list(t["conferences"]))
        )
        teams.append(
            TeamRecord(
                key=_str(t["key"]),
                side=_opt_str(t["side"]),
                members=_strs(t["members"]),
                spokesman=_opt_str(t["spokesman"]),
                proposal=_opt_strs(t["proposal"]),
                confirmed=_strs(t["confirmed"]),
                ranks=_opt_strs(t["ranks"]),
                corps=_pair_list(t["corps"]),
                draft=None if t["draft"] is None else _pair_list(t["draft"]),
                conferences=confs,
            )
        )
    turn_t = None
    if turn is not None:
        a, b = _list(turn)
        turn_t = (_str(a), _int(b))
    return TeamState(
        scenario=_str(d["scenario"]),
        notes_allowed=_bool(d["notes_allowed"]),
        auction=_bool(d["auction"]),
        commanders=tuple((s, _strs(cs)) for s, cs in _obj(d["commanders"]).items()),
        teams=tuple(teams),
        phase=_str(d["phase"]),
        phase_side=_opt_str(d["phase_side"]),
        turn=turn_t,
    )


def _list(v: JSON) -> list[JSON]:
    if not isinstance(v, list):
        raise ValueError("team state: expected a list")
    return v
