"""The words of plain-text orders: tokens and clauses, and `Reader`, which resolves a name (a
place, an own unit or commander, an enemy alias, an entry area) against the board and the state
from one side's point of view. The grammar of the orders built from these words is `text`.

A word that names nothing raises `TextError` with one sentence for the player and the closest
known names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.core.i18n import T
from games.napoleons_triumph.board import normalise_name
from games.napoleons_triumph.context import Ctx, unit_alias
from games.napoleons_triumph.state import MAP

__all__ = [
    "Clauses",
    "Reader",
    "TextError",
    "Tok",
    "clause_once",
    "first_error",
    "item_list",
    "no_extra",
    "split_clauses",
    "squash",
    "suggest",
    "tokenise",
    "words_of",
]


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


def tokenise(line: str) -> list[Tok]:
    return [Tok(t) for t in re.sub(r"[,;]", " , ", line).split()]


def words_of(toks: Sequence[Tok]) -> str:
    return " ".join(t.text for t in toks)


def squash(s: str) -> str:
    """Names of pieces and entries: case, accents kept, punctuation and blanks dropped."""
    return "".join(ch for ch in normalise_name(s) if ch.isalnum())


def suggest(
    word: str, choices: dict[str, str], what: str, otherwise: str | None = None
) -> TextError:
    """`choices`: normal form -> the name shown to the player (listed once, closest first).
    `what` with the closest names; `otherwise` (default `what`) when no name is close."""
    close = difflib.get_close_matches(word, list(choices), n=8, cutoff=0.6)
    shown = list(dict.fromkeys(choices[c] for c in close))[:5]
    if shown:
        return TextError(T("{error}; did you mean {names}?", error=what, names=", ".join(shown)))
    return TextError(what if otherwise is None else otherwise)


def split_clauses(toks: Sequence[Tok], keywords: frozenset[str]) -> tuple[list[Tok], Clauses]:
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


def item_list(toks: Sequence[Tok]) -> list[list[Tok]]:
    """Split a list at commas and 'and'; empty items are dropped."""
    out: list[list[Tok]] = [[]]
    for t in toks:
        if t.text == "," or t.key == "and":
            out.append([])
        else:
            out[-1].append(t)
    return [x for x in out if x]


def clause_once(clauses: Clauses, key: str) -> list[Tok] | None:
    found = [words for k, words in clauses if k == key]
    if len(found) > 1:
        raise TextError(T("'{word}' is given twice", word=key))
    return found[0] if found else None


def no_extra(toks: Sequence[Tok], after: str) -> None:
    if toks:
        raise TextError(
            T(
                "unexpected words {words} after {after}",
                words=repr(words_of(toks)),
                after=repr(after),
            )
        )


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
                self.commanders[squash(n)] = c.id
                shown[squash(n)] = n
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
        text = words_of(toks)
        if not toks:
            raise TextError(T("a place is missing"))
        if len(toks) == 1 and toks[0].text.isdigit():
            n = int(toks[0].text)
            if n not in self.ctx.board.locales:
                raise TextError(T("there is no locale {locale} on this board", locale=n))
            return [n]
        norm = normalise_name(text)
        topo = self.ctx.board.toponym_index().get(norm)
        if topo is not None:
            return sorted(set(topo.locales))
        key = normalise_name(text.replace("_", " ").replace("-", " "))
        if key in self.keys:
            return [self.keys[key]]
        raise suggest(norm, self.places, T("{place} is not a known place", place=repr(text)))

    def one_place(self, toks: Sequence[Tok]) -> int:
        locs = self.place(toks)
        if len(locs) > 1:
            raise TextError(self._ambiguous(toks, locs))
        return locs[0]

    def _ambiguous(self, toks: Sequence[Tok], locs: Sequence[int]) -> str:
        board = self.ctx.board
        each = ", ".join(f"{x} ({board.locales[x].key})" for x in locs)
        return T(
            "{place} names locales {locales}; write the locale number",
            place=repr(words_of(toks)),
            locales=each,
        )

    def places_list(self, toks: Sequence[Tok]) -> list[int]:
        """A path: places separated by commas (or blanks, when each word is a place)."""
        out: list[int] = []
        for item in item_list(toks):
            try:
                out.append(self.one_place(item))
            except TextError:
                if len(item) == 1 or not all(t.text.isdigit() for t in item):
                    raise
                out.extend(self.one_place([t]) for t in item)
        if not out:
            raise TextError(T("the road path lists no locale"))
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
            raise TextError(T("'blocking' needs a place or an approach id"))
        app = self.approach_id(blocking)
        if app is not None:
            fits = [x for x in locs if app in board.approaches_of(x)]
            if not fits:
                raise TextError(
                    T(
                        "{approach} is not an approach of {place}",
                        approach=app,
                        place=words_of(dest),
                    )
                )
            if len(fits) > 1:
                raise TextError(self._ambiguous(dest, fits))
            return fits[0], app
        towards = self.place(blocking)
        pairs = sorted(
            {(a, b, ap) for a in locs for b in towards if (ap := board.between(a, b)) is not None}
        )
        if not pairs:
            raise TextError(
                T(
                    "{place} and {other} are not adjacent",
                    place=words_of(dest),
                    other=words_of(blocking),
                )
            )
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
        text = words_of(toks)
        if not toks:
            raise TextError(T("a unit id is missing"))
        uid = self.units.get(text.casefold())
        if uid is None:
            raise suggest(
                text.casefold(),
                dict(self.units),
                T("{unit} is not one of your units", unit=repr(text)),
            )
        return uid

    def commander(self, toks: Sequence[Tok]) -> str:
        text = words_of(toks)
        if not toks:
            raise TextError(T("a commander is missing"))
        cid = self.commanders.get(squash(text))
        if cid is None:
            names = {k: v for k, v in self.piece_names.items() if k in self.commanders}
            raise suggest(
                squash(text),
                names,
                T("{commander} is not one of your commanders", commander=repr(text)),
            )
        return cid

    def piece(self, toks: Sequence[Tok]) -> str:
        text = words_of(toks)
        uid = self.units.get(text.casefold())
        if uid is not None:
            return uid
        cid = self.commanders.get(squash(text))
        if cid is not None:
            return cid
        choices = {k.casefold(): k for k in self.units.values()}
        choices.update({k: v for k, v in self.piece_names.items() if k in self.commanders})
        probe = squash(text) if squash(text) in choices else text.casefold()
        raise suggest(
            probe, choices, T("{piece} is not one of your units or commanders", piece=repr(text))
        )

    def listed(self, toks: Sequence[Tok], one: Callable[[Sequence[Tok]], str]) -> list[str]:
        """Pieces separated by commas or 'and' (or blanks when every word is a piece); at least
        one (an empty list is written by leaving the clause out, or 'no counter')."""
        if not item_list(toks):
            raise TextError(T("a list of pieces is empty"))
        out: list[str] = []
        for item in item_list(toks):
            try:
                out.append(one(item))
            except TextError:
                if len(item) == 1:
                    raise
                try:
                    out.extend(one([t]) for t in item)
                except TextError:
                    raise TextError(first_error(one, item)) from None
        return out

    def commander_then(self, toks: Sequence[Tok]) -> tuple[str, list[Tok]]:
        """The longest leading run of words that names a commander, and the words after it."""
        for k in range(len(toks), 0, -1):
            cid = self.commanders.get(squash(words_of(toks[:k])))
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
        text = words_of(toks)
        names = self._aliases()
        uid = names.get(text.casefold())
        if uid is None:
            shown = {k: unit_alias(self.ctx.state, self.side, v) for k, v in names.items()}
            raise suggest(
                text.casefold(),
                shown,
                T("{alias} is not the alias of an enemy unit on the map", alias=repr(text)),
            )
        return unit_alias(self.ctx.state, self.side, uid)  # the engine takes enemy aliases

    def unit_or_alias(self, toks: Sequence[Tok]) -> str:
        """An own unit id, or the alias of an enemy unit (odd losses fall on either side)."""
        text = words_of(toks)
        if text.casefold() in self.units:
            return self.units[text.casefold()]
        names = self._aliases()
        if text.casefold() in names:
            return unit_alias(self.ctx.state, self.side, names[text.casefold()])
        shown = {k: unit_alias(self.ctx.state, self.side, v) for k, v in names.items()}
        shown.update(self.units)
        raise suggest(
            text.casefold(),
            shown,
            T("{unit} is neither your unit nor an enemy unit's alias", unit=repr(text)),
        )

    def entry(self, toks: Sequence[Tok]) -> tuple[str, int]:
        text = words_of(toks)
        e = self.entries.get(text.casefold())
        if e is None:
            mine = {k: v.id for k, v in self.entries.items() if v.side == self.side}
            raise suggest(
                text.casefold(), mine, T("{entry} is not an entry area", entry=repr(text))
            )
        return e.id, e.locale


def first_error(one: Callable[[Sequence[Tok]], str], item: Sequence[Tok]) -> str:
    try:
        one(item)
    except TextError as e:
        return str(e)
    return T("cannot read {words}", words=repr(words_of(item)))
