"""The board as SVG (board_svg.render, the registry's board hook B1), drawn only from a seat's
view: well-formed XML with a locale group per locale; own blocks with id and face; never an enemy
unit id nor the face of a face-down block (a property over random games, for every role); and
byte-identical for two states that differ only in what the seat may not see
(invariants.perturb_hidden, the engine's non-interference probe)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from games.core.protocol import OBSERVER, OMNISCIENT
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import board_named
from games.napoleons_triumph.board_svg import render
from games.napoleons_triumph.checks import CHECKS
from games.napoleons_triumph.invariants import perturb_hidden
from games.napoleons_triumph.state import MAP, GameState
from games.registry import RULESETS, Entry, MissingHook, board_renderer
from tests.engines.napoleons_triumph.test_report import random_states

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def check_svg(state: GameState, role: str) -> None:
    view = RULESET.view(state, role)
    svg = render(view)
    root = parse(svg)
    board = board_named(state.board)
    locales = groups(root, "locale")
    assert sorted(int(g.get("data-locale") or 0) for g in locales) == sorted(board.locales)
    assert all(g.get("id") == f"locale-{g.get('data-locale')}" for g in locales)
    assert all(g.find(f"{SVG}title") is not None for g in locales)
    side = state.roles.get(role)
    own = {g.get("data-piece"): g for g in groups(root, "own")}
    on_map = [u for u in state.units.values() if u.where == MAP]
    for u in on_map:
        if role == OMNISCIENT or u.side == side:
            g = own[u.id]
            assert g.get("data-face") == f"{u.type}{u.strength}"
            assert f"{u.type}{u.strength}" in "".join(g.itertext())
    if role == OMNISCIENT:
        return
    for uid in CHECKS.hidden_ids(state, role):
        assert not re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", svg), (uid, role)
    enemy = {g.get("data-piece"): g for g in groups(root, "enemy")}
    assert isinstance(view, dict)
    listed = view["enemy_units"]
    assert isinstance(listed, list)
    assert len(enemy) == len(listed)
    for seen in listed:
        assert isinstance(seen, dict)
        g = enemy[str(seen["id"])]
        face = seen["face"]
        if face is None:  # face down: no face, no strength anywhere in the block
            assert g.get("data-face") is None
            assert not re.search(r"(INF|CAV|ART|GUARD)\d", "".join(g.itertext()))
        else:
            assert isinstance(face, dict)
            assert g.get("data-face") == f"{face['type']}{face['strength']}"
    for secret in CHECKS.secrets(state):
        assert secret not in svg


@pytest.mark.parametrize("seed", [1, 2])
def test_svg_of_random_games_for_every_role(seed: int) -> None:
    rng = Rng(seed)
    seen = blocks = 0
    for state in random_states({"board": "austerlitz"}, seed, 300, 11):
        for role in (*state.roles, OBSERVER, OMNISCIENT):
            check_svg(state, role)
        for role in state.roles:
            other = perturb_hidden(state, state.roles[role], rng)
            assert render(RULESET.view(other, role)) == render(RULESET.view(state, role))
        blocks += sum(u.where == MAP for u in state.units.values())
        seen += 1
    assert seen > 5
    assert blocks > 100


def test_svg_of_the_published_board() -> None:
    states = list(random_states({}, 5, 120, 40))
    assert any(sum(u.where == MAP for u in s.units.values()) > 30 for s in states)
    for state in states:
        for role in (*state.roles, OBSERVER):
            check_svg(state, role)


def test_a_shown_enemy_face_is_drawn_and_others_are_not() -> None:
    state = next(
        s
        for s in random_states({"board": "austerlitz"}, 3, 300, 7)
        if sum(u.where == MAP and u.side == "AL" for u in s.units.values()) >= 2
    )
    french = next(r for r, s in state.roles.items() if s == "F")
    shown, hidden = [u for u in state.units.values() if u.where == MAP and u.side == "AL"][:2]
    shown.revealed, hidden.revealed = True, False
    root = parse(render(RULESET.view(state, french)))
    faces = {g.get("data-face") for g in groups(root, "enemy")}
    assert f"{shown.type}{shown.strength}" in faces
    check_svg(state, french)


def test_views_without_a_drawing_give_a_message_never_an_error() -> None:
    for view in (None, {}, {"board": "../etc/passwd"}, {"board": 3}, {"board": "custom-abc"}):
        root = parse(render(view))  # type: ignore[arg-type]
        assert "No drawing" in "".join(root.itertext())
        assert not groups(root, "locale")


def test_malformed_pieces_are_skipped() -> None:
    view = {
        "board": "austerlitz",
        "units": [{"id": "F01", "position": {"locale": 9999}}, {"position": "x"}, 3],
        "enemy_units": "x",
        "commanders": [None, {"id": "x", "position": {"locale": True}}],
        "round": None,
        "morale": [],
    }
    root = parse(render(view))  # type: ignore[arg-type]
    assert not groups(root, "block")
    assert len(groups(root, "locale")) == len(board_named("austerlitz").locales)


# --- the registry hook (B1) ---------------------------------------------------------------------


def test_registry_hook_returns_the_renderer() -> None:
    assert RULESETS["napoleons_triumph"].board == "games.napoleons_triumph.board_svg:render"
    assert board_renderer("napoleons_triumph") is render


def test_registry_hook_without_a_board_and_broken_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RULESETS, "plain", Entry(ruleset="games.napoleons_triumph:RULESET"))
    assert board_renderer("plain") is None
    monkeypatch.setitem(
        RULESETS, "broken", Entry(ruleset="x:Y", board="games.napoleons_triumph.board_svg:nope")
    )
    with pytest.raises(MissingHook, match="board"):
        board_renderer("broken")
    monkeypatch.setitem(
        RULESETS, "notfn", Entry(ruleset="x:Y", board="games.napoleons_triumph.board_svg:STYLE")
    )
    with pytest.raises(MissingHook, match="not a function"):
        board_renderer("notfn")
    with pytest.raises(KeyError):
        board_renderer("no-such-ruleset")
