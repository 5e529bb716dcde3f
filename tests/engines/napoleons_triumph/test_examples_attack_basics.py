"""Attack basics: vacate and feint (NT-T8, NT-T9), retreat losses (NT-T12), naming defenders and
leading units (NT-T26..NT-T30). Rule ids in docstrings; exact numbers asserted.

The road parts of NT-T8 and NT-T9 are in test_road_attacks.py; here each example is played with
ordinary moves, and a road declaration where no road serves is refused."""

from __future__ import annotations

from games.core.protocol import JSON, Action
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    ROLE,
    Spec,
    Table,
    fragment,
    pair,
    position,
)


def legal(t: Table, side: str, kind: str, payload: JSON) -> bool:
    """Would the action be accepted? (validation only: the state is not changed)"""
    return not t.rules.validate(t.state, Action(ROLE[side], kind, payload))


def _unit(uid: str, **extra: JSON) -> dict[str, JSON]:
    return {"kind": "unit_move", "unit": uid, **extra}


# ----------------------------------------------------------------------------- NT-T8 vacate


def test_t8_vacate_then_unit_move_in() -> None:
    """NT-T8 (seed L461-464, example 1): AL vacates Y; a1 (unnamed reserve infantry, narrow
    defense approach) loses 1 and goes to Z1; a road declaration off the road is refused (NT-68;
    the road attack itself: test_road_attacks.py); an ordinary Unit Move of u2 enters Y.R.
    NT-71, NT-75, NT-102, NT-104, NT-105, NT-109, NT-112, NT-101 (no conquest lock after a
    vacate)."""
    board = pair("ab_t8", roads=[("local", "X", "Y", 0, 0), ("local", "Y", "Z1", 0, 0)])
    t = Table(position(board, ["F u1 INF2 @X.XY [-]", "F u2 CAV2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "vacate", {"retreat": {"destinations": {"a1": 1}}}).rule == "NT-106"
    t.play(
        "AL",
        "vacate",
        {"retreat": {"losses": [{"unit": "a1", "sp": 1}], "destinations": {"a1": 3}}},
    )
    assert t.face("a1") == "INF1"
    assert (t.unit("a1").loc, t.unit("a1").app) == (3, None)
    assert not t.unit("a1").revealed
    assert not t.unit("a1").retreated  # a voluntary vacate is no retreat after combat
    assert t.state.morale == {"F": 23, "AL": 26}
    assert t.state.pending is not None
    assert t.state.pending.kind == "after_vacate"
    road_decl: dict[str, JSON] = {
        "commands": [_unit("u2", road=True, path=[5])],
        "artillery": False,
    }  # the road must end in the attack locale X
    assert t.refuse("F", "declare_after_vacate", road_decl).rule == "NT-68"
    t.play("F", "declare_after_vacate", {"commands": [_unit("u2")]})
    assert (t.unit("u2").loc, t.unit("u2").app) == (2, None)
    assert t.unit("u2").moves == 1
    assert t.state.turn.independent_used == 1
    assert "XY" not in t.state.turn.closed
    assert t.state.attack is None
    assert not t.unit("u2").revealed
    # NT-101 exception: after a vacate other pieces may follow into Y
    t.play("F", "unit_move", {"unit": "u1", "to": {"locale": 2, "approach": None}})
    assert t.unit("u1").loc == 2
    # both have moved: no threat from Y against a1 in Z1 can be backed (AMB-17)
    assert t.refuse("F", "threaten", {"attack_locale": 2, "approach": "YZ1"}).rule == "NT-70"


def test_t8_road_threat_names_only_the_approach() -> None:
    """NT-T8 / NT-T48, NT-70 (L335): a threat names only the approach, never a road; one that only
    a road attack (NT-68) could back is accepted as it is."""
    board = pair("ab_t8r", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)])
    t = Table(position(board, ["F u2 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    assert (
        t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY", "road_path": [1]}).rule
        == "schema"
    )  # a threat names no road (NT-70)
    # the attack locale X holds no French piece, but u2 could come by road from W
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert not any("road" in line for line in t.lines_for("allied"))


# ----------------------------------------------------------------------------- NT-T9 feint


def test_t9_road_feint_refused() -> None:
    """NT-T9 (seed L466-476, example 2): the road attack from W is not implemented: the road
    threat and a road command in the feint declaration are refused with NT-68."""
    board = pair("ab_t9r", roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)])
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    assert (
        t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY", "road_path": [1]}).rule
        == "schema"
    )  # a threat names no road (NT-70)
    t2 = Table(position(board, ["F u1 CAV2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t2.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t2.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    assert (
        t2.refuse("F", "declare_feint", {"commands": [_unit("u1", road=True)], "end": "block"}).rule
        == "schema"
    )  # a road attack's command names its road (path)


def test_t9_feint_by_unit_move_from_reserve() -> None:
    """NT-T9 played with an ordinary Unit Move from X.R: u1 ends blocking X.XY; the single named
    reserve unit a1 must block Y.XY (forced, public); a1's leading choice is never revealed; no
    losses, no morale change; XY closed for F; u1 counts as moved. NT-76, NT-77, NT-78, NT-100."""
    board = pair("ab_t9")
    t = Table(position(board, ["F u1 CAV2 @X.R [-]", "F u3 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "declare_feint", {"commands": [_unit("u1")], "end": "block"})
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, "XY")
    assert (t.unit("a1").loc, t.unit("a1").app) == (2, "XY")
    assert t.state.attack is None
    assert not t.unit("a1").revealed
    # only the defender's private note of his commitment exists; step (4) never happened
    assert not any("defense leading units" in line and "committed" not in line for line in t.log)
    assert t.face("u1") == "CAV2"
    assert t.face("a1") == "INF2"
    assert t.state.morale == {"F": 23, "AL": 27}
    assert "XY" in t.state.turn.closed
    assert t.unit("u1").moves == 1
    assert t.state.turn.independent_used == 1
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY"}).rule == "NT-100"
    assert (
        t.refuse("F", "unit_move", {"unit": "u1", "to": {"locale": 1, "approach": None}}).rule
        == "NT-43"
    )


def test_t9_feint_end_positions() -> None:
    """NT-T9 / NT-77: from the reserve the feint may end in reserve; from the blocking position it
    must end blocking; the defender must hold with at least one named reserve unit. NT-77, NT-78.
    """
    board = pair("ab_t9e")
    t = Table(
        position(
            board,
            [
                "F u1 CAV2 @X.R [-]",
                "F b1 INF2 @X.XY [-]",
                "AL a1 INF2 @Y.R [k]",
                "AL a2 INF2 @Y.R [k]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a2", "k"], "leading": ["a1"]})
    assert (
        t.refuse("F", "declare_feint", {"commands": [_unit("b1")], "end": "reserve"}).rule
        == "NT-77"
    )
    t.play("F", "declare_feint", {"commands": [_unit("u1")], "end": "reserve"})
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, None)
    assert t.state.pending is not None
    assert t.state.pending.kind == "feint_hold"
    assert t.refuse("AL", "feint_hold", {"pieces": []}).rule == "NT-78"
    assert t.refuse("AL", "feint_hold", {"pieces": ["k"]}).rule == "NT-78"
    t.play("AL", "feint_hold", {"pieces": ["a2"]})
    assert (t.unit("a2").app, t.unit("a2").corps) == ("XY", None)  # split corps: detached
    assert (t.unit("a1").app, t.unit("a1").corps) == (None, "k")
    assert t.state.commanders["k"].app is None


# ----------------------------------------------------------------------------- NT-T12 retreat


def test_t12_retreat_losses() -> None:
    """NT-T12 (seed L544-548): retreat after Vandamme wins across XY. Defense-approach blockers
    lose nothing; the narrow YL blockers lose 1 (a2 eliminated); reserve cavalry loses nothing;
    only Z1 is a legal destination; AL morale -1 for the retreat. NT-94, NT-104..NT-109, NT-112.

    The blockers of XY take the combat losses first, so the fixture adds a second blocker a5 INF3
    that absorbs them (the seed's picture is lost; a1 keeps its INF2 to show the exemption)."""
    locales = {**PAIR_LOCALES}
    board = fragment(
        "ab_t12",
        locales,
        [*PAIR_APPROACHES, ("YL", "Y", "L")],
        specs={"YZ2": Spec(impassable=True)},
    )
    t = Table(
        position(
            board,
            [
                "F v1 INF3 @X.R [vandamme]",
                "F v2 INF2 @X.R [vandamme]",
                "F l1 INF2 @L.R [-]",
                "AL a1 INF2 @Y.XY [-]",
                "AL a5 INF3 @Y.XY [-]",
                "AL a2 INF1 @Y.YL [-]",
                "AL a3 INF2 @Y.YL [-]",
                "AL a4 CAV2 @Y.R [-]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a5"], "leading": []})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "corps_move", "commander": "vandamme"}], "leading": ["v1"]},
    )
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 2
    t.play("AL", "counter", {"units": []})
    # F wins by 2; LA = 0; LD = 1 + 2 - 0 = 3 on the named units, AL's choice
    assert t.state.pending is not None
    assert t.state.pending.kind == "assign_losses"
    t.play("AL", "assign_losses", {"losses": [{"unit": "a5", "sp": 3}]})
    assert t.face("a5") == "dead"
    assert t.face("v1") == "INF3"
    assert t.state.morale == {"F": 23, "AL": 24}
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"
    dests: dict[str, JSON] = {"a1": 3, "a3": 3, "a4": 3}
    for bad in (1, 6, 4):
        assert (
            t.refuse(
                "AL",
                "retreat_plan",
                {"losses": [{"unit": "a2", "sp": 1}], "destinations": {**dests, "a1": bad}},
            ).rule
            == "NT-106"
        )
    assert (
        t.refuse(
            "AL", "retreat_plan", {"losses": [{"unit": "a1", "sp": 1}], "destinations": dests}
        ).rule
        == "NT-105"
    )
    assert (
        t.refuse(
            "AL", "retreat_plan", {"losses": [{"unit": "a4", "sp": 1}], "destinations": dests}
        ).rule
        == "NT-105"
    )
    assert t.refuse("AL", "retreat_plan", {"losses": [], "destinations": dests}).rule == "NT-105"
    t.play("AL", "retreat_plan", {"losses": [{"unit": "a2", "sp": 1}], "destinations": dests})
    assert t.face("a2") == "dead"
    assert t.face("a1") == "INF2"
    assert t.face("a3") == "INF2"
    assert t.face("a4") == "CAV2"
    for uid in ("a1", "a3", "a4"):
        assert (t.unit(uid).loc, t.unit(uid).app) == (3, None)
        assert not t.unit(uid).revealed
        assert t.unit(uid).retreated  # NT-109
    assert t.state.morale == {"F": 23, "AL": 23}
    assert (t.unit("v1").loc, t.unit("v1").app) == (2, None)
    assert (t.unit("v2").loc, t.state.commanders["vandamme"].loc) == (2, 2)
    assert 2 in t.state.turn.conquered


