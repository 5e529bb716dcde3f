"""The legal choices of an action kind, as a client needs them to compose an order.

`choices_for(rules, ctx, role, kind)` gives `{"payloads": [...], "complete": bool, ...hints}`:
complete legal payloads the role could send now, and whether they are all of them. Every list is
computed only from what the role may know (its own pieces, public positions and locks, the open
decision's public data, enemy units by the aliases the role's view shows), in a deterministic
order, and bounded by MAX_PAYLOADS. Combinatorial kinds list a subset ("complete": false): the
set-up (a few organisations), moves (ordinary moves of single pieces and whole corps, no road
moves), loss assignments and anchors beyond the bound, hold and defense sets.

Candidates are either legal by construction, checked with the rules' own checks that change
nothing (`plan_move`, `ordinary_move`, `check_named`, ...), or checked with `validate` where a
handler's checks and changes interleave. The tests check every listed payload with `validate`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph.attack.attackers import attack_options
from games.napoleons_triumph.auction import AUCTION, high_bid, max_bid, waiting_role
from games.napoleons_triumph.choices_common import MAX_PAYLOADS, Checker, Out, Payload, Rules
from games.napoleons_triumph.commands import (
    check_corps_budget,
    check_independent_budget,
    moves_allowed,
    plan_move,
)
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.decisions import DECISIONS, default_answer
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.movement import ordinary_move, ordinary_targets
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import corps_units, occupant, units_in
from games.napoleons_triumph.reinforcements import first_round
from games.napoleons_triumph.road_attack.options import road_threats
from games.napoleons_triumph.state import MAP, OFFMAP, GameState, other
from games.napoleons_triumph.turns import is_night

__all__ = ["MAX_PAYLOADS", "choices_for"]

SETUP_TRIES, SETUP_KEEP = 24, 4


def choices_for(rules: Rules, ctx: Ctx, role: str, kind: str) -> JSON:
    """The choices of `kind` for `role` now (an empty list when it has none)."""
    if ctx.state.phase == AUCTION:
        return _auction(ctx, role, kind, Checker(rules, ctx.state, role))
    side = ctx.state.roles.get(role)
    if side is None or ctx.state.phase == "over":
        return {"payloads": [], "complete": True}
    check = Checker(rules, ctx.state, role)
    build = ANY_TIME.get(kind)
    if build is not None:
        return build(ctx, side, check)
    if ctx.state.phase.startswith("setup"):
        if kind in ("allied_setup", "french_setup"):
            return _setup(ctx, side, kind, check)
    elif ctx.state.pending is not None:
        decision = DECISIONS.get(ctx.state.pending.kind)  # its answers' legal options
        reply = None if decision is None else decision.answers.get(kind)
        if ctx.state.pending.side == side and ctx.state.attack is not None and reply is not None:
            out = reply.options(ctx, side, ctx.state.attack, check)
            return _with_default(ctx, kind, check, out)
    elif ctx.state.active == side:
        command = COMMANDS.get(kind)
        if command is not None:
            return command(ctx, side, check)
    return {"payloads": [], "complete": True}


def _with_default(ctx: Ctx, kind: str, check: Checker, out: JSON) -> JSON:
    """The documented default answer (always legal) is always among the payloads (digest 4.7)."""
    pending = ctx.state.pending
    assert pending is not None
    assert isinstance(out, dict)
    default_kind, payload = default_answer(ctx, pending)
    payloads = out["payloads"]
    assert isinstance(payloads, list)
    if default_kind == kind and payload not in payloads and check(kind, payload):
        payloads.insert(0, payload)
        del payloads[MAX_PAYLOADS:]
    return out


# ----------------------------------------------------------------------------- set-up


def _setup(ctx: Ctx, side: str, kind: str, check: Checker) -> JSON:
    """A few legal organisations, drawn by fixed seeds from the side's own pieces."""
    from games.napoleons_triumph.random_setup import draw_setup as draw

    out = Out(complete=False)
    for seed in range(SETUP_TRIES):
        p = draw(ctx, side, Rng(seed))
        if check(kind, p):
            out.add(p)
        if len(out.payloads) >= SETUP_KEEP:
            break
    state, board = ctx.state, ctx.board
    return out.json(
        commanders=jlist(sorted(c.id for c in board.commanders.values() if c.side == side)),
        units=jlist(sorted(u.id for u in state.units.values() if u.side == side)),
    )


# ----------------------------------------------------------------------------- commands


def _targets(ctx: Ctx, side: str, kind: str, base: Payload, out: Out) -> None:
    """Every ordinary move of the pieces `base` names (NT-48, NT-49), checked without change."""
    try:
        plan = plan_move(ctx, side, kind, base)
    except Illegal:
        return
    assert plan.loc is not None
    for loc, app in ordinary_targets(ctx, plan.loc, plan.app):
        try:
            ordinary_move(ctx, plan, loc, app, "/to")
        except Illegal:
            continue
        if not out.add({**base, "to": {"locale": loc, "approach": app}}):
            return


