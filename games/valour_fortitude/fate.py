"""Fate cards in play (digest 3.6, 3.17: VF-36, VF-37, VF-222, VF-223; V-01).

The cards of the two fate tables the starter scenario fields, France (seed L967-982) and
Britain (L1138-1153), each with its timing (`hook`) and its effect. A card is played:

* by the active side on its order sheet (`turn_orders.fate`, digest 4.5): each entry is played
  when its hook comes round in the turn (the fate phase, the start of the shooting or melee
  phase, a shot, a unit's action, a brigade's activation); 6 and 8 are standing instructions
  played when the event they wait for happens in this turn (VF-37);
* by the inactive side in a reaction window (V-01, `play_fate`): at the start of the enemy's
  turn (card 3, and standing 6 and 8 for that turn) and at the start of the enemy's melee phase
  (Q, J of Britain, Q of France). A window opens whenever its timing occurs for an army whose
  table has a card with that timing, whatever the hand holds, so opening it reveals nothing
  (VF-36); its deadline default is `pass` (digest 4.3).

A played card goes to the public discard pile and the play is logged with its hook, card and
choices (VF-223). Effects that last are kept in `flow["fate_effects"]` (phase or turn scope,
AMB-3) or in the state (objectives counting double, Les Grognards' values).

Not built (refused with VF-222 and the reason): 4 Durchbruch and 9 Überraschungsangriff (moves
outside a unit's action), and every other army's national cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from games.core.i18n import T
from games.core.protocol import JSON, OMNISCIENT, Rejection
from games.core.umpire import UMPIRE
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import Ctx, Fact
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import Formation, GameState, Objective, Unit
from games.valour_fortitude.values import in_march_column, is_infantry

# hooks: when a card may be played (VF-37)
ON_DRAW = "ON_DRAW"  # 2: at once (automatic)
OWN_FATE = "OWN_FATE_PHASE"  # 10, J (France)
OWN_SHOOTING = "OWN_SHOOTING_PHASE"  # K (Britain): at the start of the own shooting phase
SHOT = "AFTER_SHOOTING_TARGET_SELECTED"  # 7: with the shot it names
BEFORE_ACTION = "BEFORE_UNIT_ACTION"  # 5
FAILED_ACTIVATION = "AFTER_FAILED_ACTIVATION"  # any card as Eigeninitiative
ACTIVATED = "AFTER_ACTIVATION"  # K (France)
OWN_MELEE = "START_OWN_MELEE_PHASE"  # A
ANY_MELEE = "MELEE_PHASE"  # Q (France), J (Britain): start of any melee phase
ENEMY_MELEE = "ENEMY_MELEE_PHASE"  # Q (Britain)
ENEMY_TURN = "START_ENEMY_TURN"  # 3
HITS_FAILED = "AFTER_OWN_HIT_TESTS_FAILED"  # 6: a standing instruction
TEST_FAILED = "AFTER_OWN_MORALE_OR_RESOLVE_TEST_FAILED"  # 8: a standing instruction
END_MELEE = "END_MELEE_PHASE"  # 4: not built
BEFORE_CHARGE = "BEFORE_CHARGE_MOVE"  # 9: not built

ANY = "eigeninitiative"  # `as` of an entry: any card discarded for Eigeninitiative
WINDOW_HOOKS = (ENEMY_TURN, ENEMY_MELEE)
STANDING = (HITS_FAILED, TEST_FAILED)


@dataclass(frozen=True, slots=True)
class Card:
    card: str
    title: str
    hook: str
    choice: str | None = None  # what the entry names: unit, brigade, objective, shot
    not_built: str | None = None


def _shared() -> dict[str, Card]:
    """Cards A..10, shared by the Napoleonic lists (seed L970-979, L1141-1150)."""
    return {
        "A": Card("A", "Großangriff", OWN_MELEE),
        "2": Card("2", "Schlachtenglück", ON_DRAW),
        "3": Card("3", "Friktion", ENEMY_TURN),
        "4": Card("4", "Durchbruch", END_MELEE, "brigade", "moves after a melee phase"),
        "5": Card("5", "Hartnäckig", BEFORE_ACTION, "unit"),
        "6": Card("6", "Tödlicher Angriff", HITS_FAILED, "unit"),
        "7": Card("7", "Geleitetes Feuer", SHOT, "shot"),
        "8": Card("8", "Inspiration", TEST_FAILED),
        "9": Card("9", "Überraschungsangriff", BEFORE_CHARGE, "unit", "a move before a charge"),
        "10": Card("10", "Eroberung", OWN_FATE, "objective"),
    }


TABLES: dict[str, dict[str, Card]] = {
    "france_1812_1815": {  # seed L967-982
        **_shared(),
        "J": Card("J", "Les Grognards", OWN_FATE, "unit"),
        "Q": Card("Q", "Auf Leben und Tod", ANY_MELEE, "brigade"),
        "K": Card("K", "Es lebe der Kaiser!", ACTIVATED, "brigade"),
    },
    "britain_1807_1815": {  # seed L1138-1153
        **_shared(),
        "J": Card("J", "Abschaum der Erde", ANY_MELEE),
        "Q": Card("Q", "Abwehrfeuer", ENEMY_MELEE, "brigade"),
        "K": Card("K", "Perfekte Salven", OWN_SHOOTING, "brigade"),
    },
}
ENTRY: JSON = {
    "type": "object",
    "properties": {
        "card": {"enum": ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]},
        "as": {"const": ANY},
        "unit": {"type": "string", "minLength": 1, "maxLength": 40},
        "brigade": {"type": "string", "minLength": 1, "maxLength": 40},
        "objective": {"type": "string", "minLength": 1, "maxLength": 40},
        "shot": {"type": "integer", "minimum": 0, "maximum": 29},
    },
    "required": ["card"],
    "additionalProperties": False,
}
PLAY_FATE: JSON = {  # V-01: the cards played in the open window; none is a pass
    "type": "object",
    "properties": {"plays": {"type": "array", "items": ENTRY, "maxItems": 13}},
    "required": ["plays"],
    "additionalProperties": False,
}
SHEET_HOOKS = (
    OWN_FATE, OWN_SHOOTING, SHOT, BEFORE_ACTION, ACTIVATED, OWN_MELEE, ANY_MELEE, *STANDING
)  # fmt: skip


def table(game: GameState, side: str) -> dict[str, Card] | None:
    """The side's fate table (AMB-32: the host list's), None when it is not built."""
    return TABLES.get(m.side_state(game, side).army_list)


def hand(game: GameState, side: str) -> tuple[str, ...]:
    return m.side_state(game, side).fate.hand


def window_hooks(game: GameState, side: str) -> list[str]:
    """The windows a side's army has (from its public army list, never from its hand)."""
    hooks = {c.hook for c in (table(game, side) or {}).values() if c.not_built is None}
    out = [ENEMY_TURN] if ENEMY_TURN in hooks else []
    return out + ([ENEMY_MELEE] if hooks & {ENEMY_MELEE, ANY_MELEE} else [])


