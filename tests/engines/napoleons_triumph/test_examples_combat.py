"""Derived combat test cases NT-T31..NT-T49 (digest 5.3): exact numbers; rule ids in docstrings."""

from __future__ import annotations

from games.core.protocol import JSON
from tests.support.napoleons_triumph import Spec, Table, pair, position

WIDE = {"XY": Spec(wide=True)}


def _to_declare(t: Table, named: list[JSON], leading: list[JSON]) -> None:
    """F threatens across XY, AL defends, F declines the feint: F must now declare (step 5)."""
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": named, "leading": leading})
    t.play("F", "no_feint")
    assert t.state.pending is not None
    assert t.state.pending.kind == "declare"


def _unit(uid: str) -> dict[str, JSON]:
    return {"kind": "unit_move", "unit": uid}


def _corps(cid: str) -> dict[str, JSON]:
    return {"kind": "corps_move", "commander": cid}


# ----------------------------------------------------------------------------- leading units


def test_t31_attack_leading_units() -> None:
    """NT-T31: INF1/CAV1 cannot lead; artillery not by Corps Move nor from reserve; leading pairs
    share a type (NT-123 Guard+INF); two blocking ART1 by combined Unit Moves lead an artillery
    attack. NT-83, NT-66, NT-123, NT-86, NT-91, NT-114."""
    board = pair("t31", specs=WIDE)
    t = Table(position(board, [
        "F i1 INF1 @X.R [-]", "F c1 CAV1 @X.R [-]", "F r1 ART1 @X.R [-]",
        "F g1 GUARD3 @X.R [garde]", "F g2 INF3 @X.R [garde]",
        "F m1 INF3 @X.R [murat]", "F m2 CAV2 @X.R [murat]",
        "F s1 ART1 @X.XY [soult]", "F s2 INF2 @X.XY [soult]",
        "F b1 ART1 @X.XY [-]", "F b2 ART1 @X.XY [-]",
        "AL a1 INF2 @Y.XY [-]",
    ]))
    _to_declare(t, ["a1"], ["a1"])
    assert t.refuse("F", "declare_attack", {"commands": [_unit("i1")],
                                            "leading": ["i1"]}).rule == "NT-83"
    assert t.refuse("F", "declare_attack", {"commands": [_unit("c1")],
                                            "leading": ["c1"]}).rule == "NT-83"
    assert t.refuse("F", "declare_attack", {"commands": [_corps("soult")],
                                            "leading": ["s1"]}).rule == "NT-83"
    assert t.refuse("F", "declare_attack", {"commands": [_unit("r1")],
                                            "leading": ["r1"]}).rule == "NT-83"
    assert t.refuse("F", "declare_attack", {"commands": [_corps("murat")], "width": "wide",
                                            "leading": ["m1", "m2"]}).rule == "NT-83"
    assert t.refuse("F", "declare_attack", {"commands": [_corps("garde")], "width": "wide",
                                            "leading": ["g1", "g2"]}).rule == "NT-83"
    assert t.state.morale == {"F": 23, "AL": 27}  # refused declarations commit no Guard
    t.play("F", "declare_attack", {"commands": [_unit("b1"), _unit("b2")], "width": "wide",
                                   "leading": ["b1", "b2"]})
    # artillery attack: R = 1 + 1 = +2 (defense leaders not subtracted); LA = 0; LD = 0 + 2 - 0
    assert t.state.attack is None
    assert t.face("a1") == "dead"
    assert t.face("b1") == "ART1"
    assert t.face("b2") == "ART1"
    assert t.state.turn.independent_used == 2  # NT-66: each command counts
    assert t.state.morale == {"F": 23, "AL": 25}
    assert (t.unit("b1").loc, t.unit("b1").app) == (1, "XY")  # NT-93


def test_t32_reserve_defense_zero_leaders() -> None:
    """NT-T32: R = 0 with reserve defenders; 3 attacking units vs 2 named: F leads; no counter:
    F wins with LA = LD = 0; named reserve infantry lose nothing in the retreat.
    NT-86, NT-87, NT-90, NT-91, NT-94, NT-105, AMB-21, AMB-24."""
    board = pair("t32")
    t = Table(position(board, [
        "F v1 INF2 @X.R [v]", "F v2 INF2 @X.R [v]", "F v3 INF2 @X.R [v]",
        "AL d1 INF3 @Y.R [k]", "AL d2 INF3 @Y.R [k]",
    ]))
    _to_declare(t, ["d1", "d2"], [])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "leading": []})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 0
    assert atk.prelim_winner == "F"
    t.play("AL", "counter", {"units": []})
    atk = t.state.attack
    assert atk is not None
    assert atk.final == 0
    assert atk.winner == "F"
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"
    assert [t.face(u) for u in ("v1", "v2", "v3", "d1", "d2")] == ["INF2"] * 3 + ["INF3"] * 2
    t.play("AL", "retreat_plan", {"anchors": {"k": "d1"}, "destinations": {"d1": 3, "d2": 4}})
    assert t.face("d1") == "INF3"
    assert t.face("d2") == "INF3"
    assert t.state.morale == {"F": 23, "AL": 27}
    assert all(t.unit(u).loc == 2 and t.unit(u).app is None for u in ("v1", "v2", "v3"))
    assert t.unit("d2").corps is None
    assert t.unit("d1").corps == "k"


