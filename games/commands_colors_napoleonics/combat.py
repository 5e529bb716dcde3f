"""Phase 4: battles (digest 3.6-3.15 and the melee state machine 4.2): declaring a ranged
combat or a melee, the roll, hits on blocks, the leader casualty check, flags and retreats,
leader retreats with escape, taking ground and breakthrough, the bonus melee and the battle
back. Each decision of digest 4.1 is an open decision (`state.pending`) of the deciding side;
`state.combat` holds where the battle stands while it waits (its `stage`).

Combined arms (CCN-137..145, also in a bonus melee), squares, retire and reform and First Strike
are built; artillery ranged fire needs the unknown table (GAP-1) and is refused with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from games.commands_colors_napoleonics.card_effects import card_bonus
from games.commands_colors_napoleonics.combat_dice import (
    ArtilleryTable,
    Attacker,
    Battle,
    BattleNotAllowed,
    CardBonus,
    DiceCount,
    DiceOptions,
    UnknownDiceData,
    battle_dice,
    escape_dice,
    leader_check_dice,
    leader_check_hit,
    lone_leader_eliminated,
    score,
)
from games.commands_colors_napoleonics.deck import (
    from_square_track,
    play,
    square_card_possible,
    to_square_track,
)
from games.commands_colors_napoleonics.dice import Face
from games.commands_colors_napoleonics.hexes import Hex, distance, side_towards
from games.commands_colors_napoleonics.illegal import Illegal, require
from games.commands_colors_napoleonics.line_of_sight import line_of_sight
from games.commands_colors_napoleonics.nations import nations_named
from games.commands_colors_napoleonics.orders import acting, effect_of, may_battle_after
from games.commands_colors_napoleonics.retreat import (
    flag_allowance,
    leader_options,
    losses_of,
    unit_paths,
)
from games.commands_colors_napoleonics.rolls import current_rng, roll_for
from games.commands_colors_napoleonics.state import GameState, Unit, hex_json, hex_of, other
from games.commands_colors_napoleonics.terrain import Combat, UnitClass
from games.commands_colors_napoleonics.victory import gain, refresh
from games.commands_colors_napoleonics.world import (
    across_works,
    adjacent_enemies,
    attached,
    leader_at,
    occupant_map,
    scen,
    sight,
    terrain_dice,
    unit_at,
    unit_class,
    unit_profile,
)
from games.core.i18n import T
from games.core.protocol import JSON


def _table(state: GameState) -> ArtilleryTable:
    return _table_of(scen(state).ruleset)


@cache
def _table_of(ruleset: str) -> ArtilleryTable:
    return ArtilleryTable.from_nations(nations_named(ruleset).artillery_range_table)


def dice_for(
    state: GameState,
    att: Unit,
    target_hex: Hex,
    target_cls: UnitClass | None,
    melee: bool,
    *,
    back: bool = False,
    bonus: bool = False,
) -> DiceCount:
    """The dice `att` rolls (CCN-67); Illegal naming the rule or gap when it cannot battle."""
    combat = Combat.MELEE if melee else Combat.RANGED
    cls = unit_class(att)
    s = scen(state)
    for h in (att.hex, target_hex):
        kind = s.terrain_at(h).kind
        require(kind.battle_allowed, "CCN-161", T("no battle into or out of {hex}", hex=str(h)))
        if melee:
            require(kind.melee_allowed, "CCN-172", T("no melee into or out of {hex}", hex=str(h)))
    moved = 0 if back else state.turn.moved.get(att.id, 0)
    card = CardBonus()
    eff = effect_of(acting(state))
    if not back and eff is not None and att.id in state.turn.orders:
        card = card_bonus(
            eff,
            unit_type=att.type,
            unit_class=cls,
            combat=combat,
            moved=moved,
            bonus_melee=bonus,
            fallback=state.turn.fallback,
            options=s.options,
        )
    target = unit_at(state, target_hex)
    battle = Battle(
        combat,
        target_cls,
        distance(att.hex, target_hex),
        target_in_square=target is not None and target.in_square is not None,  # CCN-127
        battle_back=back,
        terrain=terrain_dice(state, att.hex, target_hex, cls, combat),
        card=card,
    )
    try:
        return battle_dice(
            Attacker(unit_profile(state, att), att.blocks, moved, att.in_square is not None),
            battle,
            table=_table(state),
            options=DiceOptions.of(s.options),
        )
    except BattleNotAllowed as e:
        raise Illegal(e.rule, e.message) from None
    except UnknownDiceData as e:
        raise Illegal(
            e.gap,
            T(
                "{what} is unknown ({gap}): the engine refuses rather than guess",
                what=e.what,
                gap=e.gap,
            ),
        ) from None


# --- declaring (D-08) ----------------------------------------------------------------------


def check_declaration(
    state: GameState, side: str, payload: Mapping[str, JSON]
) -> tuple[Unit, str, bool, DiceCount]:
    """A battle the active player may declare now: (unit, target id, melee, dice)."""
    uid, tid, kind = payload.get("unit"), payload.get("target"), payload.get("combat")
    require(isinstance(uid, str) and isinstance(tid, str), "schema", T("unit and target are ids"))
    require(kind in ("melee", "ranged"), "schema", T("combat is melee or ranged"), "/combat")
    assert isinstance(uid, str)
    assert isinstance(tid, str)
    melee = kind == "melee"
    att = state.units.get(uid)
    require(
        att is not None and att.side == side,
        "CCN-42",
        T("{id} is not one of your units", id=uid[:40]),
        "/unit",
    )
    assert att is not None
    require(uid in state.turn.orders, "CCN-12", T("{id} has no order", id=uid), "/unit")
    require(
        uid not in state.turn.battled, "CCN-44", T("{id} has battled this turn", id=uid), "/unit"
    )
    require(
        uid not in state.turn.no_battle,
        "CCN-152",
        T("{id} entered terrain this turn that forbids battle", id=uid),
        "/unit",
    )
    why = may_battle_after(state, uid, melee)
    if why is not None:
        raise Illegal(why, T("{id} may not battle so after its move", id=uid), "/unit")
    tu, tl = state.units.get(tid), state.leaders.get(tid)
    if tu is not None:
        require(tu.side != side, "CCN-50", T("{id} is not an enemy unit", id=tid), "/target")
        th, tcls = tu.hex, unit_class(tu)
    else:
        require(
            tl is not None and tl.side != side,
            "CCN-50",
            T("{id} is not an enemy piece", id=tid[:40]),
            "/target",
        )
        assert tl is not None
        require(
            melee, "CCN-54", T("a lone leader cannot be the target of ranged combat"), "/target"
        )
        require(
            unit_at(state, tl.hex) is None,
            "CCN-59",
            T("{id} is with a unit: attack the unit", id=tid),
            "/target",
        )
        th, tcls = tl.hex, None
    if melee:
        require(
            distance(att.hex, th) == 1, "CCN-59", T("a melee target must be adjacent"), "/target"
        )
    else:
        require(
            not adjacent_enemies(state, att.hex, side),
            "CCN-46",
            T("a unit next to an enemy unit may not use ranged combat"),
            "/combat",
        )
        require(distance(att.hex, th) >= 2, "CCN-46", T("an adjacent target is meleed"), "/target")
    dice = dice_for(state, att, th, tcls, melee)
    if not melee:
        verdict = sight(state, att.hex, th)
        require(
            verdict.clear,
            verdict.rule or "CCN-50",
            T("{id} cannot see {t}: {why}", id=uid, t=tid, why=str(verdict)),
            "/target",
        )
    total = dice.total + _combined_dice(state, side, att, tu, melee, payload.get("artillery"))
    require(total >= 1, "CCN-68", T("a declared battle needs at least 1 die"), "/unit")
    return att, tid, melee, dice


def _combined_dice(
    state: GameState, side: str, att: Unit, tu: Unit | None, melee: bool, value: JSON
) -> int:
    """The dice of the artillery declared for combined arms (CCN-137..139), 0 without."""
    arts = _strs(value)
    if not arts:
        return 0
    require(
        melee and tu is not None and unit_class(att) is not UnitClass.ART,
        "CCN-137",
        T("artillery joins only a melee of infantry or cavalry on a unit"),
        "/artillery",
    )
    assert tu is not None
    return sum(_artillery_dice(state, side, a, att, tu, i) for i, a in enumerate(arts))


def _strs(value: JSON) -> list[str]:
    if value is None:
        return []
    require(
        isinstance(value, list) and all(isinstance(v, str) for v in value),
        "schema",
        T("a list of ids"),
        "/artillery",
    )
    assert isinstance(value, list)
    out = [str(v) for v in value]
    require(len(set(out)) == len(out), "CCN-44", T("each artillery unit once"), "/artillery")
    return out


def _artillery_dice(state: GameState, side: str, aid: str, att: Unit, tgt: Unit, i: int) -> int:
    """CCN-137, CCN-138, AMB-14: an ordered artillery unit that may battle, with the target in
    range and a completely clear line of sight (no hill exception), next to no other enemy; its
    dice: the range table at range 2 and more (GAP-1 refuses an unknown entry), its melee dice
    next to the target, with card dice and terrain (CCN-139)."""
    path = f"/artillery/{i}"
    a = state.units.get(aid)
    require(
        a is not None and a.side == side and unit_class(a) is UnitClass.ART and a.id != att.id,
        "CCN-137",
        T("{id} is not one of your artillery units", id=aid[:40]),
        path,
    )
    assert a is not None
    require(aid in state.turn.orders, "CCN-137", T("{id} has no order", id=aid), path)
    require(aid not in state.turn.battled, "CCN-44", T("{id} has battled this turn", id=aid), path)
    near = distance(a.hex, tgt.hex) == 1
    why = may_battle_after(state, aid, near)
    if why is not None:
        raise Illegal(why, T("{id} may not battle so after its move", id=aid), path)
    others = [e for e in adjacent_enemies(state, a.hex, side) if e.id != tgt.id]
    require(
        not others or bool(scen(state).options.get("ca_artillery_adjacent_allowed", False)),
        "AMB-14",
        T("{id} is next to another enemy unit", id=aid),
        path,
    )
    if not near:
        s = scen(state)
        verdict = line_of_sight(s.board, s, occupant_map(state), a.hex, tgt.hex, combined_arms=True)
        require(
            verdict.clear,
            verdict.rule or "CCN-138",
            T("{id} cannot see {t}: {why}", id=aid, t=tgt.id, why=str(verdict)),
            path,
        )
    try:
        return dice_for(state, a, tgt.hex, unit_class(tgt), near).total
    except Illegal as e:
        raise Illegal(e.rejection.rule, e.rejection.message, path) from None


def declare(state: GameState, side: str, payload: Mapping[str, JSON]) -> None:
    require(state.phase == "battle", "CCN-7", T("battles are fought in phase 4"))
    require(
        state.combat is None and state.pending is None, "CCN-42", T("a battle is being resolved")
    )
    att, tid, melee, dice = check_declaration(state, side, payload)
    arts = _strs(payload.get("artillery"))
    state.turn.battled += [att.id, *arts]  # CCN-143: artillery declared has battled
    begin(state, att, tid, melee, dice, bonus=False, back=False)
    assert state.combat is not None
    state.combat["artillery"] = list[JSON](arts)
    proceed(state)


def begin(
    state: GameState,
    att: Unit,
    tid: str,
    melee: bool,
    dice: DiceCount,
    *,
    bonus: bool,
    back: bool,
) -> None:
    """Open one attack (digest 4.2): a melee on a unit first asks the defender (D-09), then the
    roll (`_roll`); the rest waits in `state.combat`."""
    tu = state.units.get(tid)
    th = tu.hex if tu is not None else state.leaders[tid].hex
    ctx: dict[str, JSON] = {
        "att": att.id,
        "tgt": tid,
        "melee": melee,
        "bonus": bonus,
        "back": back,
        "side": att.side,
        "from": hex_json(att.hex),
        "at": hex_json(th),
        "stage": "response" if melee and tu is not None and not back else "roll",
        "after": "follow",
        "success": False,
        "no_back": False,
        "lead": None,
        "dice": dice.to_json(),
    }
    state.combat = ctx


def _roll(state: GameState, ctx: dict[str, JSON]) -> None:
    """The attacker's roll, scored (CCN-71..81); a retiring cavalry unit is hit by cavalry
    faces only (CCN-118)."""
    att = state.units[str(ctx["att"])]
    tid = str(ctx["tgt"])
    melee = bool(ctx["melee"])
    tu = state.units.get(tid)
    th = tu.hex if tu is not None else state.leaders[tid].hex
    square_first = tu is not None and tu.in_square is not None and unit_class(att) is UnitClass.CAV
    if melee and square_first and not ctx["back"] and not ctx.get("fired"):
        assert tu is not None
        _square_fires_first(state, ctx, tu, att)
        return
    dice = dice_for(
        state,
        att,
        th,
        None if tu is None else unit_class(tu),
        melee,
        back=bool(ctx["back"]),
        bonus=bool(ctx["bonus"]),
    )
    ctx["dice"] = dice.to_json()
    ctx["stage"] = "follow"
    total = dice.total
    for aid in ctx.get("artillery") or []:  # type: ignore[union-attr]
        a = state.units.get(str(aid))
        if a is not None and tu is not None:  # CCN-139: rolled together with the melee dice
            total += dice_for(state, a, th, unit_class(tu), distance(a.hex, th) == 1).total
    faces = roll_for(state, att.id, "melee" if melee else "ranged", total)
    if tu is None:  # a lone leader meleed (CCN-81)
        if lone_leader_eliminated(faces):
            _leader_dies(state, tid)
            ctx["success"] = True
        else:
            ctx["lead"] = tid
            ctx["stage"] = "leader"
        return
    _hit(state, ctx, att, tu, faces, melee, retire=bool(ctx.get("retire")))


def _square_fires_first(state: GameState, ctx: dict[str, JSON], square: Unit, cav: Unit) -> None:
    """CCN-127, CCN-128: cavalry meleeing a square: the square battles first with 1 die at
    most; its flags bounce the cavalry. A cavalry unit neither eliminated nor bounced then
    attacks with 1 die at most; no battle back follows (AMB-15)."""
    ctx["fired"] = True
    ctx["no_back"] = not bool(scen(state).options.get("square_battle_back_after_cav", False))
    dice = dice_for(state, square, cav.hex, UnitClass.CAV, True, back=True)
    faces = roll_for(state, square.id, "square_fire", dice.total)
    ctx["stage"], ctx["after"] = "after_first_strike", "after_first_strike"
    _hit(state, ctx, square, cav, faces, True)


def _hit(
    state: GameState,
    ctx: dict[str, JSON],
    roller: Unit,
    victim: Unit,
    faces: tuple[Face, ...],
    melee: bool,
    *,
    retire: bool = False,
) -> None:
    """Hits on blocks (CCN-73), the leader check (CCN-75..80), the flags to answer (CCN-90)."""
    prof = unit_profile(state, roller)
    sc = score(
        faces,
        Combat.MELEE if melee else Combat.RANGED,
        unit_class(victim),
        sabre_hits=prof.sabre_hits,
        retire=retire,
    )
    lost = min(sc.hits, victim.blocks)
    victim.blocks -= lost
    ld = attached(state, victim)
    leader_ok = True
    if victim.blocks <= 0:
        _unit_dies(state, victim)
        if victim.id == ctx["tgt"]:
            ctx["success"] = True
        if ld is not None and _leader_check(state, ld.id, True):
            ctx["lead"] = ld.id
            ctx["stage"] = "leader"
        return
    if ld is not None and lost > 0:
        leader_ok = _leader_check(state, ld.id, False)
    ctx["checked"] = lost > 0
    if retire:
        ctx["stage"] = "retire"
        return
    if sc.flags:
        works = across_works(state, roller.hex, victim.hex)
        allow = flag_allowance(state, victim, leader_ok, works)
        lo = max(sc.flags - allow, 0)
        if roller.in_square is not None and unit_class(victim) is UnitClass.CAV:
            lo = sc.flags  # CCN-128: bounce flags are never ignored
        ctx.update({"stage": "retreat", "unit": victim.id, "lo": lo, "hi": sc.flags})


# --- D-09: the defender's answer to a declared melee (CCN-115..123, CCN-146..149) -----------


def response_choices(state: GameState) -> list[str]:
    """What the defender may answer now: always `none`; `first_strike` with the card in hand
    (CCN-146, CCN-148); `retire` for cavalry meleed by infantry that can make 2 steps
    (CCN-115, CCN-117); `form_square` (CCN-121, CCN-122). One answer only (AMB-25).
    Computed from the defender's own hand and the public board only (4.3)."""
    ctx = state.combat
    assert ctx is not None
    out = ["none"]
    tgt = state.units[str(ctx["tgt"])]
    att = state.units[str(ctx["att"])]
    if "FIRST_STRIKE" in state.deck.hand(tgt.side):
        try:
            if dice_for(state, tgt, att.hex, unit_class(att), True).total >= 0:
                out.append("first_strike")
        except Illegal:
            pass
    if (
        unit_class(tgt) is UnitClass.CAV
        and unit_class(att) is UnitClass.INF
        and retire_paths(state, tgt)
    ):
        out.append("retire")
    if may_form_square(state, tgt, att):
        out.append("form_square")
    return out


