"""Team play wired into the engine (rulebook chapter 19, digest napoleons-triumph-team.md): the
protocol's `apply` and `prompts` of a team game (options.team_play), over the two-player engine.

rules.py calls these when `GameState.team` is set; the two-player engine (`Core.core_run`: clone,
run the action, standing answers) does every rule of chapters 1-18. The team layer adds, in this
order for every action:

* the team actions of phases.py (set_ranks, confirm_ranks, assign_corps, close_conference,
  skip_conference, chat_message) in the conferences (NT-TEAM-4..13);
* the phase gate (phase_gate.refusal: no engine action while a conference is open);
* set-up: the team set-up machine (setup.py, wired in setup_play.py): the CinC organizes the
  corps (NT-TEAM-27) and in DEC1 chooses the starting corps (NT-TEAM-28), every seat places its
  own corps in rank order (NT-TEAM-29), the French seats detach in rank order under a shared
  limit (NT-TEAM-30), the French CinC chooses the fixed battery (NT-TEAM-31); the action that
  finishes a side's machine runs the engine's own set-up, whose kinds are refused if sent;
* play: the parts of the team turn in rank order (`end_part`, NT-TEAM-32; the last one runs the
  engine's `end_turn`), every command checked by authority.check_team_command (part, shared
  budget, authority), every decision answered by the seat routing.route names (step 2 pinned);
* written orders (`write_order`, NT-TEAM-17..21) drafted in the CinC's part, sealed when it ends
  (one slot per subordinate, AMB-4), readable by the recipient from the team's next turn (k+1).

After every action the layer follows the engine (phases.on_engine_phase): conferences open and
close, team turns start (deliveries), the game ends (engine_log.py writes the lines).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Protocol

from games.core.i18n import T
from games.core.protocol import JSON, SYSTEM, Action, LogEntry, Prompt, Role
from games.napoleons_triumph.attack.attackers import attack_options, vacate_options
from games.napoleons_triumph.attack.defense import judge_bundles_with
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.schemas import schema_errors
from games.napoleons_triumph.state import GameState, Pending, clone, other
from games.napoleons_triumph.team import authority, phases, routing
from games.napoleons_triumph.team import engine_state as ES
from games.napoleons_triumph.team import setup_play as SP
from games.napoleons_triumph.team import written_orders as W
from games.napoleons_triumph.team.authority import TeamRefused, TeamTurn
from games.napoleons_triumph.team.engine_log import (
    deliveries,
    event_lines,
    private_line,
    public_line,
    seal,
)
from games.napoleons_triumph.team.engine_state import TeamData
from games.napoleons_triumph.team.model import Team

END_PART = "end_part"  # NT-TEAM-32
WRITE_ORDER = "write_order"  # NT-TEAM-17, -18
# what a team says and drafts in its secret conference (NT-TEAM-4..7): private kinds
TEAM_SECRET_KINDS = (
    phases.CHAT_MESSAGE,
    phases.SET_RANKS,
    phases.CONFIRM_RANKS,
    phases.ASSIGN_CORPS,
)
SETUP_KINDS = SP.KINDS  # NT-TEAM-27..31: a team's secret until its set-up is applied
TEAM_KINDS = (*phases.KINDS, END_PART, WRITE_ORDER, *SETUP_KINDS)
CINC_ONLY = ("resign",)  # AMB (ours): the team's surrender
PLAN = "set_defense_plan"  # SRV-1: every seat files its own, at any time


class Core(Protocol):
    """The two-player engine as the team layer uses it (rules.NapoleonsTriumph)."""

    def core_prompts(self, state: GameState) -> Mapping[Role, Prompt]: ...
    def core_run(
        self,
        state: GameState,
        action: Action,
        owner_of: Callable[[GameState, Pending], str | None] | None = None,
    ) -> Ctx: ...


def new_team(state: GameState, board: Board) -> dict[str, JSON]:
    """The team layer of a new game (NT-TEAM-1, -2): the sides' roles in the order of
    options.roles; both initial conferences open at once (NT-TEAM-4)."""
    team_opts = state.options.get("team", {})
    for key in sorted(team_opts) if isinstance(team_opts, dict) else ():
        if key not in phases.AMB_OPTIONS:  # NT-19: an option is honoured or refused
            raise phases.SetupRefused(
                "NT-19", T("unknown option team.{option}", option=key), f"/options/team/{key}"
            )
    members = {side: [r for r, s in state.roles.items() if s == side] for side in ("AL", "F")}
    layer = phases.new_state(state.scenario, state.options, members, phases.commanders_of(board))
    return ES.dump(TeamData(layer))


def data_of(state: GameState) -> TeamData:
    assert state.team is not None
    return ES.load(state.team)


# ------------------------------------------------------------------------------------ who acts


def is_cinc(state: GameState, role: str) -> bool:
    """NT-TEAM-5: the role is its team's commander-in-chief (ranks locked)."""
    side = state.roles.get(role)
    if state.team is None or side is None:
        return False
    team = data_of(state).team(side)
    return team is not None and team.cinc.role == role


