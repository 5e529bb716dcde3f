"""Test helpers for Napoleon's Triumph, for the project's tests and for outside test writers
(see the engine's README, "Testing from outside"): small synthetic boards loaded through the real
board loader (digest 5.1), pieces placed by the digest's notation, and `Table`, which plays and
refuses actions on a position. They ship with the tests, not with the engine; the engine's own
hooks (`positions.build`, the option `board_data`) are what they call.

    board = fragment("pair", {"X": 1, "Y": 2, "Z1": 3, "Z2": 4, "W": 5},
                     [("XY", "X", "Y"), ("YZ1", "Y", "Z1"), ("YZ2", "Y", "Z2"), ("XW", "X", "W")])
    state = position(board, ["F u1 INF2 @X.XY [-]", "AL a1 INF2 @Y.R [-]"], active="F")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import ParamSpec

from games.core.protocol import JSON, Action, GameConfig, LogEntry, Rejection, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import Board, parse_board, register_board
from games.napoleons_triumph.context import shown_as
from games.napoleons_triumph.state import AL, MAP, OFFMAP, Commander, F, GameState, TurnBook, Unit

_P = ParamSpec("_P")
ROLE = {F: "french", AL: "allied"}
PAIR_LOCALES = {"X": 1, "Y": 2, "Z1": 3, "Z2": 4, "W": 5, "L": 6}
PAIR_APPROACHES: list[tuple[str, str, str]] = [
    ("XY", "X", "Y"),
    ("YZ1", "Y", "Z1"),
    ("YZ2", "Y", "Z2"),
    ("XW", "X", "W"),
]


@dataclass
class Spec:
    """Extra facts for one approach: width per board, symbols per side, impassable."""

    wide: bool = False
    impassable: bool = False
    sides: dict[str, dict[str, JSON]] = field(default_factory=dict)  # locale key -> side map


def fragment_doc(
    name: str,
    locales: Mapping[str, int],
    approaches: Iterable[tuple[str, str, str]],
    specs: Mapping[str, Spec] | None = None,
    capacity: Mapping[str, int] | None = None,
    hills: Iterable[str] = (),
    stars: Mapping[str, list[str]] | None = None,
    roads: Iterable[tuple[str, str, str, int, int]] = (),
    entries: Iterable[tuple[str, str, str, int, str, bool]] = (),
    commanders: Iterable[tuple[str, str, str | None, bool]] = (),
    rounds: int = 10,
    santon: str | None = None,
    night_rounds: Iterable[int] = (),
    scenario: str = "T",
) -> dict[str, JSON]:
    """The `nt-board/1` document of a board fragment (pass it as the option `board_data` with
    `board_fragment: true`, or to `positions.build`); `fragment` builds and registers it.
    Roads are (class, from key, to key, strand_from, strand_to) over the approach joining them;
    entries are (id, side, locale key, strand, class, main); commanders are (id, side, set-up
    locale key or None, reinforcement); night_rounds are the indices of night rounds (NT-116)."""
    specs = specs or {}
    capacity = capacity or {}
    stars = stars or {}
    hill_set = set(hills)
    nights = set(night_rounds)
    doc_locales: list[JSON] = []
    for key, lid in locales.items():
        doc_locales.append(
            {
                "id": lid,
                "key": key.lower(),
                "name": None,
                "terrain": "open",
                "capacity": capacity.get(key, 20),
                "hill": key in hill_set or key == santon,
                "stars": list(stars.get(key, [])),
                "santon": key == santon,
                "side_home": "F",
                "setup": [c[0] for c in commanders if c[2] == key],
                "xy": None,
                "src": "test",
            }
        )
    doc_apps: list[JSON] = []
    app_of: dict[frozenset[str], str] = {}
    for aid, a, b in approaches:
        sp = specs.get(aid, Spec())
        entry: dict[str, JSON] = {
            "id": aid,
            "a": locales[a],
            "b": locales[b],
            "width": "wide" if sp.wide else "narrow",
            "impassable": sp.impassable,
        }
        if a in sp.sides:
            entry["a_side"] = sp.sides[a]
        if b in sp.sides:
            entry["b_side"] = sp.sides[b]
        doc_apps.append(entry)
        app_of[frozenset((a, b))] = aid
    crossings: list[JSON] = []
    classes = set()
    for cls, a, b, sa, sb in roads:
        classes.add(cls)
        crossings.append(
            {
                "road": "M" if cls == "main" else "L",
                "class": cls,
                "approach": app_of[frozenset((a, b))],
                "from": locales[a],
                "to": locales[b],
                "strand_from": sa,
                "strand_to": sb,
            }
        )
    doc: dict[str, JSON] = {
        "schema": "nt-board/1",
        "meta": {
            "id": name,
            "version": 1,
            "reconstructed": True,
            "capacity_values_allowed": [1, 2, 3, 4, 5, 6, 8, 9, 12, 16, 20],
        },
        "toponyms": [],
        "locales": doc_locales,
        "approaches": doc_apps,
        "roads": [
            {"id": "M", "class": "main", "toponym": None},
            {"id": "L", "class": "local", "toponym": None},
        ],
        "road_crossings": crossings,
        "entries": [
            {
                "id": e[0],
                "side": e[1],
                "locale": locales[e[2]],
                "strand": e[3],
                "road_class": e[4],
                "main_road_entry": e[5],
            }
            for e in entries
        ],
        "commanders": [
            {
                "id": c[0],
                "name": c[0].title(),
                "side": c[1],
                "setup_locale": None if c[2] is None else locales[c[2]],
                "reinforcement": c[3],
                "min_units": 1,
            }
            for c in commanders
        ],
        "scenarios": {
            scenario: {
                "name": "test",
                "allied_start": "all_corps_on_board",
                "starting_morale": {"F": 23, "AL": 27},
                "french_reinforcements": [
                    {"commander": c[0], "from": {"day": 2, "hour": 7}, "first_round": 1}
                    for c in commanders
                    if c[3]
                ],
                "rounds": [
                    {"index": i, "day": 2, "hour": 6 + i, "night": i in nights}
                    for i in range(1, rounds + 1)
                ],
            }
        },
        "army": {
            "F": [{"type": "INF", "strength": 2, "count": 1}],
            "AL": [{"type": "INF", "strength": 2, "count": 1}],
        },
    }
    return doc


def _registered(make: Callable[_P, dict[str, JSON]]) -> Callable[_P, Board]:
    def build(*args: _P.args, **kw: _P.kwargs) -> Board:
        doc = make(*args, **kw)
        meta = doc["meta"]
        assert isinstance(meta, dict)
        board = parse_board(doc, str(meta["id"]), fragment=True)
        register_board(board)
        return board

    return build


# The board of `fragment_doc(name, ...)` (same arguments), validated by the board loader
# (`parse_board` with `fragment=True`: the whole-map checks are skipped) and registered under
# `name`, so `board_named(name)` and the option `{"board": name}` find it in this process.
fragment = _registered(fragment_doc)


def pair(name: str = "pair", **kw: object) -> Board:
    """The digest's PAIR board (5.1): X-Y across XY; Y-Z1, Y-Z2, X-W; all narrow, capacity 20."""
    return fragment(name, PAIR_LOCALES, PAIR_APPROACHES, **kw)  # type: ignore[arg-type]