def may_form_square(state: GameState, tgt: Unit, att: Unit) -> bool:
    """CCN-121, CCN-122: infantry not in square, meleed by cavalry, on terrain that allows a
    square, its owner with 3 cards or more and a free marker."""
    return (
        unit_class(tgt) is UnitClass.INF
        and tgt.in_square is None
        and unit_class(att) is UnitClass.CAV
        and scen(state).terrain_at(tgt.hex).square_allowed
        and square_card_possible(state.deck, tgt.side)
    )


def retire_paths(state: GameState, unit: Unit) -> list[list[Hex]]:
    """The 2-step retirements towards the unit's side (CCN-117; terrain does not stop it,
    AMB-26), or 1 step onto a lone friendly leader (CCN-120)."""
    return [p for p in unit_paths(state, unit, 2) if len(p) == 2 or (p and leader_at(state, p[-1]))]


def _open_response(state: GameState, ctx: dict[str, JSON]) -> None:
    tgt = state.units[str(ctx["tgt"])]
    policy = state.policies.get(tgt.side, {}).get("melee_response", "ask")
    if policy == "none":  # the same whatever the hand holds (4.3)
        ctx["stage"] = "roll"
        return
    state.pending = {
        "kind": "melee_response",
        "side": tgt.side,
        "unit": tgt.id,
        "attacker": str(ctx["att"]),
    }


