"""Movement, capacity, corps and command examples: NT-T1..NT-T7 (digest 5.2) and NT-T14..NT-T25
(digest 5.3). Rule ids in docstrings; exact numbers asserted."""

from __future__ import annotations

from games.core.protocol import JSON, Action
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.payload import jlist
from tests.support.napoleons_triumph import ROLE, Spec, Table, fragment, pair, position


def legal(t: Table, side: str, kind: str, payload: JSON) -> bool:
    """Would the action be accepted? (validation only: the state is not changed)"""
    return not t.rules.validate(t.state, Action(ROLE[side], kind, payload))


def to(loc: int, app: str | None = None) -> dict[str, JSON]:
    return {"locale": loc, "approach": app}


def road(path: list[int]) -> dict[str, JSON]:
    return {"road": True, "path": jlist(path)}


# ----------------------------------------------------------------------------- NT-T1 example locale

# H (hill, capacity 4): top HT (I, A, obstructed on H's side) to T; right HR (C on H's side) to RT;
# left HL impassable to LF.
H_LOCALES = {"H": 1, "T": 2, "RT": 3, "LF": 4}
H_APPROACHES = [("HT", "H", "T"), ("HR", "H", "RT"), ("HL", "H", "LF")]
H_SPECS = {
    "HT": Spec(sides={"H": {"penalties": ["I", "A"], "obstructed": True}}),
    "HR": Spec(sides={"H": {"penalties": ["C"]}}),
    "HL": Spec(impassable=True),
}
H_UNITS = [
    "AL h1 INF2 @H.HT [-]",
    "AL h2 INF2 @H.HR [-]",
    "AL h3 INF2 @H.R [-]",
    "AL h4 CAV2 @H.R [-]",
]


def _h(name: str) -> Board:
    return fragment(name, H_LOCALES, H_APPROACHES, specs=H_SPECS, capacity={"H": 4}, hills=["H"])


def test_t1_impassable_approach() -> None:
    """NT-T1 (seed L107): no piece may block HL or cross it; no attack across it. NT-46, NT-48."""
    board = _h("mv_t1_imp")
    t = Table(
        position(board, [*H_UNITS, "F f1 INF2 @LF.R [-]", "AL z9 INF2 @RT.R [-]"], active="AL")
    )
    assert t.refuse("AL", "unit_move", {"unit": "h3", "to": to(1, "HL")}).rule == "NT-48"
    assert t.refuse("AL", "unit_move", {"unit": "h3", "to": to(4)}).rule == "NT-48"
    assert legal(t, "AL", "unit_move", {"unit": "h3", "to": to(1, "HT")})
    assert legal(t, "AL", "unit_move", {"unit": "h3", "to": to(1, "HR")})
    t2 = Table(position(board, [*H_UNITS, "F f1 INF2 @LF.R [-]"]))
    assert t2.refuse("F", "threaten", {"attack_locale": 4, "approach": "HL"}).rule == "NT-46"


def test_t1_cavalry_penalty_across_hr() -> None:
    """NT-T1: cavalry leading against the HR blocker h2: R = 2 - 1 (C) - 2 = -1; infantry -1 does
    not apply to cavalry. AL wins: LA = 1 + 1 = 2 (c1 eliminated), LD = 1 + 0 = 1.
    NT-86, NT-87, NT-90, NT-91, NT-111."""
    board = _h("mv_t1_cav")
    t = Table(position(board, [*H_UNITS, "F c1 CAV2 @RT.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 3, "approach": "HR"})
    # h2 alone blocks HR: it must be named, the reserve cannot be (NT-72)
    assert t.refuse("AL", "defend", {"named": ["h2", "h3"], "leading": ["h2"]}).rule == "NT-72"
    t.play("AL", "defend", {"named": ["h2"], "leading": ["h2"]})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "unit_move", "unit": "c1"}], "leading": ["c1"]},
    )
    assert any("preliminary result -1" in line for line in t.log)
    assert t.face("c1") == "dead"
    assert t.face("h2") == "INF1"
    assert t.state.morale == {"F": 21, "AL": 27}


