"""The rulebook's worked examples (digest 5.2), with their exact numbers. Rule ids in docstrings."""

from __future__ import annotations

from tests.support.napoleons_triumph import Spec, Table, pair, position


def test_t10_artillery_attack() -> None:
    """NT-T10 (seed L478-492, example 3): artillery attack; NT-73, NT-83, NT-86, NT-91, NT-93,
    NT-99."""
    board = pair("t10")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "F u5 INF3 @X.R [-]",
                               "AL a1 ART1 @Y.XY [-]", "AL a2 INF2 @Y.XY [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "vacate", {}).rule == "NT-73"
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    t.play("F", "no_feint")
    assert t.unit("a1").revealed
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})
    # R = +1, F = +1, F wins; LA = 0; LD = 0 + 1 - 0 = 1 on a2 (AMB-26)
    assert t.face("a2") == "INF1"
    assert t.face("a1") == "ART1"
    assert t.face("u1") == "ART1"
    assert t.state.morale == {"F": 23, "AL": 26}
    assert (t.unit("a1").loc, t.unit("a1").app) == (2, "XY")  # NT-93: nobody moves
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, "XY")
    assert t.state.attack is None
    assert not t.unit("a2").revealed  # NT-96: hidden again
    assert t.state.last_artillery == {"F|XY|1": 1}
    # NT-99: a second, non-artillery attack across XY by other pieces is allowed (NT-T46)
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": []})
    t.play("F", "no_feint")
    assert t.refuse("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                            "leading": ["u1"]}).rule in ("NT-43", "NT-99")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u5"}],
                                   "leading": ["u5"]})


def test_t11_counter_attack_wins() -> None:
    """NT-T11 (seed L494-514, example 4): NT-86, NT-88, NT-89, NT-90, NT-91, NT-95, NT-100,
    NT-111."""
    board = pair("t11")
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F u2 INF3 @X.R [-]",
                               "AL a1 INF1 @Y.XY [-]", "AL a2 INF3 @Y.XY [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u2"}],
                                   "leading": ["u2"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 1  # R = 3 - 1 - 1
    assert atk.prelim_winner == "F"
    t.play("AL", "counter", {"units": ["a2"]})
    # a2 INF3 -> INF2; F = 1 - 2 = -1: AL wins; LA = 1 + 1 = 2 on u2; LD = 1 on a1
    assert t.face("a2") == "INF2"
    assert t.face("u2") == "INF1"
    assert t.face("a1") == "dead"
    assert (t.unit("u2").loc, t.unit("u2").app) == (1, None)  # attacked from reserve: stays
    assert t.state.morale == {"F": 21, "AL": 27}  # only the loser loses morale
    assert "XY" in t.state.turn.closed
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY"}).rule == "NT-100"


def test_t13_only_the_loser_loses_morale() -> None:
    """NT-T13 (seed L558): NT-111, NT-105, NT-112, NT-94."""
    board = pair("t13", specs={"XY": Spec(wide=True)})
    t = Table(position(board, ["F v1 INF3 @X.R [vandamme]", "F v2 INF3 @X.R [vandamme]",
                               "AL b1 INF2 @Y.XY [-]", "AL b2 INF2 @Y.XY [-]",
                               "AL b5 INF2 @Y.YZ1 [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1", "b2"], "leading": ["b1", "b2"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "corps_move", "commander": "vandamme"}],
                                   "width": "wide", "leading": ["v1", "v2"]})
    assert t.state.attack is not None
    assert t.state.attack.prelim == 1  # R = 6 - 1 - 4
    # no named unit is left outside the leading units: step (7) is skipped on public facts
    # LA = 2: v1, v2 -> INF2; LD = 2 + 1 = 3: one each, the odd point placed by F
    assert t.face("v1") == "INF2"
    assert t.face("v2") == "INF2"
    assert t.state.pending is not None
    assert t.state.pending.kind == "odd_loss"
    # F names the Allied unit by its alias; the server id is refused, so it cannot be probed
    assert t.refuse("F", "place_odd_loss", {"units": ["b1"]}).rule == "NT-90"
    t.play("F", "place_odd_loss", {"units": [t.alias("F", "b1")]})
    assert t.face("b1") == "dead"
    assert t.face("b2") == "INF1"
    assert t.state.morale == {"F": 23, "AL": 24}
    t.play("AL", "retreat_plan", {"losses": [{"unit": "b5", "sp": 1}],
                                  "destinations": {"b2": 3, "b5": 3}})
    assert t.face("b5") == "INF1"
    assert t.state.morale["AL"] == 23
    assert t.unit("v1").loc == 2
    assert t.unit("v1").app is None
    assert t.state.commanders["vandamme"].loc == 2
