"""Set-up as plain text (NT-19..NT-24): during `setup_AL` / `setup_F` the whole text is ONE
`allied_setup` or `french_setup` action of the writer's side, one line per item:

    corps <commander>: <units> [blocking <place | approach id>] [off map]
    detachment <unit> at <place> [blocking <place | approach id>]      (French only, NT-23)
    battery <unit> [blocking <place | approach id>]  |  battery none  (French only, NT-24)

A corps stands on its commander's set-up locale (NT-12), so `blocking` names the approach from
there; the fixed battery's locale is where the text puts the unit (its detachment, else its
corps' set-up locale). Names are read by `text_reader.Reader`, as in the other orders (`text`).
The parser only reads names: `validate` judges the set-up (every commander once, capacities, ...).

Every line adds exactly one item (a corps, a detachment, or the battery key, which is absent
without a `battery` line), so a proper prefix of the order lines of a set-up text is either refused
or reads as a different action: the platform relies on this to find which lines an action used.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.i18n import T
from games.core.protocol import JSON, Action, Rejection
from games.napoleons_triumph.state import AL, F
from games.napoleons_triumph.text_reader import (
    Clauses,
    Reader,
    TextError,
    Tok,
    clause_once,
    item_list,
    split_clauses,
    suggest,
    tokenise,
)

__all__ = ["SETUP_PHASES", "setup_orders"]

RULE = "NT-0"  # a form error, not a rule of the game (as in `text`)
SETUP_PHASES = ("setup_AL", "setup_F")
KINDS = {AL: "allied_setup", F: "french_setup"}
MAX_LINES = 64  # a set-up needs at most 9 corps + 6 detachments + 1 battery lines
MAX_LINE_CHARS = 500  # keeps the name look-ups (longest commander prefix) cheap
CORPS_KEYS = frozenset({"blocking", "off"})
FORMS = {
    AL: "'corps <commander>: <units> [blocking <place>] [off map]'",
    F: "'corps <commander>: <units> [blocking <place>] [off map]', "
    "'detachment <unit> at <place> [blocking <place>]' or 'battery <unit> [blocking <place>]'",
}


def _corps(r: Reader, toks: list[Tok]) -> dict[str, JSON]:
    """`corps <commander>[:] <units> [blocking ...] [off map]`; the colon is optional."""
    colons = [i for i, t in enumerate(toks) if t.text == ":"]
    if len(colons) > 1:
        raise TextError(T("write one ':' between the commander and his units"))
    if colons:
        name, clauses = split_clauses(toks[: colons[0]], CORPS_KEYS)
        cid = r.commander(name)
        units, more = split_clauses(toks[colons[0] + 1 :], CORPS_KEYS)
        clauses = clauses + more
    else:
        head, clauses = split_clauses(toks, CORPS_KEYS)
        cid, units = r.commander_then(head)
    off = _off_map(clauses)
    blocking = clause_once(clauses, "blocking")
    entry: dict[str, JSON] = {
        "commander": cid,
        "units": list[JSON](r.listed(units, r.unit) if item_list(units) else []),
        "approach": None if blocking is None else _approach(r, cid, blocking),
    }
    if off:
        entry["off_map"] = True
    return entry


def _off_map(clauses: Clauses) -> bool:
    words = clause_once(clauses, "off")
    if words is None:
        return False
    if [t.key for t in words] != ["map"]:
        raise TextError(T("write 'off map' for a corps that starts off the map"))
    return True


def _approach(r: Reader, cid: str, blocking: Sequence[Tok]) -> str:
    """The approach a corps blocks: an approach id, or a place next to his set-up locale."""
    home = r.ctx.board.commanders[cid].setup_locale
    if home is None:
        app = r.approach_id(blocking)
        if app is None:
            name = r.ctx.board.commanders[cid].name
            raise TextError(
                T(
                    "{commander} has no set-up locale on this board: he blocks nothing",
                    commander=name,
                )
            )
        return app
    name = r.ctx.board.commanders[cid].name
    return r.end_at([home], blocking, [Tok(f"{name}'s set-up locale {home}")])[1]


def _detachment(r: Reader, toks: list[Tok]) -> dict[str, JSON]:
    head, clauses = split_clauses(toks, frozenset({"at", "blocking"}))
    at = clause_once(clauses, "at")
    if at is None or len(head) != 1:
        raise TextError(T("write 'detachment <unit> at <place> [blocking <place>]'"))
    loc, app = r.position(at, clause_once(clauses, "blocking"))
    return {"unit": r.unit(head), "position": {"locale": loc, "approach": app}}


def _battery_words(toks: list[Tok]) -> tuple[list[Tok], list[Tok] | None] | None:
    """(unit words, blocking words) of `battery <unit> [blocking ...]`; None for `battery none`."""
    if [t.key for t in toks] == ["none"]:
        return None
    head, clauses = split_clauses(toks, frozenset({"blocking"}))
    if len(head) != 1:
        raise TextError(T("write 'battery <unit> [blocking <place>]' or 'battery none'"))
    return head, clause_once(clauses, "blocking")


def _battery(
    r: Reader, words: tuple[list[Tok], list[Tok] | None], items: dict[str, list[JSON]]
) -> dict[str, JSON]:
    """The fixed battery, read after every other line: a place after `blocking` is taken from
    the locale the text puts the unit in (its detachment, else its corps' set-up locale)."""
    head, blocking = words
    uid = r.unit(head)
    if blocking is None:
        return {"unit": uid, "approach": None}
    loc = _where(r, uid, items)
    if loc is None:
        app = r.approach_id(blocking)
        if app is None:
            raise TextError(
                T("{unit} is in no corps on the map here: write the approach id", unit=uid)
            )
        return {"unit": uid, "approach": app}
    return {"unit": uid, "approach": r.end_at([loc], blocking, [Tok(f"{uid}'s locale {loc}")])[1]}


def _where(r: Reader, uid: str, items: dict[str, list[JSON]]) -> int | None:
    for d in items["detachments"]:
        if isinstance(d, dict) and d.get("unit") == uid:
            pos = d.get("position")
            loc = pos.get("locale") if isinstance(pos, dict) else None
            return loc if isinstance(loc, int) else None
    for c in items["corps"]:
        units = c.get("units") if isinstance(c, dict) else None
        if (
            isinstance(c, dict)
            and isinstance(units, list)
            and uid in units
            and not c.get("off_map")
        ):
            return r.ctx.board.commanders[str(c["commander"])].setup_locale
    return None


def _verb(toks: list[Tok], side: str) -> tuple[str, list[Tok]]:
    words = [t.key for t in toks]
    if words[:2] == ["fixed", "battery"]:
        return "battery", toks[2:]
    verb = words[0]
    known = {"corps": "corps"}
    if side == F:
        known |= {"detachment": "detachment", "battery": "battery"}
    if verb not in known:
        if side == AL and verb in ("detachment", "battery", "detach"):
            raise TextError(
                T("only the French set up detachments and a fixed battery (NT-23, NT-24)")
            )
        err = suggest(verb, known, T("{word} is not a set-up order", word=repr(toks[0].text)))
        raise TextError(
            T("{error}; during the set-up a line is {forms}", error=err, forms=FORMS[side])
        )
    return verb, toks[1:]


def _split_colon(line: str) -> list[Tok]:
    return tokenise(line.replace(":", " : "))


def setup_orders(
    r: Reader, role: str, lines: Sequence[tuple[int, str]]
) -> list[Action] | Rejection:
    """The one set-up action of `r.side` read from the order lines (number, text); a form error
    names its line. Never raises on any text (only on a bug, which `parse_text` catches)."""
    if not lines:
        return Rejection(RULE, T("the text holds no order"), "/")
    if len(lines) > MAX_LINES:
        n = lines[MAX_LINES][0]
        return Rejection(
            RULE,
            T("line {n}: a set-up has at most {most} lines", n=n, most=MAX_LINES),
            f"/line/{n}",
        )
    items: dict[str, list[JSON]] = {"corps": [], "detachments": []}
    battery: tuple[int, tuple[list[Tok], list[Tok] | None] | None] | None = None
    for n, line in lines:
        try:
            if len(line) > MAX_LINE_CHARS:
                raise TextError(T("the line is longer than {most} characters", most=MAX_LINE_CHARS))
            verb, toks = _verb(_split_colon(line), r.side)
            if verb == "corps":
                items["corps"].append(_corps(r, toks))
            elif verb == "detachment":
                items["detachments"].append(_detachment(r, toks))
            else:
                if battery is not None:
                    raise TextError(
                        T("the fixed battery is already given on line {n}", n=battery[0])
                    )
                battery = (n, _battery_words(toks))
        except TextError as e:
            return Rejection(RULE, T("line {n}: {error}", n=n, error=e), f"/line/{n}")
    payload: dict[str, JSON] = {"corps": items["corps"]}
    if r.side == F:
        payload["detachments"] = items["detachments"]
    if battery is not None:
        n, words = battery
        try:
            payload["fixed_battery"] = None if words is None else _battery(r, words, items)
        except TextError as e:
            return Rejection(RULE, T("line {n}: {error}", n=n, error=e), f"/line/{n}")
    return [Action(role, KINDS[r.side], payload)]