def test_t1_infantry_penalty_across_ht() -> None:
    """NT-T1: infantry against the blocker h1 across HT: R = 3 - 1 (blocker) - 1 (I) - 2 = -1.
    NT-86 (steps 2 and 3 once each, AMB-23)."""
    board = _h("mv_t1_inf")
    t = Table(position(board, [*H_UNITS, "F i1 INF3 @T.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 2, "approach": "HT"})
    t.play("AL", "defend", {"named": ["h1"], "leading": ["h1"]})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "unit_move", "unit": "i1"}], "leading": ["i1"]},
    )
    assert any("preliminary result -1" in line for line in t.log)
    # AL wins by 1: LA = 1 + 1 = 2 -> i1 INF1; LD = 1 + 0 = 1 -> h1 INF1
    assert t.face("i1") == "INF1"
    assert t.face("h1") == "INF1"
    assert t.state.morale == {"F": 21, "AL": 27}
    assert (t.unit("i1").loc, t.unit("i1").app) == (2, None)


def test_t1_artillery_penalty_across_ht() -> None:
    """NT-T1: the A symbol on HT: an artillery attack from T.HT gets R = 1 - 1 = 0; blockers:
    the defender wins; artillery attack: LA = 0, LD = 0 + 0 = 0; nobody moves.
    NT-83, NT-86, NT-87, NT-90, NT-93."""
    board = _h("mv_t1_art")
    t = Table(position(board, [*H_UNITS, "F a1 ART1 @T.HT [-]"]))
    t.play("F", "threaten", {"attack_locale": 2, "approach": "HT"})
    t.play("AL", "defend", {"named": ["h1"], "leading": ["h1"]})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "unit_move", "unit": "a1"}], "leading": ["a1"]},
    )
    assert any("preliminary result +0" in line for line in t.log)
    assert t.face("a1") == "ART1"
    assert t.face("h1") == "INF2"
    assert t.state.morale == {"F": 23, "AL": 27}
    assert (t.unit("a1").loc, t.unit("a1").app) == (2, "HT")


def test_t1_obstructed_ht_no_cavalry_leader() -> None:
    """NT-T1: HT is obstructed on H's side: cavalry can lead across it for neither side.
    NT-69, NT-79, NT-83."""
    board = _h("mv_t1_obs")
    t = Table(
        position(
            board,
            [
                "AL h1 INF2 @H.HT [-]",
                "AL h5 CAV2 @H.HT [-]",
                "F c2 CAV2 @T.R [-]",
                "F i2 INF2 @T.R [-]",
            ],
        )
    )
    t.play("F", "threaten", {"attack_locale": 2, "approach": "HT"})
    assert t.refuse("AL", "defend", {"named": ["h1", "h5"], "leading": ["h5"]}).rule == "NT-69"
    t.play("AL", "defend", {"named": ["h1", "h5"], "leading": ["h1"]})
    t.play("F", "no_feint")
    assert (
        t.refuse(
            "F",
            "declare_attack",
            {"commands": [{"kind": "unit_move", "unit": "c2"}], "leading": ["c2"]},
        ).rule
        == "NT-69"
    )
    # the cavalry may still attack without leading
    assert legal(
        t, "F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "c2"}], "leading": []}
    )


def test_t1_capacity_four_commanders_free() -> None:
    """NT-T1: a fifth AL unit may not enter H (capacity 4); commanders do not count. NT-10."""
    board = _h("mv_t1_cap")
    t = Table(position(board, [*H_UNITS, "AL h5 INF2 @T.R [-]"], active="AL"))
    assert t.refuse("AL", "unit_move", {"unit": "h5", "to": to(1)}).rule == "NT-10"
    pieces = [
        "AL h1 INF2 @H.HT [-]",
        "AL h2 INF2 @H.HR [kutuzov]",
        "AL h6 INF2 @H.HR [kutuzov]",
        "AL h5 INF2 @T.R [-]",
    ]
    t2 = Table(position(board, pieces, active="AL"))
    t2.play("AL", "unit_move", {"unit": "h5", "to": to(1)})  # 4 units + 1 commander
    assert len([u for u in t2.state.units.values() if u.loc == 1]) == 4


# ----------------------------------------------------------------------------- NT-T2 four commands


