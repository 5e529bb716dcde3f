"""The legal choices of an action kind, as a client needs them to compose an order (issue 10).

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

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import combinations, islice, product
from typing import Protocol

from games.core.protocol import JSON, Action, Rejection
from games.core.rng import Rng
from games.napoleons_triumph import policies
from games.napoleons_triumph.attack import (
    att_side_of,
    attack_options,
    check_att_leading,
    check_def_leading,
    check_move_in,
    check_named,
    counter_candidates,
    hold_candidates,
    nameable,
    options_moving,
    plan_attack_commands,
    vacate_options,
)
from games.napoleons_triumph.auction import AUCTION, high_bid, max_bid, waiting_role
from games.napoleons_triumph.commands import (
    check_corps_budget,
    check_independent_budget,
    moves_allowed,
    plan_move,
)
from games.napoleons_triumph.context import Ctx, shown_as
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.movement import ordinary_move, ordinary_targets
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import corps_units, occupant, units_in
from games.napoleons_triumph.reinforcements import first_round
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.road_attack import road_attacks, road_threats
from games.napoleons_triumph.state import MAP, OFFMAP, Attack, GameState, other
from games.napoleons_triumph.turns import is_night

MAX_PAYLOADS = 300  # per kind: the view is served on every GET
SETUP_TRIES, SETUP_KEEP = 24, 4
RETREAT_TRIES = 8


class Rules(Protocol):
    """What choices needs of the ruleset (NapoleonsTriumph): validate."""

    def validate(self, state: GameState, action: Action) -> Sequence[Rejection]: ...


Payload = dict[str, JSON]


class _Out:
    """A bounded, duplicate-free list of payloads; `complete` drops when the bound cuts."""

    def __init__(self, complete: bool = True) -> None:
        self.payloads: list[Payload] = []
        self.complete = complete

    def add(self, p: Payload) -> bool:
        if p in self.payloads:
            return True
        if len(self.payloads) >= MAX_PAYLOADS:
            self.complete = False
            return False
        self.payloads.append(p)
        return True

    def json(self, **hints: JSON) -> JSON:
        out: dict[str, JSON] = {"payloads": jlist(self.payloads), "complete": self.complete}
        out.update(hints)
        return out


class _Checker:
    """`validate` for one role and state (answers True when legal)."""

    def __init__(self, rules: Rules, state: GameState, role: str) -> None:
        self.rules, self.state, self.role = rules, state, role

    def __call__(self, kind: str, payload: Payload) -> bool:
        return not self.rules.validate(self.state, Action(self.role, kind, payload))


def choices_for(rules: Rules, ctx: Ctx, role: str, kind: str) -> JSON:
    """The choices of `kind` for `role` now (an empty list when it has none)."""
    if ctx.state.phase == AUCTION:
        return _auction(ctx, role, kind, _Checker(rules, ctx.state, role))
    side = ctx.state.roles.get(role)
    if side is None or ctx.state.phase == "over":
        return {"payloads": [], "complete": True}
    check = _Checker(rules, ctx.state, role)
    build = ANY_TIME.get(kind)
    if build is not None:
        return build(ctx, side, check)
    if ctx.state.phase.startswith("setup"):
        if kind in ("allied_setup", "french_setup"):
            return _setup(ctx, side, kind, check)
    elif ctx.state.pending is not None:
        if ctx.state.pending.side == side and ctx.state.attack is not None:
            answer = ANSWERS.get(kind)
            if answer is not None:
                return _with_default(ctx, kind, check, answer(ctx, side, ctx.state.attack, check))
    elif ctx.state.active == side:
        command = COMMANDS.get(kind)
        if command is not None:
            return command(ctx, side, check)
    return {"payloads": [], "complete": True}


def _with_default(ctx: Ctx, kind: str, check: _Checker, out: JSON) -> JSON:
    """The documented default answer (always legal) is always among the payloads (digest 4.7)."""
    pending = ctx.state.pending
    assert pending is not None
    assert isinstance(out, dict)
    default_kind, payload = policies.default_answer(ctx, pending)
    payloads = out["payloads"]
    assert isinstance(payloads, list)
    if default_kind == kind and payload not in payloads and check(kind, payload):
        payloads.insert(0, payload)
        del payloads[MAX_PAYLOADS:]
    return out


# ----------------------------------------------------------------------------- set-up


def _setup(ctx: Ctx, side: str, kind: str, check: _Checker) -> JSON:
    """A few legal organisations, drawn by fixed seeds from the side's own pieces."""
    from games.napoleons_triumph.randomplay import _setup as draw

    out = _Out(complete=False)
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


