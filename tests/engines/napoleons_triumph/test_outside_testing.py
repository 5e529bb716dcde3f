"""The engine is testable from outside without its internals.

A custom or fragment board is passed as data in the options (`board_data`, board_data.py), a
position is built from a compact dict (`positions.build`), and the view shows what a player needs
to decide: an open ride-on (NT-98) and the reserves entered this turn (NT-54 a). Each test is also
an example of the public API the engine's README documents."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, cast

import jsonschema
import pytest
import yaml

from games.core.canonical import state_hash
from games.core.protocol import JSON, OBSERVER, OMNISCIENT, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph import board_data as BD
from games.napoleons_triumph.board import DATA_DIR, BoardError, board_ids
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.invariants import perturb_hidden
from games.napoleons_triumph.positions import PositionError, build, custom_board_id
from games.napoleons_triumph.state import GameState
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    Table,
    fragment_doc,
)

SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C safe loader when there is libyaml
TEXT = (DATA_DIR / "austerlitz-published.yaml").read_text(encoding="utf-8")
PUBLISHED = yaml.load(TEXT, Loader=SAFE)  # noqa: S506 - a safe loader
X, Y, Z1, Z2, W = 1, 2, 3, 4, 5
ROLES = ("allied", "french", OBSERVER, OMNISCIENT)


def published_doc() -> dict[str, JSON]:
    return cast(dict[str, JSON], copy.deepcopy(PUBLISHED))


def road_pair(scenario: str = "T") -> dict[str, JSON]:
    """The digest's PAIR board (5.1) with a main road W-X-Y-Z1, as data."""
    return fragment_doc(
        "road-pair",
        PAIR_LOCALES,
        [*PAIR_APPROACHES, ("WX2", "W", "Z2")],
        roads=[("main", "W", "X", 0, 0), ("main", "X", "Y", 0, 0), ("main", "Y", "Z1", 0, 0)],
        commanders=[("soult", "F", "X", False), ("kutuzov", "AL", "Y", False)],
        scenario=scenario,
    )


def refusal(options: dict[str, JSON], scenario: str = "DEC2") -> Illegal:
    with pytest.raises(Illegal) as exc:
        RULESET.setup(GameConfig(scenario, options), Rng(1))
    return exc.value


def fragment_spec(**extra: Any) -> dict[str, JSON]:
    return {"board_data": road_pair(), "board_fragment": True, **extra}


def view(state: GameState, role: str) -> dict[str, Any]:
    return cast(dict[str, Any], RULESET.view(state, role))


def move(unit: str, locale: int) -> JSON:
    return {"unit": unit, "to": {"locale": locale}}


# ------------------------------------------------------------------ board_data in the options


def test_board_data_whole_board_replays_in_a_fresh_process() -> None:
    """NT-19: a whole board given as data is validated by the loader, named
    `custom-<sha256[:16]>`, and re-created from the state's options when no process has it:
    random play from it replays to the same hashes with the cache cleared."""
    options: dict[str, JSON] = {"board_data": published_doc()}
    state = RULESET.setup(GameConfig("DEC2", options), Rng(7))
    assert state.board == custom_board_id(published_doc())
    assert state.board.startswith("custom-")
    assert len(state.board) == len("custom-") + 16
    assert state.board not in board_ids()  # never listed, never reachable by options.board
    chooser = Rng(11)
    actions: list[Action] = []
    hashes = [state_hash(RULESET.dump(state))]
    for i in range(4):
        prompts = RULESET.prompts(state)
        role = sorted(prompts)[0]
        action = RULESET.random_action(state, role, chooser)
        assert action is not None
        state = RULESET.apply(state, action, Rng(100 + i)).state
        actions.append(action)
        hashes.append(state_hash(RULESET.dump(state)))
    BD.clear_cache()  # a worker that never saw the game: the state alone re-creates the board
    loaded = RULESET.load(RULESET.dump(state))
    assert RULESET.board(loaded).name == state.board
    assert view(loaded, "french")["board"] == state.board
    BD.clear_cache()
    again = RULESET.setup(GameConfig("DEC2", options), Rng(7))
    replayed = [state_hash(RULESET.dump(again))]
    for i, action in enumerate(actions):
        again = RULESET.apply(again, action, Rng(100 + i)).state
        replayed.append(state_hash(RULESET.dump(again)))
    assert replayed == hashes


