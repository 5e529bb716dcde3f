"""Fate cards in play (digest 3.6, 3.17: VF-36, VF-37, VF-222, VF-223; V-01).

Every army list's fate table is data (`data/fate_tables.yaml`, `vf-fate-tables/1`, read bounded):
each card with the rulebook line of its row, its printed title, its timing (`hooks`, the
"Ausspielen" column) and the effect kind below that plays it, or the reason it is not built, or
the gap of an effect the rulebook does not give. A card is played:

* by the active side on its order sheet (`turn_orders.fate`, digest 4.5): each entry is played
  when its hook comes round in the turn (the fate phase, the start of the shooting or melee
  phase, a shot, a unit's action, a charge, a brigade's activation, the end of the melee
  phase); 6, 8 and the national "test passed" cards are standing instructions played when the
  event they wait for happens in this turn (VF-37); a card with two timings (Nothardt-Gewehr,
  Heimatstolz) takes the entry's `phase` (`shooting` or `melee`; absent: the first);
* by the inactive side in a reaction window (V-01, `play_fate`): at the start of the enemy's
  turn (card 3, and standing instructions for that turn) and at the start of the enemy's melee
  phase (cards of any melee phase or of the enemy's). A window opens whenever its timing occurs
  for an army whose table has a card with that timing, whatever the hand holds, so opening it
  reveals nothing (VF-36); its deadline default is `pass` (digest 4.3).

A played card goes to the public discard pile and the play is logged with its hook, card and
choices (VF-223). Effects that last are kept in `flow["fate_effects"]` (phase or turn scope,
AMB-3) or in the state (objectives counting double, changed values for the game).

Cards 4 (Durchbruch) and 9 (Überraschungsangriff) move units outside their action the way
reserves enter: the card's entry carries the paths, each move is a step of its own whose facts
the umpire rules on (V-06). 4 is played on the sheet at the end of the own melee phase, after
its resolve tests (`moves`: one single Move per unit of the own brigade, no tests, AMB-44); no
window is opened at the end of the enemy's melee phase, so 4 cannot be played there (VF-37).
9 (`path`) is played when the unit's Charge is reached: after its messenger test, the extra
Move, then the charge from where it ended.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from games.core.bounded_yaml import at, idx, parse_yaml, read_bounded
from games.core.i18n import T
from games.core.protocol import JSON, OMNISCIENT, Rejection
from games.core.umpire import UMPIRE
from games.valour_fortitude import match as m
from games.valour_fortitude import measures as ms
from games.valour_fortitude.context import BOOL, Ctx, Fact
from games.valour_fortitude.geometry import base_corners
from games.valour_fortitude.paths import PATH, offset, path_of
from games.valour_fortitude.reading import Reader
from games.valour_fortitude.skip import Skip
from games.valour_fortitude.state import (
    Formation,
    GameState,
    Objective,
    Phase,
    Unit,
)
from games.valour_fortitude.values import (
    allowance,
    in_march_column,
    is_artillery,
    is_cavalry,
    is_infantry,
)

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
MORALE_FAILED = "AFTER_OWN_MORALE_TEST_FAILED"  # J (Austria), J (1806), K (Union): standing
END_MELEE = "END_MELEE_PHASE"  # 4: at the end of any melee phase
END_OWN_MELEE = "END_OWN_MELEE_PHASE"  # 4 (Confederates, seed L2345)
END_MELEE_RESOLVED = "END_MELEE_PHASE_AFTER_RESOLVE_TESTS"  # 4 (Union, seed L2530)
BEFORE_CHARGE = "BEFORE_CHARGE_MOVE"  # 9
OWN_COMMAND = "OWN_COMMAND_PHASE"  # J (Bavaria): unknown (GAP-16)
NOT_OFFERED = (  # the timings of cards not built: no step and no window carries them
    "START_ENEMY_COMMAND_PHASE",
    "ANY_ENEMY_PHASE",
    "START_OF_ANY_PHASE",
    "AFTER_ENEMY_OCCUPATION_OR_MOVE",
    "AFTER_ENEMY_MESSENGER_TEST_PASSED",
    "ON_UNPREDICTABLE_STATUS",
)

ANY = "eigeninitiative"  # `as` of an entry: any card discarded for Eigeninitiative
WINDOW_HOOKS = (ENEMY_TURN, ENEMY_MELEE)
STANDING = (HITS_FAILED, TEST_FAILED, MORALE_FAILED)
END_HOOKS = (END_MELEE, END_OWN_MELEE, END_MELEE_RESOLVED)
SHEET_HOOKS = (
    OWN_FATE, OWN_SHOOTING, SHOT, BEFORE_ACTION, ACTIVATED, OWN_MELEE, ANY_MELEE, *STANDING,
    *END_HOOKS, BEFORE_CHARGE,
)  # fmt: skip
HOOKS = (*SHEET_HOOKS, ON_DRAW, FAILED_ACTIVATION, ENEMY_MELEE, ENEMY_TURN, OWN_COMMAND,
         *NOT_OFFERED)  # fmt: skip
PHASE_HOOKS = {"shooting": (OWN_SHOOTING,), "melee": (OWN_MELEE, ANY_MELEE, ENEMY_MELEE)}

# effect kind -> the choice its entry names (VF-222); 8 names a unit or a brigade
EFFECTS: dict[str, str | None] = {
    "eigeninitiative": None,
    "grossangriff": None,
    "schlachtenglueck": None,
    "friktion": None,
    "durchbruch": "brigade",
    "hartnaeckig": "unit",
    "toedlicher_angriff": "unit",
    "geleitetes_feuer": "shot",
    "inspiration": None,
    "ueberraschungsangriff": "unit",
    "eroberung": "objective",
    "grognards": "unit",
    "abschaum": None,
    "brigade_melee": "brigade",
    "army_melee": None,
    "brigade_ranged": "brigade",
    "brigade_move": "brigade",
    "steadfast": "unit",
    "standhaftigkeit": "unit",
    "kosaken": "enemy_unit",
    "reroll_ones": "brigade",
}
FILTERS = ("all", "infantry", "cavalry", "attack_column", "charge_ordered", "artillery_attack")
CARD_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DATA = Path(__file__).parent / "data" / "fate_tables.yaml"
TABLES_FORMAT = "vf-fate-tables/1"
SEED_LINES = 2665  # the rulebook's length: every line cited lies inside it
EDGE_IN = 18.0  # Kosakenüberfall (seed L1692)


@dataclass(frozen=True, slots=True)
class Card:
    card: str
    title: str
    hooks: tuple[str, ...]
    effect: str | None = None
    lines: tuple[int, ...] = ()
    filter: str = "all"
    host: bool = False  # only units of the army's own list (AMB-32)
    not_built: str | None = None
    gap: str | None = None  # the rulebook does not give the effect

    @property
    def hook(self) -> str:
        return self.hooks[0]

    @property
    def choice(self) -> str | None:
        if self.effect is None or (self.effect == "reroll_ones" and self.filter != "all"):
            return None
        return EFFECTS[self.effect]

    @property
    def playable(self) -> bool:
        return self.effect is not None and self.not_built is None and self.gap is None


def read_tables(doc: object) -> tuple[dict[str, dict[str, Card]], dict[str, Card]]:
    """`vf-fate-tables/1`: every army's 13 cards and its "Jede" row; raises ValueError with
    every problem."""
    r = Reader()
    tables: dict[str, dict[str, Card]] = {}
    anys: dict[str, Card] = {}
    top = r.mapping(doc, "", ("format", "source", "tables"))
    if top is not None:
        r.choice(top.get("format"), "format", (TABLES_FORMAT,))
        r.string(top.get("source"), "source")
        for army, value in (r.keyed(top.get("tables"), "tables", max_len=20) or {}).items():
            path = at("tables", army)
            fields = r.mapping(value, path, ("title", "lines", "cards"))
            if fields is None:
                continue
            r.string(fields.get("title"), at(path, "title"))
            _lines(r, fields.get("lines"), at(path, "lines"))
            cards: dict[str, Card] = {}
            for i, raw in enumerate(r.sequence(fields.get("cards"), at(path, "cards"),
                                               max_len=14) or []):  # fmt: skip
                card = _card(r, raw, idx(at(path, "cards"), i))
                if card is None:
                    continue
                if card.card in cards or (card.card == "any" and army in anys):
                    r.fail(idx(at(path, "cards"), i), f"card {card.card} twice")
                elif card.card == "any":
                    anys[army] = card
                else:
                    cards[card.card] = card
            if sorted(cards) != sorted(CARD_NAMES) or army not in anys:
                r.fail(path, "a fate table has the 13 cards A..K and the row 'any'", "VF-222")
            tables[army] = cards
    if r.problems:
        raise ValueError("; ".join(str(p) for p in r.problems[:10]))
    return tables, anys


def _lines(r: Reader, value: object, path: str) -> tuple[int, ...]:
    items = r.sequence(value, path, max_len=2) or []
    found = [r.integer(v, idx(path, i), minimum=1, maximum=SEED_LINES) for i, v in enumerate(items)]
    if not found:
        r.fail(path, "the rulebook lines of the row (one or two)")
    return tuple(n for n in found if n is not None)


def _card(r: Reader, raw: object, path: str) -> Card | None:
    optional = ("effect", "filter", "host", "not_built", "gap")
    f = r.mapping(raw, path, ("card", "title", "lines", "hooks"), optional)
    if f is None:
        return None
    name = r.choice(f.get("card"), at(path, "card"), ("any", *CARD_NAMES))
    title = r.string(f.get("title"), at(path, "title"), max_len=60)
    lines = _lines(r, f.get("lines"), at(path, "lines"))
    raw_hooks = r.sequence(f.get("hooks"), at(path, "hooks"), max_len=3) or []
    hooks = [r.choice(h, idx(at(path, "hooks"), i), HOOKS) for i, h in enumerate(raw_hooks)]
    effect = r.choice(f["effect"], at(path, "effect"), tuple(EFFECTS)) if "effect" in f else None
    filter_ = r.choice(f.get("filter", "all"), at(path, "filter"), FILTERS)
    host = r.boolean(f.get("host", False), at(path, "host"))
    not_built = r.string(f["not_built"], at(path, "not_built")) if "not_built" in f else None
    gap = f.get("gap")
    if gap is not None and not (isinstance(gap, str) and re.fullmatch(r"GAP-\d{1,3}", gap)):
        r.fail(at(path, "gap"), "a gap id GAP-n")
        gap = None
    if sum(k in f for k in ("effect", "not_built", "gap")) != 1:
        r.fail(path, "a card has exactly one of effect, not_built, gap", "VF-222")
        return None
    if name is None or title is None or not hooks or None in hooks:
        return None
    return Card(name, title, tuple(str(h) for h in hooks), effect, lines, filter_ or "all",
                bool(host), not_built, str(gap) if gap else None)  # fmt: skip


@cache
def _load() -> tuple[dict[str, dict[str, Card]], dict[str, Card]]:
    return read_tables(parse_yaml(read_bounded(DATA)))


TABLES, ANY_ROWS = _load()
ENTRY: JSON = {
    "type": "object",
    "properties": {
        "card": {"enum": list(CARD_NAMES)},
        "as": {"const": ANY},
        "unit": {"type": "string", "minLength": 1, "maxLength": 40},
        "brigade": {"type": "string", "minLength": 1, "maxLength": 40},
        "objective": {"type": "string", "minLength": 1, "maxLength": 40},
        "shot": {"type": "integer", "minimum": 0, "maximum": 29},
        "phase": {"enum": ["shooting", "melee"]},
        "path": PATH,  # 9: the extra Move
        "moves": {  # 4: one single Move per unit of the brigade
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "unit": {"type": "string", "minLength": 1, "maxLength": 40},
                    "path": PATH,
                },
                "required": ["unit", "path"],
                "additionalProperties": False,
            },
            "maxItems": 8,
        },
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


_FIELDS = {
    key: Draft202012Validator(ENTRY["properties"][key])  # type: ignore[arg-type, call-overload, index]
    for key in ("phase", "path", "moves")
}  # the sheet's schema leaves its fate entries to these checks


def table(game: GameState, side: str) -> dict[str, Card] | None:
    """The side's fate table (AMB-32: the host list's), None when the list has none."""
    return TABLES.get(m.side_state(game, side).army_list)


def hand(game: GameState, side: str) -> tuple[str, ...]:
    return m.side_state(game, side).fate.hand


def window_hooks(game: GameState, side: str) -> list[str]:
    """The windows a side's army has (from its public army list, never from its hand)."""
    hooks = {h for c in (table(game, side) or {}).values() if c.playable for h in c.hooks}
    out = [ENEMY_TURN] if hooks & {ENEMY_TURN, *STANDING} else []
    return out + ([ENEMY_MELEE] if hooks & {ENEMY_MELEE, ANY_MELEE} else [])