def do_response(state: GameState, answer: Mapping[str, JSON]) -> None:
    ctx = state.combat
    assert ctx is not None
    choice = answer.get("response")
    require(
        isinstance(choice, str) and choice in response_choices(state),
        "CCN-116",
        T("answer with one of: {choices}", choices=", ".join(response_choices(state))),
        "/response",
    )
    state.pending = None
    tgt = state.units[str(ctx["tgt"])]
    att = state.units[str(ctx["att"])]
    if choice == "none":
        ctx["stage"] = "roll"
    elif choice == "form_square":  # CCN-123: a random card of the hand to the track
        state.deck, marker = to_square_track(state.deck, tgt.side, current_rng())
        tgt.in_square = marker
        ctx["stage"] = "roll"
    elif choice == "retire":  # CCN-118: the full roll, only cavalry faces hit
        ctx["retire"] = True
        ctx["stage"] = "roll"
    else:  # CCN-146: the defender battles first with its normal melee dice
        state.deck = play(state.deck, tgt.side, "FIRST_STRIKE")
        state.turn.first_strike_by.append(tgt.side)
        ctx["no_back"] = True  # CCN-147
        dice = dice_for(state, tgt, att.hex, unit_class(att), True)
        faces = roll_for(state, tgt.id, "first_strike", dice.total)
        ctx["stage"], ctx["after"] = "after_first_strike", "after_first_strike"
        _hit(state, ctx, tgt, att, faces, True)