def test_board_data_as_yaml_text_is_the_same_board() -> None:
    """NT-19: board_data may be the YAML text of a board file; it names the same board."""
    text = yaml.safe_dump(road_pair())
    as_text = RULESET.setup(GameConfig("T", {"board_data": text, "board_fragment": True}), Rng(1))
    as_dict = RULESET.setup(GameConfig("T", fragment_spec()), Rng(1))
    assert as_text.board == as_dict.board
    assert RULESET.board(as_text).locales.keys() == RULESET.board(as_dict).locales.keys()


def test_board_fragment_skips_only_the_whole_map_checks() -> None:
    """NT-19: a fragment (board_fragment: true) keeps every structural check; without the flag the
    whole-map checks refuse it, naming the rules."""
    state = RULESET.setup(GameConfig("T", fragment_spec()), Rng(1))
    assert state.board == custom_board_id(road_pair(), fragment=True)
    assert state.board != custom_board_id(road_pair())  # the flag is part of the id
    assert sorted(RULESET.board(state).locales) == [1, 2, 3, 4, 5, 6]
    whole = refusal({"board_data": road_pair()}, "T").rejection
    assert (whole.rule, whole.path) == ("NT-19", "/options/board_data")
    assert "V-9" in whole.message


def test_a_custom_id_is_not_a_board_option() -> None:
    """NT-19: `custom-...` cannot be named by options.board (it would depend on what one process
    happens to hold), even while the board is built."""
    state = RULESET.setup(GameConfig("T", fragment_spec()), Rng(1))
    e = refusal({"board": state.board}, "T").rejection
    assert (e.rule, e.path) == ("NT-19", "/options/board")


BOMB = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b]\n"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("x" * (BD.MAX_BYTES + 1), "bytes"),
        ({"meta": {"note": "y" * BD.MAX_BYTES}}, "bytes"),
        (BOMB, "aliases"),
        ("[" * 100_000, "nested"),
        ("- " * 50_000 + "x", "nested"),
        ("schema: [", "not valid YAML"),
        ({"schema": 1.5}, "float"),
        ({"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}, "nested"),
        ({"locales": list(range(BD.MAX_ITEMS + 1))}, "more than"),
        ({"army": {"F": [{"type": "INF", "strength": 2, "count": 10**9}]}}, "99 units"),
        ([1, 2], "object, or YAML"),
        (7, "object, or YAML"),
    ],
)
def test_board_data_over_the_limits_is_refused(data: JSON, words: str) -> None:
    """NT-19: board_data is bounded (size, depth, list lengths, army) and holds JSON values only;
    each refusal is one short NT-19 sentence at /options/board_data."""
    e = refusal({"board_data": data}).rejection
    assert (e.rule, e.path) == ("NT-19", "/options/board_data")
    assert words in e.message
    assert len(e.message) < 400


def test_an_invalid_board_lists_a_bounded_number_of_errors() -> None:
    """NT-19: the loader's errors, each with its place, at most MAX_ERRORS of them."""
    doc = road_pair()
    locales = cast(list[dict[str, JSON]], doc["locales"])
    for loc in locales:
        loc["capacity"] = "many"
    e = refusal({"board_data": doc, "board_fragment": True}, "T").rejection
    assert e.message.startswith("board_data: invalid board: locale 1")
    assert "capacity" in e.message
    assert e.message.count("; ") == BD.MAX_ERRORS  # 10 errors, then "; ... 12 more"
    assert e.message.endswith("more")


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"board": "austerlitz", "board_data": {"schema": "nt-board/1", "s": "zz9"}}, "/board"),
        ({"board_fragment": True}, "/board_fragment"),
        ({"board_data": {}, "board_fragment": "yes"}, "/board_fragment"),
    ],
)
def test_board_options_that_do_not_fit_together(options: dict[str, JSON], path: str) -> None:
    e = refusal(options).rejection
    assert (e.rule, e.path) == ("NT-19", "/options" + path)
    assert "zz9" not in e.message


