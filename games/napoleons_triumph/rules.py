"""The Ruleset for Napoleon's Triumph: a thin dispatcher over the rulebook's chapters.

`validate` runs exactly the code of `apply` on a scratch copy and reports the first rule that
refuses, so the two can never disagree.

The decisions the engine waits for are dispatched through their table (decisions.py).

The rules never import the random player (randomplay.py depends on them): the package hands it
in when it builds RULESET.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from games.core.i18n import T
from games.core.log import lines_for
from games.core.protocol import (
    JSON,
    OMNISCIENT,
    SYSTEM,
    Action,
    ActionSpec,
    GameConfig,
    LogEntry,
    Prompt,
    Rejection,
    Result,
    Role,
    RoleInfo,
    Step,
)
from games.core.rng import Rng
from games.napoleons_triumph import (
    attack,
    auction,
    deployment,
    movement,
    policies,
    reinforcements,
    road_attack,
)
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import state as S
from games.napoleons_triumph import view as V
from games.napoleons_triumph.board import Board
from games.napoleons_triumph.commands import attach
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.decisions import DECISIONS, Handler, default_answer, standing_answer
from games.napoleons_triumph.errors import Illegal, SetupRefused, require
from games.napoleons_triumph.morale import GameOver
from games.napoleons_triumph.scenario import DEFAULT_ROLES, board_for, new_game, roles_of, team_play
from games.napoleons_triumph.schemas import PAYLOADS, VIEW_SCHEMA, payload_schema, schema_errors
from games.napoleons_triumph.state import GameState, Pending
from games.napoleons_triumph.team import engine as team_engine
from games.napoleons_triumph.team.engine_prompts import prompts as team_prompts
from games.napoleons_triumph.team.engine_prompts import team_choices
from games.napoleons_triumph.team.engine_view import team_view
from games.napoleons_triumph.turns import end_turn, start_game


class RandomPlayer(Protocol):
    """A random legal action for `role`, or None when it has nothing to do (randomplay.py)."""

    def __call__(
        self, rules: NapoleonsTriumph, state: GameState, role: Role, rng: Rng
    ) -> Action | None: ...


COMMANDS: dict[str, Handler] = {
    "corps_move": lambda c, s, p: movement.move_command(c, s, "corps_move", p),
    "detach_move": lambda c, s, p: movement.move_command(c, s, "detach_move", p),
    "unit_move": lambda c, s, p: movement.move_command(c, s, "unit_move", p),
    "attach": attach,
    "enter_reinforcement": reinforcements.enter,
    "threaten": attack.threaten,
    "ride_on": road_attack.ride_on,
    "end_turn": lambda c, s, p: end_turn(c),
}
SETUP: dict[str, Handler] = {
    "allied_setup": deployment.allied_setup,
    "french_setup": deployment.french_setup,
}
NOT_YET: dict[str, str] = {}  # kinds of the digest not implemented yet -> the rule refused
AUCTION_PROMPTS = {
    "bid": {"auction_bid": T("bid for the choice of side"), "auction_pass": T("pass")},
    "choose_side": {"auction_choose_side": T("you won the auction: choose your side")},
}
ALWAYS = {"set_defense_plan", "resign"}
ANY_TIME = {
    "set_defense_plan": T("a standing instruction for when you defend (digest 4.5)"),
    "resign": T("give up the game"),
}
KNOWN = (
    set(COMMANDS)
    | {k for d in DECISIONS.values() for k in d.answers}
    | set(SETUP)
    | ALWAYS
    | set(NOT_YET)
    | set(auction.KINDS)
    | set(team_engine.TEAM_KINDS)  # team play (rulebook chapter 19): team/engine.py
)


class Malformed(Illegal):
    """A payload that does not match its kind's schema: every failure, not just the first."""

    def __init__(self, rejections: Sequence[Rejection]) -> None:
        first = rejections[0]
        super().__init__(first.rule, first.message, first.path)
        self.rejections = tuple(rejections)


def _side_of(state: GameState, role: str) -> str:
    side = state.roles.get(role)
    require(
        side is not None, "NT-140", T("{role} plays no side in this game", role=repr(role)), "/role"
    )
    assert side is not None
    return side


