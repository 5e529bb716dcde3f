"""Derived test cases NT-T63..NT-T67 (digest 5.3): set-up, options, the Santon, views."""

from __future__ import annotations

import copy

import pytest

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.context import unit_alias
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.random_setup import draw_setup as _setup
from games.napoleons_triumph.state import GameState
from tests.support.napoleons_triumph import Spec, Table, pair, position

# A legal French organisation on the reconstructed board (`austerlitz`): F01 (ART1) is in
# Lannes' corps at locale 8; Bernadotte and Davout each get a CAV2 (NT-22).
FRENCH_CORPS: list[dict[str, JSON]] = [
    {"commander": "bernadotte", "units": ["F04", "F12", "F13", "F14"], "off_map": True},
    {"commander": "davout", "units": ["F05", "F15", "F16", "F17"], "off_map": True},
    {"commander": "legrand", "units": ["F18", "F19", "F20"]},
    {"commander": "st-hilaire", "units": ["F21", "F22", "F23", "F28"]},
    {"commander": "vandamme", "units": ["F24", "F25", "F26", "F29"]},
    {"commander": "lannes", "units": ["F01", "F27", "F30", "F31", "F06"]},
    {"commander": "murat", "units": ["F07", "F08", "F09", "F10", "F11"]},
    {"commander": "bessieres", "units": ["F02", "F03", "F32", "F33", "F34", "F35", "F36"]},
]


def _french(detachments: list[JSON] | None = None, battery: JSON = None) -> dict[str, JSON]:
    return {
        "corps": copy.deepcopy(FRENCH_CORPS),  # type: ignore[dict-item]
        "detachments": detachments or [],
        "fixed_battery": battery if battery is not None else {"unit": "F01", "approach": "A013"},
    }


def _det(unit: str, locale: int, approach: str | None = None) -> JSON:
    return {"unit": unit, "position": {"locale": locale, "approach": approach}}


def _after_allied(scenario: str = "DEC2", options: dict[str, JSON] | None = None) -> Table:
    """A new game on the small board with a random legal Allied set-up applied."""
    state = RULESET.setup(GameConfig(scenario, {"board": "austerlitz", **(options or {})}), Rng(1))
    ctx = RULESET.ctx(state)
    for seed in range(20):
        payload = _setup(ctx, "AL", Rng(seed))
        if not RULESET.validate(state, Action("allied", "allied_setup", payload)):
            t = Table(state)
            t.play("AL", "allied_setup", payload)
            return t
    raise AssertionError("no legal Allied set-up found")


def test_t63_french_setup_limits() -> None:
    """NT-T63: 7 detachments, one 3 locales away, one next to a red star, Bernadotte with only
    INF2 units: all rejected. NT-22, NT-23, AMB-9."""
    t = _after_allied()
    assert t.state.phase == "setup_F"
    seven = [_det(u, 9) for u in ("F32", "F33", "F34", "F35", "F36", "F02", "F03")]
    assert t.refuse("F", "french_setup", _french(seven)).rule == "NT-23"
    assert t.refuse("F", "french_setup", _french([_det("F07", 4)])).rule == "NT-23"  # murat: 3
    assert t.refuse("F", "french_setup", _french([_det("F27", 28)])).rule == "NT-23"  # near 27
    p = _french()
    corps = p["corps"]
    assert isinstance(corps, list)
    corps[0] = {"commander": "bernadotte", "units": ["F12", "F13", "F14", "F15"], "off_map": True}
    corps[1] = {"commander": "davout", "units": ["F04", "F05", "F16", "F17"], "off_map": True}
    assert t.refuse("F", "french_setup", p).rule == "NT-22"
    six = [_det("F32", 9), _det("F33", 9), _det("F34", 10), _det("F35", 10, "A024"),
           _det("F36", 12), _det("F02", 12)]
    t.play("F", "french_setup", _french(six))
    assert t.state.phase == "turn"
    assert [(t.unit(u).loc, t.unit(u).corps) for u in ("F32", "F36", "F02")] == [
        (9, None), (12, None), (12, None)]
    assert (t.unit("F35").loc, t.unit("F35").app) == (10, "A024")  # blocking is allowed