def allowed_hooks(window: str | None) -> tuple[str, ...]:
    if window is None:
        return SHEET_HOOKS
    return (ENEMY_TURN, *STANDING) if window == ENEMY_TURN else (ENEMY_MELEE, ANY_MELEE)


def entry_hook(card: Card, entry: dict[str, JSON], window: str | None) -> str | None:
    """The hook this entry plays the card at (its `phase` picks one of two timings)."""
    found = [h for h in card.hooks if h in allowed_hooks(window)]
    phase = entry.get("phase")
    if isinstance(phase, str):
        found = [h for h in found if h in PHASE_HOOKS.get(phase, ())]
    return found[0] if found else None


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
        wrong = [k for k, check in _FIELDS.items() if k in entry and not check.is_valid(entry[k])]
        if wrong:
            message = T("a fate entry's {key} does not fit its form", key=wrong[0])
            out.append(Rejection("schema", message, f"{path}/{wrong[0]}"))
            continue
        if entry.get("as") == ANY:
            anys += 1
            if window is not None or anys > 1:
                rule = T("Eigeninitiative: once per command phase, on your own sheet")
                out.append(Rejection("VF-222", rule, path))
            out.extend(_choice_problems(game, side, entry, ("brigade", "unit"), path))
            continue
        refused = refusal(card)
        if refused is not None:
            out.append(Rejection(refused[0], refused[1], path))
            continue
        hook = entry_hook(card, entry, window)
        if hook is None:
            message = T(
                "card {card} ({title}) is played at {hook}, not now",
                card=name,
                title=card.title,
                hook=" / ".join(card.hooks),
            )
            out.append(Rejection("VF-37", message, path))
            continue
        keys = (card.choice,) if card.choice else ()
        out.extend(_choice_problems(game, side, entry, keys, path))
        if card.effect == "inspiration" and ("unit" in entry) == ("brigade" in entry):
            message = T("card {card} names a unit or a brigade", card=name)
            out.append(Rejection("VF-222", message, path))
        elif card.effect == "inspiration":
            key = "unit" if "unit" in entry else "brigade"
            out.extend(_choice_problems(game, side, entry, (key,), path))
        out.extend(_move_problems(game, side, card, entry, path))
    return out