def _after_first_strike(state: GameState, ctx: dict[str, JSON]) -> None:
    """CCN-147: an attacker neither eliminated nor forced out battles as ordered."""
    ctx["after"] = "follow"
    att = state.units.get(str(ctx["att"]))
    if att is None or att.hex != hex_of(ctx["from"]):
        state.combat = None  # the attack is cancelled; no follow-up for the defender
        return
    ctx["stage"] = "roll"


def retire_choices(state: GameState) -> list[dict[str, JSON]]:
    ctx = state.combat
    assert ctx is not None
    unit = state.units[str(ctx["tgt"])]
    return [{"path": [hex_json(h) for h in p]} for p in retire_paths(state, unit)]


def _open_retire(state: GameState, ctx: dict[str, JSON]) -> None:
    tgt = state.units[str(ctx["tgt"])]
    choices = retire_choices(state)
    if not choices:  # the roll's losses cannot block it; kept for safety: it stays
        ctx["stage"] = "follow"
        return
    state.pending = {"kind": "retire", "side": tgt.side, "unit": tgt.id}


def do_retire(state: GameState, answer: Mapping[str, JSON]) -> None:
    """D-12: the retiring cavalry moves 2 hexes towards its side (CCN-118..120)."""
    ctx = state.combat
    assert ctx is not None
    choice = {"path": answer.get("path")}
    require(choice in retire_choices(state), "CCN-117", T("not a legal retirement"), "/path")
    state.pending = None
    u = state.units[str(ctx["tgt"])]
    ld = attached(state, u)
    start = u.hex
    u.hex = hex_of(choice["path"][-1])  # type: ignore[index]
    if ld is not None and ld.hex == start:
        ld.hex = u.hex
    ctx["success"] = True  # CCN-119: the infantry may advance; no battle back
    ctx["stage"] = "follow"
    refresh(state)