def test_t2_four_commands() -> None:
    """NT-T2 (seed L235-239): detach move, attach, corps move with detach, unit move.
    NT-37, NT-38, NT-39, NT-40, NT-41, NT-42, NT-43."""
    board = fragment(
        "mv_t2",
        {"K": 1, "KL": 2, "LG": 3, "RN": 4},
        [("KKL", "K", "KL"), ("KLG", "K", "LG"), ("LGRN", "LG", "RN")],
    )
    t = Table(
        position(
            board,
            [
                "AL k1 INF2 @K.R [kienmayer]",
                "AL k2 INF2 @K.R [kienmayer]",
                "AL k3 INF2 @K.R [kienmayer]",
                "AL d1 INF2 @K.R [dokhturov]",
                "AL l1 INF2 @LG.LGRN [langeron]",
                "AL l2 INF2 @LG.LGRN [langeron]",
                "AL l3 INF2 @LG.LGRN [langeron]",
            ],
            active="AL",
        )
    )
    t.play("AL", "detach_move", {"commander": "kienmayer", "units": ["k1"], "to": to(2)})
    t.play("AL", "attach", {"commander": "dokhturov", "unit": "k2"})
    t.play("AL", "corps_move", {"commander": "langeron", "detach": ["l3"], "to": to(4)})
    t.play("AL", "unit_move", {"unit": "l3", "to": to(3)})
    s = t.state
    assert (t.unit("k1").loc, t.unit("k1").app, t.unit("k1").corps) == (2, None, None)
    assert sorted(u.id for u in s.units.values() if u.corps == "kienmayer") == ["k3"]
    assert sorted(u.id for u in s.units.values() if u.corps == "dokhturov") == ["d1", "k2"]
    assert (t.unit("k2").loc, t.unit("k2").app) == (1, None)
    assert sorted(u.id for u in s.units.values() if u.corps == "langeron") == ["l1", "l2"]
    assert (t.unit("l1").loc, t.unit("l1").app) == (4, None)
    assert (s.commanders["langeron"].loc, s.commanders["langeron"].app) == (4, None)
    assert (t.unit("l3").loc, t.unit("l3").app, t.unit("l3").corps) == (3, None, None)
    assert s.turn.corps_used == 3
    assert s.turn.independent_used == 1
    assert t.refuse("AL", "corps_move", {"commander": "kienmayer", "to": to(3)}).rule == "NT-37"
    assert t.refuse("AL", "corps_move", {"commander": "dokhturov", "to": to(3)}).rule == "NT-37"
    assert t.refuse("AL", "attach", {"commander": "langeron", "unit": "l3"}).rule == "NT-37"
    assert t.refuse("AL", "unit_move", {"unit": "k1", "to": to(1)}).rule == "NT-43"
    t.play("AL", "unit_move", {"unit": "k2", "to": to(3)})  # the Attach was no move
    assert (t.unit("k2").loc, t.unit("k2").corps) == (3, None)


# ----------------------------------------------------------------------------- NT-T3, NT-T4

M_LOCALES = {"M": 1, "L": 2, "R": 3, "T": 4, "B": 5, "FAR": 6}
M_APPROACHES = [
    ("ML", "M", "L"),
    ("MR", "M", "R"),
    ("MT", "M", "T"),
    ("MB", "M", "B"),
    ("LF", "L", "FAR"),
]
M_SPECS = {"MT": Spec(impassable=True), "MB": Spec(impassable=True)}


def test_t3_moves_from_reserve() -> None:
    """NT-T3 (seed L256-259): from M.R exactly M.ML, M.MR, L.R and R.R. NT-46, NT-48."""
    board = fragment("mv_t3", M_LOCALES, M_APPROACHES, specs=M_SPECS)
    t = Table(position(board, ["F u1 INF2 @M.R [-]"]))
    ok = [to(1, "ML"), to(1, "MR"), to(2), to(3)]
    bad = [to(1, "MT"), to(1, "MB"), to(4), to(5), to(6), to(1), to(2, "ML"), to(2, "LF")]
    for dest in ok:
        assert legal(t, "F", "unit_move", {"unit": "u1", "to": dest}), dest
    for dest in bad:
        assert t.refuse("F", "unit_move", {"unit": "u1", "to": dest}).rule == "NT-48", dest


def test_t4_moves_from_blocking_position() -> None:
    """NT-T4 (seed L266-270): from M.ML exactly M.R and L.R. NT-49."""
    board = fragment("mv_t4", M_LOCALES, M_APPROACHES, specs=M_SPECS)
    t = Table(position(board, ["F u1 INF2 @M.ML [-]"]))
    assert legal(t, "F", "unit_move", {"unit": "u1", "to": to(1)})
    assert legal(t, "F", "unit_move", {"unit": "u1", "to": to(2)})
    for dest in [to(1, "MR"), to(3), to(6), to(2, "LF"), to(1, "ML")]:
        assert t.refuse("F", "unit_move", {"unit": "u1", "to": dest}).rule == "NT-49", dest


# ----------------------------------------------------------------------------- NT-T5 strands