def acting(data: TeamData, state: GameState) -> str | None:
    """NT-TEAM-32: the seat whose part of the active side's team turn is running."""
    turn = data.turn
    team = data.team(state.active)
    if turn is None or team is None or turn.side != state.active:
        return None
    if turn.turn_number != state.turn_number:
        return None
    return authority.acting_role(team, turn)


def decider(data: TeamData, state: GameState, board: Board) -> str | None:
    """routing.decider: the seat that must act in set-up and play (None in conferences)."""
    if data.layer.phase in (phases.CONF_INITIAL, phases.CONF_NIGHT, phases.OVER):
        return None
    teams = data.teams()
    if len(teams) < 2:
        return None
    step2 = data.step2[1] if data.step2 is not None else None
    return routing.decider(state, board, teams, data.assignment(), data.turn, step2)


def keeps_bundle(state: GameState, board: Board) -> bool:
    """NT-TEAM-41: whether the step-(4) leading units bundled with the step-(2) answer of the
    attack in progress stand: only if the authority stays with the step-(2) decider (pinned,
    NT-TEAM-40) after the naming (NT-TEAM-42/43, routing.keeps_leading_bundle). Public facts."""
    atk = state.attack
    if state.team is None or atk is None:
        return True
    data = data_of(state)
    team = data.team(other(atk.attacker))
    if team is None:
        return True
    assignment = data.assignment()
    step2 = data.step2[1] if data.step2 is not None and data.step2[0] == atk.id else None
    if step2 is None or step2 not in authority.part_order(team):
        step2 = routing.defence_decider(state, board, team, assignment, atk.def_locale)
    return routing.keeps_leading_bundle(state, team, assignment, step2, atk.named)


judge_bundles_with(keeps_bundle)  # the engine asks at steps (2) and (4) (attack/defense.py)


def plan_owner(data: TeamData, board: Board) -> Callable[[GameState, Pending], str | None]:
    """SRV-1: whose standing instructions answer an open decision: the seat the router gives it
    to (the step-(2) decider pinned first for a new attack, NT-TEAM-40), never another seat."""

    def owner(state: GameState, pending: Pending) -> str | None:
        _pin(state, data, board)
        return decider(data, state, board)

    return owner


def may_write(data: TeamData, state: GameState, role: str) -> bool:
    """NT-TEAM-18 (a), AMB-3: the order phase is the CinC's own part of his team turn."""
    side = state.roles.get(role)
    team = data.team(side) if side is not None else None
    turn = data.turn
    return (
        team is not None
        and W.may_write(team, role)
        and data.layer.phase == phases.PLAY
        and state.phase == "turn"
        and turn is not None
        and turn.side == side == state.active
        and turn.turn_number == state.turn_number
        and turn.parts_ended == 0
        and not sealed(data, side, data.started.get(side, 0))  # NT-TEAM-18 (a): first command
    )


def sealed(data: TeamData, side: str, k: int) -> bool:
    """Whether the order phase of `side`'s team turn `k` has closed (its slots exist)."""
    return any(s["side"] == side and s["turn"] == k for s in data.slots)


# ------------------------------------------------------------------------------------ apply


