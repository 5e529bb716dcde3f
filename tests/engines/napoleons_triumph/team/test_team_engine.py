"""Team play wired into the engine (rulebook chapter 19; team/engine.py): options and roles, the
conferences, set-up by the CinC, the team turn in rank order, the routed decisions, written
orders sealed at the end of the CinC's part and delivered at k+1, the per-seat views (no leak of
an unread order), and two-player games unchanged."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from games.core.protocol import JSON, SYSTEM, Action, GameConfig, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET as R
from games.napoleons_triumph.errors import SetupRefused
from games.napoleons_triumph.state import GameState, dump, load
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team.engine import data_of, may_write

ROLES2V2: dict[str, JSON] = {"al1": "AL", "al2": "AL", "fr1": "F", "fr2": "F"}
TEAM2V2: dict[str, JSON] = {"team_play": True, "roles": ROLES2V2}


def new(
    options: dict[str, JSON] = TEAM2V2, scenario: str = "DEC2", seed: bytes = b"t"
) -> GameState:
    return R.setup(GameConfig(scenario, options), Rng.for_event(seed, 0))


def act(state: GameState, role: str, kind: str, payload: JSON = None) -> GameState:
    action = Action(role, kind, payload)
    bad = R.validate(state, action)
    assert not bad, bad
    return R.apply(state, action, Rng(7)).state


def refused(state: GameState, role: str, kind: str, payload: JSON = None) -> str:
    bad = R.validate(state, Action(role, kind, payload))
    assert bad, f"{kind} by {role} was accepted"
    return bad[0].rule


def conferences(state: GameState) -> GameState:
    """Both initial conferences: ranks in lobby order, corps round robin, closed (NT-TEAM-4..8)."""
    for t in data_of(state).layer.teams:
        ranks: JSON = {r: i + 1 for i, r in enumerate(t.members)}
        state = act(state, t.members[0], "set_ranks", {"ranks": ranks})
        for r in t.members:
            state = act(state, r, "confirm_ranks", {"ranks": ranks})
        mine = phases.side_commanders(data_of(state).layer, str(t.side))
        corps: JSON = {c: t.members[i % len(t.members)] for i, c in enumerate(mine)}
        state = act(state, t.members[0], "assign_corps", {"corps": corps})
        state = act(state, t.members[0], "close_conference")
    return state


def play(
    state: GameState, rng: Rng, until: Callable[[GameState], bool], limit: int = 6000
) -> GameState:
    for _ in range(limit):
        if until(state) or state.phase == "over":
            return state
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(R, state, role, rng)
        assert action is not None, f"{role} is prompted but has no action"
        assert not R.validate(state, action), (action, R.validate(state, action))
        state = R.apply(state, action, Rng(rng.next64())).state
    raise AssertionError("no end")


def in_play(state: GameState) -> bool:
    return state.phase == "turn" and data_of(state).layer.phase == phases.PLAY


# --- options and roles (NT-TEAM-1, -2, -45; the NT-TEAM refusal without team_play) ----------


def test_more_than_one_role_a_side_is_still_refused_without_team_play() -> None:
    with pytest.raises(SetupRefused) as e:
        new({"roles": ROLES2V2})
    assert e.value.rejection.rule == "NT-TEAM"


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        (
            {"team_play": True, "roles": {**ROLES2V2, "a3": "AL", "a4": "AL", "a5": "AL"}},
            "NT-TEAM-1",
        ),
        ({"team_play": True, "balance": "auction"}, "NT-TEAM-45"),
        ({"team_play": "yes"}, "NT-TEAM-1"),
        ({"conference_notes_allowed": True}, "NT-TEAM-1"),
        ({**TEAM2V2, "team": {"rank_agreement": "majority"}}, "NT-TEAM-5"),
        ({**TEAM2V2, "conference_notes_allowed": 1}, "NT-TEAM-12"),
        ({**TEAM2V2, "team": {"order_language": "de"}}, "NT-19"),
    ],
)
def test_team_options_refused_by_rule(options: dict[str, JSON], rule: str) -> None:
    with pytest.raises(SetupRefused) as e:
        new(options)
    assert e.value.rejection.rule == rule


def test_team_roles_carry_their_side_as_team() -> None:
    infos = R.roles("DEC2", TEAM2V2)
    assert [(i.id, i.team) for i in infos] == [
        ("al1", "AL"),
        ("al2", "AL"),
        ("fr1", "F"),
        ("fr2", "F"),
    ]


def test_two_player_dumps_have_no_team_key_and_round_trip() -> None:
    rng = Rng(11)
    state = new({})
    for _ in range(400):
        d = dump(state)
        assert isinstance(d, dict)
        assert "team" not in d
        assert dump(load(d)) == d
        if state.phase == "over":
            break
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(R, state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng(rng.next64())).state


def test_team_kinds_are_refused_in_two_player_games() -> None:
    state = new({})
    assert refused(state, "allied", "chat_message", {"text": "hi"}) == "NT-TEAM-1"
    assert refused(state, "allied", "end_part", {}) == "NT-TEAM-1"


# --- conferences and set-up (NT-TEAM-4..8, -13, -27) ------------------------------------------


def test_conference_prompts_and_refusals() -> None:
    state = new()
    assert sorted(R.prompts(state)) == ["al1", "al2", "fr1", "fr2"]
    assert refused(state, "al1", "allied_setup", {}) == "NT-TEAM-4"  # engine waits
    assert refused(state, "al2", "close_conference") == "NT-TEAM-5"  # ranks unconfirmed
    state = act(state, "fr2", "chat_message", {"text": "attack Pratzen"})
    view_al = R.view(state, "al1")
    view_fr = R.view(state, "fr1")
    assert isinstance(view_al, dict)
    assert isinstance(view_fr, dict)
    assert view_al["team"]["chat"] == []  # type: ignore[index, call-overload]
    assert view_fr["team"]["chat"][0]["text"] == "attack Pratzen"  # type: ignore[index, call-overload]
    logs = R.log_for(
        R.apply(state, Action("al1", "chat_message", {"text": "x"}), Rng(1)).log, "fr1"
    )
    assert logs == []  # the other team never reads a team's chat


def test_the_conference_kinds_are_private_and_their_lines_name_only_the_team() -> None:
    """The platform hides a private-kind event from every role its log lines do not name: the
    other team must not even count a team's conference talk (NT-TEAM-4..7)."""
    assert {"chat_message", "set_ranks", "confirm_ranks", "assign_corps", "write_order"} <= set(
        R.private_kinds()
    )
    state = new()
    ranks: JSON = {"al1": 1, "al2": 2}
    steps: list[tuple[str, str, JSON]] = [
        ("al2", "chat_message", {"text": "I take the north"}),
        ("al1", "set_ranks", {"ranks": ranks}),
        ("al2", "confirm_ranks", {"ranks": ranks}),
    ]
    for role, kind, payload in steps:
        step = R.apply(state, Action(role, kind, payload), Rng(1))
        assert step.log, kind
        for entry in step.log:
            assert entry.audience is not None, (kind, entry)
            assert set(entry.audience) <= {"al1", "al2", "@omniscient"}, (kind, entry)
        state = step.state