def test_t5_unconnected_road_strands() -> None:
    """NT-T5 (seed L274-280): no jump between strands inside M; a piece starting in M may leave
    on either strand. NT-51, NT-52."""
    board = fragment(
        "mv_t5",
        {"M": 1, "A": 2, "B": 3, "C": 4, "D": 5},
        [("MA", "M", "A"), ("MB", "M", "B"), ("MC", "M", "C"), ("MD", "M", "D")],
        roads=[
            ("local", "A", "M", 0, 1),
            ("local", "M", "B", 1, 0),
            ("local", "M", "C", 2, 0),
            ("local", "M", "D", 2, 0),
        ],
    )
    t = Table(position(board, ["F u1 CAV2 @A.R [-]", "F u2 CAV2 @M.R [-]"]))
    assert legal(t, "F", "unit_move", {"unit": "u1", **road([1, 3])})
    assert t.refuse("F", "unit_move", {"unit": "u1", **road([1, 4])}).rule == "NT-52"
    assert legal(t, "F", "unit_move", {"unit": "u2", **road([3])})
    assert legal(t, "F", "unit_move", {"unit": "u2", **road([4])})
    # local roads: 2 locales at most (NT-51)
    assert t.refuse("F", "unit_move", {"unit": "u1", **road([1, 3, 1])}).rule in ("NT-51", "NT-52")
    t.play("F", "unit_move", {"unit": "u1", **road([1, 3])})
    assert (t.unit("u1").loc, t.unit("u1").app) == (3, None)


# ----------------------------------------------------------------------------- NT-T6 Legrand

ABC = {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}
ABC_APPROACHES = [
    ("AB", "A", "B"),
    ("BC", "B", "C"),
    ("DB", "D", "B"),
    ("DC", "D", "C"),
    ("EB", "E", "B"),
]
ABC_ROAD = [("local", "A", "B", 0, 0), ("local", "B", "C", 0, 0)]
LEGRAND = [
    "F g1 INF2 @A.R [legrand]",
    "F g2 INF2 @A.R [legrand]",
    "F g3 INF2 @A.R [legrand]",
    "F g4 INF2 @A.R [legrand]",
]


def test_t6_corps_road_move_locks() -> None:
    """NT-T6 (seed L290-294): Legrand marches A->B->C; B and C are road-locked for every other
    piece this turn. NT-34, NT-51, NT-54(b), NT-55."""
    board = fragment("mv_t6", ABC, ABC_APPROACHES, capacity={"B": 4, "C": 6}, roads=ABC_ROAD)
    t = Table(position(board, [*LEGRAND, "F u9 INF2 @D.R [-]", "F u8 INF2 @A.R [-]"]))
    t.play("F", "corps_move", {"commander": "legrand", **road([2, 3])})
    assert all((t.unit(g).loc, t.unit(g).app) == (3, None) for g in ("g1", "g2", "g3", "g4"))
    assert t.state.commanders["legrand"].loc == 3
    assert sorted(t.state.turn.road_locked) == [2, 3]
    assert t.refuse("F", "unit_move", {"unit": "u9", "to": to(2)}).rule == "NT-54"
    assert t.refuse("F", "unit_move", {"unit": "u9", "to": to(3)}).rule == "NT-54"
    assert t.refuse("F", "unit_move", {"unit": "u8", **road([2])}).rule == "NT-54"


def test_t6_variant_enemy_corps_halts() -> None:
    """NT-T6 (i): an Allied corps of 2 units next to B: the march must stop in B. NT-54(c)."""
    board = fragment("mv_t6i", ABC, ABC_APPROACHES, capacity={"B": 4, "C": 6}, roads=ABC_ROAD)
    t = Table(position(board, [*LEGRAND, "AL k1 INF2 @E.R [k]", "AL k2 INF2 @E.R [k]"]))
    assert t.refuse("F", "corps_move", {"commander": "legrand", **road([2, 3])}).rule == "NT-54"
    t.play("F", "corps_move", {"commander": "legrand", **road([2])})
    assert t.unit("g1").loc == 2


def test_t6_variant_small_capacity_pass_through() -> None:
    """NT-T6 (ii): B capacity 2: the corps may pass B but not end there. NT-34, NT-55, NT-10."""
    board = fragment("mv_t6ii", ABC, ABC_APPROACHES, capacity={"B": 2, "C": 6}, roads=ABC_ROAD)
    t = Table(position(board, LEGRAND))
    assert t.refuse("F", "corps_move", {"commander": "legrand", **road([2])}).rule == "NT-10"
    t.play("F", "corps_move", {"commander": "legrand", **road([2, 3])})
    assert t.unit("g4").loc == 3


