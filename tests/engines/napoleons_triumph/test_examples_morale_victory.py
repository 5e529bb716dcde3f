"""Derived test cases NT-T50..NT-T62 (digest 5.3): retreats, morale, elite units, night, victory."""

from __future__ import annotations

from games.core.protocol import JSON
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.victory import controls, finish_game
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    Spec,
    Table,
    fragment,
    pair,
    position,
)

# ----------------------------------------------------------------------------- retreats


def _corps_wins_tie(t: Table, named: list[JSON]) -> None:
    """F's corps v attacks reserve defenders with no leading units; counts decide (AMB-24)."""
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": named, "leading": []})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "corps_move", "commander": "v"}],
                                   "leading": []})
    t.play("AL", "counter", {"units": []})
    atk = t.state.attack
    assert atk is not None
    assert atk.winner == "F"
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"


def test_t50_no_room_eliminates() -> None:
    """NT-T50: Z1 is French, Z2 has room for one: a2 (with k) goes to Z2, a1 is eliminated and costs
    2 morale (AMB-29). NT-106, NT-107, NT-108, NT-112."""
    board = pair("t50", capacity={"Z2": 4})
    t = Table(position(board, [
        "F v1 INF3 @X.R [v]", "F v2 INF3 @X.R [v]", "F f1 INF2 @Z1.R [-]",
        "AL a1 INF2 @Y.R [k]", "AL a2 CAV2 @Y.R [k]",
        "AL z1 INF2 @Z2.R [-]", "AL z2 INF2 @Z2.R [-]", "AL z3 INF2 @Z2.R [-]",
    ]))
    _corps_wins_tie(t, ["a1", "a2", "k"])
    assert t.state.morale == {"F": 23, "AL": 27}  # LA = LD = 0
    assert t.refuse("AL", "retreat_plan", {"anchors": {"k": "a2"},
                                           "destinations": {"a2": 3}}).rule == "NT-106"
    assert t.refuse("AL", "retreat_plan", {"anchors": {"k": "a2"},
                                           "destinations": {}}).rule == "NT-106"
    t.play("AL", "retreat_plan", {"anchors": {"k": "a2"}, "destinations": {"a2": 4}})
    assert t.face("a1") == "dead"
    assert (t.unit("a2").loc, t.unit("a2").corps) == (4, "k")
    assert t.state.commanders["k"].loc == 4
    assert t.state.morale == {"F": 23, "AL": 25}
    assert t.unit("v1").loc == 2


def test_t50_variant_full_locale_eliminates_the_corps() -> None:
    """NT-T50 variant: Z2 full -> both units eliminated and k with them. NT-107, NT-108, NT-32."""
    board = pair("t50f", capacity={"Z2": 4})
    t = Table(position(board, [
        "F v1 INF3 @X.R [v]", "F v2 INF3 @X.R [v]", "F f1 INF2 @Z1.R [-]",
        "AL a1 INF2 @Y.R [k]", "AL a2 CAV2 @Y.R [k]",
        "AL z1 INF2 @Z2.R [-]", "AL z2 INF2 @Z2.R [-]", "AL z3 INF2 @Z2.R [-]",
        "AL z4 INF2 @Z2.R [-]",
    ]))
    _corps_wins_tie(t, ["a1", "a2", "k"])
    t.play("AL", "retreat_plan", {"anchors": {"k": "a2"}, "destinations": {}})
    assert t.face("a1") == "dead"
    assert t.face("a2") == "dead"
    assert t.state.commanders["k"].where == "dead"
    assert t.state.morale == {"F": 23, "AL": 23}