def _unit_dies(state: GameState, u: Unit) -> None:
    if u.in_square is not None:  # CCN-135: the card goes back to the hand
        state.deck = from_square_track(state.deck, u.side, u.in_square)
        u.in_square = None
    del state.units[u.id]
    state.gone.append(u.id)
    state.turn.orders = [p for p in state.turn.orders if p != u.id]
    refresh(state, check_now=False)  # an objective held or cleared by it changes at once
    gain(state, other(u.side))  # CCN-73, CCN-207


def _leader_dies(state: GameState, lid: str) -> None:
    side = state.leaders[lid].side
    del state.leaders[lid]
    state.gone.append(lid)
    gain(state, other(side))  # CCN-80


def _leader_check(state: GameState, lid: str, unit_gone: bool) -> bool:
    """CCN-75..80: 2 dice (both sabres) or 1 die (a sabre) when the unit is gone. True when the
    leader survives."""
    faces = roll_for(state, lid, "leader_check", leader_check_dice(unit_gone))
    if leader_check_hit(faces, unit_gone):
        _leader_dies(state, lid)
        return False
    return True


# --- the rest of the state machine (4.2) ------------------------------------------------------


def proceed(state: GameState) -> None:
    """Run the battle on until a decision is open or it is over."""
    for _ in range(40):
        ctx = state.combat
        if ctx is None or state.pending is not None or state.phase == "over":
            return
        stage = ctx["stage"]
        if stage == "response":
            _open_response(state, ctx)
        elif stage == "roll":
            _roll(state, ctx)
        elif stage == "retire":
            _open_retire(state, ctx)
        elif stage == "after_first_strike":
            _after_first_strike(state, ctx)
        elif stage == "retreat":
            _open_retreat(state, ctx)
        elif stage == "leader":
            _open_leader_retreat(state, ctx)
        elif stage == "follow":
            _follow(state, ctx)
        elif stage == "back":
            _open_battle_back(state, ctx)
        elif stage == "bonus":
            _open_bonus(state, ctx)
        else:
            state.combat = None
    raise AssertionError("the battle does not end")


