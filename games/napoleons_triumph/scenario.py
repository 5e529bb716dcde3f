"""Scenarios and options (NT-16..NT-19, NT-133, NT-136): the initial state before set-up."""

from __future__ import annotations

import re
from collections.abc import Mapping

from games.core.i18n import T
from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph import board_data
from games.napoleons_triumph.auction import AUCTION, enabled, start
from games.napoleons_triumph.board import SHIPPED, Board, BoardError, board_named
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.state import AL, Commander, F, GameState, TurnBook, Unit

DEFAULT_BOARD = "austerlitz-published"
DEFAULT_ROLES = {"allied": AL, "french": F}  # NT-1: two sides, two players
ROLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")

# Every ambiguity of the digest is a named option whose default is the proposed reading (digest 6).
# Only the defaults are implemented; another value is refused at set-up with a clear message.
AMB_DEFAULTS: dict[str, JSON] = {
    "night_lost_basis": "gross",  # AMB-2
    "offmap_corps_size_public": True,  # AMB-3
    "fixed_battery_face_up": True,  # AMB-4
    "reveal_on_loss": True,  # AMB-5
    "auto_shuffle": True,  # AMB-6
    "setup_capacity_enforced": True,  # AMB-8
    "setup_distance_metric": "passable",  # AMB-9
    "battery_detach_on_setup": True,  # AMB-10
    "moved_unit_must_detach": True,  # AMB-11
    "last_unit_independent_move": False,  # AMB-12
    "road_lock_blocks_enemy_retreat": False,  # AMB-13
    "road_pass_full_locale": False,  # AMB-14
    "entry_locale_counts": True,  # AMB-15
    "arrival_second_command_free": False,  # AMB-16
    "threat_must_be_backed": True,  # AMB-17
    "commander_follow_requires_named": True,  # AMB-18
    "guard_inf_defense_pair": True,  # AMB-19
    "narrowed_out_commits_elite": False,  # AMB-20
    "attacker_may_lead_zero": True,  # AMB-21
    "art_consecutive_scope": "own_turns",  # AMB-22
    "penalty_per_unit": False,  # AMB-23
    "tie_count_includes_eliminated": True,  # AMB-24
    "detached_may_pair": False,  # AMB-25
    "tier3_excludes_leading_artillery": True,  # AMB-26
    "approach_loss_local": True,  # AMB-28
    "retreat_elimination_costs_morale": True,  # AMB-29
    "guard_shown_must_attack": True,  # AMB-31
    "guard_attack_obstruction_side": "attack",  # AMB-32
    "guard_vacate_is_win": True,  # AMB-33
    "control_road_strands": True,  # AMB-34
    "santon_reserve_counts_as_blocking": False,  # AMB-36
    "road_attack_combined": False,  # AMB-37
    "retreat_detach_literal": True,  # AMB-38
}
KNOWN_OPTIONS = {
    "board",
    "board_data",
    "board_fragment",
    "santon",
    "balance",
    "roles",
    "team_play",  # rulebook chapter 19 (NT-TEAM-1): team/engine.py
    "conference_notes_allowed",  # NT-TEAM-12
    "team",  # the team AMB options (team/phases.py AMB_OPTIONS)
    *AMB_DEFAULTS,
}
TEAM_MAX = 4  # NT-TEAM-1: one to four players a side


def team_play(options: Mapping[str, JSON]) -> bool:
    """NT-TEAM-1: a team game (options.team_play = true)."""
    return options.get("team_play") is True


def board_name(options: Mapping[str, JSON]) -> str:
    """The board id of the option `board` (NT-19): a shipped (or registered) board id, never a
    path. The message lists the shipped ids and never echoes more than a short identifier."""
    name = options.get("board", DEFAULT_BOARD)
    if not isinstance(name, str):
        raise Illegal(
            "NT-19",
            T("options.board must be a board id, one of {boards}", boards=", ".join(SHIPPED)),
            "/options/board",
        )
    return name


def board_of(options: Mapping[str, JSON]) -> Board:
    """The board of a new game: `board_data` (a custom board as data, board_data.py: checked,
    size-limited, id `custom-<sha256>`; it travels in the state's options, so replays and loaded
    snapshots re-create it) or the shipped board the option `board` names (NT-19)."""
    fragment = options.get("board_fragment", False)
    require(
        isinstance(fragment, bool),
        "NT-19",
        T("options.board_fragment is true or false"),
        "/options/board_fragment",
    )
    if "board_data" in options:
        require(
            "board" not in options,
            "NT-19",
            T(
                "give options.board (a shipped board id) or options.board_data (a board as data), "
                "not both"
            ),
            "/options/board",
        )
        try:
            return board_data.build(options["board_data"], fragment=fragment is True)
        except BoardError as e:
            raise Illegal("NT-19", str(e).replace("\n", "; "), "/options/board_data") from None
    require(
        fragment is False,
        "NT-19",
        T("options.board_fragment applies only to options.board_data"),
        "/options/board_fragment",
    )
    try:
        return board_named(board_name(options))
    except BoardError as e:
        raise Illegal("NT-19", str(e).replace("\n", "; "), "/options/board") from None


def board_for(state: GameState) -> Board:
    """The board of a game: a shipped or registered board by its id, or a custom board re-created
    from the `board_data` kept in the state's options (in any process, no file read)."""
    if state.board.startswith(board_data.PREFIX):
        return board_data.board_for(state.board, state.options)
    return board_named(state.board)