def position(
    board: Board,
    pieces: Iterable[str],
    active: str = F,
    morale: Mapping[str, int] | None = None,
    options: Mapping[str, JSON] | None = None,
    round_: int = 1,
) -> GameState:
    """Place units by the digest's notation: `side id face @LOCALE.R|LOCALE.APPROACH [corps|-]`,
    face INF1..3, GUARD3, CAV1..3, ART1, or `@off` for a reinforcement off the map. A corps name
    creates its commander in the units' position."""
    keys = {loc.key.upper(): lid for lid, loc in board.locales.items()}
    units: dict[str, Unit] = {}
    commanders: dict[str, Commander] = {}
    for text in pieces:
        side, uid, face, where, corps = text.split()
        t = face.rstrip("0123456789")
        strength = int(face[len(t) :])
        corps_id = None if corps == "[-]" else corps.strip("[]")
        if where == "@off":
            u = Unit(uid, side, t, strength, where=OFFMAP, corps=corps_id)
        else:
            lkey, app = where[1:].split(".")
            u = Unit(
                uid,
                side,
                t,
                strength,
                where=MAP,
                loc=keys[lkey.upper()],
                app=None if app == "R" else app,
                corps=corps_id,
            )
        units[uid] = u
        if corps_id is not None and corps_id not in commanders:
            commanders[corps_id] = Commander(corps_id, side, where=u.where, loc=u.loc, app=u.app)
    for c in board.commanders.values():
        commanders.setdefault(c.id, Commander(c.id, c.side, where="dead"))
    return GameState(
        board=board.name,
        scenario="T",
        options=dict(options or {}),
        roles={"allied": AL, "french": F},
        salt="test-salt",
        phase="turn",
        round=round_,
        active=active,
        turn_number=1,
        morale=dict(morale or {F: 23, AL: 27}),
        morale_lost={F: 0, AL: 0},
        elite_committed={F: [], AL: []},
        guard_banned={F: False, AL: False},
        reinforcements_entered=False,
        units=units,
        commanders=commanders,
        turn=TurnBook(),
        last_artillery={},
    )