def apply(core: Core, state: GameState, action: Action) -> tuple[GameState, list[LogEntry]]:
    """One action of a team game; raises Illegal naming the rule that refuses it."""
    require(state.phase != "over", "NT-128", T("the game is over"))
    board = board_for(state)
    data = data_of(state)
    log: list[LogEntry] = []
    kind, role = action.kind, action.role
    if role != SYSTEM and kind in TEAM_KINDS:
        bad = schema_errors(kind, action.payload)
        if bad:
            raise Illegal(bad[0].rule, bad[0].message, bad[0].path)
    if role == SYSTEM:
        new = _deadline(core, state, data, board, action, log)
    elif kind in phases.KINDS:
        applied = phases.apply(data.layer, action)
        data.layer = applied.state
        _follow(state, data, applied.events, board, log)
        new = clone(state)
    elif kind == END_PART:
        new = _end_part(core, state, data, board, role, log)
    elif kind == WRITE_ORDER:
        _write(state, data, board, action, log)
        new = clone(state)
    elif kind in SETUP_KINDS:
        owner = plan_owner(data, board)
        new = SP.act(lambda s, a: core.core_run(s, a, owner), state, data, board, action, log)
    else:
        _gate(core, data, state, board, action)
        if kind not in (PLAN, *CINC_ONLY) and may_write(data, state, role):
            team = data.team(state.roles[role])
            assert team is not None
            _seal(state, data, team, board, log)  # NT-TEAM-18 (a), AMB-3: his first command
        ctx = core.core_run(state, action, plan_owner(data, board))
        new = ctx.state
        log += ctx.entries
    _sync(new, data, board, log)
    new.team = ES.dump(data)
    return new, log


def gate_allows(core: Core, state: GameState, action: Action) -> bool:
    """Whether the team layer lets this engine action through for its seat (authority, the part,
    the shared budget, the routed decider); the engine's own rules are not judged here. The
    choices a seat is offered are filtered by it: every input is its own side's or public."""
    if state.team is None or action.kind in TEAM_KINDS or action.role == SYSTEM:
        return True
    try:
        _gate(core, data_of(state), state, board_for(state), action)
    except Illegal:
        return False
    return True


def _refuse_gate(data: TeamData, role: str, kind: str) -> None:
    rej = phases.refusal(data.layer, role, kind)
    if rej is not None:
        raise Illegal(rej.rule, rej.message, rej.path)


def _gate(core: Core, data: TeamData, state: GameState, board: Board, action: Action) -> None:
    """Everything team play adds before the engine judges an engine action."""
    role, kind = action.role, action.kind
    _refuse_gate(data, role, kind)
    side = state.roles[role]
    team = data.team(side)
    assert team is not None  # the ranks are locked once no conference gates the engine
    payload = action.payload if isinstance(action.payload, dict) else {}
    if kind == PLAN:
        return  # SRV-1: a seat's own standing instruction, whoever acts or decides now
    if kind in CINC_ONLY:
        if role != team.cinc.role:
            raise TeamRefused(
                "NT-TEAM-7",
                "not_cinc",
                403,
                T(
                    "not_cinc: in team play only the commander-in-chief sends {kind} for the team",
                    kind=kind,
                ),
                "/role",
            )
        return
    if state.phase.startswith("setup"):
        if kind in SP.ENGINE_KINDS.values():  # NT-TEAM-29: the set-up is sent in parts
            SP.refuse_engine_setup(data, state, role, kind)
        return  # any other kind: the engine refuses it (NT-19)
    if kind == "end_turn":
        raise TeamRefused(
            "NT-TEAM-32",
            "use_end_part",
            409,
            T(
                "use_end_part: in team play each seat ends its part with end_part; the last part "
                "ends the turn"
            ),
            "/kind",
        )
    teams = data.teams()
    assignment = data.assignment()
    pending = state.pending
    if pending is not None:
        if side != pending.side:
            return  # the engine refuses it (NT-35)
        step2 = data.step2[1] if data.step2 is not None else None
        routing.check_decision(
            state, board, teams[side], assignment, acting(data, state), role, step2
        )
        if kind in authority.ATTACK_DECLARATIONS and _owns_an_option(  # NT-TEAM-44, -48
            core, state, board, teams[side], assignment, role, kind
        ):
            authority.check_command(state, board, teams[side], assignment, role, kind, payload)
        return
    if side != state.active:
        return  # the engine refuses it (NT-35)
    turn = data.turn
    assert turn is not None
    authority.check_team_command(state, board, team, assignment, turn, role, kind, payload)
    if kind == "threaten":
        _check_threat(state, board, team, assignment, role, payload)


