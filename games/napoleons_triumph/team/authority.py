"""Who may act in a team's turn (digest napoleons-triumph-team.md 2.6, 2.7, 2.9, 2.11): the parts
of a team turn in rank order (NT-TEAM-32), the limits the whole team shares (NT-TEAM-33,
NT-TEAM-34), which pieces a seat may command (NT-TEAM-35..NT-TEAM-39, the nearest-leader rule
with the digest's distance) and combined attacks (NT-TEAM-44, NT-TEAM-48, NT-TEAM-49).

Pure functions over the engine's own `Board` and `GameState`, the shared `Team` and
`CorpsAssignment` (model.py); nothing here changes the engine or its state. The inputs:

* ``team``: the seats of one side in rank order; a *role* is a seat's engine role id.
* ``assignment``: commander id -> role (NT-TEAM-7). It may hold the commanders of both sides
  (merge the two teams' assignments); a commander that is missing has no owner.
* ``turn``: a :class:`TeamTurn`, the only bookkeeping the engine does not keep: how many seats of
  the acting team have ended their part. The team layer stores it and starts a new one at every
  engine turn (`start_team_turn`).

Refusals raise :class:`TeamRefused` (an engine `Illegal`, so `validate` reports it like any
rule) with the digest's rule id, the digest's code (`not_nearest`, ...) and its HTTP status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.commands import (
    ALLIED_CORPS_LIMIT,
    INDEPENDENT_LIMIT,
    corps_commands_allowed,
    moves_allowed,
)
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.state import AL, MAP, OFFMAP, GameState, Unit
from games.napoleons_triumph.team.model import CorpsAssignment, Team

__all__ = [
    "ATTACK_DECLARATIONS",
    "CORPS_KINDS",
    "SharedBudget",
    "TeamRefused",
    "TeamTurn",
    "acting_role",
    "check_budget",
    "check_command",
    "check_part",
    "check_team_command",
    "end_part",
    "has_command_left",
    "may_attach",
    "may_command",
    "may_give_corps_command",
    "may_give_independent",
    "nearest_role",
    "owner_of_commander",
    "owner_of_unit",
    "part_order",
    "seat_distance",
    "shared_budget",
    "start_team_turn",
    "team_turn_over",
]

CORPS_KINDS = ("corps_move", "detach_move")  # with attach: the corps commands (NT-TEAM-35)
ATTACK_DECLARATIONS = ("declare_attack", "declare_feint", "declare_after_vacate")  # NT-TEAM-44


class TeamRefused(Illegal):
    """A team rule refuses an action: `rejection.rule` is the NT-TEAM id, `code` the digest's
    error code (e.g. ``not_nearest``) and `status` its HTTP status (403 or 409). `message` is
    the whole refusal, which begins with the code (`"not_nearest: ..."`: one template each)."""

    def __init__(self, rule: str, code: str, status: int, message: str, path: str = "") -> None:
        super().__init__(rule, message, path)
        self.code = code
        self.status = status


# --------------------------------------------------------------------------------------------------
# 2.6 The team turn in rank order and its shared limits (NT-TEAM-32..NT-TEAM-34)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamTurn:
    """The parts of one team turn (NT-TEAM-32): `side`'s engine turn `turn_number`
    (`GameState.turn_number`) and how many seats have sent `end_part` so far."""

    side: str
    turn_number: int
    parts_ended: int = 0


def part_order(team: Team) -> tuple[str, ...]:
    """NT-TEAM-32: the roles in the order they play their parts: the CinC first, then by rank."""
    return tuple(s.role for s in sorted(team.seats, key=lambda s: s.rank))


def start_team_turn(state: GameState, team: Team) -> TeamTurn:
    """NT-TEAM-32: a new team turn (the engine's turn of `team.side`) begins with the CinC."""
    if state.active != team.side:
        raise ValueError(f"it is not the turn of {team.side}")
    return TeamTurn(team.side, state.turn_number, 0)


def acting_role(team: Team, turn: TeamTurn) -> str | None:
    """NT-TEAM-32: the role whose part is running, or None once every seat has ended its part
    (the team turn is then over: the team layer sends the engine's `end_turn`)."""
    order = part_order(team)
    return order[turn.parts_ended] if turn.parts_ended < len(order) else None


def team_turn_over(team: Team, turn: TeamTurn) -> bool:
    """NT-TEAM-32: after the last seat's `end_part` the team turn ends."""
    return acting_role(team, turn) is None


def check_part(team: Team, turn: TeamTurn, role: str) -> None:
    """NT-TEAM-32: only the acting seat may give commands; a seat cannot get its part back."""
    acting = acting_role(team, turn)
    if acting != role:
        raise TeamRefused(
            "NT-TEAM-32",
            "not_your_part",
            409,
            T("not_your_part: it is the part of nobody of this team turn")
            if acting is None
            else T(
                "not_your_part: it is the part of rank {rank} of this team turn",
                rank=team.seat(acting).rank,
            ),
        )


def end_part(team: Team, turn: TeamTurn, role: str) -> TeamTurn:
    """NT-TEAM-32: the acting seat ends its part; the next seat in rank order acts."""
    check_part(team, turn, role)
    return TeamTurn(turn.side, turn.turn_number, turn.parts_ended + 1)


@dataclass(frozen=True, slots=True)
class SharedBudget:
    """NT-TEAM-33: the command limits of the whole team, read from the engine's per-side
    counters (`TurnBook.independent_used`, `TurnBook.corps_used`). `corps_limit` is None for
    the French, who have no limit on corps commands."""

    side: str
    independent_used: int
    independent_limit: int
    corps_used: int
    corps_limit: int | None

    @property
    def independent_left(self) -> int:
        return max(0, self.independent_limit - self.independent_used)

    @property
    def corps_left(self) -> int | None:
        return None if self.corps_limit is None else max(0, self.corps_limit - self.corps_used)


def shared_budget(state: GameState, side: str) -> SharedBudget:
    """NT-TEAM-33, NT-TEAM-34: what the team of `side` has left in its running turn, counted
    over all its seats' parts (each command restricts the seats after it). The engine's
    `TurnBook` belongs to the active side; for the other side this is its next, unused turn.
    AMB-15: the Allied limit counts every corps command (Corps Move, Detachment Move, Attach),
    which is what the engine's `corps_used` counts."""
    used_i = state.turn.independent_used if state.active == side else 0
    used_c = state.turn.corps_used if state.active == side else 0
    return SharedBudget(
        side,
        used_i,
        INDEPENDENT_LIMIT[side],
        used_c,
        ALLIED_CORPS_LIMIT if side == AL else None,
    )


def _spec_counts(kind: str, payload: Mapping[str, JSON]) -> tuple[int, int]:
    """(independent, corps) commands an action would spend."""
    if kind == "unit_move":
        return 1, 0
    if kind in (*CORPS_KINDS, "attach"):
        return 0, 1
    if kind == "enter_reinforcement":
        return (1, 0) if payload.get("command") == "unit_move" else (0, 1)
    if kind in ATTACK_DECLARATIONS:
        ind = cor = 0
        for spec in _specs(payload):
            if spec.get("kind") == "unit_move":
                ind += 1
            else:
                cor += 1
        return ind, cor
    return 0, 0


def check_budget(state: GameState, side: str, kind: str, payload: Mapping[str, JSON]) -> None:
    """NT-TEAM-33, NT-TEAM-34: refuse a command the team's shared limits no longer allow (the
    engine refuses it too, with NT-37 / NT-38; this gives the team code)."""
    budget = shared_budget(state, side)
    ind, cor = _spec_counts(kind, payload)
    if ind and budget.independent_left < ind:
        raise TeamRefused(
            "NT-TEAM-33",
            "no_independent_commands_left",
            409,
            T(
                "no_independent_commands_left: the team has {left} of its {limit} independent "
                "commands left this turn",
                left=budget.independent_left,
                limit=budget.independent_limit,
            ),
        )
    left = budget.corps_left
    if cor and left is not None and left < cor:
        raise TeamRefused(
            "NT-TEAM-33",
            "no_corps_commands_left",
            409,
            T(
                "no_corps_commands_left: the team has {left} of its {limit} corps commands left "
                "this turn (AMB-15: Corps Move, Detachment Move and Attach count)",
                left=left,
                limit=budget.corps_limit,
            ),
        )


# --------------------------------------------------------------------------------------------------
# 2.7 Who may command what (NT-TEAM-35..NT-TEAM-39)
# --------------------------------------------------------------------------------------------------


def owner_of_commander(assignment: CorpsAssignment, commander: str) -> str | None:
    """NT-TEAM-7: the role a corps (named by its commander) is assigned to, or None."""
    return assignment.get(commander)


def owner_of_unit(state: GameState, assignment: CorpsAssignment, unit: str) -> str | None:
    """The owner of a unit is the owner of its corps; a detached unit has no owner (digest 0)."""
    u = state.units.get(unit)
    if u is None or u.corps is None:
        return None
    return owner_of_commander(assignment, u.corps)


def _rank(team: Team, role: str) -> int:
    return team.seat(role).rank


def seat_distance(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, role: str, locale: int
) -> int | None:
    """NT-TEAM-36, NT-TEAM-38: the distance from `locale` to the nearest commander `role` owns
    (AMB-16: the nearest of all his commanders), or None for infinite. Distance = fewest
    passable approaches crossed; impassable approaches are no edges, enemy-occupied locales do
    not block, the position inside a locale does not count (`Board.distances_from` is exactly
    this BFS, symmetric, so it is measured from `locale`). AMB-17: commanders off the map or
    eliminated are ignored."""
    dist = board.distances_from(locale)
    best: int | None = None
    for cid in sorted(assignment):
        if assignment[cid] != role:
            continue
        c = state.commanders.get(cid)
        if c is None or c.side != team.side or c.where != MAP or c.loc is None:
            continue
        d = dist.get(c.loc)
        if d is not None and (best is None or d < best):
            best = d
    return best


def nearest_role(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, locale: int
) -> str:
    """NT-TEAM-36..NT-TEAM-38 (and NT-TEAM-40 for a defence): the role whose commander is
    nearest to `locale`; NT-TEAM-37: equally near -> the higher rank (smaller number).
    AMB-21 / AMB-33 (defaults): when no seat has a commander that reaches `locale`, every seat is
    at infinity and the tie goes to the highest rank, the CinC."""

    def key(role: str) -> tuple[int, int, int]:
        d = seat_distance(state, board, team, assignment, role, locale)
        return (1, 0, _rank(team, role)) if d is None else (0, d, _rank(team, role))

    return min((s.role for s in team.seats), key=key)


def may_give_corps_command(
    team: Team, assignment: CorpsAssignment, role: str, commander: str
) -> bool:
    """NT-TEAM-35: a corps command (Corps Move, Detachment Move, Attach) only to an own corps."""
    return role in part_order(team) and owner_of_commander(assignment, commander) == role


def _independent_owner(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, u: Unit
) -> str | None:
    """The role that may give `u` an independent command now (NT-TEAM-36), or None."""
    if u.side != team.side:
        return None
    if u.where == MAP and u.loc is not None:
        # NT-TEAM-36 "at the moment the command is given": today's positions. AMB-18 (default
        # literal): also for a unit inside a corps (the Unit Move detaches it).
        return nearest_role(state, board, team, assignment, u.loc)
    if u.where == OFFMAP:
        # AMB-17 (default offmap_unit_owner_only): an off-map unit enters by an independent
        # command only of the owner of its corps; AMB-33 (default): a unit with no owner -> CinC.
        owner = owner_of_unit(state, assignment, u.id)
        return owner if owner in part_order(team) else team.cinc.role
    return None  # in the pool (set-up) or eliminated: nobody commands it


def may_give_independent(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, role: str, unit: str
) -> bool:
    """NT-TEAM-36 (with NT-TEAM-37, NT-TEAM-38, AMB-16..AMB-18, AMB-33): an independent command
    (Unit Move) only to a unit that is, at this moment, nearest to a commander of `role`."""
    u = state.units.get(unit)
    if u is None:
        return False
    return _independent_owner(state, board, team, assignment, u) == role


def may_command(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, role: str, piece: str
) -> bool:
    """May `role` command `piece` now? A commander id: a corps command (NT-TEAM-35). A unit id:
    an independent command (NT-TEAM-36). Attach has its own test, `may_attach` (NT-TEAM-39)."""
    if piece in state.commanders:
        c = state.commanders[piece]
        return c.side == team.side and may_give_corps_command(team, assignment, role, piece)
    return may_give_independent(state, board, team, assignment, role, piece)


def may_attach(
    state: GameState, team: Team, assignment: CorpsAssignment, role: str, commander: str, unit: str
) -> bool:
    """NT-TEAM-35 + NT-TEAM-39: `role` may let its own `commander` attach `unit` if the unit is
    detached, of its own corps, or of a lower-ranked seat's corps; never from a higher rank.
    AMB-19 (default): the nearest rule does not apply to Attach. The two-player rules (same
    position, NT-41; not the last unit, NT-32; at most 8, NT-29) are the engine's."""
    if not may_give_corps_command(team, assignment, role, commander):
        return False
    u = state.units.get(unit)
    if u is None or u.corps is None:
        return True
    owner = owner_of_commander(assignment, u.corps)
    if owner is None or owner == role or owner not in part_order(team):
        return True  # a corps nobody of this team owns: no rank to protect
    return _rank(team, owner) > _rank(team, role)


def _specs(payload: Mapping[str, JSON]) -> list[Mapping[str, JSON]]:
    raw = payload.get("commands")
    if not isinstance(raw, list):
        return []
    return [s for s in raw if isinstance(s, dict)]


def _str(payload: Mapping[str, JSON], key: str) -> str | None:
    v = payload.get(key)
    return v if isinstance(v, str) else None


def _check_corps(team: Team, assignment: CorpsAssignment, role: str, cid: str | None) -> None:
    if cid is not None and not may_give_corps_command(team, assignment, role, cid):
        raise TeamRefused(
            "NT-TEAM-35",
            "not_your_corps",
            403,
            T(
                "not_your_corps: {commander}'s corps belongs to another player of your team",
                commander=cid,
            ),
            "/commander",
        )


def _check_unit(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    role: str,
    uid: str | None,
    rule: str = "NT-TEAM-36",
    path: str = "/unit",
) -> None:
    if uid is None or uid not in state.units or state.units[uid].side != team.side:
        return  # the engine refuses unknown or enemy units with its own rule
    if not may_give_independent(state, board, team, assignment, role, uid):
        raise TeamRefused(
            rule,
            "not_nearest",
            403,
            T(
                "not_nearest: {unit} is nearer to a commander of another player of your team",
                unit=uid,
            ),
            path,
        )


def check_command(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    role: str,
    kind: str,
    payload: Mapping[str, JSON],
) -> None:
    """Who may give this command (NT-TEAM-35, -36, -39, -44, -48, -49), judged with the
    positions of this moment. Action kinds and payloads are the engine's (schemas.py):
    `corps_move`, `detach_move` (commander), `unit_move` (unit), `attach` (commander, unit),
    `enter_reinforcement` (command + commander or unit) and the attack declarations
    `declare_attack`, `declare_feint`, `declare_after_vacate` (their `commands`). Other kinds
    (`threaten`, `ride_on`, `end_turn`, answers) need no authority here. Unknown pieces are left
    to the engine, which refuses them with its own rules."""
    if kind in CORPS_KINDS:
        _check_corps(team, assignment, role, _str(payload, "commander"))
    elif kind == "unit_move":
        _check_unit(state, board, team, assignment, role, _str(payload, "unit"))
    elif kind == "attach":
        cid, uid = _str(payload, "commander"), _str(payload, "unit")
        _check_corps(team, assignment, role, cid)
        if (
            cid is not None
            and uid is not None
            and not may_attach(state, team, assignment, role, cid, uid)
        ):
            raise TeamRefused(
                "NT-TEAM-39",
                "attach_from_higher_rank",
                403,
                T(
                    "attach_from_higher_rank: {unit} belongs to the corps of a higher-ranked "
                    "player",
                    unit=uid,
                ),
                "/unit",
            )
    elif kind == "enter_reinforcement":
        # NT-TEAM-49: a reinforcement corps enters by its owner's command; an off-map unit by
        # its corps owner's (AMB-17).
        if payload.get("command") == "unit_move":
            _check_unit(state, board, team, assignment, role, _str(payload, "unit"), "NT-TEAM-49")
        else:
            _check_corps(team, assignment, role, _str(payload, "commander"))
    elif kind in ATTACK_DECLARATIONS:
        _check_attack(state, board, team, assignment, role, _specs(payload))


def _check_attack(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    role: str,
    specs: list[Mapping[str, JSON]],
) -> None:
    """NT-TEAM-44: the corps of a (combined) attack all belong to the acting seat; NT-TEAM-48:
    each Unit Move of it (two artillery Unit Moves combined) goes to a unit nearest to it."""
    corps = [c for s in specs if s.get("kind") != "unit_move" and (c := _str(s, "commander"))]
    for i, spec in enumerate(specs):
        if spec.get("kind") == "unit_move":
            uid = _str(spec, "unit")
            _check_unit(
                state, board, team, assignment, role, uid, "NT-TEAM-48", f"/commands/{i}/unit"
            )
            continue
        cid = _str(spec, "commander")
        if cid is None or may_give_corps_command(team, assignment, role, cid):
            continue
        if len(corps) > 1:
            raise TeamRefused(
                "NT-TEAM-44",
                "combined_attack_other_player",
                403,
                T(
                    "combined_attack_other_player: the corps of a combined attack must all be your "
                    "own"
                ),
                f"/commands/{i}/commander",
            )
        raise TeamRefused(
            "NT-TEAM-35",
            "not_your_corps",
            403,
            T(
                "not_your_corps: {commander}'s corps belongs to another player of your team",
                commander=cid,
            ),
            f"/commands/{i}/commander",
        )


def check_team_command(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    turn: TeamTurn,
    role: str,
    kind: str,
    payload: Mapping[str, JSON],
) -> None:
    """Everything team play adds to a command of the acting team, in this order: the part
    (NT-TEAM-32), the shared limits (NT-TEAM-33), the authority over the pieces (`check_command`).
    Raises TeamRefused; the engine's own rules still apply afterwards."""
    check_part(team, turn, role)
    check_budget(state, team.side, kind, payload)
    check_command(state, board, team, assignment, role, kind, payload)


def has_command_left(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, role: str
) -> bool:
    """NT-TEAM-34 (SRV-12): False only if `role` provably has no command left in this team turn,
    from public facts (shared counters, its commanders' used corps commands, positions, moves
    made): no own commander on or off the map with a corps command left (within the shared Allied
    limit), and no unit it may give an independent command (within the shared limit). True
    does not promise that a command is legal (the engine judges that)."""
    budget = shared_budget(state, team.side)
    corps_ok = budget.corps_left is None or budget.corps_left > 0
    if corps_ok:
        for cid in sorted(assignment):
            c = state.commanders.get(cid)
            if (
                assignment[cid] == role
                and c is not None
                and c.side == team.side
                and c.where in (MAP, OFFMAP)
                and c.commands < corps_commands_allowed(c)
            ):
                return True
    if budget.independent_left > 0:
        for uid in sorted(state.units):
            u = state.units[uid]
            if (
                u.side == team.side
                and u.moves < moves_allowed(u)
                and _independent_owner(state, board, team, assignment, u) == role
            ):
                return True
    return False