def test_board_data_never_reads_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """NT-19: board_data is data: a value that looks like a path is parsed as YAML (a string, not
    a board) and no file is opened."""

    def boom(*args: object, **kw: object) -> str:
        raise AssertionError("a file was read")

    monkeypatch.setattr(Path, "read_text", boom)
    monkeypatch.setattr("builtins.open", boom)
    e = refusal({"board_data": str(DATA_DIR / "austerlitz.yaml")}).rejection
    assert (e.rule, e.path) == ("NT-19", "/options/board_data")
    assert "nt-board" in e.message  # "must be an nt-board/1 document"
    assert "Austerlitz" not in e.message


def test_the_cache_of_built_boards_is_bounded() -> None:
    """Built custom boards are cached (LRU, CACHE_SIZE); an evicted one is rebuilt on demand."""
    BD.clear_cache()
    ids = [BD.build(fragment_doc(f"m{i}", {"X": 1}, []), fragment=True).name for i in range(3)]
    assert len(set(ids)) == 3
    for i in range(BD.CACHE_SIZE):
        BD.build(fragment_doc(f"f{i}", {"X": 1}, []), fragment=True)
    assert len(BD._CACHE) == BD.CACHE_SIZE
    assert ids[0] not in BD._CACHE


def test_a_state_without_its_board_data_fails_clearly() -> None:
    """The id is checked against the data: a state whose options lost the data cannot run."""
    state = RULESET.setup(GameConfig("T", fragment_spec()), Rng(1))
    BD.clear_cache()
    state.options = {}
    with pytest.raises(BoardError, match="no board_data"):
        RULESET.board(state)


# ------------------------------------------------------------------ positions.build


def test_positions_turn_phase_morale_and_commands_used() -> None:
    """NT-38 (L221): "Pro Zug hat der Alliierte Spieler 3 Unabhängige Kommandos, und der
    Französische Spieler 4." A position with 4 French independent commands used refuses a
    fifth; turn, round, phase and morale are as given."""
    state = build(
        fragment_spec(
            round=3,
            turn_number=5,
            active="F",
            morale={"F": 9, "AL": 11},
            units=["F f1 INF2 @X.R [-]", "AL a1 INF2 @Z1.R [-]"],
            turn={"independent_used": 4},
        )
    )
    seen = view(state, "french")
    assert (seen["round"]["index"], seen["phase"], seen["active"]) == (3, "turn", "F")
    assert seen["morale"] == {"F": 9, "AL": 11}
    assert seen["commands_this_turn"]["independent"] == 4
    e = Table(state).refuse("F", "unit_move", move("f1", W))
    assert e.rule == "NT-38"
    state.turn.independent_used = 3
    Table(state).play("F", "unit_move", move("f1", W))


def test_positions_fixed_battery_and_revealed_unit() -> None:
    """NT-24 (L175): "Während des gesamten Spiels darf sich diese stationäre Batterie nicht
    bewegen." A revealed enemy unit shows its face; a hidden one does not."""
    state = build(
        fragment_spec(
            units=[
                "F f1 ART1 @X.XY [-] fixed",
                "F f2 CAV3 @X.R [-] revealed",
                "F f3 INF3 @X.R [-]",
                "AL a1 INF2 @Z1.R [-]",
            ]
        )
    )
    assert state.units["f1"].fixed
    assert state.units["f2"].revealed
    assert Table(state).refuse("F", "unit_move", move("f1", W)).rule == "NT-24"
    enemy = cast(list[dict[str, JSON]], view(state, "allied")["enemy_units"])
    faces = sorted(str(u["face"]) for u in enemy)
    assert faces == ["None", "None", "{'type': 'CAV', 'strength': 3}"]
    assert any(u.get("fixed_battery") for u in enemy)