def test_t32_variant_infantry_counter_turns_the_tie() -> None:
    """NT-T32 variant: counter [d1] (infantry: F was preliminary winner) -> d1 INF2, F = -2, AL
    wins; LA = 0 + 2 by F's choice among the attacking units; F morale -2.
    NT-88, NT-89, NT-90, NT-111."""
    board = pair("t32v")
    t = Table(position(board, [
        "F v1 INF2 @X.R [v]", "F v2 INF2 @X.R [v]", "F v3 INF2 @X.R [v]",
        "AL d1 INF3 @Y.R [k]", "AL d2 INF3 @Y.R [k]",
    ]))
    _to_declare(t, ["d1", "d2"], [])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "leading": []})
    t.play("AL", "counter", {"units": ["d1"]})
    assert t.face("d1") == "INF2"
    atk = t.state.attack
    assert atk is not None
    assert atk.final == -2
    assert atk.winner == "AL"
    assert t.state.pending is not None
    assert t.state.pending.kind == "assign_losses"
    assert t.state.pending.side == "F"
    t.play("F", "assign_losses", {"losses": [{"unit": "v3", "sp": 2}]})
    assert t.face("v3") == "dead"
    assert t.face("v1") == "INF2"
    assert t.face("v2") == "INF2"
    assert t.state.morale == {"F": 21, "AL": 27}  # the winner's counter loss costs no morale