def _own_on_map(state: GameState, side: str) -> list[str]:
    return sorted(u.id for u in state.units.values() if u.side == side and u.where == MAP)


def _commanders_on_map(state: GameState, side: str) -> list[str]:
    return sorted(c.id for c in state.commanders.values() if c.side == side and c.where == MAP)


def _unit_move(ctx: Ctx, side: str, check: Checker) -> JSON:
    out = Out(complete=False)  # road moves are not listed
    for uid in _own_on_map(ctx.state, side):
        _targets(ctx, side, "unit_move", {"unit": uid}, out)
    movers = sorted({str(p["unit"]) for p in out.payloads})
    return out.json(units=jlist(movers))


def _stuck(state: GameState, cid: str) -> list[str]:
    return sorted(
        u.id
        for u in corps_units(state, cid)
        if u.where == MAP and (u.fixed or u.moves >= moves_allowed(u))
    )


def _corps_move(ctx: Ctx, side: str, check: Checker) -> JSON:
    out = Out(complete=False)
    for cid in _commanders_on_map(ctx.state, side):
        stuck = _stuck(ctx.state, cid)
        base: Payload = {"commander": cid, "detach": jlist(stuck)} if stuck else {"commander": cid}
        _targets(ctx, side, "corps_move", base, out)
    return out.json(commanders=jlist(sorted({str(p["commander"]) for p in out.payloads})))


def _detach_move(ctx: Ctx, side: str, check: Checker) -> JSON:
    out = Out(complete=False)  # one unit at a time
    state = ctx.state
    for cid in _commanders_on_map(state, side):
        members = [u for u in corps_units(state, cid) if u.where == MAP]
        if len(members) < 2:
            continue
        stuck = set(_stuck(state, cid))
        for u in sorted(members, key=lambda u: u.id):
            if u.id not in stuck:
                _targets(ctx, side, "detach_move", {"commander": cid, "units": [u.id]}, out)
    return out.json(commanders=jlist(sorted({str(p["commander"]) for p in out.payloads})))


def _attach(ctx: Ctx, side: str, check: Checker) -> JSON:
    out = Out()
    state = ctx.state
    for cid in _commanders_on_map(state, side):
        c = state.commanders[cid]
        for u in sorted(units_in(state, c.loc or 0, side), key=lambda u: u.id):
            p: Payload = {"commander": cid, "unit": u.id}
            if u.app == c.app and u.corps != cid and check("attach", p):
                out.add(p)
    return out.json()


def _enter(ctx: Ctx, side: str, check: Checker) -> JSON:
    """Corps by every open road path of 1-3 locales from each entry area; each single unit at
    the first entry area where it may enter (a subset)."""
    state, board = ctx.state, ctx.board
    out = Out(complete=False)
    waiting = sorted(
        c.id
        for c in state.commanders.values()
        if c.side == side and c.where == OFFMAP and state.round >= first_round(ctx, c.id)
    )
    entries = sorted((e for e in board.entries if e.side == side), key=lambda e: e.id)
    entries = [e for e in entries if _open(ctx, side, e.locale)]
    units_ok = _passes(partial(check_independent_budget, ctx, side, ""))
    for cid in waiting:
        if _passes(partial(check_corps_budget, ctx, state.commanders[cid], "")):
            for e in entries:
                for path in _road_paths(ctx, (e.locale, e.strand), [e.locale], 3):
                    if not all(_open(ctx, side, loc) for loc in path):
                        continue
                    p: Payload = {
                        "command": "corps_move",
                        "commander": cid,
                        "entry": e.id,
                        "path": jlist(path),
                    }
                    if check("enter_reinforcement", p):
                        out.add(p)
        units = sorted(u.id for u in state.units.values() if u.corps == cid and u.where == OFFMAP)
        for uid in units if units_ok and len(units) > 1 else []:
            for e in entries:
                p = {"command": "unit_move", "unit": uid, "entry": e.id, "path": [e.locale]}
                if check("enter_reinforcement", p):
                    out.add(p)
                    break
    return out.json(commanders=jlist(waiting), entries=jlist([e.id for e in entries]))


def _passes(test: Callable[[], None]) -> bool:
    try:
        test()
    except Illegal:
        return False
    return True


def _open(ctx: Ctx, side: str, loc: int) -> bool:
    """May a piece of `side` enter locale `loc` at all now (NT-47, NT-54(b), NT-101)?"""
    turn = ctx.state.turn
    return (
        occupant(ctx.state, loc) != other(side)
        and loc not in turn.road_locked
        and loc not in turn.conquered
    )


def _road_paths(
    ctx: Ctx, node: tuple[int, int], path: list[int], limit: int
) -> Iterator[list[int]]:
    """`path` and its extensions along the road from `node`, up to `limit` locales."""
    yield list(path)
    if len(path) >= limit:
        return
    for step in ctx.board.road_steps(*node):
        if step.to_locale not in path:
            yield from _road_paths(
                ctx, (step.to_locale, step.to_strand), [*path, step.to_locale], limit
            )


