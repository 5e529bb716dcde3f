"""The table as SVG (games.valour_fortitude.table_svg), drawn only from a role's view: the
starter scenario (digest 3.19) to scale in inches with north up (digest 2.1), every terrain
piece (VF-180, VF-181), objective (VF-249), unit as its bases with the front marked (VF-4,
VF-5) and leader (VF-12); own/enemy by role, the umpire's omniscient view by side only; status
labels (VF-100 shaken); hostile text escaped; any view-shaped data gives a well-formed document;
WCAG AA contrast of every text on its plate."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core.protocol import OMNISCIENT, GameConfig
from games.core.rng import Rng
from games.valour_fortitude.rules import RULESET
from games.valour_fortitude.table_svg import MAX_UNITS, STYLE, render
from tests.support.contrast import contrast, declared

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def match() -> Any:
    return RULESET.setup(GameConfig("starter", {}), Rng(11))


def view_for(match: Any, role: str) -> dict[str, Any]:
    view = RULESET.view(match, role)
    assert isinstance(view, dict)
    return copy.deepcopy(view)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output, parsed to check it is well formed


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


def title(el: ET.Element) -> str:
    found = el.find(f"{NS}title")
    assert found is not None
    return found.text or ""


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def unit(view: dict[str, Any], uid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(u for u in view["game"]["units"] if u["id"] == uid)
    return found


@pytest.mark.parametrize("role", ["A", "B", OMNISCIENT])
def test_every_unit_and_leader_once_with_its_id(match: Any, role: str) -> None:
    """The starter example: 18 units, 8 leaders, each drawn once and marked with its id."""
    view = view_for(match, role)
    root = parse(render(view))
    pieces = [g.get("data-piece") or "" for g in groups(root, "block")]
    assert sorted(pieces) == sorted(u["id"] for u in view["game"]["units"])
    assert len(pieces) == 18
    leaders = [g.get("data-piece") or "" for g in groups(root, "leader")]
    assert sorted(leaders) == sorted(ld["id"] for ld in view["game"]["leaders"])
    assert len(leaders) == 8
    for g in groups(root, "block"):
        uid = g.get("data-piece") or ""
        assert len(g.findall(f"{NS}g[@class='base-group']")) == len(unit(view, uid)["bases"])
        assert any(t.startswith(uid) for t in texts(g))


@pytest.mark.parametrize("role", ["A", "B"])
def test_own_and_enemy_by_role(match: Any, role: str) -> None:
    view = view_for(match, role)
    root = parse(render(view))
    sides = {u["id"]: u["side"] for u in view["game"]["units"]}
    sides |= {ld["id"]: ld["side"] for ld in view["game"]["leaders"]}
    marked = groups(root, "block") + groups(root, "leader")
    assert len(marked) == 26
    for g in marked:
        side = sides[g.get("data-piece") or ""]
        expected = "own" if side == role else "enemy"
        assert expected in classes(g)
        assert ({"own", "enemy"} - {expected}).isdisjoint(classes(g))
        assert f"side-{side}" in classes(g)
    assert len(groups(root, "own")) == 13  # 9 units and 4 leaders a side


def test_the_umpires_view_marks_by_side_only(match: Any) -> None:
    root = parse(render(view_for(match, OMNISCIENT)))
    assert groups(root, "own") == []
    assert groups(root, "enemy") == []
    assert len(groups(root, "side-A")) == len(groups(root, "side-B")) == 13
    observer = view_for(match, OMNISCIENT)
    observer["role"] = "@observer"
    assert groups(parse(render(observer)), "own") == []


def test_terrain_pieces_by_kind_with_label_and_title(match: Any) -> None:
    """VF-181: 2 villages, 2 woods, a hill, a road, a low hedge; each a polygon with a label
    and its traits in words."""
    root = parse(render(view_for(match, "A")))
    terrain = {g.get("data-terrain") or "": g for g in groups(root, "terrain")}
    assert sorted(terrain) == ["H1", "R1", "T1", "V1", "V2", "W1", "W2"]
    assert "village" in classes(terrain["V1"])
    assert "wood" in classes(terrain["W2"])
    assert "hedge" in classes(terrain["T1"])
    assert "road" in classes(terrain["R1"])
    assert "Village V1" in texts(terrain["V1"])
    assert "Low hedge T1" in texts(terrain["T1"])
    assert title(terrain["V1"]) == "V1: village (blocks line of sight, defensible, hard cover)"
    assert "wood mode rough" in title(terrain["W1"])
    polygon = terrain["V1"].find(f"{NS}polygon")
    assert polygon is not None
    # (32,27)-(40,33) on a 60 in deep table, y flipped: north is up.
    assert polygon.get("points") == "32,33 40,33 40,27 32,27"


def test_to_scale_in_inches_with_north_up(match: Any) -> None:
    """Digest 2.1: the viewBox is the 110 x 60 in table with a 3 in margin and a 7 in strip; a
    base's centre (16.46, 13.215), 2.36 x 1.57, facing north, is drawn with its top-left corner
    at (15.28, 60 - 13.215 - 0.785 = 46); its front edge is the northern one."""
    root = parse(render(view_for(match, "A")))
    assert root.get("viewBox") == "-3 -3 116 70"
    table = next(r for r in root.iter(f"{NS}rect") if r.get("class") == "table")
    assert (table.get("width"), table.get("height")) == ("110", "60")
    u_a1 = next(g for g in groups(root, "block") if g.get("data-piece") == "U-A1")
    first = u_a1.find(f"{NS}g")
    assert first is not None
    assert first.get("transform") is None
    rect = first.find(f"{NS}rect")
    assert rect is not None
    got = [rect.get(k) for k in ("x", "y", "width", "height")]
    assert got == ["15.28", "46", "2.36", "1.57"]
    front = first.find(f"{NS}line")
    assert front is not None
    assert front.get("class") == "front"
    assert float(front.get("y1") or 0) == pytest.approx(46.15)  # just inside the north edge
    leader = next(g for g in groups(root, "leader") if g.get("data-piece") == "L-A0")
    circle = leader.find(f"{NS}circle")
    assert circle is not None
    assert (circle.get("cx"), circle.get("cy"), circle.get("r")) == ("55", "56", "0.492")


def test_a_base_is_rotated_by_its_facing(match: Any) -> None:
    """facing_deg is a bearing (0 north, 90 east): SVG rotates clockwise by the same angle about
    the base's centre, so the marked (top) edge turns to face east."""
    view = view_for(match, "A")
    base = unit(view, "U-A1")["bases"][0]
    base["facing_deg"] = "90"
    base["front_rank"] = False
    unit(view, "U-A1")["bases"][1]["facing_deg"] = "45.5"
    root = parse(render(view))
    u_a1 = next(g for g in groups(root, "block") if g.get("data-piece") == "U-A1")
    first, second = u_a1.findall(f"{NS}g")[:2]
    assert first.get("transform") == "rotate(90 16.46 46.785)"
    assert first.find(f"{NS}line") is None  # not a front-rank base: no front marked
    assert second.get("transform") == "rotate(45.5 18.82 46.785)"
    assert second.find(f"{NS}line") is not None


