"""The team set-up machine wired into the engine (rulebook 19, L688-694; digest 2.5
NT-TEAM-27..31, phases SETUP_5..9 of 3.2, test cases NT-TEAM-T12..T15; team/setup_play.py):
who is prompted with which kinds, the rules and error codes of every step in a real team game,
the engine's own set-up applied by the action that finishes a side (and its refusal), the
visibility of the set-up (a team's secret until applied), a side of one seat, the deadline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from jsonschema import Draft202012Validator

from games.core.protocol import JSON, OBSERVER, OMNISCIENT, SYSTEM, Action, GameConfig
from games.core.protocol import random_legal_action as random_legal
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.board import board_named
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.random_setup import draw_setup
from games.napoleons_triumph.state import GameState, dump
from games.napoleons_triumph.team import engine_state as ES
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team.engine import data_of
from games.napoleons_triumph.team.randomplay import team_options
from tests.support.napoleons_triumph_team import AL_CORPS, F_CORPS

BOARD = board_named("austerlitz")
VIEWS = Draft202012Validator(R.view_schema())  # type: ignore[arg-type]
ROLES: dict[str, JSON] = {"AL1": "AL", "AL2": "AL", "AL3": "AL", "F1": "F", "F2": "F"}
RANKS = {"AL": ("AL1", "AL2", "AL3"), "F": ("F1", "F2")}
CORPS: dict[str, Mapping[str, str]] = {"AL": AL_CORPS, "F": F_CORPS}


# --- helpers -------------------------------------------------------------------------------------


def new(scenario: str = "DEC2", roles: Mapping[str, JSON] = ROLES) -> GameState:
    options: dict[str, JSON] = {"board": "austerlitz", "team_play": True, "roles": dict(roles)}
    return R.setup(GameConfig(scenario, options), Rng.for_event(b"wired", 0))


def act(state: GameState, role: str, kind: str, payload: JSON = None) -> GameState:
    action = Action(role, kind, payload)
    bad = R.validate(state, action)
    assert not bad, (action, bad)
    return R.apply(state, action, Rng(7)).state


def refusal(state: GameState, role: str, kind: str, payload: JSON = None) -> tuple[str, str]:
    """(rule, code) of a refused action; the code is the digest's (`code: message`)."""
    bad = R.validate(state, Action(role, kind, payload))
    assert bad, f"{kind} by {role} was accepted"
    return bad[0].rule, bad[0].message.split(":")[0]


def conferences(state: GameState) -> GameState:
    """Both initial conferences with the fixture's ranks and corps (5.1), closed."""
    for side, order in RANKS.items():
        ranks: JSON = {r: i + 1 for i, r in enumerate(order)}
        state = act(state, order[0], "set_ranks", {"ranks": ranks})
        for r in order:
            state = act(state, r, "confirm_ranks", {"ranks": ranks})
        corps: JSON = dict(CORPS[side])
        state = act(state, order[0], "assign_corps", {"corps": corps})
        state = act(state, order[0], "close_conference")
    return state


def machine(state: GameState) -> su.SideSetup:
    setup = data_of(state).setup
    assert setup is not None
    return setup


def prompted(state: GameState) -> dict[str, list[str]]:
    return {r: sorted(p.kinds) for r, p in R.prompts(state).items()}


def allied_org(state: GameState, starting: Sequence[str] = ()) -> JSON:
    """A legal Allied organization (random_setup.draw_setup), whose corps all fit on the board
    and, in DEC1, with `starting` as a legal starting pair."""
    ctx = Ctx(BOARD, state)
    for seed in range(200):
        drawn = draw_setup(ctx, "AL", Rng(seed))
        corps = drawn["corps"]
        assert isinstance(corps, list)
        org: JSON = {
            "corps": [
                {"commander": c["commander"], "units": c["units"]}
                for c in corps
                if isinstance(c, dict)
            ]
        }
        if R.validate(state, Action("AL1", su.ORGANIZE_CORPS, org)):
            continue
        if starting:
            after = R.apply(state, Action("AL1", su.ORGANIZE_CORPS, org), Rng(1)).state
            if R.validate(after, Action("AL1", su.CHOOSE_STARTING, {"corps": list(starting)})):
                continue
        return org
    raise AssertionError("no legal Allied organization")