# ----------------------------------------------------------------------------- NT-T7 Davout


def _davout_board(name: str) -> Board:
    return fragment(
        name,
        {"X": 1, "Y": 2, "Z": 3},
        [("XY", "X", "Y"), ("YZ", "Y", "Z")],
        roads=[("main", "X", "Y", 0, 0), ("main", "Y", "Z", 0, 0)],
        entries=[("E1", "F", "X", 0, "main", True)],
        commanders=[("davout", "F", None, True)],
    )


DAVOUT = [
    "F v1 INF2 @off [davout]",
    "F v2 INF2 @off [davout]",
    "F v3 INF2 @off [davout]",
    "F v4 INF2 @off [davout]",
    "F m1 INF2 @Z.R [murat]",
    "F m2 INF2 @Z.R [murat]",
]


def test_t7_french_surprise_bonus() -> None:
    """NT-T7 (seed L310): Davout enters by Corps Move (+4 morale), Murat moves, Davout moves again;
    no third Davout command; a reinforcement gets two move commands, not three; the next round
    Davout has one command. NT-37, NT-43, NT-57, NT-59, NT-60, NT-62, NT-63, NT-115."""
    board = _davout_board("mv_t7")
    t = Table(position(board, DAVOUT, morale={"F": 20, "AL": 27}))
    assert not t.state.reinforcements_entered
    t.play(
        "F",
        "enter_reinforcement",
        {"command": "corps_move", "commander": "davout", "entry": "E1", "path": [1]},
    )
    assert t.state.morale["F"] == 24
    assert t.state.reinforcements_entered
    assert all((t.unit(v).loc, t.unit(v).app) == (1, None) for v in ("v1", "v2", "v3", "v4"))
    t.play("F", "corps_move", {"commander": "murat", "to": to(3, "YZ")})
    # the second Davout command need not be a road move; v1 stays behind detached
    t.play("F", "corps_move", {"commander": "davout", "detach": ["v1"], "to": to(2)})
    assert t.state.commanders["davout"].loc == 2
    assert t.state.morale["F"] == 24  # the bonus comes once
    assert t.refuse("F", "corps_move", {"commander": "davout", "to": to(1)}).rule == "NT-37"
    t.play("F", "unit_move", {"unit": "v1", "to": to(1, "XY")})  # its second move command
    assert t.refuse("F", "unit_move", {"unit": "v1", "to": to(1)}).rule == "NT-43"
    assert t.refuse("F", "unit_move", {"unit": "v2", "to": to(2, "YZ")}).rule == "NT-43"
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    assert t.state.active == "F"
    assert t.state.round == 2
    t.play("F", "corps_move", {"commander": "davout", "to": to(2, "YZ")})
    assert t.refuse("F", "corps_move", {"commander": "davout", "to": to(2)}).rule == "NT-37"


def test_t7_entry_occupied_and_unit_entry() -> None:
    """NT-T7 / NT-T60: an enemy-held entry area cannot be used; a single unit enters by Unit Move
    (+4 once), and the entry counts as the first locale of the road move (AMB-15, NT-51: main
    road, 3 locales). NT-59, NT-60, NT-61, NT-63."""
    board = _davout_board("mv_t7b")
    t = Table(position(board, [*DAVOUT, "AL a1 INF2 @X.R [-]"], morale={"F": 20, "AL": 27}))
    assert (
        t.refuse(
            "F",
            "enter_reinforcement",
            {"command": "corps_move", "commander": "davout", "entry": "E1", "path": [1]},
        ).rule
        == "NT-59"
    )
    t2 = Table(position(board, DAVOUT, morale={"F": 20, "AL": 27}))
    assert (
        t2.refuse(
            "F",
            "enter_reinforcement",
            {"command": "unit_move", "unit": "v1", "entry": "E1", "path": [2]},
        ).rule
        == "NT-60"
    )
    t2.play(
        "F",
        "enter_reinforcement",
        {"command": "unit_move", "unit": "v1", "entry": "E1", "path": [1, 2]},
    )
    assert t2.state.morale["F"] == 24
    assert (t2.unit("v1").loc, t2.unit("v1").corps) == (2, None)
    t2.play(
        "F",
        "enter_reinforcement",
        {"command": "unit_move", "unit": "v2", "entry": "E1", "path": [1]},
    )
    assert t2.state.morale["F"] == 24
    assert t2.state.turn.independent_used == 2  # AMB-16: entering Unit Moves count


# ----------------------------------------------------------------------------- NT-T14 .. NT-T25


