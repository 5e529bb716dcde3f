"""The melee phase (digest 3.9-3.10, VF-70..VF-95): the plan of fights (VF-70, VF-71), each fight
with the strike back (VF-72), the result and its tie-breaks (VF-73), casualties and morale
(VF-74, VF-105), automatic flight (VF-106) and cavalry falling back (VF-75, VF-62).

Brigade support (VF-93, AMB-23: one unit per side per fight) is built for the attacking unit:
the sheet's explicit plan names it (`brigade_supporter`, or none), the auto plan takes the first
eligible unit by id whose support costs neither VF-94's +1 nor a reroll (VF-153..155). It is a
supporting unit for VF-94 and the rerolls, not melee support (no automatic flight, VF-106 L387;
no falling back, VF-75 L296).

Strike-back support (VF-72, AMB-15, V-09) follows the inactive side's standing policy (digest
4.5), set by the `strike_back` field of its own last sheet: `none` (the default, and V-09's
deadline default) or `auto`: the engine picks, before any die, up to 3 melee supporters (VF-91,
VF-92: units touching only the attacking unit) and one brigade supporter of the target's
brigade (VF-93, AMB-23), each only when it costs neither VF-94's +1 nor a reroll. Supporters of
the strike back fall back when they lose (VF-75, AMB-19); cavalry among them makes a losing
infantry attacker flee (VF-106, AMB-25).

Square tests (VF-142, VF-152) come first, then the plan. Not built: a reaction window for V-09
(the standing policy answers it; VF-32), relentless charges (VF-163, logged when they would
arise), occupation after a melee (VF-200, V-12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import fate, relentless
from games.valour_fortitude import formations as fm
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude import occupation as occ
from games.valour_fortitude.command import Step, sheet
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.morale import flee, take_casualties, unpredictable
from games.valour_fortitude.paths import offset
from games.valour_fortitude.shooting import bind, napoleon_of
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Unit
from games.valour_fortitude.values import (
    allowance,
    double_hits,
    has,
    hit_tests,
    in_march_column,
    is_artillery,
    is_cavalry,
    is_infantry,
    pipeline,
    shaken,
)


def plan(ctx: Ctx) -> list[Step]:
    """VF-70, VF-71: the contacts (facts), then the fights: the sheet's explicit plan when it
    covers every contacted unit, else one fight per contacted unit in id order with the other
    units touching only that target as supporters (auto)."""
    game = ctx.game
    turn = game.turn
    done = f"{turn.round}:{turn.active_side}:{turn.turns_taken_a}:{turn.turns_taken_b}"
    if ctx.flow.get("square_tests") != done:  # VF-142: first, at the start of the phase
        tests = square_tests(ctx)
        ctx.flow["square_tests"] = done
        if tests is not None:
            return [*tests, {"do": "melee_plan"}]
        game = ctx.game
    active = str(game.turn.active_side)
    wanted: dict[str, Callable[[], Fact]] = {}
    for a in ms.table_units(game):
        if a.side != active:
            continue
        for e in ms.enemies(game, active):
            if ms.gap(game, a, e) <= ms.NEAR_IN:
                wanted[f"contact:{a.id}:{e.id}"] = bind(ms.contact, game, a, e)
    facts = ctx.need(wanted)
    touching: dict[str, list[str]] = {}
    for key, value in facts.items():
        if value:
            _, mine, theirs = key.split(":")
            touching.setdefault(mine, []).append(theirs)
    if not touching:
        ctx.say(T("No units are in contact: no melee"))
        return []
    explicit = sheet(ctx).get("melee_plan")
    fights = _explicit(ctx, explicit, touching) if isinstance(explicit, list) else None
    if fights is None:
        fights = _auto(game, touching)
    contacts: JSON = {a: list[JSON](sorted(es)) for a, es in touching.items()}
    return [{"do": "fight", **f, "contacts": contacts} for f in fights]


def square_tests(ctx: Ctx) -> list[Step] | None:
    """VF-142: 1D6 for every cavalry unit in contact with a square (VF-152: or, attacking, with
    a company column): +2 if all those squares are shaken, +2 (VF-152) against company columns;
    1-3 one casualty and withdraw, 4-5 withdraw, 6+ stays. None when no test was rolled."""
    game = ctx.game
    active = str(game.turn.active_side)
    wanted: dict[str, Callable[[], Fact]] = {}
    for cav in ms.table_units(game):
        if not is_cavalry(cav):
            continue
        for other in ms.enemies(game, cav.side):
            if fm.square_like(other, cav.side == active) and ms.gap(game, cav, other) <= ms.NEAR_IN:
                wanted[f"square:{cav.id}:{other.id}"] = bind(ms.contact, game, cav, other)
    facts = ctx.need(wanted)
    squares: dict[str, list[Unit]] = {}
    for key, value in facts.items():
        if value:
            _, cav_id, square_id = key.split(":")
            squares.setdefault(cav_id, []).append(game.unit(square_id))
    if not squares:
        return None
    follow: list[Step] = []
    for cav_id in sorted(squares):
        touched = squares[cav_id]
        modifier = 2 if all(shaken(u) for u in touched) else 0
        if all(u.formation is Formation.COMPANY_COLUMN for u in touched):
            modifier += 2  # VF-152
        face = ctx.roll(1)[0]
        outcome = fm.square_test_outcome(face, modifier)
        ctx.say(
            T(
                "Square test of {unit} (VF-142): die {face}, modifier {modifier}: {outcome}",
                unit=cav_id,
                face=face,
                modifier=f"{modifier:+d}",
                outcome={
                    "loss": T("one casualty and it must withdraw"),
                    "withdraw": T("it must withdraw"),
                    "stay": T("it stays in contact"),
                }[outcome],
            ),
            data={"roll": {"purpose": "square test", "faces": [face], "modifier": modifier}},
        )
        if outcome == "loss":
            take_casualties(ctx, cav_id, 1, shooting=False, winner=False)
        if outcome != "stay" and m.on_table(ctx.game.unit(cav_id)):
            follow.append({"do": "fall_back", "unit": cav_id})  # VF-61, VF-62
    return follow


def _auto(game: GameState, touching: dict[str, list[str]]) -> list[dict[str, JSON]]:
    fights: list[dict[str, JSON]] = []
    used: set[str] = set()
    for a in sorted(touching):
        if a in used:
            continue
        target = sorted(touching[a])[0]
        helpers = [
            s
            for s in sorted(touching)
            if s not in used
            and s != a
            and touching[s] == [target]
            and not in_march_column(game.unit(s))  # VF-83
        ][:3]
        used |= {a, *helpers}
        fights.append({"attacker": a, "target": target, "supporters": list(helpers)})
    return fights


def _explicit(
    ctx: Ctx, fights: list[JSON], touching: dict[str, list[str]]
) -> list[dict[str, JSON]] | None:
    """The sheet's plan, or None (logged) when it breaks VF-71, VF-83, VF-91 or VF-92."""
    assigned: list[str] = []
    out: list[dict[str, JSON]] = []
    problem = None
    for fight in fights:
        assert isinstance(fight, dict)
        a, t = str(fight["attacker"]), str(fight["target"])
        helpers = [str(s) for s in fight.get("supporters") or []]  # type: ignore[union-attr]
        if t not in touching.get(a, []):
            problem = ("VF-71", T("{unit} is not in contact with {target}", unit=a, target=t))
        for s in helpers:
            if touching.get(s) != [t]:
                problem = ("VF-92", T("{unit} cannot support against {target}", unit=s, target=t))
            elif in_march_column(ctx.game.unit(s)):
                problem = ("VF-83", T("{unit} is in march column and cannot support", unit=s))
        assigned += [a, *helpers]
        brigade = fight.get("brigade_supporter")  # VF-93: checked when the fight is reached
        out.append(
            {"attacker": a, "target": t, "supporters": list(helpers), "brigade_supporter": brigade}
        )
    if problem is None and sorted(assigned) != sorted(touching):
        problem = ("VF-71", T("the plan must assign every unit in contact exactly once"))
    if problem is not None:
        ctx.say(
            T(
                "The melee plan is skipped ({rule}: {why}); fights are planned from the contacts",
                rule=problem[0],
                why=problem[1],
            )
        )
        return None
    return out