# --- checking entries (a sheet's or a window's) ---


def entry_problems(
    game: GameState, side: str, entries: list[JSON], where: str, window: str | None
) -> list[Rejection]:
    """`entries` of `side`, played on its sheet (`window` None) or in the window `window`."""
    out: list[Rejection] = []
    cards = table(game, side)
    held = hand(game, side)
    seen: set[str] = set()
    anys = 0
    for i, entry in enumerate(entries):
        path = f"{where}/{i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("card"), str):
            out.append(Rejection("schema", T("a fate entry is an object with a card"), path))
            continue
        name = str(entry["card"])
        if cards is None:
            out.append(Rejection("VF-222", T("this army's fate table is not built"), path))
            continue
        card = cards.get(name)
        if card is None:
            out.append(Rejection("VF-25", T("there is no fate card {card}", card=name), path))
            continue
        if name not in held or name in seen:
            out.append(Rejection("VF-36", T("card {card} is not in your hand", card=name), path))
            continue
        seen.add(name)
        if entry.get("as") == ANY:
            anys += 1
            if window is not None or anys > 1:
                rule = T("Eigeninitiative: once per command phase, on your own sheet")
                out.append(Rejection("VF-222", rule, path))
            out.extend(_choice_problems(game, side, entry, ("brigade", "unit"), path))
            continue
        if card.not_built is not None:
            message = T(
                "card {card} ({title}) is not built: {why}",
                card=name,
                title=card.title,
                why=card.not_built,
            )
            out.append(Rejection("VF-222", message, path))
            continue
        allowed = (
            SHEET_HOOKS
            if window is None
            else (ENEMY_TURN, *STANDING)
            if window == ENEMY_TURN
            else (ENEMY_MELEE, ANY_MELEE)
        )
        if card.hook not in allowed:
            message = T(
                "card {card} ({title}) is played at {hook}, not now",
                card=name,
                title=card.title,
                hook=card.hook,
            )
            out.append(Rejection("VF-37", message, path))
            continue
        out.extend(_choice_problems(game, side, entry, (card.choice,) if card.choice else (), path))
        if name == "8" and ("unit" in entry) == ("brigade" in entry):
            out.append(Rejection("VF-222", T("card 8 names a unit or a brigade"), path))
        elif name == "8":
            key = "unit" if "unit" in entry else "brigade"
            out.extend(_choice_problems(game, side, entry, (key,), path))
    return out


