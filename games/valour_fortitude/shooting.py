"""The shooting phase (digest 3.7, VF-40..VF-46), one order of the sheet at a time: checks,
the facts for the umpire, the ranged attack value (VF-80..VF-90), hit tests (VF-94),
casualties and morale tests (VF-95, VF-104)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude import fate
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.formations import FIRING, ranged_halved, shooting_casualties
from games.valour_fortitude.morale import take_casualties
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Leader, Unit
from games.valour_fortitude.values import (
    double_hits,
    has,
    in_march_column,
    is_artillery,
    is_cavalry,
    is_infantry,
    pipeline,
    shaken,
)


def skirmisher(unit: Unit) -> bool:
    """VF-144, VF-147: skirmishers, and light infantry has them."""
    return has(unit, "plaenkler") or has(unit, "leichte_infanterie")


def fire_profile(unit: Unit, mode: str) -> tuple[int, int, int] | None:
    """(ranged value, range, halvings) of a mode, None when the unit cannot fire so."""
    if mode == "carbine":
        return (1, 12, 1) if has(unit, "karabiner") else None  # VF-145
    if unit.stats.ranged is None or unit.stats.range_in is None:
        return None
    if mode == "skirmish":
        return (unit.stats.ranged, unit.stats.range_in + 6, 1) if skirmisher(unit) else None
    return unit.stats.ranged, unit.stats.range_in, 0


def can_fire(unit: Unit) -> str | None:
    """Why a unit cannot fire or support now (VF-41.1, VF-41.4, VF-83), None when it can."""
    if not m.on_table(unit):
        return T("{unit} is not on the table", unit=unit.id)
    if in_march_column(unit):
        return T("{unit} is in march column (VF-83)", unit=unit.id)
    if unit.turn_flags.fired or unit.turn_flags.supported_fire:
        return T("{unit} has already fired or supported this phase", unit=unit.id)
    if unit.formation not in FIRING:  # VF-141, VF-146, VF-152: these formations fire too
        return T("{unit} is in a formation that is not built", unit=unit.id)
    return None


def shoot(ctx: Ctx, shot: dict[str, JSON]) -> None:
    game = ctx.game
    active = str(game.turn.active_side)
    attacked = ctx.flow.setdefault("attacked", [])
    assert isinstance(attacked, list)
    target = game.unit(str(shot["target"]))
    firer = game.unit(str(shot["firer"]))
    mode = str(shot.get("mode") or "full")
    helpers = [game.unit(str(s)) for s in shot.get("supporters") or []]  # type: ignore[union-attr]
    if not m.on_table(target):
        raise Skip("VF-40", T("{unit} is not on the table", unit=target.id))
    if target.id in attacked:
        raise Skip("VF-40", T("{unit} has already been attacked this phase", unit=target.id))
    for unit in (firer, *helpers):
        why = can_fire(unit)
        if why is not None:
            raise Skip("VF-41", why)
    profile = fire_profile(firer, mode)
    if profile is None:
        raise Skip("VF-41", T("{unit} cannot fire in mode {mode}", unit=firer.id, mode=mode))
    ranged, _reach, halving = profile
    helper_profiles = [fire_profile(h, mode) for h in helpers]
    if any(p is None for p in helper_profiles):
        raise Skip("VF-144", T("every supporter fires in the same mode (AMB-35)"))
    wanted: dict[str, Callable[[], Fact]] = {}
    friends = [u for u in ms.table_units(game) if u.side == active]
    for f in friends:
        if ms.gap(game, f, target) <= ms.NEAR_IN:
            wanted[f"contact:{f.id}:{target.id}"] = bind(ms.contact, game, f, target)
    for unit, (_, rng_in, _) in zip((firer, *helpers), (profile, *helper_profiles), strict=True):  # type: ignore[misc]
        for e in ms.enemies(game, active):
            if ms.gap(game, unit, e) <= ms.NEAR_IN:
                wanted[f"contact:{unit.id}:{e.id}"] = bind(ms.contact, game, unit, e)
        wanted[f"range:{unit.id}"] = bind(ms.in_range, game, unit, target, rng_in)
        if not has(unit, "raketen"):  # VF-162: the target need not be the nearest
            wanted[f"nearest:{unit.id}"] = bind(ms.nearest_visible, game, unit, target, attacked)
        nap = napoleon_of(game, unit) if is_artillery(unit) else None
        if nap is not None:  # VF-207: his artillery needs only sight and range
            wanted[f"napoleon:{unit.id}"] = bind(ms.within, game, nap, unit, 12.0, "VF-207")
    wanted[f"half_sees:{firer.id}"] = bind(ms.half_front_rank_sees, game, firer, target, "VF-87")
    for h in helpers:
        wanted[f"half_sees:{h.id}"] = bind(ms.half_front_rank_sees, game, h, target, "VF-90")
    wanted["cover"] = bind(ms.cover, game, target)
    if has(firer, "schnellfeuer"):
        wanted[f"rapid12:{firer.id}"] = bind(ms.within, game, firer, target, 12.0, "VF-171")
    for unit in (firer, *helpers):
        if has(unit, "kartaetsche"):
            wanted[f"within12:{unit.id}"] = bind(ms.within, game, unit, target, 12.0, "VF-143")
    napoleon = napoleon_of(game, target)
    if napoleon is not None:
        wanted["napoleon"] = bind(ms.within, game, napoleon, target, 12.0, "VF-207")
    facts = ctx.need(wanted)
    shooters = {firer.id, *(h.id for h in helpers)}
    for key, value in facts.items():
        if key.startswith("contact:") and value:
            _, a, b = key.split(":")
            if a in shooters:
                raise Skip("VF-41", T("{unit} is in contact with an enemy unit", unit=a))
            raise Skip("VF-40", T("{unit} is in contact with a friendly unit", unit=b))
    for unit in (firer, *helpers):
        if not facts[f"range:{unit.id}"]:
            raise Skip(
                "VF-42", T("{target} is out of range of {unit}", target=target.id, unit=unit.id)
            )
        exempt = has(unit, "raketen") or bool(facts.get(f"napoleon:{unit.id}"))
        if not exempt and not facts[f"nearest:{unit.id}"]:
            raise Skip(
                "VF-41",
                T(
                    "{target} is not the nearest visible enemy of {unit}",
                    target=target.id,
                    unit=unit.id,
                ),
            )
    for h in helpers:
        if not facts[f"half_sees:{h.id}"]:
            raise Skip(
                "VF-90", T("less than half of {unit}'s front rank sees the target", unit=h.id)
            )
    # VF-2 pipeline: halvings (attack column VF-83, obscured VF-87, skirmish VF-144/145)
    halvings = halving + (firer.formation is Formation.ATTACK_COLUMN)
    halvings += 0 if facts[f"half_sees:{firer.id}"] else 1
    halvings += ranged_halved(firer)  # VF-141 square, VF-146 open order 3-4 deep, VF-152
    adds: list[int] = []
    if has(firer, "kartaetsche") and facts.get(f"within12:{firer.id}"):
        adds.append(1)  # VF-143
    shells = 2 if has(firer, "granaten") else 1  # VF-169: 2 instead of 1
    if is_artillery(firer) and target.formation in (
        Formation.MARCH_COLUMN,
        Formation.ATTACK_COLUMN,
    ):
        adds.append(shells)  # VF-85
    if is_artillery(firer) and target.formation is Formation.SQUARE:
        adds.append(shells)  # VF-141
    if has(firer, "granaten") and facts["cover"] == "hard":
        adds.append(1)  # VF-169
    for h in helpers:
        adds.append(2 if has(h, "kartaetsche") and facts.get(f"within12:{h.id}") else 1)  # VF-90
    shot_index = ctx.flow.get("shot")
    adds.append(fate.ranged_bonus(ctx, firer, shot_index if isinstance(shot_index, int) else -1))
    dice = pipeline(ranged, halvings, adds)
    cover = str(facts["cover"])
    modifier = -1 if any(shaken(u) for u in (firer, *helpers)) else 0  # VF-94, VF-101
    modifier -= {"none": 0, "soft": 1, "hard": 2}[cover]  # VF-188
    modifier += special_modifier(firer, helpers)  # VF-150, VF-162
    if has(target, "veteran") and target.formation is Formation.OPEN_ORDER:
        modifier -= 1  # VF-173
    reroll = has(firer, "disziplinierte_schuetzen") and all(
        has(h, "disziplinierte_schuetzen") for h in helpers
    )  # VF-155
    faces, hits = fate.hit_tests(ctx, firer, dice, modifier, reroll)  # card 6
    hits += double_hits(faces, modifier, double_threshold(firer, target, facts))  # VF-170/171
    ctx.say(
        T(
            "{unit} fires ({mode}) at {target}: {dice} dice {modifier}: {faces}, {hits} hits",
            unit=firer.id,
            mode=mode,
            target=target.id,
            dice=dice,
            modifier=f"{modifier:+d}",
            faces=" ".join(str(f) for f in faces),
            hits=hits,
        ),
        data={
            "roll": {"purpose": "ranged attack", "faces": list[JSON](faces), "modifier": modifier}
        },
    )
    hits, halved_by = shooting_casualties(target, hits, cover != "none")  # VF-146, VF-147
    if halved_by == "VF-147":  # AMB-4: never below 1
        ctx.say(
            T("{unit} is light infantry in cover: casualties halved to {n}", unit=target.id, n=hits)
        )
    elif halved_by:
        ctx.say(T("{unit} is in open order: casualties halved to {n}", unit=target.id, n=hits))
    attacked.append(target.id)
    skirmish = mode != "full"
    flags = replace(firer.turn_flags, fired=True, skirmish_fired=skirmish)
    ctx.game = m.with_unit(ctx.game, replace(firer, turn_flags=flags))
    for h in helpers:
        h = ctx.game.unit(h.id)
        flags = replace(h.turn_flags, supported_fire=True, skirmish_fired=skirmish)
        ctx.game = m.with_unit(ctx.game, replace(h, turn_flags=flags))
    bonus = 1 if facts.get("napoleon") else 0
    take_casualties(ctx, target.id, hits, shooting=True, winner=False, bonus=bonus)


def double_threshold(unit: Unit, target: Unit, facts: dict[str, JSON]) -> int:
    """The roll from which a hit causes 2 casualties: 6 with Pistolen (VF-170) or Schnellfeuer
    (VF-171), 5 with Schnellfeuer against a target within 12 in, cavalry, or infantry in square,
    march column or attack column; 7 (never) otherwise."""
    if has(unit, "schnellfeuer"):
        close = bool(facts.get(f"rapid12:{unit.id}")) or is_cavalry(target)
        columns = (Formation.SQUARE, Formation.MARCH_COLUMN, Formation.ATTACK_COLUMN)
        close = close or (is_infantry(target) and target.formation in columns)
        return 5 if close else 6
    return 6 if has(unit, "pistolen") else 7


def special_modifier(unit: Unit, helpers: list[Unit]) -> int:
    """The hit-roll modifiers of special rules: heavy artillery +1 when the attacker and all
    supporters have it (VF-150); rockets -1 when any of them has it (VF-162, AMB-39)."""
    heavy = all(has(u, "schwere_artillerie") for u in (unit, *helpers))
    rockets = any(has(u, "raketen") for u in (unit, *helpers))
    return (1 if heavy else 0) - (1 if rockets else 0)


def napoleon_of(game: GameState, unit: Unit) -> Leader | None:
    """VF-207: Napoleon, when he leads the unit's army, the unit is French (of the army's own
    list, not an allied contingent: AMB-32) and he is on the table."""
    state = m.side_state(game, unit.side)
    cinc = game.leader(state.cinc)
    french = unit.army_list == state.army_list
    return cinc if "napoleon" in cinc.special_rules and french and not cinc.removed else None


def bind(fn: Callable[..., Fact], *args: object) -> Callable[[], Fact]:  # type: ignore[explicit-any]
    """`fn(*args)` for later: a fact is proposed only when it is missing."""
    return lambda: fn(*args)