def refusal(card: Card) -> tuple[str, str] | None:
    """A card whose effect is unknown (its gap) or not built (VF-222), with the reason."""
    if card.gap is not None:
        message = T(
            "card {card} ({title}): the rulebook does not give its effect ({gap})",
            card=card.card,
            title=card.title,
            gap=card.gap,
        )
        return card.gap, message
    if card.not_built is not None:
        message = T(
            "card {card} ({title}) is not built: {why}",
            card=card.card,
            title=card.title,
            why=card.not_built,
        )
        return "VF-222", message
    return None


def _move_problems(
    game: GameState, side: str, card: Card, entry: dict[str, JSON], path: str
) -> list[Rejection]:
    """9 names the extra Move's path; 4 one Move per unit of its brigade (AMB-44: own)."""
    out = []
    if card.effect == "ueberraschungsangriff" and not path_of(entry.get("path")):
        message = T("card {card} needs the path of its extra Move", card=card.card)
        out.append(Rejection("VF-222", message, f"{path}/path"))
    if card.effect == "durchbruch":
        moves = entry.get("moves")
        brigade = next((b for b in game.brigades if b.id == entry.get("brigade")), None)
        units = [mv.get("unit") for mv in moves if isinstance(mv, dict)] if isinstance(
            moves, list
        ) else []  # fmt: skip
        if not units:
            message = T("card {card} needs the moves of its brigade's units", card=card.card)
            out.append(Rejection("VF-222", message, f"{path}/moves"))
        for k, unit_id in enumerate(units):
            if brigade is not None and (unit_id not in brigade.units or unit_id in units[:k]):
                message = T(
                    "{unit} is not of brigade {brigade}", unit=repr(unit_id), brigade=brigade.id
                )
                out.append(Rejection("VF-222", message, f"{path}/moves/{k}"))
    return out