def french_org(state: GameState) -> JSON:
    """The French organization of the T14/T15 cases: vandamme 7 units (F1 detaches 5),
    st-hilaire 3 with an artillery unit (F1 takes it as the battery), every corps legal."""
    units = sorted((u for u in state.units.values() if u.side == "F"), key=lambda u: u.id)
    art = [u.id for u in units if u.type == "ART"]
    cav = [u.id for u in units if u.type == "CAV"]
    rest = [u.id for u in units if u.id not in art[:1] and u.id not in cav[:2]]
    sizes = {
        "bernadotte": 3,  # + a cavalry unit: not an infantry unit of strength 2 (NT-22)
        "davout": 3,
        "bessieres": 4,
        "murat": 4,
        "vandamme": 7,
        "st-hilaire": 2,  # + the artillery unit
        "legrand": 3,
    }
    groups = {"bernadotte": [cav[0]], "davout": [cav[1]], "st-hilaire": [art[0]]}
    for cid, n in sizes.items():
        groups.setdefault(cid, [])
        groups[cid] += [rest.pop(0) for _ in range(n)]
    groups["lannes"] = rest
    assert 4 <= len(rest) <= 8
    corps: list[JSON] = [{"commander": c, "units": list[JSON](us)} for c, us in groups.items()]
    return {"corps": corps}


def place_all(state: GameState, role: str) -> GameState:
    setup = machine(state)
    for cid in setup.on_board():
        if setup.owner(cid) == role and cid not in dict(setup.placed):
            state = act(state, role, su.PLACE_CORPS, {"commander": cid, "approach": None})
    return act(state, role, su.END_PART)


def allies_done(state: GameState) -> GameState:
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    for role in RANKS["AL"]:
        state = place_all(state, role)
    assert state.phase == "setup_F"
    return state


def legal_detachment(state: GameState, role: str, unit: str) -> JSON:
    """A position the engine accepts for `unit` (NT-23), found by trying the locales."""
    for loc in sorted(BOARD.locales):
        payload: JSON = {"unit": unit, "position": {"locale": loc, "approach": None}}
        if not R.validate(state, Action(role, su.DETACH_UNIT, payload)):
            return payload
    raise AssertionError(f"no legal detachment for {unit}")


def units_of(state: GameState, commander: str) -> list[str]:
    return next(list(us) for c, us in machine(state).corps if c == commander)


def french_detach_step() -> GameState:
    """DEC2, the Allies set up; F1 organizes the 5.1 corps, both French seats place theirs."""
    state = allies_done(conferences(new()))
    state = act(state, "F1", su.ORGANIZE_CORPS, french_org(state))
    state = place_all(state, "F1")
    state = place_all(state, "F2")
    assert machine(state).step == su.DETACH
    return state


# --- NT-TEAM-27, -28 (T12) -----------------------------------------------------------------------


def test_nt_team_t12_dec1_the_cinc_organizes_and_chooses_the_starting_corps() -> None:
    """NT-TEAM-T12 (NT-TEAM-27, -28): in DEC1 only AL1 is prompted, to organize; AL2's
    organize_corps and choose_starting_corps are 403 not_cinc; AL1 chooses langeron (AL2) and
    kollowrath (AL3), has no corps on the board, and still ends his own placement part."""
    state = conferences(new("DEC1"))
    assert state.phase == "setup_AL"
    assert prompted(state) == {"AL1": [su.ORGANIZE_CORPS]}
    org = allied_org(state, ("langeron", "kollowrath"))
    assert refusal(state, "AL2", su.ORGANIZE_CORPS, org) == ("NT-TEAM-27", "not_cinc")
    state = act(state, "AL1", su.ORGANIZE_CORPS, org)
    assert prompted(state) == {"AL1": [su.CHOOSE_STARTING]}
    pair: JSON = {"corps": ["langeron", "kollowrath"]}
    assert refusal(state, "AL2", su.CHOOSE_STARTING, pair) == ("NT-TEAM-28", "not_cinc")
    assert refusal(state, "AL1", su.CHOOSE_STARTING, {"corps": ["langeron"]})[0] == "NT-TEAM-28"
    state = act(state, "AL1", su.CHOOSE_STARTING, pair)
    assert machine(state).on_board() == ("langeron", "kollowrath")
    assert prompted(state) == {"AL1": [su.END_PART]}  # nothing of his to place (AMB-10)
    state = act(state, "AL1", su.END_PART)
    assert prompted(state) == {"AL2": [su.PLACE_CORPS]}
    state = place_all(state, "AL2")
    state = place_all(state, "AL3")
    assert state.phase == "setup_F"
    on_map = sorted(c for c, cmd in state.commanders.items() if cmd.where == "map")
    assert [c for c in on_map if BOARD.commanders[c].side == "AL"] == ["kollowrath", "langeron"]


