"""The state model (digest section 5) and its JSON form: load(dump(s)) == s over random states,
no floats in the JSON, a strict loader, and the coherence checks the types cannot make."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.canonical import canonical_json
from games.core.protocol import JSON
from games.valour_fortitude.army_data import Category
from games.valour_fortitude.state import (
    BaseRect,
    Brigade,
    FateState,
    Formation,
    GameState,
    Leader,
    LeaderKind,
    Objective,
    Phase,
    Point,
    Section,
    SideState,
    Stats,
    Table,
    TerrainPiece,
    Trait,
    TurnFlags,
    TurnRecord,
    Unit,
    Upgrades,
)
from games.valour_fortitude.state_json import StateError, decimal_text, dump, load, state_problems
from tests.engines.valour_fortitude.vf_builders import D, leader, line

texts = st.text(max_size=12)
small = st.integers(min_value=-5, max_value=50)
inches = st.decimals(min_value=-500, max_value=500, places=3)
maybe = st.none
points = st.builds(Point, inches, inches)
bases = st.builds(BaseRect, inches, inches, inches, inches, inches, st.booleans())
stats = st.builds(Stats, small | maybe(), small, small, small | maybe(), st.tuples(texts))
upgrades = st.builds(
    Upgrades,
    st.lists(texts, max_size=3).map(tuple),
    st.booleans(),
    st.booleans(),
    st.lists(texts, max_size=2).map(tuple),
)
flags = st.builds(TurnFlags, *[st.booleans()] * 4, texts | maybe(), *[st.booleans()] * 7)
units = st.builds(
    Unit,
    texts,
    texts,
    texts,
    texts,
    texts,
    st.sampled_from(Category),
    small,
    st.sampled_from(Formation),
    small,
    small,
    st.lists(bases, max_size=3).map(tuple),
    stats,
    upgrades,
    st.booleans() | maybe(),
    small,
    st.sampled_from([None, -1, 0, 1]),
    st.booleans(),
    texts | maybe(),
    st.booleans(),
    st.booleans() | maybe(),
    st.booleans(),
    flags,
)
leaders = st.builds(
    Leader,
    texts,
    texts,
    st.sampled_from(LeaderKind),
    texts | maybe(),
    inches,
    inches,
    inches,
    st.lists(texts, max_size=2).map(tuple),
    texts | maybe(),
    st.booleans(),
)
brigades = st.builds(
    Brigade,
    texts,
    texts,
    texts,
    st.lists(texts, max_size=3).map(tuple),
    texts | maybe(),
    st.lists(texts, max_size=2).map(tuple),
    st.booleans(),
    st.booleans() | maybe(),
    st.booleans(),
    small,
    st.booleans(),
    small | maybe(),
)
polygons = st.lists(points, min_size=3, max_size=5).map(tuple)
pieces = st.builds(
    TerrainPiece,
    texts,
    texts,
    st.frozensets(st.sampled_from(Trait)),
    polygons,
    st.sampled_from([None, "defensible", "rough"]),
    small | maybe(),
    st.lists(points, max_size=2).map(tuple),
    st.booleans() | maybe(),
    st.lists(st.builds(Section, texts, polygons), max_size=2).map(tuple),
)
objectives = st.builds(
    Objective, texts, inches, inches, texts | maybe(), texts | maybe(), texts | maybe()
)
cards = st.lists(st.sampled_from(["A", "2", "10", "J", "K"]), max_size=4).map(tuple)
sides = st.builds(
    SideState,
    texts,
    texts,
    texts,
    texts | maybe(),
    texts | maybe(),
    texts | maybe(),
    small,
    st.builds(FateState, cards, cards, cards, st.booleans()),
    st.booleans(),
    st.booleans(),
)
turns = st.builds(
    TurnRecord,
    small,
    st.sampled_from(Phase),
    texts | maybe(),
    texts | maybe(),
    small,
    small,
    small | maybe(),
)
states = st.builds(
    GameState,
    texts,
    st.builds(Table, inches, inches),
    turns,
    st.lists(sides, max_size=2).map(tuple),
    st.lists(brigades, max_size=2).map(tuple),
    st.lists(units, max_size=3).map(tuple),
    st.lists(leaders, max_size=2).map(tuple),
    st.lists(pieces, max_size=2).map(tuple),
    st.lists(objectives, max_size=2).map(tuple),
    st.sampled_from(["28mm", "15mm", "6mm"]),
    st.lists(st.tuples(texts, texts), max_size=2).map(tuple),
)


def _floats(data: JSON) -> bool:
    if isinstance(data, float):
        return True
    if isinstance(data, list):
        return any(_floats(x) for x in data)
    if isinstance(data, dict):
        return any(_floats(x) for x in data.values())
    return False


@given(states)
def test_load_of_dump_is_the_state(state: GameState) -> None:
    assert load(dump(state)) == state


@given(states)
def test_the_json_form_survives_text_and_has_no_floats(state: GameState) -> None:
    data = dump(state)
    assert not _floats(data)
    text = canonical_json(data)
    assert load(json.loads(text)) == state
    assert canonical_json(dump(load(json.loads(text)))) == text  # canonical: the same text


def test_decimal_texts_are_canonical() -> None:
    assert decimal_text(Decimal("55.250")) == "55.25"
    assert decimal_text(Decimal("100")) == "100"
    assert decimal_text(Decimal("-0.000")) == "0"
    assert decimal_text(Decimal("0.0004")) == "0"  # three decimals at most
    assert decimal_text(Decimal("2.3605")) == "2.36"  # half to even


def _small_state() -> GameState:
    a = line("U-A1", "A", 10, 10)
    b = dataclasses.replace(line("U-B1", "B", 10, 30, 180), brigade="BR-B")
    return GameState(
        "test",
        Table(D(110), D(60)),
        TurnRecord(1, Phase.COMMAND, "A", "A"),
        (SideState("A", "france_1812_1815", "L-A0"), SideState("B", "britain_1807_1815", "L-B0")),
        (Brigade("BR-A", "A", "L-A1", ("U-A1",)), Brigade("BR-B", "B", "L-B1", ("U-B1",))),
        (a, b),
        (
            leader("L-A0", "A", 5, 5),
            leader("L-A1", "A", 10, 5),
            leader("L-B0", "B", 5, 55),
            leader("L-B1", "B", 10, 55),
        ),
    )


Change = Callable[[dict[str, Any]], object]


def test_the_loader_is_strict() -> None:
    data = dump(_small_state())
    assert isinstance(data, dict)
    changes: list[tuple[Change, str]] = [
        (lambda d: d.update(colour="blue"), "colour"),
        (lambda d: d.pop("table"), "table"),
        (lambda d: d["table"].update(width_in=110.0), "table.width_in"),
        (lambda d: d["table"].update(width_in="110.0001"), "table.width_in"),
        (lambda d: d["turn"].update(phase="LUNCH"), "turn.phase"),
        (lambda d: d["turn"].update(round=True), "turn.round"),
        (
            lambda d: d["units"][0]["bases"][0].update(front_rank="yes"),
            "units[0].bases[0].front_rank",
        ),
        (lambda d: d["units"][0].update(bases={}), "units[0].bases"),
    ]
    for change, where in changes:
        broken = json.loads(json.dumps(data))
        change(broken)
        with pytest.raises(StateError) as info:
            load(broken)
        assert info.value.path == where


def test_state_problems_finds_broken_references() -> None:
    state = _small_state()
    assert state_problems(state) == []
    orphan = dataclasses.replace(state.units[0], brigade="BR-X")
    no_front = dataclasses.replace(
        state.units[1],
        bases=tuple(dataclasses.replace(b, front_rank=False) for b in state.units[1].bases),
    )
    broken = dataclasses.replace(
        state,
        units=(orphan, no_front),
        leaders=(*state.leaders[:3], dataclasses.replace(state.leaders[3], brigade="BR-A")),
        sides=(state.sides[0], dataclasses.replace(state.sides[1], cinc="L-B1")),
        objectives=(Objective("U-A1", D(1), D(1)),),
    )
    assert state_problems(broken) == [
        "the id 'U-A1' is used twice",
        "U-A1: its brigade 'BR-X' does not list it",
        "U-B1: no base is marked as front rank (VF-43)",
        "BR-B: its BG 'L-B1' is not a leader of the brigade",
        "side B: its CinC 'L-B1' is not its CINC leader",
    ]


def test_lookups_by_id() -> None:
    state = dataclasses.replace(
        _small_state(),
        terrain=(
            TerrainPiece(
                "W1",
                "wood",
                frozenset({Trait.ROUGH}),
                (Point(D(0), D(0)), Point(D(1), D(0)), Point(D(0), D(1))),
            ),
        ),
    )
    assert state.unit("U-B1").side == "B"
    assert state.leader("L-A0").kind is LeaderKind.CINC
    assert state.piece("W1").kind == "wood"
    with pytest.raises(KeyError, match="U-C1"):
        state.unit("U-C1")