def _choice_problems(
    game: GameState, side: str, entry: dict[str, JSON], keys: tuple[str, ...], path: str
) -> list[Rejection]:
    out = []
    for key in keys:
        field = "unit" if key == "enemy_unit" else key
        value = entry.get(field)
        ok = False
        if key == "unit":
            ok = any(u.id == value and u.side == side for u in game.units)
        elif key == "enemy_unit":
            ok = any(u.id == value and u.side != side for u in game.units)
        elif key == "brigade":
            ok = any(b.id == value and b.side == side for b in game.brigades)
        elif key == "objective":
            ok = any(o.id == value for o in game.objectives)
        elif key == "shot":
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 30
        if not ok:
            message = (
                T("the card needs an enemy unit: {value}", value=repr(value))
                if key == "enemy_unit"
                else T("the card needs a {key} of yours: {value}", key=key, value=repr(value))
            )
            out.append(Rejection("VF-222", message, f"{path}/{field}"))
    if "unit" in keys and "brigade" in keys and not out:
        brigade = m.brigade(game, str(entry["brigade"]))
        if entry["unit"] not in brigade.units:
            message = T(
                "{unit} is not of brigade {brigade}", unit=entry["unit"], brigade=brigade.id
            )
            out.append(Rejection("VF-222", message, f"{path}/unit"))
    return out


# --- the sheet's entries by hook ---


def _card_of(game: GameState, side: str, entry: dict[str, JSON]) -> Card | None:
    card = (table(game, side) or {}).get(str(entry.get("card")))
    return card if card is not None and card.playable else None


def _at(card: Card, entry: dict[str, JSON], hook: str) -> bool:
    """Whether the sheet's entry plays its card at `hook` (END_MELEE: any end of melee)."""
    found = entry_hook(card, entry, None)
    return found == hook or (hook == END_MELEE and found in END_HOOKS)


def sheet_entries(ctx: Ctx, hook: str) -> list[tuple[int, dict[str, JSON]]]:
    """The active side's sheet entries for `hook`, with their index."""
    sheet = ctx.flow.get("sheet")
    fate = sheet.get("fate") if isinstance(sheet, dict) else None
    side = str(ctx.game.turn.active_side)
    out = []
    for i, entry in enumerate(fate if isinstance(fate, list) else []):
        if not isinstance(entry, dict):
            continue
        if hook == FAILED_ACTIVATION and entry.get("as") == ANY:
            out.append((i, entry))
        elif entry.get("as") != ANY:
            card = _card_of(ctx.game, side, entry)
            if card is not None and _at(card, entry, hook):
                out.append((i, entry))
    return out


