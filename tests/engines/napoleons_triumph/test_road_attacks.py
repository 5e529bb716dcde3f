"""Road attacks and the ride-on (NT-68, NT-76, NT-77, NT-98, NT-141, NT-143): the rulebook's
attack examples 1 and 2 (digest NT-T8, NT-T9) and NT-T48, with the road the digest describes."""

from __future__ import annotations

from games.core.protocol import JSON
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    Table,
    fragment,
    pair,
    position,
)

X, Y, Z1, W = 1, 2, 3, 5


def road_cmd(unit: str, path: list[int] | None = None) -> dict[str, JSON]:
    """A road attack's command: the road (`path`, up to the attack locale) is named with it."""
    return {"kind": "unit_move", "unit": unit, "road": True, "path": list[JSON](path or [])}


def test_t8_vacate_then_road_attack_and_ride_on() -> None:
    """NT-T8 (seed L461-464, example 1): NT-75, NT-105 (reserve infantry), NT-109, NT-98."""
    board = pair("road_t8", roads=[("local", "X", "Y", 0, 0), ("local", "Y", "Z1", 0, 0)])
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F u2 CAV2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": Z1}}})
    assert t.face("a1") == "INF1"  # unnamed reserve infantry, narrow defense approach: 1
    assert t.unit("a1").loc == Z1
    assert not t.unit("a1").retreated  # a voluntary vacate is no retreat after combat
    assert not t.unit("a1").revealed
    assert t.state.morale["AL"] == 26
    t.play("F", "declare_after_vacate", {"commands": [road_cmd("u2")]})
    assert (t.unit("u2").loc, t.unit("u2").app) == (Y, None)
    assert t.state.turn.independent_used == 1
    assert "XY" not in t.state.turn.closed
    assert any("u2 (CAV2)" in line for line in t.log)  # shown to be cavalry
    ride = t.state.ride_on
    assert ride is not None
    assert ride["entered"] == 1  # one of the 2 locales of a local-road move is left
    # u2 may ride on into Z1, now Allied: a new road-attack threat across YZ1
    t.play("F", "threaten", {"attack_locale": Y, "approach": "YZ1"})
    assert t.state.ride_on is not None  # the threat says nothing of the road (NT-70)
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    used = t.state.turn.independent_used
    t.play("F", "declare_feint", {"commands": [road_cmd("u2")], "end": "block"})
    assert (t.unit("u2").loc, t.unit("u2").app) == (Y, "YZ1")
    assert t.state.turn.independent_used == used  # the ride-on continues the same command
    assert t.state.ride_on is None


def test_t9_road_attack_must_be_a_feint() -> None:
    """NT-T9 (seed L466-476, example 2): NT-68, NT-76, NT-77(b), NT-78, NT-100."""
    board = pair("road_t9", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)])
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    assert t.refuse("F", "no_feint").rule == "NT-76"
    t.play("F", "declare_feint", {"commands": [road_cmd("u1", [X])], "end": "block"})
    assert (t.unit("u1").loc, t.unit("u1").app) == (X, "XY")
    assert (t.unit("a1").loc, t.unit("a1").app) == (Y, "XY")  # must block with a named piece
    assert not any("a1" in line for line in t.lines_for("french"))  # never named to F
    assert any("committed" in line for line in t.lines_for("allied"))
    assert not t.unit("a1").revealed
    assert t.state.morale == {"F": 23, "AL": 27}
    assert "XY" in t.state.turn.closed
    assert t.unit("u1").moves == 1
    assert t.state.attack is None


def test_t48_local_road_leaves_no_ride_on_but_main_road_does() -> None:
    """NT-T48: NT-51 road distance in a ride-on (local 2, main 3), NT-68 cavalry only."""
    for cls, expect_ride in (("local", False), ("main", True)):
        board = pair(
            f"road_t48_{cls}",
            roads=[(cls, "W", "X", 0, 0), (cls, "X", "Y", 0, 0), (cls, "Y", "Z1", 0, 0)],
        )
        t = Table(
            position(board, ["F u1 CAV2 @W.R [-]", "F i1 INF3 @W.R [-]", "AL a1 INF2 @Y.R [-]"])
        )
        t.play(
            "F",
            "threaten",
            {"attack_locale": X, "approach": "XY"},
        )
        t.play("AL", "vacate", {"retreat": {"destinations": {"a1": Z1}}})
        assert (
            t.refuse("F", "declare_after_vacate", {"commands": [road_cmd("i1", [X])]}).rule
            == "NT-68"
        )  # infantry
        assert (
            t.refuse(
                "F",
                "declare_after_vacate",
                {"commands": [road_cmd("u1", [X]), road_cmd("i1", [X])]},
            ).rule
            == "NT-68"
        )
        t.play("F", "declare_after_vacate", {"commands": [road_cmd("u1", [X])]})
        assert t.unit("u1").loc == Y
        assert (t.state.ride_on is not None) == expect_ride