def retreat_options(state: GameState, ctx: Mapping[str, JSON]) -> list[dict[str, JSON]]:
    u = state.units[str(ctx["unit"])]
    per = _per_flag(state, u)
    out: list[dict[str, JSON]] = []
    lo, hi = ctx["lo"], ctx["hi"]
    assert isinstance(lo, int)
    assert isinstance(hi, int)
    for n in range(lo, hi + 1):
        for p in unit_paths(state, u, n * per):
            out.append({"flags": n, "path": [hex_json(h) for h in p]})
    return out


def _per_flag(state: GameState, u: Unit) -> int:
    from games.commands_colors_napoleonics.world import retreat_per_flag

    return retreat_per_flag(state, u)


def _open_retreat(state: GameState, ctx: dict[str, JSON]) -> None:
    options = retreat_options(state, ctx)
    u = state.units[str(ctx["unit"])]
    if len(options) == 1:
        do_retreat(state, options[0])
        return
    state.pending = {
        "kind": "retreat",
        "side": u.side,
        "unit": u.id,
        "lo": ctx["lo"],
        "hi": ctx["hi"],
    }


def do_retreat(state: GameState, answer: Mapping[str, JSON]) -> None:
    """D-10/D-11 answered: the accepted flags and the path (CCN-84..89)."""
    ctx = state.combat
    assert ctx is not None
    options = retreat_options(state, ctx)
    choice = {"flags": answer.get("flags"), "path": answer.get("path")}
    require(
        choice in options,
        "CCN-84",
        T(
            "not a legal retreat: flags {lo}..{hi}, each step one row towards your side",
            lo=str(ctx["lo"]),
            hi=str(ctx["hi"]),
        ),
        "/path",
    )
    u = state.units[str(ctx["unit"])]
    n = choice["flags"]
    assert isinstance(n, int)
    path = [hex_of(h) for h in choice["path"]]  # type: ignore[union-attr]
    steps = n * _per_flag(state, u)
    ld = attached(state, u)
    lost = losses_of(state, u, steps, path)
    if path:
        start = u.hex
        u.hex = path[-1]
        if ld is not None and ld.hex == start:
            ld.hex = u.hex  # CCN-87
        if u.id == ctx["tgt"]:
            ctx["success"] = True  # CCN-101: forced out of its hex
    state.pending = None
    ctx["stage"] = str(ctx["after"])
    if lost:
        u.blocks -= min(lost, u.blocks)
        if u.blocks <= 0:
            _unit_dies(state, u)
            if u.id == ctx["tgt"]:
                ctx["success"] = True
            if ld is not None and ld.id in state.leaders:
                alive = True
                if not ctx.get("checked"):  # AMB-9: the 1-die check if none was made
                    alive = _leader_check(state, ld.id, True)
                if alive:
                    ctx["lead"] = ld.id
                    ctx["stage"] = "leader"
        elif ld is not None and not ctx.get("checked"):
            ctx["checked"] = True
            _leader_check(state, ld.id, False)  # CCN-75: losses of a retreat not made
    refresh(state)


def _open_leader_retreat(state: GameState, ctx: dict[str, JSON]) -> None:
    lid = str(ctx["lead"])
    if lid not in state.leaders:
        ctx["stage"], ctx["lead"] = str(ctx["after"]), None
        return
    options = leader_options(state, lid)
    if not options:  # CCN-97: it cannot retreat even 1 hex
        ctx["stage"], ctx["lead"] = str(ctx["after"]), None
        ctx["success"] = True
        _leader_dies(state, lid)
        return
    state.pending = {"kind": "leader_retreat", "side": state.leaders[lid].side, "leader": lid}


def leader_choices(state: GameState, lid: str) -> list[dict[str, JSON]]:
    return [{"path": [hex_json(h) for h in p], "off": off} for p, off in leader_options(state, lid)]


def do_leader_retreat(state: GameState, answer: Mapping[str, JSON]) -> None:
    """D-13 answered: the leader retreats, escaping through enemy units (CCN-96..100)."""
    ctx = state.combat
    assert ctx is not None
    lid = str(ctx["lead"])
    choice = {"path": answer.get("path"), "off": answer.get("off")}
    require(
        choice in leader_choices(state, lid),
        "CCN-96",
        T("not a legal leader retreat: 1-3 hexes towards your side"),
        "/path",
    )
    state.pending = None
    ctx["stage"], ctx["lead"] = str(ctx["after"]), None
    ld = state.leaders[lid]
    if ctx["tgt"] == lid:
        ctx["success"] = True  # CCN-101: a lone leader retreated
    for h in [hex_of(x) for x in choice["path"]]:  # type: ignore[union-attr]
        enemy = unit_at(state, h)
        if enemy is not None and enemy.side != ld.side:  # CCN-100: escape
            n = escape_dice(
                Attacker(unit_profile(state, enemy), enemy.blocks), options=scen(state).options
            )
            if lone_leader_eliminated(roll_for(state, enemy.id, "escape", n)):
                ld.hex = h
                _leader_dies(state, lid)
                return
        ld.hex = h
    if choice["off"]:
        del state.leaders[lid]
        state.gone.append(lid)  # CCN-96: withdrawn, no banner
    refresh(state)


