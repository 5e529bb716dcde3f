"""Board loader and map queries of Napoleon's Triumph (games.napoleons_triumph.board)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from games.napoleons_triumph.board import (
    DATA_DIR,
    Board,
    BoardError,
    FaceDef,
    board_named,
    load_board,
    normalise_name,
    parse_board,
)

SMALL = DATA_DIR / "austerlitz.yaml"
PUBLISHED = DATA_DIR / "austerlitz-published.yaml"


@pytest.fixture(scope="module")
def small_doc() -> dict[str, object]:
    doc = yaml.safe_load(SMALL.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


@pytest.fixture
def doc(small_doc: dict[str, object]) -> dict[str, object]:
    return copy.deepcopy(small_doc)


@pytest.fixture(scope="module")
def small() -> Board:
    return board_named("austerlitz")


@pytest.fixture(scope="module")
def published() -> Board:
    return board_named("austerlitz-published")


def items(doc: dict[str, object], key: str) -> list[dict[str, object]]:
    value = doc[key]
    assert isinstance(value, list)
    return value


def item(doc: dict[str, object], key: str, field: str, ident: object) -> dict[str, object]:
    return next(x for x in items(doc, key) if x[field] == ident)


def errors_of(doc: object) -> list[str]:
    with pytest.raises(BoardError) as exc:
        parse_board(doc, "x")
    return str(exc.value).splitlines()


def has_error(lines: list[str], prefix: str, *fragments: str) -> bool:
    return any(ln.startswith(prefix) and all(f in ln for f in fragments) for ln in lines)


# --- the shipped boards ------------------------------------------------------------------------


def test_small_board_counts(small: Board) -> None:
    assert small.id == "austerlitz-reconstructed"
    assert small.name == "austerlitz"
    assert len(small.locales) == 56
    assert len(small.approaches) == 130
    assert sum(a.impassable for a in small.approaches.values()) == 4
    assert len(small.entries) == 9
    assert len(small.commanders) == 17
    assert set(small.scenarios) == {"DEC1", "DEC2"}
    assert len(small.toponyms) == 41
    assert small.santon == 6


def test_published_board_counts(published: Board) -> None:
    assert published.id == "austerlitz-published"
    assert published.name == "austerlitz-published"
    assert len(published.locales) == 168
    assert set(published.locales) == set(range(1, 171)) - {145, 146}
    assert len(published.approaches) == 293
    assert sum(a.impassable for a in published.approaches.values()) == 12
    assert len(published.entries) == 20
    assert sum(e.main for e in published.entries if e.side == "F") == 1
    assert sum(e.main for e in published.entries if e.side == "AL") == 2
    assert published.santon is not None
    assert len(published.approaches_of(published.santon)) == 3


@pytest.mark.parametrize("name", ["austerlitz", "austerlitz-published"])
def test_army(name: str) -> None:
    board = board_named(name)
    french, allied = board.army["F"], board.army["AL"]
    assert len(french) == 36
    assert len(allied) == 44
    assert [uid for uid, _ in french] == [f"F{i:02d}" for i in range(1, 37)]
    assert [uid for uid, _ in allied] == [f"A{i:02d}" for i in range(1, 45)]
    assert french[0] == ("F01", FaceDef("ART", 1))
    assert french[-1] == ("F36", FaceDef("GUARD", 3))
    assert allied[4] == ("A05", FaceDef("CAV", 1))
    counts: dict[tuple[str, int], int] = {}
    for _, face in french:
        counts[(face.type, face.strength)] = counts.get((face.type, face.strength), 0) + 1
    assert counts == {
        ("ART", 1): 3,
        ("CAV", 2): 5,
        ("CAV", 3): 3,
        ("INF", 2): 16,
        ("INF", 3): 7,
        ("GUARD", 3): 2,
    }


def test_board_named_is_cached_and_load_board_reads_paths(small: Board, tmp_path: Path) -> None:
    assert board_named("austerlitz") is small
    by_path = load_board(SMALL)
    assert by_path.name == "austerlitz"
    assert len(by_path.locales) == 56
    as_json = tmp_path / "myboard.json"
    as_json.write_text(json.dumps(yaml.safe_load(SMALL.read_text(encoding="utf-8"))))
    mine = load_board(as_json)
    assert mine.name == "myboard"
    assert len(mine.approaches) == 130


def test_board_named_unknown() -> None:
    with pytest.raises(BoardError, match="no such board"):
        board_named("no-such-board")


def test_load_board_reports_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: nt-board/0\n")
    with pytest.raises(BoardError) as exc:
        load_board(bad)
    assert str(bad) in str(exc.value)
    assert "schema: expected 'nt-board/1'" in str(exc.value)


def test_board_is_immutable(small: Board) -> None:
    with pytest.raises(AttributeError):
        small.id = "other"
    with pytest.raises(TypeError):
        small.locales[1] = small.locales[2]  # type: ignore[index]


# --- queries ---------------------------------------------------------------------------------


def test_neighbours_and_impassable(small: Board) -> None:
    # A063 (Menitzer Teich) joins 26 and 49 and is impassable.
    assert small.approaches["A063"].impassable
    assert 49 in small.neighbours(26)
    assert 49 not in small.passable_neighbours(26)
    assert small.neighbours(26) == (23, 24, 25, 49, 52)
    assert small.passable_neighbours(26) == (23, 24, 25, 52)
    assert "A063" in small.approaches_of(26)
    assert small.approaches_of(6) == ("A010", "A012", "A013")


def test_between_and_other_locale(small: Board) -> None:
    assert small.between(1, 3) == "A001"
    assert small.between(3, 1) == "A001"
    assert small.between(1, 56) is None
    assert small.other_locale("A001", 1) == 3
    assert small.other_locale("A001", 3) == 1
    with pytest.raises(ValueError, match="A001"):
        small.other_locale("A001", 2)


def test_side_penalties(small: Board) -> None:
    # A001: open locale 1 faces the village Lösch (3).
    s1 = small.side("A001", 1)
    s3 = small.side("A001", 3)
    assert s1.locale == 1
    assert s1.penalties == frozenset({"C", "A"})
    assert not s1.obstructed
    assert s3.penalties == frozenset({"A"})
    assert s3.obstructed
    assert s1.width == s3.width == 1
    assert small.side("A002", 1).width == 2
    with pytest.raises(ValueError, match="A001"):
        small.side("A001", 56)


def test_road_strands(small: Board) -> None:
    # The road crossing in Krug (locale 30): the Olmütz road (strand 0) and the
    # Blaschowitz-Kowalowitz road (strand 1) do not connect. (austerlitz-map.md 2.5 calls it
    # "locale 31 (Krug)"; in the file Krug is locale 30.)
    assert small.locales[30].name == "Krug"
    assert small.strands(30) == (0, 1)
    assert {s.to_locale for s in small.road_steps(30, 0)} == {8, 29}
    assert {s.to_locale for s in small.road_steps(30, 1)} == {28, 31}
    assert all(s.road_class == "main" for s in small.road_steps(30, 0))
    assert all(s.road_class == "local" for s in small.road_steps(30, 1))
    step = next(s for s in small.road_steps(30, 1) if s.to_locale == 31)
    assert step.approach == small.between(30, 31)
    assert small.road_steps(30, 7) == ()
    assert len(small.road_steps_any(30)) == 4
    assert {strand for strand, _ in small.road_steps_any(30)} == {0, 1}
    assert small.strands(31) == (0,)
    assert small.strands(26) == (0,)
    # every crossing is seen from both ends
    for lid in small.locales:
        for strand, st in small.road_steps_any(lid):
            back = small.road_steps(st.to_locale, st.to_strand)
            assert any(
                b.approach == st.approach and b.to_locale == lid and b.to_strand == strand
                for b in back
            )


def test_distances(small: Board) -> None:
    d1 = small.distances_from(1)
    assert d1[1] == 0
    assert len(d1) == 56
    assert small.distances_from(1) is d1  # cached
    for a in small.locales:
        da = small.distances_from(a)
        for b in small.locales:
            assert da[b] == small.distances_from(b)[a]
        for n in small.passable_neighbours(a):
            assert da[n] == 1
    # the impassable Menitz pond (26|49) is no step: 26 -> 52 -> 46 -> 49 (52|49 is impassable too)
    assert small.distances_from(26)[49] == 3


def test_published_distances_symmetric(published: Board) -> None:
    some = sorted(published.locales)[::17]
    for a in some:
        for b in some:
            assert published.distances_from(a)[b] == published.distances_from(b)[a]


def test_toponym_index(small: Board, published: Board) -> None:
    index = small.toponym_index()
    assert index["pratzen"].id == "pratzeberg"
    assert index[normalise_name("  ZURAN   Berg ")].id == "zuran_berg"
    assert index[normalise_name("Olmützer Strasse")].id == "olmuetzer_strasse"
    assert index["pratzeberg"].locales == (41, 43)
    assert published.toponym_index()[normalise_name("Pratze Berg")].id == "pratzeberg"


def test_scenarios_and_commanders(small: Board) -> None:
    dec2, dec1 = small.scenarios["DEC2"], small.scenarios["DEC1"]
    assert dec2.starting_morale == {"F": 23, "AL": 27}
    assert dec2.allied_start == "all_corps_on_board"
    assert dec2.reinforcement_rounds == {"bernadotte": 1, "davout": 2}
    assert len(dec2.rounds) == 10
    assert dec1.reinforcement_rounds == {"bernadotte": 5, "davout": 13}
    assert dec1.rounds[10].night
    assert dec1.rounds[10].hour is None
    assert list(small.commanders)[:3] == ["bessieres", "murat", "lannes"]
    davout = small.commanders["davout"]
    assert davout.reinforcement
    assert davout.setup_locale is None
    assert davout.side == "F"
    assert small.commanders["kienmayer"].setup_locale == 46
    assert small.locales[46].setup == ("kienmayer",)


# --- errors ------------------------------------------------------------------------------------


def test_unknown_keys_are_ignored(doc: dict[str, object]) -> None:
    doc["future_extension"] = {"anything": [1, 2]}
    items(doc, "locales")[0]["colour_of_grass"] = "green"
    assert len(parse_board(doc, "x").locales) == 56


def test_unknown_locale_in_approach(doc: dict[str, object]) -> None:
    item(doc, "approaches", "id", "A017")["b"] = 99
    lines = errors_of(doc)
    assert "approach A017: locale 99 does not exist (V-3)" in lines


def test_duplicate_locale_id(doc: dict[str, object]) -> None:
    items(doc, "locales").append(copy.deepcopy(item(doc, "locales", "id", 12)))
    assert has_error(errors_of(doc), "locale 12: duplicate id")


def test_missing_field(doc: dict[str, object]) -> None:
    del items(doc, "locales")[3]["capacity"]
    assert "locale 4 (locales[3]): missing field 'capacity'" in errors_of(doc)


def test_missing_id(doc: dict[str, object]) -> None:
    del items(doc, "locales")[3]["id"]
    assert has_error(errors_of(doc), "locales[3]: missing field 'id'")


def test_road_crossing_on_impassable_approach(doc: dict[str, object]) -> None:
    crossings = items(doc, "road_crossings")
    crossings.append(
        {
            "road": "L08",
            "class": "local",
            "approach": "A063",
            "from": 26,
            "to": 49,
            "strand_from": 0,
            "strand_to": 0,
        }
    )
    n = len(crossings)
    assert has_error(errors_of(doc), f"road crossing {n} (A063 26->49):", "impassable")


def test_road_crossing_without_approach(doc: dict[str, object]) -> None:
    first = items(doc, "road_crossings")[0]
    assert first["approach"] == "A003"
    first["to"] = 56
    assert has_error(
        errors_of(doc),
        "road crossing 1 (A003 1->56):",
        "joins 1 and 5",
        "no approach joins locales 1 and 56",
    )


def test_road_crossing_unknown_approach(doc: dict[str, object]) -> None:
    items(doc, "road_crossings")[1]["approach"] = "A999"
    assert has_error(errors_of(doc), "road crossing 2 (A999 5->8):", "approach A999 does not exist")


def test_wrong_schema(doc: dict[str, object]) -> None:
    doc["schema"] = "nt-board/2"
    assert has_error(errors_of(doc), "schema:", "nt-board/1")


def test_bad_capacity_value(doc: dict[str, object]) -> None:
    items(doc, "locales")[0]["capacity"] = 7
    assert has_error(errors_of(doc), "locale 1:", "capacity 7", "capacity_values_allowed")


def test_ill_typed_capacity(doc: dict[str, object]) -> None:
    items(doc, "locales")[0]["capacity"] = "many"
    assert has_error(errors_of(doc), "locale 1 (locales[0]):", "'capacity'", "integer")


def test_symbol_on_impassable_approach(doc: dict[str, object]) -> None:
    item(doc, "approaches", "id", "A063")["a_side"] = {"penalties": ["I"]}
    assert has_error(errors_of(doc), "approach A063:", "impassable", "symbols")


def test_guard_of_strength_two(doc: dict[str, object]) -> None:
    army = doc["army"]
    assert isinstance(army, dict)
    army["F"][5]["strength"] = 2
    assert army["F"][5]["type"] == "GUARD"
    assert has_error(errors_of(doc), "army F[5]:", "Guard", "strength 3")


def test_artillery_of_strength_two_and_unknown_type(doc: dict[str, object]) -> None:
    army = doc["army"]
    assert isinstance(army, dict)
    army["AL"][0]["strength"] = 2
    army["AL"][1]["type"] = "DRAGON"
    lines = errors_of(doc)
    assert has_error(lines, "army AL[0]:", "artillery")
    assert has_error(lines, "army AL[1]:", "unknown unit type")


def test_missing_army(doc: dict[str, object]) -> None:
    del doc["army"]
    assert has_error(errors_of(doc), "army:", "missing")


def test_unknown_commander_in_setup(doc: dict[str, object]) -> None:
    item(doc, "locales", "id", 20)["setup"] = ["legrand", "soult"]
    assert has_error(errors_of(doc), "locale 20:", "unknown commander 'soult'")


def test_reinforcement_commander_must_exist(doc: dict[str, object]) -> None:
    scenarios = doc["scenarios"]
    assert isinstance(scenarios, dict)
    scenarios["DEC2"]["french_reinforcements"][0]["commander"] = "grouchy"
    assert has_error(errors_of(doc), "scenario DEC2:", "'grouchy'")


def test_rounds_numbering(doc: dict[str, object]) -> None:
    scenarios = doc["scenarios"]
    assert isinstance(scenarios, dict)
    scenarios["DEC1"]["rounds"][3]["index"] = 9
    assert has_error(errors_of(doc), "scenario DEC1:", "V-13")


def test_entry_on_missing_road_node(doc: dict[str, object]) -> None:
    item(doc, "entries", "id", "EF2")["strand"] = 5
    assert has_error(errors_of(doc), "entry EF2:", "strand 5", "V-9")


def test_disconnected_board(doc: dict[str, object]) -> None:
    # Cut Lösch (3) off: make both its approaches impassable (and drop their symbols and roads).
    for aid in ("A001", "A008"):
        ap = item(doc, "approaches", "id", aid)
        ap["impassable"] = True
        ap.pop("a_side", None)
        ap.pop("b_side", None)
    doc["road_crossings"] = [c for c in items(doc, "road_crossings") if c["approach"] != "A001"]
    doc["entries"] = [e for e in items(doc, "entries") if e["id"] != "EF2"]
    assert has_error(errors_of(doc), "board:", "V-4")


def test_santon_must_have_three_approaches(doc: dict[str, object]) -> None:
    items(doc, "approaches").append({"id": "A900", "a": 6, "b": 7, "width": "narrow"})
    assert has_error(errors_of(doc), "locale 6:", "Santon", "3 approaches")


def test_same_locale_twice_and_duplicate_pair(doc: dict[str, object]) -> None:
    approaches = items(doc, "approaches")
    approaches.append({"id": "A901", "a": 5, "b": 5, "width": "narrow"})
    approaches.append({"id": "A902", "a": 3, "b": 1, "width": "narrow"})
    approaches.append({"id": "A001", "a": 40, "b": 50, "width": "narrow"})
    lines = errors_of(doc)
    assert has_error(lines, "approach A901:", "itself")
    assert has_error(lines, "approach A902:", "already joined by approach A001")
    assert has_error(lines, "approach A001:", "duplicate id")


def test_all_errors_are_collected(doc: dict[str, object]) -> None:
    doc["schema"] = "nt-board/0"
    items(doc, "locales")[0]["capacity"] = 7
    item(doc, "approaches", "id", "A017")["b"] = 99
    lines = errors_of(doc)
    assert len(lines) >= 3
    assert has_error(lines, "schema:")
    assert has_error(lines, "locale 1:")
    assert has_error(lines, "approach A017:")


def test_not_a_mapping() -> None:
    assert has_error(errors_of([1, 2, 3]), "board:", "mapping")