def _choice_problems(
    game: GameState, side: str, entry: dict[str, JSON], keys: tuple[str, ...], path: str
) -> list[Rejection]:
    out = []
    for key in keys:
        value = entry.get(key)
        ok = False
        if key == "unit":
            ok = any(u.id == value and u.side == side for u in game.units)
        elif key == "brigade":
            ok = any(b.id == value and b.side == side for b in game.brigades)
        elif key == "objective":
            ok = any(o.id == value for o in game.objectives)
        elif key == "shot":
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 30
        if not ok:
            message = T("the card needs a {key} of yours: {value}", key=key, value=repr(value))
            out.append(Rejection("VF-222", message, f"{path}/{key}"))
    if "unit" in keys and "brigade" in keys and not out:
        brigade = m.brigade(game, str(entry["brigade"]))
        if entry["unit"] not in brigade.units:
            message = T(
                "{unit} is not of brigade {brigade}", unit=entry["unit"], brigade=brigade.id
            )
            out.append(Rejection("VF-222", message, f"{path}/unit"))
    return out


# --- the sheet's entries by hook ---


def sheet_entries(ctx: Ctx, hook: str) -> list[tuple[int, dict[str, JSON]]]:
    """The active side's sheet entries for `hook`, with their index."""
    sheet = ctx.flow.get("sheet")
    fate = sheet.get("fate") if isinstance(sheet, dict) else None
    cards = table(ctx.game, str(ctx.game.turn.active_side)) or {}
    out = []
    for i, entry in enumerate(fate if isinstance(fate, list) else []):
        if not isinstance(entry, dict):
            continue
        if hook == FAILED_ACTIVATION and entry.get("as") == ANY:
            out.append((i, entry))
        elif entry.get("as") != ANY:
            card = cards.get(str(entry.get("card")))
            if card is not None and card.hook == hook:
                out.append((i, entry))
    return out


def steps_for(ctx_sheet: dict[str, JSON], game: GameState, side: str, hook: str) -> list[JSON]:
    """Queue steps for the sheet's entries played at a phase boundary (`hook`)."""
    fate = ctx_sheet.get("fate")
    cards = table(game, side) or {}
    out: list[JSON] = []
    for entry in fate if isinstance(fate, list) else []:
        if isinstance(entry, dict) and entry.get("as") != ANY:
            card = cards.get(str(entry.get("card")))
            if card is not None and card.hook == hook:
                out.append({"do": "fate", "side": side, "entry": entry})
    return out


# --- playing ---


def _discard(ctx: Ctx, side: str, name: str, hook: str, entry: dict[str, JSON]) -> None:
    """VF-36, VF-223: the card leaves the hand for the public discard pile; the play is
    logged."""
    state = m.side_state(ctx.game, side)
    fate = state.fate
    if name not in fate.hand:

        raise Skip("VF-36", T("card {card} is not in the hand", card=name))
    held = list(fate.hand)
    held.remove(name)
    fate = replace(fate, hand=tuple(held), discard=(*fate.discard, name))
    ctx.game = m.with_side(ctx.game, replace(state, fate=fate))
    title = (table(ctx.game, side) or {}).get(name)
    ctx.say(
        T(
            "Side {side} plays fate card {card} ({title}) at {hook}",
            side=side,
            card=name,
            title=title.title if title else name,
            hook=hook,
        ),
        data={"fate_play": {"side": side, "hook": hook, "card": name, "choices": dict(entry)}},
    )