def test_the_starting_choice_is_listed_and_judged_by_the_engine() -> None:
    """NT-TEAM-28 with the engine's NT-21: the pairs offered are the legal ones, each of which the
    engine accepts; AL1 is offered no other kind."""
    state = conferences(new("DEC1"))
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    (spec,) = [s for s in R.actions(state, "AL1") if not s.any_time]
    assert spec.kind == su.CHOOSE_STARTING
    assert isinstance(spec.choices, dict)
    pairs = spec.choices["payloads"]
    assert isinstance(pairs, list)
    assert pairs
    for p in pairs:
        assert not R.validate(state, Action("AL1", su.CHOOSE_STARTING, p))


# --- NT-TEAM-29 (T13) ----------------------------------------------------------------------------


def test_nt_team_t13_placement_in_rank_order_and_the_engine_applies_it() -> None:
    """NT-TEAM-T13 (NT-TEAM-29): AL2's placement before AL1 has ended his part is 409
    not_your_setup_part; AL1 must place his corps before ending; then AL2 places langeron,
    and kollowrath is 403 not_your_corps. AL3's end applies the engine's allied_setup: the same
    state as the two-player engine's payload, langeron in the locale carrying his name."""
    state = conferences(new())
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    before = state
    lang: JSON = {"commander": "langeron", "approach": None}
    assert refusal(state, "AL2", su.PLACE_CORPS, lang) == ("NT-TEAM-29", "not_your_setup_part")
    assert refusal(state, "AL1", su.END_PART)[0] == "NT-TEAM-29"  # his own corps first
    assert refusal(state, "AL1", su.PLACE_CORPS, lang) == ("NT-TEAM-29", "not_your_corps")
    state = place_all(state, "AL1")
    state = act(state, "AL2", su.PLACE_CORPS, lang)
    kol: JSON = {"commander": "kollowrath", "approach": None}
    assert refusal(state, "AL2", su.PLACE_CORPS, kol) == ("NT-TEAM-29", "not_your_corps")
    state = place_all(state, "AL2")
    assert prompted(state) == {"AL3": [su.PLACE_CORPS]}
    state = act(state, "AL3", su.PLACE_CORPS, kol)
    last = machine(state)
    step = R.apply(state, Action("AL3", su.END_PART, None), Rng(7))
    assert step.state.phase == "setup_F"
    assert step.state.commanders["langeron"].loc == BOARD.commanders["langeron"].setup_locale
    assert data_of(step.state).setup is not None
    assert machine(step.state).side == "F"
    # the engine's own set-up, as the CinC's role: the same engine state as the payload sent
    done = su.apply(last, "AL3", su.END_PART, None)
    payload = su.engine_payload(done)
    direct = R.core_run(before, Action("AL1", "allied_setup", payload)).state
    ours, theirs = dump(step.state), dump(direct)
    assert isinstance(ours, dict)
    assert isinstance(theirs, dict)
    ours.pop("team"), theirs.pop("team")
    assert ours == theirs
    # the completing event: the team's line for the Allies only, the engine's public lines
    public = [e.text for e in step.log if e.audience is None]
    assert any("The Allies have set up" in t for t in public)
    secret = [e for e in step.log if e.audience is not None]
    assert secret
    assert all(set(e.audience or ()) <= {*RANKS["AL"], OMNISCIENT} for e in secret)


def test_a_placement_the_engine_refuses_is_refused_at_once() -> None:
    """Ours (setup_play.py): a placement blocking an approach not of the corps' locale is refused
    when sent, with the engine's NT-21, and changes nothing."""
    state = conferences(new())
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    cid = next(c for c in machine(state).on_board() if machine(state).owner(c) == "AL1")
    far = next(a for a in BOARD.approaches if a not in BOARD.approaches_of(_locale(cid)))
    assert refusal(state, "AL1", su.PLACE_CORPS, {"commander": cid, "approach": far})[0] == (
        "NT-21"
    )


