"""Team play: the step-(4) leading units bundled with the step-(2) answer (NT 4.6 "S2 bundle")
stand only while the decision authority stays with the seat that named (digest
napoleons-triumph-team.md 2.8, NT-TEAM-41..43, SRV-2 (c); tests NT-TEAM-T28, T29). Otherwise the
bundle is discarded unopened (only the omniscient reader is told) and step (4) opens the
`defense_leading` decision for the seat now holding the authority, with a documented default,
that seat's own standing answer and a random answer. Real team games on board TB (5.1)."""

from __future__ import annotations

from games.core.protocol import JSON, OMNISCIENT, SYSTEM, Action, LogEntry
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.decisions import DECISIONS, default_answer, random_answer
from games.napoleons_triumph.policies import strongest_leading
from games.napoleons_triumph.state import AL, F, GameState
from games.napoleons_triumph.team import engine as TE
from games.napoleons_triumph.team import engine_state as ES
from games.napoleons_triumph.team import phases as ph
from games.napoleons_triumph.team.engine_state import TeamData
from tests.support.napoleons_triumph import Table, position
from tests.support.napoleons_triumph_team import tb

BOARD = tb()
MEMBERS = {AL: ["AL1", "AL2", "AL3"], F: ["F1", "F2"]}
CORPS = {  # 5.1 (the TB commanders a case does not name go to the CinC)
    AL: {
        "kienmayer": "AL1",
        "langeron": "AL2",
        "dokhturov": "AL2",
        "kollowrath": "AL3",
        "bagration": "AL1",
        "liechtenstein": "AL1",
    },
    F: {"vandamme": "F1", "legrand": "F1", "st-hilaire": "F2", "davout": "F2"},
}
FRENCH_ATTACKERS = [
    "F f1 INF3 @L3.R [vandamme]",
    "F f2 INF3 @L3.R [vandamme]",
    "F f3 INF3 @L3.R [vandamme]",
]
THREAT: dict[str, JSON] = {"attack_locale": 3, "approach": "A34"}
T27 = [  # T27/T28: only detached units in 4; kienmayer 7, langeron 8, kollowrath 5
    "AL a1 INF1 @L4.A34 [-]",
    "AL a2 INF1 @L4.A34 [-]",
    "AL k1 INF2 @L7.R [kienmayer]",
    "AL l1 INF2 @L8.R [langeron]",
    "AL c1 INF2 @L5.R [kollowrath]",
]
T29 = [  # T29: kienmayer's (AL1) and kollowrath's (AL3) corps in the reserve of 4
    "AL k1 INF2 @L4.R [kienmayer]",
    "AL k2 INF1 @L4.R [kienmayer]",
    "AL c1 INF2 @L4.R [kollowrath]",
    "AL c2 INF2 @L4.R [kollowrath]",
    "AL c3 INF1 @L4.R [kollowrath]",
]
PASSES: list[JSON] = ["c1", "c2", "kollowrath"]  # T29: kollowrath named, kienmayer not -> AL3
STAYS: list[JSON] = ["k1", "kienmayer", "c1", "kollowrath"]  # T29: both named -> AL1 keeps it
DISCARDED = "bundle discarded (NT-TEAM-41)"


def _agree(layer: ph.TeamState, order: tuple[str, ...]) -> ph.TeamState:
    layer = ph.apply(layer, ph.SetRanks(order[0], order)).state
    for role in order:
        layer = ph.apply(layer, ph.ConfirmRanks(role, order)).state
    return layer


def team_game(pieces: list[str]) -> GameState:
    """A team game in play on board TB: the French team turn of round 1, F1's part (ranks in
    role order, the 5.1 corps assignment, both initial conferences closed)."""
    state = position(BOARD, [*pieces, *FRENCH_ATTACKERS], active=F)
    state.roles = {r: side for side, roles in MEMBERS.items() for r in roles}
    state.options = {"team_play": True}
    layer = ph.new_state("DEC2", state.options, MEMBERS, ph.commanders_of(BOARD))
    layer = ph.on_engine_phase(layer, ph.EnginePoint("setup_AL", 1, AL, False, (), ())).state
    for side in (AL, F):
        cinc = MEMBERS[side][0]
        layer = _agree(layer, tuple(MEMBERS[side]))
        layer = ph.apply(layer, ph.AssignCorps(cinc, tuple(CORPS[side].items()))).state
        layer = ph.apply(layer, ph.CloseConference(cinc)).state
    data = TeamData(layer)
    TE._sync(state, data, BOARD, [])  # the team turn of F begins (NT-TEAM-32)
    state.team = ES.dump(data)
    return state