def _follow(state: GameState, ctx: dict[str, JSON]) -> None:
    """After the attack: take ground (D-14), else the battle back (D-16), else done."""
    att = state.units.get(str(ctx["att"]))
    origin, vacated = hex_of(ctx["from"]), hex_of(ctx["at"])
    alive_in_place = att is not None and att.hex == origin
    if ctx["melee"] and ctx["success"] and alive_in_place and not ctx["back"]:
        assert att is not None
        if unit_class(att) is not UnitClass.ART and _may_enter(state, att, origin, vacated):
            ctx["stage"] = "advance"
            state.pending = {"kind": "take_ground", "side": att.side, "unit": att.id}
            return
    tgt = state.units.get(str(ctx["tgt"]))
    if (
        ctx["melee"]
        and not ctx["back"]
        and not ctx["no_back"]
        and not ctx["success"]
        and tgt is not None
        and tgt.hex == vacated
        and att is not None
    ):
        ctx["stage"] = "back"
        return
    state.combat = None


def _may_enter(state: GameState, u: Unit, frm: Hex, to: Hex) -> bool:
    if unit_at(state, to) is not None:
        return False
    ld = leader_at(state, to)
    if ld is not None and (ld.side != u.side or attached(state, u) is not None):
        return False
    return scen(state).terrain_at(to).may_enter(unit_class(u))


def advance_choices(state: GameState) -> list[dict[str, JSON]]:
    ctx = state.combat
    assert ctx is not None
    att = state.units[str(ctx["att"])]
    origin, vacated = hex_of(ctx["from"]), hex_of(ctx["at"])
    out: list[dict[str, JSON]] = [
        {"advance": False, "extra": None},
        {"advance": True, "extra": None},
    ]
    cav = unit_class(att) is UnitClass.CAV and not ctx["bonus"]  # CCN-104, CCN-106
    stops = scen(state).terrain_at(vacated).stops_on_entry(side_towards(vacated, origin))
    if cav and not stops and leader_at(state, vacated) is None:
        for h in scen(state).board.grid.neighbours(vacated):
            if h == origin or _may_enter(state, att, vacated, h):
                out.append({"advance": True, "extra": hex_json(h)})
    return out


def do_advance(state: GameState, answer: Mapping[str, JSON]) -> None:
    """D-14 answered: advance into the vacated hex, cavalry perhaps 1 more (CCN-102..106)."""
    ctx = state.combat
    assert ctx is not None
    choice = {"advance": answer.get("advance"), "extra": answer.get("extra")}
    require(choice in advance_choices(state), "CCN-102", T("not a legal advance"), "/extra")
    state.pending = None
    att = state.units[str(ctx["att"])]
    ctx["stage"] = "done"
    if not choice["advance"]:
        return
    ld = attached(state, att)
    start = att.hex
    for h in [hex_of(ctx["at"])] + (
        [hex_of(choice["extra"])] if choice["extra"] is not None else []
    ):
        att.hex = h
        if ld is not None and ld.hex == start:
            ld.hex = h
        host = leader_at(state, h)
        if host is not None and host.side == att.side and ld is None:
            state.turn.joined.append(att.id)
        from games.commands_colors_napoleonics.movement import _entered

        _entered(state, att, h)
    refresh(state)
    cav = unit_class(att) is UnitClass.CAV
    bonus_ok = att.id not in state.turn.bonus_used and att.id not in state.turn.no_battle
    if cav and not ctx["bonus"] and bonus_ok:
        ctx["stage"] = "bonus"  # CCN-105: it entered the vacated hex (CCN-163: not a town)


def bonus_targets(state: GameState) -> list[str]:
    """The pieces the cavalry may make its bonus melee on (CCN-105): adjacent enemies it has
    dice against, or that combined arms would give dice against (CCN-139, CCN-145)."""
    return list(dict.fromkeys(str(p["target"]) for p in bonus_options(state)))