def test_t51_retreat_losses() -> None:
    """NT-T51: b2 (ART) eliminated; b1 -2 (YZ1 wide); b3 -1 (YZ2 narrow); unnamed reserve
    infantry -2 (XY wide): r2 eliminated, r1 -> INF1; n1 and r3 lose nothing; morale -6.
    NT-105, NT-112, AMB-28, AMB-29."""
    board = pair("t51", specs={"XY": Spec(wide=True), "YZ1": Spec(wide=True)})
    t = Table(position(board, [
        "F v1 INF3 @X.R [v]",
        "AL b1 INF3 @Y.YZ1 [-]", "AL b2 ART1 @Y.YZ2 [-]", "AL b3 CAV2 @Y.YZ2 [-]",
        "AL n1 INF2 @Y.R [-]", "AL r1 INF2 @Y.R [-]", "AL r2 INF1 @Y.R [-]",
        "AL r3 CAV2 @Y.R [-]",
    ]))
    _corps_wins_tie(t, ["n1"])  # 1 attacking unit vs 1 named: the French win the tie
    dests: dict[str, JSON] = {"b1": 3, "b3": 3, "n1": 4, "r1": 4, "r3": 4}
    assert t.refuse("AL", "retreat_plan", {"losses": [{"unit": "r1", "sp": 1}],
                                           "destinations": dests}).rule == "NT-105"
    assert t.refuse("AL", "retreat_plan", {"losses": [{"unit": "n1", "sp": 1},
                                                      {"unit": "r2", "sp": 1}],
                                           "destinations": dests}).rule == "NT-105"
    t.play("AL", "retreat_plan", {"losses": [{"unit": "r2", "sp": 1}, {"unit": "r1", "sp": 1}],
                                  "destinations": dests})
    assert t.face("b2") == "dead"
    assert t.face("b1") == "INF1"
    assert t.face("b3") == "CAV1"
    assert t.face("r2") == "dead"
    assert t.face("r1") == "INF1"
    assert t.face("n1") == "INF2"
    assert t.face("r3") == "CAV2"
    assert t.state.morale == {"F": 23, "AL": 21}
    assert all(t.unit(u).retreated for u in ("b1", "b3", "n1", "r1", "r3"))  # NT-109


def test_t52_retreating_corps_keeps_one_unit() -> None:
    """NT-T52: after the retreat exactly one unit (AL's choice) is in k, with the commander; the
    others are detached and may go elsewhere (AMB-38). NT-108."""
    board = pair("t52")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "AL k1 CAV2 @Y.R [k]",
                               "AL k2 CAV2 @Y.R [k]", "AL k3 CAV2 @Y.R [k]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "vacate", {})
    assert t.refuse("AL", "retreat_plan", {"destinations": {"k1": 3, "k2": 4,
                                                            "k3": 3}}).rule == "NT-108"
    t.play("AL", "retreat_plan", {"anchors": {"k": "k2"},
                                  "destinations": {"k1": 3, "k2": 4, "k3": 3}})
    assert [t.unit(u).corps for u in ("k1", "k2", "k3")] == [None, "k", None]
    assert [t.unit(u).loc for u in ("k1", "k2", "k3")] == [3, 4, 3]
    assert (t.state.commanders["k"].loc, t.state.commanders["k"].app) == (4, None)
    assert [t.face(u) for u in ("k1", "k2", "k3")] == ["CAV2"] * 3  # reserve cavalry: no loss
    assert t.state.morale["AL"] == 27


def test_t53_heavy_cavalry_committed_by_retreat() -> None:
    """NT-T53: AL vacates Y with h1 CAV3 (heavy cavalry never used): -2 at the start of the
    retreat; reserve cavalry takes no retreat loss. NT-120(c), NT-105."""
    board = pair("t53")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "AL h1 CAV3 @Y.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"h1": 3}}})
    assert t.state.morale == {"F": 23, "AL": 25}
    assert t.state.elite_committed["AL"] == ["heavy_cav"]
    assert t.face("h1") == "CAV3"
    assert t.unit("h1").loc == 3


# ----------------------------------------------------------------------------- elite


def _guard_attack(name: str, b1: str) -> Table:
    board = pair(name)
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "F g2 GUARD3 @X.R [-]",
                               f"AL b1 {b1} @Y.XY [-]", "AL w1 INF2 @W.R [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY", "guard_attack": True,
                             "show_guard": "g1"})
    assert t.unit("g1").revealed
    t.play("AL", "defend", {"named": ["b1"], "leading": ["b1"]})
    return t


