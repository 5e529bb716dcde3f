"""Scenarios and options (NT-16..NT-19, NT-133, NT-136): the initial state before set-up."""

from __future__ import annotations

from collections.abc import Mapping

from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph.board import SHIPPED, Board, BoardError, board_named
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.state import AL, Commander, F, GameState, TurnBook, Unit

DEFAULT_BOARD = "austerlitz-published"
DEFAULT_ROLES = {"allied": AL, "french": F}  # NT-1: two sides, two players

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
KNOWN_OPTIONS = {"board", "board_data", "santon", "balance", "roles", *AMB_DEFAULTS}


def board_name(options: Mapping[str, JSON]) -> str:
    """The board id of the option `board` (NT-19): a shipped (or registered) board id, never a
    path. The message lists the shipped ids and never echoes more than a short identifier."""
    name = options.get("board", DEFAULT_BOARD)
    if not isinstance(name, str):
        raise Illegal(
            "NT-19",
            f"options.board must be a board id, one of {', '.join(SHIPPED)}",
            "/options/board",
        )
    return name


def board_of(options: Mapping[str, JSON]) -> Board:
    if "board_data" in options:
        # A custom board as data is not supported yet: the state names its board by id, and a
        # board given inline would have to travel with every stored state to replay.
        raise Illegal(
            "NT-19",
            "options.board_data (a custom board given as data) is not supported yet; choose a "
            f"shipped board with options.board, one of {', '.join(SHIPPED)}",
            "/options/board_data",
        )
    try:
        return board_named(board_name(options))
    except BoardError as e:
        raise Illegal("NT-19", str(e).replace("\n", "; "), "/options/board") from None


def check_options(options: Mapping[str, JSON]) -> None:
    for key, value in options.items():
        require(key in KNOWN_OPTIONS, "NT-19", f"unknown option {key!r}", f"/options/{key}")
        if key in AMB_DEFAULTS:
            require(
                value == AMB_DEFAULTS[key],
                "NT-19",
                f"option {key} = {value!r} is not implemented; only {AMB_DEFAULTS[key]!r} is",
                f"/options/{key}",
            )
    require(
        isinstance(options.get("santon", False), bool), "NT-136", "options.santon is true or false"
    )
    balance = options.get("balance")
    if balance is not None:
        # NT-133: a reduction of one side's starting morale by agreement. The auction (NT-134) needs
        # the platform to assign seats after set-up, which it cannot do yet.
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
            'options.balance is {"side": "F"|"AL", "reduce": n >= 0}; the auction of NT-134 is '
            "not implemented",
            "/options/balance",
        )


def roles_of(options: Mapping[str, JSON]) -> dict[str, str]:
    raw = options.get("roles")
    if raw is None:
        return dict(DEFAULT_ROLES)
    ok = isinstance(raw, dict) and all(v in (F, AL) for v in raw.values())
    ok = ok and isinstance(raw, dict) and {F, AL} <= set(raw.values())
    require(ok, "NT-140", "options.roles maps role ids to the sides F and AL (both)", "/roles")
    assert isinstance(raw, dict)
    return {str(k): str(v) for k, v in raw.items()}


def new_game(scenario: str, options: Mapping[str, JSON], rng: Rng) -> GameState:
    check_options(options)
    board = board_of(options)
    require(
        scenario in board.scenarios,
        "NT-16",
        f"unknown scenario {scenario!r}; this board has {', '.join(board.scenarios)}",
        "/scenario",
    )
    sdef = board.scenarios[scenario]
    morale = {F: sdef.starting_morale[F], AL: sdef.starting_morale[AL]}  # NT-110
    balance = options.get("balance")
    if isinstance(balance, dict):
        side, reduce = str(balance["side"]), balance["reduce"]
        assert isinstance(reduce, int)
        require(reduce < morale[side], "NT-135", "a reduction may not bring morale below 1")
        morale[side] -= reduce
    units: dict[str, Unit] = {}
    for side in (AL, F):
        for uid, face in board.army[side]:  # NT-6: the army displays, not the box counts
            units[uid] = Unit(id=uid, side=side, type=face.type, strength=face.strength)
    commanders = {c.id: Commander(id=c.id, side=c.side) for c in board.commanders.values()}
    return GameState(
        board=board_name(options),
        scenario=scenario,
        options=dict(options),
        roles=roles_of(options),
        salt=rng.token(16),  # NT-146: derived from the seed; never in a view or log
        phase="setup_AL",
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
    )