def test_objectives_and_the_scale_bar(match: Any) -> None:
    view = view_for(match, "A")
    view["game"]["objectives"][0]["controller"] = "A"
    svg = render(view)
    root = parse(svg)
    objectives = {
        g.get("data-objective") or "": g for g in root.iter(f"{NS}g") if g.get("data-objective")
    }
    assert sorted(objectives) == ["O1", "O2", "O3", "O4"]
    assert title(objectives["O1"]) == "objective O1, held by A"
    assert title(objectives["O2"]) == "objective O2, held by nobody"
    scale = next(g for g in root.iter(f"{NS}g") if g.get("class") == "scale")
    widths = [float(r.get("width") or 0) for r in scale.iter(f"{NS}rect")]
    assert sum(widths) == 6  # 6 in, in viewBox inches
    assert "6 in" in texts(scale)
    assert any(g.get("class") == "north" for g in root.iter(f"{NS}g"))


def test_status_labels(match: Any) -> None:
    """Casualties against morale; shaken at casualties >= morale (VF-100); the formation; a
    broken brigade; a fled unit (no bases) in the strip under the table; an occupant on its
    feature (VF-195)."""
    view = view_for(match, "A")
    unit(view, "U-A1")["casualties"] = 4  # morale 4
    unit(view, "U-A2")["casualties"] = 1
    unit(view, "U-A3").update(fled=True, bases=[])
    unit(view, "U-B1").update(occupying="V1", bases=[])
    view["game"]["brigades"][3]["broken"] = True  # BR-B1: U-B1..U-B4
    root = parse(render(view))
    by_id = {g.get("data-piece"): g for g in groups(root, "block")}
    assert len(by_id) == 18
    assert "U-A1 4/4 shaken" in texts(by_id["U-A1"])
    assert "shaken" in title(by_id["U-A1"])
    assert "U-A2 1/4" in texts(by_id["U-A2"])
    assert "U-A5 0/4 attack col." in texts(by_id["U-A5"])
    assert "off-table" in classes(by_id["U-A3"])
    assert "U-A3 0/4 fled" in texts(by_id["U-A3"])
    assert "U-B2 0/4 broken" in texts(by_id["U-B2"])
    assert "brigade broken" in title(by_id["U-B2"])
    assert "U-B1 0/4 broken in V1" in texts(by_id["U-B1"])
    assert by_id["U-B1"].find(f"{NS}g") is None  # no bases drawn


