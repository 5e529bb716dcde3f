"""Valour & Fortitude as a Ruleset (games.core.protocol), played umpired (games.core.umpire).

Roles: the two sides of the scenario, "A" and "B". The platform adds the umpire seat `@umpire`,
which this engine prompts whenever a step needs geometric facts (V-06, V-14): it answers
`confirm` (every proposal stands) or `.correction` (one fact overridden, with a reason); with
the option `auto_geometry` every proposal is accepted and the umpire is never asked.

Kinds: `choose_first_side` (VF-251), `turn_orders` (the sealed whole-turn sheet, digest 4.5),
`confirm` and `.correction` (the umpire), `play_fate` (the inactive side's cards in an open fate
window, V-01), and the platform's `.deadline` (the open decision's default: the proposals stand,
a fate window passes, an empty sheet, the decider begins).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from jsonschema import Draft202012Validator

from games.core.i18n import T
from games.core.protocol import (
    DEADLINE_KIND,
    JSON,
    OMNISCIENT,
    SCENARIO_DOCUMENT,
    SYSTEM,
    Action,
    ActionSpec,
    GameConfig,
    Prompt,
    Rejection,
    Result,
    Role,
    RoleInfo,
    Step,
)
from games.core.rng import Rng
from games.core.umpire import CORRECTION_KIND, UMPIRE
from games.valour_fortitude import fate, reserves, turn
from games.valour_fortitude import match as m
from games.valour_fortitude import order_sheet as o
from games.valour_fortitude.context import BOOL, COUNT, COVER, COVER_CLASSES, INCHES, OFFSET, Ctx
from games.valour_fortitude.kinds import CONFIRM, FIRST_SIDE, PLAY_FATE, TURN_ORDERS
from games.valour_fortitude.randomplay import random_action
from games.valour_fortitude.setup import SCENARIOS, new_match, resolve
from games.valour_fortitude.state import SideState
from games.valour_fortitude.view import view

SCHEMAS: dict[str, JSON] = {
    TURN_ORDERS: o.TURN_ORDERS,
    FIRST_SIDE: o.FIRST_SIDE,
    CONFIRM: o.CONFIRM,
    CORRECTION_KIND: o.CORRECTION,
    PLAY_FATE: fate.PLAY_FATE,
}
VALIDATORS = {k: Draft202012Validator(v) for k, v in SCHEMAS.items()}  # type: ignore[arg-type]
DESCRIPTIONS = {
    TURN_ORDERS: "the whole turn's orders: shooting, brigades, unit actions, officers, melee (4.5)",
    FIRST_SIDE: "choose the side that takes the first turn (VF-251)",
    CONFIRM: "the umpire confirms every proposed fact (V-06, V-14)",
    CORRECTION_KIND: "the umpire overrides one proposed fact, with a reason (V-14)",
    PLAY_FATE: "play fate cards in the open window, or none (V-01, VF-37)",
}
SIDE_NAMES = {"A": "Side A", "B": "Side B"}


class ValourFortitude:
    id = "valour_fortitude"
    version = 1
    title = "Valour & Fortitude"

    def scenarios(self) -> Sequence[str]:
        return SCENARIOS

    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]:
        if SCENARIO_DOCUMENT in options:  # checked as set-up checks it (documents.py)
            found, _ = resolve(GameConfig(scenario, options))
            return tuple(_role(side) for side in found.state.sides)
        return (
            RoleInfo("A", T("Side A (attacker in the example)")),
            RoleInfo("B", T("Side B (defender in the example)")),
        )

    def umpire_kinds(self) -> frozenset[str]:
        return frozenset({CORRECTION_KIND, CONFIRM})

    def setup(self, config: GameConfig, rng: Rng) -> m.Match:
        return new_match(config, rng)

    # --- prompts ---
    def prompts(self, state: m.Match) -> Mapping[Role, Prompt]:
        stage = state.stage
        if stage == m.INITIATIVE:
            init = state.flow["initiative"]
            assert isinstance(init, dict)
            decider = str(init["decider"])
            text = T(
                "You won the initiative roll ({roll}): choose who takes the first turn (VF-251)",
                roll=init["roll"],
            )
            return {decider: Prompt(decider, {FIRST_SIDE: DESCRIPTIONS[FIRST_SIDE]}, text)}
        window = fate.window(state.flow)
        if window is not None:  # V-01: opened whatever the hand holds
            side = str(window["side"])
            text = T("You may play fate cards now ({hook}) or none", hook=window["hook"])
            return {side: Prompt(side, {PLAY_FATE: DESCRIPTIONS[PLAY_FATE]}, text)}
        if stage == m.ORDERS:
            side = str(state.game.turn.active_side)
            text = T(
                "Round {round}: send your order sheet for the turn", round=state.game.turn.round
            )
            return {side: Prompt(side, {TURN_ORDERS: DESCRIPTIONS[TURN_ORDERS]}, text, sealed=True)}
        if stage == m.RESOLVING and state.pending:
            kinds = {CONFIRM: DESCRIPTIONS[CONFIRM], CORRECTION_KIND: DESCRIPTIONS[CORRECTION_KIND]}
            text = T("Rule on {n} proposed facts: confirm, or correct one", n=len(state.pending))
            return {UMPIRE: Prompt(UMPIRE, kinds, text)}
        return {}

    # --- validate and apply ---
    def validate(self, state: m.Match, action: Action) -> Sequence[Rejection]:
        return problems(state, action)

    def validate_owned(self, state: m.Match, action: Action) -> Sequence[Rejection]:
        return problems(state, action)  # validate never changes the state it is given

    def apply(self, state: m.Match, action: Action, rng: Rng) -> Step[m.Match]:
        refused = problems(state, action)
        if refused:
            raise ValueError(f"invalid action: {refused[0].rule}: {refused[0].message}")
        ctx = Ctx(state.game, json.loads(json.dumps(state.flow)), rng, actor=action.role)
        before = (state.stage, state.game.turn.active_side)
        _dispatch(ctx, action)
        after = m.Match(ctx.game, ctx.flow, document=state.document)
        ended = (
            after.stage in (m.ORDERS, m.OVER)
            and (after.stage, after.game.turn.active_side) != before
        )
        return Step(after, tuple(ctx.log), ended)

    def view(self, state: m.Match, role: Role) -> JSON:
        return view(state, role)

    def result(self, state: m.Match) -> Result | None:
        found = state.flow.get("result")
        if not isinstance(found, dict):
            return None
        winners = found.get("winners")
        names = tuple(str(w) for w in winners) if isinstance(winners, list) else ()
        return Result(names, str(found.get("summary")), {"scores": found.get("scores")})

    def dump(self, state: m.Match) -> JSON:
        return m.dump(state)

    def load(self, data: JSON) -> m.Match:
        return m.load(data)

    def parse_text(self, state: m.Match, role: Role, text: str) -> Sequence[Action] | Rejection:
        from games.valour_fortitude.order_text import parse  # the notation is in its docstring

        return parse(state, role, text)

    def random_action(self, state: m.Match, role: Role, rng: Rng) -> Action | None:
        return random_action(self, state, role, rng)

    def actions(self, state: m.Match, role: Role) -> Sequence[ActionSpec]:
        prompt = self.prompts(state).get(role)
        if prompt is None:
            return ()
        out = []
        for kind in prompt.kinds:
            choices: JSON = None
            if kind == FIRST_SIDE:
                choices = {"payloads": [{"side": "A"}, {"side": "B"}], "complete": True}
            elif kind == CONFIRM:
                choices = {"payloads": [{}], "complete": True}
            elif kind == CORRECTION_KIND:
                facts = [str(p["key"]) for p in state.pending or []]
                choices = {"payloads": [], "complete": False, "facts": list(facts)}
            elif kind == PLAY_FATE:  # V-01: passing is always a choice
                choices = {"payloads": [{"plays": []}], "complete": False}
            out.append(ActionSpec(kind, DESCRIPTIONS[kind], SCHEMAS[kind], choices))
        return out

    def payload_schemas(self) -> Mapping[str, JSON]:
        return dict(SCHEMAS)

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        if kind not in SCHEMAS:
            known = ", ".join(sorted(SCHEMAS))
            return (
                Rejection(
                    "unknown_kind",
                    T("unknown action kind {kind}; known: {known}", kind=repr(kind), known=known),
                    "/kind",
                ),
            )
        return schema_errors(kind, payload)

    def private_kinds(self) -> frozenset[str]:
        return frozenset({TURN_ORDERS})  # the sealed sheet (digest 4.5)

    def report_text(self, state: m.Match, role: Role) -> str:
        from games.valour_fortitude.report import report

        prompts = self.prompts(state)  # the umpire reads as the omniscient role (core.umpire)
        prompt = prompts.get(UMPIRE) if role == OMNISCIENT else prompts.get(role)
        return report(self.view(state, role), prompt)


def _role(side: SideState) -> RoleInfo:
    """A side of a scenario document, named by its army list and its part (VF-247)."""
    if side.scenario_role == "attacker":
        return RoleInfo(
            side.id, T("Side {side}: {army}, attacker", side=side.id, army=side.army_list)
        )
    return RoleInfo(side.id, T("Side {side}: {army}, defender", side=side.id, army=side.army_list))


def schema_errors(kind: str, payload: JSON) -> list[Rejection]:
    out = []
    for error in sorted(VALIDATORS[kind].iter_errors(payload), key=lambda e: list(e.path))[:5]:
        path = "".join(f"/{p}" for p in error.path)
        out.append(
            Rejection(
                "schema",
                T("the payload does not match its schema: {error}", error=error.message[:200]),
                path,
            )
        )
    return out


def problems(state: m.Match, action: Action) -> list[Rejection]:
    kind, role = action.kind, action.role
    if state.stage == m.OVER:
        return [Rejection("VF-115", T("the game is over"), "/kind")]
    if role == SYSTEM:
        if kind != DEADLINE_KIND:
            return [
                Rejection("4.3", T("the system sends only {kind}", kind=DEADLINE_KIND), "/kind")
            ]
        return []
    if kind not in SCHEMAS:
        known = ", ".join(sorted(SCHEMAS))
        return [
            Rejection(
                "unknown_kind",
                T("unknown action kind {kind}; known: {known}", kind=repr(kind), known=known),
                "/kind",
            )
        ]
    malformed = schema_errors(kind, action.payload)
    if malformed:
        return malformed
    if kind == PLAY_FATE:
        window = fate.window(state.flow)
        if window is None or window["side"] != role:
            return [Rejection("VF-37", T("no fate window is open for you"), "/kind")]
        assert isinstance(action.payload, dict)
        plays = action.payload["plays"]
        assert isinstance(plays, list)
        return fate.entry_problems(state.game, role, plays, "/plays", str(window["hook"]))
    prompt = ValourFortitude().prompts(state).get(role)
    if prompt is None or kind not in prompt.kinds:
        if role not in ("A", "B", UMPIRE):
            return [
                Rejection("VF-32", T("{role} plays no part in this game", role=repr(role)), "/role")
            ]
        return [
            Rejection(
                "VF-32",
                T("nothing is waiting for {kind} from {role}", kind=kind, role=role),
                "/kind",
            )
        ]
    payload = action.payload
    assert isinstance(payload, dict)
    if kind == TURN_ORDERS:
        entries = payload.get("reserves")
        extra = reserves.sheet_problems(  # VF-120
            state.game, state.flow, role, entries if isinstance(entries, list) else []
        )
        return [*o.sheet_problems(state.game, role, payload), *extra]
    if kind == CORRECTION_KIND:
        return correction_problems(state, payload)
    return []


def correction_problems(state: m.Match, payload: dict[str, JSON]) -> list[Rejection]:
    pending = {str(p["key"]): p for p in state.pending or []}
    fact = pending.get(str(payload["fact"]))
    if fact is None:
        keys = ", ".join(sorted(pending))
        return [
            Rejection(
                "V-14",
                T("no proposed fact {key}; open: {keys}", key=repr(payload["fact"]), keys=keys),
                "/fact",
            )
        ]
    value, kind = payload["value"], fact["kind"]
    ok = {
        BOOL: isinstance(value, bool),
        COUNT: isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10000,
        COVER: value in COVER_CLASSES,
        OFFSET: value is None or _offset(value),
        INCHES: value is None or (isinstance(value, str) and _inches(value) is not None),
    }.get(str(kind), False)
    if not ok:
        return [
            Rejection("V-14", T("the value does not fit the fact (a {kind})", kind=kind), "/value")
        ]
    return []


def _inches(text: str) -> Decimal | None:
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return (
        number
        if number.is_finite()
        and abs(number) <= 1000
        and number == number.quantize(Decimal("0.001"))
        else None
    )


def _offset(value: JSON) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, str) and _inches(v) is not None for v in value)
    )


def _dispatch(ctx: Ctx, action: Action) -> None:
    kind, payload = action.kind, action.payload
    stage = ctx.flow["stage"]
    if action.role == SYSTEM and fate.window(ctx.flow):  # V-01's default: pass
        fate.answer(ctx, [])
        if stage == m.RESOLVING:
            turn.run(ctx)
        return
    if action.role == SYSTEM:  # .deadline: the open decision's default (digest 4.3)
        if stage == m.INITIATIVE:
            init = ctx.flow["initiative"]
            assert isinstance(init, dict)
            ctx.say(T("Deadline: the decider takes the first turn"))
            _first_side(ctx, str(init["decider"]))
        elif stage == m.ORDERS:
            ctx.say(T("Deadline: the turn is played with an empty order sheet"))
            turn.begin_orders(ctx, {})
        elif stage == m.RESOLVING and ctx.flow.get("pending"):
            ctx.say(T("Deadline: the proposed facts stand"))
            _confirm(ctx)
        return
    assert isinstance(payload, dict)
    if kind == FIRST_SIDE:
        _first_side(ctx, str(payload["side"]))
    elif kind == TURN_ORDERS:
        ctx.say(T("Side {side} has sent its order sheet", side=action.role))
        if "strike_back" in payload:  # V-09, AMB-15: stands until the side's next sheet names it
            policies = ctx.flow.get("strike_back")
            ctx.flow["strike_back"] = {
                **(policies if isinstance(policies, dict) else {}),
                action.role: payload["strike_back"],
            }
        turn.begin_orders(ctx, payload)
    elif kind == CONFIRM:
        _confirm(ctx)
    elif kind == CORRECTION_KIND:
        _correct(ctx, payload)
    elif kind == PLAY_FATE:
        plays = payload["plays"]
        assert isinstance(plays, list)
        fate.answer(ctx, plays)
        if stage == m.RESOLVING:
            turn.run(ctx)


def _first_side(ctx: Ctx, side: str) -> None:
    """VF-251."""
    from dataclasses import replace

    ctx.game = replace(ctx.game, turn=replace(ctx.game.turn, first_side=side))
    ctx.say(T("Side {side} takes the first turn (VF-251)", side=side))
    turn.start_turn(ctx, side)


def _confirm(ctx: Ctx) -> None:
    pending = ctx.flow.get("pending") or []
    assert isinstance(pending, list)
    facts = ctx.facts()
    for p in pending:
        assert isinstance(p, dict)
        facts[str(p["key"])] = p["value"]
    ctx.say(
        T("The umpire confirms {n} facts", n=len(pending)),
        data={"confirmed": copy.deepcopy(pending)},
    )
    ctx.flow["pending"] = None
    turn.run(ctx)


def _correct(ctx: Ctx, payload: dict[str, JSON]) -> None:
    pending = ctx.flow.get("pending") or []
    assert isinstance(pending, list)
    key = str(payload["fact"])
    fact = next(p for p in pending if isinstance(p, dict) and p["key"] == key)
    assert isinstance(fact, dict)
    ctx.facts()[key] = payload["value"]
    ctx.say(
        T(
            'The umpire corrects "{fact}": proposed {proposed}, ruled {ruled} ({reason})',
            fact=fact["fact"],
            proposed=repr(fact["value"]),
            ruled=repr(payload["value"]),
            reason=payload["reason"],
        ),
        data={"correction": {"fact": key, "proposed": fact["value"], "ruled": payload["value"]}},
    )
    rest = [p for p in pending if isinstance(p, dict) and p["key"] != key]
    ctx.flow["pending"] = rest or None  # type: ignore[assignment]
    if not rest:
        turn.run(ctx)


RULESET = ValourFortitude()