def effects(ctx_flow: dict[str, JSON]) -> list[dict[str, JSON]]:
    found = ctx_flow.setdefault("fate_effects", [])
    assert isinstance(found, list)
    return found  # type: ignore[return-value]


def _effect(ctx: Ctx, **fields: JSON) -> None:
    effects(ctx.flow).append(dict(fields))


def clear(flow: dict[str, JSON], scope: str) -> None:
    """Effects end with their phase, or with the turn (AMB-3)."""
    scopes = ("phase",) if scope == "phase" else ("phase", "turn")
    flow["fate_effects"] = [e for e in effects(flow) if e.get("scope") not in scopes]


def play(ctx: Ctx, side: str, entry: dict[str, JSON]) -> None:
    """A card whose hook has come: its facts first (the umpire), then the card and its effect."""
    name = str(entry["card"])
    card = (table(ctx.game, side) or {})[name]
    game = ctx.game
    wanted: dict[str, Callable[[], Fact]] = {}
    cinc = game.leader(m.side_state(game, side).cinc)
    if name == "A" and not cinc.removed:  # Großangriff: own units within 12 in of the CinC
        for u in ms.table_units(game):
            if u.side == side:
                wanted[f"ga:{u.id}"] = _bind(ms.within, game, cinc, u, 12.0, "VF-222")
    if name == "J" and card.hook == ANY_MELEE:  # Abschaum der Erde: contacts
        for u in _british_infantry(game, side):
            for e in ms.enemies(game, side):
                if ms.gap(game, u, e) <= ms.NEAR_IN:
                    wanted[f"touch:{u.id}:{e.id}"] = _bind(ms.contact, game, u, e)
    facts = ctx.need(wanted)
    _discard(ctx, side, name, card.hook, entry)
    if name == "10":
        _eroberung(ctx, side, str(entry["objective"]))
    elif name == "3":
        other = m.other(side)
        state = m.side_state(ctx.game, other)
        ctx.game = m.with_side(ctx.game, replace(state, auto_activation_used_this_turn=True))
        _effect(ctx, card="3", side=side, scope="turn", kind="friktion", against=other)
        ctx.say(
            T(
                "Friktion: side {side} may activate no brigade automatically this turn, "
                "and its reserves due now arrive next round",
                side=other,
            )
        )
    elif name == "J" and card.hook == OWN_FATE:
        _grognards(ctx, side, str(entry["unit"]))
    elif name == "J":
        brigades = sorted({ctx.game.unit(k.split(":")[2]).brigade for k, v in facts.items() if v})
        _effect(ctx, card="J", side=side, scope="phase", kind="morale", brigades=list(brigades))
        named = ", ".join(brigades) or "-"
        ctx.say(T("Enemy brigades {brigades} test morale at -1 this phase", brigades=named))
    elif name == "A":
        units = sorted(k.split(":")[1] for k, v in facts.items() if v)
        _effect(ctx, card="A", side=side, scope="phase", kind="melee", units=list(units))
        ctx.say(T("+1 melee this phase for {units}", units=", ".join(units) or "-"))
    elif name in ("Q", "K"):
        kind = (
            "move" if card.hook == ACTIVATED else "ranged" if card.hook == OWN_SHOOTING else "melee"
        )
        _effect(ctx, card=name, side=side, scope="phase", kind=kind, brigade=str(entry["brigade"]))
    elif name == "5":
        unit = ctx.game.unit(str(entry["unit"]))
        ctx.game = m.with_unit(ctx.game, replace(unit, casualties=max(0, unit.casualties - 1)))
        ctx.say(
            T("{unit} removes one casualty (now {n})", unit=unit.id, n=max(0, unit.casualties - 1))
        )
    elif name == "7":
        _effect(ctx, card="7", side=side, scope="phase", kind="ranged", shot=entry["shot"])
        ctx.say(T("Artillery on a hill: the umpire rules on its line of sight (GAP-2)"))


def discard_any(ctx: Ctx, side: str, entry: dict[str, JSON]) -> None:
    """Eigeninitiative: any card discarded; one unit of the failed brigade acts (once per
    command phase)."""
    _discard(ctx, side, str(entry["card"]), FAILED_ACTIVATION, entry)
    _effect(ctx, card=ANY, side=side, scope="phase", kind="eigeninitiative")
    ctx.say(T("Eigeninitiative: {unit} may take an action", unit=entry["unit"]))


