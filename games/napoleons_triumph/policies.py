"""Standing instructions and deadline defaults (digest 4.5, 4.7).

Every decision the engine waits for has a documented default answer here (one function per
decision, named by its entry in decisions.py); `.deadline` applies it.
The defending side may also file a standing instruction (`set_defense_plan`) that answers its
decisions in advance; it is applied whenever it is legal in the actual situation, else the decision
stays open. Each default is computed from facts the deciding side may know.

Which decisions can be standing (pre-declared) and why: every decision of the defender — defend or
vacate with leading units (2)+(4), the feint hold (3d), the counter-attack (7), the odd point of the
attacker's losses (9a), the rest of its own losses (10c), the retreat plan, the hold after winning —
depends only on public facts and the defender's own faces, so it can be written in advance.
The attacker's decisions are made in his own turn, in the same sitting as the threat, so no standing
instruction is needed for them; at a deadline they get the defaults A-OWN, A-ODD, A-ANCHOR and a
cheapest feint.
"""

from __future__ import annotations

from itertools import combinations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.attack.attackers import (
    attack_options,
    options_moving,
    spec_barred,
    vacate_options,
)
from games.napoleons_triumph.attack.blocking import default_hold as default_hold_pieces
from games.napoleons_triumph.attack.defense import check_def_leading, nameable
from games.napoleons_triumph.attack.resolution import counter_candidates, winner
from games.napoleons_triumph.context import Ctx, public_key, shown_as
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.pieces import elite_kind
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.road_attack.options import road_attacks
from games.napoleons_triumph.state import Attack, GameState, Pending, Unit, other

PLAN_KEYS = {"scope", "on_threat", "counter", "loss_priority", "retreat", "hold"}


def _rank_for_loss(ctx: Ctx, u: Unit, order: list[str]) -> tuple[int, int, int, str]:
    listed = order.index(u.id) if u.id in order else len(order)
    return (listed, 1 if elite_kind(u) else 0, -u.strength, public_key(ctx.state, u.id))


def strongest_leading(ctx: Ctx, atk: Attack, named: list[str]) -> list[str]:
    """D-LEAD: the legal set of greatest strength, then fewest fresh elites, then fewer units."""
    state = ctx.state
    units = [x for x in named if x in state.units]
    best: tuple[int, int, int, list[str]] = (0, 0, 0, [])
    for k in (1, 2):
        for combo in combinations(sorted(units, key=lambda x: public_key(state, x)), k):
            try:
                check_def_leading(ctx, atk, named, list(combo))
            except Illegal:
                continue
            us = [state.units[x] for x in combo]
            fresh = sum(
                1
                for u in us
                if elite_kind(u) and elite_kind(u) not in state.elite_committed[u.side]
            )
            key = (sum(u.strength for u in us), -fresh, -len(us), list(combo))
            if key[:3] > best[:3]:
                best = key
    return best[3]


def default_defense(
    ctx: Ctx, atk: Attack, mode: str = "defend", leading: str = "strongest"
) -> tuple[str, dict[str, JSON]]:
    """Forced case: name all blockers; free case: all eligible reserve pieces, at most one detached
    unit (the strongest); leading units by D-LEAD."""
    state = ctx.state
    must, reserve, cmds = nameable(ctx, atk)
    if must:
        named = must
    elif mode == "vacate" or not reserve:
        return "vacate", {"retreat": default_plan(ctx, atk)}
    else:
        units = [state.units[x] for x in reserve]
        detached = sorted(
            (u for u in units if u.corps is None),
            key=lambda u: (-u.strength, public_key(state, u.id)),
        )
        named = [u.id for u in units if u.corps is not None] + [u.id for u in detached[:1]]
        named += [
            c for c in cmds if any(state.units[x].corps == c for x in named if x in state.units)
        ]
    lead = strongest_leading(ctx, atk, named) if leading == "strongest" else []
    return "defend", {"named": P.jlist(named), "leading": P.jlist(lead)}