def test_t63_fixed_battery() -> None:
    """NT-T63: the battery chosen in reserve is moved to block an approach of its locale, leaves
    its corps (AMB-10), is revealed and stays face up (AMB-4); it never moves. NT-24."""
    t = _after_allied()
    t.play("F", "french_setup", _french())
    fb = t.unit("F01")
    assert (fb.loc, fb.app, fb.corps, fb.fixed, fb.revealed) == (8, "A013", None, True, True)
    assert t.state.commanders["lannes"].app is None
    view = RULESET.view(t.state, "allied")
    assert isinstance(view, dict)
    enemies = view["enemy_units"]
    assert isinstance(enemies, list)
    shown = [u for u in enemies if isinstance(u, dict) and u.get("fixed_battery")]
    assert len(shown) == 1
    assert shown[0]["face"] == {"type": "ART", "strength": 1}
    assert t.state.active == "AL"
    t.play("AL", "end_turn")
    assert t.refuse("F", "unit_move", {"unit": "F01",
                                       "to": {"locale": 8, "approach": None}}).rule == "NT-24"
    assert t.unit("F01").app == "A013"
    # a battery that is not artillery, or is off the map, cannot be chosen
    t = _after_allied()
    assert t.refuse("F", "french_setup", _french(battery={"unit": "F27", "approach": "A013"})
                    ).rule == "NT-24"
    p = _french()
    p["fixed_battery"] = None  # French artillery is on the map: one must be revealed
    assert t.refuse("F", "french_setup", p).rule == "NT-24"


def _allied_dec1(on_map: int) -> tuple[GameState, dict[str, JSON]]:
    state = RULESET.setup(GameConfig("DEC1", {"board": "austerlitz"}), Rng(1))
    ctx = RULESET.ctx(state)
    for seed in range(40):
        payload = _setup(ctx, "AL", Rng(seed))
        if RULESET.validate(state, Action("allied", "allied_setup", payload)):
            continue
        corps = payload["corps"]
        assert isinstance(corps, list)
        offs = [c for c in corps if isinstance(c, dict) and c["off_map"]]
        for c in offs[: on_map - 2]:
            assert isinstance(c, dict)
            c["off_map"] = False
        return state, payload
    raise AssertionError("no legal Allied set-up found")


def test_t64_dec1_two_allied_corps_on_the_map() -> None:
    """NT-T64: DEC1: 3 Allied corps on the map rejected; exactly 2 accepted, the others wait off
    the map and may enter in the first round (NT-57: Allied reinforcements from the first round).
    NT-21, NT-57, NT-59."""
    state, three = _allied_dec1(3)
    refused = RULESET.validate(state, Action("allied", "allied_setup", three))[0]
    assert refused.rule == "NT-21"
    assert "exactly 2" in refused.message
    state, two = _allied_dec1(2)
    t = Table(state)
    t.play("AL", "allied_setup", two)
    on_map = [c for c in t.state.commanders.values() if c.side == "AL" and c.where == "map"]
    off = sorted(
        c.id for c in t.state.commanders.values() if c.side == "AL" and c.where == "offmap"
    )
    assert len(on_map) == 2
    assert len(off) == 7
    t.play("F", "french_setup", _french())
    assert (t.state.round, t.state.active) == (1, "AL")
    t.play("AL", "enter_reinforcement", {"command": "corps_move", "commander": off[0],
                                         "entry": "EA2", "path": [36]})
    assert t.state.commanders[off[0]].loc == 36
    assert t.state.morale == {"F": 23, "AL": 27}  # no surprise bonus for the Allies


def test_t65_no_auction_without_the_option_balance_by_agreement() -> None:
    """NT-T65: without the option {"balance": "auction"} auction_bid is refused with NT-134
    (pass with NT-135; the auction itself: test_rule_defects_e5.py); the balance by agreement
    reduces one side's starting morale. NT-133."""
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(1))
    bid = RULESET.validate(state, Action("allied", "auction_bid", {"amount": 0}))
    assert bid[0].rule == "NT-134"
    assert RULESET.validate(state, Action("french", "auction_pass", {}))[0].rule == "NT-135"
    state = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz",
                                              "balance": {"side": "AL", "reduce": 3}}), Rng(1))
    assert state.morale == {"F": 23, "AL": 24}
    with pytest.raises(Illegal) as err:
        RULESET.setup(GameConfig("DEC2", {"board": "austerlitz",
                                          "balance": {"side": "F", "reduce": 23}}), Rng(1))
    assert err.value.rejection.rule == "NT-135"  # AMB-35: never below 1


# ----------------------------------------------------------------------------- the Santon