def check_options(options: Mapping[str, JSON]) -> None:
    for key, value in options.items():
        require(
            key in KNOWN_OPTIONS,
            "NT-19",
            T("unknown option {option}", option=repr(key)),
            f"/options/{key}",
        )
        if key in AMB_DEFAULTS:
            require(
                value == AMB_DEFAULTS[key],
                "NT-19",
                T(
                    "option {option} = {value} is not implemented; only {default} is",
                    option=key,
                    value=repr(value),
                    default=repr(AMB_DEFAULTS[key]),
                ),
                f"/options/{key}",
            )
    require(
        isinstance(options.get("santon", False), bool),
        "NT-136",
        T("options.santon is true or false"),
    )
    require(
        isinstance(options.get("team_play", False), bool),
        "NT-TEAM-1",
        T("options.team_play is true or false"),
        "/options/team_play",
    )
    if not team_play(options):
        for key in ("conference_notes_allowed", "team"):
            require(
                key not in options,
                "NT-TEAM-1",
                T(
                    "options.{option} belongs to team play: set options.team_play = true",
                    option=key,
                ),
                f"/options/{key}",
            )
    balance = options.get("balance")
    require(
        not (team_play(options) and balance == AUCTION),
        "NT-TEAM-45",
        T("team play with the balance auction (a spokesman per team) is not implemented yet"),
        "/options/balance",
    )
    if balance == AUCTION:
        # NT-134: the auction decides who plays which side, so the roles cannot be fixed before
        require(
            "roles" not in options,
            "NT-140",
            T(
                "options.roles cannot be combined with the auction: its winner chooses his side "
                "(NT-135); team play with the auction (a speaker per team) is not implemented"
            ),
            "/options/roles",
        )
    elif balance is not None:
        # NT-133: a reduction of one side's starting morale by agreement.
        ok = (
            isinstance(balance, dict)
            and set(balance) == {"side", "reduce"}
            and balance["side"] in (F, AL)
            and isinstance(balance["reduce"], int)
            and not isinstance(balance["reduce"], bool)
            and balance["reduce"] >= 0
        )
        require(
            ok,
            "NT-133",
            T(
                'options.balance is {agreement} (by agreement) or "auction" (NT-134)',
                agreement='{"side": "F"|"AL", "reduce": n >= 0}',
            ),
            "/options/balance",
        )


def roles_of(options: Mapping[str, JSON]) -> dict[str, str]:
    raw = options.get("roles")
    if raw is None:
        return dict(DEFAULT_ROLES)
    ok = isinstance(raw, dict) and all(v in (F, AL) for v in raw.values())
    ok = ok and isinstance(raw, dict) and {F, AL} <= set(raw.values())
    ok = ok and isinstance(raw, dict) and all(ROLE_ID.fullmatch(k) for k in raw)
    require(
        ok,
        "NT-140",
        T(
            "options.roles maps role ids (letters, digits, '_' or '-', at most 32) to the sides F "
            "and AL (both)"
        ),
        "/options/roles",
    )
    assert isinstance(raw, dict)
    for side in (AL, F):
        named = sorted(k for k, v in raw.items() if v == side)
        if team_play(options):
            require(
                1 <= len(named) <= TEAM_MAX,
                "NT-TEAM-1",
                T(
                    "a team has 1 to {most} players; options.roles gives side {side} {n} ({roles})",
                    most=TEAM_MAX,
                    side=side,
                    n=len(named),
                    roles=", ".join(named),
                ),
                "/options/roles",
            )
            continue
        require(
            len(named) == 1,
            "NT-TEAM",
            T(
                "team play (rulebook chapter 19, L656-713) is not implemented yet: options.roles "
                "gives side {side} {n} roles ({roles}); give each side exactly one role, or set "
                "options.team_play = true",
                side=side,
                n=len(named),
                roles=", ".join(named),
            ),
            "/options/roles",
        )
    return {str(k): str(v) for k, v in raw.items()}


def new_game(scenario: str, options: Mapping[str, JSON], rng: Rng) -> GameState:
    check_options(options)
    board = board_of(options)
    require(
        scenario in board.scenarios,
        "NT-16",
        T(
            "unknown scenario {scenario}; this board has {scenarios}",
            scenario=repr(scenario),
            scenarios=", ".join(board.scenarios),
        ),
        "/scenario",
    )
    sdef = board.scenarios[scenario]
    morale = {F: sdef.starting_morale[F], AL: sdef.starting_morale[AL]}  # NT-110
    balance = options.get("balance")
    if enabled(options):
        roles: dict[str, str] = {}  # NT-135: the auction decides (auction.py)
    else:
        roles = roles_of(options)
    if isinstance(balance, dict):
        side, reduce = str(balance["side"]), balance["reduce"]
        assert isinstance(reduce, int)
        require(reduce < morale[side], "NT-135", T("a reduction may not bring morale below 1"))
        morale[side] -= reduce
    units: dict[str, Unit] = {}
    for side in (AL, F):
        for uid, face in board.army[side]:  # NT-6: the army displays, not the box counts
            units[uid] = Unit(id=uid, side=side, type=face.type, strength=face.strength)
    commanders = {c.id: Commander(id=c.id, side=c.side) for c in board.commanders.values()}
    salt = rng.token(16)  # NT-146: derived from the seed; never in a view or log
    return GameState(
        board=board.name,
        scenario=scenario,
        options=dict(options),
        roles=roles,
        salt=salt,
        phase=AUCTION if enabled(options) else "setup_AL",
        round=1,
        active=AL,
        turn_number=0,
        morale=morale,
        morale_lost={F: 0, AL: 0},
        elite_committed={F: [], AL: []},
        guard_banned={F: False, AL: False},
        reinforcements_entered=False,
        units=units,
        commanders=commanders,
        turn=TurnBook(),
        last_artillery={},
        auction=start(rng) if enabled(options) else None,  # NT-134: the lot, after the salt
    )