def test_t14_corps_fills_capacity_commander_free() -> None:
    """NT-T14: a corps of one unit brings Y to 4 units (commanders do not count); a fifth unit is
    refused. NT-10."""
    board = pair("mv_t14", capacity={"Y": 4})
    t = Table(
        position(
            board,
            [
                "AL a1 INF2 @Y.R [-]",
                "AL a2 INF2 @Y.R [-]",
                "AL a3 INF2 @Y.XY [-]",
                "AL k1 INF2 @Z1.R [k]",
                "AL a9 INF2 @Z2.R [-]",
            ],
            active="AL",
        )
    )
    t.play("AL", "corps_move", {"commander": "k", "to": to(2)})
    assert t.state.commanders["k"].loc == 2
    assert t.refuse("AL", "unit_move", {"unit": "a9", "to": to(2)}).rule == "NT-10"


ROAD_ABC = {"A": 1, "B": 2, "C": 3, "E": 4}
ROAD_ABC_APPS = [("AB", "A", "B"), ("BC", "B", "C"), ("EB", "E", "B")]


def test_t15_capacity_one_locale_on_the_road() -> None:
    """NT-T15: B capacity 1: a corps of 4 passes but cannot stop; with B full the corps may not
    pass (AMB-14), nor may a single unit. NT-34, NT-55, NT-10."""
    board = fragment("mv_t15", ROAD_ABC, ROAD_ABC_APPS, capacity={"B": 1}, roads=ABC_ROAD)
    corps = [
        "F s1 INF2 @A.R [s]",
        "F s2 INF2 @A.R [s]",
        "F s3 INF2 @A.R [s]",
        "F s4 INF2 @A.R [s]",
        "F u1 CAV2 @A.R [-]",
    ]
    t = Table(position(board, corps))
    assert legal(t, "F", "corps_move", {"commander": "s", **road([2, 3])})
    assert t.refuse("F", "corps_move", {"commander": "s", **road([2])}).rule == "NT-10"
    t2 = Table(position(board, [*corps, "F b1 INF2 @B.R [-]"]))
    assert t2.refuse("F", "corps_move", {"commander": "s", **road([2, 3])}).rule == "NT-55"
    assert t2.refuse("F", "unit_move", {"unit": "u1", **road([2, 3])}).rule == "NT-55"


def test_t16_reserve_entered_blocks_corps_road_move() -> None:
    """NT-T16 (PUB-5): a unit that stopped in B.R bars a 2-unit corps from entering B by road; one
    that only passed through B does not; a 1-unit corps is never barred. NT-54(a)."""
    board = fragment("mv_t16", ROAD_ABC, ROAD_ABC_APPS, roads=ABC_ROAD)
    pieces = [
        "F u1 CAV2 @A.R [-]",
        "F s1 INF2 @A.R [s]",
        "F s2 INF2 @A.R [s]",
        "F t1 INF2 @A.R [t]",
    ]
    t = Table(position(board, pieces))
    t.play("F", "unit_move", {"unit": "u1", **road([2])})
    assert t.refuse("F", "corps_move", {"commander": "s", **road([2])}).rule == "NT-54"
    assert legal(t, "F", "corps_move", {"commander": "t", **road([2])})
    t2 = Table(position(board, pieces))
    t2.play("F", "unit_move", {"unit": "u1", **road([2, 3])})
    assert legal(t2, "F", "corps_move", {"commander": "t", **road([2])})
    t2.play("F", "corps_move", {"commander": "s", **road([2])})
    assert t2.unit("s1").loc == 2


def test_t17_road_lock_lasts_the_turn() -> None:
    """NT-T17: after a 2-unit corps marched A->B->C, no F move into B or C this turn; next turn
    the lock is gone. NT-54(b)."""
    board = fragment("mv_t17", ABC, ABC_APPROACHES, roads=ABC_ROAD)
    t = Table(
        position(
            board,
            [
                "F s1 INF2 @A.R [s]",
                "F s2 INF2 @A.R [s]",
                "F u1 INF2 @D.R [-]",
                "F r1 INF2 @D.R [r]",
                "F r2 INF2 @D.R [r]",
            ],
        )
    )
    t.play("F", "corps_move", {"commander": "s", **road([2, 3])})
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": to(2)}).rule == "NT-54"
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": to(3)}).rule == "NT-54"
    assert t.refuse("F", "corps_move", {"commander": "r", "to": to(2)}).rule == "NT-54"
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    assert t.state.turn.road_locked == []
    t.play("F", "unit_move", {"unit": "u1", "to": to(2)})
    t.play("F", "corps_move", {"commander": "r", "to": to(3)})