def test_setup_is_the_cincs_and_chat_closes() -> None:
    state = conferences(new())
    assert state.phase == "setup_AL"
    assert list(R.prompts(state)) == ["al1"]
    assert refused(state, "al2", "allied_setup", {}) == "NT-TEAM-27"
    assert refused(state, "al1", "chat_message", {"text": "hi"}) == "NT-TEAM-13"
    view = R.view(state, "fr2")
    assert isinstance(view, dict)
    assert view["team"]["teams"][0]["ranks"] == ["al1", "al2"]  # type: ignore[index, call-overload]


# --- the team turn (NT-TEAM-32, -35), orders (NT-TEAM-17..23) -------------------------------


def _first_turn(seed: int = 3) -> GameState:
    return play(conferences(new()), Rng(seed), in_play)


def test_team_turn_in_rank_order_and_refusals() -> None:
    state = _first_turn()
    side = state.active
    cinc, second = ("al1", "al2") if side == "AL" else ("fr1", "fr2")
    assert list(R.prompts(state)) == [cinc]
    assert refused(state, second, "end_part", {}) == "NT-TEAM-32"
    assert refused(state, cinc, "end_turn", {}) == "NT-TEAM-32"
    assert refused(state, second, "write_order", {"recipient": cinc, "text": "angreifen"}) in (
        "NT-TEAM-17",
        "NT-TEAM-18",
    )
    assert refused(
        state, cinc, "write_order", {"recipient": second, "text": "angreifen Xyzzy"}
    ) == ("NT-TEAM-21")
    assert refused(state, cinc, "write_order", {"recipient": cinc, "text": "angreifen"}) == (
        "NT-TEAM-18"
    )
    assert refused(state, second, "resign", {}) == "NT-TEAM-7"
    turn = state.turn_number
    state = act(state, cinc, "end_part", {})
    assert list(R.prompts(state)) == [second]
    assert refused(state, cinc, "write_order", {"recipient": second, "text": "angreifen"}) == (
        "NT-TEAM-18"
    )
    state = act(state, second, "end_part", {})
    assert state.turn_number == turn + 1
    assert state.active != side