def _locale(cid: str) -> int:
    loc = BOARD.commanders[cid].setup_locale
    assert loc is not None
    return loc


def test_an_engine_refusal_of_the_finished_setup_goes_to_the_last_seat_and_changes_nothing() -> (
    None
):
    """The action that finishes the machine runs the engine's allied_setup: its refusal (here
    NT-21, an approach smuggled past the machine into the stored state) is the refusal of that
    action, for its seat, and the state stays as it was."""
    state = conferences(new())
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    for role in ("AL1", "AL2"):
        state = place_all(state, role)
    state = act(state, "AL3", su.PLACE_CORPS, {"commander": "kollowrath", "approach": None})
    data = data_of(state)
    assert data.setup is not None
    bad = next(a for a in BOARD.approaches if a not in BOARD.approaches_of(_locale("kollowrath")))
    placed = tuple((c, bad if c == "kollowrath" else a) for c, a in data.setup.placed)
    data.setup = replace(data.setup, placed=placed)
    state.team = ES.dump(data)
    before = dump(state)
    rule, _ = refusal(state, "AL3", su.END_PART)
    assert rule == "NT-21"
    with pytest.raises(Illegal) as e:
        R.apply(state, Action("AL3", su.END_PART, None), Rng(1))
    assert e.value.rejection.rule == "NT-21"
    assert dump(state) == before
    assert prompted(state) == {"AL3": [su.END_PART]}


# --- NT-TEAM-30, -31 (T14, T15) ------------------------------------------------------------------


def test_nt_team_t14_detachments_in_rank_order_under_the_shared_limit() -> None:
    """NT-TEAM-T14 (NT-TEAM-30): F2 may not detach in F1's part (409 not_your_setup_part) nor
    from F1's corps (403 not_your_corps); F1 detaches 5 units from vandamme, F2's first
    detachment from st-hilaire is accepted and the second is 409 detach_limit (6 a team)."""
    state = french_detach_step()
    assert prompted(state) == {"F1": [su.DETACH_UNIT, su.END_PART]}
    vandamme, hilaire = units_of(state, "vandamme"), units_of(state, "st-hilaire")
    first = legal_detachment(state, "F1", vandamme[0])
    assert refusal(state, "F2", su.DETACH_UNIT, first) == ("NT-TEAM-30", "not_your_setup_part")
    for uid in vandamme[:5]:
        state = act(state, "F1", su.DETACH_UNIT, legal_detachment(state, "F1", uid))
    state = act(state, "F1", su.END_PART)
    legrand = units_of(state, "legrand")[0]
    steal: JSON = {"unit": legrand, "position": {"locale": _locale("legrand"), "approach": None}}
    assert refusal(state, "F2", su.DETACH_UNIT, steal) == ("NT-TEAM-30", "not_your_corps")
    infantry = [u for u in hilaire if state.units[u].type != "ART"]
    state = act(state, "F2", su.DETACH_UNIT, legal_detachment(state, "F2", infantry[0]))
    second: JSON = {"unit": infantry[1], "position": {"locale": 9, "approach": None}}
    assert refusal(state, "F2", su.DETACH_UNIT, second) == ("NT-TEAM-30", "detach_limit")
    assert len(machine(state).detached) == su.MAX_DETACHED
    assert prompted(state) == {"F2": [su.END_PART]}  # the limit is reached


def test_a_detachment_the_engine_refuses_names_the_engine_rule() -> None:
    """NT-TEAM-30 keeps the constraints of step (8): a detachment more than 2 locales away is
    refused with the engine's NT-23 in the seat's own part."""
    state = french_detach_step()
    uid = units_of(state, "vandamme")[0]
    dist = BOARD.distances_from(_locale("vandamme"))
    far = next(loc for loc, d in sorted(dist.items()) if d > 2)
    payload: JSON = {"unit": uid, "position": {"locale": far, "approach": None}}
    assert refusal(state, "F1", su.DETACH_UNIT, payload)[0] == "NT-23"