def test_t33_counts_decide_a_zero_result() -> None:
    """NT-T33: R = 2 - 2 = 0, 3 attacking units vs 2 named -> F wins; LA = 1, LD = 1 + 0.
    NT-86, NT-87, NT-90, NT-91, NT-111."""
    board = pair("t33")
    t = Table(position(board, [
        "F a1 INF2 @X.R [v]", "F a2 INF3 @X.R [v]", "F a3 CAV2 @X.R [v]",
        "AL d1 INF2 @Y.R [k]", "AL d2 INF2 @Y.R [k]",
    ]))
    _to_declare(t, ["d1", "d2"], ["d1"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "leading": ["a1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 0
    assert atk.prelim_winner == "F"
    t.play("AL", "counter", {"units": []})
    assert t.face("a1") == "INF1"
    assert t.face("d1") == "INF1"
    assert t.face("a2") == "INF3"
    assert t.face("d2") == "INF2"
    assert t.state.morale == {"F": 23, "AL": 26}
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"


def test_t33_equal_counts_go_to_the_french() -> None:
    """NT-T33 variant and mirror: 2 vs 2 units in the combat -> the French win R = 0, as attacker
    and as defender (AMB-24). NT-87."""
    board = pair("t33e")
    t = Table(position(board, [
        "F a1 INF2 @X.R [v]", "F a2 INF3 @X.R [v]",
        "AL d1 INF2 @Y.R [k]", "AL d2 INF2 @Y.R [k]",
    ]))
    _to_declare(t, ["d1", "d2"], ["d1"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "leading": ["a1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 0
    assert atk.prelim_winner == "F"
    # mirror: the Allies attack French reserve defenders with an equal count
    board = pair("t33m")
    t = Table(position(board, [
        "AL k1 INF2 @X.R [k]", "AL k2 INF3 @X.R [k]",
        "F d1 INF2 @Y.R [davout]", "F d2 INF2 @Y.R [davout]",
    ], active="AL"))
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("F", "defend", {"named": ["d1", "d2"], "leading": ["d1"]})
    t.play("AL", "no_feint")
    t.play("AL", "declare_attack", {"commands": [_corps("k")], "leading": ["k1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 0
    assert atk.prelim_winner == "F"
    assert t.state.turn.corps_used == 1


def test_t34_blocking_defender_wins_zero() -> None:
    """NT-T34: R = 2 - 0 - 2 = 0 against blockers: the defender is the preliminary winner (no
    count); with no counter-attacker F = 0, LA = 1, LD = 1. NT-86, NT-87, NT-90, NT-91, NT-95."""
    board = pair("t34")
    t = Table(position(board, ["F c1 CAV2 @X.R [-]", "F c2 CAV2 @X.R [-]", "F c3 CAV2 @X.R [-]",
                               "AL b1 INF2 @Y.XY [-]"]))
    _to_declare(t, ["b1"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("c1")], "leading": ["c1"]})
    assert t.state.attack is None  # no counter candidate: steps (7)-(11) ran on
    assert t.face("c1") == "CAV1"
    assert t.face("b1") == "INF1"
    assert t.state.morale == {"F": 22, "AL": 27}
    assert (t.unit("c1").loc, t.unit("c1").app) == (1, None)
    assert "XY" in t.state.turn.closed


def test_t35_who_may_counter_attack() -> None:
    """NT-T35: defender preliminary winner: no infantry, never artillery, not a current leader,
    a pair only of one type and corps; cavalry accepted. NT-88, NT-89, AMB-25."""
    board = pair("t35")
    t = Table(position(board, [
        "F u1 INF2 @X.R [-]", "F u2 INF2 @X.R [-]",
        "AL b1 INF3 @Y.XY [-]", "AL c1 CAV2 @Y.XY [k]", "AL c2 CAV2 @Y.XY [m]",
        "AL c3 CAV2 @Y.XY [m]", "AL i1 INF2 @Y.XY [k]", "AL r1 ART1 @Y.XY [k]",
    ]))
    named: list[JSON] = ["b1", "c1", "c2", "c3", "i1", "r1", "k", "m"]  # blockers' commanders too
    _to_declare(t, named, ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == -2
    assert atk.prelim_winner == "AL"
    assert t.refuse("AL", "counter", {"units": ["i1"]}).rule == "NT-88"
    assert t.refuse("AL", "counter", {"units": ["r1"]}).rule == "NT-88"
    assert t.refuse("AL", "counter", {"units": ["c1", "c2"]}).rule == "NT-88"
    assert t.refuse("AL", "counter", {"units": ["b1"]}).rule == "NT-88"
    assert t.refuse("AL", "counter", {"units": ["c1", "c2", "c3"]}).rule == "NT-88"
    t.play("AL", "counter", {"units": ["c2", "c3"]})  # same type, same corps
    assert t.face("c2") == "CAV1"
    assert t.face("c3") == "CAV1"
    assert t.state.pending is None
    assert t.state.attack is None
    # F = -2 - 2 = -4: LA = 1 + 4 = 5 on u1 (INF2: eliminated); LD = 1 + 0 - 0 = 1 on b1
    assert t.face("u1") == "dead"
    assert t.face("b1") == "INF2"
    assert t.state.morale == {"F": 21, "AL": 27}


def test_t35_obstructed_defense_side_bars_cavalry_counter() -> None:
    """NT-T35: with Y's side of XY obstructed, cavalry cannot counter-attack. NT-69, NT-88."""
    board = pair("t35o", specs={"XY": Spec(sides={"Y": {"obstructed": True}})})
    t = Table(position(board, ["F u1 INF2 @X.R [-]", "F u2 INF2 @X.R [-]",
                               "AL b1 INF3 @Y.XY [-]", "AL c1 CAV2 @Y.XY [k]",
                               "AL c2 CAV2 @Y.XY [k]"]))
    _to_declare(t, ["b1", "c1", "c2", "k"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.refuse("AL", "counter", {"units": ["c1"]}).rule == "NT-69"
    t.play("AL", "counter", {"units": []})


def test_t35_artillery_attack_skips_the_counter() -> None:
    """NT-T35: in an artillery attack step (7) is skipped although named non-leaders exist.
    NT-88, NT-93."""
    board = pair("t35a")
    t = Table(position(board, ["F g1 ART1 @X.XY [-]", "F u2 INF2 @X.R [-]",
                               "AL b1 INF3 @Y.XY [-]", "AL c1 CAV2 @Y.XY [-]"]))
    _to_declare(t, ["b1", "c1"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("g1")], "leading": ["g1"]})
    assert t.state.pending is None
    assert t.state.attack is None
    # R = 1 (b1 not subtracted), F wins; LD = 0 + 1 - 0 on b1 (infantry defense leader)
    assert t.face("b1") == "INF2"
    assert t.face("c1") == "CAV2"
    assert t.state.morale == {"F": 23, "AL": 26}


def test_t36_strength_one_counter_attacker_when_defender_loses() -> None:
    """NT-T36: c1 CAV1 counter-attacks: eliminated at once, adds 0; AL loses the attack and the
    point counts in AL's morale loss. NT-88, NT-89, NT-91, NT-111."""
    board = pair("t36")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "F u2 INF2 @X.R [-]",
                               "AL b1 INF1 @Y.XY [-]", "AL c1 CAV1 @Y.XY [-]"]))
    _to_declare(t, ["b1", "c1"], [])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.state.attack is not None
    assert t.state.attack.prelim == 2
    t.play("AL", "counter", {"units": ["c1"]})
    assert t.face("c1") == "dead"
    # F = 2 - 0 = +2; LA = 0; LD = 1 + 2 = 3: b1 (the only named unit left) is eliminated
    assert t.face("b1") == "dead"
    assert t.face("u1") == "INF3"
    assert t.state.morale == {"F": 23, "AL": 25}  # 1 (counter) + 1 (b1)
    assert t.unit("u1").loc == 2  # nobody left to retreat: F advances


def test_t36_strength_one_counter_attacker_when_defender_wins() -> None:
    """NT-T36: if AL wins, the counter-attacker's point costs no morale. NT-88, NT-111."""
    board = pair("t36w")
    t = Table(position(board, ["F u1 INF2 @X.R [-]", "F u2 INF2 @X.R [-]",
                               "AL b1 INF3 @Y.XY [-]", "AL c1 CAV1 @Y.XY [-]"]))
    _to_declare(t, ["b1", "c1"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    t.play("AL", "counter", {"units": ["c1"]})
    atk_final = t.state.attack
    assert atk_final is None
    assert t.face("c1") == "dead"
    assert t.face("u1") == "dead"  # LA = 1 + 2 = 3 > INF2
    assert t.face("b1") == "INF2"  # LD = 1
    assert t.state.morale == {"F": 21, "AL": 27}


def test_t37_artillery_defense_leader_reduces_losses() -> None:
    """NT-T37: R = 6 - 1 - 4 = +1; LA = 2; LD = 2 + 1 - 1 = 2, all on b2 (artillery takes no
    first-tier loss); b1 (ART) eliminated in the retreat. NT-86, NT-90, NT-91, NT-105, NT-112."""
    board = pair("t37", specs=WIDE)
    t = Table(position(board, ["F a1 INF3 @X.R [v]", "F a2 INF3 @X.R [v]",
                               "AL b1 ART1 @Y.XY [-]", "AL b2 INF3 @Y.XY [-]"]))
    _to_declare(t, ["b1", "b2"], ["b1", "b2"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "width": "wide",
                                   "leading": ["a1", "a2"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 1
    assert atk.winner == "F"
    assert t.face("a1") == "INF2"
    assert t.face("a2") == "INF2"
    assert t.face("b2") == "INF1"
    assert t.face("b1") == "ART1"
    assert t.state.morale == {"F": 23, "AL": 25}
    t.play("AL", "retreat_plan", {"destinations": {"b2": 3}})
    assert t.face("b1") == "dead"
    assert t.face("b2") == "INF1"  # blocked the defense approach: no retreat loss
    assert t.state.morale == {"F": 23, "AL": 24}
    assert t.unit("a1").loc == 2
    assert t.unit("b2").loc == 3


def test_t38_counter_attack_and_odd_attacker_point() -> None:
    """NT-T38: R = 6 - 1 - 6 = -1; counter [c1, c2]; F = -3; LA = 2 + 3 = 5, 2 each and the odd
    point on a1 (AL's choice); LD = 2: b1, b2 -> INF2; F morale -5. NT-88..NT-91, NT-111."""
    board = pair("t38", specs=WIDE)
    t = Table(position(board, ["F a1 INF3 @X.R [v]", "F a2 INF3 @X.R [v]",
                               "AL b1 INF3 @Y.XY [-]", "AL b2 INF3 @Y.XY [-]",
                               "AL c1 CAV2 @Y.XY [k]", "AL c2 CAV2 @Y.XY [k]"]))
    _to_declare(t, ["b1", "b2", "c1", "c2", "k"], ["b1", "b2"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "width": "wide",
                                   "leading": ["a1", "a2"]})
    assert t.state.attack is not None
    assert t.state.attack.prelim == -1
    t.play("AL", "counter", {"units": ["c1", "c2"]})
    assert t.face("c1") == "CAV1"
    assert t.face("c2") == "CAV1"
    assert t.state.attack is not None
    assert t.state.attack.final == -3
    assert t.state.pending is not None
    assert t.state.pending.kind == "odd_loss"
    assert t.state.pending.side == "AL"
    assert (
        t.refuse("AL", "place_odd_loss", {"units": [t.alias("AL", "a1"), t.alias("AL", "a2")]}).rule
        == "NT-90"
    )
    assert t.refuse("AL", "place_odd_loss", {"units": ["a1"]}).rule == "NT-90"  # server id
    t.play("AL", "place_odd_loss", {"units": [t.alias("AL", "a1")]})
    assert t.face("a1") == "dead"
    assert t.face("a2") == "INF1"
    assert t.face("b1") == "INF2"
    assert t.face("b2") == "INF2"
    assert t.state.morale == {"F": 18, "AL": 27}
    assert t.state.attack is None
    assert (t.unit("a2").loc, t.unit("a2").app, t.unit("a2").corps) == (1, None, "v")


def test_t39_third_tier_losses() -> None:
    """NT-T39: R = 6 - 1 - 1 = +4; counter [c1, c2]; F = +2; LD = 2 + 2 = 4: b1 (1), c1 and c2
    (2), the last point on b3; LA = 1 on a2 (AL places the odd point); AL morale -6.
    NT-88..NT-91, NT-111."""
    board = pair("t39", specs=WIDE)
    t = Table(position(board, ["F a1 INF3 @X.R [v]", "F a2 INF3 @X.R [v]",
                               "AL b1 INF1 @Y.XY [-]", "AL c1 CAV2 @Y.XY [k]",
                               "AL c2 CAV2 @Y.XY [k]", "AL b3 INF3 @Y.XY [-]"]))
    _to_declare(t, ["b1", "b3", "c1", "c2", "k"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "width": "wide",
                                   "leading": ["a1", "a2"]})
    assert t.state.attack is not None
    assert t.state.attack.prelim == 4
    t.play("AL", "counter", {"units": ["c1", "c2"]})
    assert t.state.attack is not None
    assert t.state.attack.final == 2
    assert t.state.pending is not None
    assert t.state.pending.kind == "odd_loss"
    assert t.state.pending.side == "AL"
    t.play("AL", "place_odd_loss", {"units": [t.alias("AL", "a2")]})
    assert t.face("a2") == "INF2"
    assert t.face("a1") == "INF3"
    assert t.face("b1") == "dead"
    assert t.face("c1") == "dead"
    assert t.face("c2") == "dead"
    assert t.face("b3") == "INF2"
    assert t.state.morale == {"F": 23, "AL": 21}
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"


def test_t40_artillery_attack_only_artillery_named() -> None:
    """NT-T40 variant: only a1 ART1 was named; it takes the point and is eliminated (AMB-26);
    artillery attack: morale not below 1, nobody moves. NT-91, NT-93, NT-114."""
    board = pair("t40")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "AL a1 ART1 @Y.XY [-]"]))
    _to_declare(t, ["a1"], ["a1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.face("a1") == "dead"
    assert t.state.morale == {"F": 23, "AL": 26}
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, "XY")


# ----------------------------------------------------------------------------- NT-84


def _art_position(name: str, round_: int, hills: list[str] | None = None) -> Table:
    board = pair(name, hills=hills or [])
    return Table(position(board, ["F u1 ART1 @X.XY [-]", "F u2 ART1 @X.XW [-]",
                                  "AL a1 INF2 @Y.XY [-]", "AL w1 INF2 @W.XW [-]"],
                          round_=round_))


def test_t41_no_artillery_attack_in_consecutive_turns() -> None:
    """NT-T41: an F artillery attack from X.XY in round 3 bars one from X.XY in round 4, not from
    another approach side, not in round 5, not from a hill onto a non-hill. NT-84, AMB-22."""
    t = _art_position("t41a", 4)
    t.state.last_artillery = {"F|XY|1": 3}
    _to_declare(t, ["a1"], [])
    assert t.refuse("F", "declare_attack", {"commands": [_unit("u1")],
                                            "leading": ["u1"]}).rule == "NT-84"
    # a non-artillery declaration by the same unit stays legal (it is an ordinary attack)
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": []})
    # another approach side (X.XW) in round 4: accepted
    t = _art_position("t41b", 4)
    t.state.last_artillery = {"F|XY|1": 3}
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XW"})
    t.play("AL", "defend", {"named": ["w1"], "leading": []})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [_unit("u2")], "leading": ["u2"]})
    assert t.state.last_artillery == {"F|XY|1": 3, "F|XW|1": 4}
    # round 5: accepted
    t = _art_position("t41c", 5)
    t.state.last_artillery = {"F|XY|1": 3}
    _to_declare(t, ["a1"], [])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.state.last_artillery == {"F|XY|1": 5}
    # X a hill, Y not: accepted in round 4
    t = _art_position("t41d", 4, hills=["X"])
    t.state.last_artillery = {"F|XY|1": 3}
    _to_declare(t, ["a1"], [])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.face("a1") == "INF1"
    # both hills: the exception does not apply
    t = _art_position("t41e", 4, hills=["X", "Y"])
    t.state.last_artillery = {"F|XY|1": 3}
    _to_declare(t, ["a1"], [])
    assert t.refuse("F", "declare_attack", {"commands": [_unit("u1")],
                                            "leading": ["u1"]}).rule == "NT-84"


def test_t41_feint_and_vacate_do_not_count() -> None:
    """NT-T41: a round-3 artillery feint, or an artillery attack after a vacate, does not count:
    the next French turn (round 4) may attack with artillery from X.XY. NT-84, NT-75, NT-77."""
    board = pair("t41f")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "AL a1 INF2 @Y.XY [-]"], round_=3))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "declare_feint", {"commands": [_unit("u1")], "end": "block"})
    assert t.state.attack is None
    assert t.state.last_artillery == {}
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    assert (t.state.round, t.state.active) == (4, "F")
    _to_declare(t, ["a1"], ["a1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.state.last_artillery == {"F|XY|1": 4}
    # vacate case
    board = pair("t41v")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "AL a1 CAV2 @Y.R [-]",
                               "AL a2 INF2 @Z1.R [-]"], round_=3))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 3}}})
    t.play("F", "declare_after_vacate", {"commands": [_unit("u1")], "artillery": True})
    assert t.state.last_artillery == {}
    assert t.unit("u1").app == "XY"
    assert t.unit("u1").moves == 1