def test_corps_of_another_seat_is_refused() -> None:
    state = _first_turn()
    data = data_of(state)
    cinc = R.prompts(state)
    role = next(iter(cinc))
    other_corps = next(
        c
        for c, r in data.assignment().items()
        if r != role
        and c in state.commanders
        and state.commanders[c].side == state.active
        and state.commanders[c].where == "map"
    )
    rule = refused(state, role, "corps_move", {"commander": other_corps, "to": 1})
    assert rule == "NT-TEAM-35"


def _inbox(state: GameState, role: str) -> list[JSON]:
    view = R.view(state, role)
    assert isinstance(view, dict)
    team = view["team"]
    assert isinstance(team, dict)
    inbox = team["inbox"]
    assert isinstance(inbox, list)
    return inbox


def test_written_order_is_delivered_at_the_teams_next_turn() -> None:
    state = _first_turn()
    side = state.active
    cinc, sub = ("al1", "al2") if side == "AL" else ("fr1", "fr2")
    others = [r for r in ROLES2V2 if r not in (cinc, sub)]
    k = data_of(state).started[side]
    state = act(state, cinc, "write_order", {"recipient": sub, "text": "attack Pratzen"})
    state = act(state, cinc, "end_part", {})
    assert len(data_of(state).slots) == 1
    seen_at = None
    rng = Rng(5)
    while state.phase != "over" and seen_at is None:
        assert all(not _inbox(state, r) for r in others)
        if _inbox(state, sub):
            seen_at = data_of(state).started[side]
            break
        prompts = R.prompts(state)
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(R, state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng(rng.next64())).state
    assert state.phase != "over", "this seed must reach turn k+1 before the game ends"
    assert seen_at == k + 1
    order = _inbox(state, sub)[0]
    assert isinstance(order, dict)
    assert order["turn"] == k
    assert all(not _inbox(state, r) for r in others)


def test_a_team_game_is_played_to_its_end_by_random_play() -> None:
    options: dict[str, JSON] = {
        "team_play": True,
        "roles": {"a1": "AL", "a2": "AL", "a3": "AL", "f1": "F", "f2": "F", "f3": "F", "f4": "F"},
    }
    state = play(new(options, seed=b"end"), Rng(21), lambda s: False, limit=20000)
    assert state.phase == "over"
    result = R.result(state)
    assert result is not None
    winner = state.result["winner"] if state.result else None
    assert set(result.winners) == {r for r, s in state.roles.items() if s == winner}
    view = R.view(state, "f4")
    assert isinstance(view, dict)
    team = view["team"]
    assert isinstance(team, dict)
    assert "archive" in team


def test_deadline_closes_conferences_and_ends_parts() -> None:
    state = new()
    state = R.apply(state, Action(SYSTEM, ".deadline"), Rng(1)).state
    assert data_of(state).layer.phase == phases.SETUP
    state = play(state, Rng(4), in_play)
    acting = next(iter(R.prompts(state)))
    state = R.apply(state, Action(SYSTEM, ".deadline"), Rng(1)).state
    assert next(iter(R.prompts(state))) != acting or state.pending is not None


