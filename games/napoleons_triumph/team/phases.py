"""The team layer's phases (rulebook chapter 19, digest napoleons-triumph-team.md 2.1-2.3, 2.10,
3.2, 3.7): teams and their ranks, the corps assignment, the conferences (initial and night) with
their chat, the ban on communication, the auction's spokesmen, the shared result.

A pure, explicit state machine on frozen dataclasses (JSON round-trip: `to_json` / `from_json`):

* `new_state(scenario, options, members, commanders, spokesmen)` validates the teams and options
  (raises `SetupRefused` naming the NT-TEAM rule).
* `apply(state, action) -> Applied` takes one team action (`set_ranks`, `confirm_ranks`,
  `assign_corps`, `close_conference`, `skip_conference`, `chat_message`), or raises `Illegal`
  naming its NT-TEAM rule; `Applied.events` are what the server publishes (each with its audience).
* `on_engine_phase(state, point) -> Applied` is the hook the lead calls after every engine step
  (it is idempotent: it changes the team layer only when the engine's phase, round or active side
  changed). `point_of(game_state, board)` builds its `EnginePoint`.
* Queries: `phase_of`, `chat_open`, `refusal` / `may_act` (the phase gate for any action kind),
  `team_of` (the locked ranks as a `model.Team`), `assignment_of`, `transcript_readable`,
  `seat_results`.

Team phases (digest 3.2): auction -> conference_initial -> setup -> play, with
conference_night(side) before that side's night turn in DEC1, and over.

This module keeps the set-up of the layer (options, teams: NT-TEAM-1, -2, -12, -45), `apply`, the
engine hook (NT-TEAM-4, -9, AMB-13) and the queries on the result (NT-TEAM-3, -8, -10, -11). The
parts live beside it and are re-exported here, the one import for other code: team_state.py (the
phases, dataclasses, JSON), actions.py (the team actions and their payloads), chat.py (chat and
transcripts), phase_gate.py (`refusal` / `may_act`), conference.py (the conference actions and
the AMB-25 deadline fallbacks, `deadline_close`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON, Action
from games.napoleons_triumph.auction import PLAYERS
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.errors import SetupRefused as SetupRefused
from games.napoleons_triumph.scenario import ROLE_ID
from games.napoleons_triumph.state import AL, DEAD, SIDES, F, GameState
from games.napoleons_triumph.team.actions import ASSIGN_CORPS as ASSIGN_CORPS
from games.napoleons_triumph.team.actions import CHAT_MESSAGE as CHAT_MESSAGE
from games.napoleons_triumph.team.actions import CLOSE_CONFERENCE as CLOSE_CONFERENCE
from games.napoleons_triumph.team.actions import CONFIRM_RANKS as CONFIRM_RANKS
from games.napoleons_triumph.team.actions import KINDS as KINDS
from games.napoleons_triumph.team.actions import SET_RANKS as SET_RANKS
from games.napoleons_triumph.team.actions import SKIP_CONFERENCE as SKIP_CONFERENCE
from games.napoleons_triumph.team.actions import AssignCorps as AssignCorps
from games.napoleons_triumph.team.actions import ChatMessage as ChatMessage
from games.napoleons_triumph.team.actions import CloseConference as CloseConference
from games.napoleons_triumph.team.actions import ConfirmRanks as ConfirmRanks
from games.napoleons_triumph.team.actions import SetRanks as SetRanks
from games.napoleons_triumph.team.actions import SkipConference as SkipConference
from games.napoleons_triumph.team.actions import TeamAction as TeamAction
from games.napoleons_triumph.team.actions import action_to_json as action_to_json
from games.napoleons_triumph.team.actions import kind_of as kind_of
from games.napoleons_triumph.team.actions import parse_action as parse_action
from games.napoleons_triumph.team.chat import MAX_CHAT as MAX_CHAT
from games.napoleons_triumph.team.chat import chat_open as chat_open
from games.napoleons_triumph.team.chat import post_message
from games.napoleons_triumph.team.chat import transcript_readable as transcript_readable
from games.napoleons_triumph.team.conference import (
    assign_corps,
    close_conference,
    confirm_ranks,
    open_initial,
    set_ranks,
    turn_start_event,
)
from games.napoleons_triumph.team.conference import deadline_close as deadline_close
from games.napoleons_triumph.team.model import MAX_SEATS, Team, TeamSeat
from games.napoleons_triumph.team.phase_gate import acting_team
from games.napoleons_triumph.team.phase_gate import may_act as may_act
from games.napoleons_triumph.team.phase_gate import refusal as refusal
from games.napoleons_triumph.team.team_state import AUCTION as AUCTION
from games.napoleons_triumph.team.team_state import CONF_INITIAL as CONF_INITIAL
from games.napoleons_triumph.team.team_state import CONF_NIGHT as CONF_NIGHT
from games.napoleons_triumph.team.team_state import INITIAL as INITIAL
from games.napoleons_triumph.team.team_state import NIGHT as NIGHT
from games.napoleons_triumph.team.team_state import NIGHT_SCENARIO as NIGHT_SCENARIO
from games.napoleons_triumph.team.team_state import OVER as OVER
from games.napoleons_triumph.team.team_state import PHASES as PHASES
from games.napoleons_triumph.team.team_state import PLAY as PLAY
from games.napoleons_triumph.team.team_state import PUBLIC as PUBLIC
from games.napoleons_triumph.team.team_state import SETUP as SETUP
from games.napoleons_triumph.team.team_state import Applied as Applied
from games.napoleons_triumph.team.team_state import Conference as Conference
from games.napoleons_triumph.team.team_state import EnginePoint as EnginePoint
from games.napoleons_triumph.team.team_state import TeamEvent as TeamEvent
from games.napoleons_triumph.team.team_state import TeamPhase as TeamPhase
from games.napoleons_triumph.team.team_state import TeamRecord as TeamRecord
from games.napoleons_triumph.team.team_state import TeamState as TeamState
from games.napoleons_triumph.team.team_state import from_json as from_json
from games.napoleons_triumph.team.team_state import set_conference, with_team
from games.napoleons_triumph.team.team_state import side_commanders as side_commanders
from games.napoleons_triumph.team.team_state import team_at as team_at
from games.napoleons_triumph.team.team_state import team_of_role as team_of_role
from games.napoleons_triumph.team.team_state import to_json as to_json

# AMB options of the digest's section 6 that this module owns (`options.team.<key>`): only the
# proposed default is implemented; any other value is refused by name with the rule it touches.
AMB_OPTIONS: dict[str, tuple[JSON, str, str]] = {
    "rank_agreement": ("unanimous", "NT-TEAM-5", "AMB-1"),
    "ban_scope": ("from_conference_close", "NT-TEAM-13", "AMB-2, AMB-32"),
    "publish_conference_post_game": ("unanimous", "NT-TEAM-12", "AMB-9"),
    "night_conference_timing": ("before_own_turn", "NT-TEAM-9", "AMB-13"),
    "night_min_one_corps": (True, "NT-TEAM-10", "AMB-14"),
    "auction_team_chat": (False, "NT-TEAM-45", "AMB-23"),
    "conference_timeout": ("fallback", "NT-TEAM-4", "AMB-25"),
    "cinc_succession": (False, "NT-TEAM-10", "AMB-26"),
    "public_chat_in_play": (False, "NT-TEAM-13", "AMB-28"),
    "auction_side_choice": ("spokesman", "NT-TEAM-45", "AMB-31"),
    "battery_any_corps": (True, "NT-TEAM-31", "AMB-12"),
}


# ---------------------------------------------------------------------------------------------
# Set-up of the team layer: options and teams


def check_options(options: Mapping[str, JSON]) -> bool:
    """The options this module reads; returns `conference_notes_allowed`. NT-TEAM-1: the layer
    exists only with `team_play: true`; NT-TEAM-12: notes are agreed before the game (bool);
    `team.<key>`: the AMB keys of AMB_OPTIONS take only their default (other `team` keys belong to
    the other team modules and are not checked here)."""
    if options.get("team_play") is not True:
        raise SetupRefused("NT-TEAM-1", T("team play needs options.team_play = true"), "/options")
    notes = options.get("conference_notes_allowed", False)
    if not isinstance(notes, bool):
        raise SetupRefused(
            "NT-TEAM-12",
            T("options.conference_notes_allowed is true or false (agreed before the game)"),
            "/options/conference_notes_allowed",
        )
    team = options.get("team", {})
    if not isinstance(team, dict):
        raise SetupRefused("NT-TEAM-1", T("options.team is an object"), "/options/team")
    for key in sorted(team):
        if key not in AMB_OPTIONS:
            continue
        default, rule, amb = AMB_OPTIONS[key]
        value = team[key]
        if value != default or type(value) is not type(default):
            raise SetupRefused(
                rule,
                T(
                    "option team.{option} = {value} is not implemented; only {default} is ({amb})",
                    option=key,
                    value=repr(value),
                    default=repr(default),
                    amb=amb,
                ),
                f"/options/team/{key}",
            )
    return notes


def commanders_of(board: Board) -> dict[str, tuple[str, ...]]:
    """Each side's commanders in the board's (tableau) order, reinforcements included."""
    return {
        side: tuple(c.id for c in board.commanders.values() if c.side == side) for side in SIDES
    }


def new_state(
    scenario: str,
    options: Mapping[str, JSON],
    members: Mapping[str, Sequence[str]],
    commanders: Mapping[str, Sequence[str]],
    spokesmen: Mapping[str, str] | None = None,
) -> TeamState:
    """The team layer at set-up step (1). `members`: team key -> role ids in lobby order; the keys
    are the sides AL and F, or with the balance auction the auction seats player_1 and player_2.
    NT-TEAM-1: 1..4 seats per team; NT-TEAM-2: the sizes may differ, the teams are fixed now;
    NT-TEAM-45: with the auction each team names its spokesman (AMB-23: in the lobby).
    Without the auction both initial conferences are open at once (their public "open" status is
    the state's); with it, they open when `on_engine_phase` sees the auction's end."""
    notes = check_options(options)
    auction = options.get("balance") == "auction"
    keys = PLAYERS if auction else (AL, F)
    if sorted(members) != sorted(keys):
        raise SetupRefused(
            "NT-TEAM-2",
            T(
                "the two teams are {teams} (the auction decides their sides)",
                teams=" and ".join(keys),
            )
            if auction
            else T("the two teams are {teams}", teams=" and ".join(keys)),
            "/teams",
        )
    seen: set[str] = set()
    for key in keys:
        roles = tuple(members[key])
        if not 1 <= len(roles) <= MAX_SEATS:  # NT-TEAM-1 (409 team_full)
            raise SetupRefused(
                "NT-TEAM-1",
                T("team {team} has {n} seats; a team has 1 to 4", team=key, n=len(roles)),
                f"/teams/{key}",
            )
        for role in roles:
            if not ROLE_ID.fullmatch(role) or role in seen:
                raise SetupRefused(
                    "NT-TEAM-2",
                    T("seat {seat} is not a new, valid role id", seat=repr(role)),
                    f"/teams/{key}",
                )
            seen.add(role)
        if not auction:  # model.Team checks the seat count and side (NT-TEAM-1)
            try:
                Team(key, tuple(TeamSeat(r, key, i + 1) for i, r in enumerate(roles)))
            except ValueError as e:
                raise SetupRefused("NT-TEAM-1", str(e), f"/teams/{key}") from e
    speakers = dict(spokesmen or {})
    if auction:
        for key in keys:  # NT-TEAM-45
            if speakers.get(key) not in members[key]:
                raise SetupRefused(
                    "NT-TEAM-45",
                    T(
                        "with the balance auction team {team} names its spokesman, one of its "
                        "seats",
                        team=key,
                    ),
                    f"/spokesmen/{key}",
                )
    elif speakers:
        raise SetupRefused(
            "NT-TEAM-45", T("spokesmen are named only for the balance auction"), "/spokesmen"
        )
    for side in SIDES:
        if not commanders.get(side):
            raise SetupRefused(
                "NT-TEAM-7", T("side {side} has no commanders", side=side), "/commanders"
            )
    teams = tuple(
        TeamRecord(
            key=key,
            side=None if auction else key,
            members=tuple(members[key]),
            spokesman=speakers.get(key),
        )
        for key in keys
    )
    state = TeamState(
        scenario=scenario,
        notes_allowed=notes,
        auction=auction,
        commanders=tuple((s, tuple(commanders[s])) for s in SIDES),
        teams=teams,
        phase=AUCTION,
    )
    # NT-TEAM-4: without the auction, set-up step (2) is the lobby's: the conferences open now
    return state if auction else open_initial(state).state


# ---------------------------------------------------------------------------------------------
# Queries


def phase_of(state: TeamState) -> TeamPhase:
    """Digest 3.2: the current team phase (with the side of a night conference)."""
    return TeamPhase(state.phase, state.phase_side)


def team_of(state: TeamState, side: str) -> Team | None:
    """The locked ranks as a model.Team (None before the initial conference closed)."""
    t = team_at(state, side)
    if t.ranks is None or t.side is None:
        return None
    return Team(t.side, tuple(TeamSeat(r, t.side, i + 1) for i, r in enumerate(t.ranks)))


def assignment_of(state: TeamState, side: str) -> dict[str, str]:
    """The announced corps assignment (commander -> role), NT-TEAM-8 / NT-TEAM-11."""
    return dict(team_at(state, side).corps)


def seat_results(state: TeamState, winner: str | None) -> dict[str, str]:
    """NT-TEAM-3: no individual winner; every seat gets its side's result (None: a draw)."""
    out: dict[str, str] = {}
    for t in state.teams:
        res = "draw" if winner is None else ("win" if t.side == winner else "loss")
        for role in t.members:
            out[role] = res
    return out


# ---------------------------------------------------------------------------------------------
# Actions


def apply(state: TeamState, action: TeamAction | Action) -> Applied:
    """Validate and apply one team action (pure). Raises Illegal naming its NT-TEAM rule."""
    act = parse_action(action) if isinstance(action, Action) else action
    kind = kind_of(act)
    team = acting_team(state, act.role, kind)
    if isinstance(act, ChatMessage):
        return post_message(state, team, act)
    if isinstance(act, SetRanks):
        return set_ranks(state, team, act)
    if isinstance(act, ConfirmRanks):
        return confirm_ranks(state, team, act)
    if isinstance(act, AssignCorps):
        return assign_corps(state, team, act)
    return close_conference(state, team, skipped=isinstance(act, SkipConference))


# ---------------------------------------------------------------------------------------------
# The engine hook


def point_of(game: GameState, board: Board) -> EnginePoint:
    """The EnginePoint of an engine state (its phase, round, active side, night round, the sides
    the auction gave, the commanders still in play)."""
    rounds = board.scenarios[game.scenario].rounds
    night = 1 <= game.round <= len(rounds) and rounds[game.round - 1].night
    sides = tuple(sorted((r, s) for r, s in game.roles.items() if r in PLAYERS))
    in_play = tuple(sorted(c for c, cmd in game.commanders.items() if cmd.where != DEAD))
    return EnginePoint(game.phase, game.round, game.active, night, sides, in_play)


def on_engine_phase(state: TeamState, point: EnginePoint) -> Applied:
    """Call after every engine step (idempotent). Maps the engine's phase to the team phase:
    auction -> AUCTION; setup_AL / setup_F -> CONF_INITIAL (both conferences open at once, after
    set-up step 2, NT-TEAM-4) until both closed, then SETUP; turn -> PLAY, or in DEC1's night
    round CONF_NIGHT(active) before that side's night turn (NT-TEAM-9, AMB-13: each team right
    before its own night turn); over -> OVER (any open conference closes). Each new team turn
    gives one `team_turn_start` event (after the night conference, 3.4.6): the lead delivers
    the written orders of the team's previous turn there. Raises ValueError when the engine is
    ahead of the team layer (a wiring error: the lead must gate engine actions with `refusal`)."""
    if state.phase == OVER:
        return Applied(state)
    if point.phase == "over":
        return _game_over(state)
    if point.phase == "auction":
        return Applied(state)
    if point.phase in ("setup_AL", "setup_F"):
        return _setup(state, point)
    if point.phase != "turn":
        raise ValueError(f"unknown engine phase {point.phase!r}")
    if state.phase in (AUCTION, CONF_INITIAL):
        raise ValueError("the engine is playing before the initial conferences closed")
    side, rnd = point.active, point.round
    if state.phase == CONF_NIGHT:
        return Applied(state)
    team = team_at(state, side)
    held = any(c.kind == NIGHT and c.round == rnd for c in team.conferences)
    if point.night and state.scenario == NIGHT_SCENARIO and not held:  # NT-TEAM-9
        mine = side_commanders(state, side)
        conf = Conference(NIGHT, rnd, True, in_play=tuple(c for c in mine if c in point.in_play))
        team = replace(team, conferences=(*team.conferences, conf))
        state = replace(with_team(state, team), phase=CONF_NIGHT, phase_side=side)
        event = TeamEvent("conference_opened", PUBLIC, team.key, {"kind": NIGHT, "round": rnd})
        return Applied(state, (event,))
    if state.turn == (side, rnd):
        return Applied(replace(state, phase=PLAY) if state.phase != PLAY else state)
    return Applied(replace(state, phase=PLAY, turn=(side, rnd)), (turn_start_event(side, rnd),))


def _setup(state: TeamState, point: EnginePoint) -> Applied:
    if state.phase == AUCTION:  # NT-TEAM-45: the auction has given each team its side
        sides = dict(point.sides)
        teams = []
        for t in state.teams:
            if sides.get(t.key) not in SIDES:
                raise ValueError(f"the auction gave team {t.key} no side")
            teams.append(replace(t, side=sides[t.key]))
        return open_initial(replace(state, teams=tuple(teams)))
    return Applied(state)


def _game_over(state: TeamState) -> Applied:
    events = []
    teams = []
    for t in state.teams:
        conf = t.conference
        if conf is not None:
            t = set_conference(replace(t, draft=None), replace(conf, open=False))
            data: JSON = {"kind": conf.kind, "round": conf.round}
            events.append(TeamEvent("conference_closed", PUBLIC, t.key, data))
        teams.append(t)
    return Applied(replace(state, teams=tuple(teams), phase=OVER, phase_side=None), tuple(events))