def test_t42_artillery_attack_cannot_demoralize() -> None:
    """NT-T42: AL morale 1; an artillery attack wins by F = +2: AL loses 2 strength points, morale
    stays 1; F loses nothing; nobody moves. NT-114, AMB-30, NT-93."""
    board = pair("t42", specs=WIDE)
    t = Table(position(board, ["F g1 ART1 @X.XY [-]", "F g2 ART1 @X.XY [-]",
                               "AL b1 INF3 @Y.XY [-]"], morale={"F": 23, "AL": 1}))
    _to_declare(t, ["b1"], ["b1"])
    t.play("F", "declare_attack", {"commands": [_unit("g1"), _unit("g2")], "width": "wide",
                                   "leading": ["g1", "g2"]})
    assert t.face("b1") == "INF1"
    assert t.state.morale == {"F": 23, "AL": 1}
    assert t.state.phase == "turn"
    assert t.state.result is None
    assert (t.unit("b1").loc, t.unit("b1").app) == (2, "XY")
    assert t.face("g1") == "ART1"
    assert t.face("g2") == "ART1"


# ----------------------------------------------------------------------------- feints


def _t43(name: str, at: str = "R") -> Table:
    board = pair(name)
    return Table(position(board, [f"F v1 INF3 @X.{at} [vandamme]",
                                  f"F v2 INF2 @X.{at} [vandamme]",
                                  "AL a1 INF2 @Y.R [k]", "AL a2 INF2 @Y.R [k]"]))