def test_t54_guard_attack_wins() -> None:
    """NT-T54: no feint step in a Guard attack; F 23 -> 19 when the Guard leads; R = 3 - 1 -
    (2 - 1) = +1; LA = 1: g1 -> INF2; LD = 1 + 1 = 2: b1 eliminated.
    NT-122, NT-124..NT-126, NT-5."""
    t = _guard_attack("t54", "INF2")
    assert t.state.pending is not None
    assert t.state.pending.kind == "declare"  # NT-125: step (3) is skipped
    assert t.refuse("F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "g1"}],
                                           "end": "reserve"}).rule == "NT-35"
    assert t.refuse("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "g2"}],
                                            "leading": ["g2"]}).rule == "NT-124"
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "g1"}],
                                   "leading": ["g1"]})
    assert t.face("g1") == "INF2"
    assert t.unit("g1").type == "INF"
    assert t.face("b1") == "dead"
    assert t.state.morale == {"F": 19, "AL": 25}
    assert t.state.elite_committed["F"] == ["guard"]
    assert not t.state.guard_banned["F"]
    assert t.unit("g1").loc == 2


def test_t55_guard_attack_fails() -> None:
    """NT-T55: b1 INF3: R = -1, the Guard attack is not victorious: F -4 -3 -2 = 14; later Guard
    attacks are barred. NT-122, NT-127, NT-111."""
    t = _guard_attack("t55", "INF3")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "g1"}],
                                   "leading": ["g1"]})
    assert t.face("g1") == "INF1"
    assert t.face("b1") == "INF2"
    assert t.state.morale == {"F": 14, "AL": 27}
    assert t.state.guard_banned["F"]
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XW", "guard_attack": True,
                                      "show_guard": "g2"}).rule == "NT-127"
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XW"})  # an ordinary attack is fine


def test_t56_guard_attack_and_obstruction() -> None:
    """NT-T56: X's side of XY obstructed bars a Guard attack; only Y's side obstructed does not
    (AMB-32), but then cavalry cannot lead. NT-125, NT-69."""
    board = pair("t56x", specs={"XY": Spec(sides={"X": {"obstructed": True}})})
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "AL b1 INF2 @Y.XY [-]"]))
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY", "guard_attack": True,
                                      "show_guard": "g1"}).rule == "NT-125"
    board = pair("t56y", specs={"XY": Spec(sides={"Y": {"obstructed": True}})})
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "F c1 CAV2 @X.R [-]",
                               "AL b1 INF2 @Y.XY [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY", "guard_attack": True,
                             "show_guard": "g1"})
    assert t.state.attack is not None
    assert t.state.attack.guard_attack
    board = pair("t56c", specs={"XY": Spec(sides={"Y": {"obstructed": True}})})
    t = Table(position(board, ["F c1 CAV2 @X.R [-]", "AL b1 INF2 @Y.XY [-]"]))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1"], "leading": []})
    t.play("F", "no_feint")
    assert t.refuse("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "c1"}],
                                            "leading": ["c1"]}).rule == "NT-69"


def test_t57_elite_floor_then_demoralized() -> None:
    """NT-T57: F morale 3: the Guard leading costs 3 -> 1 (floor), then losing the attack with 1
    strength point lost takes F to 0: the Allies win decisively at once. NT-122, NT-113, NT-128."""
    board = pair("t57")
    t = Table(position(board, ["F g1 GUARD3 @X.R [-]", "AL b1 INF2 @Y.XY [-]",
                               "AL b2 INF2 @Y.R [-]"], morale={"F": 3, "AL": 27}))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1"], "leading": ["b1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "g1"}],
                                   "leading": ["g1"]})
    # R = 3 - 1 - 2 = 0, blockers: AL wins; LA = 1: g1 -> INF2; F 1 - 1 = 0
    assert t.face("g1") == "INF2"
    assert t.state.morale["F"] == 0
    assert t.state.phase == "over"
    assert t.state.result is not None
    assert (t.state.result["winner"], t.state.result["kind"]) == ("AL", "decisive")
    assert t.unit("g1").revealed  # NT-130-style reveal at game end
    assert t.refuse("F", "end_turn").rule == "NT-128"
    assert t.refuse("AL", "resign").rule == "NT-128"