def steps_for(ctx_sheet: dict[str, JSON], game: GameState, side: str, hook: str) -> list[JSON]:
    """Queue steps for the sheet's entries played at a phase boundary (`hook`)."""
    fate = ctx_sheet.get("fate")
    out: list[JSON] = []
    for entry in fate if isinstance(fate, list) else []:
        if isinstance(entry, dict) and entry.get("as") != ANY:
            card = _card_of(game, side, entry)
            if card is not None and _at(card, entry, hook):
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
    effect = card.effect
    game = ctx.game
    wanted: dict[str, Callable[[], Fact]] = {}
    cinc = game.leader(m.side_state(game, side).cinc)
    if effect == "grossangriff" and not cinc.removed:  # own units within 12 in of the CinC
        for u in ms.table_units(game):
            if u.side == side:
                wanted[f"ga:{u.id}"] = _bind(ms.within, game, cinc, u, 12.0, "VF-222")
    if effect == "abschaum":  # Abschaum der Erde: contacts
        for u in _host_infantry(game, side):
            for e in ms.enemies(game, side):
                if ms.gap(game, u, e) <= ms.NEAR_IN:
                    wanted[f"touch:{u.id}:{e.id}"] = _bind(ms.contact, game, u, e)
    if effect == "kosaken":  # Kosakenüberfall: the enemy unit near a table edge
        target = game.unit(str(entry["unit"]))
        if not m.on_table(target):
            raise Skip("VF-222", T("{unit} is not on the table", unit=target.id))
        wanted[f"edge:{target.id}"] = _bind(near_edge, game, target, EDGE_IN)
    facts = ctx.need(wanted)
    if effect == "kosaken" and not facts[f"edge:{entry['unit']}"]:
        why = T("{unit} is more than {n} in from every table edge", unit=entry["unit"], n=18)
        raise Skip("VF-222", why)
    if effect in ("kosaken", "durchbruch") and not isinstance(ctx.flow.get("queue"), list):
        message = T(  # their moves and casualty are steps of the turn's queue
            "card {card} ({title}) is played at {hook}, not now",
            card=name,
            title=card.title,
            hook=" / ".join(card.hooks),
        )
        raise Skip("VF-37", message)
    _discard(ctx, side, name, entry_hook(card, entry, None) or card.hook, entry)
    if effect == "eroberung":
        _eroberung(ctx, side, str(entry["objective"]))
    elif effect == "friktion":
        other = m.other(side)
        state = m.side_state(ctx.game, other)
        ctx.game = m.with_side(ctx.game, replace(state, auto_activation_used_this_turn=True))
        _effect(ctx, card=name, side=side, scope="turn", kind="friktion", against=other)
        ctx.say(
            T(
                "Friktion: side {side} may activate no brigade automatically this turn, "
                "and its reserves due now arrive next round",
                side=other,
            )
        )
    elif effect == "grognards":
        _grognards(ctx, side, str(entry["unit"]))
    elif effect == "standhaftigkeit":
        _standhaftigkeit(ctx, side, str(entry["unit"]))
    elif effect == "abschaum":
        brigades = sorted({ctx.game.unit(k.split(":")[2]).brigade for k, v in facts.items() if v})
        _effect(ctx, card=name, side=side, scope="phase", kind="morale", brigades=list(brigades))
        named = ", ".join(brigades) or "-"
        ctx.say(T("Enemy brigades {brigades} test morale at -1 this phase", brigades=named))
    elif effect == "grossangriff":
        units = sorted(k.split(":")[1] for k, v in facts.items() if v)
        _effect(ctx, card=name, side=side, scope="phase", kind="melee", units=list(units))
        ctx.say(T("+1 melee this phase for {units}", units=", ".join(units) or "-"))
    elif effect in ("brigade_melee", "army_melee", "brigade_ranged"):
        _bonus(ctx, side, card, entry)
    elif effect == "brigade_move":
        _effect(ctx, card=name, side=side, scope="phase", kind="move",
                brigade=str(entry["brigade"]), bonus=6)  # fmt: skip
        ctx.say(T("Brigade {brigade} moves 6 in further this phase", brigade=entry["brigade"]))
    elif effect == "reroll_ones":
        _effect(ctx, card=name, side=side, scope="phase", kind="reroll_ones",
                brigade=entry.get("brigade"), filter=card.filter)  # fmt: skip
        ctx.say(T("Hit rolls of 1 are rerolled this phase ({title})", title=card.title))
    elif effect == "hartnaeckig":
        unit = ctx.game.unit(str(entry["unit"]))
        ctx.game = m.with_unit(ctx.game, replace(unit, casualties=max(0, unit.casualties - 1)))
        ctx.say(
            T("{unit} removes one casualty (now {n})", unit=unit.id, n=max(0, unit.casualties - 1))
        )
    elif effect == "geleitetes_feuer":
        _effect(ctx, card=name, side=side, scope="phase", kind="ranged", shot=entry["shot"])
        ctx.say(T("Artillery on a hill: the umpire rules on its line of sight (GAP-2)"))
    elif effect == "kosaken":  # the casualty (and its morale test, VF-102) is the next step
        queue = ctx.flow.get("queue")
        step: JSON = {"do": "fate_casualty", "unit": str(entry["unit"])}
        if isinstance(queue, list):
            queue[1:1] = [step]
    elif effect == "durchbruch":
        _durchbruch(ctx, side, entry)