def _bind(fn: Callable[..., Fact], *args: object) -> Callable[[], Fact]:  # type: ignore[explicit-any]
    return lambda: fn(*args)


def _eroberung(ctx: Ctx, side: str, objective_id: str) -> None:
    """10: an enemy-controlled objective counts double at the end if you hold it (VF-115)."""
    objs = []
    for o in ctx.game.objectives:
        if o.id == objective_id:
            if o.controller != m.other(side):

                raise Skip("VF-222", T("{objective} is not held by the enemy", objective=o.id))
            o = replace(o, counts_double_for=side)
        objs.append(o)
    ctx.game = replace(ctx.game, objectives=tuple(objs))
    ctx.say(
        T(
            "{objective} counts double for side {side} if it holds it at the end",
            objective=objective_id,
            side=side,
        )
    )


def _grognards(ctx: Ctx, side: str, unit_id: str) -> None:
    """J (France): a French unit with a casualty: +1 melee and +1 morale for the game."""
    unit = ctx.game.unit(unit_id)

    if unit.casualties < 1 or not m.on_table(unit):
        raise Skip("VF-222", T("{unit} has no casualty", unit=unit_id))
    if unit.army_list != m.side_state(ctx.game, side).army_list:  # AMB-32: French units only
        raise Skip("VF-222", T("{unit} is not French", unit=unit_id))
    stats = replace(unit.stats, melee=unit.stats.melee + 1, morale=unit.stats.morale + 1)
    ctx.game = m.with_unit(ctx.game, replace(unit, stats=stats))
    ctx.say(T("{unit} has +1 melee and +1 morale for the rest of the game", unit=unit_id))


def _british_infantry(game: GameState, side: str) -> list[Unit]:
    host = m.side_state(game, side).army_list
    return [
        u for u in ms.table_units(game) if u.side == side and is_infantry(u) and u.army_list == host
    ]


def objective_points(o: Objective, side: str) -> int:
    """VF-115 with card 10."""
    if o.controller != side:
        return 0
    return 2 if o.counts_double_for == side else 1


# --- effects read by the rules ---


def melee_bonus(ctx: Ctx, unit: Unit) -> int:
    """A, Q: +1 melee value this phase (not for march column's fixed value, VF-83)."""
    if in_march_column(unit):
        return 0
    host = m.side_state(ctx.game, unit.side).army_list
    bonus = 0
    for e in effects(ctx.flow):
        if e.get("kind") != "melee" or e.get("side") != unit.side:
            continue
        units = e.get("units")
        if isinstance(units, list) and unit.id in units:
            bonus += 1
        elif e.get("brigade") == unit.brigade:
            if e.get("card") == "Q" and host == "france_1812_1815":
                bonus += 1 if unit.formation is Formation.ATTACK_COLUMN else 0
            elif is_infantry(unit) and unit.army_list == host:  # Abwehrfeuer: British infantry
                bonus += 1
    return bonus


def ranged_bonus(ctx: Ctx, unit: Unit, shot: int) -> int:
    """7 (the firer of the named shot), K of Britain (British infantry of the brigade)."""
    host = m.side_state(ctx.game, unit.side).army_list
    bonus = 0
    for e in effects(ctx.flow):
        if e.get("kind") != "ranged" or e.get("side") != unit.side:
            continue
        named = e.get("card") == "7" and e.get("shot") == shot
        salvo = e.get("brigade") == unit.brigade and is_infantry(unit) and unit.army_list == host
        bonus += 1 if named or salvo else 0
    return bonus


def move_bonus(ctx: Ctx, unit: Unit) -> int:
    """K of France: +6 in this phase (AMB-14: added before any doubling)."""
    return sum(
        6 for e in effects(ctx.flow) if e.get("kind") == "move" and e.get("brigade") == unit.brigade
    )


def morale_modifier(ctx: Ctx, unit: Unit) -> int:
    """J of Britain: -1 on morale tests of the enemy brigades it named, this phase."""
    out = 0
    for e in effects(ctx.flow):
        brigades = e.get("brigades")
        named = isinstance(brigades, list) and unit.brigade in brigades
        if e.get("kind") == "morale" and e.get("side") != unit.side and named:
            out -= 1
    return out


def friction(ctx_flow: dict[str, JSON], side: str) -> bool:
    """3: the side's reserves arrive next round."""
    return any(e.get("kind") == "friktion" and e.get("against") == side for e in effects(ctx_flow))


