"""The Ruleset for Commands & Colors: Napoleonics: a thin dispatcher over the phases
(orders.py, movement.py, combat.py, turn.py) and the open decisions of digest 4.1.

`validate` runs exactly the code of `apply` on a copy and reports the first rule that refuses,
so the two never disagree. Every roll comes from the Rng handed to `apply` (rolls.dice_from).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from games.commands_colors_napoleonics import combat, decisions, movement, orders, rolls, turn
from games.commands_colors_napoleonics import state as S
from games.commands_colors_napoleonics.board import Side
from games.commands_colors_napoleonics.dice import DiceSource
from games.commands_colors_napoleonics.game_setup import new_game, resolve
from games.commands_colors_napoleonics.illegal import Illegal, SetupRefused, require
from games.commands_colors_napoleonics.schemas import PAYLOADS, schema_errors
from games.commands_colors_napoleonics.state import GameState, hex_of
from games.commands_colors_napoleonics.victory import GameOver
from games.commands_colors_napoleonics.world import shipped
from games.core.i18n import T
from games.core.protocol import (
    JSON,
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

PHASE_KINDS: Mapping[str, tuple[str, ...]] = {
    "card": ("play_card",),
    "orders": ("give_orders",),
    "move": ("move", "end_moves"),
    "battle": ("battle", "end_battles"),
}
DECISION_KINDS = (
    "retreat",
    "leader_retreat",
    "take_ground",
    "bonus_melee",
    "battle_back",
    "scout_keep",
)
ANY_TIME = {
    "set_policy": T(
        "standing choices: battle back always, never or ask; melee answers none or ask (4.4)"
    ),
}
DESCRIPTIONS: Mapping[str, str] = {
    "play_card": T("play a command card from your hand (CCN-9)"),
    "give_orders": T("order units and leaders with the card played (CCN-12..22)"),
    "move": T("move one ordered unit or leader along a path (CCN-23..40)"),
    "end_moves": T("end the movement phase (CCN-7)"),
    "battle": T("declare a ranged combat or a melee (CCN-42)"),
    "end_battles": T("end the combat phase and draw (CCN-203)"),
    "retreat": T("accept flags and choose the retreat path (D-10, D-11)"),
    "leader_retreat": T("retreat the leader 1-3 hexes (D-13)"),
    "take_ground": T("advance into the vacated hex, or not (D-14)"),
    "bonus_melee": T("make a bonus melee, or not (D-15)"),
    "battle_back": T("battle back, or not (D-16)"),
    "melee_response": T("answer the declared melee: none, First Strike, retire or square (D-09)"),
    "retire": T("the retiring cavalry's 2 hexes towards your side (D-12)"),
    "supply_place": T("where your unit sent back by Short Supply goes (D-06)"),
    "scout_keep": T("keep one of the two cards drawn (D-17)"),
    **ANY_TIME,
}
KNOWN = tuple(sorted(PAYLOADS))


def side_of(state: GameState, role: Role) -> str:
    require(
        role in S.SIDES,
        "CCN-6",
        T("{role} plays no side in this game", role=repr(role)[:40]),
        "/role",
    )
    return role


def _dispatch(state: GameState, action: Action, log: list[LogEntry]) -> None:
    require(state.phase != "over", "CCN-207", T("the game is over"))
    kind = action.kind
    if action.role == SYSTEM:
        require(
            kind == ".deadline",
            "CCN-0",
            T("the system does not send {kind}", kind=repr(kind)[:40]),
            "/kind",
        )
        _deadline(state, log)
        return
    require(
        kind in PAYLOADS,
        "unknown_kind",
        T("unknown action kind {kind}", kind=repr(kind)[:40]),
        "/kind",
    )
    bad = schema_errors(kind, action.payload)
    if bad:
        raise Illegal(bad[0].rule, bad[0].message, bad[0].path)
    side = side_of(state, action.role)
    p = action.payload
    assert isinstance(p, dict)
    if kind == "set_policy":
        state.policies[side] = {**state.policies.get(side, {}), **{k: str(v) for k, v in p.items()}}
        return
    if state.pending is not None:
        pend = state.pending
        require(
            side == pend["side"],
            "CCN-42",
            T(
                "waiting for {side} to answer {kind}",
                side=str(pend["side"]),
                kind=str(pend["kind"]),
            ),
            "/role",
        )
        require(
            kind == pend["kind"],
            "CCN-42",
            T("the open decision is {kind}", kind=str(pend["kind"])),
            "/kind",
        )
        decisions.answer(state, side, kind, p, log)
        return
    require(side == state.active, "CCN-8", T("it is not your turn"), "/role")
    require(
        kind in PHASE_KINDS.get(state.phase, ()),
        "CCN-7",
        T("{kind} does not belong to this phase ({phase})", kind=kind, phase=state.phase),
        "/kind",
    )
    if kind == "play_card":
        code = str(p["card"])
        skip = orders.play_card(state, side, code)
        log.append(LogEntry(T("{side} plays {card}.", side=side, card=code)))
        if skip:
            log.append(LogEntry(T("The card orders nothing: phases 2 to 4 are skipped (CCN-11).")))
            turn.phase_five(state, rolls.current_rng())
        else:
            state.phase = "orders"
    elif kind == "give_orders":
        orders.give_orders(state, side, p)
        log.append(LogEntry(T("Ordered: {pieces}.", pieces=", ".join(state.turn.orders) or "-")))
    elif kind == "move":
        path = [hex_of(h) for h in p["path"]]  # type: ignore[union-attr]
        movement.move(state, side, str(p["piece"]), path, bool(p.get("exit", False)))
        log.append(
            LogEntry(
                T(
                    "{piece} moves to {path}.",
                    piece=str(p["piece"]),
                    path=" ".join(str(h) for h in path) or "-",
                )
            )
        )
    elif kind == "end_moves":
        state.phase = "battle"
    elif kind == "battle":
        combat.declare(state, side, p)
        log.append(
            LogEntry(
                T(
                    "{unit} battles {target} ({combat}).",
                    unit=str(p["unit"]),
                    target=str(p["target"]),
                    combat=str(p["combat"]),
                )
            )
        )
    elif kind == "end_battles":
        turn.phase_five(state, rolls.current_rng())


def _deadline(state: GameState, log: list[LogEntry]) -> None:
    """Digest 4.4: the open decision gets its default; a phase with nothing open ends it."""
    if state.pending is not None:
        kind, payload = decisions.default(state)
        log.append(LogEntry(T("Deadline: the default answer is applied ({kind}).", kind=kind)))
        decisions.answer(state, str(state.pending["side"]), kind, payload, log)
        return
    if state.phase == "card":
        raise Illegal(
            "CCN-9", T("playing a card has no default; the platform's missed-turn policy applies")
        )
    log.append(LogEntry(T("Deadline: the phase ends.")))
    if state.phase in ("orders", "battle"):
        turn.phase_five(state, rolls.current_rng())  # no orders given / no more battles
    elif state.phase == "move":
        state.phase = "battle"


def _run(
    state: GameState, action: Action, rng: Rng, log: list[LogEntry], dice: DiceSource | None = None
) -> None:
    state.last_roll = []
    with rolls.dice_from(rng, dice):
        try:
            _dispatch(state, action, log)
        except GameOver:
            log.append(LogEntry(str((state.result or {}).get("summary", ""))))


class RandomPlayer(Protocol):
    """A random legal action for `role`, or None when it has nothing to do (randomplay.py)."""

    def __call__(
        self, rules: CommandsColorsNapoleonics, state: GameState, role: Role, rng: Rng
    ) -> Action | None: ...


class CommandsColorsNapoleonics:
    id = "commands_colors_napoleonics"
    version = 1
    title = "Commands & Colors: Napoleonics"

    def __init__(self, random_player: RandomPlayer | None = None) -> None:
        self._random_player = random_player

    def scenarios(self) -> Sequence[str]:
        return tuple(sorted(shipped(), key=lambda n: (not n.startswith("example"), n)))

    def roles(self, scenario: str, options: Mapping[str, JSON]) -> Sequence[RoleInfo]:
        s, _ = resolve(scenario, options)  # a shipped scenario, or the scenario_document option
        return tuple(RoleInfo(side, s.sides[Side(side)].army, side) for side in S.SIDES)

    def setup(self, config: GameConfig, rng: Rng) -> GameState:
        try:
            return new_game(config.scenario, config.options, rng)
        except GameOver as e:
            raise SetupRefused(Rejection("CCN-207", T("the game would be over at set-up"))) from e
        except Illegal as e:
            raise SetupRefused(e.rejection) from e

    def prompts(self, state: GameState) -> Mapping[Role, Prompt]:
        if state.phase == "over":
            return {}
        if state.pending is not None:
            side, kind = str(state.pending["side"]), str(state.pending["kind"])
            return {
                side: Prompt(side, {kind: DESCRIPTIONS[kind]}, T("Decision: {kind}.", kind=kind))
            }
        kinds = {k: DESCRIPTIONS[k] for k in PHASE_KINDS[state.phase]}
        text = T("Your turn: phase {phase}.", phase=state.phase)
        return {state.active: Prompt(state.active, kinds, text)}

    def validate(self, state: GameState, action: Action) -> Sequence[Rejection]:
        try:
            _run(S.clone(state), action, Rng(0), [])
        except Illegal as e:
            return (e.rejection,)
        return ()

    def validate_owned(self, state: GameState, action: Action) -> Sequence[Rejection]:
        try:
            _run(state, action, Rng(0), [])
        except Illegal as e:
            return (e.rejection,)
        return ()

    def apply(self, state: GameState, action: Action, rng: Rng) -> Step[GameState]:
        return self.apply_with(state, action, rng)

    def apply_with(
        self, state: GameState, action: Action, rng: Rng, dice: DiceSource | None = None
    ) -> Step[GameState]:
        """`apply` with the dice from `dice` (ScriptedDice in tests; default from `rng`)."""
        new = S.clone(state)
        log: list[LogEntry] = []
        before = (new.active, new.turn_no)
        try:
            _run(new, action, rng, log, dice)
        except Illegal as e:
            raise ValueError(
                f"illegal action {action}: {e.rejection.rule}: {e.rejection.message}"
            ) from e
        if new.last_roll:
            log.append(
                LogEntry(
                    T(
                        "Dice: {rolls}.",
                        rolls="; ".join(
                            f"{r['by']} {r['purpose']}: {' '.join(map(str, r['faces']))}"  # type: ignore[arg-type]
                            for r in new.last_roll
                            if isinstance(r, dict)
                        ),
                    )
                )
            )
        return Step(new, tuple(log), (new.active, new.turn_no) != before or new.phase == "over")

    def view(self, state: GameState, role: Role) -> JSON:
        from games.commands_colors_napoleonics.view import view

        return view(state, role)

    def result(self, state: GameState) -> Result | None:
        if state.phase != "over" or state.result is None:
            return None
        winner = state.result.get("winner")
        return Result(
            (str(winner),) if winner else (),
            str(state.result.get("summary", "")),
            dict(state.result),
        )

    def dump(self, state: GameState) -> JSON:
        return S.dump(state)

    def load(self, data: JSON) -> GameState:
        return S.load(data)

    def parse_text(self, state: GameState, role: Role, text: str) -> Sequence[Action] | Rejection:
        from games.commands_colors_napoleonics.text import parse

        return parse(state, role, text)

    def random_action(self, state: GameState, role: Role, rng: Rng) -> Action | None:
        if self._random_player is None:
            return None
        return self._random_player(self, state, role, rng)

    def actions(self, state: GameState, role: Role) -> Sequence[ActionSpec]:
        from games.commands_colors_napoleonics.choices import choices

        prompt = self.prompts(state).get(role)
        specs = []
        if prompt is not None:
            for kind in prompt.kinds:
                specs.append(
                    ActionSpec(kind, DESCRIPTIONS[kind], PAYLOADS[kind], choices(state, role, kind))
                )
        if role in S.SIDES and state.phase != "over":
            specs += [ActionSpec(k, ANY_TIME[k], PAYLOADS[k], None, True) for k in sorted(ANY_TIME)]
        return specs

    def payload_schemas(self) -> Mapping[str, JSON]:
        return dict(PAYLOADS)

    def payload_errors(self, kind: str, payload: JSON) -> Sequence[Rejection]:
        if kind not in PAYLOADS:
            return (
                Rejection(
                    "unknown_kind",
                    T(
                        "unknown action kind {kind}; known: {known}",
                        kind=repr(kind)[:40],
                        known=", ".join(KNOWN),
                    ),
                    "/kind",
                ),
            )
        return tuple(schema_errors(kind, payload))

    def private_kinds(self) -> frozenset[str]:
        return frozenset({"set_policy"})  # a side's standing choice (4.4)

    def report_text(self, state: GameState, role: Role) -> str:
        from games.commands_colors_napoleonics.text import report

        return report(self.view(state, role), self.prompts(state).get(role))