def pick_odd(ctx: Ctx, n: int, cands: list[str]) -> list[str]:
    """eliminate_first: the point goes where it eliminates; else a committed elite; else by id."""
    state = ctx.state

    def key(uid: str) -> tuple[int, int, str]:
        u = state.units[uid]
        fresh = bool(elite_kind(u)) and elite_kind(u) not in state.elite_committed[u.side]
        return (0 if u.strength == 1 else 1, 1 if fresh else 0, public_key(state, uid))

    return sorted(cands, key=key)[:n]


def spread_free(ctx: Ctx, n: int, cands: list[str], order: list[str]) -> list[JSON]:
    """loss_priority: points in list order, then non-elite before elite, higher strength first."""
    state = ctx.state
    rows: list[JSON] = []
    left = n
    for uid in sorted(cands, key=lambda x: _rank_for_loss(ctx, state.units[x], order)):
        if left <= 0:
            break
        sp = min(left, state.units[uid].strength)
        rows.append({"unit": uid, "sp": sp})
        left -= sp
    return rows


Answer = tuple[str, dict[str, JSON]]  # (action kind, payload)


# The documented default of every pending decision (digest 4.3 table, 4.7), one function per
# decision; decisions.py names the one of each decision. Each is computed from what the deciding
# side may know.