def test_t66_santon_battery_set_up_in_reserve() -> None:
    """NT-T66: with the Santon option the battery detached onto the Santon (locale 6) must be in
    reserve and stays there. NT-138, NT-24."""
    t = _after_allied(options={"santon": True})
    blocking = _french([_det("F01", 6, "A010")], battery={"unit": "F01", "approach": None})
    assert t.refuse("F", "french_setup", blocking).rule == "NT-138"
    named = _french([_det("F01", 6)], battery={"unit": "F01", "approach": "A010"})
    assert t.refuse("F", "french_setup", named).rule == "NT-138"
    t.play("F", "french_setup", _french([_det("F01", 6)], battery={"unit": "F01"}))
    fb = t.unit("F01")
    assert (fb.loc, fb.app, fb.fixed, fb.revealed) == (6, None, True, True)


def _santon(name: str, pieces: list[str], active: str = "AL") -> Table:
    board = pair(name, santon="Y", specs={"XY": Spec(sides={"Y": {"penalties": ["I"]}})})
    state = position(board, pieces, active=active, options={"santon": True})
    state.units["fb"].fixed = True
    state.units["fb"].revealed = True
    return Table(state)


def test_t66_santon_battery_defends_from_reserve() -> None:
    """NT-T66: fb leads the defense from the Santon's reserve; the Santon penalty applies
    (R = 3 - 0 - 1 - 1 = +1, AMB-36); LD = 1 + 1 - 1 = 1, placed by F on a named unit.
    NT-137..NT-139, NT-86, NT-91."""
    t = _santon("t66d", ["AL a1 INF3 @X.R [-]", "AL a2 INF2 @X.R [-]", "F fb ART1 @Y.R [-]",
                         "F f2 INF2 @Y.R [lannes]", "F f3 INF2 @Y.R [lannes]"])
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("F", "defend", {"named": ["fb", "f2", "f3"], "leading": ["fb"]})
    t.play("AL", "no_feint")
    t.play("AL", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "a1"}],
                                    "leading": ["a1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim == 1
    t.play("F", "counter", {"units": []})
    assert t.face("a1") == "INF2"  # LA = 1
    assert t.state.pending is not None
    assert t.state.pending.kind == "assign_losses"
    assert t.state.pending.side == "F"
    assert t.refuse("F", "assign_losses", {"losses": [{"unit": "fb", "sp": 1}]}).rule == "NT-90"
    t.play("F", "assign_losses", {"losses": [{"unit": "f3", "sp": 1}]})
    assert t.face("f3") == "INF1"
    assert t.face("fb") == "ART1"
    assert t.state.morale == {"F": 22, "AL": 27}


def test_t66_other_artillery_on_the_santon_cannot_lead() -> None:
    """NT-T66: another F artillery unit on the Santon cannot lead a defense. NT-137."""
    t = _santon("t66o", ["AL a1 INF3 @X.R [-]", "F r1 ART1 @Y.XY [-]", "F fb ART1 @Y.YZ1 [-]"])
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    assert t.refuse("F", "defend", {"named": ["r1"], "leading": ["r1"]}).rule == "NT-137"
    t.play("F", "defend", {"named": ["r1"], "leading": []})


def test_t66_santon_battery_attacks_across_any_approach() -> None:
    """NT-T66: fb makes an artillery attack from the Santon's reserve across YZ1 and, next turn,
    across XY; it never moves, and it cannot join a non-artillery attack. NT-138, NT-24, NT-93."""
    t = _santon("t66a", ["F fb ART1 @Y.R [-]", "F f2 INF2 @Y.R [-]",
                         "AL z1 INF2 @Z1.XY [-]", "AL z2 INF2 @Z1.YZ1 [-]",
                         "AL x1 INF2 @X.XY [-]"], active="F")
    t.play("F", "threaten", {"attack_locale": 2, "approach": "YZ1"})
    t.play("AL", "defend", {"named": ["z2"], "leading": ["z2"]})
    t.play("F", "no_feint")
    assert t.refuse("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "fb"}],
                                            "leading": []}).rule == "NT-24"
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "fb"}],
                                   "leading": ["fb"]})
    assert t.face("z2") == "INF1"  # R = 1, LD = 0 + 1 - 0
    assert (t.unit("fb").loc, t.unit("fb").app) == (2, None)
    assert t.state.last_artillery == {"F|YZ1|2": 1}
    t.play("F", "end_turn")
    t.play("AL", "end_turn")
    t.play("F", "threaten", {"attack_locale": 2, "approach": "XY"})
    t.play("AL", "defend", {"named": ["x1"], "leading": []})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "fb"}],
                                   "leading": ["fb"]})
    assert t.face("x1") == "INF1"
    assert (t.unit("fb").loc, t.unit("fb").app) == (2, None)