def test_t12_variant_loss_on_a3() -> None:
    """NT-T12 variant: losses={YL: a3}: a3 -> INF1, nobody eliminated. NT-105 (AMB-28)."""
    board = fragment(
        "ab_t12v",
        {**PAIR_LOCALES},
        [*PAIR_APPROACHES, ("YL", "Y", "L")],
        specs={"YZ2": Spec(impassable=True)},
    )
    t = Table(
        position(
            board,
            [
                "F v1 INF3 @X.R [vandamme]",
                "F v2 INF2 @X.R [vandamme]",
                "F l1 INF2 @L.R [-]",
                "AL a1 INF2 @Y.XY [-]",
                "AL a5 INF3 @Y.XY [-]",
                "AL a2 INF1 @Y.YL [-]",
                "AL a3 INF2 @Y.YL [-]",
                "AL a4 CAV2 @Y.R [-]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1", "a5"], "leading": []})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "corps_move", "commander": "vandamme"}], "leading": ["v1"]},
    )
    t.play("AL", "counter", {"units": []})
    t.play("AL", "assign_losses", {"losses": [{"unit": "a5", "sp": 3}]})
    t.play(
        "AL",
        "retreat_plan",
        {"losses": [{"unit": "a3", "sp": 1}], "destinations": {"a1": 3, "a2": 3, "a3": 3, "a4": 3}},
    )
    assert t.face("a2") == "INF1"
    assert t.face("a3") == "INF1"
    assert all(t.unit(u).loc == 3 for u in ("a1", "a2", "a3", "a4"))
    assert t.state.morale == {"F": 23, "AL": 23}