def _owns_an_option(
    core: Core,
    state: GameState,
    board: Board,
    team: Team,
    assignment: Mapping[str, str],
    role: str,
    kind: str,
) -> bool:
    """Whether the deciding seat could carry out the declaration with its own pieces. AMB (ours,
    the digest is silent): when the engine's rules force a declaration (NT-75: after a vacate the
    attacker moves in; NT-81) and none of the seat's own pieces can, the seat may name a
    teammate's, so that the game never stalls."""
    atk = state.attack
    if atk is None:
        return True
    ctx = Ctx(board, state)
    payloads: list[dict[str, JSON]] = []
    if kind == "declare_after_vacate":
        for spec, guns in vacate_options(ctx, team.side, atk.att_locale, atk.approach):
            payloads.append({"commands": [spec], "artillery": guns})
    else:
        lead: list[JSON] = [atk.guard_shown] if atk.guard_attack and atk.guard_shown else []
        for spec in attack_options(ctx, team.side, atk.att_locale, atk.approach):
            if kind == "declare_feint":
                payloads.append({"commands": [spec], "end": "reserve"})
            else:
                payloads.append({"commands": [spec], "width": "narrow", "leading": lead})
    for p in payloads:
        try:
            authority.check_command(state, board, team, assignment, role, kind, p)
            core.core_run(state, Action(role, kind, p))  # the engine's own rules (NT-124, ...)
        except Illegal:
            continue
        return True
    return False


def _check_threat(
    state: GameState,
    board: Board,
    team: Team,
    assignment: Mapping[str, str],
    role: str,
    payload: Mapping[str, JSON],
) -> None:
    """NT-TEAM-44 (the "may threaten" filter, ours): a seat threatens only across an approach
    one of its own pieces could attack through, so that it can declare the attack it threatens
    (the declaration is the acting seat's, NT-TEAM-47). Road attacks are the engine's alone."""
    loc, app = payload.get("attack_locale"), payload.get("approach")
    if not isinstance(loc, int) or not isinstance(app, str) or loc not in board.locales:
        return  # the engine refuses it with its own rule
    if app not in board.approaches_of(loc) or payload.get("road"):
        return
    for spec in attack_options(Ctx(board, state), team.side, loc, app):
        try:
            authority.check_command(
                state, board, team, assignment, role, "declare_attack", {"commands": [spec]}
            )
        except TeamRefused:
            continue
        return
    raise TeamRefused(
        "NT-TEAM-44",
        "no_own_attacker",
        403,
        T(
            "no_own_attacker: none of your own pieces could carry out an attack across this "
            "approach"
        ),
        "/approach",
    )


def _end_part(
    core: Core, state: GameState, data: TeamData, board: Board, role: str, log: list[LogEntry]
) -> GameState:
    """NT-TEAM-32: the acting seat ends its part; after the last part the engine's turn ends."""
    _refuse_gate(data, role, END_PART)
    require(state.phase == "turn", "NT-TEAM-32", T("the team turns begin after the set-up"))
    side = state.roles[role]
    team, turn = data.team(side), data.turn
    if team is None or turn is None or side != state.active:
        raise TeamRefused(
            "NT-TEAM-32", "not_your_part", 409, T("not_your_part: it is not your team's turn")
        )
    pending = state.pending
    if pending is not None:
        raise Illegal(
            "NT-35", T("the open decision is {kind}: it is answered first", kind=pending.kind)
        )
    data.turn = authority.end_part(team, turn, role)
    if turn.parts_ended == 0 and not sealed(data, side, data.started.get(side, 0)):
        _seal(state, data, team, board, log)
    log.append(
        public_line(
            T(
                "Rank {rank} of {side} ends his part of the turn.",
                rank=team.seat(role).rank,
                side=side,
            )
        )
    )
    if authority.acting_role(team, data.turn) is not None:
        return clone(state)
    ctx = core.core_run(state, Action(role, "end_turn", {}), plan_owner(data, board))
    log += ctx.entries
    return ctx.state


def _seal(state: GameState, data: TeamData, team: Team, board: Board, log: list[LogEntry]) -> None:
    """NT-TEAM-18 (b), AMB-4: the order phase closes; one slot per subordinate (3.4.5: the
    public commitments, always n - 1)."""
    if len(team.seats) < 2:
        data.drafts = {}
        return
    k = data.started.get(team.side, 0)
    drafts = {r: W.order_from_json(o, board) for r, o in data.drafts.items()}
    slots = W.seal(team, k, drafts)
    data.slots += [s.to_json(board) for s in slots]
    data.drafts = {}
    log.append(seal(team, slots, state.salt, board))


