"""Written orders of team play: the order itself, its text grammar and its canonical form
(digest napoleons-triumph-team.md NT-TEAM-19..21, 3.4.2, 3.4.3 and Appendix A, the normative
reference parser, which `parse_order` follows step for step).

An order is 1 verb and 0 or more toponyms of the loaded board's gazetteer [seed: 19. Team-Spiel,
L678]. Only the canonical form (`Order`: verb + unique toponym ids in gazetteer order, rendered by
`text_de` / `text_en` / `order_json`) is ever stored: the author's spelling, case, word order,
duplicates, separators, punctuation and language cannot carry a hidden message (3.4.3, AMB-5).

A refusal is an `OrderRefused` (the engine's `Illegal`, so `.rejection` is the protocol's
`Rejection`) naming the rule id, the character offset in the author's text and, for an unknown
word, the closest toponym of the gazetteer. Its message is for the author only (3.6 L8).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from games.core.protocol import JSON
from games.napoleons_triumph.board_model import Board, Toponym
from games.napoleons_triumph.errors import Illegal

__all__ = [
    "LANGUAGES",
    "ORDER_INVALID",
    "Order",
    "OrderRefused",
    "Verb",
    "canonical_order",
    "closest_toponym",
    "gazetteer_problems",
    "normalise_with_offsets",
    "order_from_json",
    "order_json",
    "parse_order",
    "text_de",
    "text_en",
]

R_FORM = "NT-TEAM-19"  # 1 verb and 0 or more nouns; the form of 3.4.2 (G-1, separators)
R_VERB = "NT-TEAM-20"  # the verbs are angreifen / verteidigen (G-6: attack / defend)
R_NOUN = "NT-TEAM-21"  # the nouns are the map's toponyms (G-2, G-3, AMB-6)
ORDER_INVALID = "order_invalid"  # the 422 code of 3.4.4
LANGUAGES = ("any", "de", "en")  # options.order_language (G-6); "any" is the default


class Verb(StrEnum):  # NT-TEAM-20
    ATTACK = "ATTACK"
    DEFEND = "DEFEND"


# word -> (verb, language); conjunction -> language (3.4.2, Appendix A; AMB-34 lenient input)
VERBS: Mapping[str, tuple[Verb, str]] = {
    "angreifen": (Verb.ATTACK, "de"),
    "attack": (Verb.ATTACK, "en"),
    "verteidigen": (Verb.DEFEND, "de"),
    "defend": (Verb.DEFEND, "en"),
}
CONJUNCTIONS: Mapping[str, str] = {"und": "de", "and": "en"}
_VERB_DE = {Verb.ATTACK: "angreifen", Verb.DEFEND: "verteidigen"}
_VERB_EN = {Verb.ATTACK: "Attack", Verb.DEFEND: "Defend"}
_SEPARATOR = re.compile(r" ?, ?(?:(und|and) )?| (und|and) ")  # Appendix A
_ITEM_END = re.compile(r",| (?:und|and)(?= |$)")


class OrderRefused(Illegal):
    """A written order refused at submission (3.4.4). `code` is the HTTP-style code of 3.4.4
    (order_invalid, not_cinc, bad_recipient, order_phase_closed); `position` the 0-based offset
    in the author's text (after Unicode NFC) of a grammar error; `closest` the id of the closest
    toponym when a word is not a toponym. The message goes to the author only (3.6 L8)."""

    def __init__(
        self,
        rule: str,
        code: str,
        message: str,
        path: str = "",
        position: int | None = None,
        closest: str | None = None,
    ) -> None:
        super().__init__(rule, message, path)
        self.code = code
        self.position = position
        self.closest = closest


@dataclass(frozen=True, slots=True)
class Order:
    """The content of a written order (NT-TEAM-19): a verb and toponym ids. Canonical when built
    by `canonical_order` / `parse_order` / `order_from_json`: unique ids in gazetteer order."""

    verb: Verb
    toponyms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(set(self.toponyms)) != len(self.toponyms):
            raise ValueError("an order names each toponym once (3.4.3)")


# ------------------------------------------------------------------------------ the gazetteer


@dataclass(frozen=True, slots=True)
class _Gazetteer:
    entries: Mapping[str, Toponym]  # id -> toponym
    order: Mapping[str, int]  # id -> index in the board's file (AMB-5)
    names: Mapping[str, str]  # normalised name or alias -> id
    by_length: tuple[str, ...]  # normalised names, longest first


@lru_cache(maxsize=16)
def _gazetteer(board: Board) -> _Gazetteer:
    names = {n: t.id for n, t in board.toponym_index().items()}
    return _Gazetteer(
        entries={t.id: t for t in board.toponyms},
        order={t.id: i for i, t in enumerate(board.toponyms)},
        names=names,
        by_length=tuple(sorted(names, key=lambda n: (-len(n), n))),
    )


def _match(gaz: _Gazetteer, text: str, pos: int) -> tuple[str, int] | None:
    """G-2: the longest name at text[pos:] that ends at the end, a space or a comma."""
    for name in gaz.by_length:
        end = pos + len(name)
        if text.startswith(name, pos) and (end == len(text) or text[end] in " ,"):
            return gaz.names[name], end
    return None


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def closest_toponym(board: Board, word: str) -> Toponym | None:
    """The toponym whose name or alias is most like `word` (difflib ratio on normalised text);
    ties go to the earlier toponym of the file, then to its name before its aliases. None only
    for a board without a gazetteer."""
    key = normalise_with_offsets(word)[0]
    best: Toponym | None = None
    best_score = -1.0
    for t in board.toponyms:
        for n in (t.name, *t.aliases):
            score = _ratio(key, normalise_with_offsets(n)[0])
            if score > best_score:
                best, best_score = t, score
    return best


def gazetteer_problems(board: Board) -> list[str]:
    """Names the grammar of 3.4.2 could never read back (a verb or conjunction as a word, a comma,
    a final '.' or '!'); a board whose list is not empty breaks the canonical round trip."""
    out = []
    for t in board.toponyms:
        for n in (t.name, *t.aliases):
            norm = normalise_with_offsets(n)[0]
            words = norm.split(" ")
            if (
                "," in norm
                or norm[-1:] in (".", "!")
                or any(w in VERBS or w in CONJUNCTIONS for w in words)
            ):
                out.append(f"toponym {t.id}: name {n!r} cannot be written in an order")
    return out


# ------------------------------------------------------------------------------ normalisation


def normalise_with_offsets(raw: str) -> tuple[str, tuple[int, ...]]:
    """`board_model.normalise_name(raw)` (NFC, casefold, ß -> ss, white space runs -> one space,
    trimmed), and for each of its characters (plus one for its end) the offset in NFC(raw) that
    produced it, so an error found in the normal form points into the author's text."""
    src = unicodedata.normalize("NFC", raw)
    out: list[str] = []
    at: list[int] = []
    gap: int | None = None
    for i, ch in enumerate(src):
        if ch.isspace():  # the white space of str.split()
            if gap is None:
                gap = i
            continue
        if gap is not None and out:
            out.append(" ")
            at.append(gap)
        gap = None
        for c in ch.casefold().replace("ß", "ss"):
            out.append(c)
            at.append(i)
    at.append(len(src) if gap is None or not out else gap)
    return "".join(out), tuple(at)