def test_deployment_zones_when_the_view_has_them(match: Any) -> None:
    view = view_for(match, "A")
    assert "deployment_zones" not in view["game"]  # the engine's view gives none yet
    assert 'class="deployment' not in render(view)
    corners = [[0, 0], [110, 0], [110, 18], [0, 18]]
    view["game"]["deployment_zones"] = [
        {"side": "A", "polygon": [{"x": str(x), "y": str(y)} for x, y in corners]}
    ]
    zones = [g for g in parse(render(view)).iter(f"{NS}g") if g.get("data-side") == "A"]
    assert len(zones) == 1
    assert "deployment A" in texts(zones[0])


def test_nothing_but_the_view_is_drawn_and_no_hand(match: Any) -> None:
    """The drawing shows no fate card: two views that differ only in the hands and decks give
    the same bytes (VF-36)."""
    view = view_for(match, OMNISCIENT)
    other = copy.deepcopy(view)
    for side in other["game"]["sides"]:
        side["fate"]["hand"] = ["SECRET-CARD"]
        side["fate"]["deck"] = ["ANOTHER"]
    assert render(view) == render(other)
    assert "SECRET-CARD" not in render(other)


def test_hostile_text_is_escaped(match: Any) -> None:
    view = view_for(match, "A")
    evil = '"><script>alert(1)</script><g x="'
    unit(view, "U-A1")["id"] = evil
    unit(view, "U-A2")["profile"] = "</title><script>"
    view["game"]["leaders"][0]["id"] = "<svg onload=alert(2)>"
    view["game"]["terrain"][0]["id"] = "]]><!--"
    view["game"]["terrain"][1]["kind"] = "<b>&amp;"
    view["game"]["objectives"][0]["id"] = "<i>"
    view["role"] = "<x>"
    svg = render(view)
    assert "<script" not in svg
    assert "<svg onload" not in svg
    assert "<b>" not in svg
    assert "<i>" not in svg
    assert "<x>" not in svg
    root = parse(svg)
    assert evil in {g.get("data-piece") for g in groups(root, "block")}


def test_lists_are_bounded_and_malformed_entries_skipped(match: Any) -> None:
    view = view_for(match, "A")
    template = unit(view, "U-A1")
    view["game"]["units"] += [
        {**template, "bases": [{"x": "a", "y": "1"}]},  # no usable base: the strip
        {**template, "id": "U-A1"},  # a duplicate id: drawn once
        {**template, "id": "X1", "bases": [{"x": "1", "y": "1", "width": "-2", "depth": "1"}]},
        "not a unit",
        {"id": True},
    ]
    view["game"]["terrain"].append({"id": "Z", "kind": "lava", "polygon": [{"x": "1"}]})
    root = parse(render(view))
    pieces = [g.get("data-piece") for g in groups(root, "block")]
    assert pieces.count("U-A1") == 1
    assert len(groups(root, "terrain")) == 7
    many = view_for(match, "A")
    many["game"]["units"] = [
        {**template, "id": f"U{i}" + "x" * 500, "bases": template["bases"] * 20}
        for i in range(5_000)
    ]
    svg = render(many)
    assert len(groups(parse(svg), "block")) == MAX_UNITS
    assert len(svg) < 6_000_000


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"game": None},
        {"game": {"table": {"width_in": "0", "depth_in": "60"}}},
        {"game": {"table": {"width_in": "NaN", "depth_in": "60"}}},
        {"game": {"table": {"width_in": "1e9", "depth_in": "60"}}},
        {"game": {"table": {"width_in": True, "depth_in": 60}}},
    ],
)
def test_no_usable_table_is_a_clear_message(view: dict[str, Any]) -> None:
    svg = render(view)
    parse(svg)
    assert "No drawing of this table: the view gives no table size." in svg