def _write(
    state: GameState, data: TeamData, board: Board, action: Action, log: list[LogEntry]
) -> None:
    """NT-TEAM-17..21, 3.4.4: a draft (replacing the last one to the same recipient)."""
    role = action.role
    _refuse_gate(data, role, WRITE_ORDER)
    side = state.roles[role]
    team = data.team(side)
    assert team is not None
    p = action.payload
    assert isinstance(p, dict)
    recipient = str(p["recipient"])
    text = p.get("text")
    content: str | JSON = text if isinstance(text, str) else p.get("order")
    k = data.started.get(side, 0)
    open_ = may_write(data, state, role)
    slot = W.draft(team, role, recipient, k, content, board, phase_open=open_)
    assert slot.order is not None
    data.drafts[recipient] = W.order_json(slot.order, board)
    words = W.canonical_text(slot, board, "en")
    drafted = T(
        "You drafted a written order to {recipient}: {order}.", recipient=recipient, order=words
    )
    log.append(private_line(drafted, role))


def _deadline(
    core: Core,
    state: GameState,
    data: TeamData,
    board: Board,
    action: Action,
    log: list[LogEntry],
) -> GameState:
    """SRV-8 / AMB-25: a conference's deadline closes it; in play the acting seat's part ends;
    an open decision and the set-up are the engine's (digest 4.7)."""
    layer = data.layer
    if layer.phase in (phases.CONF_INITIAL, phases.CONF_NIGHT):
        for t in layer.teams:
            if t.conference is not None and (
                layer.phase == phases.CONF_INITIAL or t.side == layer.phase_side
            ):
                applied = phases.deadline_close(data.layer, t.key)
                data.layer = applied.state
                _follow(state, data, applied.events, board, log)
        return clone(state)
    who = acting(data, state)
    if state.phase == "turn" and state.pending is None and who is not None:
        return _end_part(core, state, data, board, who, log)
    ctx = core.core_run(state, action, plan_owner(data, board))
    log += ctx.entries
    return ctx.state


# ------------------------------------------------------------------------------------ sync


def _sync(state: GameState, data: TeamData, board: Board, log: list[LogEntry]) -> None:
    """The layer follows the engine: conferences, team turn starts, the end; the step-(2)
    decider of a new attack is pinned (NT-TEAM-40)."""
    applied = phases.on_engine_phase(data.layer, phases.point_of(state, board))
    data.layer = applied.state
    _follow(state, data, applied.events, board, log)
    if state.phase == "over":
        turn = data.turn
        team = None if turn is None else data.team(turn.side)
        if turn is not None and team is not None and turn.parts_ended == 0:
            data.turn = replace(turn, parts_ended=1)  # 3.4.1: the end seals the open drafts
            if not sealed(data, team.side, data.started.get(team.side, 0)):
                _seal(state, data, team, board, log)
    _pin(state, data, board)
    SP.follow(state, data, board)


def _follow(
    state: GameState,
    data: TeamData,
    events: tuple[phases.TeamEvent, ...],
    board: Board,
    log: list[LogEntry],
) -> None:
    """The lines of the layer's events; a team turn start begins the team turn (NT-TEAM-32) and
    delivers the slots of the team's previous turn (3.4.6)."""
    log += event_lines(data, events, board)
    for e in events:
        if e.kind == "team_turn_start":
            side, k = _turn_start(state, data, e.data)
            log += deliveries(data, side, k, board)


def _turn_start(state: GameState, data: TeamData, raw: JSON) -> tuple[str, int]:
    assert isinstance(raw, dict)
    side, k = str(raw["side"]), raw["round"]
    assert isinstance(k, int)
    data.turn = TeamTurn(side, state.turn_number, 0)  # NT-TEAM-32: the CinC's part first
    data.started[side] = k  # 3.4.6: the slots of turn k - 1 are delivered now
    data.drafts = {}
    return side, k


def _pin(state: GameState, data: TeamData, board: Board) -> None:
    atk = state.attack
    if atk is None:
        data.step2 = None
        return
    if data.step2 is not None and data.step2[0] == atk.id:
        return
    defender = "AL" if atk.attacker == "F" else "F"
    team = data.team(defender)
    if team is None:
        return
    role = routing.pin_step2(state, board, team, data.assignment())
    data.step2 = None if role is None else (atk.id, role)