def _dispatch(ctx: Ctx, action: Action) -> None:
    state = ctx.state
    require(state.phase != "over", "NT-128", T("the game is over"))
    kind = action.kind
    if action.role == SYSTEM:
        require(
            kind == ".deadline",
            "NT-0",
            T("the system does not send {kind}", kind=repr(kind)),
            "/kind",
        )
        _deadline(ctx)
        return
    require(kind in KNOWN, "NT-0", T("unknown action kind {kind}", kind=repr(kind)), "/kind")
    if kind in NOT_YET:
        raise Illegal(NOT_YET[kind], T("{kind} is not implemented yet", kind=kind), "/kind")
    if kind in team_engine.TEAM_KINDS and state.team is None:
        raise Illegal(
            "NT-TEAM-1", T("{kind} belongs to team play (options.team_play)", kind=kind), "/kind"
        )
    malformed = schema_errors(kind, action.payload)
    if malformed:
        raise Malformed(malformed)
    p = P.obj(action.payload)
    if state.phase == auction.AUCTION:  # NT-134: set-up step (2), before anyone has a side
        auction.act(ctx, action.role, kind, p)
        return
    if kind in auction.KINDS:
        auction.refuse_outside(state, kind)
    side = _side_of(state, action.role)
    if kind == "set_defense_plan":
        policies.set_defense_plan(ctx, side, p, action.role)
        return
    if kind == "resign":
        _resign(ctx, side)
        return
    if state.phase.startswith("setup"):
        require(
            kind in SETUP,
            "NT-19",
            T("set-up is not finished; {kind} must wait", kind=repr(kind)),
            "/kind",
        )
        SETUP[kind](ctx, side, p)
        if state.phase == "turn":
            start_game(ctx)
        return
    pending = state.pending
    if pending is not None:
        answers = DECISIONS[pending.kind].answers
        require(
            side == pending.side,
            "NT-35",
            T("waiting for the French to answer ({kind})", kind=pending.kind)
            if pending.side == "F"
            else T("waiting for the Allies to answer ({kind})", kind=pending.kind),
            "/kind",
        )
        require(
            kind in answers,
            "NT-35",
            T(
                "the open decision is {kind}; answer with {answers}",
                kind=pending.kind,
                answers=" or ".join(sorted(answers)),
            ),
            "/kind",
        )
        answers[kind].handler(ctx, side, p)
        return
    require(side == state.active, "NT-35", T("it is not your turn"), "/role")  # NT-26
    require(
        kind in COMMANDS,
        "NT-35",
        T("{kind} is not a command; nothing is waiting for it", kind=repr(kind)),
        "/kind",
    )
    if kind not in ("ride_on", "threaten"):
        road_attack.close_ride(ctx)  # NT-143: any other command ends an open ride-on
    COMMANDS[kind](ctx, side, p)


def _deadline(ctx: Ctx) -> None:
    """Digest 4.7: the open decision gets its default; a turn with nothing open ends."""
    state = ctx.state
    if state.phase == auction.AUCTION:
        raise Illegal(
            "NT-134", T("the auction has no default; the platform's missed-turn policy applies")
        )
    if state.phase.startswith("setup"):
        raise Illegal(
            "NT-19", T("set-up has no default; the platform's missed-turn policy applies")
        )
    if state.pending is None:
        end_turn(ctx)
        return
    kind, payload = default_answer(ctx, state.pending)
    side = state.pending.side
    ctx.log(
        T(
            "Deadline: the default answer is applied for the {kind} decision.",
            kind=state.pending.kind,
        )
    )
    role = next(r for r, s in state.roles.items() if s == side)
    _dispatch(ctx, Action(role, kind, payload))


def _resign(ctx: Ctx, side: str) -> None:
    state = ctx.state
    state.phase = "over"
    state.pending = None
    state.result = {
        "winner": S.other(side),
        "kind": "resignation",
        "reason": f"{'French' if side == 'F' else 'Allies'} resigned",
    }
    ctx.log(T("The French resign.") if side == "F" else T("The Allies resign."))


PlanOwner = Callable[[GameState, Pending], str | None]