def _standing(ctx: Ctx, side: str, name: str, key: str, value: str) -> dict[str, JSON] | None:
    """A standing entry of `side` for card `name` naming `key` = `value`: the active side's
    sheet, or the inactive side's window answer at the start of this turn."""
    if side == ctx.game.turn.active_side:
        sheet = ctx.flow.get("sheet")
        found = sheet.get("fate") if isinstance(sheet, dict) else None
    else:
        standing = ctx.flow.get("standing")
        found = standing.get(side) if isinstance(standing, dict) else None
    for entry in found if isinstance(found, list) else []:
        if (
            isinstance(entry, dict)
            and entry.get("card") == name
            and entry.get("as") != ANY
            and entry.get(key) == value
            and name in hand(ctx.game, side)
        ):
            return entry
    return None


def inspiration(ctx: Ctx, side: str, key: str, value: str) -> bool:
    """8: a failed morale test of the unit (or resolve test of the brigade) counts as passed."""
    entry = _standing(ctx, side, "8", key, value)
    if entry is None:
        return False
    _discard(ctx, side, "8", TEST_FAILED, entry)
    ctx.say(T("Inspiration: the test counts as passed"))
    return True


def hit_tests(
    ctx: Ctx, unit: Unit, dice: int, modifier: int, reroll_ones: bool
) -> tuple[list[int], int]:
    """VF-94, VF-3 as `values.hit_tests` (the same dice in the same order), then card 6: the
    failed dice not yet rerolled are rerolled once (VF-T4)."""
    faces = ctx.roll(dice)
    rerolled = [False] * len(faces)
    if reroll_ones:
        for i, f in enumerate(faces):
            if f == 1:
                faces[i], rerolled[i] = ctx.roll(1)[0], True

    def hit(f: int) -> bool:
        return f == 6 or (f != 1 and f + modifier >= 4)

    failed = [i for i, f in enumerate(faces) if not hit(f) and not rerolled[i]]
    if failed:
        entry = _standing(ctx, unit.side, "6", "unit", unit.id)
        if entry is not None:
            _discard(ctx, unit.side, "6", HITS_FAILED, entry)
            for i in failed:
                faces[i] = ctx.roll(1)[0]
            ctx.say(T("Tödlicher Angriff: {n} failed dice rerolled", n=len(failed)))
    return faces, sum(1 for f in faces if hit(f))


# --- windows (V-01) ---


def open_window(ctx: Ctx, hook: str) -> bool:
    """Open the inactive side's window for `hook` if its army has one (never by its hand)."""
    side = m.other(str(ctx.game.turn.active_side))
    if hook not in window_hooks(ctx.game, side):
        return False
    ctx.flow["window"] = {"side": side, "hook": hook}
    ctx.say(T("Side {side} may play fate cards ({hook})", side=side, hook=hook))
    return True


def window(flow: dict[str, JSON]) -> dict[str, JSON] | None:
    found = flow.get("window")
    return found if isinstance(found, dict) else None


def answer(ctx: Ctx, plays: list[JSON]) -> None:
    """The window's answer (validated): card 3 at once; standing 6 and 8 kept for this turn;
    melee cards queued first (their facts go to the umpire)."""
    open_ = window(ctx.flow)
    assert open_ is not None
    side, hook = str(open_["side"]), str(open_["hook"])
    ctx.flow["window"] = None
    if not plays:
        ctx.say(T("Side {side} plays no fate card", side=side))
        return
    cards = table(ctx.game, side) or {}
    steps: list[JSON] = []
    standing: list[JSON] = []
    for entry in plays:
        assert isinstance(entry, dict)
        card = cards[str(entry["card"])]
        if card.hook in STANDING:
            standing.append(entry)
        elif hook == ENEMY_TURN:
            play(ctx, side, entry)
        else:
            steps.append({"do": "fate", "side": side, "entry": entry})
    if standing:
        ctx.flow["standing"] = {side: standing}
        ctx.say(T("Side {side} files standing fate instructions for this turn", side=side))
    queue = ctx.flow.get("queue")
    if isinstance(queue, list):
        queue[0:0] = steps


def secret(side: str) -> frozenset[str]:
    return frozenset({side, UMPIRE, OMNISCIENT})
