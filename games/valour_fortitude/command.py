"""The command phase (digest 3.8, VF-50..VF-66): brigades activated in the sheet's order
(VF-50..VF-52), one action per unit (VF-53, VF-54) after a messenger test (VF-55), moves
(VF-56..VF-58) with formation changes before or after them (VF-60, `formations.py`),
withdraws (VF-61), charges (VF-63, VF-64), marches (VF-65), rallies (VF-103) and officer moves
(VF-66). The umpire places every moved unit (V-06) and every new formation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import fate
from games.valour_fortitude import formations as fm
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import occupation as occ
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.paths import offset, path_of
from games.valour_fortitude.shooting import bind
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, Unit
from games.valour_fortitude.values import (
    allowance,
    has,
    in_march_column,
    is_artillery,
    is_cavalry,
    is_infantry,
)

Step = dict[str, JSON]
MARSHALS = {"napoleon", "marschall_des_kaiserreichs", "ney", "murat"}  # VF-206..VF-209
RULE_OF = {"gneisenau": "VF-216", "erzherzog_karl": "VF-213"}
MILITIA = {"miliz": "VF-158", "landwehr": "VF-158", "stoisch": "VF-159"}  # AMB-18


def sheet(ctx: Ctx) -> dict[str, JSON]:
    found = ctx.flow.get("sheet")
    return found if isinstance(found, dict) else {}


def activate(ctx: Ctx, brigade_id: str) -> list[Step]:
    """VF-50..VF-52: the brigade's activation; the steps that follow it."""
    game = ctx.game
    side = str(game.turn.active_side)
    brigade = m.brigade(game, brigade_id)
    if brigade.broken:
        raise Skip("VF-108", T("brigade {brigade} is broken", brigade=brigade_id))
    if brigade.activated_this_turn is not None:
        raise Skip("VF-50", T("brigade {brigade} was chosen already", brigade=brigade_id))
    first = not any(b.activated_this_turn is not None for b in game.brigades if b.side == side)
    first = first and not m.side_state(game, side).auto_activation_used_this_turn  # card 3
    cinc = game.leader(m.side_state(game, side).cinc)
    bg = game.leader(brigade.bg)
    reach = 36.0 if set(cinc.special_rules) & MARSHALS else 24.0  # VF-52, VF-206..VF-209
    wanted: dict[str, Callable[[], Fact]] = {}
    cautious = "vorsichtig" in cinc.special_rules  # VF-205: automatic activation once a battle
    first = first and not (cautious and m.side_state(game, side).cautious_cinc_auto_used)
    if first and not cinc.removed and not bg.removed:  # AMB-11: only the first chosen
        wanted["auto"] = bind(ms.within, game, cinc, bg, reach, "VF-52")
    rerolls = set(cinc.special_rules) & {"gneisenau", "erzherzog_karl"}
    if rerolls and not cinc.removed and not bg.removed:  # VF-216, VF-213 (AMB-45: the BG)
        wanted["reroll"] = bind(ms.within, game, cinc, bg, 36.0, RULE_OF[min(rerolls)])
    facts = ctx.need(wanted) if wanted else {}
    auto = bool(facts.get("auto"))
    if auto:
        passed = True
        ctx.say(T("Brigade {brigade} activates automatically (VF-52)", brigade=brigade_id))
        if cautious:  # VF-205
            state = replace(m.side_state(ctx.game, side), cautious_cinc_auto_used=True)
            ctx.game = m.with_side(ctx.game, state)
    else:
        modifier = -1 if brigade.fled_units else 0
        modifier -= 1 if "vorsichtig" in bg.special_rules else 0  # VF-205: a cautious BG
        purpose = T("Activation test of brigade {brigade} (VF-51)", brigade=brigade_id)
        passed = ctx.test(purpose, 1, modifier, 2)
        if not passed and facts.get("reroll"):
            purpose = T("Activation test of brigade {brigade} rerolled", brigade=brigade_id)
            passed = ctx.test(purpose, 1, modifier, 2)  # VF-213, VF-216
    ctx.game = m.with_brigade(ctx.game, replace(brigade, activated_this_turn=passed))
    follow: list[Step] = []
    if passed:
        orders = sheet(ctx).get("units")
        listed = [u for u in orders if u in brigade.units] if isinstance(orders, dict) else []
        rest = [u for u in brigade.units if u not in listed]
        follow = [{"do": "unit", "unit": u} for u in (*listed, *rest)]
    return [*follow, {"do": "bg_move", "brigade": brigade_id}]  # AMB-16