def test_t43_feint_defender_must_block() -> None:
    """NT-T43: a feint by Vandamme's corps ending blocking; AL blocks with a1 (detached, k stays
    with a2); a1's leading status is never shown; no losses; XY closed. NT-76..NT-78, NT-100."""
    t = _t43("t43")
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2", "k"], "leading": ["a1"]})
    t.play("F", "declare_feint", {"commands": [_corps("vandamme")], "end": "block"})
    assert t.state.pending is not None
    assert t.state.pending.kind == "feint_hold"
    assert t.refuse("AL", "feint_hold", {"pieces": []}).rule == "NT-78"
    assert t.refuse("AL", "feint_hold", {"pieces": ["k"]}).rule == "NT-78"
    assert not t.unit("a1").revealed
    t.play("AL", "feint_hold", {"pieces": ["a1"]})
    assert (t.unit("v1").app, t.unit("v2").app) == ("XY", "XY")
    assert t.state.commanders["vandamme"].app == "XY"
    assert (t.unit("a1").app, t.unit("a1").corps) == ("XY", None)
    assert (t.unit("a2").app, t.unit("a2").corps) == (None, "k")
    assert t.state.commanders["k"].app is None
    assert [t.face(u) for u in ("v1", "v2", "a1", "a2")] == ["INF3", "INF2", "INF2", "INF2"]
    assert t.state.morale == {"F": 23, "AL": 27}
    from games.napoleons_triumph import RULESET

    french = RULESET.view(t.state, "french")
    assert isinstance(french, dict)
    assert t.state.attack is None
    assert french["attack"] is None
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY"}).rule == "NT-100"
    assert t.state.commanders["vandamme"].commands == 1
    assert t.unit("v1").moves == 1