def _bonus(ctx: Ctx, side: str, card: Card, entry: dict[str, JSON]) -> None:
    """+1 melee (a brigade's units, or the army's) or +1 ranged (a brigade's) this phase,
    for the units the card's filter names."""
    kind = "ranged" if card.effect == "brigade_ranged" else "melee"
    if card.filter == "charge_ordered":  # Rebel Yell!: the units given a Charge this turn
        sheet = ctx.flow.get("sheet")
        orders = sheet.get("units") if isinstance(sheet, dict) else None
        brigade = m.brigade(ctx.game, str(entry["brigade"]))
        units = [
            u for u in brigade.units
            if isinstance(orders, dict) and isinstance(orders.get(u), dict)
            and orders[u].get("action") == "CHARGE"  # type: ignore[union-attr]
        ]  # fmt: skip
        _effect(ctx, card=card.card, side=side, scope="phase", kind=kind, units=list[JSON](units))
        ctx.say(T("+1 melee this phase for {units}", units=", ".join(units) or "-"))
        return
    scope: dict[str, JSON] = (
        {"army": True} if card.effect == "army_melee" else {"brigade": str(entry["brigade"])}
    )
    _effect(ctx, card=card.card, side=side, scope="phase", kind=kind, filter=card.filter,
            host=card.host, **scope)  # fmt: skip
    if card.effect == "army_melee":
        ctx.say(T("{title}: +1 melee this phase for the army's cavalry", title=card.title))
    elif kind == "melee":
        ctx.say(
            T(
                "{title}: +1 melee this phase for the units of brigade {brigade} the card names",
                title=card.title,
                brigade=entry["brigade"],
            )
        )
    else:
        ctx.say(
            T(
                "{title}: +1 ranged this phase for the units of brigade {brigade} the card names",
                title=card.title,
                brigade=entry["brigade"],
            )
        )


def discard_any(ctx: Ctx, side: str, entry: dict[str, JSON]) -> None:
    """Eigeninitiative: any card discarded; one unit of the failed brigade acts (once per
    command phase)."""
    _discard(ctx, side, str(entry["card"]), FAILED_ACTIVATION, entry)
    _effect(ctx, card=ANY, side=side, scope="phase", kind="eigeninitiative")
    ctx.say(T("Eigeninitiative: {unit} may take an action", unit=entry["unit"]))


def _bind(fn: Callable[..., Fact], *args: object) -> Callable[[], Fact]:  # type: ignore[explicit-any]
    return lambda: fn(*args)


def near_edge(game: GameState, unit: Unit, inches: float) -> Fact:
    """Whether a part of the unit lies within `inches` of a table edge (Kosakenüberfall)."""
    width, depth = float(game.table.width_in), float(game.table.depth_in)
    near = min(
        min(x, y, width - x, depth - y)
        for b in unit.bases
        for x, y in base_corners(b)
    )  # fmt: skip
    text = f"{unit.id} is within {inches:g} in of a table edge"
    return Fact(text, near <= inches + 1e-9, BOOL, "VF-222", f"nearest edge {near:.2f} in")


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


def _standhaftigkeit(ctx: Ctx, side: str, unit_id: str) -> None:
    """Q (Russia, seed L1693): a Russian unit: +1 morale for the rest of the game."""
    unit = ctx.game.unit(unit_id)
    if not m.on_table(unit):
        raise Skip("VF-222", T("{unit} is not on the table", unit=unit_id))
    if unit.army_list != m.side_state(ctx.game, side).army_list:  # AMB-32
        raise Skip("VF-222", T("{unit} is not of your army's own list", unit=unit_id))
    stats = replace(unit.stats, morale=unit.stats.morale + 1)
    ctx.game = m.with_unit(ctx.game, replace(unit, stats=stats))
    ctx.say(T("{unit} has +1 morale for the rest of the game", unit=unit_id))


def _host_infantry(game: GameState, side: str) -> list[Unit]:
    host = m.side_state(game, side).army_list
    return [
        u for u in ms.table_units(game) if u.side == side and is_infantry(u) and u.army_list == host
    ]


def objective_points(o: Objective, side: str) -> int:
    """VF-115 with card 10."""
    if o.controller != side:
        return 0
    return 2 if o.counts_double_for == side else 1


# --- cards 4 and 9: moves of their own ---


def _durchbruch(ctx: Ctx, side: str, entry: dict[str, JSON]) -> None:
    """4 (seed L973): the brigade's units each make one single Move (no charge, withdraw or
    march; AMB-44: no activation or messenger test), each a step of its own after this one."""
    moves = entry.get("moves")
    steps: list[JSON] = [
        {"do": "fate_move", "side": side, "card": "4", "unit": mv["unit"], "path": mv["path"]}
        for mv in (moves if isinstance(moves, list) else [])
        if isinstance(mv, dict)
    ]
    ctx.say(T("Durchbruch: brigade {brigade} makes its moves", brigade=entry["brigade"]))
    queue = ctx.flow.get("queue")
    if isinstance(queue, list):
        queue[1:1] = steps  # after this step, which the runner pops


def surprise(ctx: Ctx, unit_id: str) -> list[JSON] | None:
    """9 before the unit's Charge (seed L978): the card's step, then the charge (whose
    messenger test the card's step has taken); None when no entry names the unit."""
    sheet = ctx.flow.get("sheet")
    orders = sheet.get("units") if isinstance(sheet, dict) else None
    order = orders.get(unit_id) if isinstance(orders, dict) else None
    if not isinstance(order, dict) or order.get("action") != "CHARGE":
        return None
    side = str(ctx.game.turn.active_side)
    for _, entry in sheet_entries(ctx, BEFORE_CHARGE):
        if entry.get("unit") == unit_id and str(entry["card"]) in hand(ctx.game, side):
            return [{"do": "fate_move", "side": side, "card": str(entry["card"]),
                     "unit": unit_id, "path": entry.get("path"), "entry": entry}]  # fmt: skip
    return None


Messenger = Callable[[Ctx, Unit, dict[str, JSON]], bool]


