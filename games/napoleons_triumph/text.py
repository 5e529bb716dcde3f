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

from collections.abc import Callable, Sequence

from games.core.i18n import T
from games.core.protocol import JSON, Action, Rejection
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.decisions import text_kind
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.team.text_orders import OrderLineError, is_team_line, read_team_line
from games.napoleons_triumph.text_reader import (
    Clauses,
    Reader,
    TextError,
    Tok,
    clause_once,
    item_list,
    no_extra,
    split_clauses,
    suggest,
    tokenise,
    words_of,
)
from games.napoleons_triumph.text_setup import SETUP_PHASES, setup_orders

RULE = "NT-0"  # a form error, not a rule of the game
MAX_LINE_CHARS = 500  # no order needs more; keeps reading a hostile text cheap


# ----------------------------------------------------------------------------- the orders


MOVE_KEYS = frozenset({"to", "by", "via", "blocking", "detach"})


EITHER = {  # a destination given twice, by the order's kind word
    "move": T("a move goes either 'to' a place or 'by road via' places"),
    "corps move": T("a corps move goes either 'to' a place or 'by road via' places"),
    "detachment move": T("a detachment move goes either 'to' a place or 'by road via' places"),
}
WHERE = {  # no destination
    "move": T("say where the move goes: 'to <place>' or 'by road via <places>'"),
    "corps move": T("say where the corps move goes: 'to <place>' or 'by road via <places>'"),
    "detachment move": T(
        "say where the detachment move goes: 'to <place>' or 'by road via <places>'"
    ),
}


def _destination(r: Reader, clauses: Clauses, kind_word: str) -> dict[str, JSON]:
    """`to <position>` or `by road via <places> [blocking ...]` -> the move fields."""
    to = clause_once(clauses, "to")
    by = clause_once(clauses, "by")
    via = clause_once(clauses, "via")
    blocking = clause_once(clauses, "blocking")
    if to is not None and (by is not None or via is not None):
        raise TextError(EITHER[kind_word])
    if to is not None:
        loc, app = r.position(to, blocking)
        return {"road": False, "to": {"locale": loc, "approach": app}}
    if by is not None:
        if [t.key for t in by] != ["road"]:
            raise TextError(T("write 'by road via <places>'"))
        if via is None:
            raise TextError(T("a road move needs 'via <places>'"))
        path = r.places_list(via)
        end_app: str | None = None
        if blocking is not None:
            last = path[-1]
            _, end_app = r.end_at([last], blocking, [Tok(str(last))])
        return {"road": True, "path": list[JSON](path), "end_approach": end_app}
    raise TextError(WHERE[kind_word])


def _move(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, MOVE_KEYS - {"detach"})
    if len(head) != 1:
        raise TextError(T("write 'move <unit> to <place>' or 'move <unit> by road via <places>'"))
    return "unit_move", {"unit": r.unit(head), **_destination(r, clauses, "move")}


def _corps(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, MOVE_KEYS)
    cid = r.commander(head)
    det = clause_once(clauses, "detach")
    detach = r.listed(det, r.unit) if det is not None else []
    return "corps_move", {
        "commander": cid,
        "detach": list[JSON](detach),
        **_destination(r, clauses, "corps move"),
    }


def _detach(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, MOVE_KEYS - {"detach"})
    cid, rest = r.commander_then(head)
    if not rest:
        raise TextError(T("write 'detach <commander> <units> to <place>'"))
    units = r.listed(rest, r.unit)
    dest = _destination(r, clauses, "detachment move")
    return "detach_move", {"commander": cid, "units": list[JSON](units), **dest}


