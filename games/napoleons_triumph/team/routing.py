"""The router of team play (digest napoleons-triumph-team.md 3.3): every decision the two-player
engine addresses to a side (`state.pending`, kinds in decisions.py) goes to exactly one seat of
that side. Also who decides for the defender (2.8: NT-TEAM-40..NT-TEAM-43, AMB-20..AMB-22) and
who must act at all (`decider`: set-up, commands, decisions).

Pure functions over `Board`, `GameState`, `Team`, `CorpsAssignment` (see authority.py for the
inputs). Two facts the engine does not keep come from the team layer:

* ``acting_role``: the seat whose part is running (authority.acting_role of its `TeamTurn`); the
  attacker's decisions go to it (NT-TEAM-47).
* ``step2_role`` (optional): the defence decider computed when the attack's ``defend`` decision
  opened (`pin_step2`). Pass it for the rest of that attack. Without it the router recomputes it
  from the current positions, which gives the same seat unless a defending commander moved or
  was eliminated since step (2) (e.g. a commander whose units were all named and lost).

Every input is public, so the routed seat may be shown to everybody (3.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.core.i18n import T
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.decisions import DECISIONS
from games.napoleons_triumph.state import GameState, Pending
from games.napoleons_triumph.team.authority import (
    TeamRefused,
    TeamTurn,
    acting_role,
    nearest_role,
    owner_of_commander,
    part_order,
)
from games.napoleons_triumph.team.model import CorpsAssignment, Team

__all__ = [
    "ATTACKER",
    "DEFENDER",
    "ROUTES",
    "authority_after_naming",
    "check_decision",
    "decider",
    "defence_decider",
    "defender_authority",
    "keeps_leading_bundle",
    "pin_step2",
    "route",
]

ATTACKER, DEFENDER = "attacker", "defender"

# Each decision kind of the engine (decisions.py), whose side it normally is, and the rule that
# routes it. The routing itself goes by `pending.side` (a loss chooser may be either side):
# the attacking side -> the acting seat (NT-TEAM-47), the defending side -> the seat holding the
# defender's authority in this attack (NT-TEAM-40..NT-TEAM-43, AMB-22).
ROUTES: Mapping[str, tuple[str, str]] = {
    "defend": (DEFENDER, "NT-TEAM-40, NT-TEAM-41: step (2), the nearest-placed commander's seat"),
    "feint": (ATTACKER, "NT-TEAM-47: the feint is the acting seat's"),
    "feint_hold": (DEFENDER, "NT-TEAM-43, AMB-22: the response to a feint"),
    "defense_leading": (
        DEFENDER,
        "NT-TEAM-41, NT-TEAM-43: step (4) leading units, when the bundle was discarded",
    ),
    "declare": (ATTACKER, "NT-TEAM-47: the declaration, width, leading units"),
    "counter": (DEFENDER, "NT-TEAM-43, AMB-22: the counter-attack (7)"),
    "odd_loss": (DEFENDER, "AMB-22: the odd remainder (9); an attacker chooser -> NT-TEAM-47"),
    "assign_losses": (DEFENDER, "AMB-22: third-tier losses (10); attacker's -> NT-TEAM-47"),
    "hold": (DEFENDER, "NT-TEAM-43, AMB-22: blocking after the defender's win (11)"),
    "anchor": (ATTACKER, "NT-TEAM-47: the unit that stays with each falling-back corps"),
    "after_vacate": (ATTACKER, "NT-TEAM-47: the declaration after a vacate"),
    "retreat": (DEFENDER, "AMB-22: the whole retreat, also after a vacate, by the authority"),
}


def defence_decider(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment, locale: int
) -> str:
    """NT-TEAM-40: the defending seat whose corps commander is placed nearest to the attacked
    `locale` decides defend or vacate; equally near -> the higher rank. AMB-20: the distance of
    NT-TEAM-38 measured to the defense locale. AMB-21 (default `cinc`): no commander on the map,
    or none that reaches the locale -> the CinC."""
    return nearest_role(state, board, team, assignment, locale)


def authority_after_naming(
    state: GameState, team: Team, assignment: CorpsAssignment, current: str, named: Iterable[str]
) -> str:
    """NT-TEAM-42: no corps commander among the named defenders -> the authority stays with
    `current`. NT-TEAM-43: else the highest-ranked seat owning a named commander makes the
    further combat decisions (also when that commander has since been eliminated)."""
    roles = part_order(team)
    owners = [
        owner
        for p in named
        if p in state.commanders
        and state.commanders[p].side == team.side
        and (owner := owner_of_commander(assignment, p)) in roles
    ]
    if not owners:
        return current
    return min(owners, key=lambda r: team.seat(r).rank)


def keeps_leading_bundle(
    state: GameState, team: Team, assignment: CorpsAssignment, step2: str, named: Iterable[str]
) -> bool:
    """NT-TEAM-41: the step-(4) leading units bundled with the step-(2) answer stand only if the
    authority stays with the seat that named; otherwise the bundle is discarded and the new
    seat chooses them."""
    return authority_after_naming(state, team, assignment, step2, named) == step2


def pin_step2(
    state: GameState, board: Board, team: Team, assignment: CorpsAssignment
) -> str | None:
    """The step-(2) decider of the attack in progress (NT-TEAM-40), to store with the attack when
    its `defend` decision opens; None when no attack is in progress or `team` is the attacker."""
    atk = state.attack
    if atk is None or atk.attacker == team.side:
        return None
    return defence_decider(state, board, team, assignment, atk.def_locale)


def defender_authority(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    step2_role: str | None = None,
) -> str:
    """The seat of the defending `team` that decides now in the attack in progress: the step-(2)
    decider (NT-TEAM-40, pinned or recomputed), after the naming the seat of NT-TEAM-42/43.
    AMB-22 (default `authority`): every later defender decision of the attack, the retreat
    included (also after a vacate, where nothing is named), goes to this seat."""
    atk = state.attack
    if atk is None:
        return team.cinc.role  # AMB (not in the digest): no attack, no locale -> the CinC
    step2 = step2_role
    if step2 is None or step2 not in part_order(team):
        step2 = defence_decider(state, board, team, assignment, atk.def_locale)
    return authority_after_naming(state, team, assignment, step2, atk.named)


def route(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    acting: str | None,
    pending: Pending | None = None,
    step2_role: str | None = None,
) -> str:
    """Digest 3.3: the one role of `team` that answers `pending` (default `state.pending`).
    `team` is the team of `pending.side`; `acting` the acting seat of the attacking team
    (needed when `team` attacks). The attacking side's decisions -> `acting` (NT-TEAM-47); the
    defending side's -> `defender_authority` (NT-TEAM-40..43, AMB-22); see ROUTES per kind.
    AMB (not in the digest; marked): a kind missing from decisions.py, or a decision without an
    attack in progress, goes to the CinC."""
    pending = pending if pending is not None else state.pending
    if pending is None:
        raise ValueError("no decision is pending")
    if pending.side != team.side:
        raise ValueError(f"the {pending.kind} decision is for {pending.side}, not {team.side}")
    atk = state.attack
    if pending.kind not in DECISIONS or atk is None:
        return team.cinc.role  # AMB: uncovered kind or no attack -> the CinC
    if pending.side == atk.attacker:
        if acting is None or acting not in part_order(team):
            raise ValueError(f"{acting!r} is not a seat of {team.side}: name the acting seat")
        return acting  # NT-TEAM-47
    return defender_authority(state, board, team, assignment, step2_role)


def check_decision(
    state: GameState,
    board: Board,
    team: Team,
    assignment: CorpsAssignment,
    acting: str | None,
    role: str,
    step2_role: str | None = None,
) -> None:
    """NT-TEAM-40, -43, -47 (test T27): only the routed seat may answer the open decision;
    `role` is the seat that tries to."""
    routed = route(state, board, team, assignment, acting, None, step2_role)
    if role != routed:
        pending, atk = state.pending, state.attack
        rule = "NT-TEAM-43"  # a later defender decision (AMB-22)
        if pending is not None and atk is not None and pending.side == atk.attacker:
            rule = "NT-TEAM-47"
        elif pending is not None and pending.kind == "defend":
            rule = "NT-TEAM-40"
        raise TeamRefused(
            rule,
            "not_your_decision",
            409,
            T(
                "not_your_decision: this decision is for rank {rank} of your team",
                rank=team.seat(routed).rank,
            ),
        )


def decider(
    state: GameState,
    board: Board,
    teams: Mapping[str, Team],
    assignment: CorpsAssignment,
    turn: TeamTurn | None,
    step2_role: str | None = None,
) -> str | None:
    """Who must act now, for every prompt of the engine: an open decision -> `route`; a
    command phase -> the acting seat of `turn` (NT-TEAM-32; None once every part has ended:
    the team turn is over); set-up -> the CinC of the side setting up (NT-TEAM-27; the split of
    placement and detachment into parts is phases.py's); the auction or the end -> None
    (the spokesman, NT-TEAM-45, is not a seat rank). `teams` maps each side to its team."""
    if state.phase == "over" or state.phase == "auction":
        return None
    if state.phase.startswith("setup"):
        return teams[state.active].cinc.role
    active = teams[state.active]
    acting = None
    if turn is not None and turn.side == state.active and turn.turn_number == state.turn_number:
        acting = acting_role(active, turn)
    if state.pending is not None:
        team = teams[state.pending.side]
        return route(state, board, team, assignment, acting, None, step2_role)
    return acting