def _order(ctx: Ctx, unit_id: str) -> dict[str, JSON]:
    orders = sheet(ctx).get("units")
    found = orders.get(unit_id) if isinstance(orders, dict) else None
    return found if isinstance(found, dict) else {"action": "STAND"}


def _light(ctx: Ctx, unit: Unit) -> bool:
    """VF-147, VF-148: +2 on messenger tests."""
    if has(unit, "leichte_kavallerie"):
        return True
    if not has(unit, "leichte_infanterie"):
        return False
    brigade = m.brigade(ctx.game, unit.brigade)
    detachment = "abteilung" in unit.profile
    return detachment or all(has(ctx.game.unit(u), "leichte_infanterie") for u in brigade.units)


def unit_step(ctx: Ctx, step: Step) -> list[Step]:
    """A unit's action (`stage` absent), its move after a change made before it ("move"), or
    its formation change ("before" / "after", VF-60)."""
    unit_id = str(step["unit"])
    stage = step.get("stage")
    if stage in ("before", "after"):
        reform(ctx, unit_id, str(stage))
        return []
    return unit_action(ctx, unit_id, stage == "move")


def unit_action(ctx: Ctx, unit_id: str, after_change: bool = False) -> list[Step]:
    game = ctx.game
    unit = game.unit(unit_id)
    order = _order(ctx, unit_id)
    action = str(order.get("action"))
    if not m.on_table(unit):
        raise Skip("VF-53", T("{unit} is not on the table", unit=unit_id))
    flags = unit.turn_flags
    kutuzov = _kutuzov(ctx, unit)  # VF-218
    for rule, vf in MILITIA.items():  # AMB-18: only Move, Rally or stand
        if has(unit, rule) and action in ("WITHDRAW", "CHARGE", "MARCH"):
            if rule == "stoisch" and kutuzov:
                continue
            why = T("{unit} may only move, rally or stand (AMB-18)", unit=unit_id)
            raise Skip(vf, why)
    if (flags.fired or flags.supported_fire) and not has(unit, "artillerie_zu_pferd"):  # VF-149
        if not flags.skirmish_fired:
            raise Skip("VF-46", T("{unit} fired this turn and takes no action", unit=unit_id))
        if action == "CHARGE":
            raise Skip(
                "VF-144", T("{unit} fired with skirmishers and may not charge", unit=unit_id)
            )
    if action == "CHARGE" and unit.formation is Formation.SQUARE:
        raise Skip("VF-141", T("a unit in square cannot be given a charge order"))
    wanted: dict[str, Callable[[], Fact]] = {}
    bg = game.leader(m.brigade(game, unit.brigade).bg)
    if not bg.removed and not after_change:
        wanted["messenger"] = bind(ms.within, game, bg, unit, 12.0, "VF-55")
    if action == "OCCUPY" or (unit.occupying is not None and action in MOVES):
        return _occupant(ctx, unit, order, action, wanted)  # VF-195, VF-197
    if "formation_before" in order and not after_change:
        return _messenger_then_change(ctx, unit, wanted)
    path = path_of(order.get("path"))
    if not path and action in ("MOVE", "MARCH", "CHARGE", "WITHDRAW"):
        if not _changes(order):
            raise Skip("VF-56", T("a {action} needs a path", action=action))
        return _change_without_moving(ctx, unit, action, wanted, "formation_after" in order)
    target = None
    if action in ("MOVE", "MARCH", "CHARGE", "WITHDRAW"):
        march = action == "MARCH"
        road = march and in_march_column(unit)
        wanted["cost"] = bind(ms.path_cost, game, unit, path, road)
        wanted["clear"] = bind(ms.end_clear, game, unit, path, False)
        wanted["place"] = bind(ms.placement, unit, path)
    if action in ("MOVE", "MARCH"):
        wanted["start"] = bind(ms.enemy_closer_than, game, unit, ms.KEEP_AWAY_IN, "VF-58")
        if march:
            wanted["keep"] = bind(ms.clearance, game, unit, path, ms.MARCH_CLEAR_IN, "VF-65", True)
        else:
            wanted["keep"] = bind(ms.clearance, game, unit, path, ms.KEEP_AWAY_IN, "VF-58", False)
    elif action == "WITHDRAW":
        wanted["keep"] = bind(ms.ends_clear_of_enemies, game, unit, path)
        wanted["arcs"] = bind(ms.withdraw_arcs, game, unit, path)
    elif action == "CHARGE":
        target = game.unit(str(order.get("target")))
        if not m.on_table(target):
            raise Skip("VF-63", T("{unit} is not on the table", unit=target.id))
        if is_artillery(unit):
            raise Skip("VF-64", T("artillery cannot charge"))
        wanted["start"] = bind(ms.enemy_closer_than, game, unit, 0.06, "VF-64")
        wanted["visible"] = bind(ms.in_arc, game, unit, target, "VF-63")
        wanted["nearest"] = bind(ms.nearest_free_enemy, game, unit, target)
        wanted["contact"] = bind(ms.charge_contact, game, unit, path, target)
        if is_infantry(unit) and is_cavalry(target):
            wanted["six"] = bind(ms.within, game, unit, target, 6.0, "VF-64")
        if is_infantry(unit) and has(target, "artillerie_zu_pferd"):
            wanted["six"] = bind(ms.within, game, unit, target, 6.0, "VF-149")
    elif action == "RALLY":
        wanted["twelve"] = bind(ms.enemy_closer_than, game, unit, 12.0, "VF-103")
    overrun: list[str] = []
    if action in MOVES:
        wanted["feature"] = bind(ms.defensible_clear, game, unit, path, target)  # VF-193
        overrun = occ.overrun_wanted(game, unit, path, wanted)  # VF-59
    facts = ctx.need(wanted)
    _check_move(unit, action, facts, target, fate.move_bonus(ctx, unit))  # K (France)
    if not _messenger(ctx, unit, facts):
        return []
    if action == "RALLY":
        _rally(ctx, unit_id, bool(facts["twelve"]))
    elif action in ("MOVE", "MARCH", "CHARGE", "WITHDRAW"):
        place = facts["place"]
        assert isinstance(place, list)
        dx, dy = offset(place)
        ctx.game = m.with_unit(ctx.game, ms.moved(ctx.game.unit(unit_id), dx, dy))
        ctx.say(
            T(
                "{unit} makes a {action} ({cost} in), placed at offset ({dx}, {dy})",
                unit=unit_id,
                action=action,
                cost=facts["cost"],
                dx=dx,
                dy=dy,
            )
        )
        for leader_id in overrun:  # VF-59
            occ.place_overrun(ctx, ctx.game.leader(leader_id), facts[f"overrun:{leader_id}"])
    else:
        ctx.say(T("{unit} stands", unit=unit_id))
    _acted(ctx, unit_id, action)
    if "formation_after" in order and action in ("MOVE", "MARCH", "WITHDRAW"):
        return [{"do": "unit", "unit": unit_id, "stage": "after"}]
    return []


