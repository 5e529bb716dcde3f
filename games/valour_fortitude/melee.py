"""The melee phase (digest 3.9-3.10, VF-70..VF-95): the plan of fights (VF-70, VF-71), each fight
with the strike back (VF-72), the result and its tie-breaks (VF-73), casualties and morale
(VF-74, VF-105), automatic flight (VF-106) and cavalry falling back (VF-75, VF-62).

Not built: square tests (VF-142, no unit can form square), support of the strike back (AMB-15:
the missed V-09 default, no supporters, always applies), brigade support (VF-93, refused in an
explicit plan), relentless charges (VF-163, logged when they would arise), occupation after a
melee (VF-200, V-12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.command import Step, sheet
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.morale import flee, take_casualties
from games.valour_fortitude.shooting import Skip, bind, napoleon_of
from games.valour_fortitude.state import Formation, GameState, Unit, exact
from games.valour_fortitude.values import (
    allowance,
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
        out.append({"attacker": a, "target": t, "supporters": list(helpers)})
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
) -> int:
    """VF-80..VF-93, VF-143, VF-192, VF-210: the melee attack value of `unit` against `enemy`;
    `sees`: the enemy is visible to it; `seen`: it is visible to the enemy."""
    if in_march_column(unit):
        return 1  # VF-83: fixed
    rough = facts.get(f"rough:{unit.id}") or facts.get(f"rough:{enemy.id}")
    halvings = (0 if sees else 1) + (1 if rough and (is_cavalry(unit) or is_artillery(unit)) else 0)
    adds: list[int] = []
    if is_infantry(unit) and unit.formation is Formation.LINE and sees and unit.stats.ranged:
        adds.append(unit.stats.ranged // 2)  # VF-84, AMB-20
    if not seen and enemy.formation is not Formation.SQUARE:
        adds.append(1)  # VF-86
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
        adds.append(2)  # VF-91
    if striking_back and facts.get(f"wellington:{unit.id}"):
        adds.append(1)  # VF-210
    return pipeline(unit.stats.melee, halvings, adds)


def _modifier(unit: Unit, helpers: list[Unit]) -> int:
    """VF-94: +1 when the unit and all supporters have no casualties (AMB-24), -1 when any is
    shaken."""
    group = [unit, *helpers]
    if any(shaken(u) for u in group):
        return -1
    return 1 if all(u.casualties == 0 for u in group) else 0


def _rerolls(unit: Unit, helpers: list[Unit]) -> bool:
    """VF-153 heavy cavalry, VF-154 Elan (attack column), VF-155 disciplined musketry: reroll
    natural 1s when every supporter shares the rule."""
    if has(unit, "schwere_kavallerie") and all(has(h, "schwere_kavallerie") for h in helpers):
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
    facts = ctx.need(wanted)
    a_sees, t_sees = bool(facts["a_sees"]), bool(facts["t_sees"])
    a_value = _value(attacker, target, a_sees, t_sees, helpers, facts, False)
    t_value = _value(target, attacker, t_sees, a_sees, [], facts, True)
    a_faces, a_hits = hit_tests(
        ctx.roll, a_value, _modifier(attacker, helpers), _rerolls(attacker, helpers)
    )
    t_faces, t_hits = hit_tests(ctx.roll, t_value, _modifier(target, []), _rerolls(target, []))
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
    attacker_wins = winner_is_attacker(a_hits, t_hits, facts)
    win, lose = (attacker, target) if attacker_wins else (target, attacker)
    ctx.say(T("{unit} wins the fight (VF-73)", unit=win.id))
    # VF-74: casualties, then morale tests; winners take none (VF-105)
    auto = _auto_flight(lose, win, helpers if lose is target else [])
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
    follow: list[Step] = []
    losers = [lose, *(helpers if lose is attacker else [])]
    for u in losers:  # VF-75, AMB-19: every losing cavalry unit
        if is_cavalry(u) and m.on_table(ctx.game.unit(u.id)):
            follow.append({"do": "fall_back", "unit": u.id})
    if not m.on_table(ctx.game.unit(lose.id)) and has(win, "unnachgiebig"):
        ctx.say(T("{unit} could make a relentless charge: not built (VF-163)", unit=win.id))
    return follow


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
    dx, dy = (exact(Decimal(str(v))) for v in place)
    ctx.game = m.with_unit(ctx.game, ms.moved(unit, dx, dy))
    ctx.say(T("{unit} falls back (VF-75) to offset ({dx}, {dy})", unit=unit_id, dx=dx, dy=dy))
