"""NT-145: cavalry reinforcements attack by road as they enter."""

from __future__ import annotations

import pytest

from games.core.protocol import JSON, Rejection
from games.napoleons_triumph import reinforcements
from games.napoleons_triumph.board import Board, board_named
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.road_attack.options import road_attacks, road_threats
from tests.support.napoleons_triumph import Table, pair, position

X, Y, W = 1, 2, 5


def _board(name: str, pieces: list[str]) -> Table:
    """W-X-Y by local roads, the French entry area EF at W; Davout's corps waits off the map."""
    board = pair(
        name,
        roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)],
        entries=[("EF", "F", "W", 0, "local", False)],
        commanders=[("davout", "F", None, True)],
    )
    return Table(position(board, pieces))


def _b(t: Table) -> Board:
    return board_named(t.state.board)


def _unit_cav(name: str) -> Table:
    return _board(name, ["F d1 CAV2 @off [davout]", "F d2 INF2 @off [davout]",
                         "AL a1 INF2 @X.R [-]"])  # fmt: skip


D1: dict[str, JSON] = {"kind": "unit_move", "unit": "d1", "road": True, "entry": "EF", "path": [W]}


def test_nt145_cavalry_reinforcement_feints_by_road_as_it_enters() -> None:
    """NT-145 (addendum A): a cavalry reinforcement may attack by road as part of its entering
    road move. Rulebook L306: "Verstärkungen müssen per Straßenbewegung hereinkommen." and L329
    (a road attack by cavalry, declared a feint): the threat is backed (AMB-17) by the cavalry
    off the map, and the feint brings d1 on with the arrival steps (NT-62, NT-63, L310)."""
    t = _unit_cav("e7a")
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    t.play("F", "declare_feint", {"commands": [D1], "end": "block"})
    d1 = t.unit("d1")
    assert (d1.where, d1.loc, d1.app, d1.corps, d1.arrived, d1.moves) == (
        "map", W, "XW", None, True, 1)  # fmt: skip
    assert t.state.reinforcements_entered
    assert t.state.morale["F"] == 27
    assert t.state.turn.independent_used == 1
    assert t.unit("d2").where == "offmap"
    assert any("entering at EF" in line for line in t.log)


def test_nt145_after_a_vacate_the_entering_cavalry_ride_into_the_defense_locale() -> None:
    """NT-145 with L306 ("Verstärkungen müssen per Straßenbewegung hereinkommen."): after a
    vacate the entering cavalry move on by road from the entry locale into the defense locale;
    the entry locale counts as the first of the 2 locales of a local road (AMB-15)."""
    t = _unit_cav("e7b")
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": Y}}})
    t.play("F", "declare_after_vacate", {"commands": [D1]})
    assert (t.unit("d1").loc, t.unit("d1").arrived, t.state.morale["F"]) == (X, True, 27)
    assert t.state.ride_on is None  # W and X: the local road's 2 locales are used up


def test_nt145_listed_road_attacks_include_entering_cavalry_and_are_legal() -> None:
    """NT-145: the listed road attacks (and road threats) include cavalry entering at EF;
    L304 "Verstärkungen können kein Eintrittsgebiet nutzen, das vom Feind besetzt ist."."""
    t = _unit_cav("e7c")
    ctx = Ctx(_b(t), t.state)
    assert {"attack_locale": W, "approach": "XW", "road_from": W, "road_path": [W],
            "entry": "EF"} in road_threats(ctx, "F")  # fmt: skip
    assert road_attacks(ctx, "F", W, "XW") == [D1]
    assert road_attacks(ctx, "F", W, "XW", enter=True) == [D1]
    held = _board("e7c2", ["F d1 CAV2 @off [davout]", "F d2 INF2 @off [davout]",
                           "AL a1 INF2 @X.R [-]", "AL a2 INF2 @W.R [-]"])  # fmt: skip
    assert road_attacks(Ctx(_b(held), held.state), "F", W, "XW") == []


def test_nt145_only_cavalry_and_only_by_the_entering_rules() -> None:
    """NT-145: "subject to every road-attack rule": L329 (only cavalry attack by road, NT-68);
    L304 "Verstärkungen können kein Eintrittsgebiet nutzen, das vom Feind besetzt ist." (NT-59);
    L306 "Verstärkungen müssen per Straßenbewegung hereinkommen." (the path starts at the entry
    locale, NT-60); a plain entering move into an enemy locale is an attack (NT-47)."""
    t = _unit_cav("e7d")
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    inf = {**D1, "unit": "d2"}
    assert t.refuse("F", "declare_feint", {"commands": [inf], "end": "reserve"}).rule == "NT-68"
    bad_entry = {**D1, "entry": "EX"}
    assert t.refuse("F", "declare_feint", {"commands": [bad_entry], "end": "reserve"}
                    ).rule == "NT-59"  # fmt: skip
    assert t.refuse("F", "declare_feint", {"commands": [{**D1, "path": []}], "end": "reserve"}
                    ).rule == "NT-60"  # fmt: skip
    plain = _unit_cav("e7d2")
    refused = plain.refuse("F", "enter_reinforcement", {"command": "unit_move", "unit": "d1",
                                                        "entry": "EF", "path": [W, X]})  # fmt: skip
    assert refused.rule == "NT-47"
    assert "NT-145" in refused.message


def test_nt145_not_before_the_arrival_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """NT-145: "not before its arrival round"; L298 "Französische Verstärkungen können ab der auf
    der Zeitleiste angegebenen Runde aufs Brett kommen." (NT-57): no threat is backed by them."""
    monkeypatch.setattr(reinforcements, "first_round", lambda ctx, cid: 5)
    t = _unit_cav("e7e")
    assert t.refuse("F", "threaten", {"attack_locale": W, "approach": "XW"}).rule == "NT-64"


def test_nt145_entering_corps_of_two_halts_in_the_entry_locale_nt141() -> None:
    """NT-145 with NT-141 and L288 (a corps of 2+ units moving by road stops next to an enemy
    corps of 2+ units): an entering cavalry corps of two units that must halt in the entry
    locale cannot attack by road from it; a single cavalry unit (Unit Move) can."""
    t = _board("e7f", ["F d1 CAV2 @off [davout]", "F d2 CAV2 @off [davout]",
                       "AL a1 INF2 @X.R [kutuzov]", "AL a2 INF2 @X.R [kutuzov]"])  # fmt: skip
    ctx = Ctx(_b(t), t.state)
    assert road_attacks(ctx, "F", W, "XW") == [D1, {**D1, "unit": "d2"}]
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    corps: dict[str, JSON] = {**D1, "kind": "corps_move", "commander": "davout"}
    del corps["unit"]
    assert t.refuse("F", "declare_feint", {"commands": [corps], "end": "reserve"}
                    ).rule == "NT-141"  # fmt: skip


def test_nt145_text_order_names_the_entry_area() -> None:
    """NT-145 in text orders: 'feint with unit d1 entering EF by road via 5 block'; L306
    "Verstärkungen müssen per Straßenbewegung hereinkommen." (the road starts at the entry)."""
    t = _unit_cav("e7g")
    t.play("F", "threaten", {"attack_locale": W, "approach": "XW"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    order = "feint with unit d1 entering EF by road via 5 block"
    parsed = t.rules.parse_text(t.state, "french", order)
    assert not isinstance(parsed, Rejection), parsed
    want: JSON = {"commands": [D1], "end": "block"}
    assert [(a.kind, a.payload) for a in parsed] == [("declare_feint", want)]
    t.play("F", "declare_feint", parsed[0].payload)
    assert t.unit("d1").app == "XW"
