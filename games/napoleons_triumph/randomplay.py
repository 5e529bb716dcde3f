"""Random legal play: a generator of random legal actions for a role (for the fuzzer and tests).

Candidates are drawn at random from what the role can see and kept only if `validate` accepts them;
the documented default answer (always legal) is the fallback for every decision, `end_turn` for a
command phase. The play is biased towards fighting so that the fuzzer reaches the rarer decisions:
a possible threat is made most of the time, most moves go to the target nearest the enemy, feints
are rare, attacks prefer whole corps and two leading units, and losses, retreats (also a vacate
that leaves the retreat for later) and anchors are drawn at random.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.napoleons_triumph import policies
from games.napoleons_triumph.attack import (
    attack_options,
    counter_candidates,
    hold_candidates,
    nameable,
)
from games.napoleons_triumph.auction import AUCTION, high_bid, last_bid_of, max_bid, waiting_role
from games.napoleons_triumph.board import RoadStep
from games.napoleons_triumph.context import Ctx, shown_as
from games.napoleons_triumph.movement import ordinary_targets
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import (
    commanders_in,
    corps_units,
    occupant,
    units_in,
    units_on_map,
)
from games.napoleons_triumph.reinforcements import first_round
from games.napoleons_triumph.retreat import destinations, loss_groups
from games.napoleons_triumph.road_attack import road_attacks, road_threats
from games.napoleons_triumph.state import AL, MAP, OFFMAP, Attack, F, GameState, other
from games.napoleons_triumph.turns import is_night

if TYPE_CHECKING:
    from games.napoleons_triumph.rules import NapoleonsTriumph

TRIES = 25


def random_action(rules: NapoleonsTriumph, state: GameState, role: str, rng: Rng) -> Action | None:
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
    kind, payload = policies.default_answer(ctx, state.pending)
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
        return "allied_setup", _setup(ctx, AL, rng)
    if state.phase == "setup_F":
        return "french_setup", _setup(ctx, F, rng)
    if state.pending is not None:
        return _answer(ctx, side, rng)
    return _command(ctx, side, rng)


# ----------------------------------------------------------------------------- set-up


def _setup(ctx: Ctx, side: str, rng: Rng) -> dict[str, JSON]:
    board, state = ctx.board, ctx.state
    cmds = [c for c in board.commanders.values() if c.side == side]
    units = sorted(u.id for u in state.units.values() if u.side == side)
    rng.shuffle(units)
    sdef = board.scenarios[state.scenario]
    on_map_ids = {c.id for c in cmds if not c.reinforcement}
    if side == AL and sdef.allied_start != "all_corps_on_board":
        on_map_ids = set(rng.sample(sorted(on_map_ids), 2))
    cap = {
        c.id: (
            min(8, board.locales[c.setup_locale].capacity)
            if c.id in on_map_ids and c.setup_locale is not None
            else 8
        )
        for c in cmds
    }
    groups: dict[str, list[str]] = {c.id: [] for c in cmds}
    if side == F:  # each reinforcement corps gets a unit that is not INF2 first (NT-22)
        for c in cmds:
            if c.reinforcement:
                pick = next(
                    u for u in units if (state.units[u].type, state.units[u].strength) != ("INF", 2)
                )
                units.remove(pick)
                groups[c.id].append(pick)
    for c in cmds:
        while len(groups[c.id]) < c.min_units and units:
            groups[c.id].append(units.pop())
    order = [c.id for c in cmds]
    while units:
        open_ = [cid for cid in order if len(groups[cid]) < cap[cid]]
        if not open_:
            break
        groups[rng.choice(open_)].append(units.pop())
    corps: list[JSON] = []
    for c in cmds:
        off = c.id not in on_map_ids
        app: str | None = None
        if not off and c.setup_locale is not None and rng.chance(1, 4):
            apps = [
                a for a in board.approaches_of(c.setup_locale) if not board.approaches[a].impassable
            ]
            app = rng.choice(apps)
        corps.append(
            {"commander": c.id, "units": list(groups[c.id]), "approach": app, "off_map": off}
        )
    out: dict[str, JSON] = {"corps": corps}
    if side == F:
        dets: list[JSON] = []
        placed: dict[str, str] = {}
        for entry in corps:
            assert isinstance(entry, dict)
            if entry["off_map"]:
                continue
            us = entry["units"]
            assert isinstance(us, list)
            for u in us:
                placed[str(u)] = str(entry["commander"])
        battery = next((u for u in sorted(placed) if state.units[u].type == "ART"), None)
        for _ in range(rng.below(4)):
            uid = rng.choice(sorted(placed))
            cid = placed[uid]
            origin = board.commanders[cid].setup_locale
            if uid == battery or origin is None:
                continue
            near = [loc for loc, d in board.distances_from(origin).items() if d <= 2]
            loc = rng.choice(sorted(near))
            dets.append({"unit": uid, "position": {"locale": loc, "approach": None}})
            del placed[uid]
        out["detachments"] = dets
        if battery is not None:
            home = board.commanders[placed[battery]].setup_locale
            assert home is not None
            apps = [a for a in board.approaches_of(home) if not board.approaches[a].impassable]
            on_santon = bool(state.options.get("santon")) and home == board.santon
            out["fixed_battery"] = {
                "unit": battery,
                "approach": None if on_santon else rng.choice(apps),
            }
        else:
            out["fixed_battery"] = None
    return out


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


# ----------------------------------------------------------------------------- answers


def _answer(ctx: Ctx, side: str, rng: Rng) -> tuple[str, dict[str, JSON]] | None:
    state = ctx.state
    pending = state.pending
    atk = state.attack
    assert pending is not None
    assert atk is not None
    kind = pending.kind
    if kind != "feint" and rng.chance(1, 4):  # the default feint is a feint: rarer below
        return policies.default_answer(ctx, pending)
    if kind == "defend":
        must, reserve, cmds = nameable(ctx, atk)
        if not must and rng.chance(1, 6):
            vacate = policies.default_defense(ctx, atk, mode="vacate")
            if rng.chance(1, 2):  # decide the retreat later: the retreat decision opens
                return "vacate", {}
            return vacate[0], {"retreat": _retreat_plan(ctx, atk, rng)}
        named = must or rng.sample(reserve, 1 + rng.below(max(1, len(reserve))))
        if not must:
            named += [c for c in cmds if rng.chance(1, 2)]
        units = [x for x in named if x in state.units]
        lead = rng.sample(units, _leaders(len(units), rng))
        return "defend", {"named": jlist(named), "leading": jlist(lead)}
    if kind in ("feint", "after_vacate") and not atk.guard_attack:  # NT-68: named only now
        road = road_attacks(
            ctx, atk.attacker, atk.att_locale, atk.approach, enter=kind == "after_vacate"
        )
        normal = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
        if not road or (normal and rng.chance(1, 2)):
            road = []
        if not road and not normal:
            return policies.default_answer(ctx, pending)
    else:
        road = []
    if road:
        spec = rng.choice(road)
        if kind == "feint":
            return "declare_feint", {"commands": [spec], "end": rng.choice(["block", "reserve"])}
        return "declare_after_vacate", {"commands": [spec]}
    options = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    if atk.guard_attack and atk.guard_shown:
        options = [
            o for o in options if o.get("unit") == atk.guard_shown or o.get("kind") == "corps_move"
        ]
    if not options:
        return policies.default_answer(ctx, pending)
    if kind == "feint":
        if rng.chance(1, 6):
            spec = rng.choice(options)
            return "declare_feint", {"commands": [spec], "end": rng.choice(["block", "reserve"])}
        return "no_feint", {}
    if kind == "after_vacate":
        return "declare_after_vacate", {
            "commands": [rng.choice(options)],
            "artillery": rng.chance(1, 5),
        }
    if kind == "declare":
        corps_options = [o for o in options if o["kind"] == "corps_move"]
        spec = rng.choice(corps_options if corps_options and rng.chance(2, 3) else options)
        if spec["kind"] == "unit_move":
            movers = [str(spec["unit"])]
        else:
            detach = spec["detach"]
            assert isinstance(detach, list)
            movers = [
                u.id
                for u in corps_units(state, str(spec["commander"]))
                if u.where == MAP and u.id not in detach
            ]
        width = "wide" if rng.chance(2, 3) else "narrow"
        lead = rng.sample(movers, _leaders(len(movers), rng))
        if atk.guard_attack and atk.guard_shown in movers and atk.guard_shown not in lead:
            lead = [atk.guard_shown]
        payload: dict[str, JSON] = {"commands": [spec], "width": width, "leading": list(lead)}
        if len(atk.def_leading) == 2:
            payload["target"] = shown_as(state, atk.attacker, rng.choice(atk.def_leading))
        return "declare_attack", payload
    if kind == "counter":
        cands = counter_candidates(ctx, atk)
        return "counter", {"units": jlist(rng.sample(cands, rng.below(min(2, len(cands)) + 1)))}
    if kind == "odd_loss":
        n, candidates = pending.data["n"], pending.data["candidates"]
        assert isinstance(n, int)
        assert isinstance(candidates, list)
        picked = rng.sample([str(c) for c in candidates], n)
        return "place_odd_loss", {"units": [shown_as(state, pending.side, u) for u in picked]}
    if kind in ("hold", "feint_hold"):
        units, cmds = hold_candidates(ctx, atk)
        pick = rng.sample(units, 1 + rng.below(len(units))) if units else []
        return kind, {"pieces": jlist(pick + [c for c in cmds if rng.chance(1, 2)])}
    if kind == "assign_losses":
        n, candidates = pending.data["n"], pending.data["candidates"]
        assert isinstance(n, int)
        assert isinstance(candidates, list)
        return "assign_losses", {"losses": _spread(ctx, [str(c) for c in candidates], n, rng)}
    if kind == "retreat":
        return "retreat_plan", _retreat_plan(ctx, atk, rng)
    if kind == "anchor":
        corps = pending.data["corps"]
        assert isinstance(corps, list)
        anchors: dict[str, JSON] = {}
        for cid in corps:
            members = sorted(u.id for u in corps_units(state, str(cid)) if u.where == MAP)
            anchors[str(cid)] = rng.choice(members)
        return "choose_anchor", {"anchors": anchors}
    return policies.default_answer(ctx, pending)


def _spread(ctx: Ctx, units: list[str], points: int, rng: Rng) -> list[JSON]:
    """`points` strength points spread at random, one at a time, over `units` (as many as they
    have: with too few, everybody loses everything)."""
    left = {u: ctx.state.units[u].strength for u in units}
    taken: dict[str, int] = {}
    for _ in range(points):
        open_ = sorted(u for u, n in left.items() if n > 0)
        if not open_:
            break
        u = rng.choice(open_)
        left[u] -= 1
        taken[u] = taken.get(u, 0) + 1
    return [{"unit": u, "sp": sp} for u, sp in sorted(taken.items())]


def _retreat_plan(ctx: Ctx, atk: Attack, rng: Rng) -> dict[str, JSON]:
    """A random retreat plan (NT-105..NT-108): random losses in each loss group, random anchors,
    random destinations with room."""
    state, board = ctx.state, ctx.board
    side = other(atk.attacker)
    losses: list[JSON] = []
    for g in loss_groups(ctx, atk):
        losses += _spread(ctx, g.units, g.points, rng)
    dead = {
        str(r["unit"])
        for r in losses
        if isinstance(r, dict) and r["sp"] == state.units[str(r["unit"])].strength
    }
    units = [
        u for u in units_in(state, atk.def_locale, side) if u.type != "ART" and u.id not in dead
    ]
    anchors: dict[str, JSON] = {}
    for c in commanders_in(state, atk.def_locale, side):
        members = sorted(u.id for u in units if u.corps == c.id)
        if len(members) > 1:
            anchors[c.id] = rng.choice(members)
    room = {
        n: board.locales[n].capacity - len(units_in(state, n, side)) for n in destinations(ctx, atk)
    }
    dests: dict[str, JSON] = {}
    for u in sorted(units, key=lambda u: u.id):
        open_ = sorted(n for n in room if room[n] > 0)
        if open_:
            dests[u.id] = n = rng.choice(open_)
            room[n] -= 1
    return {"losses": losses, "anchors": anchors, "destinations": dests}


def _leaders(n: int, rng: Rng) -> int:
    """How many leading units to name out of n: two half of the time (odd losses need two)."""
    if n >= 2 and rng.chance(1, 2):
        return 2
    return rng.below(min(2, n) + 1)
