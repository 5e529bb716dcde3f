"""Set-up in team play (digest 2.5, NT-TEAM-27..31; tests NT-TEAM-T12..T15), and the engine
payload it assembles, applied by the two-player engine."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from games.core.protocol import JSON, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.board import board_named
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.random_setup import draw_setup
from games.napoleons_triumph.state import GameState, dump
from games.napoleons_triumph.team import phases as ph
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team.phases import AssignCorps, CloseConference, ConfirmRanks, SetRanks
from games.napoleons_triumph.team.setup import SideSetup
from tests.support.napoleons_triumph_team import AL_CORPS, F_CORPS

BOARD = board_named("austerlitz-published")
SMALL = board_named("austerlitz")
COMMANDERS = ph.commanders_of(BOARD)


def teams(scenario: str) -> ph.TeamState:
    """Both initial conferences closed with the fixture ranks and corps (5.1)."""
    s = ph.new_state(
        scenario, {"team_play": True}, {"AL": ["AL1", "AL2", "AL3"], "F": ["F1", "F2"]}, COMMANDERS
    )
    for order, cmap in ((("AL1", "AL2", "AL3"), AL_CORPS), (("F1", "F2"), F_CORPS)):
        acts: list[ph.TeamAction] = [SetRanks(order[0], order)]
        acts += [ConfirmRanks(r, order) for r in order]
        acts += [AssignCorps(order[0], tuple(cmap.items())), CloseConference(order[0])]
        for a in acts:
            s = ph.apply(s, a).state
    return s


def place(role: str, commander: str) -> tuple[str, str, JSON]:
    return (role, su.PLACE_CORPS, {"commander": commander})


def run(setup: SideSetup, *steps: tuple[str, str, JSON]) -> SideSetup:
    for role, kind, payload in steps:
        setup = su.apply(setup, role, kind, payload)
        assert su.from_json(json.loads(json.dumps(su.to_json(setup)))) == setup
    return setup


def refused(setup: SideSetup, role: str, kind: str, payload: JSON = None) -> str:
    with pytest.raises(Illegal) as e:
        su.apply(setup, role, kind, payload)
    assert su.refusal(setup, role, kind) in (None, e.value.rejection)
    return e.value.rejection.rule


def organize(cmap: Mapping[str, str], units: Mapping[str, list[str]]) -> JSON:
    return {"corps": [{"commander": c, "units": list(units.get(c, []))} for c in cmap]}


def test_nt_team_t12_dec1_cinc_organizes_and_chooses() -> None:
    """NT-TEAM-T12 (NT-TEAM-27, NT-TEAM-28): DEC1: AL2's organize_corps and
    choose_starting_corps are refused (not_cinc); AL1 chooses langeron (AL2) and kollowrath
    (AL3) to start on the board, and then owns no corps on the board."""
    s = su.new_setup(teams("DEC1"), "AL", BOARD)
    assert s.two_corps
    assert su.acting(s) == "AL1"
    org = organize(AL_CORPS, {})
    assert refused(s, "AL2", su.ORGANIZE_CORPS, org) == "NT-TEAM-27"
    s = run(s, ("AL1", su.ORGANIZE_CORPS, org))
    assert s.step == su.STARTING
    chosen: JSON = {"corps": ["langeron", "kollowrath"]}
    assert refused(s, "AL2", su.CHOOSE_STARTING, chosen) == "NT-TEAM-28"
    assert refused(s, "AL1", su.CHOOSE_STARTING, {"corps": ["langeron"]}) == "NT-TEAM-28"
    assert refused(s, "AL1", su.CHOOSE_STARTING, {"corps": ["langeron", "murat"]}) == ("NT-TEAM-28")
    s = run(s, ("AL1", su.CHOOSE_STARTING, chosen))
    assert s.on_board() == ("langeron", "kollowrath")
    assert not [c for c in s.on_board() if s.owner(c) == "AL1"]
    # AL1 has nothing to place: his part still exists and he ends it (AMB-10)
    assert su.acting(s) == "AL1"
    s = run(s, ("AL1", su.END_PART, None))
    assert su.acting(s) == "AL2"


def test_nt_team_t13_placement_in_rank_order() -> None:
    """NT-TEAM-T13 (NT-TEAM-29): AL2 may not place langeron before AL1 has ended his part
    (not_your_setup_part); then AL2 places langeron, not kollowrath (not_your_corps)."""
    s = su.new_setup(teams("DEC2"), "AL", BOARD)
    s = run(s, ("AL1", su.ORGANIZE_CORPS, organize(AL_CORPS, {})))
    assert s.step == su.PLACE
    lang: JSON = {"commander": "langeron", "approach": None}
    assert refused(s, "AL2", su.PLACE_CORPS, lang) == "NT-TEAM-29"
    assert refused(s, "AL1", su.END_PART) == "NT-TEAM-29"  # his own corps first
    mine = [c for c in COMMANDERS["AL"] if AL_CORPS[c] == "AL1"]
    s = run(s, *(place("AL1", c) for c in mine))
    assert refused(s, "AL1", su.PLACE_CORPS, {"commander": "kienmayer"}) == "NT-TEAM-29"
    s = run(s, ("AL1", su.END_PART, None))
    assert refused(s, "AL1", su.PLACE_CORPS, {"commander": "kienmayer"}) == "NT-TEAM-29"
    s = run(s, ("AL2", su.PLACE_CORPS, lang))
    assert refused(s, "AL2", su.PLACE_CORPS, {"commander": "kollowrath"}) == "NT-TEAM-29"
    s = run(s, ("AL2", su.PLACE_CORPS, {"commander": "dokhturov"}), ("AL2", su.END_PART, None))
    s = run(s, ("AL3", su.PLACE_CORPS, {"commander": "kollowrath"}), ("AL3", su.END_PART, None))
    assert s.step == su.DONE
    assert su.acting(s) is None
    payload = su.engine_payload(s)
    assert isinstance(payload, dict)
    assert "detachments" not in payload


def _french_ready() -> SideSetup:
    units = {
        "vandamme": ["F01", "F02", "F03", "F04", "F05", "F06"],
        "legrand": ["F07", "F08", "F09"],
        "st-hilaire": ["F10", "F11", "F12"],
    }
    s = su.new_setup(teams("DEC2"), "F", BOARD)
    assert s.off_map == ("bernadotte", "davout")
    s = run(s, ("F1", su.ORGANIZE_CORPS, organize(F_CORPS, units)))
    f1 = [c for c in COMMANDERS["F"] if F_CORPS[c] == "F1" and c not in s.off_map]
    s = run(s, *(place("F1", c) for c in f1))
    assert refused(s, "F1", su.PLACE_CORPS, {"commander": "bernadotte"}) == "NT-TEAM-29"
    s = run(s, ("F1", su.END_PART, None))
    s = run(s, ("F2", su.PLACE_CORPS, {"commander": "st-hilaire"}), ("F2", su.END_PART, None))
    assert s.step == su.DETACH
    return s


def det(unit: str) -> JSON:
    return {"unit": unit, "position": {"locale": 9, "approach": None}}


def test_nt_team_t14_shared_detachment_limit() -> None:
    """NT-TEAM-T14 (NT-TEAM-30): F1 detaches 5 units from vandamme, then F2's first detachment
    from st-hilaire is accepted and the second refused (detach_limit, 6 for the team); F2 may
    not detach from legrand (not_your_corps)."""
    s = _french_ready()
    assert refused(s, "F2", su.DETACH_UNIT, det("F10")) == "NT-TEAM-30"  # F1's part first
    assert refused(s, "F1", su.DETACH_UNIT, det("F10")) == "NT-TEAM-30"  # F2's corps
    s = run(s, *(("F1", su.DETACH_UNIT, det(u)) for u in ("F01", "F02", "F03", "F04", "F05")))
    assert refused(s, "F1", su.DETACH_UNIT, det("F01")) == "NT-TEAM-30"  # already detached
    s = run(s, ("F1", su.END_PART, None))
    assert refused(s, "F2", su.DETACH_UNIT, det("F07")) == "NT-TEAM-30"  # legrand is F1's
    s = run(s, ("F2", su.DETACH_UNIT, det("F10")))
    assert refused(s, "F2", su.DETACH_UNIT, det("F11")) == "NT-TEAM-30"
    assert len(s.detached) == su.MAX_DETACHED
    s = run(s, ("F2", su.END_PART, None))
    assert s.step == su.BATTERY


def test_nt_team_t15_fixed_battery_by_french_cinc() -> None:
    """NT-TEAM-T15 (NT-TEAM-31, AMB-12): F2's choice of the fixed battery is refused
    (not_cinc); F1 may choose a unit of st-hilaire (F2's corps)."""
    s = _french_ready()
    s = run(s, ("F1", su.END_PART, None), ("F2", su.END_PART, None))
    pick: JSON = {"unit": "F12", "approach": None}
    assert refused(s, "F2", su.CHOOSE_BATTERY, pick) == "NT-TEAM-31"
    assert refused(s, "F1", su.CHOOSE_BATTERY, {"unit": "nope"}) == "NT-TEAM-31"
    s = run(s, ("F1", su.CHOOSE_BATTERY, pick))
    assert s.step == su.DONE
    payload = su.engine_payload(s)
    assert isinstance(payload, dict)
    assert payload["fixed_battery"] == {"unit": "F12", "approach": None}


def test_nt_team_27_steps_and_payloads() -> None:
    """NT-TEAM-27..29: actions of another step name that step's rule; malformed payloads are
    refused; a seat outside the team is refused; the set-up waits for the conference."""
    s = su.new_setup(teams("DEC2"), "AL", BOARD)
    assert refused(s, "AL1", su.PLACE_CORPS, {"commander": "kienmayer"}) == "NT-TEAM-29"
    assert refused(s, "AL1", su.DETACH_UNIT, det("A01")) == "NT-TEAM-30"
    assert refused(s, "F1", su.ORGANIZE_CORPS, organize(AL_CORPS, {})) == "NT-TEAM-29"
    assert refused(s, "AL1", su.END_PART) == "NT-TEAM-27"
    assert refused(s, "AL1", su.ORGANIZE_CORPS, {"corps": "all"}) == "NT-TEAM-27"
    half = dict(list(AL_CORPS.items())[:4])
    assert refused(s, "AL1", su.ORGANIZE_CORPS, organize(half, {})) == "NT-TEAM-27"
    twice: JSON = {"corps": [{"commander": "kienmayer", "units": ["A01"]}] * 2}
    assert refused(s, "AL1", su.ORGANIZE_CORPS, twice) == "NT-TEAM-27"
    dup = organize(AL_CORPS, {"kienmayer": ["A01"], "langeron": ["A01"]})
    assert refused(s, "AL1", su.ORGANIZE_CORPS, dup) == "NT-TEAM-27"
    with pytest.raises(Illegal) as e:
        su.engine_payload(s)
    assert e.value.rejection.rule == "NT-TEAM-27"
    fresh = ph.new_state("DEC2", {"team_play": True}, {"AL": ["AL1"], "F": ["F1"]}, COMMANDERS)
    with pytest.raises(Illegal) as e:
        su.new_setup(fresh, "AL", BOARD)
    assert e.value.rejection.rule == "NT-TEAM-4"


# --- the engine applies the assembled payload ---------------------------------------------------


def _legal(state: GameState, side: str, role: str, kind: str) -> dict[str, JSON]:
    ctx = RULESET.ctx(state)
    for seed in range(60):
        payload = draw_setup(ctx, side, Rng(seed))
        if not RULESET.validate(state, Action(role, kind, payload)):
            return payload
    raise AssertionError("no legal set-up found")


def _as_team(s: SideSetup, payload: dict[str, JSON]) -> SideSetup:
    """Play a legal engine payload as the team's set-up actions, seat by seat."""
    corps = payload["corps"]
    assert isinstance(corps, list)
    entries = [c for c in corps if isinstance(c, dict)]
    org: JSON = {"corps": [{"commander": c["commander"], "units": c["units"]} for c in entries]}
    s = su.apply(s, s.cinc, su.ORGANIZE_CORPS, org)
    if s.two_corps:
        start: JSON = [c["commander"] for c in entries if not c["off_map"]]
        s = su.apply(s, s.cinc, su.CHOOSE_STARTING, {"corps": start})
    for role in s.ranks:
        for c in entries:
            if not c["off_map"] and s.owner(str(c["commander"])) == role:
                place: JSON = {"commander": c["commander"], "approach": c.get("approach")}
                s = su.apply(s, role, su.PLACE_CORPS, place)
        s = su.apply(s, role, su.END_PART, None)
    if s.side == "F":
        dets = payload.get("detachments")
        assert isinstance(dets, list)
        for role in s.ranks:
            for d in dets:
                assert isinstance(d, dict)
                unit = str(d["unit"])
                owner = next(s.owner(c) for c, us in s.corps if unit in us)
                if owner == role:
                    s = su.apply(s, role, su.DETACH_UNIT, d)
            s = su.apply(s, role, su.END_PART, None)
        s = su.apply(s, s.cinc, su.CHOOSE_BATTERY, payload["fixed_battery"])
    assert s.step == su.DONE
    return s


@pytest.mark.parametrize("scenario", ["DEC1", "DEC2"])
def test_engine_accepts_the_team_setup(scenario: str) -> None:
    """NT-TEAM-27..31: a legal set-up played by the team, seat by seat, gives the engine the
    payload it accepts, with the same result as the single player's payload."""
    state = RULESET.setup(GameConfig(scenario, {"board": "austerlitz"}), Rng(1))
    tstate = teams(scenario)
    for side, role, kind in (("AL", "allied", "allied_setup"), ("F", "french", "french_setup")):
        original = _legal(state, side, role, kind)
        team_setup = _as_team(su.new_setup(tstate, side, SMALL), original)
        payload = su.engine_payload(team_setup)
        assert not RULESET.validate(state, Action(role, kind, payload))
        ours = RULESET.apply(state, Action(role, kind, payload), Rng(2)).state
        theirs = RULESET.apply(state, Action(role, kind, original), Rng(2)).state
        assert dump(ours) == dump(theirs)
        state = ours
    assert state.phase == "turn"