class Table:
    """Plays actions on a position and keeps the log, as a referee at the table would."""

    def __init__(self, state: GameState) -> None:
        from games.napoleons_triumph import RULESET

        self.rules = RULESET
        self.state = state
        self.log: list[str] = []  # what the omniscient reader sees
        self.entries: list[LogEntry] = []

    def lines_for(self, role: str) -> list[str]:
        """The log lines a role may read (by audience)."""
        return [e.text for e in self.entries if e.audience is None or role in e.audience]

    def play(self, side: str, kind: str, payload: JSON = None) -> GameState:
        action = Action(ROLE[side], kind, {} if payload is None else payload)
        rejections = self.rules.validate(self.state, action)
        assert not rejections, f"{kind} rejected: {rejections}"
        step = self.rules.apply(self.state, action, Rng(0))
        self.state = step.state
        self.entries.extend(step.log)
        self.log.extend(
            e.text for e in step.log if e.audience is None or "@omniscient" in e.audience
        )
        return self.state

    def refuse(self, side: str, kind: str, payload: JSON = None) -> Rejection:
        action = Action(ROLE[side], kind, {} if payload is None else payload)
        rejections = self.rules.validate(self.state, action)
        assert rejections, f"{kind} {payload} was accepted"
        return rejections[0]

    def alias(self, viewer: str, uid: str) -> str:
        """How `viewer` (a side) names the unit now: own id, or the enemy unit's alias."""
        return shown_as(self.state, viewer, uid)

    def unit(self, uid: str) -> Unit:
        return self.state.units[uid]

    def face(self, uid: str) -> str:
        u = self.state.units[uid]
        return "dead" if u.where == "dead" else f"{u.type}{u.strength}"


@dataclass(frozen=True, slots=True)
class Playout:
    """A random legal game on the reconstructed Austerlitz board: `states[i]` is the state before
    `actions[i]`; `states` ends with the state after the last action."""

    states: list[GameState]
    actions: list[Action]


def random_playout(seed: int, steps: int, scenario: str = "DEC2") -> Playout:
    """Up to `steps` random legal actions from the set-up (seeded: the same game every time)."""
    config = GameConfig(scenario, {"board": "austerlitz"}, ("allied", "french"))
    state = RULESET.setup(config, Rng(seed))
    rng, states, actions = Rng(seed + 1), [state], []
    for seq in range(steps):
        prompts = RULESET.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(RULESET, state, role, rng, 20)
        if action is None:
            break
        state = RULESET.apply(state, action, Rng.for_event(bytes(32), seq + 2)).state
        states.append(state)
        actions.append(action)
    return Playout(states, actions)
