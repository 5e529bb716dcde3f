"""The committed board layouts (games/napoleons_triumph/data/<board>-layout.yaml): they pass the
layout check as far as the board's graph allows, and they are exactly what the build script
computes now (determinism). The figures printed here go into issue 15's note."""

from __future__ import annotations

import sys

import networkx as nx  # type: ignore[import-untyped]
import pytest
import yaml

from games.napoleons_triumph.board import SHIPPED, board_named
from games.napoleons_triumph.layout import (
    check,
    layout_for,
    layout_from_points,
    layout_problems,
    layout_yaml,
    parse_layout,
)
from games.napoleons_triumph.layout_build import approach_graph, build, planar_part


def test_layout_files_are_not_boards() -> None:
    assert not [name for name in SHIPPED if name.endswith("-layout")]
    assert layout_for("no-such-board") is None
    assert layout_for("../austerlitz") is None


@pytest.mark.parametrize("name", SHIPPED)
def test_committed_layout_passes_the_check(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_named(name)
    layout = layout_for(name)
    assert layout is not None
    assert layout.board == name
    assert "not the printed map" in layout.source
    problems, fig = check(layout, board)
    with capsys.disabled():
        sys.stdout.write(
            f"\n{name}: locales {fig.locales}, approaches {fig.approaches}, crossings "
            f"{fig.crossings}, overlaps {fig.overlaps}, approaches without a shared edge "
            f"{fig.apart}\n"
        )
    assert fig.locales == len(board.locales)
    assert fig.approaches == len(board.approaches)
    assert set(layout.points) == set(board.locales) == set(layout.cells)
    assert fig.overlaps == 0
    # a planar board is drawn without crossings; a non-planar one (the small reconstruction)
    # crosses exactly where the approaches set aside to make it planar are drawn
    _, dropped = planar_part(approach_graph(board), lambda s: None)
    crossing = {a for p in problems if p.endswith(" cross") for a in p.split()[1:4:2]}
    if nx.check_planarity(approach_graph(board))[0]:
        assert fig.crossings == 0
    else:
        assert dropped
        assert crossing >= set(dropped)
        assert fig.crossings <= 2 * len(dropped)
    # every approach but a few has a shared cell edge (see the README: a known shortcoming)
    assert fig.apart <= max(1, len(dropped))


@pytest.mark.parametrize("name", SHIPPED)
def test_committed_layout_is_what_the_build_computes(name: str) -> None:
    board = board_named(name)
    layout, _ = build(board)
    committed = layout_for(name)
    assert committed is not None
    assert layout_yaml(layout) == layout_yaml(committed)
    assert parse_layout(yaml.safe_load(layout_yaml(layout))) == layout


def test_the_check_finds_crossings_overlaps_and_missing_locales() -> None:
    board = board_named("austerlitz")
    good = layout_for("austerlitz")
    assert good is not None
    ids = sorted(board.locales)
    # swap two far-apart locales: their approaches now cross others and cells move with them
    a, b = ids[0], ids[-1]
    pts = dict(good.points)
    pts[a], pts[b] = pts[b], pts[a]
    swapped = layout_from_points(board, pts)
    before = check(good, board)[1]
    after = check(swapped, board)[1]
    assert after.crossings > before.crossings
    # a locale with no point and no cell
    pts.pop(a)
    missing = layout_from_points(board, pts)
    assert any("without a point" in p for p in layout_problems(missing, board))
    # an overlapping cell
    cells = dict(good.cells)
    cells[b] = cells[ids[1]]
    overlapping = type(good)(good.board, good.source, good.outline, good.points, cells)
    assert any("overlap" in p for p in layout_problems(overlapping, board))


def test_layout_from_points_recomputes_cells_for_moved_points() -> None:
    board = board_named("austerlitz-published")
    layout = layout_for("austerlitz-published")
    assert layout is not None
    same = layout_from_points(board, layout.points, source=layout.source)
    assert same.cells == layout.cells
    text = layout_yaml(same)
    assert parse_layout(yaml.safe_load(text)) == same
