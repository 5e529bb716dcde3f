"""A game in play: the state model of digest 5 (`GameState`) and the turn machine's own record
(`flow`, digest 4.3-4.5): the stage, the order sheet being executed, the queue of steps still to
run, the geometric facts the umpire has confirmed for the step at the head of the queue, the
proposals waiting for the umpire, the result.

`flow` is plain JSON (no floats): it is dumped as it is. `apply` never changes a Match it was
given: the runner works on `copy.deepcopy(flow)` and on new GameStates.

A game set up from a scenario document (the option `scenario_document`, `documents.py`) carries
the document (`ScenarioDocument`: its text and sha256) so that any process can rebuild the
scenario from a snapshot; its JSON adds `document` only then (a shipped scenario's JSON is as it
was).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from dataclasses import dataclass, field, replace

from games.core.protocol import JSON
from games.valour_fortitude import state_json
from games.valour_fortitude.state import (
    Brigade,
    GameState,
    Leader,
    SideState,
    Unit,
)

# stages of `flow["stage"]`
INITIATIVE = "initiative"  # VF-251: the decider chooses who takes the first turn
ORDERS = "orders"  # digest 4.5: the active side's order sheet is awaited
RESOLVING = "resolving"  # the sheet is executed; the umpire may be asked (V-06, V-14)
OVER = "over"


@dataclass(frozen=True, slots=True)
class ScenarioDocument:
    """The `vf-scenario/1` text a game was set up from, and its sha256 (the key of the parsed
    scenario cache, `documents.py`)."""

    sha256: str
    text: str = field(repr=False)

    @classmethod
    def of(cls, text: str) -> ScenarioDocument:
        return cls(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), text)

    def to_json(self) -> JSON:
        return {"sha256": self.sha256, "text": self.text}


@dataclass(frozen=True, slots=True)
class Match:
    game: GameState
    flow: dict[str, JSON]
    # the game's JSON form, computed once (the GameState is immutable); callers get copies
    memo: dict[str, JSON] = field(default_factory=dict, compare=False, repr=False)
    document: ScenarioDocument | None = None  # set up from a scenario document

    def game_json(self) -> JSON:
        """A fresh copy of `state_json.dump(self.game)`."""
        if "game" not in self.memo:
            self.memo["game"] = game_text(self.game)
        text = self.memo["game"]
        assert isinstance(text, str)
        loaded: JSON = json.loads(text)
        return loaded

    # --- reading ---
    @property
    def stage(self) -> str:
        return str(self.flow["stage"])

    @property
    def auto_geometry(self) -> bool:
        return bool(self.flow.get("auto_geometry"))

    @property
    def pending(self) -> list[dict[str, JSON]] | None:
        found = self.flow.get("pending")
        return found if isinstance(found, list) else None  # type: ignore[return-value]


def game_text(game: GameState) -> str:
    """`state_json.dump(game)` as JSON text, built from the texts of its records (units,
    leaders, ...), each memoised: a new state differs from the last in a few records only."""
    parts = []
    for name in state_json.field_names(GameState):
        value = getattr(game, name)
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            text = "[" + ",".join(_record_text(v) for v in value) + "]"
        else:
            text = json.dumps(state_json.dump_value(value))
        parts.append(f"{json.dumps(name)}:{text}")
    return "{" + ",".join(parts) + "}"


@functools.lru_cache(maxsize=8192)
def _record_text(record: object) -> str:
    return json.dumps(state_json.dump_value(record))


def dump(match: Match) -> JSON:
    flow: JSON = json.loads(json.dumps(match.flow))
    out: dict[str, JSON] = {"game": match.game_json(), "flow": flow}
    if match.document is not None:
        out["document"] = match.document.to_json()
    return out


def load(data: JSON) -> Match:
    if not isinstance(data, dict) or set(data) - {"document"} != {"game", "flow"}:
        raise ValueError("a Valour & Fortitude match is {game, flow, document?}")
    flow = data["flow"]
    if not isinstance(flow, dict) or "stage" not in flow:
        raise ValueError("flow is an object with a stage")
    document = _document(data["document"]) if "document" in data else None
    game = _load_game(json.dumps(data["game"]))
    return Match(game, json.loads(json.dumps(flow)), document=document)


def _document(value: JSON) -> ScenarioDocument:
    if not isinstance(value, dict) or set(value) != {"sha256", "text"}:
        raise ValueError("a scenario document is {sha256, text}")
    text = value["text"]
    if not isinstance(text, str):
        raise ValueError("a scenario document's text is a string")
    doc = ScenarioDocument.of(text)
    if doc.sha256 != value["sha256"]:
        raise ValueError("the scenario document's sha256 does not match its text")
    return doc


@functools.lru_cache(maxsize=256)
def _load_game(text: str) -> GameState:
    """A game's JSON text, loaded strictly (memoised: a pure function of the text, and a
    GameState is immutable)."""
    return state_json.load(json.loads(text))


# --- replacing one record of a GameState (small tuples: a rebuild is cheap) ---


def with_unit(game: GameState, unit: Unit) -> GameState:
    return replace(game, units=tuple(unit if u.id == unit.id else u for u in game.units))


def with_brigade(game: GameState, brigade: Brigade) -> GameState:
    brigades = tuple(brigade if b.id == brigade.id else b for b in game.brigades)
    return replace(game, brigades=brigades)


def with_leader(game: GameState, leader: Leader) -> GameState:
    return replace(game, leaders=tuple(leader if x.id == leader.id else x for x in game.leaders))


def with_side(game: GameState, side: SideState) -> GameState:
    return replace(game, sides=tuple(side if s.id == side.id else s for s in game.sides))


def side_state(game: GameState, side: str) -> SideState:
    return next(s for s in game.sides if s.id == side)


def brigade(game: GameState, brigade_id: str) -> Brigade:
    return next(b for b in game.brigades if b.id == brigade_id)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def on_table(unit: Unit) -> bool:
    return not unit.fled and (bool(unit.bases) or unit.occupying is not None)