# ----------------------------------------------------------------------------- views


class Play:
    """Applies actions and keeps each role's own log."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.logs: dict[str, list[str]] = {"french": [], "allied": []}

    def __call__(self, role: str, kind: str, payload: JSON = None) -> None:
        action = Action(role, kind, {} if payload is None else payload)
        assert not RULESET.validate(self.state, action), kind
        step = RULESET.apply(self.state, action, Rng(0))
        self.state = step.state
        for r, lines in self.logs.items():
            lines.extend(RULESET.log_for(step.log, r))

    def enemy_faces(self, role: str) -> dict[str, JSON]:
        view = RULESET.view(self.state, role)
        assert isinstance(view, dict)
        units = view["enemy_units"]
        assert isinstance(units, list)
        return {str(u["id"]): u["face"] for u in units if isinstance(u, dict)}


def _views_position(name: str, attacker: str = "INF3") -> Play:
    board = pair(name)
    return Play(position(board, [f"F u1 {attacker} @X.R [-]", "AL a1 INF3 @Y.R [k]",
                                 "AL a2 INF2 @Y.R [k]"]))


def test_t67_views_of_a_committed_leader() -> None:
    """NT-T67: F sees a1, a2 named with face null; after no_feint a1's face; after the attack null
    again while F's log keeps the face under that turn's alias; aliases are re-drawn at the turn
    end. NT-74, NT-80, NT-96, V-1, V-2, V-5."""
    p = _views_position("t67")
    p("french", "threaten", {"attack_locale": 1, "approach": "XY"})
    p("allied", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    alias1 = unit_alias(p.state, "F", "a1")
    alias2 = unit_alias(p.state, "F", "a2")
    view = RULESET.view(p.state, "french")
    assert isinstance(view, dict)
    atk = view["attack"]
    assert isinstance(atk, dict)
    assert atk["named"] == sorted([alias1, alias2])
    assert "committed_leading" not in atk
    assert "a1" not in str(view)
    assert "a2" not in str(view)
    assert p.enemy_faces("french") == {alias1: None, alias2: None}
    allied = RULESET.view(p.state, "allied")
    assert isinstance(allied, dict)
    assert isinstance(allied["attack"], dict)
    assert allied["attack"]["committed_leading"] == ["a1"]
    p("french", "no_feint")
    assert p.enemy_faces("french") == {alias1: {"type": "INF", "strength": 3}, alias2: None}
    p("french", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})
    # R = 3 - 3 = 0; 1 attacking unit vs 2 named: AL leads; no counter: AL wins
    p("allied", "counter", {"units": []})
    p("allied", "hold", {"pieces": ["a1"]})
    assert p.state.attack is None
    assert p.state.units["a1"].strength == 2  # LD = 1
    assert p.enemy_faces("french") == {alias1: None, alias2: None}
    assert any(f"{alias1} (INF3)" in line for line in p.logs["french"])
    assert not any("a1" in line.split() or "a1 (" in line for line in p.logs["french"])
    p("french", "end_turn")
    new1 = unit_alias(p.state, "F", "a1")
    assert new1 != alias1
    assert set(p.enemy_faces("french")) == {new1, unit_alias(p.state, "F", "a2")}


def test_t67_feint_hides_the_committed_leader() -> None:
    """NT-T67: after a feint a1's committed leading choice appears neither in F's view nor in F's
    log (the Allied log has it). NT-78, NT-80, digest 4.6."""
    p = _views_position("t67f", attacker="INF2")  # so no INF3 of F's own appears in F's log
    p("french", "threaten", {"attack_locale": 1, "approach": "XY"})
    p("allied", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    alias1 = unit_alias(p.state, "F", "a1")
    p("french", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                  "end": "block"})
    p("allied", "feint_hold", {"pieces": ["a2"]})
    assert p.state.attack is None
    assert p.enemy_faces("french") == {alias1: None, unit_alias(p.state, "F", "a2"): None}
    assert not any("committed" in line or "INF3" in line for line in p.logs["french"])
    assert any("committed" in line and "a1" in line for line in p.logs["allied"])