# --- no leak: a seat's view is the same with or without an order it may not read -----------


def _views_and_logs(
    state: GameState, actions: list[Action]
) -> tuple[dict[str, JSON], dict[str, list[str]]]:
    logs: dict[str, list[str]] = {r: [] for r in state.roles}
    for a in actions:
        step = R.apply(state, a, Rng(3))
        state = step.state
        for r in logs:
            logs[r] += R.log_for(step.log, r)
    return {r: R.view(state, r) for r in state.roles}, logs


def _masked(view: JSON) -> JSON:
    """The view with each commitment's digest replaced by its shape: the digest binds the slot's
    content by design (3.4.5), and with the secret salt it is a random 64-hex string to anyone
    else, so only its presence and length may not differ (L2, L4)."""
    assert isinstance(view, dict)
    team = view.get("team")
    if not isinstance(team, dict):
        return view
    shapes: list[JSON] = []
    for c in team["commitments"] if isinstance(team["commitments"], list) else []:
        assert isinstance(c, dict)
        digest = str(c["digest"])
        assert re.fullmatch(r"[0-9a-f]{64}", digest), digest
        shapes.append({**c, "digest": "64 hex"})
    return {**view, "team": {**team, "commitments": shapes}}


def test_views_do_not_leak_unread_orders_over_many_states() -> None:
    samples = 0
    seed = 0
    while samples < 200:
        seed += 1
        sizes = 2 + seed % 3
        roles: dict[str, JSON] = {f"a{i}": "AL" for i in range(sizes)}
        roles |= {f"f{i}": "F" for i in range(1 + seed % 4)}
        state = new({"team_play": True, "roles": roles}, seed=b"leak%d" % seed)
        rng = Rng(seed)
        for _ in range(3000):
            if state.phase == "over" or samples >= 200:
                break
            prompts = R.prompts(state)
            role = sorted(prompts)[rng.below(len(prompts))]
            data = data_of(state)
            if may_write(data, state, role) and state.pending is None:
                team = data.team(state.roles[role])
                assert team is not None
                sub = team.seats[1 + rng.below(len(team.seats) - 1)].role
                write = Action(role, "write_order", {"recipient": sub, "text": "defend Pratzen"})
                end = Action(role, "end_part", {})
                with_views, with_logs = _views_and_logs(state, [write, end])
                without_views, without_logs = _views_and_logs(state, [end])
                for r in state.roles:
                    if r == role:
                        continue  # the author reads his own orders (NT-TEAM-23)
                    assert _masked(with_views[r]) == _masked(without_views[r]), (seed, r)
                    assert with_logs[r] == without_logs[r], (seed, r)
                samples += 1
            action = random_legal_action(R, state, role, rng)
            assert action is not None
            state = R.apply(state, action, Rng(rng.next64())).state


def test_every_choice_offered_to_a_seat_is_one_it_may_send() -> None:
    """`actions` lists, for each prompted seat, only payloads the team layer lets that seat send
    (not another seat's corps, not a decision routed to a teammate: NT-TEAM-35..48), and the
    engine accepts each of them."""
    options: dict[str, JSON] = {
        "team_play": True,
        "roles": {"a1": "AL", "a2": "AL", "a3": "AL", "f1": "F", "f2": "F"},
    }
    state = new(options, seed=b"choices")
    rng = Rng(11)
    checked = 0
    for _ in range(400):
        if state.phase == "over":
            break
        prompts = R.prompts(state)
        for role in sorted(prompts):
            for spec in R.actions(state, role):
                if spec.any_time or not isinstance(spec.choices, dict):
                    continue
                payloads = spec.choices.get("payloads")
                assert isinstance(payloads, list)
                for payload in payloads[:8]:
                    bad = R.validate(state, Action(role, spec.kind, payload))
                    assert not bad, (role, spec.kind, payload, bad)
                    checked += 1
        role = sorted(prompts)[rng.below(len(prompts))]
        action = random_legal_action(R, state, role, rng)
        assert action is not None
        state = R.apply(state, action, Rng(rng.next64())).state
    assert checked > 200
