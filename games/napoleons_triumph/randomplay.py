"""Random legal play: a generator of random legal actions for a role (for the fuzzer and tests).

Candidates are drawn at random from what the role can see and kept only if `validate` accepts them;
the documented default answer (always legal) is the fallback for every decision, `end_turn` for a
command phase. The play is biased towards fighting so that the fuzzer reaches the rarer decisions:
a possible threat is made most of the time and most moves go to the target nearest the enemy.
Set-ups are drawn in random_setup.py and answers to attack decisions in random_answers.py (each
decision's drawer named by its entry in decisions.py).

The random player depends on the rules, never the reverse: the package gives the ruleset this
module's `random_action` when it builds RULESET (`NapoleonsTriumph(random_player=...)`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.napoleons_triumph.attack.attackers import attack_options
from games.napoleons_triumph.auction import AUCTION, high_bid, last_bid_of, max_bid, waiting_role
from games.napoleons_triumph.board import RoadStep
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.decisions import default_answer, random_answer
from games.napoleons_triumph.movement import ordinary_targets
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import (
    corps_units,
    occupant,
    units_in,
    units_on_map,
)
from games.napoleons_triumph.random_setup import draw_setup
from games.napoleons_triumph.reinforcements import first_round
from games.napoleons_triumph.road_attack.options import road_threats
from games.napoleons_triumph.rules import NapoleonsTriumph
from games.napoleons_triumph.state import AL, MAP, OFFMAP, F, GameState, other
from games.napoleons_triumph.team.randomplay import random_team_action
from games.napoleons_triumph.turns import is_night

TRIES = 25


def random_action(rules: NapoleonsTriumph, state: GameState, role: str, rng: Rng) -> Action | None:
    if state.team is not None:  # team play: team/randomplay.py, with this module's player
        return random_team_action(
            rules, state, role, rng, lambda s, r, g: _two_player(rules, s, r, g)
        )
    return _two_player(rules, state, role, rng)


def _two_player(rules: NapoleonsTriumph, state: GameState, role: str, rng: Rng) -> Action | None:
    prompts = rules.prompts(state)
    if role not in prompts:
        return None
    ctx = rules.ctx(state)
    if state.phase == AUCTION:
        return _auction(state, role, rng)
    side = state.roles[role]
    for _ in range(TRIES):
        cand = _candidate(ctx, side, rng)
        if cand is None:
            break
        action = Action(role, cand[0], cand[1])
        if not rules.validate(state, action):
            return action
    if state.phase == "setup_AL" or state.phase == "setup_F":
        return None
    if state.pending is None:
        return Action(role, "end_turn", {})
    kind, payload = default_answer(ctx, state.pending)
    return Action(role, kind, payload)


def _auction(state: GameState, role: str, rng: Rng) -> Action | None:
    """NT-134, NT-135: raise the bid by 0-3 now and then, else pass; the winner picks a side
    whose morale stays at 1 or more."""
    waiting = waiting_role(state)
    if waiting is None or waiting[0] != role:
        return None
    auction = state.auction
    assert auction is not None
    if waiting[1] == "choose_side":
        bid = last_bid_of(auction, role)
        sides = [s for s in (AL, F) if state.morale[s] - bid >= 1]
        return Action(role, "auction_choose_side", {"side": rng.choice(sides)})
    high = high_bid(auction)
    amount = 0 if high is None else high + 1 + rng.below(3)
    if amount > max_bid(state) or rng.chance(1, 3):
        return Action(role, "auction_pass", {})
    return Action(role, "auction_bid", {"amount": amount})


def _candidate(ctx: Ctx, side: str, rng: Rng) -> tuple[str, dict[str, JSON]] | None:
    state = ctx.state
    if state.phase == "setup_AL":
        return "allied_setup", draw_setup(ctx, AL, rng)
    if state.phase == "setup_F":
        return "french_setup", draw_setup(ctx, F, rng)
    if state.pending is not None:
        return random_answer(ctx, side, rng)
    return _command(ctx, side, rng)


# ----------------------------------------------------------------------------- commands

# Out of 12: how often a possible threat is made, and how often a move goes towards the enemy.
THREATEN = 7
TOWARDS = 8


def _threats(ctx: Ctx, side: str) -> list[tuple[int, str]]:
    """(attack locale, approach) pairs a threat could be made across now, backed by a command."""
    state, board = ctx.state, ctx.board
    if is_night(ctx):
        return []
    out: list[tuple[int, str]] = []
    locs = sorted({u.loc for u in units_on_map(state, side) if u.loc is not None and not u.fixed})
    for loc in locs:
        for a in board.approaches_of(loc):
            if (
                board.approaches[a].impassable
                or a in state.turn.closed
                or occupant(state, board.other_locale(a, loc)) != other(side)
            ):
                continue
            if attack_options(ctx, side, loc, a):
                out.append((loc, a))
    return out


def _threaten(ctx: Ctx, side: str, loc: int, app: str, rng: Rng) -> tuple[str, dict[str, JSON]]:
    guards = [
        u.id
        for u in units_in(ctx.state, loc, side)
        if u.type == "GUARD" and u.app in (None, app) and not u.fixed
    ]
    guard = bool(guards) and rng.chance(1, 3)
    return "threaten", {
        "attack_locale": loc,
        "approach": app,
        "guard_attack": guard,
        "show_guard": rng.choice(guards) if guard else None,
    }


def _enemy_distance(ctx: Ctx, side: str) -> Callable[[int], int]:
    """Locale -> passable distance to the nearest locale the enemy holds (99 without enemies)."""
    board, state = ctx.board, ctx.state
    enemy = sorted({u.loc for u in units_on_map(state, other(side)) if u.loc is not None})

    def dist(loc: int) -> int:
        d = board.distances_from(loc)
        return min((d[e] for e in enemy if e in d), default=99)

    return dist


def _command(ctx: Ctx, side: str, rng: Rng) -> tuple[str, dict[str, JSON]] | None:
    state, board = ctx.state, ctx.board
    if rng.chance(1, 25):  # a standing instruction for when this side defends (digest 4.5)
        scope: JSON = {"default": True}
        own = sorted(
            {
                u.loc
                for u in state.units.values()
                if u.side == side and u.where == MAP and u.loc is not None
            }
        )
        if own and rng.chance(1, 2):
            scope = {"locale": rng.choice(own)}
        return "set_defense_plan", {
            "scope": scope,
            "on_threat": {
                "mode": rng.choice(["defend", "vacate", "ask"]),
                "leading": rng.choice(["strongest", "none"]),
            },
            "counter": {"policy": rng.choice(["none", "ask", "win_if_possible"])},
            "hold": rng.choice(["all_named", "ask"]),
            "retreat": {"mode": rng.choice(["default", "ask"])},
        }
    ride = state.ride_on
    if ride is not None and rng.chance(1, 2):  # NT-98: ride on along the road
        loc, strand = ride["locale"], ride["strand"]
        assert isinstance(loc, int)
        assert isinstance(strand, int)
        steps = board.road_steps(loc, strand)
        if steps:
            step = rng.choice(steps)
            if rng.chance(1, 4):  # NT-53: end where they stand, blocking (an empty path)
                return "ride_on", {"path": [], "end_approach": step.approach}
            return "ride_on", {"path": [step.to_locale]}
    roads = road_threats(ctx, side) if not is_night(ctx) else []
    if roads and rng.chance(1, 4):  # the threat names the approach only (NT-70)
        road = rng.choice(roads)
        return "threaten", {"attack_locale": road["attack_locale"], "approach": road["approach"]}
    threats = _threats(ctx, side)
    if threats and rng.chance(THREATEN, 12):
        loc, app = rng.choice(threats)
        return _threaten(ctx, side, loc, app, rng)
    used = len(state.turn.commands)
    if rng.below(12) < 1 + used // 2:
        return "end_turn", {}
    roll = rng.below(10)
    mine = [u for u in state.units.values() if u.side == side and u.where == MAP and not u.fixed]
    towards = _enemy_distance(ctx, side) if rng.chance(TOWARDS, 12) else None
    if roll < 4 and mine:  # unit move
        u = rng.choice(sorted(mine, key=lambda x: x.id))
        return "unit_move", _move_payload(ctx, u.loc, u.app, rng, {"unit": u.id}, towards=towards)
    cmds = [c for c in state.commanders.values() if c.side == side and c.where == MAP]
    if roll < 8 and cmds:
        c = rng.choice(sorted(cmds, key=lambda x: x.id))
        members = corps_units(state, c.id)
        stuck = [u.id for u in members if u.fixed or u.moves >= 1]
        if rng.chance(1, 3) and len(members) > 1:
            movers = [u.id for u in members if u.id not in stuck]
            k = 1 + rng.below(max(1, len(movers) - 1))
            return "detach_move", _move_payload(
                ctx,
                c.loc,
                c.app,
                rng,
                {"commander": c.id, "units": jlist(movers[:k])},
                road=False,
                towards=towards,
            )
        return "corps_move", _move_payload(
            ctx, c.loc, c.app, rng, {"commander": c.id, "detach": jlist(stuck)}, towards=towards
        )
    if roll < 9 and cmds:
        c = rng.choice(sorted(cmds, key=lambda x: x.id))
        others = [
            u for u in units_in(state, c.loc or 0, side) if u.app == c.app and u.corps != c.id
        ]
        if others:
            return "attach", {"commander": c.id, "unit": rng.choice(sorted(o.id for o in others))}
    waiting = [
        c
        for c in state.commanders.values()
        if c.side == side and c.where == OFFMAP and state.round >= first_round(ctx, c.id)
    ]
    if waiting:
        c = rng.choice(sorted(waiting, key=lambda x: x.id))
        entries = [e for e in board.entries if e.side == side]
        e = rng.choice(entries)
        path = [e.locale]
        node = (e.locale, e.strand)
        if rng.chance(1, 2):
            steps = board.road_steps(*node)
            if steps:
                path.append(_pick_step(steps, towards, rng).to_locale)
        if rng.chance(1, 2):
            return "enter_reinforcement", {
                "command": "corps_move",
                "commander": c.id,
                "entry": e.id,
                "path": list(path),
            }
        us = sorted(u.id for u in state.units.values() if u.corps == c.id and u.where == OFFMAP)
        return "enter_reinforcement", {
            "command": "unit_move",
            "unit": rng.choice(us),
            "entry": e.id,
            "path": list(path),
        }
    return "end_turn", {}


def _pick_step(
    steps: Sequence[RoadStep], towards: Callable[[int], int] | None, rng: Rng
) -> RoadStep:
    if towards is None:
        return rng.choice(steps)
    best = min(towards(s.to_locale) for s in steps)
    return rng.choice([s for s in steps if towards(s.to_locale) == best])


def _move_payload(
    ctx: Ctx,
    loc: int | None,
    app: str | None,
    rng: Rng,
    base: dict[str, JSON],
    road: bool = True,
    towards: Callable[[int], int] | None = None,
) -> dict[str, JSON]:
    """A random destination; with `towards`, one that comes closest to the enemy (a road march
    goes on while it gets closer, an ordinary move picks among the nearest targets)."""
    board = ctx.board
    out = dict(base)
    assert loc is not None
    if road and app is None and board.strands(loc) and rng.chance(1, 3):
        node = (loc, rng.choice(board.strands(loc)))
        path: list[JSON] = []
        here = towards(loc) if towards is not None else 0
        for _ in range(1 + rng.below(3)):
            steps = board.road_steps(*node)
            if not steps:
                break
            s = _pick_step(steps, towards, rng)
            if towards is not None:
                if path and towards(s.to_locale) >= here:
                    break
                here = towards(s.to_locale)
            path.append(s.to_locale)
            node = (s.to_locale, s.to_strand)
        out.update({"road": True, "path": path})
        return out
    targets = ordinary_targets(ctx, loc, app)
    side = ctx.state.units[str(base["unit"])].side if "unit" in base else None
    if side is None:
        side = ctx.state.commanders[str(base["commander"])].side
    free = [t for t in targets if occupant(ctx.state, t[0]) != other(side)]
    if towards is not None and free:
        best = min(towards(t[0]) for t in free)
        targets = [t for t in free if towards(t[0]) == best]
    tl, ta = rng.choice(targets)
    out.update({"road": False, "to": {"locale": tl, "approach": ta}})
    return out