def test_t43_feint_commander_goes_with_the_blocker() -> None:
    """NT-T43: AL sends [a1, k]: a2 is detached instead; a feint from X.XY cannot end in reserve.
    NT-77, NT-78."""
    t = _t43("t43k")
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2", "k"], "leading": ["a1"]})
    t.play("F", "declare_feint", {"commands": [_corps("vandamme")], "end": "reserve"})
    assert (t.unit("v1").loc, t.unit("v1").app) == (1, None)
    t.play("AL", "feint_hold", {"pieces": ["a1", "k"]})
    assert (t.unit("a1").app, t.unit("a1").corps) == ("XY", "k")
    assert (t.unit("a2").app, t.unit("a2").corps) == (None, None)
    assert t.state.commanders["k"].app == "XY"
    t = _t43("t43b", at="XY")
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2"], "leading": []})
    assert t.refuse("F", "declare_feint", {"commands": [_corps("vandamme")],
                                           "end": "reserve"}).rule == "NT-77"


# ----------------------------------------------------------------------------- conquest


def test_t44_conquest_lock() -> None:
    """NT-T44: after F won across XY and advanced into Y, another F unit may not move from Z1
    into Y this turn (NT-101, AMB-27); the lock is gone next turn."""
    board = pair("t44")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "F w1 INF2 @Z1.R [-]",
                               "AL a1 INF1 @Y.R [-]"]))
    _to_declare(t, ["a1"], [])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    t.play("AL", "counter", {"units": []})
    # R = 3 > 0: F wins; LD = 1 + 3: a1 eliminated; nothing retreats; u1 advances
    assert t.face("a1") == "dead"
    assert t.unit("u1").loc == 2
    assert t.refuse("F", "unit_move", {"unit": "w1",
                                       "to": {"locale": 2, "approach": None}}).rule == "NT-101"
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    t.play("F", "unit_move", {"unit": "w1", "to": {"locale": 2, "approach": None}})


