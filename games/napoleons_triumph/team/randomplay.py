"""Random legal team play (rulebook chapter 19), for the fuzzer and tests: conferences (ranks
proposed and confirmed, a random corps assignment, now and then a chat line, the close), written
orders now and then in the CinC's part, the set-up through the team set-up machine (the CinC
organizes a random legal army of random_setup.draw_setup, every seat places its corps, the French
seats detach now and then, the CinC picks a legal battery: NT-TEAM-27..31), and for commands and
decisions the two-player random player (handed in: this package never imports randomplay.py),
whose `end_turn` becomes `end_part`. Also `team_options` (random team sizes 1..4 a side) and
`order_problems`, the fuzzer's written-order timing and leak check over the views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from games.core.protocol import JSON, Action, ActionSpec, Prompt, Rejection, Role
from games.core.rng import Rng
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.random_setup import draw_setup
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team import setup_play as SP
from games.napoleons_triumph.team import written_orders as W
from games.napoleons_triumph.team.engine import END_PART, WRITE_ORDER, data_of
from games.napoleons_triumph.team.engine_state import TeamData

TwoPlayer = Callable[[GameState, Role, Rng], Action | None]


class Rules(Protocol):
    def prompts(self, state: GameState) -> Mapping[Role, Prompt]: ...
    def validate(self, state: GameState, action: Action) -> Sequence[Rejection]: ...
    def view(self, state: GameState, role: Role) -> JSON: ...
    def actions(self, state: GameState, role: Role) -> Sequence[ActionSpec]: ...


def team_options(rng: Rng) -> dict[str, JSON]:
    """A random team game: 1..4 seats a side (NT-TEAM-1, -2: sizes may differ)."""
    roles: dict[str, JSON] = {}
    for side, prefix in (("AL", "al"), ("F", "fr")):
        for i in range(1 + rng.below(4)):
            roles[f"{prefix}{i + 1}"] = side
    return {"team_play": True, "roles": roles}


def random_team_action(
    rules: Rules, state: GameState, role: Role, rng: Rng, two_player: TwoPlayer
) -> Action | None:
    prompt = rules.prompts(state).get(role)
    if prompt is None:
        return None
    data = data_of(state)
    if data.layer.phase in (phases.CONF_INITIAL, phases.CONF_NIGHT):
        return _conference(data, role, prompt, rng)
    setup = SP.running(state, data)
    if setup is not None:
        return _setup(rules, state, setup, role, prompt, rng)
    if WRITE_ORDER in prompt.kinds and rng.chance(1, 3):
        action = random_order(state, data, role, rng)
        if action is not None and not rules.validate(state, action):
            return action
    if END_PART in prompt.kinds and rng.chance(1, 8):
        return Action(role, END_PART, {})
    action = two_player(state, role, rng)
    if action is not None and action.kind == "end_turn":
        return Action(role, END_PART, {})
    if action is None or not rules.validate(state, action):
        return action
    # the two-player default answer may use another seat's pieces: a legal choice of this seat
    offered = [
        Action(role, spec.kind, p)
        for spec in rules.actions(state, role)
        if not spec.any_time and isinstance(spec.choices, dict)
        for p in _payloads(spec.choices)
    ]
    legal = [a for a in offered if not rules.validate(state, a)]
    return legal[rng.below(len(legal))] if legal else action


TRIES = 25


def _setup(
    rules: Rules, state: GameState, setup: su.SideSetup, role: Role, prompt: Prompt, rng: Rng
) -> Action | None:
    """One random legal set-up action of the acting seat (NT-TEAM-27..31)."""
    kinds = prompt.kinds
    if su.ORGANIZE_CORPS in kinds:
        ctx = Ctx(board_for(state), state)
        for _ in range(TRIES):
            drawn = draw_setup(ctx, setup.side, rng)
            corps = drawn["corps"]
            assert isinstance(corps, list)
            org: list[JSON] = [
                {"commander": c["commander"], "units": c["units"]}
                for c in corps
                if isinstance(c, dict)
            ]
            action = Action(role, su.ORGANIZE_CORPS, {"corps": org})
            if not rules.validate(state, action):
                return action
        return None
    if su.DETACH_UNIT in kinds and rng.chance(1, 3):
        detach = _detach(rules, state, setup, role, rng)
        if detach is not None:
            return detach
    if su.PLACE_CORPS in kinds and rng.chance(3, 4):  # in reserve most of the time
        left = [c for c in setup.on_board() if setup.owner(c) == role]
        placed = {c for c, _ in setup.placed}
        cid = next(c for c in left if c not in placed)
        reserve = Action(role, su.PLACE_CORPS, {"commander": cid, "approach": None})
        if not rules.validate(state, reserve):
            return reserve
    for spec in rules.actions(state, role):
        if spec.kind in kinds and spec.kind != su.END_PART and isinstance(spec.choices, dict):
            legal = _payloads(spec.choices)
            if legal:
                return Action(role, spec.kind, legal[rng.below(len(legal))])
    if su.END_PART in kinds:
        return Action(role, su.END_PART, {})
    return None


def _detach(
    rules: Rules, state: GameState, setup: su.SideSetup, role: Role, rng: Rng
) -> Action | None:
    """A random detachment of one of the seat's own units, at most 2 locales from its corps'
    set-up locale (NT-23), in reserve; None when the draws are refused."""
    board = board_for(state)
    done = {u for u, _, _ in setup.detached}
    mine = [
        (c, u)
        for c, units in setup.corps
        if c in setup.on_board() and setup.owner(c) == role
        for u in units
        if u not in done
    ]
    for _ in range(4 if mine else 0):
        cid, uid = mine[rng.below(len(mine))]
        origin = board.commanders[cid].setup_locale
        if origin is None:
            continue
        near = sorted(loc for loc, d in board.distances_from(origin).items() if d <= 2)
        loc = near[rng.below(len(near))]
        action = Action(role, su.DETACH_UNIT, {"unit": uid, "position": {"locale": loc}})
        if not rules.validate(state, action):
            return action
    return None


def _payloads(choices: dict[str, JSON]) -> list[JSON]:
    found = choices.get("payloads")
    return list(found) if isinstance(found, list) else []


def _conference(data: TeamData, role: str, prompt: Prompt, rng: Rng) -> Action:
    team = phases.team_of_role(data.layer, role)
    assert team is not None
    assert team.side is not None
    kinds = prompt.kinds
    if phases.SET_RANKS in kinds and team.proposal is None:
        order = list(team.members)
        rng.shuffle(order)
        return Action(role, phases.SET_RANKS, {"ranks": {r: i + 1 for i, r in enumerate(order)}})
    if phases.CONFIRM_RANKS in kinds and team.proposal is not None:
        ranks: JSON = {r: i + 1 for i, r in enumerate(team.proposal)}
        return Action(role, phases.CONFIRM_RANKS, {"ranks": ranks})
    conf = team.conference
    assert conf is not None
    if phases.ASSIGN_CORPS in kinds and (team.draft is None or rng.chance(1, 10)):
        needed = list(
            conf.in_play
            if conf.kind == phases.NIGHT
            else phases.side_commanders(data.layer, team.side)
        )
        rng.shuffle(needed)
        seats = list(team.ranks or team.proposal or team.members)
        corps: dict[str, JSON] = {c: seats[i % len(seats)] for i, c in enumerate(needed)}
        if conf.kind == phases.NIGHT and not rng.chance(1, 2):
            corps = {}  # keep the assignment (the close keeps it)
        if corps:
            return Action(role, phases.ASSIGN_CORPS, {"corps": corps})
    if phases.SKIP_CONFERENCE in kinds and rng.chance(1, 2):
        return Action(role, phases.SKIP_CONFERENCE, None)
    closable = conf.kind == phases.NIGHT or team.draft is not None
    if phases.CLOSE_CONFERENCE in kinds and closable and rng.chance(2, 3):
        return Action(role, phases.CLOSE_CONFERENCE, None)
    return Action(role, phases.CHAT_MESSAGE, {"text": f"{role}: hold the line ({rng.below(100)})"})


def random_order(state: GameState, data: TeamData, role: str, rng: Rng) -> Action | None:
    """A random legal order to a random subordinate: a verb and 0..3 toponyms, as text or
    structured (NT-TEAM-19..21)."""
    team = data.team(state.roles[role])
    if team is None or len(team.seats) < 2:
        return None
    board = board_for(state)
    recipient = team.seats[1 + rng.below(len(team.seats) - 1)].role
    ids = [t.id for t in board.toponyms]
    picked: list[str] = []
    for _ in range(rng.below(4)):
        t = ids[rng.below(len(ids))]
        if t not in picked:
            picked.append(t)
    verb = W.Verb.ATTACK if rng.chance(1, 2) else W.Verb.DEFEND
    order = W.canonical_order(board, verb, picked)
    if rng.chance(1, 2):
        return Action(role, WRITE_ORDER, {"recipient": recipient, "text": W.text_en(order, board)})
    structured: JSON = {"verb": order.verb.value, "toponyms": list[JSON](order.toponyms)}
    return Action(role, WRITE_ORDER, {"recipient": recipient, "order": structured})


def order_problems(rules: Rules, state: GameState, roles: Sequence[Role]) -> list[str]:
    """The fuzzer's written-order check: every sealed slot of turn k is in its recipient's inbox
    exactly once his side's team turn k+1 has started (or the game is over), in nobody else's
    inbox ever, and no other seat's view names it before the game is over (NT-TEAM-22, -23)."""
    if state.team is None:
        return []
    data = data_of(state)
    board = board_for(state)
    over = state.phase == "over"
    out: list[str] = []
    views = {r: rules.view(state, r) for r in roles}
    for raw in data.slots:
        slot = W.WrittenOrder.from_json(raw, board)
        delivered = over or data.started.get(slot.side, 0) >= slot.turn + 1
        for r in roles:
            view = views[r]
            team = view.get("team") if isinstance(view, dict) else None
            inbox = team.get("inbox") if isinstance(team, dict) else None
            has = isinstance(inbox, list) and raw in inbox
            if has != (r == slot.recipient and delivered):
                out.append(f"slot {raw} in the inbox of {r}: {has} (delivered {delivered})")
            if not over and r not in (slot.author, slot.recipient) and _names(view, raw):
                out.append(f"the view of {r} shows the unread slot {raw}")
    return out


def _names(view: JSON, raw: dict[str, JSON]) -> bool:
    """Whether the slot (with its order) appears anywhere in a view."""
    if view == raw:
        return raw.get("order") is not None
    if isinstance(view, dict):
        return any(_names(v, raw) for v in view.values())
    if isinstance(view, list):
        return any(_names(v, raw) for v in view)
    return False
