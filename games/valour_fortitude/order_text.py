"""Orders as text (digest 4.5): the whole turn order sheet, the initiative choice and the
umpire's answers written one order a line, for orders by email and the web page's text box.

    # side A, round 2                      (a `#` starts a comment; case does not matter)
    fire U-A7 at U-B4 mode skirmish support U-A8        shooting, in this order (VF-40..46)
    brigades BR-A2 BR-A1 BR-A3                           brigade_order (VF-50; first: AMB-11)
    move U-A5 to 50,20 54,27                            a unit's action and its path (VF-54..65)
    move U-A4 to 50,20 formation formation=LINE files=8   a formation change after (`before`: first)
    charge U-A6 at U-B3 to 60,20 61,31                  a charge names its target (VF-63)
    rally U-A9                                          also: stand, withdraw, march
    bg L-A2 to 52,18 55,22                              a brigade general's move (VF-66)
    cinc to 40,10 45,14                                 the CinC's move (VF-66)
    melee auto                                          or one `fight` line per fight (VF-71):
    fight U-A6 at U-B3 support U-A5 brigade U-A7          melee_plan (VF-91, VF-93)
    on_illegal skip                                     (4.5; `ask` is refused by the sheet check)
    strike_back auto                                    your standing policy for the enemy's
                                                          turns: support your strike backs (V-09)
    occupy U-A5 in V1                                   occupy a defensible feature (VF-195);
                                                          an occupant leaves with move/withdraw
    occupy_after_melee yes                              take a feature whose occupant fled (V-12)
    fate 5 unit U-A3                                    a fate card on the sheet (VF-223): also
                                                          brigade, objective, shot <n>,
                                                          phase shooting|melee,
                                                          as eigeninitiative
    fate 9 unit U-A6 to 50,20                           card 9's extra Move before the charge
    fate 4 brigade BR-A1 move U-A1 to 5,6 move U-A2 to 7,8   card 4: one Move a unit
    reserve U-A9 at 20,0 to 20,6 20,12 after BR-A1      a reserve unit enters (VF-120..122)
    pass                                                an empty sheet: the turn is played idle

    play 3                                              in an open fate window (V-01), one
    play none                                             card a line, or none

    first A                                             choose_first_side (VF-251)
    confirm [a note]                                    the umpire: every proposal stands (V-14)
    correct contact:U-A1:U-B2 no because the hedge is between them     one fact overridden

Points are `x,y` in inches (also `(x, y)` or `x y`), at most three decimals. A unit may also be
written first (`U-A5 move to 50,20`). Ids are matched without regard to case. The lines of a
sheet become ONE `turn_orders` action, in the JSON form the sheet's schema and checks accept
(`parse(format(sheet)) == canonical(sheet)`); the text reader never judges legality, the
ruleset validates the actions it returns. A line it cannot read is refused with the rule of its
form ("4.5" for the sheet, "VF-251", "V-14", "VF-222" for fate cards, "VF-120" for reserves)
and its line number, at `/line/<n>`.

The line forms are tables (`SHEET_LINES`, `OTHER_LINES`, and `UNIT_ACTIONS` for the per-unit
actions): a new field of the sheet is one reader function and one writer in `FORMATTERS`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from games.core.i18n import T
from games.core.protocol import JSON, Action, Rejection, Role
from games.core.umpire import CORRECTION_KIND
from games.valour_fortitude import match as m
from games.valour_fortitude.context import BOOL, COUNT, COVER, COVER_CLASSES, INCHES, OFFSET
from games.valour_fortitude.kinds import CONFIRM, FIRST_SIDE, PLAY_FATE, TURN_ORDERS
from games.valour_fortitude.order_sheet import ACTIONS, MODES
from games.valour_fortitude.state import exact

RULE = "4.5"  # the form of the written sheet
MAX_LINES = 400
MAX_LINE_CHARS = 1200  # a correction's reason may be 1000 characters
COORD = re.compile(r"^-?\d{1,4}(\.\d{1,3})?$")  # paths.COORD's text form
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class TextError(Exception):
    def __init__(self, message: str, rule: str = RULE) -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


@dataclass
class Sheet:
    """The sheet being read, with the line each single-valued field came from."""

    data: dict[str, JSON] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    passed: int = 0  # the line of `pass`, if any

    def once(self, key: str, n: int) -> None:
        if key in self.lines:
            raise TextError(
                T(
                    "{what} was already given on line {first}",
                    what=key,
                    first=self.lines[key],
                )
            )
        self.lines[key] = n

    def append(self, key: str, item: JSON) -> None:
        items = self.data.setdefault(key, [])
        assert isinstance(items, list)
        items.append(item)

    def put(self, key: str, name: str, item: JSON) -> None:
        items = self.data.setdefault(key, {})
        assert isinstance(items, dict)
        items[name] = item


@dataclass(frozen=True)
class Names:
    """The ids the text may name (matched without regard to case) and the open facts."""

    units: dict[str, str]
    brigades: dict[str, str]
    leaders: dict[str, str]
    facts: dict[str, tuple[str, str]]  # lower key -> (key, kind)
    features: dict[str, str] = field(default_factory=dict)  # terrain pieces (VF-195)

    @staticmethod
    def of(state: m.Match) -> Names:
        game = state.game
        facts = {
            str(p["key"]).lower(): (str(p["key"]), str(p["kind"]))
            for p in state.pending or []
            if isinstance(p, dict)
        }
        return Names(
            {u.id.lower(): u.id for u in game.units},
            {b.id.lower(): b.id for b in game.brigades},
            {x.id.lower(): x.id for x in game.leaders},
            facts,
            {t.id.lower(): t.id for t in game.terrain},
        )


def _known(table: dict[str, str], word: str, what: str) -> str:
    found = table.get(word.lower())
    if found is not None:
        return found
    close = difflib.get_close_matches(word.lower(), list(table), n=3)
    hint = ", ".join(table[c] for c in close) or "-"
    if what == "brigade":
        raise TextError(
            T("there is no brigade {name} (did you mean: {hint})", name=word, hint=hint)
        )
    if what == "leader":
        raise TextError(T("there is no leader {name} (did you mean: {hint})", name=word, hint=hint))
    if what == "feature":
        raise TextError(
            T("there is no terrain feature {name} (did you mean: {hint})", name=word, hint=hint)
        )
    raise TextError(T("there is no unit {name} (did you mean: {hint})", name=word, hint=hint))


def unit(names: Names, word: str) -> str:
    return _known(names.units, word, "unit")


def units(names: Names, words: list[str]) -> list[JSON]:
    if [w.lower() for w in words] == ["none"]:
        return []
    if not words:
        raise TextError(T("name the supporting units, or write 'support none'"))
    return [unit(names, w) for w in words]


def points(words: list[str]) -> list[JSON]:
    """`50,20 54,27`, `(50, 20) (54, 27)` or `50 20 54 27` -> [["50", "20"], ["54", "27"]]."""
    text = " ".join(words)
    plain = re.sub(r"[()\[\],;]", " ", text)
    found = plain.split()
    if not found or len(found) % 2 or not all(NUMBER.fullmatch(w) for w in found):
        raise TextError(T("write the points as x,y in inches, for example 50,20 54,27"))
    bad = [w for w in found if not COORD.match(w)]
    if bad:
        raise TextError(
            T("{number} is not a distance in inches (at most three decimals)", number=bad[0])
        )
    if len(found) > 24:
        raise TextError(T("a path has at most 12 points"))
    return [[found[i], found[i + 1]] for i in range(0, len(found), 2)]


def clauses(words: list[str], keys: dict[str, str]) -> dict[str, list[str]]:
    """Split `words` at the clause words of `keys` (synonym -> clause), each clause once; the
    words before the first clause are under ""."""
    out: dict[str, list[str]] = {"": []}
    current = ""
    for w in words:
        key = keys.get(w.lower())
        if key is not None:
            if key in out:
                raise TextError(T("'{word}' is given twice on one line", word=w.lower()))
            out[key] = []
            current = key
        else:
            out[current].append(w)
    return out


def _subject(found: dict[str, list[str]], usage: str) -> list[str]:
    head = found[""]
    if not head:
        raise TextError(T("write: {usage}", usage=usage))
    return head


# ----------------------------------------------------------------------------- sheet lines

ShotKeys = {
    "at": "at",
    "on": "at",
    "mode": "mode",
    "support": "support",
    "supporters": "support",
    "supported": "support",
    "with": "support",
    "by": "support",
}


def _fire(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    usage = "fire <firer> at <target> [mode full|skirmish|carbine] [support <units>]"
    found = clauses(words, ShotKeys)
    head = _subject(found, usage)
    if "at" not in found and len(head) == 2:
        head, found["at"] = head[:1], head[1:]  # `fire U-A7 U-B4`
    if len(head) != 1 or len(found.get("at", [])) != 1:
        raise TextError(T("write: {usage}", usage=usage))
    shot: dict[str, JSON] = {"target": unit(names, found["at"][0]), "firer": unit(names, head[0])}
    if "mode" in found:
        mode = [w.lower() for w in found["mode"]]
        if len(mode) != 1 or mode[0] not in MODES:
            raise TextError(T("the mode of fire is one of: {modes}", modes=", ".join(MODES)))
        shot["mode"] = mode[0]
    if "support" in found:
        shot["supporters"] = units(names, found["support"])
    sheet.append("shooting", shot)


def _brigades(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    if words[:1] and words[0].lower() in ("order", "first"):
        words = words[1:]  # `brigade order ...`
    if not words:
        raise TextError(T("write: {usage}", usage="brigades <brigade> <brigade> ..."))
    for w in words:
        sheet.append("brigade_order", _known(names.brigades, w, "brigade"))


UnitKeys = {
    "at": "at",
    "target": "at",
    "to": "to",
    "via": "to",
    "path": "to",
    "formation": "formation",
    "after": "formation",
    "before": "before",
    "in": "in",  # occupy <unit> in <feature> (VF-195)
    "into": "in",
}


def _unit_action(action: str) -> Callable[[Names, Sheet, list[str], int], None]:
    def read(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
        usage = f"{action.lower()} <unit> [at <target>] [to <points>]"
        found = clauses(words, UnitKeys)
        head = _subject(found, usage)
        if len(head) != 1:
            raise TextError(T("write: {usage}", usage=usage))
        uid = unit(names, head[0])
        sheet.once(f"units/{uid}", n)
        order: dict[str, JSON] = {"action": action}
        if "to" in found:
            order["path"] = points(found["to"])
        if "at" in found:
            if len(found["at"]) != 1:
                raise TextError(T("write: {usage}", usage=usage))
            order["target"] = unit(names, found["at"][0])
        if "in" in found:  # VF-195
            if len(found["in"]) != 1:
                raise TextError(T("write: {usage}", usage="occupy <unit> in <feature>"))
            order["feature"] = _known(names.features, found["in"][0], "feature")
        if "before" in found:  # VF-60 (formations.py)
            order["formation_before"] = _pairs(found["before"])
        if "formation" in found:
            order["formation_after"] = _pairs(found["formation"])
        sheet.put("units", uid, order)

    return read


def _pairs(words: list[str]) -> dict[str, JSON]:
    """`pivot=1 formation=ATTACK_COLUMN` -> {"pivot": 1, "formation": "ATTACK_COLUMN"}: a
    formation change as the sheet's schema takes it (whole numbers as numbers, the rest as
    text; the schema and formations.py judge it, VF-60)."""
    out: dict[str, JSON] = {}
    for w in words:
        key, eq, value = w.partition("=")
        if not eq or not key or not value:
            raise TextError(T("write the formation as key=value pairs, e.g. formation=LINE"))
        out[key] = int(value) if re.fullmatch(r"-?\d{1,6}", value) else value
    if not out:
        raise TextError(T("write the formation as key=value pairs, e.g. formation=LINE"))
    return out


def _bg(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    found = clauses(words, {"to": "to", "via": "to", "path": "to"})
    head = found[""]
    if len(head) != 1 or "to" not in found:
        raise TextError(T("write: {usage}", usage="bg <leader> to <points>"))
    leader = _known(names.leaders, head[0], "leader")
    sheet.once(f"bg_moves/{leader}", n)
    sheet.put("bg_moves", leader, points(found["to"]))


def _cinc(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    found = clauses(words, {"to": "to", "via": "to", "path": "to"})
    if found[""] or "to" not in found:
        raise TextError(T("write: {usage}", usage="cinc to <points>"))
    sheet.once("cinc_move", n)
    sheet.data["cinc_move"] = points(found["to"])


def _melee(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    if [w.lower() for w in words] not in (["auto"], ["plan", "auto"]):
        raise TextError(
            T("write 'melee auto', or one line 'fight <unit> at <target> [support <units>]'")
        )
    sheet.once("melee_plan", n)
    sheet.data["melee_plan"] = "auto"


def _fight(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    usage = "fight <attacker> at <target> [support <units>] [brigade <unit>|none]"
    keys = {k: v for k, v in ShotKeys.items() if v != "mode"}
    found = clauses(words, {**keys, "brigade": "brigade"})
    head = _subject(found, usage)
    if "at" not in found and len(head) == 2:
        head, found["at"] = head[:1], head[1:]
    if len(head) != 1 or len(found.get("at", [])) != 1:
        raise TextError(T("write: {usage}", usage=usage))
    if sheet.data.get("melee_plan") == "auto":
        raise TextError(
            T(
                "the melee plan is 'auto' (line {first}): drop it or the fights",
                first=sheet.lines["melee_plan"],
            )
        )
    sheet.lines.setdefault("melee_plan", n)
    fight: dict[str, JSON] = {
        "attacker": unit(names, head[0]),
        "target": unit(names, found["at"][0]),
    }
    if "support" in found:
        fight["supporters"] = units(names, found["support"])
    if "brigade" in found:  # VF-93
        if len(found["brigade"]) != 1:
            raise TextError(T("write: {usage}", usage=usage))
        word = found["brigade"][0]
        fight["brigade_supporter"] = None if word.lower() == "none" else unit(names, word)
    sheet.append("melee_plan", fight)


def _on_illegal(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    choice = [w.lower() for w in words]
    if choice not in (["skip"], ["ask"]):
        raise TextError(T("write 'on_illegal skip' or 'on_illegal ask'"))
    sheet.once("on_illegal", n)
    sheet.data["on_illegal"] = choice[0]


def _occupy_after_melee(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    choice = [w.lower() for w in words]
    if choice not in (["yes"], ["no"]):
        raise TextError(T("write 'occupy_after_melee yes' or 'occupy_after_melee no'"))
    sheet.once("occupy_after_melee", n)
    sheet.data["occupy_after_melee"] = choice[0]


def _strike_back(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    choice = [w.lower() for w in words]
    if choice not in (["auto"], ["none"]):
        raise TextError(T("write 'strike_back auto' or 'strike_back none'"))
    sheet.once("strike_back", n)
    sheet.data["strike_back"] = choice[0]


FateKeys = {
    "unit": "unit",
    "brigade": "brigade",
    "objective": "objective",
    "shot": "shot",
    "as": "as",
    "phase": "phase",
    "to": "to",
    "via": "to",
    "path": "to",
}
CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # fate.ENTRY


def fate_entry(names: Names, words: list[str]) -> dict[str, JSON]:
    """`<card> [unit <u>] [brigade <b>] [objective <o>] [shot <n>] [as eigeninitiative]` -> a
    fate entry (fate.ENTRY); the fate checks judge it (VF-36, VF-37, VF-222)."""
    usage = (
        "fate <card> [unit <unit>] [brigade <brigade>] [objective <id>] [shot <n>]"
        " [phase shooting|melee] [to <points>] [move <unit> to <points> ...]"
    )
    cuts = [i for i, w in enumerate(words) if w.lower() == "move"]  # card 4: one Move a unit
    moves: list[JSON] = []
    ends = [*cuts[1:], len(words)] if cuts else []
    for a, b in zip(cuts, ends, strict=True):
        move = clauses(words[a + 1 : b], {"to": "to", "via": "to", "path": "to"})
        if len(move[""]) != 1 or "to" not in move:
            raise TextError(T("write: {usage}", usage=usage), "VF-222")
        moves.append({"unit": unit(names, move[""][0]), "path": points(move["to"])})
    words = words[: cuts[0]] if cuts else words
    found = clauses(words, FateKeys)
    head = found[""]
    if len(head) != 1 or head[0].upper() not in CARDS:
        raise TextError(T("write: {usage}", usage=usage), "VF-222")
    entry: dict[str, JSON] = {"card": head[0].upper()}
    if "to" in found:  # card 9: the extra Move
        entry["path"] = points(found["to"])
    if moves:
        entry["moves"] = moves
    for key in ("unit", "brigade", "objective", "shot", "as", "phase"):
        if key not in found:
            continue
        if len(found[key]) != 1:
            raise TextError(T("write: {usage}", usage=usage), "VF-222")
        word = found[key][0]
        if key == "unit":
            entry[key] = unit(names, word)
        elif key == "brigade":
            entry[key] = _known(names.brigades, word, "brigade")
        elif key == "shot":
            if not re.fullmatch(r"\d{1,2}", word):
                raise TextError(T("the shot is the number of a shooting order, from 0"), "VF-222")
            entry[key] = int(word)
        else:
            entry[key] = word.lower() if key in ("as", "phase") else word
    return entry


def _fate(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    sheet.append("fate", fate_entry(names, words))  # VF-223: cards on the sheet


def _reserve(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    usage = "reserve <unit> at <x,y> to <points> [after <brigade>]"
    found = clauses(words, {"at": "at", "to": "to", "via": "to", "path": "to", "after": "after"})
    head = found[""]
    if len(head) != 1 or "at" not in found or "to" not in found:
        raise TextError(T("write: {usage}", usage=usage), "VF-120")
    at = points(found["at"])
    if len(at) != 1:
        raise TextError(T("write: {usage}", usage=usage), "VF-120")
    entry: dict[str, JSON] = {
        "unit": unit(names, head[0]),
        "at": at[0],
        "path": points(found["to"]),
    }
    if "after" in found:
        if len(found["after"]) != 1:
            raise TextError(T("write: {usage}", usage=usage), "VF-120")
        entry["after"] = _known(names.brigades, found["after"][0], "brigade")
    sheet.append("reserves", entry)


def _pass(names: Names, sheet: Sheet, words: list[str], n: int) -> None:
    if words:
        raise TextError(T("'pass' stands alone on its line"))
    sheet.passed = n


SheetLine = Callable[[Names, Sheet, list[str], int], None]
UNIT_ACTIONS: dict[str, str] = {a.lower(): a for a in ACTIONS}  # VF-54
SHEET_LINES: dict[str, SheetLine] = {
    "fire": _fire,
    "shoot": _fire,
    "brigades": _brigades,
    "brigade": _brigades,
    "bg": _bg,
    "cinc": _cinc,
    "melee": _melee,
    "fight": _fight,
    "on_illegal": _on_illegal,
    "strike_back": _strike_back,
    "occupy_after_melee": _occupy_after_melee,  # V-12, VF-200
    "fate": _fate,
    "reserve": _reserve,
    "pass": _pass,
    **{word: _unit_action(action) for word, action in UNIT_ACTIONS.items()},
}


# ----------------------------------------------------------------------------- other kinds


def _first(names: Names, role: Role, words: list[str]) -> Action:
    side = [w.upper() for w in words if w.lower() not in ("side", "is")]
    if len(side) != 1 or side[0] not in ("A", "B"):
        raise TextError(T("write 'first A' or 'first B'"), "VF-251")
    return Action(role, FIRST_SIDE, {"side": side[0]})


def _confirm(names: Names, role: Role, words: list[str]) -> Action:
    note = " ".join(words)
    if len(note) > 400:
        raise TextError(T("a note has at most 400 characters"), "V-14")
    return Action(role, CONFIRM, {"note": note} if note else {})


def _correct(names: Names, role: Role, words: list[str]) -> Action:
    usage = "correct <fact> <value> because <reason>"
    lower = [w.lower() for w in words]
    cut = next((i for i, w in enumerate(lower) if w in ("because", "reason:", "--")), None)
    if cut is None or cut < 2 or cut == len(words) - 1:
        raise TextError(T("write: {usage}", usage=usage), "V-14")
    key, value_words, reason = words[0], words[1:cut], " ".join(words[cut + 1 :])
    if value_words[:1] in (["="], ["to"]):
        value_words = value_words[1:]
    fact, kind = names.facts.get(key.lower(), (key, ""))
    return Action(
        role,
        CORRECTION_KIND,
        {"fact": fact, "value": fact_value(kind, value_words), "reason": reason[:1000]},
    )


def fact_value(kind: str, words: list[str]) -> JSON:
    """A correction's value in the form of its fact's kind (context.py); an unknown fact (its
    kind unknown) is read as plainly as it can be, and the ruleset refuses it (V-14)."""
    text = " ".join(words).strip()
    low = text.lower()
    if low in ("none", "null", "-"):
        return None if kind in (OFFSET, INCHES, "") else low
    if kind == BOOL or (not kind and low in ("yes", "no", "true", "false")):
        if low in ("yes", "y", "true"):
            return True
        if low in ("no", "n", "false"):
            return False
        raise TextError(T("this fact is yes or no"), "V-14")
    if kind == COUNT or (not kind and re.fullmatch(r"\d{1,5}", low)):
        if not re.fullmatch(r"\d{1,5}", low):
            raise TextError(T("this fact is a whole number"), "V-14")
        return int(low)
    if kind == COVER or (not kind and low in COVER_CLASSES):
        if low not in COVER_CLASSES:
            raise TextError(
                T("the cover is one of: {classes}", classes=", ".join(COVER_CLASSES)), "V-14"
            )
        return low
    if kind == OFFSET or (not kind and len(NUMBER.findall(low)) == 2):
        try:
            pair = points(words)
        except TextError as e:
            raise TextError(T("this fact is an offset dx,dy in inches"), "V-14") from e
        if len(pair) != 1:
            raise TextError(T("this fact is an offset dx,dy in inches"), "V-14")
        first = pair[0]
        assert isinstance(first, list)
        return first
    if kind == INCHES or not kind:
        if not COORD.match(low):
            raise TextError(T("this fact is a length in inches, or none"), "V-14")
        return low
    return text


PLAYS = "plays"


def _plays(names: Names, words: list[str]) -> list[JSON]:
    """`play <card> ...` (as a fate line), or `play none`: nothing played in the window."""
    if [w.lower() for w in words] in (["none"], ["nothing"], ["pass"]):
        return []
    return [fate_entry(names, words)]


OtherLine = Callable[[Names, Role, list[str]], Action]
OTHER_LINES: dict[str, OtherLine] = {
    "first": _first,
    "begin": _first,
    "confirm": _confirm,
    "confirmed": _confirm,
    "correct": _correct,
    "correction": _correct,
}


# ----------------------------------------------------------------------------- parse


def parse(state: m.Match, role: Role, text: str) -> Sequence[Action] | Rejection:
    """The actions the text gives, in its order (all the sheet lines are one action, placed at
    its first line), or the Rejection of its first unreadable line."""
    try:
        return _parse(Names.of(state), role, text)
    except TextError as e:
        return Rejection(e.rule, e.message, "/")
    except Exception as e:  # never raise to the platform: a bug becomes a form error
        return Rejection(
            RULE, T("the orders could not be read ({error})", error=type(e).__name__), "/"
        )


def _parse(names: Names, role: Role, text: str) -> Sequence[Action] | Rejection:
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise TextError(T("at most {n} lines", n=MAX_LINES))
    sheet = Sheet()
    out: list[Action | str | None] = []  # None: where the sheet goes; PLAYS: the window's
    sheet_at: int | None = None
    plays: list[JSON] = []
    plays_at: int | None = None
    for n, raw in enumerate(lines, start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if len(raw) > MAX_LINE_CHARS:
                raise TextError(T("a line has at most {n} characters", n=MAX_LINE_CHARS))
            head, rest = words[0].lower().rstrip(":"), words[1:]
            if head in OTHER_LINES:
                out.append(OTHER_LINES[head](names, role, rest))
                continue
            if head not in SHEET_LINES and head in names.units and rest:
                head, rest = rest[0].lower(), [words[0], *rest[1:]]  # `U-A5 move to ...`
            if head == "play":  # V-01: the cards played in an open window, one a line
                plays.extend(_plays(names, rest))
                if plays_at is None:
                    plays_at = n
                    out.append(PLAYS)
                continue
            reader = SHEET_LINES.get(head)
            if reader is None:
                raise TextError(
                    T(
                        "'{word}' is no order; orders begin with: {known}",
                        word=words[0],
                        known=", ".join(sorted({*SHEET_LINES, *OTHER_LINES})),
                    )
                )
            reader(names, sheet, rest, n)
            if sheet_at is None:
                sheet_at = n
                out.append(None)
        except TextError as e:
            return Rejection(e.rule, T("line {n}: {problem}", n=n, problem=e.message), f"/line/{n}")
    if sheet.passed and len(sheet.lines) + len(sheet.data) > 0:
        message = T("'pass' is an empty sheet: it cannot come with other orders")
        return Rejection(
            RULE, T("line {n}: {problem}", n=sheet.passed, problem=message), f"/line/{sheet.passed}"
        )
    actions = [
        Action(role, PLAY_FATE, {"plays": plays})
        if a == PLAYS
        else a
        if isinstance(a, Action)
        else Action(role, TURN_ORDERS, sheet.data)
        for a in out
    ]
    if not actions:
        return Rejection(RULE, T("no orders found: write one order a line, or 'pass'"), "/")
    return actions


# ----------------------------------------------------------------------------- write


def coord(value: JSON) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    text = format(exact(Decimal(str(value))).normalize(), "f")
    return "0" if text in ("-0", "") else text


def path_text(value: JSON) -> str:
    assert isinstance(value, list)
    return " ".join(f"{coord(p[0])},{coord(p[1])}" for p in value if isinstance(p, list))


def _support(item: dict[str, JSON]) -> str:
    if "supporters" not in item:
        return ""
    helpers = item["supporters"]
    assert isinstance(helpers, list)
    return " support " + (" ".join(map(str, helpers)) if helpers else "none")


def _w_shooting(value: JSON) -> list[str]:
    out = []
    for shot in value if isinstance(value, list) else []:
        assert isinstance(shot, dict)
        mode = f" mode {shot['mode']}" if "mode" in shot else ""
        out.append(f"fire {shot['firer']} at {shot['target']}{mode}{_support(shot)}")
    return out


def _w_brigades(value: JSON) -> list[str]:
    return [f"brigades {' '.join(map(str, value))}"] if isinstance(value, list) and value else []


def _w_units(value: JSON) -> list[str]:
    out = []
    for uid, order in value.items() if isinstance(value, dict) else []:
        assert isinstance(order, dict)
        line = f"{str(order['action']).lower()} {uid}"
        if "target" in order:
            line += f" at {order['target']}"
        if "feature" in order:
            line += f" in {order['feature']}"
        if "path" in order:
            line += f" to {path_text(order['path'])}"
        for key, word in (("formation_before", "before"), ("formation_after", "formation")):
            change = order.get(key)
            if isinstance(change, dict):
                line += f" {word} " + " ".join(f"{k}={v}" for k, v in change.items())
        out.append(line)
    return out


def _w_bg(value: JSON) -> list[str]:
    return [
        f"bg {leader} to {path_text(path)}"
        for leader, path in (value.items() if isinstance(value, dict) else [])
    ]


def _w_cinc(value: JSON) -> list[str]:
    return [f"cinc to {path_text(value)}"] if isinstance(value, list) else []


def _w_melee(value: JSON) -> list[str]:
    if value == "auto":
        return ["melee auto"]
    out = []
    for fight in value if isinstance(value, list) else []:
        assert isinstance(fight, dict)
        line = f"fight {fight['attacker']} at {fight['target']}{_support(fight)}"
        if "brigade_supporter" in fight:
            line += f" brigade {fight['brigade_supporter'] or 'none'}"
        out.append(line)
    return out


def _w_on_illegal(value: JSON) -> list[str]:
    return [f"on_illegal {value}"] if isinstance(value, str) else []


def _w_occupy_after_melee(value: JSON) -> list[str]:
    return [f"occupy_after_melee {value}"] if isinstance(value, str) else []


def _w_strike_back(value: JSON) -> list[str]:
    return [f"strike_back {value}"] if isinstance(value, str) else []


def fate_text(entry: JSON) -> str:
    assert isinstance(entry, dict)
    words = [str(entry["card"])]
    keys = ("unit", "brigade", "objective", "shot", "as", "phase")
    words += [f"{k} {entry[k]}" for k in keys if k in entry]
    if "path" in entry:
        words.append(f"to {path_text(entry['path'])}")
    moves = entry.get("moves")
    for move in moves if isinstance(moves, list) else []:
        assert isinstance(move, dict)
        words.append(f"move {move['unit']} to {path_text(move['path'])}")
    return " ".join(words)


def _w_fate(value: JSON) -> list[str]:
    return [f"fate {fate_text(e)}" for e in value] if isinstance(value, list) else []


def _w_reserves(value: JSON) -> list[str]:
    if not isinstance(value, list):
        return []
    out = []
    for e in value:
        assert isinstance(e, dict)
        line = f"reserve {e['unit']} at {path_text([e['at']])} to {path_text(e['path'])}"
        out.append(line + (f" after {e['after']}" if "after" in e else ""))
    return out


FORMATTERS: tuple[tuple[str, Callable[[JSON], list[str]]], ...] = (
    ("fate", _w_fate),
    ("shooting", _w_shooting),
    ("brigade_order", _w_brigades),
    ("units", _w_units),
    ("bg_moves", _w_bg),
    ("cinc_move", _w_cinc),
    ("melee_plan", _w_melee),
    ("on_illegal", _w_on_illegal),
    ("strike_back", _w_strike_back),
    ("occupy_after_melee", _w_occupy_after_melee),
    ("reserves", _w_reserves),
)


def format_sheet(sheet: dict[str, JSON]) -> str:
    """The sheet as text."""
    lines = [line for key, write in FORMATTERS for line in write(sheet.get(key))]
    return "\n".join(lines or ["pass"])


def format_action(action: Action) -> str:
    payload = action.payload if isinstance(action.payload, dict) else {}
    if action.kind == TURN_ORDERS:
        return format_sheet(payload)
    if action.kind == FIRST_SIDE:
        return f"first {payload['side']}"
    if action.kind == CONFIRM:
        note = payload.get("note")
        return f"confirm {note}" if note else "confirm"
    if action.kind == CORRECTION_KIND:
        value = payload["value"]
        if value is None:
            shown = "none"
        elif isinstance(value, bool):
            shown = "yes" if value else "no"
        elif isinstance(value, list):
            shown = f"{coord(value[0])},{coord(value[1])}"
        else:
            shown = str(value)
        return f"correct {payload['fact']} {shown} because {payload['reason']}"
    if action.kind == PLAY_FATE:
        plays = payload.get("plays")
        if not isinstance(plays, list) or not plays:
            return "play none"
        return "\n".join(f"play {fate_text(e)}" for e in plays)
    raise ValueError(f"no text form for {action.kind}")


def canonical(sheet: dict[str, JSON]) -> dict[str, JSON]:
    """The sheet as its text reads back: empty lists and maps left out, coordinates as text."""
    out: dict[str, JSON] = {}
    for key, value in sheet.items():
        if key in ("shooting", "melee_plan") and isinstance(value, list):
            items = [_drop_empty(v) for v in value]
            if items:
                out[key] = items
        elif key in ("cinc_move",):
            out[key] = _path(value)
        elif key == "reserves" and isinstance(value, list):
            if value:
                out[key] = [_reserve_entry(v) for v in value]
        elif key == "fate" and isinstance(value, list):
            if value:
                out[key] = [_fate_entry(v) for v in value]
        elif key == "bg_moves" and isinstance(value, dict):
            if value:
                out[key] = {k: _path(v) for k, v in value.items()}
        elif key == "units" and isinstance(value, dict):
            if value:
                out[key] = {k: _unit_order(v) for k, v in value.items()}
        elif isinstance(value, list) and not value:
            continue
        else:
            out[key] = value
    return out


def _fate_entry(item: JSON) -> JSON:
    assert isinstance(item, dict)
    out = dict(item)
    if "path" in out:
        out["path"] = _path(out["path"])
    moves = out.pop("moves", None)
    if isinstance(moves, list) and moves:  # an empty list reads back as none
        out["moves"] = [{**mv, "path": _path(mv["path"])} for mv in moves if isinstance(mv, dict)]
    return out


def _reserve_entry(item: JSON) -> JSON:
    assert isinstance(item, dict)
    at = _path([item["at"]])
    assert isinstance(at, list)
    return {**item, "at": at[0], "path": _path(item["path"])}


def _drop_empty(item: JSON) -> JSON:
    assert isinstance(item, dict)
    return {k: v for k, v in item.items() if not (k == "supporters" and v is None)}


def _path(value: JSON) -> JSON:
    assert isinstance(value, list)
    return [[coord(p[0]), coord(p[1])] for p in value if isinstance(p, list)]


def _unit_order(order: JSON) -> JSON:
    assert isinstance(order, dict)
    return {k: (_path(v) if k == "path" else v) for k, v in order.items()}


# ----------------------------------------------------------------------------- help


def example(view: JSON, role: Role) -> list[str]:
    """A short example sheet with the reader's own ids, for the report (report.py)."""
    assert isinstance(view, dict)
    game = view.get("game")
    if not isinstance(game, dict):
        return []
    mine = [
        str(u["id"])
        for u in game.get("units") or []  # type: ignore[union-attr]
        if isinstance(u, dict) and u.get("side") == role and not u.get("fled")
    ]
    brigades = [
        str(b["id"])
        for b in game.get("brigades") or []  # type: ignore[union-attr]
        if isinstance(b, dict) and b.get("side") == role
    ]
    if not mine or not brigades:
        return ["pass"]
    return [
        f"brigades {' '.join(brigades)}",
        f"move {mine[0]} to 10,20",
        f"rally {mine[-1]}",
        "melee auto",
    ]
