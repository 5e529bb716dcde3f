"""Positions from a compact dict: a GameState for a test or a ruling, without playing up to it.

Pure: no I/O beyond the board loader (a shipped board by id, a registered fragment, or a custom
board given as data, as in the game options). Every key is checked; a mistake raises
`PositionError` naming the key, and the finished state must pass the invariants (INV-1..INV-7).

    from games.napoleons_triumph.positions import build

    state = build({
        "board": "austerlitz",            # or "board_data": {...} (+ "board_fragment": true)
        "scenario": "DEC2",               # default: the board's first scenario
        "phase": "turn", "active": "F",   # setup_AL | setup_F | turn
        "round": 3, "turn_number": 5,
        "morale": {"F": 20, "AL": 25},
        "units": [
            # side id face @where [corps|-] flags...   (where: LOCALE.R, LOCALE.APPROACH, off,
            # pool, dead; LOCALE a number or a locale key; flags: fixed revealed arrived
            # retreated moves=N named=A017,A018)
            "F F01 ART1 @24.R [-] fixed revealed",
            "F F05 CAV2 @24.A017 [murat] moves=1",
            "AL A03 INF3 @off [bagration]",
        ],
        "commanders": {"murat": {"commands": 1, "arrived": True}},   # position: its units'
        "turn": {"independent_used": 1, "corps_used": 0, "reserve_entered": [24],
                 "road_locked": [20, 22], "conquered": [], "closed": [],
                 "artillery_attacked": [], "commands": []},
        "ride_on": {"units": ["F05"], "commander": None, "command": "unit_move",
                    "locale": 24, "strand": 1, "entered": 1, "main_only": True},
        "reinforcements_entered": False, "elite_committed": {"F": [], "AL": []},
        "guard_banned": {"F": False, "AL": False}, "morale_lost": {"F": 0, "AL": 0},
        "last_artillery": {}, "plans": {}, "options": {"santon": True},
        "pending": None, "attack": None,   # the state's own JSON form (state.py), if needed
    })

A commander named as a corps stands with that corps' first unit listed; the board's other
commanders are `dead` unless `commanders` places them (`"at": "24.R" | "off" | "pool" |
"dead"`). Locales in `turn` and `ride_on` may be numbers or locale keys. The state replays like a
game's: `RULESET.board(state)` finds its board, `dump`/`load` round-trip it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from games.core.protocol import JSON
from games.napoleons_triumph import board_data
from games.napoleons_triumph.board import Board, BoardError, board_named
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.invariants import violations
from games.napoleons_triumph.scenario import board_of, check_options
from games.napoleons_triumph.state import (
    AL,
    DEAD,
    MAP,
    OFFMAP,
    POOL,
    SIDES,
    Attack,
    Commander,
    F,
    GameState,
    Pending,
    TurnBook,
    Unit,
)

KEYS = frozenset(
    {
        "board",
        "board_data",
        "board_fragment",
        "scenario",
        "phase",
        "active",
        "round",
        "turn_number",
        "morale",
        "morale_lost",
        "units",
        "commanders",
        "turn",
        "ride_on",
        "reinforcements_entered",
        "elite_committed",
        "guard_banned",
        "last_artillery",
        "plans",
        "options",
        "roles",
        "salt",
        "pending",
        "attack",
    }
)
PHASES = ("setup_AL", "setup_F", "turn")
FACES = {"INF": (1, 2, 3), "GUARD": (3,), "CAV": (1, 2, 3), "ART": (1,)}
FLAGS = ("fixed", "revealed", "arrived", "retreated")
TURN_LOCALES = ("reserve_entered", "road_locked", "conquered")
TURN_KEYS = frozenset(
    {*TURN_LOCALES, "independent_used", "corps_used", "closed", "artillery_attacked", "commands"}
)
RIDE_KEYS = frozenset(
    {"units", "commander", "command", "locale", "strand", "entered", "main_only", "side"}
)


class PositionError(ValueError):
    """A position that cannot be built: the message names the key and what is wrong."""


def _fail(where: str, msg: str) -> PositionError:
    return PositionError(f"{where}: {msg}")


def _int(v: object, where: str, lo: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise _fail(where, f"must be an integer >= {lo}, got {v!r}")
    return v


def _bool(v: object, where: str) -> bool:
    if not isinstance(v, bool):
        raise _fail(where, f"must be true or false, got {v!r}")
    return v


def _sides(v: object, where: str) -> dict[str, object]:
    if not isinstance(v, dict) or set(v) != {F, AL}:
        raise _fail(where, f'must map both sides "F" and "AL", got {v!r}')
    return cast(dict[str, object], v)


class _Builder:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.keys = {loc.key.lower(): lid for lid, loc in board.locales.items()}

    def locale(self, v: object, where: str) -> int:
        if isinstance(v, int) and not isinstance(v, bool) and v in self.board.locales:
            return v
        if isinstance(v, str):
            if v.isdigit() and int(v) in self.board.locales:
                return int(v)
            if v.lower() in self.keys:
                return self.keys[v.lower()]
        raise _fail(where, f"{v!r} is not a locale of board {self.board.name}")

    def place(self, text: str, where: str) -> tuple[str, int | None, str | None]:
        """`LOCALE.R`, `LOCALE.APPROACH`, `off`, `pool`, `dead` -> (where, locale, approach)."""
        if text in ("off", "pool", "dead"):
            return {"off": OFFMAP, "pool": POOL, "dead": DEAD}[text], None, None
        lkey, dot, app = text.partition(".")
        if not dot:
            raise _fail(where, f"@{text}: write LOCALE.R (reserve) or LOCALE.APPROACH")
        loc = self.locale(lkey, where)
        if app.upper() == "R":
            return MAP, loc, None
        if app not in self.board.approaches_of(loc):
            raise _fail(where, f"{app!r} is not an approach of locale {loc}")
        return MAP, loc, app

    def unit(self, text: object, where: str) -> Unit:
        if not isinstance(text, str):
            raise _fail(where, "a unit is a string 'side id face @where [corps|-] flags...'")
        parts = text.split()
        if len(parts) < 5:
            raise _fail(where, f"{text!r}: write 'side id face @where [corps|-] flags...'")
        side, uid, face, at, corps, *flags = parts
        if side not in SIDES:
            raise _fail(where, f"side {side!r} is F or AL")
        typ = face.rstrip("0123456789")
        strength = face[len(typ) :]
        if typ not in FACES or not strength.isdigit() or int(strength) not in FACES[typ]:
            raise _fail(where, f"face {face!r} is one of INF1-3, GUARD3, CAV1-3, ART1")
        if not at.startswith("@"):
            raise _fail(where, f"{at!r}: the position starts with @")
        if not (corps.startswith("[") and corps.endswith("]")):
            raise _fail(where, f"{corps!r}: the corps is [commander] or [-] (detached)")
        w, loc, app = self.place(at[1:], where)
        cid = corps[1:-1]
        u = Unit(uid, side, typ, int(strength), where=w, loc=loc, app=app)
        u.corps = None if cid == "-" else cid
        for flag in flags:
            name, eq, value = flag.partition("=")
            if name in FLAGS and not eq:
                setattr(u, name, True)
            elif name == "moves" and eq and value.isdigit():
                u.moves = int(value)
            elif name == "named" and eq:
                u.named_via = [a for a in value.split(",") if a]
            else:
                raise _fail(
                    where, f"unknown flag {flag!r}; use {', '.join(FLAGS)}, moves=N, named="
                )
        if u.fixed and (u.side != F or u.type != "ART"):
            raise _fail(where, "only a French artillery unit is a fixed battery (NT-24)")
        return u


def _board(spec: Mapping[str, JSON]) -> tuple[Board, dict[str, JSON]]:
    """The board and the options that name it (a custom board travels in the options)."""
    options = dict(cast(Mapping[str, JSON], spec.get("options") or {}))
    for key in ("board", "board_data", "board_fragment"):
        if key in spec:
            options[key] = spec[key]
    try:
        check_options(options)
        if "board_data" in options or "board_fragment" in options:
            return board_of(options), options
        return board_named(str(options.get("board", "austerlitz-published"))), options
    except Illegal as e:
        where = e.rejection.path.replace("/options/", "") or "options"
        raise _fail(where, e.rejection.message) from None
    except BoardError as e:
        raise _fail("board", str(e)) from None


def build(spec: Mapping[str, JSON]) -> GameState:
    """A GameState from the compact dict `spec` (module docstring). Raises PositionError."""
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise _fail(unknown[0], f"unknown key; the keys are {', '.join(sorted(KEYS))}")
    board, options = _board(spec)
    b = _Builder(board)
    scenario = str(spec.get("scenario", next(iter(board.scenarios))))
    if scenario not in board.scenarios:
        raise _fail(
            "scenario", f"{scenario!r}; board {board.name} has {', '.join(board.scenarios)}"
        )
    phase = spec.get("phase", "turn")
    if phase not in PHASES:
        raise _fail("phase", f"{phase!r} is one of {', '.join(PHASES)}")
    active = spec.get("active", F)
    if active not in SIDES:
        raise _fail("active", f"{active!r} is F or AL")
    rounds = len(board.scenarios[scenario].rounds)
    round_ = _int(spec.get("round", 1), "round", 1)
    if round_ > rounds:
        raise _fail("round", f"{round_}; scenario {scenario} has {rounds} rounds")
    morale = _sides(spec.get("morale", dict(board.scenarios[scenario].starting_morale)), "morale")

    units: dict[str, Unit] = {}
    raw_units = spec.get("units", [])
    if not isinstance(raw_units, list):
        raise _fail("units", "a list of unit strings")
    for i, text in enumerate(raw_units):
        u = b.unit(text, f"units/{i}")
        if u.id in units:
            raise _fail(f"units/{i}", f"unit {u.id} is listed twice")
        units[u.id] = u

    commanders: dict[str, Commander] = {}
    for u in units.values():
        if u.corps is not None and u.corps not in commanders:
            commanders[u.corps] = Commander(u.corps, u.side, where=u.where, loc=u.loc, app=u.app)
    for cdef in board.commanders.values():
        commanders.setdefault(cdef.id, Commander(cdef.id, cdef.side, where=DEAD))
    raw_cmd = spec.get("commanders", {})
    if not isinstance(raw_cmd, dict):
        raise _fail("commanders", "maps commander ids to {at, commands, arrived}")
    for cid, facts in raw_cmd.items():
        where = f"commanders/{cid}"
        if cid not in commanders or not isinstance(facts, dict):
            raise _fail(where, "not a commander of this board or of a listed corps")
        c = commanders[cid]
        for key, value in facts.items():
            if key == "at":
                c.where, c.loc, c.app = b.place(str(value), where)
            elif key == "commands":
                c.commands = _int(value, f"{where}/commands")
            elif key == "arrived":
                c.arrived = _bool(value, f"{where}/arrived")
            else:
                raise _fail(f"{where}/{key}", "unknown key; use at, commands, arrived")

    turn = _turn(b, spec.get("turn", {}))
    state = GameState(
        board=board.name,
        scenario=scenario,
        options=options,
        roles=dict(cast(dict[str, str], spec.get("roles", {"allied": AL, "french": F}))),
        salt=str(spec.get("salt", "position-salt")),
        phase=str(phase),
        round=round_,
        active=str(active),
        turn_number=_int(spec.get("turn_number", 1), "turn_number"),
        morale={s: _int(v, f"morale/{s}") for s, v in morale.items()},
        morale_lost={
            s: _int(v, f"morale_lost/{s}")
            for s, v in _sides(spec.get("morale_lost", {F: 0, AL: 0}), "morale_lost").items()
        },
        elite_committed={
            s: [str(x) for x in cast(list[str], v)]
            for s, v in _sides(
                spec.get("elite_committed", {F: [], AL: []}), "elite_committed"
            ).items()
        },
        guard_banned={
            s: _bool(v, f"guard_banned/{s}")
            for s, v in _sides(
                spec.get("guard_banned", {F: False, AL: False}), "guard_banned"
            ).items()
        },
        reinforcements_entered=_bool(
            spec.get("reinforcements_entered", False), "reinforcements_entered"
        ),
        units=units,
        commanders=commanders,
        turn=turn,
        last_artillery=dict(cast(dict[str, int], spec.get("last_artillery", {}))),
        plans=dict(cast(dict[str, dict[str, JSON]], spec.get("plans", {}))),
    )
    state.ride_on = _ride(b, state, spec.get("ride_on"))
    for key, cls in (("pending", Pending), ("attack", Attack)):
        raw = spec.get(key)
        if raw is not None:
            try:
                setattr(state, key, cls(**cast(dict[str, object], raw)))  # type: ignore[arg-type]
            except TypeError as e:
                raise _fail(key, f"not the state's form of {cls.__name__}: {e}") from None
    broken = violations(board, state)
    if broken:
        raise _fail("position", "; ".join(broken))
    return state


def _turn(b: _Builder, raw: object) -> TurnBook:
    if not isinstance(raw, dict):
        raise _fail("turn", "an object")
    unknown = sorted(set(raw) - TURN_KEYS)
    if unknown:
        raise _fail(f"turn/{unknown[0]}", f"unknown key; use {', '.join(sorted(TURN_KEYS))}")
    book = TurnBook(
        independent_used=_int(raw.get("independent_used", 0), "turn/independent_used"),
        corps_used=_int(raw.get("corps_used", 0), "turn/corps_used"),
    )
    for key in TURN_LOCALES:
        values = raw.get(key, [])
        if not isinstance(values, list):
            raise _fail(f"turn/{key}", "a list of locales")
        setattr(book, key, sorted({b.locale(v, f"turn/{key}") for v in values}))
    for key in ("closed", "artillery_attacked"):
        values = raw.get(key, [])
        if not isinstance(values, list) or any(v not in b.board.approaches for v in values):
            raise _fail(f"turn/{key}", "a list of approach ids of the board")
        setattr(book, key, [str(v) for v in values])
    commands = raw.get("commands", [])
    if not isinstance(commands, list):
        raise _fail("turn/commands", "a list of command records (NT-44)")
    book.commands = [cast(dict[str, JSON], c) for c in commands]
    return book


def _ride(b: _Builder, state: GameState, raw: object) -> dict[str, JSON] | None:
    """An open ride-on (NT-98): the cavalry of a vacated road attack, in `locale`'s reserve."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _fail("ride_on", "an object or null")
    unknown = sorted(set(raw) - RIDE_KEYS)
    if unknown:
        raise _fail(f"ride_on/{unknown[0]}", f"unknown key; use {', '.join(sorted(RIDE_KEYS))}")
    ids = raw.get("units")
    if not isinstance(ids, list) or not ids or any(u not in state.units for u in ids):
        raise _fail("ride_on/units", "a non-empty list of listed units")
    units = [state.units[str(u)] for u in ids]
    loc = b.locale(raw.get("locale", units[0].loc), "ride_on/locale")
    side = units[0].side
    if any(u.where != MAP or u.loc != loc or u.side != side for u in units):
        raise _fail("ride_on/units", f"the riding units are all one side's, on locale {loc}")
    if any(u.type != "CAV" for u in units):
        raise _fail("ride_on/units", "only cavalry ride on (NT-68, NT-98)")
    commander = raw.get("commander")
    command = raw.get("command", "unit_move" if len(units) == 1 and not commander else "corps_move")
    if command not in ("corps_move", "detach_move", "unit_move"):
        raise _fail("ride_on/command", "corps_move, detach_move or unit_move")
    if commander is not None and commander not in state.commanders:
        raise _fail("ride_on/commander", f"{commander!r} is not a commander")
    strands = b.board.strands(loc)
    strand = raw.get("strand", strands[0] if strands else None)
    if strand not in strands:
        raise _fail("ride_on/strand", f"locale {loc} has road strands {list(strands)}")
    return {
        "side": side,
        "kind": str(command),
        "commander": None if commander is None else str(commander),
        "units": [u.id for u in units],
        "locale": loc,
        "strand": cast(int, strand),
        "entered": _int(raw.get("entered", 1), "ride_on/entered", 1),
        "main_only": _bool(raw.get("main_only", True), "ride_on/main_only"),
    }


def custom_board_id(data: JSON, fragment: bool = False) -> str:
    """The id (`custom-<16 hex>`) a game or position with `board_data` = data gets."""
    return board_data.custom_id(data, fragment)