def _targets(ctx: Ctx, side: str, kind: str, base: Payload, out: _Out) -> None:
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


def _unit_move(ctx: Ctx, side: str, check: _Checker) -> JSON:
    out = _Out(complete=False)  # road moves are not listed
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


def _corps_move(ctx: Ctx, side: str, check: _Checker) -> JSON:
    out = _Out(complete=False)
    for cid in _commanders_on_map(ctx.state, side):
        stuck = _stuck(ctx.state, cid)
        base: Payload = {"commander": cid, "detach": jlist(stuck)} if stuck else {"commander": cid}
        _targets(ctx, side, "corps_move", base, out)
    return out.json(commanders=jlist(sorted({str(p["commander"]) for p in out.payloads})))


def _detach_move(ctx: Ctx, side: str, check: _Checker) -> JSON:
    out = _Out(complete=False)  # one unit at a time
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


def _attach(ctx: Ctx, side: str, check: _Checker) -> JSON:
    out = _Out()
    state = ctx.state
    for cid in _commanders_on_map(state, side):
        c = state.commanders[cid]
        for u in sorted(units_in(state, c.loc or 0, side), key=lambda u: u.id):
            p: Payload = {"commander": cid, "unit": u.id}
            if u.app == c.app and u.corps != cid and check("attach", p):
                out.add(p)
    return out.json()


def _enter(ctx: Ctx, side: str, check: _Checker) -> JSON:
    """Corps by every open road path of 1-3 locales from each entry area; each single unit at
    the first entry area where it may enter (a subset)."""
    state, board = ctx.state, ctx.board
    out = _Out(complete=False)
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


def _auction(ctx: Ctx, role: str, kind: str, check: _Checker) -> JSON:
    """NT-134, NT-135: every bid from the lowest legal one up (at most MAX_PAYLOADS), the pass,
    the sides the winner may choose."""
    out = _Out()
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


def _threaten(ctx: Ctx, side: str, check: _Checker) -> JSON:
    """Every threat across an approach (with each Guard that could be shown), also those only
    cavalry coming by road could carry out (road_threats); a threat never names the road
    (NT-70): that is told at the announcement."""
    state, board = ctx.state, ctx.board
    out = _Out()
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


def _ride_on(ctx: Ctx, side: str, check: _Checker) -> JSON:
    ride = ctx.state.ride_on
    out = _Out(complete=False)  # end_approach only where the cavalry stand (path [])
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


def _end_turn(ctx: Ctx, side: str, check: _Checker) -> JSON:
    return {"payloads": [{}], "complete": True}


# ----------------------------------------------------------------------------- answers