def test_positions_road_lock_and_reserve_entered() -> None:
    """NT-54 (L286-287): "Es kann per Straße keine Stellung betreten, in deren Reservegebiet im
    selben Zug andere Spielsteine hineingezogen sind." / "Jede Stellung, in die es per Straße
    hinein- oder hindurchzieht, darf für den Rest des Zuges von keinem anderen Spielstein
    betreten werden." Both are set up by locale key or number, and both are in the view."""
    pieces = ["F f1 INF2 @W.R [soult]", "F f2 INF2 @W.R [soult]", "AL a1 INF2 @Z2.R [-]"]
    locked = build(fragment_spec(units=pieces, turn={"road_locked": ["x"]}))
    e = Table(locked).refuse("F", "unit_move", move("f1", X))
    assert e.rule == "NT-54"
    entered = build(fragment_spec(units=pieces, turn={"reserve_entered": [Y]}))
    road: JSON = {"commander": "soult", "road": True, "path": [X, Y]}
    assert Table(entered).refuse("F", "corps_move", road).rule == "NT-54"
    Table(build(fragment_spec(units=pieces))).play("F", "corps_move", road)
    for role in ROLES:
        locks = cast(dict[str, JSON], view(entered, role)["locks"])
        assert locks["reserve_entered"] == [Y]
        assert cast(dict[str, JSON], view(locked, role)["locks"])["road"] == [X]


def test_positions_open_ride_on() -> None:
    """NT-98 (L451): "Wenn der Verteidiger die Stellung in Schritt (2) freiwillig geräumt hat und
    wenn es ein Straßenangriff war, dürfen die angreifenden Spielsteine ihre Bewegung fortsetzen
    (und weitere Angriffe machen)." An open ride-on lets the cavalry ride on by road; without one,
    ride_on is refused; any other command ends it (NT-143)."""
    pieces = ["F c1 CAV2 @Y.R [-]", "F f1 INF2 @W.R [-]", "AL a1 INF2 @Z2.R [-]"]
    ride = {"units": ["c1"], "locale": "y", "entered": 1, "main_only": True}
    state = build(fragment_spec(units=pieces, ride_on=ride))
    assert state.ride_on is not None
    assert state.ride_on["side"] == "F"
    t = Table(state)
    t.play("F", "ride_on", {"path": [Z1]})
    assert t.unit("c1").loc == Z1
    assert Table(build(fragment_spec(units=pieces))).refuse(
        "F", "ride_on", {"path": [Z1]}
    ).rule == ("NT-98")
    t = Table(build(fragment_spec(units=pieces, ride_on=ride)))
    t.play("F", "unit_move", move("f1", X))
    assert t.state.ride_on is None


def test_the_view_shows_an_open_ride_on_to_everyone() -> None:
    """NT-98: the ride-on is public (the road attack was); the enemy names the units by alias; the
    road left follows NT-51 (main road 3 locales, 2 entered)."""
    pieces = ["F c1 CAV2 @Y.R [-]", "F c2 CAV1 @Y.R [-]", "AL a1 INF2 @Z2.R [-]"]
    ride = {"units": ["c1", "c2"], "command": "detach_move", "commander": "soult", "entered": 2}
    state = build(fragment_spec(units=pieces, ride_on=ride))
    own = cast(dict[str, JSON], view(state, "french")["ride_on"])
    assert own == {
        "side": "F",
        "command": "detach_move",
        "commander": "soult",
        "units": ["c1", "c2"],
        "locale": Y,
        "strand": 0,
        "entered": 2,
        "main_only": True,
        "road_left": 1,
    }
    enemy = cast(dict[str, JSON], view(state, "allied")["ride_on"])
    names = cast(list[str], enemy["units"])
    assert names == sorted(names)
    assert len(names) == 2
    assert "c1" not in names
    assert "c2" not in names
    assert view(build(fragment_spec(units=pieces)), "french")["ride_on"] is None