# ----------------------------------------------------------------------------- NT-T26 .. NT-T30


def test_t26_blockers_must_all_be_named_alone() -> None:
    """NT-T26: with a blocker: no vacate; the blocker must be named; reserve pieces cannot be.
    NT-72, NT-73."""
    board = pair("ab_t26")
    t = Table(
        position(board, ["F u1 INF3 @X.R [-]", "AL a1 INF2 @Y.XY [-]", "AL a2 INF2 @Y.R [-]"])
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "vacate", {}).rule == "NT-73"
    assert t.refuse("AL", "defend", {"named": ["a2"], "leading": []}).rule == "NT-72"
    assert t.refuse("AL", "defend", {"named": ["a1", "a2"], "leading": []}).rule == "NT-72"
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    assert t.state.attack is not None
    assert t.state.attack.named == ["a1"]
    assert t.state.attack.def_blocking


def test_t27_naming_reserve_pieces() -> None:
    """NT-T27: at most one detached unit may be named; a commander is named only with a unit of his
    corps, never alone; he need not be named. NT-71, NT-72, AMB-18."""
    board = pair("ab_t27")
    t = Table(
        position(
            board,
            [
                "F u1 INF3 @X.R [-]",
                "AL d1 INF2 @Y.R [-]",
                "AL d2 INF2 @Y.R [-]",
                "AL c1 INF2 @Y.R [c]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "defend", {"named": ["d1", "d2"], "leading": []}).rule == "NT-72"
    assert t.refuse("AL", "defend", {"named": ["c"], "leading": []}).rule == "NT-71"
    assert legal(t, "AL", "defend", {"named": ["c1"], "leading": []})
    assert legal(t, "AL", "defend", {"named": ["d1", "c1"], "leading": ["c1"]})
    t.play("AL", "defend", {"named": ["d1", "c1", "c"], "leading": []})
    assert t.state.attack is not None
    assert t.state.attack.named == ["c", "c1", "d1"]


def test_t28_named_elsewhere_is_barred() -> None:
    """NT-T28: a2 named against an attack across YZ1 this turn (AL won) cannot be named against a
    new threat across XY. NT-72, NT-88, NT-95."""
    board = pair("ab_t28")
    t = Table(
        position(
            board,
            [
                "F z1 INF2 @Z1.R [-]",
                "F x1 INF3 @X.R [-]",
                "AL a2 INF3 @Y.R [k]",
                "AL a3 INF3 @Y.R [k]",
                "AL a4 INF2 @Y.R [-]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 3, "approach": "YZ1"})
    t.play("AL", "defend", {"named": ["a2", "a3"], "leading": ["a2"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [_unit("z1")], "leading": ["z1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == -1
    t.play("AL", "counter", {"units": []})
    # AL wins: LA = 1 + 1 = 2 -> z1 eliminated; LD = 1 -> a2 INF2; reserve defenders must hold
    assert t.face("z1") == "dead"
    assert t.face("a2") == "INF2"
    assert t.state.morale == {"F": 21, "AL": 27}
    assert t.state.pending is not None
    assert t.state.pending.kind == "hold"
    t.play("AL", "hold", {"pieces": ["a3"]})
    assert (t.unit("a3").app, t.unit("a3").corps) == ("YZ1", None)
    assert (t.unit("a2").app, t.unit("a2").corps) == (None, "k")
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "defend", {"named": ["a2"], "leading": []}).rule == "NT-72"
    assert t.refuse("AL", "defend", {"named": ["a3"], "leading": []}).rule == "NT-72"
    t.play("AL", "defend", {"named": ["a4"], "leading": []})


def test_t28_retreated_barred_vacated_not() -> None:
    """NT-T28: a unit that retreated into Y after losing a combat cannot be named; one that vacated
    into Y voluntarily can; with only barred pieces in Y the defender must vacate.
    NT-71, NT-72, NT-73, NT-87 (AMB-24 tie to the French), NT-109."""
    locales = {**PAIR_LOCALES, "Q": 7, "P": 8}
    board = fragment("ab_t28b", locales, [*PAIR_APPROACHES, ("Z2Q", "Z2", "Q"), ("Z1P", "Z1", "P")])
    t = Table(
        position(
            board,
            [
                "F q1 INF3 @Q.R [-]",
                "F p1 INF2 @P.R [-]",
                "F x1 INF3 @X.R [-]",
                "AL a8 INF3 @Z2.R [-]",
                "AL a5 INF2 @Z2.R [k]",
                "AL a7 INF2 @Z2.R [k]",
                "AL a6 INF2 @Z1.R [-]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 7, "approach": "Z2Q"})
    t.play("AL", "defend", {"named": ["a8"], "leading": ["a8"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [_unit("q1")], "leading": ["q1"]})
    # R = 3 - 3 = 0, reserve defenders: 1 attacking unit vs 1 named: the French win (AMB-24)
    # LA = 1 -> q1 INF2; LD = 1 + 0 = 1 -> a8 INF2
    assert t.face("q1") == "INF2"
    assert t.face("a8") == "INF2"
    assert t.state.morale == {"F": 23, "AL": 26}
    # retreat: the unnamed reserve infantry a5, a7 lose 1 in total (narrow)
    t.play(
        "AL",
        "retreat_plan",
        {
            "losses": [{"unit": "a5", "sp": 1}],
            "anchors": {"k": "a7"},
            "destinations": {"a8": 2, "a5": 2, "a7": 2},
        },
    )
    assert t.face("a5") == "INF1"
    assert t.unit("a5").corps is None  # NT-108
    assert all(t.unit(u).retreated for u in ("a8", "a5", "a7"))
    assert t.state.morale == {"F": 23, "AL": 25}
    assert (t.unit("q1").loc, t.unit("q1").app) == (4, None)
    # only barred pieces in Y: naming any is refused, vacating is the answer
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("AL", "defend", {"named": ["a8"], "leading": []}).rule == "NT-72"
    assert t.refuse("AL", "defend", {"named": ["a7", "k"], "leading": []}).rule == "NT-72"
    assert legal(t, "AL", "vacate", {})
    # a voluntary vacate does not bar: a6 vacates Z1 into Y and may then be named
    t2 = Table(
        position(
            board,
            [
                "F p1 INF2 @P.R [-]",
                "F x1 INF3 @X.R [-]",
                "AL a8 INF3 @Y.R [-]",
                "AL a6 INF2 @Z1.R [-]",
            ],
        )
    )
    t2.state.units["a8"].retreated = True
    t2.play("F", "threaten", {"attack_locale": 8, "approach": "Z1P"})
    t2.play(
        "AL",
        "vacate",
        {"retreat": {"losses": [{"unit": "a6", "sp": 1}], "destinations": {"a6": 2}}},
    )
    t2.play("F", "declare_after_vacate", {"commands": [_unit("p1")]})
    assert (t2.unit("a6").loc, t2.face("a6"), t2.unit("a6").retreated) == (2, "INF1", False)
    t2.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t2.refuse("AL", "defend", {"named": ["a8"], "leading": []}).rule == "NT-72"
    t2.play("AL", "defend", {"named": ["a6"], "leading": []})


def test_t29_defense_leading_units_from_reserve() -> None:
    """NT-T29: reserve leaders: no strength 1; a pair needs same corps and type; at most 2 (wide)
    or 1 (narrow). NT-79."""
    pieces = [
        "F x1 INF3 @X.R [-]",
        "AL r1 INF1 @Y.R [c]",
        "AL r2 INF2 @Y.R [c]",
        "AL r3 INF3 @Y.R [e]",
        "AL r4 CAV2 @Y.R [c]",
        "AL r5 INF3 @Y.R [c]",
    ]
    named: list[JSON] = ["r1", "r2", "r3", "r4", "r5"]
    t = Table(position(pair("ab_t29", specs={"XY": Spec(wide=True)}), pieces))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    for leading in (["r1"], ["r2", "r3"], ["r2", "r4"], ["r2", "r4", "r5"]):
        lead: list[JSON] = list(leading)
        assert t.refuse("AL", "defend", {"named": named, "leading": lead}).rule == "NT-79", leading
    t.play("AL", "defend", {"named": named, "leading": ["r2", "r5"]})
    assert t.state.attack is not None
    assert t.state.attack.committed_leading == ["r2", "r5"]
    tn = Table(position(pair("ab_t29n"), pieces))
    tn.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert tn.refuse("AL", "defend", {"named": named, "leading": ["r2", "r5"]}).rule == "NT-79"
    tn.play("AL", "defend", {"named": named, "leading": ["r5"]})


def test_t30_narrow_front_target_and_counter_by_former_leader() -> None:
    """NT-T30: blockers of different types may lead together; a narrow front picks b2, b1 is hidden
    and may then counter-attack with cavalry although the defender already leads.
    R = 3 - 1 - 2 = 0; b1 -> CAV1; F = -1; LA = 1 + 1 = 2; LD = 1. NT-79, NT-82, NT-86..NT-91,
    AMB-20."""
    board = pair("ab_t30", specs={"XY": Spec(wide=True)})
    t = Table(
        position(board, ["AL b1 CAV2 @Y.XY [-]", "AL b2 INF2 @Y.XY [-]", "F u1 INF3 @X.R [-]"])
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1", "b2"], "leading": ["b1", "b2"]})
    t.play("F", "no_feint")
    assert t.unit("b1").revealed
    assert t.unit("b2").revealed
    decl: dict[str, JSON] = {"commands": [_unit("u1")], "width": "narrow", "leading": ["u1"]}
    assert t.refuse("F", "declare_attack", decl).rule == "NT-82"  # pick a target
    assert t.refuse("F", "declare_attack", {**decl, "target": "b2"}).rule == "NT-82"  # server id
    t.play("F", "declare_attack", {**decl, "target": t.alias("F", "b2")})
    atk = t.state.attack
    assert atk is not None
    assert atk.def_leading == ["b2"]
    assert not t.unit("b1").revealed
    assert atk.prelim == 0
    assert atk.prelim_winner == "AL"
    assert t.state.pending is not None
    assert t.state.pending.kind == "counter"
    assert t.refuse("AL", "counter", {"units": ["b2"]}).rule == "NT-88"
    t.play("AL", "counter", {"units": ["b1"]})
    assert t.face("b1") == "CAV1"
    assert t.face("u1") == "INF1"
    assert t.face("b2") == "INF1"
    assert t.state.morale == {"F": 21, "AL": 27}
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, None)
    assert "XY" in t.state.turn.closed