def test_ride_on_continues_and_any_other_command_ends_it() -> None:
    """NT-98 ride-on within the road distance left; NT-143 another command ends it."""
    board = fragment(
        "road_ride",
        PAIR_LOCALES,
        [*PAIR_APPROACHES, ("Z1Z2", "Z1", "Z2")],
        roads=[("main", "X", "Y", 0, 0), ("main", "Y", "Z1", 0, 0), ("main", "Z1", "Z2", 0, 0)],
    )
    t = Table(position(board, ["F u2 CAV2 @X.R [-]", "F u3 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 4}}})
    t.play("F", "declare_after_vacate", {"commands": [road_cmd("u2")]})
    assert t.state.ride_on is not None
    assert t.refuse("F", "ride_on", {"path": [Z1, 4, X]}).rule in ("NT-51", "NT-52")
    t.play("F", "ride_on", {"path": [Z1]})
    assert t.unit("u2").loc == Z1
    assert t.state.ride_on is None
    assert t.refuse("F", "ride_on", {"path": [Y]}).rule == "NT-98"
    # a fresh case: the ride-on is dropped by another command
    t2 = Table(position(board, ["F u2 CAV2 @X.R [-]", "F u3 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t2.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t2.play("AL", "vacate", {"retreat": {"destinations": {"a1": 4}}})
    t2.play("F", "declare_after_vacate", {"commands": [road_cmd("u2")]})
    t2.play("F", "unit_move", {"unit": "u3", "to": {"locale": W, "approach": None}})
    assert t2.state.ride_on is None
    assert t2.refuse("F", "ride_on", {"path": [Z1]}).rule == "NT-98"


def test_t141_corps_that_must_halt_cannot_attack_by_road() -> None:
    """NT-141 (addendum): a corps of 2+ units halting at the attack locale cannot attack by road,
    not even as a feint; a single unit can (NT-54(c))."""
    board = pair("road_t141", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)])
    t = Table(
        position(
            board,
            [
                "F c1 CAV2 @W.R [murat]",
                "F c2 CAV2 @W.R [murat]",
                "F c3 CAV2 @W.R [-]",
                "AL a1 INF2 @Y.R [kutuzov]",
                "AL a2 INF2 @Y.R [kutuzov]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2", "kutuzov"], "leading": []})
    corps: JSON = {"kind": "corps_move", "commander": "murat", "road": True, "path": [X]}
    assert t.refuse("F", "declare_feint", {"commands": [corps], "end": "block"}).rule == "NT-141"
    t.play("F", "declare_feint", {"commands": [road_cmd("c3", [X])], "end": "reserve"})
    assert (t.unit("c3").loc, t.unit("c3").app) == (X, None)


def test_road_threat_needs_a_road_and_cavalry() -> None:
    """NT-68: the road must cross the attack approach within the road distance; cavalry only.
    The threat names no road (NT-70): the road is checked at the announcement."""
    board = pair("road_bad", roads=[("local", "W", "X", 0, 0)])
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "F i1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    bad = t.refuse("F", "threaten", {"attack_locale": X, "approach": "XY", "road_from": W})
    assert (bad.rule, bad.path) == ("schema", "/payload/road_from")
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})  # i1 backs it
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    no_road = t.refuse("F", "declare_feint", {"commands": [road_cmd("u1", [X])], "end": "block"})
    assert (no_road.rule, no_road.path) == ("NT-68", "/commands/0/path")
    infantry = t.refuse("F", "declare_feint", {"commands": [road_cmd("i1")], "end": "block"})
    assert infantry.rule == "NT-68"  # cavalry only
    # without i1 nothing could back a threat from X: no road crosses XY
    t2 = Table(position(board, ["F u1 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    assert t2.refuse("F", "threaten", {"attack_locale": X, "approach": "XY"}).rule == "NT-64"


def test_retreat_onto_the_road_blocks_the_road_attack() -> None:
    """NT-106/AMB-13: the defender may retreat into a locale on the cavalry's road; then no
    command can carry the vacated road attack in (NT-47, NT-68): the attacker declares none and
    nothing moves."""
    board = fragment(
        "road_blocked",
        {"X": 1, "Y": 2, "Z1": 3, "Z2": 4},
        [("XY", "X", "Y"), ("YZ1", "Y", "Z1"), ("XZ1", "X", "Z1"), ("Z1Z2", "Z1", "Z2")],
        roads=[("main", "Z2", "Z1", 0, 0), ("main", "Z1", "X", 0, 0), ("main", "X", "Y", 0, 0)],
    )
    t = Table(position(board, ["F u1 CAV2 @Z2.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 3}}})
    assert t.unit("a1").loc == 3  # on the road
    assert (
        t.refuse("F", "declare_after_vacate", {"commands": [road_cmd("u1", [3, X])]}).rule
        == "NT-47"
    )
    t.play("F", "declare_after_vacate", {"commands": []})
    assert (t.unit("u1").loc, t.unit("u1").moves) == (4, 0)
    assert t.state.attack is None
    assert t.state.ride_on is None