def test_t57_second_heavy_cavalry_use_is_free() -> None:
    """NT-T57: heavy cavalry already committed: leading the defense costs nothing more. NT-120."""
    board = pair("t57h")
    state = position(board, ["F u1 INF3 @X.R [-]", "AL h1 CAV3 @Y.XY [-]"])
    state.elite_committed["AL"] = ["heavy_cav"]
    t = Table(state)
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["h1"], "leading": ["h1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})
    # R = 3 - 1 - 3 = -1: AL wins; LA = 1 + 1 = 2: u1 -> INF1; LD = 1: h1 -> CAV2
    assert t.face("u1") == "INF1"
    assert t.face("h1") == "CAV2"
    assert t.state.morale == {"F": 21, "AL": 27}
    # the first use costs 2 (same position, nothing committed yet)
    state = position(board, ["F u1 INF3 @X.R [-]", "AL h1 CAV3 @Y.XY [-]"])
    t = Table(state)
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["h1"], "leading": ["h1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})
    assert t.state.morale == {"F": 21, "AL": 25}


def test_t58_demoralized_in_mid_attack() -> None:
    """NT-T58: AL morale 2 loses an attack with 3 strength points: morale 0 (clamped), decisive
    French victory at once; no retreat, no advance; further actions rejected. NT-113, NT-128."""
    board = pair("t58")
    t = Table(position(board, ["F u1 INF3 @X.R [-]", "AL b1 INF3 @Y.XY [-]",
                               "AL b2 CAV2 @Y.YZ1 [-]"], morale={"F": 23, "AL": 2}))
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1"], "leading": []})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})
    t.play("AL", "counter", {"units": []})
    # R = 3 - 1 = +2: F wins; LD = 1 + 2 = 3: b1 eliminated
    assert t.face("b1") == "dead"
    assert t.state.morale == {"F": 23, "AL": 0}
    assert t.state.phase == "over"
    assert t.state.result is not None
    assert (t.state.result["winner"], t.state.result["kind"]) == ("F", "decisive")
    assert (t.unit("b2").loc, t.unit("b2").app, t.face("b2")) == (2, "YZ1", "CAV2")
    assert (t.unit("u1").loc, t.unit("u1").app) == (1, None)
    assert t.state.pending is None
    assert t.refuse("F", "end_turn").rule == "NT-128"
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY"}).rule == "NT-128"
    assert RULESET.result(t.state) is not None


# ----------------------------------------------------------------------------- night


def test_t59_night_recovery_and_no_attacks() -> None:
    """NT-T59: at the start of the night round AL (lost 9) regains 4 (capped), F (lost 5, +4 from
    reinforcements not offsetting, AMB-2) regains 3; threats are refused; moves and reinforcement
    entries are accepted. NT-116..NT-118."""
    board = fragment("t59", PAIR_LOCALES, PAIR_APPROACHES, rounds=3, night_rounds=[2],
                     roads=[("main", "W", "X", 0, 0)],
                     entries=[("EF1", "F", "W", 0, "main", True)],
                     commanders=[("davout", "F", None, True)])
    state = position(board, ["F u1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]", "AL a2 INF2 @Y.R [-]",
                             "F d1 INF2 @off [davout]", "F d2 CAV2 @off [davout]"],
                     morale={"F": 22, "AL": 18}, round_=1)
    state.morale_lost = {"F": 5, "AL": 9}
    t = Table(state)
    t.play("F", "end_turn")
    assert (t.state.round, t.state.active) == (2, "AL")
    assert t.state.morale == {"F": 25, "AL": 22}
    view = RULESET.view(t.state, "allied")
    assert isinstance(view, dict)
    assert isinstance(view["round"], dict)
    assert view["round"]["night"] is True
    assert t.refuse("AL", "threaten", {"attack_locale": 2, "approach": "XY"}).rule == "NT-117"
    t.play("AL", "unit_move", {"unit": "a2", "to": {"locale": 3, "approach": None}})
    t.play("AL", "end_turn")
    assert t.refuse("F", "threaten", {"attack_locale": 1, "approach": "XY"}).rule == "NT-117"
    t.play("F", "enter_reinforcement", {"command": "corps_move", "commander": "davout",
                                        "entry": "EF1", "path": [5]})
    assert t.unit("d1").loc == 5
    assert t.state.morale["F"] == 29  # NT-115: +4 at the first French reinforcement
    t.play("F", "end_turn")  # round 3 is a day round: no second recovery
    assert t.state.round == 3
    assert t.state.morale == {"F": 29, "AL": 22}


# ----------------------------------------------------------------------------- victory


def _reinforcement_board(name: str) -> Table:
    board = fragment(name, PAIR_LOCALES, PAIR_APPROACHES, rounds=2,
                     roads=[("main", "W", "X", 0, 0)],
                     entries=[("EF1", "F", "W", 0, "main", True)],
                     commanders=[("davout", "F", None, True), ("bernadotte", "F", None, True)])
    return Table(position(board, [
        "F u1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]",
        "F d1 INF2 @off [davout]", "F d2 CAV2 @off [davout]",
        "F e1 INF2 @off [bernadotte]", "F e2 CAV2 @off [bernadotte]",
    ], morale={"F": 20, "AL": 27}))


def test_t60_reinforcement_morale_once() -> None:
    """NT-T60: the first French reinforcement (one Davout unit by Unit Move) gives +4 at once;
    Bernadotte's later entry gives nothing; NT-132 then decides even if every reinforcement is
    gone. NT-115, NT-63, NT-131, NT-132."""
    t = _reinforcement_board("t60")
    t.play("F", "enter_reinforcement", {"command": "unit_move", "unit": "d1", "entry": "EF1",
                                        "path": [5]})
    assert t.state.morale["F"] == 24
    assert t.state.reinforcements_entered
    # NT-54(a): a corps cannot enter W by road in the turn a unit moved into W's reserve
    assert t.refuse("F", "enter_reinforcement", {"command": "corps_move",
                                                 "commander": "bernadotte", "entry": "EF1",
                                                 "path": [5]}).rule == "NT-54"
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    t.play("F", "enter_reinforcement", {"command": "corps_move", "commander": "bernadotte",
                                        "entry": "EF1", "path": [5]})
    assert t.state.morale["F"] == 24
    for uid in ("d1", "d2", "e1", "e2"):
        t.unit(uid).where, t.unit(uid).loc = "dead", None
    ctx = Ctx(RULESET.board(t.state), t.state)
    finish_game(ctx)
    assert t.state.result is not None
    # nobody controls anything: under NT-131 the French would win, under NT-132 the Allies do
    assert (t.state.result["winner"], t.state.result["kind"]) == ("AL", "marginal")
    assert t.state.result["reinforcements_entered"] is True


def test_t60_without_reinforcements_nt131() -> None:
    """NT-T60 counterpart: the same empty objectives without reinforcements: the French win
    marginally (NT-131), here by playing out the last round's end_turn (NT-129)."""
    t = _reinforcement_board("t60n")
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    t.play("F", "end_turn")
    assert t.state.phase == "over"
    assert t.state.result is not None
    assert (t.state.result["winner"], t.state.result["kind"]) == ("F", "marginal")


# Objectives board: EF (French main entry) - K (black), EF - GRK (green, red, black),
# EF - G (green), EF - R (red); EA (Allied main entry) - B (blue); all by main road.
OBJ_LOCALES = {"EF": 1, "EA": 2, "B": 3, "K": 4, "GRK": 5, "G": 6, "R": 7}
OBJ_APPS = [("A1", "EF", "K"), ("A2", "EF", "GRK"), ("A3", "EF", "G"), ("A4", "EF", "R"),
            ("A5", "EA", "B")]


def _objectives(name: str, pieces: list[str], entered: bool) -> Ctx:
    board = fragment(name, OBJ_LOCALES, OBJ_APPS,
                     stars={"B": ["blue"], "K": ["black"], "GRK": ["green", "red", "black"],
                            "G": ["green"], "R": ["red"]},
                     roads=[("main", "EF", "K", 0, 0), ("main", "EF", "GRK", 0, 0),
                            ("main", "EF", "G", 0, 0), ("main", "EF", "R", 0, 0),
                            ("main", "EA", "B", 0, 0)],
                     entries=[("EF1", "F", "EF", 0, "main", True),
                              ("EA1", "AL", "EA", 0, "main", True)])
    state = position(board, pieces)
    state.reinforcements_entered = entered
    return Ctx(board, state)


def _winner(ctx: Ctx) -> object:
    finish_game(ctx)
    assert ctx.state.phase == "over"
    assert ctx.state.result is not None
    assert ctx.state.result["kind"] == "marginal"
    return ctx.state.result["winner"]


def test_t61_marginal_victory() -> None:
    """NT-T61 (a)-(e): objectives at the end of the last round. NT-129, NT-131, NT-132."""
    al_blue = "AL k1 INF2 @B.R [kutuzov]"
    # (a) no reinforcements; AL holds blue; F holds nothing -> AL
    assert _winner(_objectives("t61a", [al_blue, "F f1 INF2 @EF.R [-]"], False)) == "AL"
    # (b) same, but F holds a black objective -> F
    assert _winner(_objectives("t61b", [al_blue, "F f1 INF2 @K.R [soult]"], False)) == "F"
    # (c) reinforcements; AL no blue; F holds one locale with green, red and black -> F
    assert _winner(_objectives("t61c", ["AL k1 INF2 @EA.R [kutuzov]",
                                        "F f1 INF2 @GRK.R [soult]"], True)) == "F"
    # (d) reinforcements; F holds green and red only -> AL
    assert _winner(_objectives("t61d", ["AL k1 INF2 @EA.R [kutuzov]",
                                        "F f1 INF2 @G.R [soult]",
                                        "F f2 INF2 @R.R [lannes]"], True)) == "AL"
    # (e) reinforcements; AL holds a blue -> AL although F holds all three colours
    ctx = _objectives("t61e", [al_blue, "F f1 INF2 @GRK.R [soult]"], True)
    assert _winner(ctx) == "AL"
    assert ctx.state.result is not None
    assert ctx.state.result["objectives"] == {"AL": {"blue": [3]},
                                              "F": {"green": [5], "red": [5], "black": [5]}}


def test_t62_control() -> None:
    """NT-T62: control needs a corps with infantry or artillery and a road to the own main entry
    free of enemies, the entry locale included. NT-130, AMB-34."""
    g = 6
    ctx = _objectives("t62a", ["F c1 CAV2 @G.R [murat]", "F i1 INF2 @G.R [-]"], True)
    assert not controls(ctx, "F", g)
    ctx = _objectives("t62b", ["F c1 CAV2 @G.R [murat]", "F i1 INF2 @G.R [murat]"], True)
    assert controls(ctx, "F", g)
    ctx = _objectives("t62c", ["F a1 ART1 @G.R [murat]"], True)
    assert controls(ctx, "F", g)
    ctx = _objectives("t62d", ["F i1 INF2 @G.R [murat]", "AL x1 INF1 @EF.R [-]"], True)
    assert not controls(ctx, "F", g)
    # a road path through an Allied-held locale: G - M (local road) - EF (main road)
    board = fragment("t62e", {"EF": 1, "M": 2, "G": 3}, [("A1", "EF", "M"), ("A2", "M", "G")],
                     stars={"G": ["green"]},
                     roads=[("main", "EF", "M", 0, 0), ("local", "M", "G", 0, 0)],
                     entries=[("EF1", "F", "EF", 0, "main", True)])
    state = position(board, ["F i1 INF2 @G.R [murat]", "AL x1 INF1 @M.R [-]"])
    assert not controls(Ctx(board, state), "F", 3)
    state = position(board, ["F i1 INF2 @G.R [murat]", "F x1 INF1 @M.R [-]"])
    assert controls(Ctx(board, state), "F", 3)
