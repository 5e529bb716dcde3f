"""Random answers to the open decision of an attack (the decisions of digest 4.3): defence,
feint, declaration, counter, losses, retreat, anchors. Each is drawn from what the answering side
can see; the documented default answer comes a quarter of the time (and whenever nothing else is
possible). Feints are rare, attacks prefer whole corps and two leading units, and losses,
retreats (also a vacate that leaves the retreat for later) and anchors are drawn at random.
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph import policies
from games.napoleons_triumph.attack.attackers import attack_options
from games.napoleons_triumph.attack.blocking import hold_candidates
from games.napoleons_triumph.attack.defense import nameable
from games.napoleons_triumph.attack.resolution import counter_candidates
from games.napoleons_triumph.context import Ctx, shown_as
from games.napoleons_triumph.payload import jlist
from games.napoleons_triumph.pieces import commanders_in, corps_units, units_in
from games.napoleons_triumph.retreat import destinations, loss_groups
from games.napoleons_triumph.road_attack.options import road_attacks
from games.napoleons_triumph.state import MAP, Attack, Pending, other

Answer = tuple[str, dict[str, JSON]]

# Each function below draws a random answer to one decision (decisions.py names the one of each
# decision), or None for the documented default answer. decisions.random_answer gives the default
# a quarter of the time before asking them (not for the feint: the default feint is a feint).


def random_defend(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    state = ctx.state
    must, reserve, cmds = nameable(ctx, atk)
    if not must and rng.chance(1, 6):
        vacate = policies.default_defense(ctx, atk, mode="vacate")
        if rng.chance(1, 2):  # decide the retreat later: the retreat decision opens
            return "vacate", {}
        return vacate[0], {"retreat": draw_retreat_plan(ctx, atk, rng)}
    named = must or rng.sample(reserve, 1 + rng.below(max(1, len(reserve))))
    if not must:
        named += [c for c in cmds if rng.chance(1, 2)]
    units = [x for x in named if x in state.units]
    lead = rng.sample(units, _leaders(len(units), rng))
    return "defend", {"named": jlist(named), "leading": jlist(lead)}


def random_defense_leading(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    """NT-TEAM-41: 0-2 of the named units, drawn as the bundle of `random_defend` is."""
    units = sorted(x for x in atk.named if x in ctx.state.units)
    return "lead_defense", {"leading": jlist(rng.sample(units, _leaders(len(units), rng)))}


def _road(ctx: Ctx, atk: Attack, rng: Rng, enter: bool) -> list[dict[str, JSON]] | None:
    """The road attacks to draw from (NT-68: the road is named only now; half of the time none
    when an ordinary command could carry the attack too), or None when nothing could."""
    if atk.guard_attack:
        return []
    road = road_attacks(ctx, atk.attacker, atk.att_locale, atk.approach, enter=enter)
    normal = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    if not road or (normal and rng.chance(1, 2)):
        road = []
    if not road and not normal:
        return None
    return road


def _options(ctx: Ctx, atk: Attack) -> list[dict[str, JSON]]:
    """The single commands that could carry out the attack (with the shown Guard among them)."""
    options = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    if atk.guard_attack and atk.guard_shown:
        options = [
            o for o in options if o.get("unit") == atk.guard_shown or o.get("kind") == "corps_move"
        ]
    return options


def random_feint(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    road = _road(ctx, atk, rng, enter=False)
    if road is None:
        return None
    if road:
        spec = rng.choice(road)
        return "declare_feint", {"commands": [spec], "end": rng.choice(["block", "reserve"])}
    options = _options(ctx, atk)
    if not options:
        return None
    if rng.chance(1, 6):
        spec = rng.choice(options)
        return "declare_feint", {"commands": [spec], "end": rng.choice(["block", "reserve"])}
    return "no_feint", {}


def random_after_vacate(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    road = _road(ctx, atk, rng, enter=True)
    if road is None:
        return None
    if road:
        return "declare_after_vacate", {"commands": [rng.choice(road)]}
    options = _options(ctx, atk)
    if not options:
        return None
    return "declare_after_vacate", {
        "commands": [rng.choice(options)],
        "artillery": rng.chance(1, 5),
    }


def random_declare(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    state = ctx.state
    options = _options(ctx, atk)
    if not options:
        return None
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


# The answers below, too, fall back on the default answer when no single command could carry out
# the attack (the random player has always drawn them so; the fuzzer's seeds depend on it).


def random_counter(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    if not _options(ctx, atk):
        return None
    cands = counter_candidates(ctx, atk)
    return "counter", {"units": jlist(rng.sample(cands, rng.below(min(2, len(cands)) + 1)))}


def _n_candidates(pending: Pending) -> tuple[int, list[str]]:
    n, candidates = pending.data["n"], pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(candidates, list)
    return n, [str(c) for c in candidates]


def random_odd_loss(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    if not _options(ctx, atk):
        return None
    n, candidates = _n_candidates(pending)
    picked = rng.sample(candidates, n)
    return "place_odd_loss", {"units": [shown_as(ctx.state, pending.side, u) for u in picked]}


def random_hold(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    """hold and feint_hold: the answer's kind is the decision's own."""
    if not _options(ctx, atk):
        return None
    units, cmds = hold_candidates(ctx, atk)
    pick = rng.sample(units, 1 + rng.below(len(units))) if units else []
    return pending.kind, {"pieces": jlist(pick + [c for c in cmds if rng.chance(1, 2)])}


def random_assign_losses(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    if not _options(ctx, atk):
        return None
    n, candidates = _n_candidates(pending)
    return "assign_losses", {"losses": _spread(ctx, candidates, n, rng)}


def random_retreat(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    if not _options(ctx, atk):
        return None
    return "retreat_plan", draw_retreat_plan(ctx, atk, rng)


def random_anchor(ctx: Ctx, pending: Pending, atk: Attack, rng: Rng) -> Answer | None:
    if not _options(ctx, atk):
        return None
    corps = pending.data["corps"]
    assert isinstance(corps, list)
    anchors: dict[str, JSON] = {}
    for cid in corps:
        members = sorted(u.id for u in corps_units(ctx.state, str(cid)) if u.where == MAP)
        anchors[str(cid)] = rng.choice(members)
    return "choose_anchor", {"anchors": anchors}


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


def draw_retreat_plan(ctx: Ctx, atk: Attack, rng: Rng) -> dict[str, JSON]:
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