class Game:
    """Plays a team game and keeps every log entry."""

    def __init__(self, pieces: list[str]) -> None:
        self.state = team_game(pieces)
        self.entries: list[LogEntry] = []

    def play(self, role: str, kind: str, payload: JSON = None) -> GameState:
        action = Action(role, kind, {} if payload is None else payload)
        rejections = R.validate(self.state, action)
        assert not rejections, f"{role} {kind} rejected: {rejections}"
        step = R.apply(self.state, action, Rng(0))
        self.state = step.state
        self.entries += step.log
        return self.state

    def refused(self, role: str, kind: str, payload: JSON) -> str:
        rejections = R.validate(self.state, Action(role, kind, payload))
        assert rejections, f"{role} {kind} {payload} was accepted"
        return rejections[0].rule

    def decider(self) -> str | None:
        return TE.decider(TE.data_of(self.state), self.state, BOARD)

    def lines(self, role: str) -> list[str]:
        return [e.text for e in self.entries if e.audience is None or role in e.audience]

    def pending_kind(self) -> str | None:
        return None if self.state.pending is None else self.state.pending.kind


def threatened(pieces: list[str]) -> Game:
    g = Game(pieces)
    g.play("F1", "threaten", THREAT)
    return g


def test_nt_team_t28_no_commander_named_the_bundle_stands() -> None:
    """NT-TEAM-42 (T28): AL2 (step 2, T27) names the two detached blockers with a1 leading; no
    commander named, so the authority stays with AL2 and the bundle is opened at step (4)."""
    g = threatened(T27)
    assert g.decider() == "AL2"
    g.play("AL2", "defend", {"named": ["a1", "a2"], "leading": ["a1"]})
    g.play("F1", "no_feint")
    atk = g.state.attack
    assert atk is not None
    assert atk.def_leading == ["a1"]
    assert g.pending_kind() == "declare"
    assert not any(DISCARDED in e.text for e in g.entries)


def test_nt_team_t29_authority_passes_down_the_bundle_is_discarded_unopened() -> None:
    """NT-TEAM-41, -43 (T29): AL1 names kollowrath and two of his units (not kienmayer) with c1
    leading: the authority passes to AL3; the bundle is cleared at once, told only to the
    omniscient reader; at step (4) AL3 (not AL1) chooses the leading units."""
    g = threatened(T29)
    assert g.decider() == "AL1"
    g.play("AL1", "defend", {"named": PASSES, "leading": ["c1"]})
    atk = g.state.attack
    assert atk is not None
    assert atk.committed_leading == []
    discarded = [e for e in g.entries if DISCARDED in e.text]
    assert [e.audience for e in discarded] == [frozenset({OMNISCIENT})]
    assert "c1" in discarded[0].text
    for role in ("AL1", "AL2", "AL3", "F1", "F2"):
        assert not any("committed" in t or DISCARDED in t for t in g.lines(role)), role
    view = R.view(g.state, "AL1")
    assert isinstance(view, dict)
    assert isinstance(view["attack"], dict)
    assert view["attack"]["committed_leading"] == []
    g.play("F1", "no_feint")
    assert g.pending_kind() == "defense_leading"
    assert g.decider() == "AL3"
    assert set(R.prompts(g.state)) == {"AL3"}
    assert g.refused("AL1", "lead_defense", {"leading": ["c1"]}) == "NT-TEAM-43"
    # the same legality checks as the bundle (NT-79)
    assert g.refused("AL3", "lead_defense", {"leading": ["k1"]}) == "NT-79"  # not named
    assert g.refused("AL3", "lead_defense", {"leading": ["c1", "c2"]}) == "NT-79"  # narrow
    g.play("AL3", "lead_defense", {"leading": ["c2"]})
    atk = g.state.attack
    assert atk is not None
    assert atk.def_leading == ["c2"]
    assert g.state.units["c2"].revealed
    assert g.pending_kind() == "declare"
    assert any("defense leading units c-" in t for t in g.lines("F1"))  # revealed to the French


def test_nt_team_t29_own_commander_named_the_bundle_stands() -> None:
    """NT-TEAM-43 (T29): AL1 names kienmayer and kollowrath: the authority stays with AL1 and
    the committed k1 leads at step (4), with no further decision."""
    g = threatened(T29)
    g.play("AL1", "defend", {"named": STAYS, "leading": ["k1"]})
    atk = g.state.attack
    assert atk is not None
    assert atk.committed_leading == ["k1"]
    g.play("F1", "no_feint")
    atk = g.state.attack
    assert atk is not None
    assert atk.def_leading == ["k1"]
    assert g.pending_kind() == "declare"
    assert not any(DISCARDED in e.text for e in g.entries)


