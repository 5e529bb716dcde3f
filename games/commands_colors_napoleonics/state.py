"""The game state in play (digest 2.13, 3.1): units with their blocks, leaders, the deck, the
banners, the phase of the turn, the turn's transient facts and the open decision; its JSON form
(the dump/load round trip is exact).

The state is mutable: `rules.py` works on a copy (`clone`) and hands back the new one.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.deck import DeckState, deck_from_json, deck_to_json
from games.commands_colors_napoleonics.hexes import Hex
from games.core.protocol import JSON

SIDES = ("top", "bottom")  # the scenario's side keys, also the roles (CCN-6)
PHASES = ("card", "orders", "move", "battle", "scout", "over")


def other(side: str) -> str:
    return "bottom" if side == "top" else "top"


@dataclass(frozen=True, slots=True)
class ScenarioDocument:
    """The scenario document a game was set up from (option `scenario_document`): the whole
    text, carried in the state so that any process can rebuild the scenario from a snapshot,
    and its sha256 (the key of the parsed-scenario cache, `documents.py`)."""

    sha256: str
    text: str

    @classmethod
    def of(cls, text: str) -> ScenarioDocument:
        return cls(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), text)


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    nation: str
    type: str
    hex: Hex
    blocks: int
    start_blocks: int  # CCN-201: never above the starting blocks
    in_square: int | None = None  # the square marker 1-4 (CCN-123)


@dataclass(slots=True)
class Leader:
    id: str
    side: str
    nation: str
    name: str
    hex: Hex


@dataclass(slots=True)
class Turn:
    """What happened this turn (digest 2.13); reset at the start of every turn."""

    card: str | None = None  # the card played (CCN-9)
    orders: list[str] = field(default_factory=list)  # ordered units and leaders (CCN-12)
    moved: dict[str, int] = field(default_factory=dict)  # piece -> hexes moved (CCN-40)
    done: list[str] = field(default_factory=list)  # pieces whose move is over (CCN-24)
    no_battle: list[str] = field(default_factory=list)  # entered forest / town (CCN-152, 163)
    battled: list[str] = field(default_factory=list)  # CCN-44
    bonus_used: list[str] = field(default_factory=list)  # CCN-105
    joined: list[str] = field(default_factory=list)  # units a leader attached to (CCN-37)
    fallback: bool = False  # the card's "order 1 unit of your choice" (CCN-189, AMB-18)
    strategic: bool = False  # La Grande Manoeuvre's strategic move (CCN-200)
    first_strike_by: list[str] = field(default_factory=list)  # they draw first (CCN-149)
    acts_as: str | None = None  # the card a Counter-attack is carried out as (CCN-193)
    pool: dict[str, int] = field(default_factory=dict)  # Élan / Rally dice by face (CCN-194, 201)


@dataclass(slots=True)
class GameState:
    scenario: str
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    deck: DeckState
    banners: dict[str, int]  # banners gained for good (CCN-73, CCN-80)
    held: dict[str, int]  # objective id -> the banners it gives now (CCN-208)
    active: str
    turn_no: int
    phase: str
    turn: Turn
    pending: dict[str, JSON] | None = None  # the open decision (digest 4.1)
    combat: dict[str, JSON] | None = None  # the battle being resolved (digest 4.2)
    last_roll: list[JSON] = field(default_factory=list)  # the rolls of the last action
    policies: dict[str, dict[str, str]] = field(default_factory=dict)  # standing choices (4.4)
    gone: list[str] = field(default_factory=list)  # eliminated or withdrawn pieces
    last_card: dict[str, str] = field(default_factory=dict)  # side -> its last phase-1 card
    result: dict[str, JSON] | None = None
    document: ScenarioDocument | None = None  # set up from a scenario document (8.2)


def hex_json(h: Hex) -> list[JSON]:
    return [h.row, h.col]


def hex_of(value: JSON) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"not a hex: {value!r}")
    row, col = value
    assert isinstance(row, int)
    assert isinstance(col, int)
    return Hex(row, col)


def _turn_json(t: Turn) -> dict[str, JSON]:
    return {
        "card": t.card,
        "orders": list(t.orders),
        "moved": dict(t.moved),
        "done": list(t.done),
        "no_battle": list(t.no_battle),
        "battled": list(t.battled),
        "bonus_used": list(t.bonus_used),
        "joined": list(t.joined),
        "fallback": t.fallback,
        "strategic": t.strategic,
        "first_strike_by": list(t.first_strike_by),
        "acts_as": t.acts_as,
        "pool": dict(t.pool),
    }


def dump(s: GameState) -> dict[str, JSON]:
    out = _dump(s)
    if s.document is not None:  # only then: the JSON of a shipped scenario's game is unchanged
        out["document"] = {"sha256": s.document.sha256, "text": s.document.text}
    return out


def _document_of(value: JSON) -> ScenarioDocument | None:
    if value is None:
        return None
    assert isinstance(value, dict)
    text = value["text"]
    assert isinstance(text, str)
    doc = ScenarioDocument.of(text)
    if doc.sha256 != value["sha256"]:
        raise ValueError("the scenario document does not match its sha256")
    return doc


def _dump(s: GameState) -> dict[str, JSON]:
    return {
        "scenario": s.scenario,
        "units": [
            {
                "id": u.id,
                "side": u.side,
                "nation": u.nation,
                "type": u.type,
                "hex": hex_json(u.hex),
                "blocks": u.blocks,
                "start_blocks": u.start_blocks,
                "in_square": u.in_square,
            }
            for u in s.units.values()
        ],
        "leaders": [
            {
                "id": ld.id,
                "side": ld.side,
                "nation": ld.nation,
                "name": ld.name,
                "hex": hex_json(ld.hex),
            }
            for ld in s.leaders.values()
        ],
        "deck": deck_to_json(s.deck),
        "banners": dict(s.banners),
        "held": dict(s.held),
        "active": s.active,
        "turn_no": s.turn_no,
        "phase": s.phase,
        "turn": _turn_json(s.turn),
        "pending": copy.deepcopy(s.pending),
        "combat": copy.deepcopy(s.combat),
        "last_roll": copy.deepcopy(s.last_roll),
        "policies": {k: dict(v) for k, v in s.policies.items()},
        "gone": list(s.gone),
        "last_card": dict(s.last_card),
        "result": copy.deepcopy(s.result),
    }


def load(data: JSON) -> GameState:
    assert isinstance(data, dict)
    d = data

    def strs(v: JSON) -> list[str]:
        assert isinstance(v, list)
        return [str(x) for x in v]

    units: dict[str, Unit] = {}
    for u in d["units"]:  # type: ignore[union-attr]
        assert isinstance(u, dict)
        unit = Unit(
            str(u["id"]),
            str(u["side"]),
            str(u["nation"]),
            str(u["type"]),
            hex_of(u["hex"]),
            int(u["blocks"]),  # type: ignore[arg-type]
            int(u["start_blocks"]),  # type: ignore[arg-type]
            None if u["in_square"] is None else int(u["in_square"]),  # type: ignore[arg-type]
        )
        units[unit.id] = unit
    leaders: dict[str, Leader] = {}
    for ld in d["leaders"]:  # type: ignore[union-attr]
        assert isinstance(ld, dict)
        leader = Leader(
            str(ld["id"]), str(ld["side"]), str(ld["nation"]), str(ld["name"]), hex_of(ld["hex"])
        )
        leaders[leader.id] = leader
    t = d["turn"]
    assert isinstance(t, dict)
    moved = t["moved"]
    assert isinstance(moved, dict)
    turn = Turn(
        None if t["card"] is None else str(t["card"]),
        strs(t["orders"]),
        {str(k): int(v) for k, v in moved.items()},  # type: ignore[arg-type]
        strs(t["done"]),
        strs(t["no_battle"]),
        strs(t["battled"]),
        strs(t["bonus_used"]),
        strs(t["joined"]),
        bool(t["fallback"]),
        bool(t["strategic"]),
        strs(t["first_strike_by"]),
        None if t["acts_as"] is None else str(t["acts_as"]),
        {str(k): int(v) for k, v in t["pool"].items()},  # type: ignore[union-attr, arg-type]
    )
    banners, held, policies = d["banners"], d["held"], d["policies"]
    assert isinstance(banners, dict)
    assert isinstance(held, dict)
    assert isinstance(policies, dict)
    pending, combat, result = d["pending"], d["combat"], d["result"]
    assert pending is None or isinstance(pending, dict)
    assert combat is None or isinstance(combat, dict)
    assert result is None or isinstance(result, dict)
    last_roll, last_card = d["last_roll"], d["last_card"]
    assert isinstance(last_roll, list)
    assert isinstance(last_card, dict)
    return GameState(
        scenario=str(d["scenario"]),
        units=units,
        leaders=leaders,
        deck=deck_from_json(d["deck"], BASE),
        banners={str(k): int(v) for k, v in banners.items()},  # type: ignore[arg-type]
        held={str(k): int(v) for k, v in held.items()},  # type: ignore[arg-type]
        active=str(d["active"]),
        turn_no=int(d["turn_no"]),  # type: ignore[arg-type]
        phase=str(d["phase"]),
        turn=turn,
        pending=copy.deepcopy(pending),
        combat=copy.deepcopy(combat),
        last_roll=copy.deepcopy(last_roll),
        policies={str(k): {str(a): str(b) for a, b in v.items()} for k, v in policies.items()},  # type: ignore[union-attr]
        gone=strs(d["gone"]),
        last_card={str(k): str(v) for k, v in last_card.items()},
        result=copy.deepcopy(result),
        document=_document_of(d.get("document")),
    )


def clone(s: GameState) -> GameState:
    """A copy to change (the deck state is immutable and shared); the same as load(dump(s))."""
    t = s.turn
    return GameState(
        scenario=s.scenario,
        units={
            k: Unit(u.id, u.side, u.nation, u.type, u.hex, u.blocks, u.start_blocks, u.in_square)
            for k, u in s.units.items()
        },
        leaders={
            k: Leader(ld.id, ld.side, ld.nation, ld.name, ld.hex) for k, ld in s.leaders.items()
        },
        deck=s.deck,
        banners=dict(s.banners),
        held=dict(s.held),
        active=s.active,
        turn_no=s.turn_no,
        phase=s.phase,
        turn=Turn(
            t.card,
            list(t.orders),
            dict(t.moved),
            list(t.done),
            list(t.no_battle),
            list(t.battled),
            list(t.bonus_used),
            list(t.joined),
            t.fallback,
            t.strategic,
            list(t.first_strike_by),
            t.acts_as,
            dict(t.pool),
        ),
        pending=copy.deepcopy(s.pending),
        combat=copy.deepcopy(s.combat),
        last_roll=copy.deepcopy(s.last_roll),
        policies={k: dict(v) for k, v in s.policies.items()},
        gone=list(s.gone),
        last_card=dict(s.last_card),
        result=copy.deepcopy(s.result),
        document=s.document,
    )
