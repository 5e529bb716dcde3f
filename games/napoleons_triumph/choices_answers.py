"""The legal choices of the answers inside an attack (rulebook 11. Angriffe, 12. Rückzüge): the
defender's named set, vacate and retreat plans, feints, holds, the attack command, counters, losses
and the anchor, each computed only from what the answering side may know (see ``choices``): one
function per answer kind, named by the decision's entry in ``decisions``. The default answer of
the open decision is added by ``choices``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, islice, product

from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph import policies
from games.napoleons_triumph.attack.announcement import check_att_leading, check_move_in
from games.napoleons_triumph.attack.attackers import (
    attack_options,
    options_moving,
    plan_attack_commands,
    vacate_options,
)
from games.napoleons_triumph.attack.blocking import hold_candidates
from games.napoleons_triumph.attack.common import att_side_of
from games.napoleons_triumph.attack.defense import check_def_leading, check_named, nameable
from games.napoleons_triumph.attack.resolution import counter_candidates
from games.napoleons_triumph.choices_common import MAX_PAYLOADS, Checker, Out, Payload
from games.napoleons_triumph.context import Ctx, shown_as
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import corps_units
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.road_attack.options import road_attacks
from games.napoleons_triumph.state import MAP, Attack

__all__ = [
    "Options",
    "options_after_vacate",
    "options_anchor",
    "options_assign_losses",
    "options_counter",
    "options_declare_attack",
    "options_declare_feint",
    "options_defend",
    "options_hold",
    "options_lead_defense",
    "options_no_feint",
    "options_odd_loss",
    "options_retreat_plan",
    "options_vacate",
]

RETREAT_TRIES = 8


def options_defend(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    """Named sets: the forced blockers; else every single unit, every corps in reserve (with
    its commander) and the default; each with every legal choice of leading units."""
    state = ctx.state
    must, reserve, cmds = nameable(ctx, atk)
    out = Out(complete=bool(must))
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


def options_lead_defense(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    """NT-TEAM-41: every legal choice of 0-2 leading units among the named units (NT-79)."""
    state = ctx.state
    out = Out()
    units = sorted(x for x in atk.named if x in state.units)
    for lead in _subsets(units, 2):
        try:
            check_def_leading(ctx, atk, atk.named, list(lead))
        except Illegal:
            continue
        if not out.add({"leading": jlist(lead)}):
            break
    return out.json()


def _subsets(items: list[str], most: int) -> Iterator[tuple[str, ...]]:
    for k in range(most + 1):
        yield from combinations(items, k)


def options_vacate(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    out = Out(complete=False)  # other retreat plans: see retreat_plan
    cands: list[Payload] = [{}, {"retreat": default_plan(ctx, atk)}]
    for p in cands:
        if check("vacate", p):
            out.add(p)
    return out.json()


def options_retreat_plan(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    from games.napoleons_triumph.random_answers import draw_retreat_plan as draw

    out = Out(complete=False)
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


def options_after_vacate(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    out = Out(complete=False)  # combined commands (NT-66) are not listed
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


def options_declare_feint(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    out = Out(complete=False)  # combined commands (NT-66) are not listed
    specs = _attack_specs(ctx, atk) + _road_specs(ctx, atk, enter=False)
    for spec, end in product(specs, ("block", "reserve")):
        p: Payload = {"commands": [spec], "end": end}
        if check("declare_feint", p):
            out.add(p)
    return out.json()


def options_no_feint(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    out = Out()
    if check("no_feint", {}):
        out.add({})
    return out.json()


def options_hold(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
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
    out = Out(complete=len(units) <= 5)
    for s in sets:
        for extra in ([], sorted(cmds)) if cmds else ([],):
            p: Payload = {"pieces": jlist([*s, *extra])}
            if check(kind, p):
                out.add(p)
    return out.json()


def options_declare_attack(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    """Each single command, each width, each target, each legal choice of up to two leading
    units; checked as `attack.declare_attack` checks before it changes anything."""
    state = ctx.state
    out = Out(complete=False)  # combined Corps Moves (NT-66) are not listed
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


def options_counter(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    out = Out()
    for units in _subsets(sorted(counter_candidates(ctx, atk)), 2):
        p: Payload = {"units": jlist(units)}
        if check("counter", p):
            out.add(p)
    return out.json()


def options_odd_loss(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    """Every choice of n of the candidates, named as the chooser names them."""
    pending = ctx.state.pending
    assert pending is not None
    n, cands = pending.data["n"], pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(cands, list)
    names = sorted(shown_as(ctx.state, side, str(c)) for c in cands)
    out = Out()
    for combo in combinations(names, n):
        if not out.add({"units": jlist(combo)}):
            break
    return out.json(candidates=jlist(names), n=n)


def options_assign_losses(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    """Every spread of exactly n points over the candidates (own units), up to the bound."""
    pending = ctx.state.pending
    assert pending is not None
    n, cands = pending.data["n"], pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(cands, list)
    units = sorted(str(c) for c in cands)
    caps = [ctx.state.units[u].strength for u in units if ctx.state.units[u].side == side]
    out = Out()
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


def options_anchor(ctx: Ctx, side: str, atk: Attack, check: Checker) -> JSON:
    pending = ctx.state.pending
    assert pending is not None
    corps = pending.data["corps"]
    assert isinstance(corps, list)
    cids = [str(c) for c in corps]
    members = [sorted(u.id for u in corps_units(ctx.state, cid) if u.where == MAP) for cid in cids]
    out = Out()
    for pick in product(*members):
        if not out.add({"anchors": dict(zip(cids, pick, strict=True))}):
            break
    return out.json()


Options = Callable[[Ctx, str, Attack, Checker], JSON]