def test_nt_team_41_after_a_feint_the_discarded_bundle_is_never_asked_for() -> None:
    """SRV-2 (c): a feint has no step (4); the discarded bundle leaves no decision behind."""
    g = threatened(T29)
    g.play("AL1", "defend", {"named": PASSES, "leading": ["c1"]})
    feint: dict[str, JSON] = {"commands": [{"kind": "unit_move", "unit": "f1"}], "end": "reserve"}
    g.play("F1", "declare_feint", feint)
    seen = []
    while g.state.pending is not None:
        p = g.state.pending
        seen.append(p.kind)
        role = g.decider()
        assert role is not None
        kind, payload = default_answer(R.ctx(g.state), p)
        g.play(role, kind, payload)
    assert "defense_leading" not in seen


def test_two_player_game_still_uses_the_bundle() -> None:
    """Two-player games are unchanged: the same naming of T29 keeps the bundle (NT-79, NT-80)."""
    t = Table(position(BOARD, [*T29, *FRENCH_ATTACKERS], active=F))
    t.play(F, "threaten", THREAT)
    t.play(AL, "defend", {"named": PASSES, "leading": ["c1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.committed_leading == ["c1"]
    t.play(F, "no_feint")
    atk = t.state.attack
    assert atk is not None
    assert atk.def_leading == ["c1"]
    assert t.state.pending is not None
    assert t.state.pending.kind == "declare"
    assert not any(DISCARDED in line for line in t.log)


def _at_step4(plans: dict[str, JSON] | None = None) -> Game:
    g = threatened(T29)
    for role, plan in (plans or {}).items():
        g.play(role, "set_defense_plan", plan)
    g.play("AL1", "defend", {"named": PASSES, "leading": []})
    g.play("F1", "no_feint")
    return g


def _plan(leading: str, mode: str = "defend") -> JSON:
    return {"scope": {"default": True}, "on_threat": {"mode": mode, "leading": leading}}


def test_defense_leading_default_is_the_two_player_default_leading() -> None:
    """Digest 4.7: the deadline default is D-LEAD over the named units (policies.default_defend's
    leading choice); a deadline applies it."""
    g = _at_step4()
    pending = g.state.pending
    atk = g.state.attack
    assert pending is not None
    assert pending.kind == "defense_leading"
    assert atk is not None
    ctx = R.ctx(g.state)
    strongest = strongest_leading(ctx, atk, atk.named)
    assert strongest
    assert set(strongest) <= {"c1", "c2"}
    assert default_answer(ctx, pending) == ("lead_defense", {"leading": strongest})
    g.play(SYSTEM, ".deadline")
    atk = g.state.attack
    assert atk is not None
    assert atk.def_leading == strongest
    assert g.pending_kind() == "declare"


def test_defense_leading_standing_answer_is_the_new_deciders_own_plan() -> None:
    """SRV-1, NT-TEAM-43: AL3's own plan answers step (4) (on_threat.leading)."""
    for leading in ("strongest", "none"):
        g = _at_step4({"AL3": _plan(leading)})
        atk = g.state.attack
        assert atk is not None
        assert g.pending_kind() == "declare"
        want = strongest_leading(R.ctx(g.state), atk, atk.named) if leading == "strongest" else []
        assert atk.def_leading == want, leading
        assert (leading == "none") == (want == [])


def test_defense_leading_takes_no_teammates_plan() -> None:
    """SRV-1: the plans of AL2 (not involved) never answer AL3's decision; AL3's "ask" plan
    leaves it open too."""
    for plans in ({"AL2": _plan("strongest")}, {"AL3": _plan("strongest", mode="ask")}):
        g = _at_step4(plans)
        assert g.pending_kind() == "defense_leading", plans
        assert g.decider() == "AL3"


def test_defense_leading_random_answer_text_order_and_choices_are_legal() -> None:
    """The random player's answer, the text order `lead ...` and every offered choice are legal
    answers of AL3."""
    g = _at_step4()
    assert set(DECISIONS["defense_leading"].answers) == {"lead_defense"}
    ctx = R.ctx(g.state)
    legal = 0
    for seed in range(20):  # drawn from the named units; the random player retries NT-79 ones
        kind, payload = random_answer(ctx, AL, Rng(seed))
        assert kind == "lead_defense"
        rejections = R.validate(g.state, Action("AL3", kind, payload))
        assert not rejections or rejections[0].rule == "NT-79", rejections
        legal += not rejections
    assert legal >= 5
    parsed = R.parse_text(g.state, "AL3", "lead c2")
    assert isinstance(parsed, tuple | list)
    assert [(a.kind, a.payload) for a in parsed] == [("lead_defense", {"leading": ["c2"]})]
    specs = {s.kind: s for s in R.actions(g.state, "AL3")}
    choices = specs["lead_defense"].choices
    assert isinstance(choices, dict)
    assert isinstance(choices["payloads"], list)
    offered = choices["payloads"]
    assert {"leading": []} in offered
    assert {"leading": ["c2"]} in offered
    for offer in offered:
        assert isinstance(offer, dict)
        assert not R.validate(g.state, Action("AL3", "lead_defense", offer)), offer