def test_the_registry_names_it() -> None:
    assert registry.board_renderer("valour_fortitude") is render


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["1e999", "-0", "NaN", "12.5", "0.001", "Infinity"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
NUM = st.decimals(-20, 200, places=3, allow_nan=False).map(str) | JUNK
POINT = st.fixed_dictionaries({"x": NUM, "y": NUM})
BASE = st.fixed_dictionaries(
    {"x": NUM, "y": NUM, "facing_deg": NUM, "width": NUM, "depth": NUM},
    optional={"front_rank": JUNK},
)
UNIT = st.fixed_dictionaries(
    {"id": JUNK, "side": st.sampled_from(["A", "B", "C"]) | JUNK},
    optional={
        "bases": st.lists(BASE | JUNK, max_size=3),
        "casualties": JUNK,
        "stats": JUNK,
        "fled": JUNK,
        "occupying": JUNK,
        "formation": JUNK,
        "brigade": JUNK,
        "limbered": JUNK,
    },
)
LEADER = st.fixed_dictionaries(
    {"id": JUNK, "side": JUNK, "x": NUM, "y": NUM}, optional={"radius_in": NUM, "kind": JUNK}
)
PIECE = st.fixed_dictionaries(
    {"id": JUNK, "kind": JUNK, "polygon": st.lists(POINT | JUNK, max_size=5)},
    optional={"traits": JUNK, "wood_mode": JUNK},
)


@settings(max_examples=150, deadline=None)
@given(
    table=st.fixed_dictionaries({"width_in": NUM, "depth_in": NUM}) | JUNK,
    units=st.lists(UNIT | JUNK, max_size=5),
    leaders=st.lists(LEADER | JUNK, max_size=3),
    terrain=st.lists(PIECE | JUNK, max_size=3),
    objectives=st.lists(POINT | JUNK, max_size=3),
    extra=st.dictionaries(
        st.sampled_from(["brigades", "sides", "deployment_zones"]), JUNK, max_size=3
    ),
    role=st.sampled_from(["A", "B", OMNISCIENT, None, 3]),
)
def test_any_view_shaped_data_gives_a_well_formed_document(
    table: object,
    units: list[object],
    leaders: list[object],
    terrain: list[object],
    objectives: list[object],
    extra: dict[str, object],
    role: object,
) -> None:
    game = {"table": table, "units": units, "leaders": leaders, "terrain": terrain}
    game |= {"objectives": objectives, **extra}
    svg = render({"role": role, "game": game})  # type: ignore[dict-item]
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    drawn = "No drawing of this table" not in svg
    assert drawn == any(r.get("class") == "table" for r in root.iter(f"{NS}rect")), (
        "either the table or the message"
    )


# -- WCAG 2.1 AA (1.4.3 text 4.5:1; 1.4.11 marks 3:1), computed from STYLE -----------------------


def test_the_arithmetic_matches_wcag_figures() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


TEXT_PAIRS = [
    (".tlabel", ".tplate"),
    (".ulabel", ".plate"),
    (".ulabel", ".block.side-A .plate"),
    (".ulabel", ".block.side-B .plate"),
    (".llabel", ".lplate"),
    (".llabel", ".leader.side-A .lplate"),
    (".llabel", ".leader.side-B .lplate"),
    (".objective text", ".objective circle"),
    (".legend", ".paper"),
    (".message", ".paper"),
    (".zlabel", ".zplate"),
    (".zlabel.side-A", ".zplate"),
    (".zlabel.side-B", ".zplate"),
]


@pytest.mark.parametrize(("fg", "bg"), TEXT_PAIRS, ids=[f"{f} on {b}" for f, b in TEXT_PAIRS])
def test_text_contrast_wcag_aa(fg: str, bg: str) -> None:
    ratio = contrast(declared(STYLE, fg, "fill"), declared(STYLE, bg, "fill"))
    assert ratio >= 4.5, f"{fg} on {bg}: {ratio:.2f}:1"


MARK_PAIRS = [
    ((".front", "stroke"), (".block.side-A .base", "fill")),
    ((".front", "stroke"), (".block.side-B .base", "fill")),
    ((".block.own .base", "stroke"), (".block.side-A .base", "fill")),
    ((".block.own .base", "stroke"), (".block.side-B .base", "fill")),
    ((".block.side-A .base", "fill"), (".table", "fill")),
    ((".block.side-B .base", "fill"), (".table", "fill")),
]


@pytest.mark.parametrize(("fg", "bg"), MARK_PAIRS, ids=[f"{f[0]} on {b[0]}" for f, b in MARK_PAIRS])
def test_marks_contrast_wcag_aa(fg: tuple[str, str], bg: tuple[str, str]) -> None:
    """The front edge and the own mark against the base, the bases against the table: 3:1."""
    ratio = contrast(declared(STYLE, *fg), declared(STYLE, *bg))
    assert ratio >= 3.0, f"{fg[0]} on {bg[0]}: {ratio:.2f}:1"