def _defend(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    """Named sets: the forced blockers; else every single unit, every corps in reserve (with
    its commander) and the default; each with every legal choice of leading units."""
    state = ctx.state
    must, reserve, cmds = nameable(ctx, atk)
    out = _Out(complete=bool(must))
    sets: list[list[str]] = []
    if must:
        sets.append(list(must))
    else:
        kind, default = policies.default_defense(ctx, atk)
        if kind == "defend" and isinstance(default.get("named"), list):
            sets.append([str(x) for x in default["named"]])  # type: ignore[union-attr]
        for cid in cmds:
            corps = [x for x in reserve if state.units[x].corps == cid]
            if corps:
                sets.append([*corps, cid])
        sets += [[x] for x in reserve]
    for named in sets:
        units = sorted(x for x in named if x in state.units)
        try:
            check_named(ctx, atk, named)
        except Illegal:
            continue
        for lead in _subsets(units, 2):
            try:
                check_def_leading(ctx, atk, named, list(lead))
            except Illegal:
                continue
            if not out.add({"named": jlist(named), "leading": jlist(lead)}):
                break
    return out.json(nameable=jlist([*must, *reserve, *cmds]))


def _subsets(items: list[str], most: int) -> Iterator[tuple[str, ...]]:
    for k in range(most + 1):
        yield from combinations(items, k)


def _vacate(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    out = _Out(complete=False)  # other retreat plans: see retreat_plan
    cands: list[Payload] = [{}, {"retreat": default_plan(ctx, atk)}]
    for p in cands:
        if check("vacate", p):
            out.add(p)
    return out.json()


def _retreat_plan(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    from games.napoleons_triumph.randomplay import _retreat_plan as draw

    out = _Out(complete=False)
    candidates = [default_plan(ctx, atk)]
    candidates += [draw(ctx, atk, Rng(seed)) for seed in range(RETREAT_TRIES)]
    for p in candidates:
        if p not in out.payloads and check("retreat_plan", p):
            out.add(p)
    return out.json()


def _attack_specs(ctx: Ctx, atk: Attack) -> list[Payload]:
    """Single commands that could carry out this attack (a shown Guard must be among them)."""
    if atk.guard_attack and atk.guard_shown:
        return options_moving(ctx, atk.attacker, atk.att_locale, atk.approach, atk.guard_shown)
    return attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)


def _road_specs(ctx: Ctx, atk: Attack, enter: bool) -> list[Payload]:
    """The road attacks (NT-68) that could carry out this attack, each with its road (`path`)."""
    if atk.guard_attack:
        return []
    return road_attacks(ctx, atk.attacker, atk.att_locale, atk.approach, enter=enter)


def _after_vacate(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    out = _Out(complete=False)  # combined commands (NT-66) are not listed
    cands: list[Payload] = []
    guard = [atk.guard_shown] if atk.guard_attack and atk.guard_shown else []
    for spec, guns in vacate_options(ctx, atk.attacker, atk.att_locale, atk.approach):
        if guard and spec not in _attack_specs(ctx, atk):
            continue
        cands.append({"commands": [spec], "artillery": guns})
        if guns:
            cands.append({"commands": [spec], "artillery": False})
    cands += [{"commands": [s]} for s in _road_specs(ctx, atk, enter=True)]
    if not cands:
        cands.append({"commands": []})  # the retreat closed the road: nothing moves in
    for p in cands:
        if check("declare_after_vacate", p):
            out.add(p)
    return out.json()


def _declare_feint(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    out = _Out(complete=False)  # combined commands (NT-66) are not listed
    specs = _attack_specs(ctx, atk) + _road_specs(ctx, atk, enter=False)
    for spec, end in product(specs, ("block", "reserve")):
        p: Payload = {"commands": [spec], "end": end}
        if check("declare_feint", p):
            out.add(p)
    return out.json()


def _no_feint(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    out = _Out()
    if check("no_feint", {}):
        out.add({})
    return out.json()


def _hold(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    """Every set of named reserve units (up to 5 of them; else one at a time and all), with or
    without the named commanders."""
    kind = str(ctx.state.pending.kind) if ctx.state.pending else "hold"
    units, cmds = hold_candidates(ctx, atk)
    units = sorted(units)
    sets: list[list[str]]
    if len(units) <= 5:
        sets = [list(s) for k in range(1, len(units) + 1) for s in combinations(units, k)]
    else:
        sets = [[u] for u in units] + [units]
    out = _Out(complete=len(units) <= 5)
    for s in sets:
        for extra in ([], sorted(cmds)) if cmds else ([],):
            p: Payload = {"pieces": jlist([*s, *extra])}
            if check(kind, p):
                out.add(p)
    return out.json()


def _declare_attack(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    """Each single command, each width, each target, each legal choice of up to two leading
    units; checked as `attack.declare_attack` checks before it changes anything."""
    state = ctx.state
    out = _Out(complete=False)  # combined Corps Moves (NT-66) are not listed
    widths = ["narrow", "wide"] if att_side_of(ctx, atk).width >= 2 else ["narrow"]
    targets = sorted(shown_as(state, side, x) for x in atk.def_leading)
    for spec in _attack_specs(ctx, atk):
        try:
            plans = plan_attack_commands(ctx, atk, [spec])
        except Illegal:
            continue
        attackers = sorted({u for pl in plans for u in pl.units})
        if len(attackers) > ctx.board.locales[atk.def_locale].capacity:
            continue
        if atk.guard_attack and atk.guard_shown not in attackers:
            continue
        for width in widths:
            n = 2 if width == "wide" else 1
            aims: list[str | None] = [None]
            if n == 1 and len(targets) == 2:
                aims = list(targets)
            for lead, target in product(_subsets(attackers, n), aims):
                try:
                    check_att_leading(ctx, atk, plans, attackers, list(lead), n)
                    for uid in attackers:
                        require(not state.units[uid].fixed or uid in lead, "NT-24", "fixed")
                    check_move_in(ctx, atk, plans, list(lead))
                except Illegal:
                    continue
                p: Payload = {"commands": [spec], "width": width, "leading": jlist(lead)}
                if target is not None:
                    p["target"] = target
                out.add(p)
    return out.json()


def _counter(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    out = _Out()
    for units in _subsets(sorted(counter_candidates(ctx, atk)), 2):
        p: Payload = {"units": jlist(units)}
        if check("counter", p):
            out.add(p)
    return out.json()


def _odd_loss(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    """Every choice of n of the candidates, named as the chooser names them."""
    pending = ctx.state.pending
    assert pending is not None
    n, cands = pending.data["n"], pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(cands, list)
    names = sorted(shown_as(ctx.state, side, str(c)) for c in cands)
    out = _Out()
    for combo in combinations(names, n):
        if not out.add({"units": jlist(combo)}):
            break
    return out.json(candidates=jlist(names), n=n)


def _assign_losses(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    """Every spread of exactly n points over the candidates (own units), up to the bound."""
    pending = ctx.state.pending
    assert pending is not None
    n, cands = pending.data["n"], pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(cands, list)
    units = sorted(str(c) for c in cands)
    caps = [ctx.state.units[u].strength for u in units if ctx.state.units[u].side == side]
    out = _Out()
    if len(caps) != len(units):  # never the case: a free tier's chooser owns the units
        return out.json()
    for spread in islice(_spreads(n, caps), MAX_PAYLOADS + 1):
        rows: list[JSON] = [
            {"unit": u, "sp": sp} for u, sp in zip(units, spread, strict=True) if sp
        ]
        if not out.add({"losses": rows}):
            break
    return out.json(candidates=jlist(units), n=n)


def _spreads(n: int, caps: list[int]) -> Iterator[list[int]]:
    if not caps:
        if n == 0:
            yield []
        return
    for first in range(min(n, caps[0]), -1, -1):
        for rest in _spreads(n - first, caps[1:]):
            yield [first, *rest]


def _anchor(ctx: Ctx, side: str, atk: Attack, check: _Checker) -> JSON:
    pending = ctx.state.pending
    assert pending is not None
    corps = pending.data["corps"]
    assert isinstance(corps, list)
    cids = [str(c) for c in corps]
    members = [sorted(u.id for u in corps_units(ctx.state, cid) if u.where == MAP) for cid in cids]
    out = _Out()
    for pick in product(*members):
        if not out.add({"anchors": dict(zip(cids, pick, strict=True))}):
            break
    return out.json()


# ----------------------------------------------------------------------------- at any time


def _set_defense_plan(ctx: Ctx, side: str, check: _Checker) -> JSON:
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


def _resign(ctx: Ctx, side: str, check: _Checker) -> JSON:
    return {"payloads": [{}], "complete": True}


Command = Callable[[Ctx, str, _Checker], JSON]
Answer = Callable[[Ctx, str, Attack, _Checker], JSON]

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
ANSWERS: dict[str, Answer] = {
    "defend": _defend,
    "vacate": _vacate,
    "retreat_plan": _retreat_plan,
    "declare_after_vacate": _after_vacate,
    "declare_feint": _declare_feint,
    "no_feint": _no_feint,
    "feint_hold": _hold,
    "hold": _hold,
    "declare_attack": _declare_attack,
    "counter": _counter,
    "place_odd_loss": _odd_loss,
    "assign_losses": _assign_losses,
    "choose_anchor": _anchor,
}
ANY_TIME: dict[str, Command] = {"set_defense_plan": _set_defense_plan, "resign": _resign}