def _auction(ctx: Ctx, role: str, kind: str, check: Checker) -> JSON:
    """NT-134, NT-135: every bid from the lowest legal one up (at most MAX_PAYLOADS), the pass,
    the sides the winner may choose."""
    out = Out()
    auction = ctx.state.auction
    assert auction is not None
    waiting = waiting_role(ctx.state)
    want = "choose_side" if kind == "auction_choose_side" else "bid"
    if waiting != (role, want):
        return out.json()
    if kind == "auction_bid":  # legal by construction (auction.act's checks)
        high = high_bid(auction)
        for amount in range(0 if high is None else high + 1, max_bid(ctx.state) + 1):
            if not out.add({"amount": amount}):
                break
    elif kind == "auction_pass":
        out.add({})
    elif kind == "auction_choose_side":
        for side in ("AL", "F"):
            if check(kind, {"side": side}):
                out.add({"side": side})
    return out.json()


def _threaten(ctx: Ctx, side: str, check: Checker) -> JSON:
    """Every threat across an approach (with each Guard that could be shown), also those only
    cavalry coming by road could carry out (road_threats); a threat never names the road
    (NT-70): that is told at the announcement."""
    state, board = ctx.state, ctx.board
    out = Out()
    if is_night(ctx):
        return out.json(approaches=[])
    locs = {u.loc for u in state.units.values() if u.side == side and u.where == MAP}
    for loc in sorted(x for x in locs if x is not None):
        for app in sorted(board.approaches_of(loc)):
            if (
                board.approaches[app].impassable
                or app in state.turn.closed
                or occupant(state, board.other_locale(app, loc)) != other(side)
                or not attack_options(ctx, side, loc, app)
            ):
                continue
            p: Payload = {"attack_locale": loc, "approach": app}
            if not check("threaten", p):
                continue
            out.add(p)
            for g in sorted(units_in(state, loc, side), key=lambda u: u.id):
                if g.type == "GUARD":
                    pg: Payload = {**p, "guard_attack": True, "show_guard": g.id}
                    if check("threaten", pg):
                        out.add(pg)
    for road in road_threats(ctx, side):
        p = {"attack_locale": road["attack_locale"], "approach": road["approach"]}
        if p not in out.payloads and check("threaten", p):
            out.add(p)
    apps = sorted({str(p["approach"]) for p in out.payloads})
    return out.json(approaches=jlist(apps))


def _ride_on(ctx: Ctx, side: str, check: Checker) -> JSON:
    ride = ctx.state.ride_on
    out = Out(complete=False)  # end_approach only where the cavalry stand (path [])
    if ride is None or ride.get("side") != side:
        return out.json()
    loc, strand = ride["locale"], ride["strand"]
    assert isinstance(loc, int)
    assert isinstance(strand, int)
    for path in _road_paths(ctx, (loc, strand), [], 3):
        p: Payload = {"path": jlist(path)}
        if path and check("ride_on", p):
            out.add(p)
    for app in sorted({s.approach for s in ctx.board.road_steps(loc, strand)}):
        p = {"path": [], "end_approach": app}  # end where they stand, blocking (NT-53)
        if check("ride_on", p):
            out.add(p)
    return out.json()


def _end_turn(ctx: Ctx, side: str, check: Checker) -> JSON:
    return {"payloads": [{}], "complete": True}


# ----------------------------------------------------------------------------- at any time


def _set_defense_plan(ctx: Ctx, side: str, check: Checker) -> JSON:
    """One plan per answer to a threat for every locale; scopes and fields in the hints."""
    base: Payload = {
        "counter": {"policy": "ask"},
        "hold": "ask",
        "retreat": {"mode": "default"},
    }
    payloads: list[JSON] = [
        {"scope": {"default": True}, "on_threat": {"mode": m, "leading": "strongest"}, **base}
        for m in ("ask", "defend", "vacate")
    ]
    own = {u.loc for u in ctx.state.units.values() if u.side == side and u.where == MAP}
    scopes: list[JSON] = [{"default": True}]
    scopes += [{"locale": loc} for loc in sorted(x for x in own if x is not None)]
    return {"payloads": payloads, "complete": False, "scopes": scopes}


def _resign(ctx: Ctx, side: str, check: Checker) -> JSON:
    return {"payloads": [{}], "complete": True}


Command = Callable[[Ctx, str, Checker], JSON]

COMMANDS: dict[str, Command] = {
    "corps_move": _corps_move,
    "detach_move": _detach_move,
    "unit_move": _unit_move,
    "attach": _attach,
    "enter_reinforcement": _enter,
    "threaten": _threaten,
    "ride_on": _ride_on,
    "end_turn": _end_turn,
}

ANY_TIME: dict[str, Command] = {"set_defense_plan": _set_defense_plan, "resign": _resign}
