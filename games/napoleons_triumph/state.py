"""The game state of Napoleon's Triumph: plain mutable dataclasses, copied before every change.

`apply` never mutates its input: it works on `clone(state)`. The JSON form (`dump`/`load`) is the
canonical persisted form and the input of the state hash. No floats anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import TypeVar

from games.core.protocol import JSON

F = "F"
AL = "AL"
SIDES = (AL, F)


def other(side: str) -> str:
    return F if side == AL else AL


# Where a piece is: "pool" (not yet organised at set-up), "offmap" (a reinforcement not yet
# entered), "map", "dead" (eliminated).
POOL, OFFMAP, MAP, DEAD = "pool", "offmap", "map", "dead"


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    type: str  # INF GUARD CAV ART (NT-2 units, NT-3 faces)
    strength: int
    where: str = POOL
    loc: int | None = None
    app: str | None = None  # None = in reserve, else the approach it blocks (NT-13)
    corps: str | None = None  # commander id, or None = detached (NT-31)
    fixed: bool = False  # the French fixed battery (NT-24)
    moves: int = 0  # move commands received this turn (NT-43)
    arrived: bool = False  # entered as a reinforcement this turn (NT-62)
    named_via: list[str] = field(default_factory=list)  # approaches it was named against (NT-72)
    retreated: bool = False  # retreated after combat this turn (NT-109)
    revealed: bool = False  # face currently shown to the opponent


@dataclass(slots=True)
class Commander:  # NT-2: commanders, named by id
    id: str
    side: str
    where: str = POOL
    loc: int | None = None
    app: str | None = None
    commands: int = 0  # corps commands given this turn (NT-37)
    arrived: bool = False  # entered as a reinforcement this turn (NT-62)


@dataclass(slots=True)
class TurnBook:
    """Per-turn bookkeeping, reset at the start of every player turn."""

    independent_used: int = 0  # NT-38
    corps_used: int = 0  # NT-37 (limit 5 for the Allies)
    reserve_entered: list[int] = field(default_factory=list)  # NT-54(a)
    road_locked: list[int] = field(default_factory=list)  # NT-54(b)
    # NT-54(b) "kein anderer Spielstein" (L287): str(locale) -> the pieces of the corps that
    # locked it (units and commander); they are not kept out. Empty lists are dropped in `dump`.
    road_lockers: dict[str, list[str]] = field(default_factory=dict)
    conquered: list[int] = field(default_factory=list)  # NT-101
    closed: list[str] = field(default_factory=list)  # approach ids closed to attacks (NT-100)
    artillery_attacked: list[str] = field(default_factory=list)  # NT-99
    commands: list[dict[str, JSON]] = field(default_factory=list)  # public record (NT-44)


@dataclass(slots=True)
class Attack:
    """An attack in progress (digest 4.3). Unit lists hold server ids."""

    id: int
    attacker: str
    att_locale: int
    def_locale: int
    approach: str
    step: str
    guard_attack: bool = False
    guard_shown: str | None = None
    vacated: bool = False
    named: list[str] = field(default_factory=list)  # units and commanders named in step (2)
    def_blocking: bool = False
    committed_leading: list[str] = field(default_factory=list)  # step (4) choice, hidden until (3)
    feint: bool = False
    commands: list[dict[str, JSON]] = field(default_factory=list)
    attackers: list[str] = field(default_factory=list)  # attacking units
    att_commanders: list[str] = field(default_factory=list)
    started_blocking: bool = False  # attacking pieces started blocking the attack approach
    width: int = 1
    target: str | None = None
    att_leading: list[str] = field(default_factory=list)
    def_leading: list[str] = field(default_factory=list)
    artillery: bool = False
    prelim: int | None = None
    prelim_winner: str | None = None
    counter: list[str] = field(default_factory=list)
    final: int | None = None
    winner: str | None = None
    lost: dict[str, int] = field(default_factory=dict)  # side -> strength points lost (NT-111)
    losses: dict[str, JSON] | None = None  # the loss distribution in progress (steps 9-10)
    road_from: int | None = None  # road attack (NT-68): where the cavalry start, in reserve
    road_path: list[int] = field(default_factory=list)  # locales entered up to the attack locale
    ride: bool = False  # the road attack continues a ride-on (NT-98)


@dataclass(slots=True)
class Pending:
    """The one decision the engine waits for, addressed to a side (never a user: NT-140)."""

    side: str
    kind: str  # defend | after_vacate | feint | feint_hold | declare | counter | odd_loss | ...
    data: dict[str, JSON] = field(default_factory=dict)


@dataclass(slots=True)
class GameState:
    board: str
    scenario: str
    options: dict[str, JSON]
    roles: dict[str, str]  # role id -> side it plays (team play adds roles, not code)
    salt: str  # secret alias salt (never leaves the engine)
    phase: str  # auction | setup_AL | setup_F | turn | over
    round: int  # 1-based index on the time track
    active: str
    turn_number: int  # counts player turns; alias epoch
    morale: dict[str, int]
    morale_lost: dict[str, int]  # gross losses so far (AMB-2)
    elite_committed: dict[str, list[str]]  # side -> ["heavy_cav", "guard"] (NT-120, NT-122)
    guard_banned: dict[str, bool]  # NT-127
    reinforcements_entered: bool  # NT-63
    units: dict[str, Unit]
    commanders: dict[str, Commander]
    turn: TurnBook
    last_artillery: dict[str, int]  # "side|approach|att_locale" -> round (NT-84)
    attack: Attack | None = None
    pending: Pending | None = None
    ride_on: dict[str, JSON] | None = None  # reserved for road attacks (NT-98)
    plans: dict[str, dict[str, JSON]] = field(default_factory=dict)  # side -> standing instructions
    next_attack_id: int = 1
    result: dict[str, JSON] | None = None
    auction: dict[str, JSON] | None = None  # the auction for sides (NT-134, NT-135; auction.py)
    # Team play (rulebook chapter 19, NT-TEAM-n): the team layer's JSON (team/engine_state.py);
    # None in two-player games, whose dumps omit it.
    team: dict[str, JSON] | None = None


T = TypeVar("T")


_FIELDS: dict[type, tuple[str, ...]] = {}


def _to_json(value: object) -> JSON:
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return value  # type: ignore[return-value]
    if t is list or t is tuple:
        return [_to_json(v) for v in value]  # type: ignore[attr-defined]
    if t is dict:
        return {str(k): _to_json(v) for k, v in value.items()}  # type: ignore[attr-defined]
    names = _FIELDS.get(t)
    if names is None:
        if not is_dataclass(value):
            raise TypeError(f"not JSON-safe: {value!r}")
        names = _FIELDS[t] = tuple(f.name for f in fields(value))
    return {n: _to_json(getattr(value, n)) for n in names}


def dump(state: GameState) -> JSON:
    out = _to_json(state)
    assert isinstance(out, dict)
    if out.get("auction") is None:
        del out["auction"]  # games without the auction keep the form (and hashes) they had
    if out.get("team") is None:
        del out["team"]  # two-player games keep the form (and hashes) they had
    turn = out.get("turn")
    if isinstance(turn, dict) and not turn.get("road_lockers"):
        del turn["road_lockers"]  # games without a road march keep the form they had
    return out


def _obj(data: JSON) -> dict[str, JSON]:
    if not isinstance(data, dict):
        raise ValueError("state: expected an object")
    return data


def _build(cls: type[T], data: JSON) -> T:
    raw = _obj(data)
    return cls(**raw)


def load(data: JSON) -> GameState:
    raw = dict(_obj(data))
    units = {k: _build(Unit, v) for k, v in _obj(raw.pop("units")).items()}
    commanders = {k: _build(Commander, v) for k, v in _obj(raw.pop("commanders")).items()}
    turn = _build(TurnBook, raw.pop("turn"))
    att = raw.pop("attack")
    pend = raw.pop("pending")
    state = GameState(
        units=units,
        commanders=commanders,
        turn=turn,
        attack=None if att is None else _build(Attack, att),
        pending=None if pend is None else _build(Pending, pend),
        **raw,  # type: ignore[arg-type]
    )
    return state


def _copy(value: object) -> object:
    """A deep copy of state data, of the very types `load(dump(value))` would build (tuples
    become lists, dict keys strings), without the JSON in between."""
    t = type(value)
    if t in _ATOMS:
        return value
    if t is list or t is tuple:
        return [v if type(v) in _ATOMS else _copy(v) for v in value]  # type: ignore[attr-defined]
    if t is dict:
        return {
            str(k): v if type(v) in _ATOMS else _copy(v)
            for k, v in value.items()  # type: ignore[attr-defined]
        }
    names = _FIELDS.get(t)
    if names is None:
        if not is_dataclass(value):
            raise TypeError(f"not JSON-safe: {value!r}")
        names = _FIELDS[t] = tuple(f.name for f in fields(value))
    new = object.__new__(t)
    for n in names:
        v = getattr(value, n)
        setattr(new, n, v if type(v) in _ATOMS else _copy(v))
    return new


_ATOMS = frozenset({str, int, bool, type(None)})


def clone(state: GameState) -> GameState:
    """What `load(dump(state))` gives (a test holds them equal over random games), at about
    half its cost: every order is validated and applied on a clone."""
    out = _copy(state)
    assert isinstance(out, GameState)
    return out