MOVES = ("MOVE", "MARCH", "CHARGE", "WITHDRAW")


def _occupant(
    ctx: Ctx, unit: Unit, order: dict[str, JSON], action: str, wanted: dict[str, Callable[[], Fact]]
) -> list[Step]:
    """VF-195: OCCUPY instead of a Move or Withdraw; VF-197: an occupant's Move or Withdraw
    leaves its feature (occupation.py)."""
    if action == "OCCUPY":
        if not occ.occupy_step(ctx, unit, order, wanted, _messenger):
            return []
        _acted(ctx, unit.id, "OCCUPY", moved=False)
        return []
    facts = occ.leave_step(ctx, unit, order, action, wanted)
    if not _messenger(ctx, unit, facts):
        return []
    occ.leave(ctx, unit.id, order, facts["leave:place"])
    _acted(ctx, unit.id, action)
    return []


def _kutuzov(ctx: Ctx, unit: Unit) -> bool:
    """VF-218: a Stoisch unit of the host list within 12 in of Kutuzov may move and change
    formation in the command phase (VF-159's restriction is lifted; AMB-32)."""
    state = m.side_state(ctx.game, unit.side)
    cinc = ctx.game.leader(state.cinc)
    if not has(unit, "stoisch") or "kutuzov" not in cinc.special_rules or cinc.removed:
        return False
    if unit.army_list != state.army_list:
        return False
    facts = ctx.need({"kutuzov": bind(ms.within, ctx.game, cinc, unit, 12.0, "VF-218")})
    return bool(facts["kutuzov"])