def default_defend(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    return default_defense(ctx, atk)


def default_defense_leading(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    """NT-TEAM-41: the leading units the two-player default names with its defense (D-LEAD,
    `strongest_leading` over the named units)."""
    return "lead_defense", {"leading": P.jlist(strongest_leading(ctx, atk, atk.named))}


def default_retreat(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    return "retreat_plan", default_plan(ctx, atk)


def default_hold(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    """feint_hold and hold: the answer's kind is the decision's own."""
    return pending.kind, {"pieces": P.jlist(default_hold_pieces(ctx, atk))}


def default_counter(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    return "counter", {"units": []}


def _n_candidates(pending: Pending) -> tuple[int, list[str]]:
    n = pending.data["n"]
    cands = pending.data["candidates"]
    assert isinstance(n, int)
    assert isinstance(cands, list)
    return n, [str(c) for c in cands]


def default_odd_loss(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    n, cands = _n_candidates(pending)
    picked = pick_odd(ctx, n, cands)
    return "place_odd_loss", {"units": [shown_as(ctx.state, pending.side, u) for u in picked]}


def default_assign_losses(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    n, cands = _n_candidates(pending)
    return "assign_losses", {"losses": spread_free(ctx, n, cands, [])}


def default_anchor(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    state = ctx.state
    anchors: dict[str, JSON] = {}
    corps = pending.data["corps"]
    assert isinstance(corps, list)
    for cid in corps:
        members = [u for u in state.units.values() if u.corps == cid and u.where == "map"]
        anchors[str(cid)] = max(
            members,
            key=lambda u: (elite_kind(u) is None, u.strength, public_key(state, u.id)),
        ).id
    return "choose_anchor", {"anchors": anchors}


def _shown_guard_options(
    ctx: Ctx, atk: Attack, options: list[dict[str, JSON]]
) -> list[dict[str, JSON]]:
    """A Guard attack is carried out by commands that move the shown Guard (AMB-31)."""
    if atk.guard_attack and atk.guard_shown:
        return options_moving(ctx, atk.attacker, atk.att_locale, atk.approach, atk.guard_shown)
    return options


def default_after_vacate(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    able = vacate_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    if not able and not atk.guard_attack:  # NT-68: only a road attack is left
        road = road_attacks(ctx, atk.attacker, atk.att_locale, atk.approach, enter=True)[:1]
        return "declare_after_vacate", {"commands": P.jlist(road)}
    spec, guns = able[0]
    return "declare_after_vacate", {"commands": [spec], "artillery": guns}


def default_feint(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    """The cheapest feint (NT-76); a road attack's feint when nothing else could carry it out."""
    options = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    if not options and not atk.guard_attack:  # NT-68: only a road attack is left
        road = road_attacks(ctx, atk.attacker, atk.att_locale, atk.approach, enter=False)[:1]
        return "declare_feint", {"commands": P.jlist(road), "end": "reserve"}
    options = _shown_guard_options(ctx, atk, options)
    if not options:
        return "no_feint", {}
    first = options[0]
    blocking = _starts_blocking(ctx, first)
    return "declare_feint", {"commands": [first], "end": "block" if blocking else "reserve"}


def default_declare(ctx: Ctx, pending: Pending, atk: Attack) -> Answer:
    """A-OWN: the first single command, narrow, the battery or the shown Guard leading."""
    state = ctx.state
    options = attack_options(ctx, atk.attacker, atk.att_locale, atk.approach)
    options = _shown_guard_options(ctx, atk, options)
    battery = bool(options) and _is_battery(ctx, options[0])
    if options and spec_barred(ctx, atk.attacker, atk.def_locale, options[0]):
        # NT-54(b), NT-101: it could not advance; the artillery attack that backed the threat
        able = vacate_options(ctx, atk.attacker, atk.att_locale, atk.approach)[:1]
        if able:
            options, battery = [able[0][0]], able[0][1]
    payload: dict[str, JSON] = {
        "commands": P.jlist(options[:1]),
        "width": "narrow",
        "leading": [],
    }
    if len(atk.def_leading) == 2:
        payload["target"] = shown_as(state, atk.attacker, atk.def_leading[0])
    if atk.guard_attack and atk.guard_shown:
        payload["leading"] = [atk.guard_shown]
    if battery:
        payload["leading"] = [options[0]["unit"]]
    return "declare_attack", payload


def _is_battery(ctx: Ctx, spec: dict[str, JSON]) -> bool:
    return spec.get("kind") == "unit_move" and ctx.state.units[str(spec["unit"])].fixed


def _starts_blocking(ctx: Ctx, spec: dict[str, JSON]) -> bool:
    if spec.get("kind") == "unit_move":
        return ctx.state.units[str(spec["unit"])].app is not None
    return ctx.state.commanders[str(spec["commander"])].app is not None


# ----------------------------------------------------------------------------- standing plans


def plan_key(state: GameState, role: str, side: str) -> str:
    """Whose standing instructions a plan belongs to: the side's in a two-player game; in team
    play the filing seat's own (team digest SRV-1: a seat's plan answers only the decisions the
    router gives that seat, never another seat's)."""
    return role if state.team is not None else side


def set_defense_plan(ctx: Ctx, side: str, p: dict[str, JSON], role: str = "") -> None:
    """Store a standing instruction (digest 4.5). Private: only `side` sees it; in team play
    only the seat that filed it (SRV-1, table 3.5.2 "standing instructions of a seat")."""
    for key in p:
        require(
            key in PLAN_KEYS, "NT-0", T("unknown plan field {field}", field=repr(key)), f"/{key}"
        )
    scope = P.mapping(p, "scope")
    if scope.get("default") is True:
        scope_key = "default"
    else:
        loc = scope.get("locale")
        require(
            isinstance(loc, int) and loc in ctx.board.locales,
            "NT-0",
            T(
                "scope is {default} or {locale}",
                default='{"default": true}',
                locale='{"locale": n}',
            ),
            "/scope",
        )
        scope_key = str(loc)
    threat = P.mapping(p, "on_threat")
    mode = threat.get("mode", "ask")
    require(
        mode in ("defend", "vacate", "ask"),
        "NT-0",
        T("on_threat.mode is defend, vacate or ask"),
        "/on_threat/mode",
    )
    lead = threat.get("leading", "strongest")
    require(
        lead in ("strongest", "none"),
        "NT-0",
        T("on_threat.leading is strongest or none"),
        "/on_threat/leading",
    )
    ctr = P.mapping(p, "counter").get("policy", "ask")
    require(
        ctr in ("none", "ask", "win_if_possible"),
        "NT-0",
        T("counter.policy is none, ask or win_if_possible"),
        "/counter/policy",
    )
    order = P.strings(p, "loss_priority")
    hold = p.get("hold", "ask")
    require(hold in ("all_named", "ask"), "NT-0", T("hold is all_named or ask"), "/hold")
    retreat = P.mapping(p, "retreat").get("mode", "default")
    require(
        retreat in ("default", "ask"), "NT-0", T("retreat.mode is default or ask"), "/retreat/mode"
    )
    key = plan_key(ctx.state, role, side)
    plans = dict(ctx.state.plans.get(key, {}))
    plans[scope_key] = {
        "mode": mode,
        "leading": lead,
        "counter": ctr,
        "loss_priority": list(order),
        "hold": hold,
        "retreat": retreat,
    }
    ctx.state.plans[key] = plans
    seat = frozenset({role}) if key == role else None
    stored = (
        T("Standing instruction stored for default.")
        if scope_key == "default"
        else T("Standing instruction stored for {locale}.", locale=scope_key)
    )
    ctx.private(side, stored, roles=seat)


Plan = dict[str, JSON]  # one stored standing instruction (set_defense_plan)


def plan_for(ctx: Ctx, pending: Pending, owner: str | None = None) -> tuple[Attack, Plan] | None:
    """The defender's standing instruction for the attacked locale (else its default one), or
    None: no attack, the attacker decides, or no instruction is stored (digest 4.5). `owner`:
    whose plans answer (team play: the seat the decision is routed to, SRV-1); the side's by
    default."""
    state = ctx.state
    atk = state.attack
    if atk is None or pending.side == atk.attacker:
        return None
    plans = state.plans.get(owner if owner is not None else pending.side, {})
    raw = plans.get(str(atk.def_locale)) or plans.get("default")
    if not isinstance(raw, dict):
        return None
    return atk, raw


def _loss_order(plan: Plan) -> list[str]:
    return [str(x) for x in plan.get("loss_priority", []) or [] if isinstance(x, str)]  # type: ignore[union-attr]


# The answer a stored instruction gives to a decision, or None (ask the player): one function per
# decision the defender can pre-declare; decisions.py names the one of each decision.


def standing_defend(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    if plan["mode"] == "ask":
        return None
    return default_defense(ctx, atk, mode=str(plan["mode"]), leading=str(plan["leading"]))


def standing_defense_leading(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    """NT-TEAM-41, SRV-1: the new decider's own plan (on_threat.leading: strongest or none);
    a plan that asks on a threat (mode ask) asks here too, as its leading units would have come
    with the step-(2) answer."""
    if plan["mode"] == "ask":
        return None
    lead = strongest_leading(ctx, atk, atk.named) if plan["leading"] == "strongest" else []
    return "lead_defense", {"leading": P.jlist(lead)}


def standing_counter(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    if plan["counter"] == "none":
        return "counter", {"units": []}
    if plan["counter"] == "win_if_possible":
        return "counter", {"units": P.jlist(_winning_counter(ctx, atk))}
    return None


def standing_hold(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    return default_hold(ctx, pending, atk) if plan["hold"] == "all_named" else None


def standing_retreat(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    if plan["retreat"] != "default":
        return None
    return "retreat_plan", default_plan(ctx, atk, _loss_order(plan))


def standing_odd_loss(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    return default_odd_loss(ctx, pending, atk)


def standing_assign_losses(ctx: Ctx, pending: Pending, atk: Attack, plan: Plan) -> Answer | None:
    order = _loss_order(plan)
    if not order:
        return default_assign_losses(ctx, pending, atk)
    n, cands = _n_candidates(pending)
    return "assign_losses", {"losses": spread_free(ctx, n, cands, order)}


def _winning_counter(ctx: Ctx, atk: Attack) -> list[str]:
    """win_if_possible: the weakest counter-attack that makes the defender the final winner."""
    state = ctx.state
    assert atk.prelim is not None
    cands = counter_candidates(ctx, atk)
    best: list[str] = []
    best_cost = None
    for k in (1, 2):
        for combo in combinations(sorted(cands, key=lambda x: public_key(state, x)), k):
            us = [state.units[x] for x in combo]
            if any(u.type == "ART" for u in us):
                continue
            if any(u.type in ("INF", "GUARD") for u in us) and atk.prelim_winner != atk.attacker:
                continue
            if k == 2 and not (
                us[0].type == us[1].type and us[0].corps and us[0].corps == us[1].corps
            ):
                continue
            f = atk.prelim - sum(u.strength - 1 for u in us)
            if winner(ctx, atk, f) == other(atk.attacker):
                cost = sum(u.strength for u in us)
                if best_cost is None or cost < best_cost:
                    best, best_cost = list(combo), cost
    return best