def move_step(ctx: Ctx, step: dict[str, JSON], messenger: Messenger) -> list[JSON]:
    """One Move of card 4 or 9 (VF-56..VF-58): the umpire's facts, the allowance (with K of
    France), then the move. 9 first takes the unit's messenger test (VF-55, `messenger`: the
    command phase's, handed in by the turn); if the extra Move cannot be made the card stays in
    the hand and the charge follows as ordered."""
    game = ctx.game
    side, name = str(step["side"]), str(step["card"])
    unit = game.unit(str(step["unit"]))
    path = path_of(step.get("path"))
    surprise_ = "entry" in step
    if not m.on_table(unit):
        raise Skip("VF-53", T("{unit} is not on the table", unit=unit.id))
    wanted: dict[str, Callable[[], Fact]] = {
        "cost": _bind(ms.path_cost, game, unit, path, False),
        "clear": _bind(ms.end_clear, game, unit, path, False),
        "place": _bind(ms.placement, unit, path),
        "start": _bind(ms.enemy_closer_than, game, unit, ms.KEEP_AWAY_IN, "VF-58"),
        "keep": _bind(ms.clearance, game, unit, path, ms.KEEP_AWAY_IN, "VF-58", False),
    }
    bg = game.leader(m.brigade(game, unit.brigade).bg)
    if surprise_ and not bg.removed:
        wanted["messenger"] = _bind(ms.within, game, bg, unit, 12.0, "VF-55")
    facts = ctx.need(wanted)
    if surprise_ and not messenger(ctx, unit, facts):  # VF-55
        return []
    charge: list[JSON] = [{"do": "unit", "unit": unit.id, "stage": "move"}] if surprise_ else []
    problem = _move_problem(ctx, unit, facts)
    if problem is not None and surprise_:
        ctx.say(T("Skipped ({rule}): {why}", rule=problem[0], why=problem[1]))
        return charge
    if problem is not None:
        raise Skip(*problem)
    if surprise_:
        entry = step["entry"]
        assert isinstance(entry, dict)
        _discard(ctx, side, name, BEFORE_CHARGE, entry)
    place = facts["place"]
    assert isinstance(place, list)
    dx, dy = offset(place)
    ctx.game = m.with_unit(ctx.game, ms.moved(ctx.game.unit(unit.id), dx, dy))
    ctx.say(
        T(
            "{unit} makes a Move of card {card} ({cost} in), placed at offset ({dx}, {dy})",
            unit=unit.id,
            card=name,
            cost=facts["cost"],
            dx=dx,
            dy=dy,
        )
    )
    return charge


def _move_problem(ctx: Ctx, unit: Unit, facts: dict[str, JSON]) -> tuple[str, str] | None:
    limit = allowance(unit) + move_bonus(ctx, unit)  # VF-57 (AMB-14)
    cost = facts["cost"]
    if cost is None:
        return "VF-190", T("the path crosses impassable terrain")
    if Decimal(str(cost)) > limit:
        return "VF-57", T(
            "the path costs {cost} in; the allowance is {limit} in", cost=cost, limit=limit
        )
    if not facts["clear"]:
        return "VF-56", T(
            "{unit} would leave the table, touch a friend or pass a leader", unit=unit.id
        )
    if facts["start"] or not facts["keep"]:
        return "VF-58", T("{unit} comes too close to enemy units", unit=unit.id)
    return None


# --- effects read by the rules ---


def _fits(game: GameState, unit: Unit, filter_: JSON, host: JSON) -> bool:
    if host and unit.army_list != m.side_state(game, unit.side).army_list:  # AMB-32
        return False
    if filter_ == "infantry":
        return is_infantry(unit)
    if filter_ == "cavalry":
        return is_cavalry(unit)
    if filter_ == "attack_column":
        return unit.formation is Formation.ATTACK_COLUMN
    return filter_ in (None, "all")


def melee_bonus(ctx: Ctx, unit: Unit) -> int:
    """A, Q, K and the national melee cards: +1 melee value this phase (not for march
    column's fixed value, VF-83)."""
    if in_march_column(unit):
        return 0
    bonus = 0
    for e in effects(ctx.flow):
        if e.get("kind") != "melee" or e.get("side") != unit.side:
            continue
        units = e.get("units")
        if isinstance(units, list):
            bonus += 1 if unit.id in units else 0
        elif e.get("brigade") == unit.brigade or e.get("army"):
            bonus += 1 if _fits(ctx.game, unit, e.get("filter"), e.get("host")) else 0
    return bonus


def ranged_bonus(ctx: Ctx, unit: Unit, shot: int) -> int:
    """7 (the firer of the named shot), K of Britain (British infantry of the brigade)."""
    bonus = 0
    for e in effects(ctx.flow):
        if e.get("kind") != "ranged" or e.get("side") != unit.side:
            continue
        named = "shot" in e and e.get("shot") == shot
        salvo = e.get("brigade") == unit.brigade and _fits(
            ctx.game, unit, e.get("filter"), e.get("host")
        )
        bonus += 1 if named or salvo else 0
    return bonus