def _unrestricted(unit: Unit) -> Unit:
    """The unit without Stoisch, for the formation checks Kutuzov lifts (VF-218)."""
    rules = tuple(r for r in unit.stats.special_rules if r != "stoisch")
    return replace(unit, stats=replace(unit.stats, special_rules=rules))


def _changes(order: dict[str, JSON]) -> bool:
    return "formation_before" in order or "formation_after" in order


def _messenger(ctx: Ctx, unit: Unit, facts: dict[str, JSON]) -> bool:
    """VF-55: a unit more than 12 in from its BG acts only after a passed messenger test."""
    if "messenger" not in facts or facts["messenger"]:
        return True
    bonus = 2 if _light(ctx, unit) else 0
    purpose = T("Messenger test of {unit} (VF-55)", unit=unit.id)
    if ctx.test(purpose, 1, bonus, 4):
        return True
    _acted(ctx, unit.id, "STAND")
    ctx.say(T("{unit} cannot take an action this turn (VF-55)", unit=unit.id))
    return False


def _messenger_then_change(
    ctx: Ctx, unit: Unit, wanted: dict[str, Callable[[], Fact]]
) -> list[Step]:
    """A change before a Move (VF-60): the messenger test, then the change, then the move
    (without a path: none)."""
    if not _messenger(ctx, unit, ctx.need(wanted)):
        return []
    return [
        {"do": "unit", "unit": unit.id, "stage": "before"},
        {"do": "unit", "unit": unit.id, "stage": "move"},
    ]


def _change_without_moving(
    ctx: Ctx, unit: Unit, action: str, wanted: dict[str, Callable[[], Fact]], after: bool
) -> list[Step]:
    """A Move of no distance whose formation change is the action (VF-141, AMB-34)."""
    if not _messenger(ctx, unit, ctx.need(wanted)):
        return []
    _acted(ctx, unit.id, action, moved=False)
    return [{"do": "unit", "unit": unit.id, "stage": "after"}] if after else []


def reform(ctx: Ctx, unit_id: str, when: str) -> None:
    """VF-60: the unit changes formation around its pivot base, more than 3 in from enemy
    units at its start and end; the umpire confirms the new block or shifts it."""
    game = ctx.game
    unit = game.unit(unit_id)
    order = _order(ctx, unit_id)
    raw = order.get(f"formation_{when}")
    if not m.on_table(unit) or raw is None:
        raise Skip("VF-60", T("{unit} is not on the table", unit=unit_id))
    spec = fm.spec_of(raw)
    action = str(order.get("action"))
    try:
        checked = _unrestricted(unit) if _kutuzov(ctx, unit) else unit  # VF-218
        problem = fm.change_problem(checked, action, when, spec, bool(order.get("path")))
        if problem is not None:
            raise problem
        after = fm.changed(unit, spec, fm.build(unit, spec))
    except fm.Refused as refused:
        raise Skip(refused.rule, refused.message) from refused
    facts = ctx.need(
        {
            "reform:clear": bind(ms.reform_clear_of_enemies, game, unit, after),
            "reform:fits": bind(ms.reform_fits, game, after),
            "reform:place": bind(ms.reform_place, unit, after),
        }
    )
    if not facts["reform:clear"]:
        raise Skip("VF-60", T("{unit} is 3 in or less from an enemy unit", unit=unit_id))
    if not facts["reform:fits"]:
        raise Skip("VF-8", T("{unit} cannot be set up in its new formation there", unit=unit_id))
    place = facts["reform:place"]
    if not isinstance(place, list):
        why = T("the umpire found no place for the new formation of {unit}", unit=unit_id)
        raise Skip("VF-60", why)
    dx, dy = offset(place)
    ctx.game = m.with_unit(ctx.game, ms.moved(after, dx, dy))
    ctx.say(
        T(
            "{unit} changes formation to {formation} ({files} files, {ranks} ranks) (VF-60)",
            unit=unit_id,
            formation=after.formation.value,
            files=after.files,
            ranks=after.ranks,
        )
    )
    if after.formation is Formation.COMPANY_COLUMN:
        ctx.say(T("{unit} counts as a dense target: no effect (GAP-3)", unit=unit_id))


