"""Rule defects fixed against the German rulebook (seed 002): NT-19, NT-32, NT-61, NT-142,
AMB-18 and NT-TEAM.

Each test is named after its rule id and quotes the rulebook line it follows."""

from __future__ import annotations

import copy

import pytest

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.decisions import default_answer
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.random_setup import draw_setup as random_setup
from games.napoleons_triumph.scenario import AMB_DEFAULTS, KNOWN_OPTIONS
from games.napoleons_triumph.state import GameState
from tests.support.napoleons_triumph import Table, pair, position

X, Y, W = 1, 2, 5

# ----------------------------------------------------------------------------- NT-61


def _new(**options: JSON) -> GameState:
    return RULESET.setup(GameConfig("DEC2", {"board": "austerlitz", **options}), Rng(1))


def _after_allied() -> Table:
    """The small board with a random legal Allied set-up applied (as test_examples_setup_view)."""
    state = _new()
    for seed in range(20):
        payload = random_setup(RULESET.ctx(state), "AL", Rng(seed))
        if not RULESET.validate(state, Action("allied", "allied_setup", payload)):
            t = Table(state)
            t.play("AL", "allied_setup", payload)
            return t
    raise AssertionError("no legal Allied set-up found")


def _waiting(name: str) -> Table:
    board = pair(
        name,
        roads=[("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)],
        entries=[("EF", "F", "W", 0, "local", False)],
        commanders=[("davout", "F", None, True)],
    )
    return Table(position(board, ["F d1 CAV2 @off [davout]", "F d2 INF2 @off [davout]",
                                  "AL a1 INF2 @Y.R [-]"]))  # fmt: skip


def test_nt61_entering_corps_move_cannot_detach() -> None:
    """NT-61, rulebook L308: "Dieses Kommando kann eine Regiment-Bewegung oder eine
    Korps-Bewegung sein. Im ersten Fall werden die Verstärkungen vom Korps detachiert und kommen
    als einzelne Regimenter ins Spiel; im letzteren Fall kommen sie zusammen als Korps". A
    `detach` on an entering Corps Move was dropped without a word; it is now refused by NT-61
    (not a form error: the schema knows the field), as are fields of the other command."""
    corps: dict[str, JSON] = {
        "command": "corps_move", "commander": "davout", "entry": "EF", "path": [W]}  # fmt: skip
    assert RULESET.payload_errors("enter_reinforcement", {**corps, "detach": ["d2"]}) == ()
    t = _waiting("e4nt61")
    refused = t.refuse("F", "enter_reinforcement", {**corps, "detach": ["d2"]})
    assert (refused.rule, refused.path) == ("NT-61", "/detach")
    assert "together as a corps" in refused.message
    unit: dict[str, JSON] = {"command": "unit_move", "unit": "d1", "entry": "EF", "path": [W]}
    assert t.refuse("F", "enter_reinforcement", {**unit, "detach": ["d2"]}).rule == "NT-61"
    wrong = t.refuse("F", "enter_reinforcement", {**unit, "commander": "davout"})
    assert (wrong.rule, wrong.path) == ("NT-61", "/commander")
    wrong = t.refuse("F", "enter_reinforcement", {**corps, "unit": "d1"})
    assert (wrong.rule, wrong.path) == ("NT-61", "/unit")
    assert all(t.unit(u).where == "offmap" for u in ("d1", "d2"))
    t.play("F", "enter_reinforcement", {**corps, "detach": []})
    assert [(t.unit(u).loc, t.unit(u).corps) for u in ("d1", "d2")] == [
        (W, "davout"), (W, "davout")]  # fmt: skip


# ----------------------------------------------------------------------------- NT-32


# A legal French organisation on the small board (as test_examples_setup_view): Lannes (locale 8)
# holds F01 (ART1); here his four other units are detached to locale 9, so F01 is his last unit.
FRENCH_CORPS: list[JSON] = [
    {"commander": "bernadotte", "units": ["F04", "F12", "F13", "F14"], "off_map": True},
    {"commander": "davout", "units": ["F05", "F15", "F16", "F17"], "off_map": True},
    {"commander": "legrand", "units": ["F18", "F19", "F20"]},
    {"commander": "st-hilaire", "units": ["F21", "F22", "F23", "F28"]},
    {"commander": "vandamme", "units": ["F24", "F25", "F26", "F29"]},
    {"commander": "lannes", "units": ["F01", "F27", "F30", "F31", "F06"], "approach": None},
    {"commander": "murat", "units": ["F07", "F08", "F09", "F10", "F11"]},
    {"commander": "bessieres", "units": ["F02", "F03", "F32", "F33", "F34", "F35", "F36"]},
]


def _lannes_alone(corps_approach: str | None) -> dict[str, JSON]:
    corps = copy.deepcopy(FRENCH_CORPS)
    lannes = corps[5]
    assert isinstance(lannes, dict)
    lannes["approach"] = corps_approach
    detached: list[JSON] = [
        {"unit": u, "position": {"locale": 9, "approach": None}}
        for u in ("F27", "F30", "F31", "F06")
    ]
    return {
        "corps": corps,
        "detachments": detached,
        "fixed_battery": {"unit": "F01", "approach": "A013"},
    }


def test_nt32_fixed_battery_may_stay_the_last_unit_blocking_with_its_corps() -> None:
    """NT-32, rulebook L203: "Ein Kommandeur kann sein letztes Regiment nicht detachieren." and
    NT-24, L175: "Befindet sie sich in Reserve, wird sie umgesetzt, so daß sie einen Zugang
    ihrer Stellung blockiert." A battery that already blocks with its corps is not moved and
    not detached, so it may be its commander's last unit; one in reserve still may not (it
    would leave Lannes alone)."""
    t = _after_allied()
    t.play("F", "french_setup", _lannes_alone("A013"))
    fb = t.unit("F01")
    assert (fb.loc, fb.app, fb.corps, fb.fixed, fb.revealed) == (8, "A013", "lannes", True, True)
    assert (t.state.commanders["lannes"].loc, t.state.commanders["lannes"].app) == (8, "A013")
    t = _after_allied()
    refused = t.refuse("F", "french_setup", _lannes_alone(None))
    assert (refused.rule, refused.path) == ("NT-32", "/fixed_battery")


# ----------------------------------------------------------------------------- AMB-18


def _feint_on_k(name: str, named: list[JSON], units: int = 2) -> Table:
    """F (Vandamme, two units in X's reserve) feints across XY against k's corps in Y's reserve,
    which names `named`; the feint ends in reserve, so AL must block with a named unit."""
    board = pair(name)
    pieces = ["F v1 INF3 @X.R [vandamme]", "F v2 INF2 @X.R [vandamme]"]
    pieces += [f"AL a{i} INF2 @Y.R [k]" for i in range(1, units + 1)]
    t = Table(position(board, pieces))
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "defend", {"named": named, "leading": []})
    t.play("F", "declare_feint", {"commands": [{"kind": "corps_move", "commander": "vandamme"}],
                                  "end": "reserve"})  # fmt: skip
    return t


def test_amb18_nt32_unnamed_commander_does_not_follow_his_last_units() -> None:
    """AMB-18 (`commander_follow_requires_named`, on) with NT-78, rulebook L357: "muß der
    Verteidiger ... den Verteidiger-Zugang mit mindestens 1 von diesen blockieren ... Teilt er
    ein Korps auf, so sind alle Regimenter, die nicht bei ihrem Kommandeur bleiben, detachiert."
    and NT-32, L203: "Ein Kommandeur kann sein letztes Regiment nicht detachieren." k was not
    named (L343 lets units be named without him), so he stays in reserve: sending all his units
    to block, which used to take him along, is refused; one of them must stay with him."""
    t = _feint_on_k("e4amb18", ["a1", "a2"])
    assert t.state.pending is not None
    assert t.state.pending.kind == "feint_hold"
    refused = t.refuse("AL", "feint_hold", {"pieces": ["a1", "a2"]})
    assert (refused.rule, refused.path) == ("NT-32", "/pieces")
    assert "AMB-18" in refused.message
    assert "k was not named" in refused.message
    assert t.refuse("AL", "feint_hold", {"pieces": ["a1", "a2", "k"]}).rule == "NT-78"
    kind, default = default_answer(RULESET.ctx(t.state), t.state.pending)
    pieces = default["pieces"]
    assert kind == "feint_hold"
    assert isinstance(pieces, list)
    assert len(pieces) == 1
    assert not RULESET.validate(t.state, Action("allied", kind, default))
    t.play("AL", "feint_hold", {"pieces": ["a2"]})
    assert (t.unit("a2").app, t.unit("a2").corps) == ("XY", None)
    assert (t.unit("a1").app, t.unit("a1").corps) == (None, "k")
    assert t.state.commanders["k"].app is None
    assert t.state.attack is None


def test_amb18_nt142_last_unit_of_an_unnamed_commander_cannot_block() -> None:
    """AMB-18 with NT-142 (digest: "If a feint leaves no named reserve unit that may move, the
    duty to block ... lapses") and NT-32, rulebook L203: "Ein Korps kann niemals nur aus einem
    Kommandeur bestehen." a1 is k's only unit and k was not named: a1 may not leave him, so the
    feint ends without a hold (it used to take k along)."""
    t = _feint_on_k("e4amb18b", ["a1"], units=1)
    assert t.state.pending is None
    assert t.state.attack is None
    assert (t.unit("a1").app, t.unit("a1").corps) == (None, "k")
    assert t.state.commanders["k"].app is None
    named = _feint_on_k("e4amb18c", ["a1", "k"], units=1)  # named, he follows his last unit
    named.play("AL", "feint_hold", {"pieces": ["a1"]})
    assert (named.unit("a1").app, named.state.commanders["k"].app) == ("XY", "XY")
    assert named.unit("a1").corps == "k"


# ----------------------------------------------------------------------------- NT-TEAM


def test_ntteam_team_roles_are_refused_until_team_play_exists() -> None:
    """NT-TEAM / NT-140, rulebook L658: "Mit der folgenden Regel kann Napoleons Triumph als
    Team-Spiel gespielt werden (bis zu 4 Spieler je Team)." Chapter 19 is not built, so
    `options.roles` giving a side two roles was accepted and then not honoured (no ranking, no
    shared command limits); it is refused by NT-TEAM. One role per side (a renaming) is still
    honoured, and `roles()` never lists roles that set-up refuses."""
    team: dict[str, JSON] = {"a1": "AL", "a2": "AL", "f1": "F"}
    with pytest.raises(Illegal) as e:
        _new(roles=team)
    assert (e.value.rejection.rule, e.value.rejection.path) == ("NT-TEAM", "/options/roles")
    assert "team play" in e.value.rejection.message
    assert "a1, a2" in e.value.rejection.message
    assert [r.id for r in RULESET.roles("DEC2", {"roles": team})] == ["allied", "french"]
    with pytest.raises(Illegal) as e:
        _new(roles={"@system": "AL", "f": "F"})
    assert e.value.rejection.rule == "NT-140"
    state = _new(roles={"red": "AL", "blue": "F"})
    assert state.roles == {"red": "AL", "blue": "F"}
    assert list(RULESET.prompts(state)) == ["red"]
    infos = RULESET.roles("DEC2", {"roles": {"red": "AL", "blue": "F"}})
    assert sorted((r.id, r.team) for r in infos) == [("blue", "F"), ("red", "AL")]


def test_nt19_every_known_option_is_honoured_or_refused() -> None:
    """NT-19 (digest section 6, options): an option is honoured or refused, never accepted and
    ignored: every key of KNOWN_OPTIONS is one of the options the
    engine reads, or an AMB default whose non-default values are refused."""
    assert KNOWN_OPTIONS - set(AMB_DEFAULTS) == {
        "board", "board_data", "board_fragment", "santon", "balance", "roles",
        "team_play", "conference_notes_allowed", "team"}  # fmt: skip  (team play: team/engine.py)
    for key, value in AMB_DEFAULTS.items():
        other: JSON = (not value) if isinstance(value, bool) else f"not-{value}"
        with pytest.raises(Illegal) as e:
            _new(**{key: other})
        assert (e.value.rejection.rule, e.value.rejection.path) == ("NT-19", f"/options/{key}")