def test_t18_halt_next_to_enemy_corps() -> None:
    """NT-T18: an enemy corps of 2+ units next to B halts a 2-unit F corps there; a 1-unit enemy
    corps (plus detached units) does not; across an impassable approach it still does (NT-14);
    a 1-unit F corps never halts. NT-54(c)."""
    pieces = ["F s1 INF2 @A.R [s]", "F s2 INF2 @A.R [s]", "F t1 INF2 @A.R [t]"]
    board = fragment("mv_t18", ROAD_ABC, ROAD_ABC_APPS, roads=ABC_ROAD)
    t = Table(position(board, [*pieces, "AL k1 INF2 @E.R [k]", "AL k2 INF2 @E.R [k]"]))
    assert t.refuse("F", "corps_move", {"commander": "s", **road([2, 3])}).rule == "NT-54"
    assert legal(t, "F", "corps_move", {"commander": "s", **road([2])})
    assert legal(t, "F", "corps_move", {"commander": "t", **road([2, 3])})
    t2 = Table(
        position(
            board, [*pieces, "AL k1 INF2 @E.R [k]", "AL d1 INF2 @E.R [-]", "AL d2 INF2 @E.R [-]"]
        )
    )
    assert legal(t2, "F", "corps_move", {"commander": "s", **road([2, 3])})
    board3 = fragment(
        "mv_t18c", ROAD_ABC, ROAD_ABC_APPS, roads=ABC_ROAD, specs={"EB": Spec(impassable=True)}
    )
    t3 = Table(position(board3, [*pieces, "AL k1 INF2 @E.R [k]", "AL k2 INF2 @E.R [k]"]))
    assert t3.refuse("F", "corps_move", {"commander": "s", **road([2, 3])}).rule == "NT-54"


def test_t19_detach_move_never_by_road() -> None:
    """NT-T19: a Detachment Move with a road path is refused, even one locale long. NT-40."""
    board = fragment("mv_t19", ROAD_ABC, ROAD_ABC_APPS, roads=ABC_ROAD)
    t = Table(position(board, ["F s1 CAV2 @A.R [s]", "F s2 INF2 @A.R [s]"]))
    assert (
        t.refuse("F", "detach_move", {"commander": "s", "units": ["s1"], **road([2])}).rule
        == "NT-40"
    )
    t.play("F", "detach_move", {"commander": "s", "units": ["s1"], "to": to(2)})
    assert (t.unit("s1").loc, t.unit("s1").corps) == (2, None)


def test_t20_corps_command_limits() -> None:
    """NT-T20: the Allies give at most 5 corps commands a turn; the French have no total limit but
    each commander gives one. NT-37."""
    board = pair("mv_t20")
    t = Table(position(board, [f"AL c{i}u INF2 @Y.R [c{i}]" for i in range(1, 7)], active="AL"))
    for i in range(1, 6):
        t.play("AL", "corps_move", {"commander": f"c{i}", "to": to(3)})
    assert t.state.turn.corps_used == 5
    assert t.refuse("AL", "corps_move", {"commander": "c6", "to": to(3)}).rule == "NT-37"
    tf = Table(position(board, [f"F f{i}u INF2 @X.R [f{i}]" for i in range(1, 9)]))
    for i in range(1, 9):
        tf.play("F", "corps_move", {"commander": f"f{i}", "to": to(5)})
    assert all(tf.unit(f"f{i}u").loc == 5 for i in range(1, 9))
    assert tf.refuse("F", "corps_move", {"commander": "f1", "to": to(1)}).rule == "NT-37"


def test_t21_independent_command_limits() -> None:
    """NT-T21: the 4th Allied and the 5th French independent command are refused. NT-38."""
    board = pair("mv_t21")
    t = Table(position(board, [f"AL a{i} INF2 @Y.R [-]" for i in range(1, 5)], active="AL"))
    for i in range(1, 4):
        t.play("AL", "unit_move", {"unit": f"a{i}", "to": to(3)})
    assert t.refuse("AL", "unit_move", {"unit": "a4", "to": to(3)}).rule == "NT-38"
    tf = Table(position(board, [f"F f{i} INF2 @X.R [-]" for i in range(1, 6)]))
    for i in range(1, 5):
        tf.play("F", "unit_move", {"unit": f"f{i}", "to": to(5)})
    assert tf.state.turn.independent_used == 4
    assert tf.refuse("F", "unit_move", {"unit": "f5", "to": to(5)}).rule == "NT-38"