def _check_move(
    unit: Unit, action: str, facts: dict[str, JSON], target: Unit | None, bonus: int = 0
) -> None:
    """The rules the engine applies to the confirmed facts (VF-56..VF-65)."""
    if action not in ("MOVE", "MARCH", "CHARGE", "WITHDRAW"):
        return
    limit = (allowance(unit) + bonus) * (2 if action == "MARCH" else 1)  # VF-57, VF-65, AMB-14
    cost = facts["cost"]
    if cost is None:
        raise Skip("VF-190", T("the path crosses impassable terrain"))
    if Decimal(str(cost)) > limit:
        raise Skip(
            "VF-57",
            T("the path costs {cost} in; the allowance is {limit} in", cost=cost, limit=limit),
        )
    if "feature" in facts and not facts["feature"]:
        raise Skip(
            "VF-193", T("{unit} may not enter or touch that defensible feature", unit=unit.id)
        )
    if not facts["clear"]:
        raise Skip(
            "VF-56",
            T("{unit} would leave the table or touch a friend", unit=unit.id),
        )
    if facts.get("start"):
        rule = "VF-64" if action == "CHARGE" else "VF-58"
        raise Skip(
            rule,
            T("{unit} is too close to an enemy unit for a {action}", unit=unit.id, action=action),
        )
    if "keep" in facts and not facts["keep"]:
        rule = {"MARCH": "VF-65", "WITHDRAW": "VF-61"}.get(action, "VF-58")
        raise Skip(rule, T("{unit} comes too close to enemy units", unit=unit.id))
    if "arcs" in facts and not facts["arcs"]:
        raise Skip("VF-61", T("{unit} must end inside the front arcs it started in", unit=unit.id))
    if action == "CHARGE" and target is not None:
        if "six" in facts and not facts["six"]:
            if has(target, "artillerie_zu_pferd"):
                raise Skip("VF-149", T("infantry charges horse artillery only from within 6 in"))
            raise Skip("VF-64", T("infantry charges cavalry only from within 6 in"))
        if not facts["visible"]:
            raise Skip(
                "VF-63", T("{target} was not visible to {unit}", target=target.id, unit=unit.id)
            )
        if not facts["nearest"]:
            raise Skip("VF-63", T("{target} is not the nearest enemy unit", target=target.id))
        if not facts["contact"]:
            raise Skip(
                "VF-63",
                T("{unit} does not end in contact with {target}", unit=unit.id, target=target.id),
            )


def _rally(ctx: Ctx, unit_id: str, enemy_near: bool) -> None:
    """VF-103: 1D6, -1 with enemy units less than 12 in away; 4+ removes one marker."""
    purpose = T("Rally test of {unit} (VF-103)", unit=unit_id)
    if ctx.test(purpose, 1, -1 if enemy_near else 0, 4):
        unit = ctx.game.unit(unit_id)
        ctx.game = m.with_unit(ctx.game, replace(unit, casualties=max(0, unit.casualties - 1)))


def _acted(ctx: Ctx, unit_id: str, action: str, moved: bool = True) -> None:
    unit = ctx.game.unit(unit_id)
    flags = replace(
        unit.turn_flags,
        acted=True,
        action=action,
        moved_this_turn=moved and action in ("MOVE", "MARCH", "CHARGE", "WITHDRAW"),
        charged_this_round=action == "CHARGE",
    )
    ctx.game = m.with_unit(ctx.game, replace(unit, turn_flags=flags))


def leader_move(ctx: Ctx, leader_id: str, raw: JSON) -> None:
    """VF-66: 36 in, 6 in from enemy units."""
    leader = ctx.game.leader(leader_id)
    if leader.removed:
        raise Skip("VF-108", T("{leader} has been removed", leader=leader_id))
    path = path_of(raw)
    facts = ctx.need({"legal": bind(ms.leader_path, ctx.game, leader, path)})
    if not facts["legal"]:
        raise Skip("VF-66", T("the move of {leader} is not legal", leader=leader_id))
    end = path[-1]
    ctx.game = m.with_leader(ctx.game, replace(leader, x=end.x, y=end.y))
    ctx.say(T("{leader} moves to ({x}, {y})", leader=leader_id, x=end.x, y=end.y))


def bg_move(ctx: Ctx, brigade_id: str) -> None:
    bg = m.brigade(ctx.game, brigade_id).bg
    moves = sheet(ctx).get("bg_moves")
    raw = moves.get(bg) if isinstance(moves, dict) else None
    if raw:
        leader_move(ctx, bg, raw)


def cinc_move(ctx: Ctx) -> None:
    raw = sheet(ctx).get("cinc_move")
    if raw:
        leader_move(ctx, m.side_state(ctx.game, str(ctx.game.turn.active_side)).cinc, raw)
