"""parse_text: plain-text orders (for orders by email), one order per line.

The grammar is documented with examples in README.md ("Plain-text orders"). A place is a locale
number, a toponym of the board's gazetteer (names and aliases, see `normalise_name`) or a locale
key; a piece is an own unit id, an own commander's id or display name, or (only for `target`) the
alias of an enemy unit as the view shows it. The parser reads names and words only: it never
decides whether an order is legal; the platform validates every action it returns, in order.

Any line it cannot read gives `Rejection("NT-0", ..., "/line/<n>")`, with the closest known names
for an unknown or misspelt one. `parse_text` never raises.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.core.protocol import JSON, Action, Rejection
from games.napoleons_triumph.board import normalise_name
from games.napoleons_triumph.context import Ctx, unit_alias
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.state import MAP

RULE = "NT-0"  # a form error, not a rule of the game


class TextError(Exception):
    """A line that cannot be read; the message is one sentence for the player."""


@dataclass(frozen=True, slots=True)
class Tok:
    text: str

    @property
    def key(self) -> str:
        return self.text.casefold()


Clauses = list[tuple[str, list[Tok]]]


# ----------------------------------------------------------------------------- small helpers


def _tokens(line: str) -> list[Tok]:
    return [Tok(t) for t in re.sub(r"[,;]", " , ", line).split()]


def _words(toks: Sequence[Tok]) -> str:
    return " ".join(t.text for t in toks)


def _squash(s: str) -> str:
    """Names of pieces and entries: case, accents kept, punctuation and blanks dropped."""
    return "".join(ch for ch in normalise_name(s) if ch.isalnum())


def _suggest(word: str, choices: dict[str, str], what: str, otherwise: str = "") -> TextError:
    """`choices`: normal form -> the name shown to the player (listed once, closest first)."""
    close = difflib.get_close_matches(word, list(choices), n=8, cutoff=0.6)
    shown = list(dict.fromkeys(choices[c] for c in close))[:5]
    hint = f"; did you mean {', '.join(shown)}?" if shown else otherwise
    return TextError(f"{what}{hint}")


def _split(toks: Sequence[Tok], keywords: frozenset[str]) -> tuple[list[Tok], Clauses]:
    """The words before the first keyword, then (keyword, its words) in order."""
    head: list[Tok] = []
    clauses: Clauses = []
    for t in toks:
        if t.key in keywords:
            clauses.append((t.key, []))
        elif clauses:
            clauses[-1][1].append(t)
        else:
            head.append(t)
    return head, clauses


def _items(toks: Sequence[Tok]) -> list[list[Tok]]:
    """Split a list at commas and 'and'; empty items are dropped."""
    out: list[list[Tok]] = [[]]
    for t in toks:
        if t.text == "," or t.key == "and":
            out.append([])
        else:
            out[-1].append(t)
    return [x for x in out if x]


def _once(clauses: Clauses, key: str) -> list[Tok] | None:
    found = [words for k, words in clauses if k == key]
    if len(found) > 1:
        raise TextError(f"'{key}' is given twice")
    return found[0] if found else None


def _no_extra(toks: Sequence[Tok], after: str) -> None:
    if toks:
        raise TextError(f"unexpected words {_words(toks)!r} after {after!r}")


# ----------------------------------------------------------------------------- the reader


class Reader:
    """Resolves names against the board and the state, from the point of view of one side."""

    def __init__(self, ctx: Ctx, side: str) -> None:
        self.ctx = ctx
        self.side = side
        board, state = ctx.board, ctx.state
        self.units = {u.id.casefold(): u.id for u in state.units.values() if u.side == side}
        self.commanders: dict[str, str] = {}
        shown: dict[str, str] = {}
        for c in state.commanders.values():
            if c.side != side:
                continue
            names = [c.id]
            if c.id in board.commanders:
                names.append(board.commanders[c.id].name)
            for n in names:
                self.commanders[_squash(n)] = c.id
                shown[_squash(n)] = n
        self.piece_names = {k.casefold(): k for k in self.units.values()} | shown
        self.places: dict[str, str] = {}  # normal form of a name or alias -> toponym name
        for norm, topo in board.toponym_index().items():
            self.places[norm] = topo.name
        self.keys: dict[str, int] = {}  # locale keys, for the locales without a name
        for lid, loc in board.locales.items():
            key = normalise_name(loc.key.replace("_", " "))
            self.keys[key] = lid
            self.places.setdefault(key, loc.key)
        self.approaches = {a.casefold(): a for a in board.approaches}
        self.entries = {e.id.casefold(): e for e in board.entries}

    # -- places -----------------------------------------------------------------------------------

    def place(self, toks: Sequence[Tok]) -> list[int]:
        """Candidate locales for a place (one unless the toponym names several)."""
        text = _words(toks)
        if not toks:
            raise TextError("a place is missing")
        if len(toks) == 1 and toks[0].text.isdigit():
            n = int(toks[0].text)
            if n not in self.ctx.board.locales:
                raise TextError(f"there is no locale {n} on this board")
            return [n]
        norm = normalise_name(text)
        topo = self.ctx.board.toponym_index().get(norm)
        if topo is not None:
            return sorted(set(topo.locales))
        key = normalise_name(text.replace("_", " ").replace("-", " "))
        if key in self.keys:
            return [self.keys[key]]
        raise _suggest(norm, self.places, f"{text!r} is not a known place")

    def one_place(self, toks: Sequence[Tok]) -> int:
        locs = self.place(toks)
        if len(locs) > 1:
            raise TextError(self._ambiguous(toks, locs))
        return locs[0]

    def _ambiguous(self, toks: Sequence[Tok], locs: Sequence[int]) -> str:
        board = self.ctx.board
        each = ", ".join(f"{x} ({board.locales[x].key})" for x in locs)
        return f"{_words(toks)!r} names locales {each}; write the locale number"

    def places_list(self, toks: Sequence[Tok]) -> list[int]:
        """A path: places separated by commas (or blanks, when each word is a place)."""
        out: list[int] = []
        for item in _items(toks):
            try:
                out.append(self.one_place(item))
            except TextError:
                if len(item) == 1 or not all(t.text.isdigit() for t in item):
                    raise
                out.extend(self.one_place([t]) for t in item)
        if not out:
            raise TextError("the road path lists no locale")
        return out

    def approach_id(self, toks: Sequence[Tok]) -> str | None:
        if len(toks) == 1:
            return self.approaches.get(toks[0].key)
        return None

    def position(
        self, dest: Sequence[Tok], blocking: Sequence[Tok] | None
    ) -> tuple[int, str | None]:
        """`<place>` or `<place> blocking <place2 | approach id>`."""
        if blocking is None:
            return self.one_place(dest), None
        return self.end_at(self.place(dest), blocking, dest)

    def end_at(
        self, locs: Sequence[int], blocking: Sequence[Tok], dest: Sequence[Tok]
    ) -> tuple[int, str]:
        """The locale among `locs` and the approach it blocks; the pair decides an ambiguity."""
        board = self.ctx.board
        if not blocking:
            raise TextError("'blocking' needs a place or an approach id")
        app = self.approach_id(blocking)
        if app is not None:
            fits = [x for x in locs if app in board.approaches_of(x)]
            if not fits:
                raise TextError(f"{app} is not an approach of {_words(dest)}")
            if len(fits) > 1:
                raise TextError(self._ambiguous(dest, fits))
            return fits[0], app
        towards = self.place(blocking)
        pairs = sorted(
            {(a, b, ap) for a in locs for b in towards if (ap := board.between(a, b)) is not None}
        )
        if not pairs:
            raise TextError(f"{_words(dest)} and {_words(blocking)} are not adjacent")
        if len({(a, ap) for a, _, ap in pairs}) > 1:
            where = self._ambiguous(dest, locs) if len(locs) > 1 else ""
            there = self._ambiguous(blocking, towards) if len(towards) > 1 else ""
            raise TextError("; ".join(x for x in (where, there) if x))
        return pairs[0][0], pairs[0][2]

    def join(self, frm: Sequence[Tok], to: Sequence[Tok]) -> tuple[int, str]:
        """`from <place> towards <place | approach id>`: the attack locale and approach."""
        return self.end_at(self.place(frm), to, frm)

    # -- pieces -----------------------------------------------------------------------------------

    def unit(self, toks: Sequence[Tok]) -> str:
        text = _words(toks)
        if not toks:
            raise TextError("a unit id is missing")
        uid = self.units.get(text.casefold())
        if uid is None:
            raise _suggest(
                text.casefold(),
                dict(self.units),
                f"{text!r} is not one of your units",
            )
        return uid

    def commander(self, toks: Sequence[Tok]) -> str:
        text = _words(toks)
        if not toks:
            raise TextError("a commander is missing")
        cid = self.commanders.get(_squash(text))
        if cid is None:
            names = {k: v for k, v in self.piece_names.items() if k in self.commanders}
            raise _suggest(_squash(text), names, f"{text!r} is not one of your commanders")
        return cid

    def piece(self, toks: Sequence[Tok]) -> str:
        text = _words(toks)
        uid = self.units.get(text.casefold())
        if uid is not None:
            return uid
        cid = self.commanders.get(_squash(text))
        if cid is not None:
            return cid
        choices = {k.casefold(): k for k in self.units.values()}
        choices.update({k: v for k, v in self.piece_names.items() if k in self.commanders})
        probe = _squash(text) if _squash(text) in choices else text.casefold()
        raise _suggest(probe, choices, f"{text!r} is not one of your units or commanders")

    def listed(self, toks: Sequence[Tok], one: Callable[[Sequence[Tok]], str]) -> list[str]:
        """Pieces separated by commas or 'and' (or blanks when every word is a piece); at least
        one (an empty list is written by leaving the clause out, or 'no counter')."""
        if not _items(toks):
            raise TextError("a list of pieces is empty")
        out: list[str] = []
        for item in _items(toks):
            try:
                out.append(one(item))
            except TextError:
                if len(item) == 1:
                    raise
                try:
                    out.extend(one([t]) for t in item)
                except TextError:
                    raise TextError(_first_error(one, item)) from None
        return out

    def commander_then(self, toks: Sequence[Tok]) -> tuple[str, list[Tok]]:
        """The longest leading run of words that names a commander, and the words after it."""
        for k in range(len(toks), 0, -1):
            cid = self.commanders.get(_squash(_words(toks[:k])))
            if cid is not None:
                return cid, list(toks[k:])
        return self.commander(toks[:1]), []  # raises with suggestions

    def _aliases(self) -> dict[str, str]:
        """alias (casefolded) -> unit id, for the enemy units on the map."""
        state = self.ctx.state
        return {
            unit_alias(state, self.side, u.id).casefold(): u.id
            for u in state.units.values()
            if u.side != self.side and u.where == MAP
        }

    def enemy_alias(self, toks: Sequence[Tok]) -> str:
        """`target <alias>`: the enemy unit the view calls so (only units on the map)."""
        text = _words(toks)
        names = self._aliases()
        uid = names.get(text.casefold())
        if uid is None:
            shown = {k: unit_alias(self.ctx.state, self.side, v) for k, v in names.items()}
            raise _suggest(
                text.casefold(), shown, f"{text!r} is not the alias of an enemy unit on the map"
            )
        return unit_alias(self.ctx.state, self.side, uid)  # the engine takes enemy aliases

    def unit_or_alias(self, toks: Sequence[Tok]) -> str:
        """An own unit id, or the alias of an enemy unit (odd losses fall on either side)."""
        text = _words(toks)
        if text.casefold() in self.units:
            return self.units[text.casefold()]
        names = self._aliases()
        if text.casefold() in names:
            return unit_alias(self.ctx.state, self.side, names[text.casefold()])
        shown = {k: unit_alias(self.ctx.state, self.side, v) for k, v in names.items()}
        shown.update(self.units)
        raise _suggest(
            text.casefold(), shown, f"{text!r} is neither your unit nor an enemy unit's alias"
        )

    def entry(self, toks: Sequence[Tok]) -> tuple[str, int]:
        text = _words(toks)
        e = self.entries.get(text.casefold())
        if e is None:
            mine = {k: v.id for k, v in self.entries.items() if v.side == self.side}
            raise _suggest(text.casefold(), mine, f"{text!r} is not an entry area")
        return e.id, e.locale


def _first_error(one: Callable[[Sequence[Tok]], str], item: Sequence[Tok]) -> str:
    try:
        one(item)
    except TextError as e:
        return str(e)
    return f"cannot read {_words(item)!r}"


# ----------------------------------------------------------------------------- the orders


MOVE_KEYS = frozenset({"to", "by", "via", "blocking", "detach"})


def _destination(r: Reader, clauses: Clauses, kind_word: str) -> dict[str, JSON]:
    """`to <position>` or `by road via <places> [blocking ...]` -> the move fields."""
    to = _once(clauses, "to")
    by = _once(clauses, "by")
    via = _once(clauses, "via")
    blocking = _once(clauses, "blocking")
    if to is not None and (by is not None or via is not None):
        raise TextError(f"a {kind_word} goes either 'to' a place or 'by road via' places")
    if to is not None:
        loc, app = r.position(to, blocking)
        return {"road": False, "to": {"locale": loc, "approach": app}}
    if by is not None:
        if [t.key for t in by] != ["road"]:
            raise TextError("write 'by road via <places>'")
        if via is None:
            raise TextError("a road move needs 'via <places>'")
        path = r.places_list(via)
        end_app: str | None = None
        if blocking is not None:
            last = path[-1]
            _, end_app = r.end_at([last], blocking, [Tok(str(last))])
        return {"road": True, "path": list[JSON](path), "end_approach": end_app}
    raise TextError(f"say where the {kind_word} goes: 'to <place>' or 'by road via <places>'")


def _move(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, MOVE_KEYS - {"detach"})
    if len(head) != 1:
        raise TextError("write 'move <unit> to <place>' or 'move <unit> by road via <places>'")
    return "unit_move", {"unit": r.unit(head), **_destination(r, clauses, "move")}


def _corps(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, MOVE_KEYS)
    cid = r.commander(head)
    det = _once(clauses, "detach")
    detach = r.listed(det, r.unit) if det is not None else []
    return "corps_move", {
        "commander": cid,
        "detach": list[JSON](detach),
        **_destination(r, clauses, "corps move"),
    }


def _detach(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, MOVE_KEYS - {"detach"})
    cid, rest = r.commander_then(head)
    if not rest:
        raise TextError("write 'detach <commander> <units> to <place>'")
    units = r.listed(rest, r.unit)
    dest = _destination(r, clauses, "detachment move")
    return "detach_move", {"commander": cid, "units": list[JSON](units), **dest}


def _ride(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    """`ride on via <places> [blocking <place>]`, or `ride on blocking <place>` to end where the
    cavalry stand (an empty path, NT-53): the ride-on of a vacated road attack (NT-98)."""
    head, clauses = _split(toks, frozenset({"via", "blocking"}))
    via = _once(clauses, "via")
    blocking = _once(clauses, "blocking")
    if [t.key for t in head] != ["on"] or (via is None and blocking is None):
        raise TextError("write 'ride on via <places>' or 'ride on blocking <place>'")
    path = r.places_list(via) if via is not None else []
    ride = r.ctx.state.ride_on
    here = path[-1] if path else (ride or {}).get("locale")
    if not isinstance(here, int):
        raise TextError("no ride-on is open: write 'ride on via <places>'")
    end_app: str | None = None
    if blocking is not None:
        _, end_app = r.end_at([here], blocking, [Tok(str(here))])
    return "ride_on", {"path": list[JSON](path), "end_approach": end_app}


def _attach(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, frozenset({"to"}))
    to = _once(clauses, "to")
    if to is None or len(head) != 1:
        raise TextError("write 'attach <unit> to <commander>'")
    return "attach", {"commander": r.commander(to), "unit": r.unit(head)}


def _enter(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, frozenset({"at", "via", "blocking"}))
    at = _once(clauses, "at")
    if at is None or not head:
        raise TextError("write 'enter <commander or unit> at <entry> [via <places>]'")
    entry, entry_loc = r.entry(at)
    via = _once(clauses, "via")
    path = r.places_list(via) if via is not None else [entry_loc]
    blocking = _once(clauses, "blocking")
    end_app: str | None = None
    if blocking is not None:
        _, end_app = r.end_at([path[-1]], blocking, [Tok(str(path[-1]))])
    payload: dict[str, JSON] = {"entry": entry, "path": list[JSON](path), "end_approach": end_app}
    who = r.piece(head)
    if who in r.commanders.values():
        return "enter_reinforcement", {"command": "corps_move", "commander": who, **payload}
    return "enter_reinforcement", {"command": "unit_move", "unit": who, **payload}


def _threaten(r: Reader, clauses: Clauses) -> tuple[str, dict[str, JSON]]:
    frm = _once(clauses, "from")
    towards = _once(clauses, "towards")
    if frm is None or towards is None:
        raise TextError("write 'attack from <place> towards <place>'")
    loc, app = r.join(frm, towards)
    guard = _once(clauses, "guard")
    payload: dict[str, JSON] = {
        "attack_locale": loc,
        "approach": app,
        "guard_attack": guard is not None,
        "show_guard": r.unit(guard) if guard is not None else None,
    }
    if _once(clauses, "starting") is not None or _once(clauses, "via") is not None:
        raise TextError(
            "a threat names only the approach (NT-70); name a road attack's road when you "
            "announce it: 'feint with unit <unit> by road via <places> block'"
        )
    return "threaten", payload


ATTACK_KEYS = frozenset(
    {"with", "corps", "unit", "detachment", "detach", "wide", "narrow", "leading", "target",
     "artillery", "block", "reserve", "by", "via", "entering"}
)  # fmt: skip
ROAD_KEYS = frozenset({"by", "via", "entering"})


def _commands(r: Reader, clauses: Clauses) -> list[JSON]:
    """`corps <commander> [detach <units>]`, `unit <unit>`, `detachment <commander> <units>`;
    a road attack's command adds `by road [via <places>]` (NT-68; no `via` when the cavalry
    start in the attack locale), and `entering <entry>` for cavalry reinforcements attacking as
    they enter (NT-145; `via` then starts with the entry locale)."""
    cmds: list[dict[str, JSON]] = []
    for key, words in clauses:
        if key == "by":
            if [t.key for t in words] != ["road"] or not cmds:
                raise TextError("write 'unit <unit> by road via <places>'")
            cmds[-1].update({"road": True, "path": []})
        elif key == "via":
            if not cmds or cmds[-1].get("road") is not True:
                raise TextError("'via' follows 'by road': 'unit <unit> by road via <places>'")
            cmds[-1]["path"] = list[JSON](r.places_list(words))
        elif key == "entering":
            if not cmds or cmds[-1]["kind"] not in ("unit_move", "corps_move"):
                raise TextError("'entering <entry>' follows 'unit <unit>' or 'corps <commander>'")
            cmds[-1]["entry"] = r.entry(words)[0]
        elif key == "corps":
            cmds.append({"kind": "corps_move", "commander": r.commander(words), "detach": []})
        elif key == "unit":
            cmds.append({"kind": "unit_move", "unit": r.unit(words)})
        elif key == "detachment":
            cid, rest = r.commander_then(words)
            units = r.listed(rest, r.unit)
            cmds.append({"kind": "detach_move", "commander": cid, "units": list[JSON](units)})
        elif key == "detach":
            if not cmds or cmds[-1]["kind"] != "corps_move":
                raise TextError("'detach' follows 'corps <commander>'")
            cmds[-1]["detach"] = list[JSON](r.listed(words, r.unit))
    if not cmds:
        raise TextError("name the attacking command: 'corps <commander>' or 'unit <unit>'")
    return list[JSON](cmds)


def _with_clause(clauses: Clauses, form: str) -> Clauses:
    if not clauses or clauses[0][0] != "with" or clauses[0][1]:
        raise TextError(f"write {form!r}")
    flags = {"wide", "narrow", "artillery", "block", "reserve"}
    for key, words in clauses:
        if key in flags and words:
            _no_extra(words, key)
    return clauses[1:]


def _attack(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    if toks and toks[0].key == "from":
        _, clauses = _split(toks, frozenset({"from", "towards", "guard", "starting", "via"}))
        return _threaten(r, clauses)
    head, clauses = _split(toks, ATTACK_KEYS)
    _no_extra(head, "attack")
    rest = _with_clause(clauses, "attack with corps <commander> | unit <unit> ...")
    commands = _commands(r, rest)
    pending = r.ctx.state.pending
    if pending is not None and pending.kind == "after_vacate":
        return _advance_payload(rest, commands)
    keys = [k for k, _ in rest]
    if "wide" in keys and "narrow" in keys:
        raise TextError("the front is either wide or narrow")
    lead = _once(rest, "leading")
    target = _once(rest, "target")
    return "declare_attack", {
        "commands": commands,
        "width": "wide" if "wide" in keys else "narrow",
        "target": r.enemy_alias(target) if target is not None else None,
        "leading": list[JSON](r.listed(lead, r.unit) if lead is not None else []),
    }


def _advance_payload(rest: Clauses, commands: list[JSON]) -> tuple[str, dict[str, JSON]]:
    keys = {k for k, _ in rest}
    extra = keys - {"corps", "unit", "detachment", "detach", "artillery", *ROAD_KEYS}
    if extra:
        raise TextError(f"after a vacate the attack takes no {', '.join(sorted(extra))}")
    return "declare_after_vacate", {"commands": commands, "artillery": "artillery" in keys}


def _advance(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, ATTACK_KEYS)
    _no_extra(head, "advance")
    rest = _with_clause(clauses, "advance with corps <commander> | unit <unit> [artillery]")
    return _advance_payload(rest, _commands(r, rest))


def _feint(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, ATTACK_KEYS)
    _no_extra(head, "feint")
    rest = _with_clause(clauses, "feint with corps <commander> | unit <unit> block | reserve")
    keys = {k for k, _ in rest}
    ends = keys & {"block", "reserve"}
    if len(ends) != 1:
        raise TextError("end the feint with 'block' or 'reserve'")
    extra = keys - {"corps", "unit", "detachment", "detach", "block", "reserve", *ROAD_KEYS}
    if extra:
        raise TextError(f"a feint takes no {', '.join(sorted(extra))}")
    return "declare_feint", {"commands": _commands(r, rest), "end": ends.pop()}


def _defend(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, frozenset({"with", "leading"}))
    _no_extra(head, "defend")
    named = _once(clauses, "with")
    if named is None or not clauses or clauses[0][0] != "with":
        raise TextError("write 'defend with <pieces> [leading <units>]'")
    lead = _once(clauses, "leading")
    return "defend", {
        "named": list[JSON](r.listed(named, r.piece)),
        "leading": list[JSON](r.listed(lead, r.unit) if lead is not None else []),
    }


def _counter(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = _split(toks, frozenset({"with"}))
    _no_extra(head, "counter")
    units = _once(clauses, "with")
    if units is None:
        raise TextError("write 'counter with <units>' or 'no counter'")
    return "counter", {"units": list[JSON](r.listed(units, r.unit))}


def _no(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    what = [t.key for t in toks]
    if what == ["feint"]:
        return "no_feint", {}
    if what in (["counter"], ["counter", "attack"], ["counterattack"]):
        return "counter", {"units": []}
    if what == ["advance"]:  # after a vacate, when the retreat closed every way in (AMB-13)
        return "declare_after_vacate", {"commands": []}
    raise TextError("write 'no feint', 'no counter' or 'no advance'")


def _odd(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    if not toks or toks[0].key not in ("loss", "losses"):
        raise TextError("write 'odd loss <units>'")
    return "place_odd_loss", {"units": list[JSON](r.listed(toks[1:], r.unit_or_alias))}


def _losses(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    rows: list[JSON] = []
    for item in _items(toks):
        if len(item) != 2 or not item[1].text.isdigit():
            raise TextError(f"write each loss as '<unit> <points>', not {_words(item)!r}")
        rows.append({"unit": r.unit(item[:1]), "sp": int(item[1].text)})
    if not rows:
        raise TextError("write 'losses <unit> <points>, ...'")
    return "assign_losses", {"losses": rows}


def _retreat(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    atk = r.ctx.state.attack
    if atk is None:
        raise TextError("no attack is open: there is nothing to retreat from")
    plan = default_plan(r.ctx, atk)
    dests = plan.get("destinations")
    assert isinstance(dests, dict)
    for item in _items(toks):
        head, clauses = _split(item, frozenset({"to"}))
        to = _once(clauses, "to")
        if to is None or len(head) != 1:
            raise TextError(f"write each destination as '<unit> to <place>', not {_words(item)!r}")
        dests[r.unit(head)] = r.one_place(to)
    return "retreat_plan", plan


def _anchor(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    anchors: dict[str, JSON] = {}
    for item in _items(toks):
        cid, rest = r.commander_then(item)
        if len(rest) != 1:
            raise TextError(f"write each anchor as '<commander> <unit>', not {_words(item)!r}")
        anchors[cid] = r.unit(rest)
    if not anchors:
        raise TextError("write 'anchor <commander> <unit>'")
    return "choose_anchor", {"anchors": anchors}


def _hold(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    pending = r.ctx.state.pending
    kind = "feint_hold" if pending is not None and pending.kind == "feint_hold" else "hold"
    if not toks:
        raise TextError("write 'hold <pieces>'")
    return kind, {"pieces": list[JSON](r.listed(toks, r.piece))}


def _end(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    if [t.key for t in toks] not in (["turn"], ["of", "turn"]):
        raise TextError("write 'end turn'")
    return "end_turn", {}


def _vacate(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    _no_extra(toks, "vacate")
    return "vacate", {}


ORDERS: dict[str, Callable[[Reader, list[Tok]], tuple[str, dict[str, JSON]]]] = {
    "move": _move,
    "corps": _corps,
    "detach": _detach,
    "attach": _attach,
    "enter": _enter,
    "attack": _attack,
    "advance": _advance,
    "feint": _feint,
    "defend": _defend,
    "vacate": _vacate,
    "counter": _counter,
    "no": _no,
    "odd": _odd,
    "losses": _losses,
    "loss": _losses,
    "retreat": _retreat,
    "anchor": _anchor,
    "hold": _hold,
    "end": _end,
    "ride": _ride,
}


def read_line(r: Reader, line: str) -> tuple[str, dict[str, JSON]]:
    toks = _tokens(line)
    verb = toks[0].key
    order = ORDERS.get(verb)
    if order is None:
        raise _suggest(
            verb,
            {v: v for v in ORDERS},
            f"{toks[0].text!r} is not an order",
            f"; an order starts with one of: {', '.join(ORDERS)}",
        )
    return order(r, toks[1:])


def _lines(text: str) -> list[tuple[int, str]]:
    """The order lines with their 1-based numbers: blank, '#' and quoted ('>') lines are skipped;
    a signature separator ('-- ') ends the orders."""
    out: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if raw.rstrip() == "--":
            break
        line = raw.strip().rstrip(".;").strip()
        if not line or line.startswith(("#", ">")):
            continue
        out.append((n, line))
    return out


SIDE_WORDS = {"allies": "AL", "allied": "AL", "al": "AL", "french": "F", "france": "F", "f": "F"}


def auction_line(line: str) -> tuple[str, dict[str, JSON]]:
    """The auction for sides (NT-134, NT-135): `bid 3`, `pass`, `side french` / `side allies`."""
    words = [t.key for t in _tokens(line)]
    if words == ["pass"]:
        return "auction_pass", {}
    if len(words) == 2 and words[0] == "bid":
        if not words[1].isdigit() or len(words[1]) > 4:
            raise TextError(f"{words[1][:20]!r} is not a bid; write a whole number, e.g. bid 3")
        return "auction_bid", {"amount": int(words[1])}
    if len(words) == 2 and words[0] == "side" and words[1] in SIDE_WORDS:
        return "auction_choose_side", {"side": SIDE_WORDS[words[1]]}
    raise TextError("during the auction an order is 'bid <n>', 'pass' or 'side french|allies'")


def parse_orders(ctx: Ctx, role: str, text: str) -> list[Action] | Rejection:
    """The parser proper; it raises only on a bug (parse_text catches even that)."""
    side = ctx.state.roles.get(role)
    if side is None and ctx.state.phase == "auction" and role in ("player_1", "player_2"):
        orders: list[Action] = []
        for n, line in _lines(text):
            try:
                orders.append(Action(role, *auction_line(line)))
            except TextError as e:
                return Rejection(RULE, f"line {n}: {e}", f"/line/{n}")
        return orders or Rejection(RULE, "the text holds no order", "/")
    if side is None:
        return Rejection("NT-140", f"{role!r} plays no side in this game", "/role")
    r = Reader(ctx, side)
    actions: list[Action] = []
    for n, line in _lines(text):
        try:
            kind, payload = read_line(r, line)
        except TextError as e:
            return Rejection(RULE, f"line {n}: {e}", f"/line/{n}")
        actions.append(Action(role, kind, payload))
    if not actions:
        return Rejection(RULE, "the text holds no order", "/")
    return actions


def parse_text(ctx: Ctx, role: str, text: str) -> Sequence[Action] | Rejection:
    try:
        return parse_orders(ctx, role, text)
    except Exception as e:  # never raise to the platform: a bug becomes a form error
        return Rejection(RULE, f"the orders could not be read ({type(e).__name__})", "/")