def _value(
    unit: Unit,
    enemy: Unit,
    sees: bool,
    seen: bool,
    helpers: list[Unit],
    facts: dict[str, JSON],
    striking_back: bool,
    brigade: int = 0,
) -> int:
    """VF-80..VF-93, VF-143, VF-192, VF-210: the melee attack value of `unit` against `enemy`;
    `sees`: the enemy is visible to it; `seen`: it is visible to the enemy; `brigade`: 1 when
    a unit gives it brigade support (VF-93)."""
    if in_march_column(unit):
        return 1  # VF-83: fixed
    rough = facts.get(f"rough:{unit.id}") or facts.get(f"rough:{enemy.id}")
    surrounded = not sees and unit.formation is not Formation.COMPANY_COLUMN  # VF-88, VF-152
    held = unit.occupying is not None or enemy.occupying is not None  # VF-199
    mounted_or_guns = is_cavalry(unit) or is_artillery(unit)
    halvings = surrounded + (1 if (rough or held) and mounted_or_guns else 0)
    adds: list[int] = []
    if is_infantry(unit) and unit.formation is Formation.LINE and sees and unit.stats.ranged:
        adds.append(unit.stats.ranged // 2)  # VF-84, AMB-20
    if is_infantry(unit) and unit.occupying is not None:
        adds.append(1)  # VF-199
    never_flanked = (Formation.SQUARE, Formation.COMPANY_COLUMN)
    if not seen and enemy.formation not in never_flanked and enemy.occupying is None:
        adds.append(1)  # VF-86 (VF-141, VF-152, VF-196: never flanked)
    cover = facts.get("cover:t" if striking_back else "cover:a")
    if fm.melee_bonus(unit, cover not in (None, "none")):
        adds.append(fm.melee_bonus(unit, cover not in (None, "none")))  # VF-141/146/152
    if is_artillery(unit) and enemy.formation in (Formation.MARCH_COLUMN, Formation.ATTACK_COLUMN):
        adds.append(1)  # VF-85
    if has(unit, "kartaetsche") and sees:
        adds.append(2)  # VF-143
    slots = 0
    for h in helpers:
        width = 2 if has(h, "kartaetsche") else 1  # AMB-22
        if slots + width > 3:
            break
        slots += width
        adds.append(1 if h.formation is Formation.OPEN_ORDER else 2)  # VF-91, VF-146
    if brigade:
        adds.append(1)  # VF-93: one brigade supporter at most (AMB-23)
    if striking_back and facts.get(f"wellington:{unit.id}"):
        adds.append(1)  # VF-210
    for rule in ("radetzky", "bluecher", "sir_john_moore"):
        if facts.get(f"{rule}:{unit.id}"):
            adds.append(1)  # VF-214, VF-215, VF-211
    return pipeline(unit.stats.melee, halvings, adds)


def _modifier(unit: Unit, helpers: list[Unit]) -> int:
    """VF-94: +1 when the unit and all supporters have no casualties (AMB-24), -1 when any is
    shaken."""
    group = [unit, *helpers]
    heavy = 1 if all(has(u, "schwere_artillerie") for u in group) else 0  # VF-150
    if any(shaken(u) for u in group):
        return heavy - 1
    return heavy + (1 if all(u.casualties == 0 for u in group) else 0)


def _rerolls(unit: Unit, helpers: list[Unit], target: Unit | None = None) -> bool:
    """VF-153 heavy cavalry (not against a target in a defensible feature, seed L939), VF-154
    Elan (attack column), VF-155 disciplined musketry: reroll natural 1s when every supporter
    shares the rule."""
    heavy = has(unit, "schwere_kavallerie") and all(has(h, "schwere_kavallerie") for h in helpers)
    if heavy and (target is None or target.occupying is None):
        return True
    column = unit.formation is Formation.ATTACK_COLUMN
    if (
        has(unit, "elan")
        and column
        and all(has(h, "elan") and h.formation is Formation.ATTACK_COLUMN for h in helpers)
    ):
        return True
    return has(unit, "disziplinierte_schuetzen") and all(
        has(h, "disziplinierte_schuetzen") for h in helpers
    )


def fight(ctx: Ctx, step: Step) -> list[Step]:
    game = ctx.game
    attacker = game.unit(str(step["attacker"]))
    target = game.unit(str(step["target"]))
    helpers = [game.unit(str(s)) for s in step.get("supporters") or []]  # type: ignore[union-attr]
    if not (m.on_table(attacker) and m.on_table(target)):
        raise Skip(
            "VF-72", T("{unit} or {target} has left the table", unit=attacker.id, target=target.id)
        )
    helpers = [h for h in helpers if m.on_table(h)]
    wanted: dict[str, Callable[[], Fact]] = {
        "a_sees": bind(ms.in_arc, game, attacker, target, "VF-88"),
        "t_sees": bind(ms.in_arc, game, target, attacker, "VF-86"),
        "cover:a": bind(ms.cover, game, attacker),
        "cover:t": bind(ms.cover, game, target),
        "hill:a": bind(ms.higher_on_hill, attacker, target),
        "hill:t": bind(ms.higher_on_hill, target, attacker),
    }
    for u in (attacker, target):
        wanted[f"rough:{u.id}"] = bind(ms.in_rough, game, u)
        nap = napoleon_of(game, u)
        if nap is not None:
            wanted[f"napoleon:{u.id}"] = bind(ms.within, game, nap, u, 12.0, "VF-207")
    cinc = game.leader(m.side_state(game, target.side).cinc)
    british = target.army_list == m.side_state(game, target.side).army_list  # AMB-32
    if "wellington" in cinc.special_rules and is_infantry(target) and british and not cinc.removed:
        wanted[f"wellington:{target.id}"] = bind(ms.within, game, cinc, target, 12.0, "VF-210")
    named, candidates, refused = _brigade_candidates(game, step, attacker, helpers)
    policy = ctx.flow.get("strike_back")  # V-09: the inactive side's standing policy (4.5)
    auto_back = isinstance(policy, dict) and policy.get(target.side) == "auto"
    t_helpers = strike_back_helpers(game, step, attacker, target) if auto_back else []
    t_candidates = _brigade_near(game, step, target, t_helpers) if auto_back else []
    for c in (*candidates, *t_candidates):
        fighter = attacker if c.side == attacker.side else target
        wanted[f"brigade:{c.id}"] = bind(ms.within, game, c, fighter, BRIGADE_SUPPORT_IN, "VF-93")
    supporters = [*helpers, *t_helpers, *candidates, *t_candidates]
    wanted.update(leader_facts(game, [attacker, target], supporters))
    facts = ctx.need(wanted)
    brigade = _brigade_supporter(ctx, named, candidates, refused, attacker, helpers, facts)
    backers = [*helpers, *([brigade] if brigade is not None else [])]  # VF-94 "supporting"
    t_helpers = _keeping(target, [], t_helpers)
    for h in t_helpers:
        ctx.say(
            T(
                "{unit} supports the strike back of {target} (V-09, AMB-15)",
                unit=h.id,
                target=target.id,
            )
        )
    t_brigade = _brigade_supporter(ctx, False, t_candidates, None, target, t_helpers, facts)
    t_backers = [*t_helpers, *([t_brigade] if t_brigade is not None else [])]
    for u in (attacker, target):  # VF-161, AMB-38: before the attack dice
        unpredictable(ctx, u.id)
    attacker, target = ctx.game.unit(attacker.id), ctx.game.unit(target.id)
    a_sees, t_sees = bool(facts["a_sees"]), bool(facts["t_sees"])
    a_value = _value(
        attacker, target, a_sees, t_sees, helpers, facts, False, brigade=len(backers) - len(helpers)
    )
    t_value = _value(
        target,
        attacker,
        t_sees,
        a_sees,
        t_helpers,
        facts,
        True,
        brigade=len(t_backers) - len(t_helpers),
    )
    a_value += fate.melee_bonus(ctx, attacker)  # cards A, Q (VF-222)
    t_value += fate.melee_bonus(ctx, target)
    a_faces, a_hits = _hit_tests(
        ctx,
        attacker,
        a_value,
        _modifier(attacker, backers),
        _rerolls(attacker, backers, target),
        facts,
    )
    t_faces, t_hits = _hit_tests(
        ctx,
        target,
        t_value,
        _modifier(target, t_backers),
        _rerolls(target, t_backers, attacker),
        facts,
    )
    ctx.say(
        T(
            "Melee: {unit} attacks {target} with {dice} dice: {faces}, {hits} hits",
            unit=attacker.id,
            target=target.id,
            dice=a_value,
            faces=" ".join(map(str, a_faces)),
            hits=a_hits,
        ),
        data={"roll": {"purpose": "melee attack", "faces": list[JSON](a_faces)}},
    )
    ctx.say(
        T(
            "{target} strikes back with {dice} dice: {faces}, {hits} hits",
            target=target.id,
            dice=t_value,
            faces=" ".join(map(str, t_faces)),
            hits=t_hits,
        ),
        data={"roll": {"purpose": "strike back", "faces": list[JSON](t_faces)}},
    )
    a_hits += double_hits(a_faces, _modifier(attacker, backers), _double(attacker))  # VF-170
    t_hits += double_hits(t_faces, _modifier(target, t_backers), _double(target))  # VF-171
    a_total = a_hits + _bagration(facts, [attacker, *backers])  # VF-217
    t_total = t_hits + _bagration(facts, [target, *t_backers])
    attacker_wins = winner_is_attacker(a_total, t_total, facts)
    win, lose = (attacker, target) if attacker_wins else (target, attacker)
    ctx.say(T("{unit} wins the fight (VF-73)", unit=win.id))
    # VF-74: casualties, then morale tests; winners take none (VF-105)
    held = attacker.occupying or target.occupying  # VF-200: no auto flight, no falling back
    auto = None if held else _auto_flight(lose, win, helpers if lose is target else t_helpers)
    for unit, hits in ((target, a_hits), (attacker, t_hits)):
        if unit is lose and auto is not None:
            flee(ctx, unit.id, auto)  # VF-106: without a morale test
        else:
            bonus = _bonus(facts, unit)
            take_casualties(ctx, unit.id, hits, shooting=False, winner=unit is win, bonus=bonus)
    for u in (attacker, target):
        flags = replace(
            ctx.game.unit(u.id).turn_flags, attacked_this_phase=True, won_melee_this_phase=u is win
        )
        ctx.game = m.with_unit(ctx.game, replace(ctx.game.unit(u.id), turn_flags=flags))
    for u in (*backers, *t_backers):  # VF-81, VF-89: support once per phase
        flags = replace(ctx.game.unit(u.id).turn_flags, supported_this_phase=True)
        ctx.game = m.with_unit(ctx.game, replace(ctx.game.unit(u.id), turn_flags=flags))
    follow: list[Step] = []
    losers = [lose, *(helpers if lose is attacker else t_helpers)]
    for u in losers:  # VF-75, AMB-19: every losing cavalry unit
        if is_cavalry(u) and m.on_table(ctx.game.unit(u.id)) and not held:
            follow.append({"do": "fall_back", "unit": u.id})
    if lose is target and target.occupying and not m.on_table(ctx.game.unit(target.id)):
        answer = str(sheet(ctx).get("occupy_after_melee") or "no")  # V-12
        occ.occupy_after_melee(ctx, attacker, target.occupying, answer)  # VF-200
    gone = not m.on_table(ctx.game.unit(lose.id)) or {"do": "fall_back", "unit": lose.id} in follow
    follow += relentless.follow(ctx.game, ctx.game.unit(win.id), gone, step)  # VF-163, V-13
    return follow


BRIGADE_SUPPORT_IN = 3.0  # VF-93


def brigade_refusal(game: GameState, unit: Unit, attacker: Unit, contacts: JSON) -> str | None:
    """Why `unit` cannot give `attacker` brigade support (VF-93), apart from the 3 in (a fact);
    `contacts`: the active units in contact with enemies when the fights were planned."""
    if unit.side != attacker.side or unit.brigade != attacker.brigade or unit.id == attacker.id:
        return T("{unit} is not of the fighting unit's brigade", unit=unit.id)
    if not m.on_table(unit):
        return T("{unit} is not on the table", unit=unit.id)
    if _touching(unit.id, contacts):
        return T("{unit} is in contact with an enemy unit", unit=unit.id)
    if unit.turn_flags.attacked_this_phase or unit.turn_flags.supported_this_phase:
        return T("{unit} has already fought or supported this phase (VF-81)", unit=unit.id)
    if in_march_column(unit):
        return T("{unit} is in march column and cannot support", unit=unit.id)  # VF-83
    return None


def _brigade_candidates(
    game: GameState, step: Step, attacker: Unit, helpers: list[Unit]
) -> tuple[bool, list[Unit], str | None]:
    """(named, candidates, refusal): the sheet's named brigade supporter (an explicit plan;
    None there: no brigade support), or, for the auto plan, every eligible unit of the
    attacker's brigade near enough to be within 3 in. Only these are measured."""
    if "brigade_supporter" in step:
        name = step["brigade_supporter"]
        if name is None:
            return True, [], None
        found = next((u for u in game.units if u.id == name), None)
        if found is None:
            return True, [], T("{unit} is not a unit", unit=name)
        why = brigade_refusal(game, found, attacker, step.get("contacts"))
        return True, ([] if why else [found]), why
    return False, _brigade_near(game, step, attacker, helpers), None


def _brigade_near(game: GameState, step: Step, fighter: Unit, helpers: list[Unit]) -> list[Unit]:
    """The eligible units of `fighter`'s brigade near enough to be within 3 in, by id."""
    taken = {h.id for h in helpers}
    near = [
        u
        for u in game.units
        if u.id not in taken
        and brigade_refusal(game, u, fighter, step.get("contacts")) is None
        and ms.gap(game, u, fighter) <= BRIGADE_SUPPORT_IN + ms.NEAR_IN
    ]
    return sorted(near, key=lambda u: u.id)


def _touching(unit_id: str, contacts: JSON) -> bool:
    """Whether the unit was in contact with an enemy when the fights were planned (`contacts`:
    each active unit in contact -> the enemy units it touches)."""
    if not isinstance(contacts, dict):
        return False
    return unit_id in contacts or any(
        isinstance(es, list) and unit_id in es for es in contacts.values()
    )


def strike_back_helpers(game: GameState, step: Step, attacker: Unit, target: Unit) -> list[Unit]:
    """V-09 `auto` (AMB-15), VF-91, VF-92: the target's side's units in contact with the
    attacking unit and with no other enemy unit, on the table, not in march column (VF-83),
    not yet fought or supported this phase (VF-81), by id."""
    contacts = step.get("contacts")
    if not isinstance(contacts, dict):
        return []
    touching = contacts.get(attacker.id)
    out = []
    for uid in sorted(str(e) for e in touching) if isinstance(touching, list) else []:
        unit = game.unit(uid)
        others = [a for a, es in contacts.items() if isinstance(es, list) and uid in es]
        flags = unit.turn_flags
        if (
            uid == target.id
            or others != [attacker.id]
            or not m.on_table(unit)
            or in_march_column(unit)
            or flags.attacked_this_phase
            or flags.supported_this_phase
        ):
            continue
        out.append(unit)
    return out


def _keeping(unit: Unit, chosen: list[Unit], candidates: list[Unit]) -> list[Unit]:
    """Candidates added one by one while each keeps VF-94's modifier and the rerolls, within
    the 3 support slots (a Kartätsche supporter takes 2, AMB-22)."""
    slots = sum(2 if has(h, "kartaetsche") else 1 for h in chosen)
    for c in candidates:
        width = 2 if has(c, "kartaetsche") else 1
        with_c = [*chosen, c]
        keeps = _modifier(unit, with_c) >= _modifier(unit, chosen) and (
            _rerolls(unit, with_c) or not _rerolls(unit, chosen)
        )
        if keeps and slots + width <= 3:
            chosen, slots = with_c, slots + width
    return chosen


def _brigade_supporter(
    ctx: Ctx,
    named: bool,
    candidates: list[Unit],
    refused: str | None,
    attacker: Unit,
    helpers: list[Unit],
    facts: dict[str, JSON],
) -> Unit | None:
    """VF-93, AMB-23: the one brigade supporter of the attacking unit, logged."""
    chosen = None
    for c in candidates:
        if not facts.get(f"brigade:{c.id}"):
            if named:
                refused = T(
                    "{unit} is not within 3 in of {attacker}", unit=c.id, attacker=attacker.id
                )
            continue
        keeps = _modifier(attacker, [*helpers, c]) >= _modifier(attacker, helpers) and (
            _rerolls(attacker, [*helpers, c]) or not _rerolls(attacker, helpers)
        )
        if named or keeps:
            chosen = c
            break
    if refused is not None:
        ctx.say(T("Brigade support is skipped (VF-93): {why}", why=refused))
    if chosen is not None:
        ctx.say(
            T(
                "{unit} gives {attacker} brigade support: +1 die (VF-93)",
                unit=chosen.id,
                attacker=attacker.id,
            )
        )
    return chosen


# named general -> (reach in inches, rule id, whether it concerns the unit): VF-208, VF-214,
# VF-215, VF-217 (units of the host list only, AMB-32)
LEADERS: dict[str, tuple[float, str, Callable[[Unit], bool]]] = {
    "ney": (3.0, "VF-208", lambda u: True),
    "radetzky": (6.0, "VF-214", is_infantry),
    "bluecher": (12.0, "VF-215", lambda u: u.turn_flags.charged_this_round),
    "bagration": (12.0, "VF-217", lambda u: True),
    "sir_john_moore": (12.0, "VF-211", lambda u: True),  # the attacker only
}


def leader_facts(
    game: GameState, fighters: list[Unit], supporters: list[Unit]
) -> dict[str, Callable[[], Fact]]:
    """The distances to the named generals whose rules concern these units: fighters for all
    of them, supporters for Bagration's (VF-217: units that fought or supported)."""
    wanted: dict[str, Callable[[], Fact]] = {}
    for unit in (*fighters, *supporters):
        state = m.side_state(game, unit.side)
        cinc = game.leader(state.cinc)
        if cinc.removed or unit.army_list != state.army_list:
            continue
        for rule in cinc.special_rules:
            found = LEADERS.get(rule)
            if found is None or (unit not in fighters and rule != "bagration"):
                continue
            if rule == "sir_john_moore" and unit is not fighters[0]:
                continue  # VF-211: units that make an attack in their melee phase
            reach, vf, concerns = found
            if concerns(unit):
                wanted[f"{rule}:{unit.id}"] = bind(ms.within, game, cinc, unit, reach, vf)
    return wanted


def _hit_tests(
    ctx: Ctx, unit: Unit, dice: int, modifier: int, reroll: bool, facts: dict[str, JSON]
) -> tuple[list[int], int]:
    """VF-94 with the fate cards (card 6); a French unit within 3 in of Ney rerolls every failed
    die not yet rerolled (VF-208, VF-T40), so card 6 finds nothing left to reroll."""
    if not facts.get(f"ney:{unit.id}"):
        return fate.hit_tests(ctx, unit, dice, modifier, reroll)
    faces, hits = hit_tests(ctx.roll, dice, modifier, reroll, reroll_failed=True)
    ctx.say(T("Ney: the failed melee dice of {unit} are rerolled (VF-208)", unit=unit.id))
    return faces, hits


def _double(unit: Unit) -> int:
    """VF-170 Pistolen: 6+ causes 2 casualties; VF-171 Schnellfeuer: 5+ (the enemy in contact
    is within 12 in); 7: never."""
    return 5 if has(unit, "schnellfeuer") else 6 if has(unit, "pistolen") else 7


def _bagration(facts: dict[str, JSON], units: list[Unit]) -> int:
    """VF-217: +1 to the Russian result when a unit that fought or supported is within 12 in."""
    return 1 if any(facts.get(f"bagration:{u.id}") for u in units) else 0


def winner_is_attacker(a_hits: int, t_hits: int, facts: dict[str, JSON]) -> bool:
    """VF-73, AMB-17: more casualties caused wins; on a tie exactly one claimant (cover, not
    countered by cover or elevation; elevation against a target not in cover) wins, else the
    active side (the attacker)."""
    if a_hits != t_hits:
        return a_hits > t_hits
    a_cover, t_cover = facts["cover:a"] != "none", facts["cover:t"] != "none"
    a_hill, t_hill = bool(facts["hill:a"]), bool(facts["hill:t"])
    a_claim = (a_cover and not (t_cover or t_hill)) or (a_hill and not t_cover)
    t_claim = (t_cover and not (a_cover or a_hill)) or (t_hill and not a_cover)
    return not (t_claim and not a_claim)


def _auto_flight(loser: Unit, winner: Unit, winner_helpers: list[Unit]) -> str | None:
    """VF-106, AMB-25: a losing artillery unit, or infantry beaten by cavalry (the unit that
    attacked it or one of its supporters), flees without a morale test (no occupied features:
    VF-200 never applies)."""
    if is_artillery(loser):
        return T("artillery lost a melee (VF-106)")
    if loser.formation is Formation.SQUARE:
        return T("a square lost a melee (VF-141)")
    if is_infantry(loser) and any(is_cavalry(u) for u in (winner, *winner_helpers)):
        return T("infantry lost a melee against cavalry (VF-106)")
    return None


def _bonus(facts: dict[str, JSON], unit: Unit) -> int:
    return 1 if facts.get(f"napoleon:{unit.id}") else 0  # VF-207


def fall_back(ctx: Ctx, unit_id: str) -> None:
    """VF-75, VF-61, VF-62: the losing cavalry withdraws (the umpire confirms the place); with
    no legal place it flees."""
    unit = ctx.game.unit(unit_id)
    if not m.on_table(unit):
        raise Skip("VF-75", T("{unit} is not on the table", unit=unit_id))
    facts = ctx.need({"place": bind(ms.withdraw_offset, ctx.game, unit, float(allowance(unit)))})
    place = facts["place"]
    if not isinstance(place, list):
        flee(ctx, unit_id, T("it cannot make its forced withdraw (VF-62)"))
        return
    dx, dy = offset(place)
    ctx.game = m.with_unit(ctx.game, ms.moved(unit, dx, dy))
    ctx.say(T("{unit} falls back (VF-75) to offset ({dx}, {dy})", unit=unit_id, dx=dx, dy=dy))