def _auto_answers(ctx: Ctx, owner_of: PlanOwner | None = None) -> Ctx:
    """Apply standing instructions to open defender decisions while they are legal (digest 4.5).
    `owner_of` names whose plans answer an open decision (team play: the seat it is routed to,
    SRV-1; None there: nobody's); the side's by default."""
    for _ in range(50):
        pending = ctx.state.pending
        if pending is None:
            return ctx
        owner = None if owner_of is None else owner_of(ctx.state, pending)
        if owner_of is not None and owner is None:
            return ctx
        answer = standing_answer(ctx, pending, owner)
        if answer is None:
            return ctx
        trial = Ctx(ctx.board, S.clone(ctx.state), list(ctx.entries))
        role = next(r for r, s in trial.state.roles.items() if s == pending.side)
        try:
            _run(trial, Action(role, answer[0], answer[1]))
        except Illegal:
            return ctx
        ctx = trial
    return ctx


def _run(ctx: Ctx, action: Action) -> None:
    with contextlib.suppress(GameOver):
        _dispatch(ctx, action)


class NapoleonsTriumph:
    id = "napoleons_triumph"
    version = 2  # 2: the rule fixes of NT-145 and others change how version 1 logs replay
    title = "Napoleon's Triumph"

    def __init__(self, random_player: RandomPlayer | None = None) -> None:
        self._random_player = random_player

    def scenarios(self) -> Sequence[str]:
        return ("DEC2", "DEC1")

    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]:
        if auction.enabled(options):  # NT-135: the auction decides who plays which side
            return tuple(RoleInfo(r, T("Player {n}", n=r[-1])) for r in auction.PLAYERS)
        try:
            roles = roles_of(options)
        except Illegal:  # refused by setup, with its rule (NT-140, NT-TEAM: no team play yet)
            roles = dict(DEFAULT_ROLES)
        if roles != DEFAULT_ROLES:
            return tuple(RoleInfo(r, r, s) for r, s in roles.items())
        return tuple(
            RoleInfo(r, T("Allied army") if s == "AL" else T("French army"), s)
            for r, s in DEFAULT_ROLES.items()
        )

    def setup(self, config: GameConfig, rng: Rng) -> GameState:
        try:
            state = new_game(config.scenario, config.options, rng)
            if team_play(config.options):  # NT-TEAM-1: the team layer (team/engine.py)
                state.team = team_engine.new_team(state, board_for(state))
            return state
        except Illegal as e:  # the protocol's set-up error, naming the rule (NT-16, NT-19, ...)
            r = e.rejection
            raise SetupRefused(r.rule, r.message, r.path) from e

    def board(self, state: GameState) -> Board:
        return board_for(state)

    # --- the board for clients (board_json.py: enough to draw the map) ---
    def boards(self) -> Sequence[str]:
        """The board ids the option `board` accepts."""
        from games.napoleons_triumph.board_json import boards

        return boards()

    def board_json(self, board_id: str) -> dict[str, object]:
        """The public description of a board (KeyError for an unknown id)."""
        from games.napoleons_triumph.board_json import board_json

        return board_json(board_id)

    def ctx(self, state: GameState) -> Ctx:
        return Ctx(board_for(state), state)

    def prompts(self, state: GameState) -> Mapping[Role, Prompt]:
        if state.team is not None:
            return team_prompts(self, state)
        return self.core_prompts(state)

    def core_prompts(self, state: GameState) -> Mapping[Role, Prompt]:
        """The two-player prompts (team play routes them to one seat: team/engine_prompts.py)."""
        if state.phase == "over":
            return {}
        waiting = auction.waiting_role(state)
        if waiting is not None:
            role, what = waiting
            text = (
                T("Bid for the choice of side, or pass.")
                if what == "bid"
                else T("Choose your side.")
            )
            return {role: Prompt(role, dict(AUCTION_PROMPTS[what]), text)}
        if state.phase.startswith("setup"):
            side = state.active
            kind = "allied_setup" if side == "AL" else "french_setup"
            return self._for_side(
                state, side, {kind: T("organise and place your corps")}, T("Set up your army.")
            )
        if state.pending is not None:
            kinds = dict.fromkeys(DECISIONS[state.pending.kind].answers, state.pending.kind)
            return self._for_side(
                state,
                state.pending.side,
                kinds,
                T("Attack decision: {kind}.", kind=state.pending.kind),
            )
        return self._for_side(
            state, state.active, dict.fromkeys(COMMANDS, T("command")), T("Your turn.")
        )

    @staticmethod
    def _for_side(
        state: GameState, side: str, kinds: Mapping[str, JSON], text: str
    ) -> Mapping[Role, Prompt]:
        return {r: Prompt(r, dict(kinds), text) for r, s in state.roles.items() if s == side}

    def validate(self, state: GameState, action: Action) -> Sequence[Rejection]:
        try:
            self._apply(state, action)
        except Malformed as e:
            return e.rejections
        except Illegal as e:
            return (e.rejection,)
        return ()

    def validate_owned(self, state: GameState, action: Action) -> Sequence[Rejection]:
        """`validate` without the copy, on a state the caller has just loaded and drops after
        (the server's order pre-check: the copy is a third of its engine time). Two-player
        games run the action on `state` itself; team play validates as usual. The standing
        answers that `apply` runs after the action cannot make it illegal (_auto_answers stops
        at the first illegal answer), so they are not run here."""
        if state.team is not None:
            return self.validate(state, action)
        try:
            _run(Ctx(board_for(state), state), action)
        except Malformed as e:
            return e.rejections
        except Illegal as e:
            return (e.rejection,)
        return ()

    def apply(self, state: GameState, action: Action, rng: Rng) -> Step[GameState]:
        ctx, turn_ended = self._apply(state, action)
        return Step(ctx.state, tuple(ctx.entries), turn_ended)

    def _apply(self, state: GameState, action: Action) -> tuple[Ctx, bool]:
        before = (state.active, state.turn_number)
        if state.team is not None:  # team play: the team layer around core_run
            new, entries = team_engine.apply(self, state, action)
            ctx = Ctx(board_for(new), new, entries)
        else:
            ctx = self.core_run(state, action)
        return ctx, before != (ctx.state.active, ctx.state.turn_number) or ctx.state.phase == "over"

    def core_run(self, state: GameState, action: Action, owner_of: PlanOwner | None = None) -> Ctx:
        """The two-player engine: the action on a clone, then the standing answers (`owner_of`:
        whose plans answer, see _auto_answers)."""
        ctx = Ctx(board_for(state), S.clone(state))
        _run(ctx, action)
        return _auto_answers(ctx, owner_of)

    def view(self, state: GameState, role: Role) -> JSON:
        ctx = self.ctx(state)
        out = V.view(ctx, role)
        if state.team is not None and isinstance(out, dict):
            out["team"] = team_view(state, ctx.board, role)
            out.pop("standing_instructions", None)  # SRV-1: each seat reads only its own
            if role in state.plans:
                out["standing_instructions"] = copy.deepcopy(state.plans[role])
            elif role == OMNISCIENT:
                everyone: dict[str, JSON] = {r: copy.deepcopy(p) for r, p in state.plans.items()}
                out["standing_instructions"] = everyone
        return out

    def result(self, state: GameState) -> Result | None:
        if state.result is None:
            return None
        winner = state.result["winner"]
        winners = tuple(r for r, s in state.roles.items() if s == winner)
        kind = state.result["kind"]
        summary = {
            ("F", "decisive"): T("French decisive victory"),
            ("F", "marginal"): T("French marginal victory"),
            ("F", "resignation"): T("French resignation victory"),
            ("AL", "decisive"): T("Allied decisive victory"),
            ("AL", "marginal"): T("Allied marginal victory"),
            ("AL", "resignation"): T("Allied resignation victory"),
        }.get((str(winner), str(kind)))
        if summary is None:  # not a kind of this engine: as it is
            summary = f"{'French' if winner == 'F' else 'Allied'} {kind} victory"
        return Result(winners, summary, state.result)

    def dump(self, state: GameState) -> JSON:
        return S.dump(state)

    def load(self, data: JSON) -> GameState:
        return S.load(data)

    def parse_text(self, state: GameState, role: Role, text: str) -> Sequence[Action] | Rejection:
        from games.napoleons_triumph.text import parse_text

        return parse_text(self.ctx(state), role, text)

    def report_text(self, state: GameState, role: Role) -> str:
        """The role's view in words for a turn-report email (report.py): built only from
        `view(state, role)`, the role's prompt and the public board. Never raises: a bug
        becomes one line saying the report could not be written."""
        from games.napoleons_triumph.report import report

        try:
            return report(self.view(state, role), self.prompts(state).get(role), self.board(state))
        except Exception as e:  # never raise to the platform (as parse_text)
            return T("(the report could not be written: {error})", error=type(e).__name__) + "\n"

    def random_action(self, state: GameState, role: Role, rng: Rng) -> Action | None:
        if self._random_player is None:
            raise NotImplementedError(
                "this NapoleonsTriumph has no random player: build it with "
                "NapoleonsTriumph(random_player=...) or use games.napoleons_triumph.RULESET"
            )
        return self._random_player(self, state, role, rng)

    # --- the API's contract for clients: schemas.py and choices.py ---
    def actions(self, state: GameState, role: Role) -> Sequence[ActionSpec]:
        """The prompted kinds (as `prompts` names them), then the any-time ones, each with its
        schema and the legal payloads `role` could send now (choices.py: only from what `role`
        may know)."""
        from games.napoleons_triumph.choices import choices_for

        in_auction = state.phase == auction.AUCTION and role in auction.PLAYERS
        if state.phase == "over" or (role not in state.roles and not in_auction):
            return ()
        prompt = self.prompts(state).get(role)
        kinds = sorted(prompt.kinds.items()) if prompt is not None else []
        ctx = self.ctx(state)
        specs = [
            ActionSpec(k, str(d), payload_schema(k), self._team_choices(state, role, k, ctx))
            for k, d in kinds
        ]
        specs += [
            ActionSpec(k, ANY_TIME[k], payload_schema(k), choices_for(self, ctx, role, k), True)
            for k in sorted(ALWAYS)
            if not in_auction  # NT-134: no side yet, so no standing instructions or resignation
            # team play: set_defense_plan for every seat (SRV-1), resign for the CinC
            and (state.team is None or team_engine.gate_allows(self, state, Action(role, k, {})))
        ]
        return specs

    def _team_choices(self, state: GameState, role: Role, kind: str, ctx: Ctx) -> JSON:
        """The choices of `kind` for `role`; in team play only those the team layer lets this
        seat send (another seat's corps, a decision routed elsewhere: NT-TEAM-35..48)."""
        from games.napoleons_triumph.choices import choices_for

        if state.team is not None and kind in team_engine.TEAM_KINDS:
            listed = team_choices(state, role, kind)
            payloads = listed.get("payloads") if isinstance(listed, dict) else None
            if not isinstance(listed, dict) or not isinstance(payloads, list):
                return listed
            legal = [p for p in payloads if not self.validate(state, Action(role, kind, p))]
            return {**listed, "payloads": legal}
        choices = choices_for(self, ctx, role, kind)
        if state.team is None or not isinstance(choices, dict):
            return choices
        payloads = choices.get("payloads")
        if not isinstance(payloads, list):
            return choices
        allowed = [
            p for p in payloads if team_engine.gate_allows(self, state, Action(role, kind, p))
        ]
        return {**choices, "payloads": allowed}

    def payload_schemas(self) -> Mapping[str, JSON]:
        return {k: payload_schema(k) for k in sorted(PAYLOADS)}

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        if kind in NOT_YET:
            return (
                Rejection(NOT_YET[kind], T("{kind} is not implemented yet", kind=kind), "/kind"),
            )
        if kind not in PAYLOADS:
            return (
                Rejection(
                    "unknown_kind",
                    T(
                        "unknown action kind {kind}; known: {known}",
                        kind=repr(kind),
                        known=", ".join(sorted(PAYLOADS)),
                    ),
                    "/kind",
                ),
            )
        return tuple(schema_errors(kind, payload))

    def view_schema(self) -> JSON:
        """The JSON Schema of what `view` returns, for every role."""
        return VIEW_SCHEMA

    def private_kinds(self) -> frozenset[str]:
        # standing instructions are a side's secret; a written order its author's (NT-TEAM-23);
        # the conference's talk, rank proposals and corps drafts its team's (NT-TEAM-4..7): the
        # platform hides such an event from every role its log lines do not name, and an event
        # with a line for everyone (a locked rank order, a closed conference) stays public
        # and so are a team's set-up parts until its set-up is applied (NT-TEAM-27..31)
        return frozenset(
            {
                "set_defense_plan",
                team_engine.WRITE_ORDER,
                *team_engine.TEAM_SECRET_KINDS,
                *team_engine.SETUP_KINDS,
            }
        )

    def log_for(self, entries: Sequence[LogEntry], role: Role) -> list[str]:
        """The lines of a log a role may read (the platform filters Event.log the same way)."""
        return lines_for(entries, role)