def move_bonus(ctx: Ctx, unit: Unit) -> int:
    """K of France, Q of the Confederates: +6 in this phase (AMB-14: added before any
    doubling)."""
    return sum(
        int(str(e.get("bonus", 6)))
        for e in effects(ctx.flow)
        if e.get("kind") == "move" and e.get("brigade") == unit.brigade
        and e.get("side", unit.side) == unit.side
    )  # fmt: skip


def morale_modifier(ctx: Ctx, unit: Unit) -> int:
    """J of Britain: -1 on morale tests of the enemy brigades it named, this phase; the
    national "test passed" cards: +1 on the own list's morale tests to the end of the turn."""
    out = 0
    host = m.side_state(ctx.game, unit.side).army_list
    for e in effects(ctx.flow):
        brigades = e.get("brigades")
        named = isinstance(brigades, list) and unit.brigade in brigades
        if e.get("kind") == "morale" and e.get("side") != unit.side and named:
            out -= 1
        if e.get("kind") == "morale_bonus" and e.get("side") == unit.side:
            out += 1 if unit.army_list == host else 0
    return out


def friction(ctx_flow: dict[str, JSON], side: str) -> bool:
    """3: the side's reserves arrive next round."""
    return any(e.get("kind") == "friktion" and e.get("against") == side for e in effects(ctx_flow))


def _standing(
    ctx: Ctx, side: str, key: str, value: str, effects_: tuple[str, ...]
) -> tuple[Card, dict[str, JSON]] | None:
    """The first standing entry of `side` for a card of `effects_` naming `key` = `value`:
    the active side's sheet, or the inactive side's window answer at the start of this turn."""
    if side == ctx.game.turn.active_side:
        sheet = ctx.flow.get("sheet")
        found = sheet.get("fate") if isinstance(sheet, dict) else None
    else:
        standing = ctx.flow.get("standing")
        found = standing.get(side) if isinstance(standing, dict) else None
    for entry in found if isinstance(found, list) else []:
        if not isinstance(entry, dict) or entry.get("as") == ANY or entry.get(key) != value:
            continue
        card = _card_of(ctx.game, side, entry)
        if card is not None and card.effect in effects_ and card.card in hand(ctx.game, side):
            return card, entry
    return None


def inspiration(ctx: Ctx, side: str, key: str, value: str) -> bool:
    """8: a failed morale test of the unit (or resolve test of the brigade) counts as passed;
    J of Austria and of 1806, K of the Union: a failed morale test of a unit of the own list
    counts as passed, and the list's morale tests are at +1 to the end of the turn (AMB-3)."""
    host = m.side_state(ctx.game, side).army_list
    kinds: tuple[str, ...] = ("inspiration",)
    if key == "unit" and ctx.game.unit(value).army_list == host:
        kinds = ("inspiration", "steadfast")
    found = _standing(ctx, side, key, value, kinds)
    if found is None:
        return False
    card, entry = found
    _discard(ctx, side, card.card, card.hook, entry)
    if card.effect == "inspiration":
        ctx.say(T("Inspiration: the test counts as passed"))
        return True
    _effect(ctx, card=card.card, side=side, scope="turn", kind="morale_bonus")
    ctx.say(
        T(
            "{title}: the test counts as passed; morale tests of the army's own units are at "
            "+1 to the end of this turn",
            title=card.title,
        )
    )
    return True


def _reroll_ones(ctx: Ctx, unit: Unit) -> bool:
    """Nothardt-Gewehr, Heimatstolz (the named brigade's attacks), Artillerieexperte (a
    shot whose firer and supporters are all artillery)."""
    for e in effects(ctx.flow):
        if e.get("kind") != "reroll_ones" or e.get("side") != unit.side:
            continue
        if e.get("filter") == "artillery_attack":
            if ctx.game.turn.phase is Phase.SHOOTING and _artillery_shot(ctx, unit):
                return True
        elif e.get("brigade") == unit.brigade:
            return True
    return False


def _artillery_shot(ctx: Ctx, unit: Unit) -> bool:
    sheet = ctx.flow.get("sheet")
    shots = sheet.get("shooting") if isinstance(sheet, dict) else None
    index = ctx.flow.get("shot")
    if not isinstance(shots, list) or not isinstance(index, int) or index >= len(shots):
        return False
    shot = shots[index]
    if not isinstance(shot, dict) or shot.get("firer") != unit.id:
        return False
    helpers = shot.get("supporters")
    ids = [unit.id, *(str(h) for h in (helpers if isinstance(helpers, list) else []))]
    return all(is_artillery(ctx.game.unit(i)) for i in ids)


def hit_tests(
    ctx: Ctx, unit: Unit, dice: int, modifier: int, reroll_ones: bool
) -> tuple[list[int], int]:
    """VF-94, VF-3 as `values.hit_tests` (the same dice in the same order), then card 6: the
    failed dice not yet rerolled are rerolled once (VF-T4)."""
    reroll_ones = reroll_ones or _reroll_ones(ctx, unit)
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
        found = _standing(ctx, unit.side, "unit", unit.id, ("toedlicher_angriff",))
        if found is not None:
            _discard(ctx, unit.side, found[0].card, HITS_FAILED, found[1])
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
    """The window's answer (validated): card 3 at once; standing cards kept for this turn;
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
        at_hook = entry_hook(card, entry, hook)
        if at_hook in STANDING:
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