def test_t44_no_lock_after_vacate_or_artillery() -> None:
    """NT-T44: after a vacate the same move is accepted; after an artillery attack AL is still
    there, and a new attack into Y from Z1 is allowed (NT-101 exceptions, NT-99)."""
    board = pair("t44v")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "F w1 INF2 @Z1.R [-]",
                               "AL a1 CAV2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 4}}})
    t.play("F", "declare_after_vacate", {"commands": [_unit("u1")]})
    assert t.unit("u1").loc == 2
    assert t.state.turn.conquered == []
    t.play("F", "unit_move", {"unit": "w1", "to": {"locale": 2, "approach": None}})
    board = pair("t44a")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "F w1 INF3 @Z1.R [-]",
                               "AL a1 INF3 @Y.R [-]", "AL a2 INF2 @Y.R [-]"]))
    _to_declare(t, ["a1"], [])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.face("a1") == "INF2"
    t.play("F", "threaten", {"attack_locale": 3, "approach": "YZ1"})
    assert t.state.pending is not None
    assert t.state.pending.kind == "defend"


def test_t45_attacker_defeated_from_blocking_position() -> None:
    """NT-T45: R = 3 - 3 = 0, 3 vs 2 -> F leads; counter [a2] -> F = -2, AL wins; LA = 1 + 2 = 3
    eliminates v1; LD = 1 on a1; Vandamme falls back, keeps v3; a2 holds XY detached.
    NT-87, NT-88, NT-90, NT-91, NT-95, NT-100, NT-111."""
    board = pair("t45")
    t = Table(position(board, ["F v1 INF3 @X.XY [v]", "F v2 INF2 @X.XY [v]", "F v3 CAV2 @X.XY [v]",
                               "AL a1 INF3 @Y.R [k]", "AL a2 INF3 @Y.R [k]"]))
    _to_declare(t, ["a1", "a2", "k"], ["a1"])
    t.play("F", "declare_attack", {"commands": [_corps("v")], "leading": ["v1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 0
    assert atk.prelim_winner == "F"
    t.play("AL", "counter", {"units": ["a2"]})
    assert t.face("a2") == "INF2"
    assert t.face("v1") == "dead"
    assert t.face("a1") == "INF2"
    assert t.state.morale == {"F": 20, "AL": 27}
    assert t.state.pending is not None
    assert t.state.pending.kind == "anchor"
    assert t.refuse("F", "choose_anchor", {"anchors": {"v": "a1"}}).rule == "NT-95"
    t.play("F", "choose_anchor", {"anchors": {"v": "v3"}})
    assert (t.unit("v2").loc, t.unit("v2").app, t.unit("v2").corps) == (1, None, None)
    assert (t.unit("v3").loc, t.unit("v3").app, t.unit("v3").corps) == (1, None, "v")
    assert (t.state.commanders["v"].loc, t.state.commanders["v"].app) == (1, None)
    assert t.state.pending is not None
    assert t.state.pending.kind == "hold"
    t.play("AL", "hold", {"pieces": ["a2"]})
    assert (t.unit("a2").app, t.unit("a2").corps) == ("XY", None)
    assert (t.unit("a1").app, t.unit("a1").corps) == (None, "k")
    assert t.state.commanders["k"].app is None
    assert t.state.attack is None
    assert "XY" in t.state.turn.closed
    assert t.state.morale == {"F": 20, "AL": 27}


def test_t46_second_attack_after_artillery() -> None:
    """NT-T46: after the artillery attack of NT-T10 a new threat across XY is accepted; AL names
    a1, a2 again; u1 cannot attack again (NT-43); another battery cannot make a second artillery
    attack (NT-99); u5 may attack."""
    board = pair("t46")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "F u2 ART1 @X.XY [-]", "F u5 INF3 @X.R [-]",
                               "AL a1 ART1 @Y.XY [-]", "AL a2 INF2 @Y.XY [-]"]))
    _to_declare(t, ["a1", "a2"], ["a1"])
    t.play("F", "declare_attack", {"commands": [_unit("u1")], "leading": ["u1"]})
    assert t.face("a2") == "INF1"
    assert t.state.attack is None
    _to_declare(t, ["a1", "a2"], ["a1"])
    assert t.refuse("F", "declare_attack", {"commands": [_unit("u1")],
                                            "leading": []}).rule == "NT-43"
    assert t.refuse("F", "declare_attack", {"commands": [_unit("u2")],
                                            "leading": ["u2"]}).rule == "NT-99"
    t.play("F", "declare_attack", {"commands": [_unit("u5")], "leading": ["u5"]})
    t.play("AL", "counter", {"units": []})
    # R = 3 - 1 - 1 = +1: F wins; LA = 1 on u5; LD = 1 + 1 - 1 = 1 on a2 (third tier: a1 is an
    # artillery leader, AMB-26)
    assert t.face("u5") == "INF2"
    assert t.face("a2") == "dead"
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"