def test_t22_attach_after_corps_move() -> None:
    """NT-T22: a unit moved by its Corps Move cannot get a Unit Move; another commander may attach
    it (Attach is no move) and then cannot give a Corps Move. NT-41, NT-43, NT-37."""
    board = pair("mv_t22")
    t = Table(
        position(board, ["F u1 INF2 @X.R [ca]", "F u2 INF2 @X.R [ca]", "F b1 INF2 @W.R [cb]"])
    )
    t.play("F", "corps_move", {"commander": "ca", "to": to(5)})
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": to(1)}).rule == "NT-43"
    t.play("F", "attach", {"commander": "cb", "unit": "u1"})
    assert t.unit("u1").corps == "cb"
    assert (
        t.refuse("F", "corps_move", {"commander": "cb", "detach": ["u1"], "to": to(1)}).rule
        == "NT-37"
    )


def test_t23_last_unit_of_a_corps() -> None:
    """NT-T23: the last unit of a corps cannot be moved alone, attached away or detached; the
    Corps Move is fine. NT-32, NT-39, NT-42, AMB-12."""
    board = pair("mv_t23")
    t = Table(position(board, ["F u1 INF2 @X.R [c]", "F d1 INF2 @X.R [d]"]))
    assert t.refuse("F", "unit_move", {"unit": "u1", "to": to(5)}).rule == "NT-42"
    assert t.refuse("F", "attach", {"commander": "d", "unit": "u1"}).rule == "NT-32"
    assert (
        t.refuse("F", "corps_move", {"commander": "c", "detach": ["u1"], "to": to(5)}).rule
        == "NT-39"
    )
    t.play("F", "corps_move", {"commander": "c", "to": to(5)})
    assert (t.unit("u1").loc, t.state.commanders["c"].loc) == (5, 5)


def test_t24_moved_unit_must_be_detached() -> None:
    """NT-T24 (AMB-11): a corps holding a unit that already moved this turn may move only after
    detaching it. NT-39, NT-43, NT-37.

    Digest note: as written, NT-T24 cannot arise through Attach, because the Attach is the
    receiving commander's one corps command (NT-37, NT-T22). The test shows that refusal, then
    checks the AMB-11 rule itself on a position where a corps member has already moved."""
    board = pair("mv_t24")
    t = Table(
        position(board, ["F u1 INF2 @W.R [cb]", "F u2 INF2 @W.R [cb]", "F a1 INF2 @X.R [ca]"])
    )
    t.play("F", "corps_move", {"commander": "cb", "to": to(1)})
    t.play("F", "attach", {"commander": "ca", "unit": "u1"})
    assert (
        t.refuse("F", "corps_move", {"commander": "ca", "detach": ["u1"], "to": to(5)}).rule
        == "NT-37"
    )
    t.state.commanders["ca"].commands = 0  # as if the Attach had been no command of ca's
    assert t.refuse("F", "corps_move", {"commander": "ca", "to": to(5)}).rule == "NT-39"
    t.play("F", "corps_move", {"commander": "ca", "detach": ["u1"], "to": to(5)})
    assert (t.unit("a1").loc, t.unit("u1").loc, t.unit("u1").corps) == (5, 1, None)
    assert t.unit("a1").corps == "ca"


def test_t25_attacking_corps_must_fit_the_defense_locale() -> None:
    """NT-T25: Y capacity 4: a 5-unit Corps Move cannot be the attack command; detaching one unit
    makes it legal. NT-81, NT-39, NT-10."""
    board = pair("mv_t25", capacity={"Y": 4})
    t = Table(
        position(board, [*(f"F v{i} INF3 @X.R [v]" for i in range(1, 6)), "AL a1 INF2 @Y.XY [-]"])
    )
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "no_feint")
    assert (
        t.refuse(
            "F",
            "declare_attack",
            {"commands": [{"kind": "corps_move", "commander": "v"}], "leading": ["v1"]},
        ).rule
        == "NT-81"
    )
    t.play(
        "F",
        "declare_attack",
        {
            "commands": [{"kind": "corps_move", "commander": "v", "detach": ["v5"]}],
            "leading": ["v1"],
        },
    )
    assert t.unit("v5").corps is None
    assert t.unit("v5").moves == 0
    assert t.unit("v1").moves == 1
    # R = 3 - 1 - 2 = 0 with blockers: AL wins; LA = 1 -> v1 INF2; LD = 1 -> a1 INF1
    assert t.face("v1") == "INF2"
    assert t.face("a1") == "INF1"