def _ride(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    """`ride on via <places> [blocking <place>]`, or `ride on blocking <place>` to end where the
    cavalry stand (an empty path, NT-53): the ride-on of a vacated road attack (NT-98)."""
    head, clauses = split_clauses(toks, frozenset({"via", "blocking"}))
    via = clause_once(clauses, "via")
    blocking = clause_once(clauses, "blocking")
    if [t.key for t in head] != ["on"] or (via is None and blocking is None):
        raise TextError(T("write 'ride on via <places>' or 'ride on blocking <place>'"))
    path = r.places_list(via) if via is not None else []
    ride = r.ctx.state.ride_on
    here = path[-1] if path else (ride or {}).get("locale")
    if not isinstance(here, int):
        raise TextError(T("no ride-on is open: write 'ride on via <places>'"))
    end_app: str | None = None
    if blocking is not None:
        _, end_app = r.end_at([here], blocking, [Tok(str(here))])
    return "ride_on", {"path": list[JSON](path), "end_approach": end_app}


def _attach(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, frozenset({"to"}))
    to = clause_once(clauses, "to")
    if to is None or len(head) != 1:
        raise TextError(T("write 'attach <unit> to <commander>'"))
    return "attach", {"commander": r.commander(to), "unit": r.unit(head)}


def _enter(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, frozenset({"at", "via", "blocking"}))
    at = clause_once(clauses, "at")
    if at is None or not head:
        raise TextError(T("write 'enter <commander or unit> at <entry> [via <places>]'"))
    entry, entry_loc = r.entry(at)
    via = clause_once(clauses, "via")
    path = r.places_list(via) if via is not None else [entry_loc]
    blocking = clause_once(clauses, "blocking")
    end_app: str | None = None
    if blocking is not None:
        _, end_app = r.end_at([path[-1]], blocking, [Tok(str(path[-1]))])
    payload: dict[str, JSON] = {"entry": entry, "path": list[JSON](path), "end_approach": end_app}
    who = r.piece(head)
    if who in r.commanders.values():
        return "enter_reinforcement", {"command": "corps_move", "commander": who, **payload}
    return "enter_reinforcement", {"command": "unit_move", "unit": who, **payload}


def _threaten(r: Reader, clauses: Clauses) -> tuple[str, dict[str, JSON]]:
    frm = clause_once(clauses, "from")
    towards = clause_once(clauses, "towards")
    if frm is None or towards is None:
        raise TextError(T("write 'attack from <place> towards <place>'"))
    loc, app = r.join(frm, towards)
    guard = clause_once(clauses, "guard")
    payload: dict[str, JSON] = {
        "attack_locale": loc,
        "approach": app,
        "guard_attack": guard is not None,
        "show_guard": r.unit(guard) if guard is not None else None,
    }
    if clause_once(clauses, "starting") is not None or clause_once(clauses, "via") is not None:
        raise TextError(
            T(
                "a threat names only the approach (NT-70); name a road attack's road when you "
                "announce it: 'feint with unit <unit> by road via <places> block'"
            )
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
                raise TextError(T("write 'unit <unit> by road via <places>'"))
            cmds[-1].update({"road": True, "path": []})
        elif key == "via":
            if not cmds or cmds[-1].get("road") is not True:
                raise TextError(T("'via' follows 'by road': 'unit <unit> by road via <places>'"))
            cmds[-1]["path"] = list[JSON](r.places_list(words))
        elif key == "entering":
            if not cmds or cmds[-1]["kind"] not in ("unit_move", "corps_move"):
                raise TextError(
                    T("'entering <entry>' follows 'unit <unit>' or 'corps <commander>'")
                )
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
                raise TextError(T("'detach' follows 'corps <commander>'"))
            cmds[-1]["detach"] = list[JSON](r.listed(words, r.unit))
    if not cmds:
        raise TextError(T("name the attacking command: 'corps <commander>' or 'unit <unit>'"))
    return list[JSON](cmds)


def _with_clause(clauses: Clauses, form: str) -> Clauses:
    if not clauses or clauses[0][0] != "with" or clauses[0][1]:
        raise TextError(T("write {form}", form=repr(form)))
    flags = {"wide", "narrow", "artillery", "block", "reserve"}
    for key, words in clauses:
        if key in flags and words:
            no_extra(words, key)
    return clauses[1:]


def _attack(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    if toks and toks[0].key == "from":
        _, clauses = split_clauses(toks, frozenset({"from", "towards", "guard", "starting", "via"}))
        return _threaten(r, clauses)
    head, clauses = split_clauses(toks, ATTACK_KEYS)
    no_extra(head, "attack")
    rest = _with_clause(clauses, "attack with corps <commander> | unit <unit> ...")
    commands = _commands(r, rest)
    if text_kind(r.ctx.state.pending, "attack", "declare_attack") == "declare_after_vacate":
        return _advance_payload(rest, commands)
    keys = [k for k, _ in rest]
    if "wide" in keys and "narrow" in keys:
        raise TextError(T("the front is either wide or narrow"))
    lead = clause_once(rest, "leading")
    target = clause_once(rest, "target")
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
        raise TextError(
            T("after a vacate the attack takes no {words}", words=", ".join(sorted(extra)))
        )
    return "declare_after_vacate", {"commands": commands, "artillery": "artillery" in keys}


def _advance(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, ATTACK_KEYS)
    no_extra(head, "advance")
    rest = _with_clause(clauses, "advance with corps <commander> | unit <unit> [artillery]")
    return _advance_payload(rest, _commands(r, rest))


def _feint(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, ATTACK_KEYS)
    no_extra(head, "feint")
    rest = _with_clause(clauses, "feint with corps <commander> | unit <unit> block | reserve")
    keys = {k for k, _ in rest}
    ends = keys & {"block", "reserve"}
    if len(ends) != 1:
        raise TextError(T("end the feint with 'block' or 'reserve'"))
    extra = keys - {"corps", "unit", "detachment", "detach", "block", "reserve", *ROAD_KEYS}
    if extra:
        raise TextError(T("a feint takes no {words}", words=", ".join(sorted(extra))))
    return "declare_feint", {"commands": _commands(r, rest), "end": ends.pop()}


def _defend(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, frozenset({"with", "leading"}))
    no_extra(head, "defend")
    named = clause_once(clauses, "with")
    if named is None or not clauses or clauses[0][0] != "with":
        raise TextError(T("write 'defend with <pieces> [leading <units>]'"))
    lead = clause_once(clauses, "leading")
    return "defend", {
        "named": list[JSON](r.listed(named, r.piece)),
        "leading": list[JSON](r.listed(lead, r.unit) if lead is not None else []),
    }


def _lead(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    """NT-TEAM-41: 'lead <units>' or 'lead none', the step-(4) leading units in team play."""
    if [t.key for t in toks] == ["none"]:
        return "lead_defense", {"leading": []}
    if not toks:
        raise TextError(T("write 'lead <units>' or 'lead none'"))
    return "lead_defense", {"leading": list[JSON](r.listed(toks, r.unit))}


def _counter(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    head, clauses = split_clauses(toks, frozenset({"with"}))
    no_extra(head, "counter")
    units = clause_once(clauses, "with")
    if units is None:
        raise TextError(T("write 'counter with <units>' or 'no counter'"))
    return "counter", {"units": list[JSON](r.listed(units, r.unit))}


def _no(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    what = [t.key for t in toks]
    if what == ["feint"]:
        return "no_feint", {}
    if what in (["counter"], ["counter", "attack"], ["counterattack"]):
        return "counter", {"units": []}
    if what == ["advance"]:  # after a vacate, when the retreat closed every way in (AMB-13)
        return "declare_after_vacate", {"commands": []}
    raise TextError(T("write 'no feint', 'no counter' or 'no advance'"))


def _odd(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    if not toks or toks[0].key not in ("loss", "losses"):
        raise TextError(T("write 'odd loss <units>'"))
    return "place_odd_loss", {"units": list[JSON](r.listed(toks[1:], r.unit_or_alias))}


def _losses(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    rows: list[JSON] = []
    for item in item_list(toks):
        if len(item) != 2 or not item[1].text.isdigit():
            raise TextError(
                T("write each loss as '<unit> <points>', not {words}", words=repr(words_of(item)))
            )
        rows.append({"unit": r.unit(item[:1]), "sp": int(item[1].text)})
    if not rows:
        raise TextError(T("write 'losses <unit> <points>, ...'"))
    return "assign_losses", {"losses": rows}


def _retreat(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    atk = r.ctx.state.attack
    if atk is None:
        raise TextError(T("no attack is open: there is nothing to retreat from"))
    plan = default_plan(r.ctx, atk)
    dests = plan.get("destinations")
    assert isinstance(dests, dict)
    for item in item_list(toks):
        head, clauses = split_clauses(item, frozenset({"to"}))
        to = clause_once(clauses, "to")
        if to is None or len(head) != 1:
            raise TextError(
                T(
                    "write each destination as '<unit> to <place>', not {words}",
                    words=repr(words_of(item)),
                )
            )
        dests[r.unit(head)] = r.one_place(to)
    return "retreat_plan", plan


def _anchor(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    anchors: dict[str, JSON] = {}
    for item in item_list(toks):
        cid, rest = r.commander_then(item)
        if len(rest) != 1:
            raise TextError(
                T(
                    "write each anchor as '<commander> <unit>', not {words}",
                    words=repr(words_of(item)),
                )
            )
        anchors[cid] = r.unit(rest)
    if not anchors:
        raise TextError(T("write 'anchor <commander> <unit>'"))
    return "choose_anchor", {"anchors": anchors}


def _hold(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    kind = text_kind(r.ctx.state.pending, "hold", "hold")  # hold or feint_hold
    if not toks:
        raise TextError(T("write 'hold <pieces>'"))
    return kind, {"pieces": list[JSON](r.listed(toks, r.piece))}


def _end(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    words = [t.key for t in toks]
    if words in (["part"], ["my", "part"]):  # team play: NT-TEAM-32
        return "end_part", {}
    if words not in (["turn"], ["of", "turn"]):
        raise TextError(T("write 'end turn'"))
    return "end_turn", {}


def _vacate(r: Reader, toks: list[Tok]) -> tuple[str, dict[str, JSON]]:
    no_extra(toks, "vacate")
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
    "lead": _lead,
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
    toks = tokenise(line)
    verb = toks[0].key
    order = ORDERS.get(verb)
    if order is None:
        raise suggest(
            verb,
            {v: v for v in ORDERS},
            T("{word} is not an order", word=repr(toks[0].text)),
            T(
                "{word} is not an order; an order starts with one of: {orders}",
                word=repr(toks[0].text),
                orders=", ".join(ORDERS),
            ),
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
    words = [t.key for t in tokenise(line)]
    if words == ["pass"]:
        return "auction_pass", {}
    if len(words) == 2 and words[0] == "bid":
        if not words[1].isdigit() or len(words[1]) > 4:
            raise TextError(
                T("{word} is not a bid; write a whole number, e.g. bid 3", word=repr(words[1][:20]))
            )
        return "auction_bid", {"amount": int(words[1])}
    if len(words) == 2 and words[0] == "side" and words[1] in SIDE_WORDS:
        return "auction_choose_side", {"side": SIDE_WORDS[words[1]]}
    raise TextError(T("during the auction an order is 'bid <n>', 'pass' or 'side french|allies'"))


def parse_orders(ctx: Ctx, role: str, text: str) -> list[Action] | Rejection:
    """The parser proper; it raises only on a bug (parse_text catches even that)."""
    side = ctx.state.roles.get(role)
    if side is None and ctx.state.phase == "auction" and role in ("player_1", "player_2"):
        orders: list[Action] = []
        for n, line in _lines(text):
            try:
                orders.append(Action(role, *auction_line(line)))
            except TextError as e:
                return Rejection(RULE, T("line {n}: {error}", n=n, error=e), f"/line/{n}")
        return orders or Rejection(RULE, T("the text holds no order"), "/")
    if side is None:
        return Rejection("NT-140", T("{role} plays no side in this game", role=repr(role)), "/role")
    if ctx.state.phase in SETUP_PHASES and ctx.state.team is None:  # one set-up (text_setup)
        return setup_orders(Reader(ctx, side), role, _lines(text))
    r = Reader(ctx, side)
    actions: list[Action] = []
    for n, line in _lines(text):
        if len(line) > MAX_LINE_CHARS:  # the name look-ups grow with the square of a line
            return Rejection(
                RULE,
                T("line {n}: longer than {most} characters", n=n, most=MAX_LINE_CHARS),
                f"/line/{n}",
            )
        try:
            if is_team_line(line):  # ORDER <rank>: ..., NO ORDER <rank>, SEAL (team digest 3.8)
                kind, payload = read_team_line(ctx.state, role, line)
            else:
                kind, payload = read_line(r, line)
        except TextError as e:
            return Rejection(RULE, T("line {n}: {error}", n=n, error=e), f"/line/{n}")
        except OrderLineError as e:
            return Rejection(e.rule, T("line {n}: {error}", n=n, error=e.message), f"/line/{n}")
        actions.append(Action(role, kind, payload))
    if not actions:
        return Rejection(RULE, T("the text holds no order"), "/")
    return actions


def parse_text(ctx: Ctx, role: str, text: str) -> Sequence[Action] | Rejection:
    try:
        return parse_orders(ctx, role, text)
    except Exception as e:  # never raise to the platform: a bug becomes a form error
        return Rejection(
            RULE, T("the orders could not be read ({error})", error=type(e).__name__), "/"
        )