def test_nt_team_t15_the_french_cinc_chooses_the_battery_from_a_subordinates_corps() -> None:
    """NT-TEAM-T15 (NT-TEAM-31, AMB-12): in step (9) only F1 is prompted; F2's choice is 403
    not_cinc; F1 takes st-hilaire's (F2's) artillery: the engine's french_setup is applied, the
    unit revealed as the fixed battery, blocking, and the game begins."""
    state = french_detach_step()
    state = act(state, "F1", su.END_PART)
    state = act(state, "F2", su.END_PART)
    assert prompted(state) == {"F1": [su.CHOOSE_BATTERY]}
    art = next(u for u in units_of(state, "st-hilaire") if state.units[u].type == "ART")
    listed = next(s for s in R.actions(state, "F1") if s.kind == su.CHOOSE_BATTERY).choices
    assert isinstance(listed, dict)
    payloads = listed["payloads"]
    assert isinstance(payloads, list)
    options = [p for p in payloads if isinstance(p, dict) and p["unit"] == art]
    assert options
    assert refusal(state, "F2", su.CHOOSE_BATTERY, options[0]) == ("NT-TEAM-31", "not_cinc")
    step = R.apply(state, Action("F1", su.CHOOSE_BATTERY, options[0]), Rng(7))
    after = step.state
    assert after.phase == "turn"
    battery = after.units[art]
    assert battery.fixed
    assert battery.revealed
    assert battery.app == options[0]["approach"]
    assert data_of(after).setup is None
    assert "The French have set up." in R.log_for(step.log, "AL1")  # the engine's lines
    assert any(t.startswith("Fixed battery") for t in R.log_for(step.log, "AL1"))


# --- the engine's own set-up kinds, other refusals, prompts, one seat, the deadline --------------


def test_the_engines_setup_kinds_are_refused_in_team_play() -> None:
    """NT-TEAM-29: allied_setup / french_setup sent by a seat are refused, naming the kinds to use
    (AL2 at the CinC's step is told NT-TEAM-27 not_cinc first); the set-up kinds of the other
    side, in a conference and after the set-up are refused too."""
    state = new()
    assert refusal(state, "AL1", su.ORGANIZE_CORPS, {"corps": []})[0] == "NT-TEAM-4"
    state = conferences(state)
    payload: JSON = {"corps": []}
    rule, code = refusal(state, "AL1", "allied_setup", payload)
    assert (rule, code) == ("NT-TEAM-29", "use_setup_parts")
    message = R.validate(state, Action("AL1", "allied_setup", payload))[0].message
    assert all(k in message for k in su.KINDS)
    assert refusal(state, "AL2", "allied_setup", payload) == ("NT-TEAM-27", "not_cinc")
    assert refusal(state, "F1", "french_setup", payload)[0] == "NT-TEAM-29"
    assert refusal(state, "F1", su.ORGANIZE_CORPS, french_org(state)) == (
        "NT-TEAM-29",
        "not_your_setup_part",
    )
    state = french_detach_step()
    state = act(state, "F1", su.END_PART)
    state = act(state, "F2", su.END_PART)
    listed = next(s for s in R.actions(state, "F1") if s.kind == su.CHOOSE_BATTERY).choices
    assert isinstance(listed, dict)
    pick = listed["payloads"]
    assert isinstance(pick, list)
    state = act(state, "F1", su.CHOOSE_BATTERY, pick[0])
    assert refusal(state, "F1", su.END_PART)[0] == "NT-TEAM-29"


def test_a_side_of_one_seat_does_every_part() -> None:
    """AMB-10: a team of one: its only seat organizes, places, detaches and picks the battery;
    the random player plays it through the machine to the first turn."""
    roles: dict[str, JSON] = {"al": "AL", "fr": "F"}
    state = new("DEC1", roles)
    rng = Rng(5)
    seen: set[tuple[str, str]] = set()
    for _ in range(400):
        if state.phase == "turn":
            break
        prompts = sorted(R.prompts(state))
        role = prompts[rng.below(len(prompts))]
        action = random_legal(R, state, role, rng)
        assert action is not None
        if data_of(state).setup is not None:
            assert len(prompts) == 1
            seen.add((role, action.kind))
        state = act(state, action.role, action.kind, action.payload)
    assert state.phase == "turn"
    assert {("al", su.ORGANIZE_CORPS), ("al", su.CHOOSE_STARTING), ("al", su.END_PART)} <= seen
    assert {("fr", su.ORGANIZE_CORPS), ("fr", su.PLACE_CORPS), ("fr", su.CHOOSE_BATTERY)} <= seen


