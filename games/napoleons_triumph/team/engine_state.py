"""The team layer's part of the engine state (`GameState.team`, rulebook chapter 19): one JSON
object holding what the two-player engine does not keep. `TeamData` is its typed, mutable form;
`load` / `dump` convert (the dump is canonical: sorted where the order is not meaningful).

* `layer`: phases.TeamState (teams, ranks, corps assignment, conferences; phases.to_json)
* `turn`: the authority.TeamTurn of the running team turn (NT-TEAM-32), None outside play
* `started`: side -> the latest team turn k (round) of that side that has started (3.4.6): the
  `team_turn` of written_orders.readable_by
* `drafts`: recipient -> the canonical order JSON the CinC drafted in his running part
  (NT-TEAM-18), sealed into `slots` when his part ends
* `slots`: every sealed written order (WrittenOrder.to_json), in sealing order
* `step2`: [attack id, role] the pinned step-(2) decider of the attack in progress (NT-TEAM-40)
* `chat`: the conference messages [{team, conference, seq, author, text}] (digest 3.7)
* `setup`: the running set-up machine of the side setting up (setup.SideSetup, NT-TEAM-27..31;
  setup_play.py), None outside the set-up; dumped only while it runs
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.core.protocol import JSON
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team.authority import TeamTurn
from games.napoleons_triumph.team.model import Team
from games.napoleons_triumph.team.written_orders import WrittenOrder


@dataclass(slots=True)
class TeamData:
    layer: phases.TeamState
    turn: TeamTurn | None = None
    started: dict[str, int] = field(default_factory=dict)
    drafts: dict[str, dict[str, JSON]] = field(default_factory=dict)
    slots: list[dict[str, JSON]] = field(default_factory=list)
    step2: tuple[int, str] | None = None
    chat: list[dict[str, JSON]] = field(default_factory=list)
    setup: su.SideSetup | None = None

    def team(self, side: str) -> Team | None:
        return phases.team_of(self.layer, side)

    def teams(self) -> dict[str, Team]:
        out: dict[str, Team] = {}
        for side in ("AL", "F"):
            t = self.team(side)
            if t is not None:
                out[side] = t
        return out

    def assignment(self) -> dict[str, str]:
        """The announced corps assignment of both teams (commander -> role, NT-TEAM-8)."""
        out: dict[str, str] = {}
        for side in ("AL", "F"):
            out.update(phases.assignment_of(self.layer, side))
        return out

    def written(self, board: Board) -> list[WrittenOrder]:
        return [WrittenOrder.from_json(s, board) for s in self.slots]


def _obj(v: JSON) -> dict[str, JSON]:
    if not isinstance(v, dict):
        raise ValueError("team data: expected an object")
    return v


def _int(v: JSON) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError("team data: expected an integer")
    return v


def _list(v: JSON) -> list[JSON]:
    if not isinstance(v, list):
        raise ValueError("team data: expected a list")
    return v


def load(data: dict[str, JSON]) -> TeamData:
    turn = data.get("turn")
    t = None
    if turn is not None:
        d = _obj(turn)
        t = TeamTurn(str(d["side"]), _int(d["turn_number"]), _int(d["parts_ended"]))
    step2 = data.get("step2")
    s2 = None
    if step2 is not None:
        a, r = _list(step2)
        s2 = (_int(a), str(r))
    return TeamData(
        layer=phases.from_json(data["layer"]),
        turn=t,
        started={k: _int(v) for k, v in _obj(data.get("started", {})).items()},
        drafts={k: _obj(v) for k, v in _obj(data.get("drafts", {})).items()},
        slots=[_obj(x) for x in _list(data.get("slots", []))],
        step2=s2,
        chat=[_obj(x) for x in _list(data.get("chat", []))],
        setup=None if data.get("setup") is None else su.from_json(data["setup"]),
    )


def dump(data: TeamData) -> dict[str, JSON]:
    turn: JSON = None
    if data.turn is not None:
        turn = {
            "side": data.turn.side,
            "turn_number": data.turn.turn_number,
            "parts_ended": data.turn.parts_ended,
        }
    drafts: dict[str, JSON] = {k: data.drafts[k] for k in sorted(data.drafts)}
    started: dict[str, JSON] = {k: data.started[k] for k in sorted(data.started)}
    out: dict[str, JSON] = {
        "layer": phases.to_json(data.layer),
        "turn": turn,
        "started": started,
        "drafts": drafts,
        "slots": list[JSON](data.slots),
        "step2": None if data.step2 is None else [data.step2[0], data.step2[1]],
        "chat": list[JSON](data.chat),
    }
    if data.setup is not None:
        out["setup"] = su.to_json(data.setup)
    return out