# ------------------------------------------------------------------------------ the parser


class _Parser:
    """Appendix A, with the rule id, the offset and the closest name added to each refusal."""

    def __init__(self, raw: str, board: Board, language: str, path: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"order language is one of {LANGUAGES}")
        self.src = unicodedata.normalize("NFC", raw)
        self.text, self.at = normalise_with_offsets(raw)
        self.board = board
        self.gaz = _gazetteer(board)
        self.language = language
        self.path = path
        self.failed_at = 0  # the position in self.text of the last refusal

    def refuse(self, rule: str, pos: int, message: str, closest: str | None = None) -> OrderRefused:
        self.failed_at = pos
        offset = self.at[min(pos, len(self.at) - 1)]
        return OrderRefused(
            rule,
            ORDER_INVALID,
            f"character {offset + 1}: {message}",
            self.path,
            offset,
            closest,
        )

    def shown(self, pos: int, word: str) -> str:
        """The author's spelling of the normalised `word` at self.text[pos]."""
        return repr(self.src[self.at[pos] : self.at[pos + len(word) - 1] + 1])

    def allowed_verbs(self) -> list[str]:
        return [w for w, (_, lang) in VERBS.items() if self.language in ("any", lang)]

    def parse(self) -> Order:
        end = re.search(r" ?[.!]$", self.text)  # the optional final "." or "!" (end)
        text = self.text[: end.start()] if end else self.text
        words: list[tuple[int, str]] = []
        start = 0
        for w in text.split(" ") if text else []:
            words.append((start, w))
            start += len(w) + 1
        verbs = [i for i, (_, w) in enumerate(words) if w in VERBS]
        if not words:
            raise self.refuse(
                R_FORM, 0, "an order is one verb and 0 or more toponyms; this one is empty"
            )
        if not verbs:
            self.no_verb(text)
        if len(verbs) > 1:  # G-1
            raise self.refuse(
                R_FORM, words[verbs[1]][0], "an order has exactly one verb (3.4.2 G-1)"
            )
        i = verbs[0]
        at, word = words[i]
        verb, lang = VERBS[word]
        if self.language not in ("any", lang):  # G-6
            allowed = " or ".join(self.allowed_verbs())
            raise self.refuse(R_VERB, at, f"in this game the verb is {allowed} (3.4.2 G-6)")
        before, after = text[: max(at - 1, 0)], text[at + len(word) + 1 :]
        if before and after:  # G-1
            raise self.refuse(
                R_FORM,
                at + len(word) + 1,
                "the toponyms stand on one side of the verb only (3.4.2 G-1)",
            )
        base = 0 if before else at + len(word) + 1
        ids = self.nouns(before or after, base)
        return canonical_order(self.board, verb, ids)

    def no_verb(self, text: str) -> None:
        """No verb: an unknown word is taken for a verb the rule does not allow (NT-TEAM-20);
        a text of toponyms only lacks its verb (NT-TEAM-19)."""
        word = ""
        try:
            self.nouns(text, 0)
        except OrderRefused:
            pos = self.failed_at
            stop = re.compile(r"[ ,]|$").search(text, pos)
            word = text[pos : stop.start() if stop else len(text)]
        if word in VERBS:  # "Telnitz,angreifen"
            raise self.refuse(R_FORM, pos, "write the verb as a word of its own")
        if word and word not in CONJUNCTIONS:
            allowed = self.allowed_verbs()
            near = difflib.get_close_matches(word, allowed, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise self.refuse(
                R_VERB,
                pos,
                f"{self.shown(pos, word)} is not a verb; the verbs are {', '.join(allowed)}{hint}",
            )
        raise self.refuse(
            R_FORM, len(text), "an order needs a verb: angreifen or verteidigen (attack or defend)"
        )

    def nouns(self, s: str, base: int) -> list[str]:
        """noun_list of 3.4.2 in `s` (= self.text[base:base+len(s)]): toponym ids in input order."""
        ids: list[str] = []
        pos = item = 0
        while pos < len(s):
            hit = _match(self.gaz, s, pos)
            if hit is None:
                raise self.unknown(s, pos, item, base)
            ids.append(hit[0])
            pos = hit[1]
            if pos == len(s):
                break
            sep = _SEPARATOR.match(s, pos)
            if sep is None:  # s[pos] == " ": a word follows that is neither separator nor toponym
                if _match(self.gaz, s, pos + 1) is not None:
                    raise self.refuse(
                        R_FORM, base + pos + 1, "write a comma, 'und' or 'and' between two toponyms"
                    )
                raise self.unknown(s, pos + 1, item, base)
            conj = sep.group(1) or sep.group(2)
            if conj and self.language not in ("any", CONJUNCTIONS[conj]):  # G-6
                raise self.refuse(
                    R_FORM,
                    base + s.index(conj, pos),
                    f"in this game the conjunction is not {conj!r}",
                )
            pos = item = sep.end()
            if pos == len(s):
                raise self.refuse(
                    R_FORM, base + sep.start(), "a separator must stand between two toponyms"
                )
        return ids

    def unknown(self, s: str, pos: int, item: int, base: int) -> OrderRefused:
        """G-2, G-3: the word at s[pos] is not a toponym; name the toponym closest to its item."""
        stop = re.compile(r"[ ,]|$").search(s, pos)
        word = s[pos : stop.start() if stop else len(s)]
        if not word or word in CONJUNCTIONS:
            return self.refuse(R_FORM, base + pos, "a separator must stand between two toponyms")
        end = _ITEM_END.search(s, pos)
        phrase = s[item : end.start() if end else len(s)].strip()
        near = closest_toponym(self.board, phrase)
        hint = f"; the closest is {near.name}" if near else ""
        what = (
            "is a number, and numbers are not toponyms (AMB-6)"
            if any(c.isdigit() for c in word)
            else "is not a toponym of this map"
        )
        return self.refuse(
            R_NOUN,
            base + pos,
            f"{self.shown(base + pos, word)} {what} (3.4.2 G-3){hint}",
            near.id if near else None,
        )


def parse_order(raw: str, board: Board, *, language: str = "any", path: str = "/text") -> Order:
    """NT-TEAM-19..21, 3.4.2: the author's text -> the canonical order; OrderRefused otherwise.
    `language` is options.order_language (G-6): "any" (default), "de" or "en"."""
    return _Parser(raw, board, language, path).parse()


# ------------------------------------------------------------------------------ canonical form


def canonical_order(
    board: Board, verb: Verb, toponym_ids: Sequence[str], path: str = "/toponyms"
) -> Order:
    """3.4.3, AMB-5: the ids deduplicated and put in gazetteer order; an unknown id is refused
    (NT-TEAM-21) naming the closest toponym."""
    gaz = _gazetteer(board)
    for i, tid in enumerate(toponym_ids):
        if tid not in gaz.entries:
            near = closest_toponym(board, tid.replace("_", " "))
            hint = f"; the closest is {near.name} ({near.id})" if near else ""
            raise OrderRefused(
                R_NOUN,
                ORDER_INVALID,
                f"{tid!r} is not a toponym of this map{hint}",
                f"{path}/{i}",
                None,
                near.id if near else None,
            )
    return Order(Verb(verb), tuple(sorted(set(toponym_ids), key=gaz.order.__getitem__)))


def _names(order: Order, board: Board) -> list[str]:
    entries = _gazetteer(board).entries
    return [entries[i].name for i in order.toponyms]  # the printed spelling, never the author's


def text_de(order: Order, board: Board) -> str:
    """3.4.3: "Pratze, Pratzeberg, Aujezd verteidigen"."""
    names = _names(order, board)
    return (", ".join(names) + " " if names else "") + _VERB_DE[order.verb]


def text_en(order: Order, board: Board) -> str:
    """3.4.3: "Defend Pratze, Pratzeberg, Aujezd"."""
    names = _names(order, board)
    return _VERB_EN[order.verb] + (" " + ", ".join(names) if names else "")


def order_json(order: Order, board: Board) -> dict[str, JSON]:
    """3.4.3: the canonical JSON, {"verb", "toponyms", "text_de", "text_en"}."""
    return {
        "verb": order.verb.value,
        "toponyms": list[JSON](order.toponyms),
        "text_de": text_de(order, board),
        "text_en": text_en(order, board),
    }


def order_from_json(data: JSON, board: Board, path: str = "") -> Order:
    """NT-TEAM-19..21: the structured form {"verb": "ATTACK"|"DEFEND", "toponyms": [id, ...]}
    (which is the order); "text_de" / "text_en" may come along only as the canonical rendering.
    No other key: a field is a channel (3.4.3)."""

    def bad(rule: str, where: str, message: str) -> OrderRefused:
        return OrderRefused(rule, ORDER_INVALID, message, f"{path}{where}")

    if not isinstance(data, dict):
        raise bad(R_FORM, "", "an order is an object with a verb and a list of toponym ids")
    extra = sorted(set(data) - {"verb", "toponyms", "text_de", "text_en"})
    if extra:
        raise bad(R_FORM, f"/{extra[0]}", f"an order has no field {extra[0]!r} (NT-TEAM-19)")
    verb = data.get("verb")
    if not isinstance(verb, str) or verb not in Verb.__members__:
        raise bad(R_VERB, "/verb", "the verb is ATTACK or DEFEND")
    ids = data.get("toponyms", [])
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise bad(R_NOUN, "/toponyms", "toponyms is a list of toponym ids")
    order = canonical_order(board, Verb(verb), [str(i) for i in ids], f"{path}/toponyms")
    for key, render in (("text_de", text_de), ("text_en", text_en)):
        if key in data and data[key] != render(order, board):
            raise bad(
                R_FORM, f"/{key}", f"{key} must be the canonical text {render(order, board)!r}"
            )
    return order