def test_the_deadline_in_a_setup_part_has_no_default() -> None:
    """NT-19 (digest 4.7): the deadline of a set-up part applies nothing; the platform's
    missed-turn policy extends the clock."""
    state = conferences(new())
    state = act(state, "AL1", su.ORGANIZE_CORPS, allied_org(state))
    assert refusal(state, SYSTEM, ".deadline")[0] == "NT-19"


def test_the_set_up_kinds_are_private_and_schema_checked() -> None:
    assert set(su.KINDS) <= set(R.private_kinds())
    schemas = R.payload_schemas()
    assert set(su.KINDS) <= set(schemas)
    state = conferences(new())
    bad = R.validate(state, Action("AL1", su.PLACE_CORPS, {"commander": 3}))
    assert bad
    assert bad[0].rule == "schema"


# --- visibility: a team's secret until its set-up is applied (leak property) ---------------------


def _views(state: GameState, roles: Sequence[str]) -> dict[str, JSON]:
    return {r: R.view(state, r) for r in roles}


def _run_side(state: GameState, rng: Rng) -> tuple[list[tuple[GameState, set[str]]], Action]:
    """One side's set-up by its random seats: the states after each step with the roles that read
    a line of it, up to the action that finishes the side's machine (returned, not applied)."""
    side = machine(state).side
    out: list[tuple[GameState, set[str]]] = []
    while True:
        (role,) = R.prompts(state)
        action = random_legal(R, state, role, rng)
        assert action is not None
        assert action.kind in su.KINDS
        step = R.apply(state, action, Rng(1))
        if step.state.phase != f"setup_{side}":
            return out, action
        out.append((step.state, {r for e in step.log for r in (e.audience or {"*"})}))
        state = step.state


def _without_team(view: JSON) -> JSON:
    assert isinstance(view, dict)
    return {k: v for k, v in view.items() if k != "team"}


@pytest.mark.parametrize("seed", range(4))
def test_the_other_team_learns_nothing_of_a_setup_before_it_is_applied(seed: int) -> None:
    """Leak property (3.5, 3.6): over random team games, two different random set-ups of one side
    leave every view of the other team and of an observer exactly as at the set-up's start, no
    line of it reaches them, and the own team's view shows its progress; once applied, the
    other team sees what the engine's own set-up shows it."""
    rng = Rng(1000 + seed)
    options = team_options(Rng(seed))
    roles_map = options["roles"]
    assert isinstance(roles_map, dict)
    state = R.setup(
        GameConfig("DEC1" if seed % 2 else "DEC2", {"board": "austerlitz", **options}),
        Rng.for_event(b"leak", seed),
    )
    while data_of(state).setup is None:
        prompts = sorted(R.prompts(state))
        action = random_legal(R, state, prompts[rng.below(len(prompts))], rng)
        assert action is not None
        state = R.apply(state, action, Rng(1)).state
    for side in ("AL", "F"):
        assert machine(state).side == side
        mine = [str(r) for r, s in roles_map.items() if s == side]
        others = [str(r) for r, s in roles_map.items() if s != side] + [OBSERVER]
        start = _views(state, others)
        branches = [_run_side(state, Rng(rng.next64())) for _ in range(2)]
        for steps, _ in branches:
            for after, readers in steps:
                assert _views(after, others) == start
                assert readers <= {*mine, OMNISCIENT}, readers
                for r in mine:
                    view = R.view(after, r)
                    assert isinstance(view, dict)
                    team = view["team"]
                    assert isinstance(team, dict)
                    assert isinstance(team["setup"], dict)
                    assert team["setup"]["side"] == side
                    assert team["decider"] == team["setup"]["acting"]
                    assert not list(VIEWS.iter_errors(view))  # the optional key `setup`
        steps, finish = branches[1]
        before = steps[-1][0] if steps else state
        step = R.apply(before, finish, Rng(1))
        done = su.apply(machine(before), finish.role, finish.kind, finish.payload)
        cinc = done.cinc
        kind = "allied_setup" if side == "AL" else "french_setup"
        direct = R.core_run(before, Action(cinc, kind, su.engine_payload(done))).state
        for r in others:
            assert _without_team(R.view(step.state, r)) == _without_team(R.view(direct, r))
            view = R.view(step.state, r)
            assert isinstance(view, dict)
            team = view["team"]
            assert isinstance(team, dict)
            theirs = team.get("setup")  # the next side's own set-up, if any
            assert theirs is None or (isinstance(theirs, dict) and theirs["side"] != side)
        state = step.state
    assert state.phase == "turn"