def bonus_options(state: GameState) -> list[dict[str, JSON]]:
    """Every bonus melee the cavalry may declare (D-15): each target alone, and with one
    ordered artillery unit that has not battled yet (combined arms, CCN-145)."""
    ctx = state.combat
    assert ctx is not None
    att = state.units[str(ctx["att"])]
    out: list[dict[str, JSON]] = []
    arts = [
        a
        for a in state.turn.orders
        if a in state.units and a not in state.turn.battled and a != att.id
        if unit_class(state.units[a]) is UnitClass.ART
    ]
    for h in scen(state).board.grid.neighbours(att.hex):
        u, ld = unit_at(state, h), leader_at(state, h)
        tid = (
            u.id
            if u is not None and u.side != att.side
            else (ld.id if ld is not None and u is None and ld.side != att.side else None)
        )
        if tid is None:
            continue
        for extra in [[], *([a] for a in arts)]:
            payload: dict[str, JSON] = {"target": tid}
            if extra:
                payload["artillery"] = list[JSON](extra)
            try:
                check_bonus(state, payload)
            except Illegal:
                continue
            out.append(payload)
    return out


def check_bonus(state: GameState, answer: Mapping[str, JSON]) -> tuple[str, DiceCount] | None:
    """A bonus melee the cavalry may declare now (CCN-105), with combined arms (CCN-145:
    ordered artillery that has not battled, as CCN-137..139 and AMB-14 say); None declines."""
    ctx = state.combat
    assert ctx is not None
    tid = answer.get("target")
    if tid is None:
        require(
            not answer.get("artillery"),
            "CCN-145",
            T("artillery joins a bonus melee only with a target"),
            "/artillery",
        )
        return None
    att = state.units[str(ctx["att"])]
    require(isinstance(tid, str), "schema", T("the target is an id"), "/target")
    assert isinstance(tid, str)
    tu, tl = state.units.get(tid), state.leaders.get(tid)
    target = tu if tu is not None else tl
    require(
        target is not None
        and target.side != att.side
        and distance(att.hex, target.hex) == 1
        and (tu is not None or unit_at(state, target.hex) is None),
        "CCN-105",
        T("not a legal bonus melee target"),
        "/target",
    )
    assert target is not None
    cls = None if tu is None else unit_class(tu)
    try:
        dice = dice_for(state, att, target.hex, cls, True, bonus=True)
    except Illegal as e:
        raise Illegal(e.rejection.rule, e.rejection.message, "/target") from None
    total = dice.total + _combined_dice(state, att.side, att, tu, True, answer.get("artillery"))
    require(total >= 1, "CCN-68", T("a declared battle needs at least 1 die"), "/target")
    return tid, dice


def _open_bonus(state: GameState, ctx: dict[str, JSON]) -> None:
    if not bonus_options(state):
        state.combat = None
        return
    state.pending = {"kind": "bonus_melee", "side": str(ctx["side"]), "unit": str(ctx["att"])}


def do_bonus(state: GameState, answer: Mapping[str, JSON]) -> None:
    """D-15 answered: one more melee (CCN-105), perhaps as combined arms (CCN-145), or none."""
    ctx = state.combat
    assert ctx is not None
    found = check_bonus(state, answer)
    state.pending = None
    if found is None:
        state.combat = None
        return
    tid, dice = found
    att = state.units[str(ctx["att"])]
    arts = _strs(answer.get("artillery"))
    state.turn.bonus_used.append(att.id)
    state.turn.battled += [a for a in arts if a not in state.turn.battled]  # CCN-143
    begin(state, att, tid, True, dice, bonus=True, back=False)
    assert state.combat is not None
    state.combat["artillery"] = list[JSON](arts)


def _open_battle_back(state: GameState, ctx: dict[str, JSON]) -> None:
    tgt = state.units[str(ctx["tgt"])]
    att = state.units[str(ctx["att"])]
    try:
        dice = dice_for(state, tgt, att.hex, unit_class(att), True, back=True)
    except Illegal:
        state.combat = None
        return
    if dice.total < 1:  # CCN-68: it rolls nothing, the sequence goes on
        state.combat = None
        return
    policy = state.policies.get(tgt.side, {}).get("battle_back", "ask")
    if policy in ("always", "never"):
        _battle_back(state, policy == "always")
        return
    state.pending = {"kind": "battle_back", "side": tgt.side, "unit": tgt.id, "against": att.id}


def do_battle_back(state: GameState, answer: Mapping[str, JSON]) -> None:
    require(
        isinstance(answer.get("battle"), bool), "schema", T("battle is true or false"), "/battle"
    )
    state.pending = None
    _battle_back(state, bool(answer["battle"]))


def _battle_back(state: GameState, yes: bool) -> None:
    """D-16: the defender battles back (CCN-108..114): an attack with roles swapped, no card
    dice, never answered by another battle back, no follow-up."""
    ctx = state.combat
    assert ctx is not None
    if not yes:
        state.combat = None
        return
    tgt = state.units[str(ctx["tgt"])]
    att = state.units[str(ctx["att"])]
    dice = dice_for(state, tgt, att.hex, unit_class(att), True, back=True)
    begin(state, tgt, att.id, True, dice, bonus=False, back=True)