def test_t47_artillery_attack_after_vacate() -> None:
    """NT-T47: AL vacates; F declares u1 as an artillery attack: u1 stays at X.XY, is spent, the
    attack does not count for NT-84, and any F piece may later enter Y. NT-75, NT-84, NT-101."""
    board = pair("t47")
    t = Table(position(board, ["F u1 ART1 @X.XY [-]", "F u5 INF3 @X.R [-]",
                               "AL r1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "vacate", {})
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"
    t.play("AL", "retreat_plan", {"losses": [{"unit": "r1", "sp": 1}],
                                  "destinations": {"r1": 3}})
    # a voluntary vacate is a retreat: unnamed reserve infantry lose 1 (narrow), NT-105, NT-112
    assert t.face("r1") == "INF1"
    assert t.state.morale["AL"] == 26
    assert not t.unit("r1").retreated  # NT-109: not a retreat after combat
    t.play("F", "declare_after_vacate", {"commands": [_unit("u1")], "artillery": True})
    assert (t.unit("u1").loc, t.unit("u1").app, t.unit("u1").moves) == (1, "XY", 1)
    assert t.state.last_artillery == {}
    assert t.state.turn.independent_used == 1
    t.play("F", "unit_move", {"unit": "u5", "to": {"locale": 2, "approach": None}})
    assert t.refuse("F", "unit_move", {"unit": "u1",
                                       "to": {"locale": 2, "approach": None}}).rule == "NT-43"


def test_t48_road_attacks_named_at_the_announcement() -> None:
    """NT-T48, NT-70 (L335): a threat names no road (a road_path there is no field of it), a
    road attack's command names its road (`path`), and ride_on without a ride-on is NT-98."""
    board = pair("t48", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0),
                               ("local", "Y", "Z1", 0, 0)])
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "F u2 INF2 @X.R [-]",
                               "AL a1 INF2 @Y.R [-]"]))
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY",
                                      "road_path": [1, 2]}).rule == "schema"
    assert t.refuse("F", "ride_on", {"path": [2]}).rule == "NT-98"
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    assert t.refuse("F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "u1",
                                                         "road": True}],
                                           "end": "reserve"}).rule == "schema"  # no path


# ----------------------------------------------------------------------------- combined


def test_t49_combined_attacks() -> None:
    """NT-T49: two Corps Moves from X.R combine (2 corps commands, for AL 2 of 5); corps from X.R
    and X.XY do not; Corps Move + Unit Move do not; one battery in reserve does not combine.
    NT-66, NT-37."""
    board = pair("t49", specs=WIDE)
    t = Table(position(board, [
        "AL k1 INF3 @X.R [k]", "AL k2 INF2 @X.R [k]", "AL m1 INF3 @X.R [m]",
        "AL m2 INF2 @X.R [m]", "AL n1 INF2 @X.XY [n]", "AL n2 INF2 @X.XY [n]",
        "AL d1 INF2 @X.R [-]", "AL g1 ART1 @X.XY [-]", "AL g2 ART1 @X.R [-]",
        "F f1 INF2 @Y.XY [-]",
    ], active="AL"))
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("F", "defend", {"named": ["f1"], "leading": ["f1"]})
    t.play("AL", "no_feint")
    assert t.refuse("AL", "declare_attack", {"commands": [_corps("k"), _corps("n")],
                                             "leading": ["k1"]}).rule == "NT-66"
    assert t.refuse("AL", "declare_attack", {"commands": [_corps("k"), _unit("d1")],
                                             "leading": ["k1"]}).rule == "NT-66"
    assert t.refuse("AL", "declare_attack", {"commands": [_unit("g1"), _unit("g2")],
                                             "width": "wide",
                                             "leading": ["g1", "g2"]}).rule == "NT-66"
    t.play("AL", "declare_attack", {"commands": [_corps("k"), _corps("m")], "width": "wide",
                                    "leading": ["k1", "m1"]})
    assert t.state.turn.corps_used == 2
    assert t.state.commanders["k"].commands == 1
    assert t.state.commanders["m"].commands == 1
    # R = 6 - 1 - 2 = +3: AL wins; LA = 1: odd point placed by F
    assert t.state.pending is not None
    assert t.state.pending.kind == "odd_loss"
    assert t.state.pending.side == "F"