def test_views_of_built_positions_match_the_schema_and_hide_what_they_should() -> None:
    """The typed view stays valid with the new fields for every role, and no view changes when
    only what that role may not see changes (the fuzzer's check)."""
    state = build(
        fragment_spec(
            units=[
                "F c1 CAV2 @Y.R [-] arrived moves=1",
                "F f1 INF3 @X.XY [soult]",
                "AL a1 INF2 @Z2.R [kutuzov]",
                "AL a2 CAV3 @Z2.R [kutuzov] revealed",
            ],
            commanders={"soult": {"commands": 1, "arrived": True}},
            turn={"reserve_entered": ["y"], "road_locked": [X, "y"], "closed": ["XY"]},
            ride_on={"units": ["c1"], "entered": 1},
        )
    )
    schema = RULESET.view_schema()
    for role in ROLES:
        seen = view(state, role)
        jsonschema.validate(seen, cast(dict[str, Any], schema))
        side = state.roles.get(role)
        if side is not None:
            assert view(perturb_hidden(state, side, Rng(3)), role) == seen
    french = view(state, "french")
    soult = next(c for c in cast(list[dict[str, JSON]], french["commanders"]) if c["id"] == "soult")
    assert soult["arrived"] is True
    c1 = next(u for u in cast(list[dict[str, JSON]], french["units"]) if u["id"] == "c1")
    assert (c1["arrived"], c1["moves"]) == (True, 1)


def test_positions_replay_like_a_game() -> None:
    """A built position on a board given as data survives dump/load in a process that never saw
    the board, and plays on."""
    state = build(fragment_spec(units=["F f1 INF2 @X.R [-]", "AL a1 INF2 @Z1.R [-]"]))
    BD.clear_cache()
    loaded = RULESET.load(RULESET.dump(state))
    assert state_hash(RULESET.dump(loaded)) == state_hash(RULESET.dump(state))
    Table(loaded).play("F", "unit_move", move("f1", W))


def test_positions_on_a_shipped_board_by_id() -> None:
    state = build(
        {
            "board": "austerlitz-published",
            "phase": "turn",
            "active": "AL",
            "units": ["AL A01 INF3 @1.R [-]", "F F01 INF2 @3.R [-]"],
        }
    )
    assert state.board == "austerlitz-published"
    assert state.scenario == "DEC2"
    assert view(state, "allied")["active"] == "AL"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"colour": "red"}, "colour: unknown key"),
        ({"units": ["F f1 INF4 @X.R [-]"]}, "face"),
        ({"units": ["F f1 INF2 @Q.R [-]"]}, "not a locale"),
        ({"units": ["F f1 INF2 @X.YZ1 [-]"]}, "not an approach"),
        ({"units": ["F f1 INF2 @X.R [-] shiny"]}, "unknown flag"),
        ({"units": ["F f1 INF2 @X.R [-] fixed"]}, "NT-24"),
        ({"units": ["F f1 INF2 @X.R [-]", "AL a1 INF2 @X.R [-]"]}, "INV-4"),
        ({"turn": {"road_locked": [99]}}, "turn/road_locked"),
        ({"turn": {"used": 1}}, "turn/used"),
        ({"units": ["F f1 INF2 @X.R [-]"], "ride_on": {"units": ["f1"]}}, "only cavalry"),
        ({"phase": "over"}, "phase"),
        ({"round": 11}, "round"),
        ({"board_fragment": "yes"}, "board_fragment"),
    ],
)
def test_a_wrong_position_names_its_key(spec: dict[str, JSON], words: str) -> None:
    with pytest.raises(PositionError, match=words):
        build(fragment_spec(**spec))
