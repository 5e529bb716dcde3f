"""Set-up in team play (rulebook 19, L688-694; digest 2.5 NT-TEAM-27..31, phases SETUP_5..9 of
3.2): who does which part of one side's set-up, in which order. A pure machine on frozen
dataclasses; once `done`, `engine_payload` gives the engine's one `allied_setup` /
`french_setup` payload (deployment.py), whose own rules (NT-19..NT-24: corps sizes, locales,
capacity, detachment distance, the battery's face) the engine checks when the lead applies it.

Steps of a side:
* Allies: organize (CinC, NT-TEAM-27) -> starting (DEC1 only, Allied CinC, NT-TEAM-28) ->
  place (one part per seat in rank order, NT-TEAM-29) -> done.
* French: organize (CinC) -> place (parts in rank order) -> detach (parts in rank order, a shared
  limit of 6, NT-TEAM-30) -> battery (French CinC, any corps, NT-TEAM-31, AMB-12) -> done.

Actions (role, kind, payload): organize_corps {"corps": [{"commander", "units": [...]}]},
choose_starting_corps {"corps": [c1, c2]}, place_corps {"commander", "approach": id|null},
detach_unit {"unit", "position": {"locale", "approach"}}, choose_fixed_battery {"unit" (null:
none, NT-24), "approach"?}, end_setup_part (no payload). A seat with nothing to place still has
its part and ends it (AMB-10: DEC1 seats with reinforcement corps only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.state import AL, F
from games.napoleons_triumph.team.authority import TeamRefused
from games.napoleons_triumph.team.phases import TeamState, assignment_of, team_of

ORGANIZE, STARTING, PLACE, DETACH, BATTERY, DONE = (
    "organize",
    "starting",
    "place",
    "detach",
    "battery",
    "done",
)
ORGANIZE_CORPS = "organize_corps"
CHOOSE_STARTING = "choose_starting_corps"
PLACE_CORPS = "place_corps"
DETACH_UNIT = "detach_unit"
CHOOSE_BATTERY = "choose_fixed_battery"
END_PART = "end_setup_part"
KINDS = (ORGANIZE_CORPS, CHOOSE_STARTING, PLACE_CORPS, DETACH_UNIT, CHOOSE_BATTERY, END_PART)
MAX_DETACHED = 6  # NT-TEAM-30: the limit of set-up step (8), for the whole French team
# the digest's error codes (5.2, NT-TEAM-T12..T15): TeamRefused.code and .status
NOT_CINC, NOT_YOUR_PART, NOT_YOUR_CORPS, DETACH_LIMIT = (
    "not_cinc",  # 403
    "not_your_setup_part",  # 409
    "not_your_corps",  # 403
    "detach_limit",  # 409
)

_STEP_OF = {
    ORGANIZE_CORPS: ORGANIZE,
    CHOOSE_STARTING: STARTING,
    PLACE_CORPS: PLACE,
    DETACH_UNIT: DETACH,
    CHOOSE_BATTERY: BATTERY,
}
_RULE_OF = {
    ORGANIZE: "NT-TEAM-27",
    STARTING: "NT-TEAM-28",
    PLACE: "NT-TEAM-29",
    DETACH: "NT-TEAM-30",
    BATTERY: "NT-TEAM-31",
    DONE: "NT-TEAM-29",
}


@dataclass(frozen=True, slots=True)
class SideSetup:
    side: str
    ranks: tuple[str, ...]  # the locked rank order (rank 1 first)
    owners: tuple[tuple[str, str], ...]  # (commander, role): the announced assignment
    off_map: tuple[str, ...]  # commanders that must start off the map (French reinforcements)
    two_corps: bool  # DEC1: the Allied CinC chooses the 2 corps that start on the board
    step: str = ORGANIZE
    part: int = 0  # index into `ranks` of the seat whose part runs (place, detach)
    corps: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (commander, units) from organize_corps
    starting: tuple[str, ...] = ()  # NT-TEAM-28
    placed: tuple[tuple[str, str | None], ...] = ()  # (commander, approach or reserve)
    detached: tuple[tuple[str, int, str | None], ...] = ()  # (unit, locale, approach)
    battery: tuple[str, str | None] | None = None  # (unit, approach)

    @property
    def cinc(self) -> str:
        return self.ranks[0]

    def owner(self, commander: str) -> str | None:
        return dict(self.owners).get(commander)

    def on_board(self) -> tuple[str, ...]:
        """The corps that start on the board, in organize order."""
        if self.two_corps:
            return tuple(c for c, _ in self.corps if c in self.starting)
        return tuple(c for c, _ in self.corps if c not in self.off_map)


def new_setup(team_state: TeamState, side: str, board: Board) -> SideSetup:
    """The set-up of `side` once its initial conference has closed (ranks and corps known)."""
    team = team_of(team_state, side)
    if team is None:
        raise Illegal("NT-TEAM-4", T("the set-up waits for the initial conference"))
    scen = board.scenarios[team_state.scenario]
    off = tuple(c.id for c in board.commanders.values() if c.side == side and c.reinforcement)
    owners = assignment_of(team_state, side)
    return SideSetup(
        side=side,
        ranks=tuple(s.role for s in team.seats),
        owners=tuple(owners.items()),
        off_map=off if side == F else (),
        two_corps=side == AL and scen.allied_start == "two_corps_chosen_by_allied_player",
    )


def acting(setup: SideSetup) -> str | None:
    """The seat that acts now (None when done)."""
    if setup.step == DONE:
        return None
    if setup.step in (PLACE, DETACH):
        return setup.ranks[setup.part]
    return setup.cinc


def refusal(setup: SideSetup, role: str, kind: str) -> Rejection | None:
    try:
        _gate(setup, role, kind)
    except Illegal as e:
        return e.rejection
    return None


def _gate(setup: SideSetup, role: str, kind: str) -> str:
    """Returns the rule of the current step; raises when `role` may not send `kind` now."""
    rule = _RULE_OF[setup.step]
    if role not in setup.ranks:
        raise Illegal(
            "NT-TEAM-29",
            T("{role} is not a seat of the {side} team", role=repr(role), side=setup.side),
            "/role",
        )
    if kind not in KINDS:
        raise Illegal(rule, T("{kind} is not a team set-up action", kind=repr(kind)), "/kind")
    step = _STEP_OF.get(kind)
    if step is not None and step != setup.step:
        raise Illegal(
            _RULE_OF[step],
            T("the set-up is at step {step}, not {other}", step=repr(setup.step), other=repr(step)),
        )
    if kind == END_PART and setup.step not in (PLACE, DETACH):
        raise Illegal(rule, T("this step has no parts to end"))
    if role != acting(setup):
        if setup.step in (PLACE, DETACH):
            raise TeamRefused(
                rule,
                NOT_YOUR_PART,
                409,
                T("not_your_setup_part: a higher-ranked seat has not finished its part yet"),
                "/role",
            )
        raise TeamRefused(
            rule, NOT_CINC, 403, T("not_cinc: only the commander-in-chief does this"), "/role"
        )
    return rule


def apply(setup: SideSetup, role: str, kind: str, payload: JSON) -> SideSetup:
    """One set-up action (pure); raises Illegal naming its NT-TEAM rule."""
    rule = _gate(setup, role, kind)
    p: dict[str, JSON] = {}
    if kind == END_PART:
        if payload not in (None, {}):
            raise Illegal(rule, T("end_setup_part has no payload"), "/")
        return _end_part(setup, role)
    if not isinstance(payload, dict):
        raise Illegal(rule, T("the payload must be a JSON object"), "/")
    p = payload
    if kind == ORGANIZE_CORPS:
        return _organize(setup, p)
    if kind == CHOOSE_STARTING:
        return _starting(setup, p)
    if kind == PLACE_CORPS:
        return _place(setup, role, p)
    if kind == DETACH_UNIT:
        return _detach(setup, role, p)
    return _battery(setup, p)


def _strings(v: JSON, rule: str, path: str) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise Illegal(rule, T("expected a list of ids"), path)
    return tuple(x for x in v if isinstance(x, str))


def _opt_str(p: Mapping[str, JSON], key: str, rule: str) -> str | None:
    v = p.get(key)
    if v is not None and not isinstance(v, str):
        raise Illegal(rule, T("{field} is an id or null", field=repr(key)), f"/{key}")
    return v


def _organize(setup: SideSetup, p: dict[str, JSON]) -> SideSetup:
    """NT-TEAM-27: the CinC assigns the units to the corps (secret from the other team)."""
    rule = "NT-TEAM-27"
    raw = p.get("corps")
    if not isinstance(raw, list):
        raise Illegal(
            rule,
            T("organize_corps is {form}", form='{"corps": [{"commander", "units"}]}'),
            "/corps",
        )
    corps: list[tuple[str, tuple[str, ...]]] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("commander"), str):
            raise Illegal(rule, T("each corps names its commander"), f"/corps/{i}")
        cid = str(entry["commander"])
        if setup.owner(cid) is None or cid in {c for c, _ in corps}:
            raise Illegal(
                rule,
                T("{commander} is not one of your commanders, once", commander=repr(cid)),
                f"/corps/{i}",
            )
        units = _strings(entry.get("units"), rule, f"/corps/{i}/units")
        if seen & set(units) or len(set(units)) != len(units):
            raise Illegal(rule, T("a unit joins one corps only"), f"/corps/{i}/units")
        seen |= set(units)
        corps.append((cid, units))
    missing = [c for c, _ in setup.owners if c not in {x for x, _ in corps}]
    if missing:
        raise Illegal(
            rule,
            T("commanders without a corps: {commanders}", commanders=", ".join(missing)),
            "/corps",
        )
    return replace(setup, corps=tuple(corps), step=STARTING if setup.two_corps else PLACE)


def _starting(setup: SideSetup, p: dict[str, JSON]) -> SideSetup:
    """NT-TEAM-28: the Allied CinC chooses the 2 corps on the board, of any seats."""
    rule = "NT-TEAM-28"
    chosen = _strings(p.get("corps"), rule, "/corps")
    if len(set(chosen)) != 2 or any(setup.owner(c) is None for c in chosen):
        raise Illegal(rule, T("choose 2 different Allied corps to start on the board"), "/corps")
    return replace(setup, starting=chosen, step=PLACE, part=0)


def _place(setup: SideSetup, role: str, p: dict[str, JSON]) -> SideSetup:
    """NT-TEAM-29: every seat places its own corps, in its part (locale: the commander's name)."""
    rule = "NT-TEAM-29"
    cid = p.get("commander")
    if not isinstance(cid, str):
        raise Illegal(rule, T("name the commander of the corps"), "/commander")
    if setup.owner(cid) != role:
        raise TeamRefused(
            rule,
            NOT_YOUR_CORPS,
            403,
            T("not_your_corps: {commander} is not one of your corps", commander=repr(cid)),
            "/commander",
        )
    if cid not in setup.on_board():
        raise Illegal(
            rule, T("{commander} does not start on the board", commander=cid), "/commander"
        )
    if cid in {c for c, _ in setup.placed}:
        raise Illegal(rule, T("{commander} is already placed", commander=cid), "/commander")
    app = _opt_str(p, "approach", rule)
    return replace(setup, placed=(*setup.placed, (cid, app)))


def _end_part(setup: SideSetup, role: str) -> SideSetup:
    if setup.step == PLACE:
        mine = [c for c in setup.on_board() if setup.owner(c) == role]
        left = [c for c in mine if c not in {x for x, _ in setup.placed}]
        if left:
            raise Illegal("NT-TEAM-29", T("place your corps first: {corps}", corps=", ".join(left)))
    if setup.part + 1 < len(setup.ranks):
        return replace(setup, part=setup.part + 1)
    if setup.step == PLACE and setup.side == F:
        return replace(setup, step=DETACH, part=0)
    if setup.step == DETACH:
        return replace(setup, step=BATTERY, part=0)
    return replace(setup, step=DONE, part=0)


def _corps_of(setup: SideSetup, unit: str) -> str | None:
    for c, units in setup.corps:
        if unit in units:
            return c
    return None


def _detach(setup: SideSetup, role: str, p: dict[str, JSON]) -> SideSetup:
    """NT-TEAM-30: only from a corps of his own; the limit of 6 is the team's."""
    rule = "NT-TEAM-30"
    uid = p.get("unit")
    if not isinstance(uid, str):
        raise Illegal(rule, T("name the unit"), "/unit")
    cid = _corps_of(setup, uid)
    if cid is None or setup.owner(cid) != role:
        raise TeamRefused(
            rule,
            NOT_YOUR_CORPS,
            403,
            T("not_your_corps: {unit} is not in one of your corps", unit=repr(uid)),
            "/unit",
        )
    if cid not in setup.on_board():
        raise Illegal(rule, T("{commander} does not start on the board", commander=cid), "/unit")
    if uid in {u for u, _, _ in setup.detached}:
        raise Illegal(rule, T("{unit} is already detached", unit=uid), "/unit")
    if len(setup.detached) >= MAX_DETACHED:
        raise TeamRefused(
            rule,
            DETACH_LIMIT,
            409,
            T("detach_limit: your team has detached {n} units already", n=MAX_DETACHED),
            "/unit",
        )
    pos = p.get("position")
    if not isinstance(pos, dict):
        raise Illegal(rule, T("the position is {form}", form='{"locale", "approach"}'), "/position")
    loc = pos.get("locale")
    if not isinstance(loc, int) or isinstance(loc, bool):
        raise Illegal(rule, T("the position names a locale number"), "/position/locale")
    app = _opt_str(pos, "approach", rule)
    return replace(setup, detached=(*setup.detached, (uid, loc, app)))


def _battery(setup: SideSetup, p: dict[str, JSON]) -> SideSetup:
    """NT-TEAM-31 (AMB-12): the French CinC chooses it from any French corps on the board, or a
    detached unit; that it is artillery is the engine's NT-24. `unit` null: no battery, which the
    engine allows only when no French artillery starts on the board (NT-24)."""
    rule = "NT-TEAM-31"
    uid = p.get("unit")
    if uid is None and "unit" in p:
        return replace(setup, battery=None, step=DONE)
    if not isinstance(uid, str):
        raise Illegal(rule, T("name the unit"), "/unit")
    cid = _corps_of(setup, uid)
    if cid is None or cid not in setup.on_board():
        raise Illegal(rule, T("{unit} is not a French unit on the board", unit=repr(uid)), "/unit")
    return replace(setup, battery=(uid, _opt_str(p, "approach", rule)), step=DONE)


def engine_payload(setup: SideSetup) -> JSON:
    """The engine's allied_setup / french_setup payload of a finished team set-up."""
    if setup.step != DONE:
        raise Illegal(
            _RULE_OF[setup.step], T("the team set-up is at step {step}", step=repr(setup.step))
        )
    placed = dict(setup.placed)
    board = setup.on_board()
    corps: list[JSON] = []
    for cid, units in setup.corps:
        entry: dict[str, JSON] = {
            "commander": cid,
            "units": list(units),
            "off_map": cid not in board,
        }
        if cid in board:
            entry["approach"] = placed.get(cid)
        corps.append(entry)
    out: dict[str, JSON] = {"corps": corps}
    if setup.side == F:
        out["detachments"] = [
            {"unit": u, "position": {"locale": loc, "approach": app}}
            for u, loc, app in setup.detached
        ]
        if setup.battery is not None:
            out["fixed_battery"] = {"unit": setup.battery[0], "approach": setup.battery[1]}
    return out


def to_json(setup: SideSetup) -> JSON:
    return {
        "side": setup.side,
        "ranks": list(setup.ranks),
        "owners": [[c, r] for c, r in setup.owners],
        "off_map": list(setup.off_map),
        "two_corps": setup.two_corps,
        "step": setup.step,
        "part": setup.part,
        "corps": [[c, list(us)] for c, us in setup.corps],
        "starting": list(setup.starting),
        "placed": [[c, a] for c, a in setup.placed],
        "detached": [[u, loc, a] for u, loc, a in setup.detached],
        "battery": None if setup.battery is None else list(setup.battery),
    }


def _s(v: JSON) -> str:
    if not isinstance(v, str):
        raise ValueError("team set-up: expected a string")
    return v


def _os(v: JSON) -> str | None:
    return None if v is None else _s(v)


def _l(v: JSON) -> list[JSON]:
    if not isinstance(v, list):
        raise ValueError("team set-up: expected a list")
    return v


def _i(v: JSON) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError("team set-up: expected an integer")
    return v


def from_json(data: JSON) -> SideSetup:
    if not isinstance(data, dict):
        raise ValueError("team set-up: expected an object")
    d = data
    owners = tuple((_s(_l(x)[0]), _s(_l(x)[1])) for x in _l(d["owners"]))
    corps = tuple((_s(_l(x)[0]), tuple(_s(u) for u in _l(_l(x)[1]))) for x in _l(d["corps"]))
    placed = tuple((_s(_l(x)[0]), _os(_l(x)[1])) for x in _l(d["placed"]))
    detached = tuple((_s(_l(x)[0]), _i(_l(x)[1]), _os(_l(x)[2])) for x in _l(d["detached"]))
    bat = d["battery"]
    two = d["two_corps"]
    if not isinstance(two, bool):
        raise ValueError("team set-up: two_corps is a boolean")
    return SideSetup(
        side=_s(d["side"]),
        ranks=tuple(_s(x) for x in _l(d["ranks"])),
        owners=owners,
        off_map=tuple(_s(x) for x in _l(d["off_map"])),
        two_corps=two,
        step=_s(d["step"]),
        part=_i(d["part"]),
        corps=corps,
        starting=tuple(_s(x) for x in _l(d["starting"])),
        placed=placed,
        detached=detached,
        battery=None if bat is None else (_s(_l(bat)[0]), _os(_l(bat)[1])),
    )
