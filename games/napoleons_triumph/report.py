"""A seat's view in words: the plain-text report of a turn-report email (issue 14 item 1).

`report(view, prompt, board)` renders ONLY what the role's own `view` (view.py, plus the team
section of team/engine_view.py) and its own prompt carry, with the public board for the names of
locales and commanders. It never sees the state, so it cannot show what the role may not see:
enemy blocks appear under the alias the view gives them, with a face only where the view shows
one; another seat's drafts and unread orders are not in the view, so not here either.

Layout (compact, one line per locale and position; well under 80 lines on the full board):
the round and time, the phase, the morale, whose turn and what is waiting; the role's pieces by
locale; the enemy as seen; an attack or ride-on in progress; the open decision with a hint of the
text form of each kind it takes (README "Plain-text orders"); in team play the teams, ranks and
corps, and the written-order block (the CinC's drafts, or the order delivered this round).
The platform adds the deadline, the link and the reply address.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from games.core.i18n import T
from games.core.protocol import JSON, Prompt
from games.core.wrap import wrap
from games.napoleons_triumph.board import Board

SIDE_NAME = {"AL": T("Allies"), "F": T("French")}
ARMY_NAME = {"AL": "Allied army", "F": "French army"}
RESULT_KIND = {"decisive": T("decisive"), "marginal": T("marginal")}  # NT-128, NT-129
RESERVE = T("reserve")  # a piece's position in its locale (else blocking an approach)

# action kind -> the text form of README "Plain-text orders" (a one-line hint)
TEXT_FORM: Mapping[str, str] = {
    "unit_move": "move <unit> to <place> [blocking <place>] | move <unit> by road via <places>",
    "corps_move": "corps <commander> to <place> [detach <units>]",
    "detach_move": "detach <commander> <units> to <place>",
    "attach": "attach <unit> to <commander>",
    "enter_reinforcement": "enter <commander or unit> at <entry> [via <places>]",
    "threaten": "attack from <place> towards <place> [guard <unit>]",
    "ride_on": "ride on via <places> [blocking <place>]",
    "end_turn": "end turn",
    "end_part": "end part",
    "write_order": "ORDER <rank>: <toponyms> angreifen | verteidigen",
    "defend": "defend with <pieces> [leading <units>]",
    "vacate": "vacate",
    "declare_after_vacate": "advance with unit <unit> [artillery] | no advance",
    "declare_feint": "feint with unit <unit> block | reserve",
    "no_feint": "no feint",
    "feint_hold": "hold <pieces>",
    "hold": "hold <pieces>",
    "lead_defense": "lead <units> | lead none",
    "declare_attack": "attack with corps <commander> | unit <unit> [wide] [leading <units>]",
    "counter": "counter with <units> | no counter",
    "place_odd_loss": "odd loss <unit or enemy alias>",
    "assign_losses": "losses <unit> <points>, ...",
    "retreat_plan": "retreat [<unit> to <place>, ...]",
    "choose_anchor": "anchor <commander> <unit>",
    "auction_bid": "bid <n>",
    "auction_pass": "pass",
    "auction_choose_side": "side french | side allies",
}
_NUMBERED = re.compile(r"l?\d+")  # a locale key that only repeats its number (l12)


# ------------------------------------------------------------------------------- JSON access


def _obj(v: JSON) -> dict[str, JSON]:
    return v if isinstance(v, dict) else {}


def _list(v: JSON) -> list[JSON]:
    return v if isinstance(v, list) else []


def _int(v: JSON) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str(v: JSON) -> str:
    return v if isinstance(v, str) else ""


def _result_kind(v: JSON) -> str:
    """A result's kind (a code) as the phrase a sentence carries."""
    kind = _str(v)
    return RESULT_KIND.get(kind, kind)


def _side(v: JSON) -> str:
    s = _str(v)
    return SIDE_NAME.get(s, s or T("nobody"))


# ------------------------------------------------------------------------------- names


class Names:
    """Public names from the board: locales (number + toponym) and commanders."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.locale: dict[int, str] = {}
        for t in board.toponyms:
            for lid in t.locales:
                self.locale.setdefault(lid, t.name)
        for lid, loc in board.locales.items():
            if loc.name:
                self.locale[lid] = loc.name
            elif lid not in self.locale and not _NUMBERED.fullmatch(loc.key):
                self.locale[lid] = loc.key  # e.g. sokolnitz_west: text orders read it too

    def place(self, locale: JSON) -> str:
        lid = _int(locale)
        if lid is None:
            return "?"
        name = self.locale.get(lid)
        return f"{lid} {name}" if name else str(lid)

    def position(self, pos: JSON) -> tuple[int, str]:
        """(locale, "reserve" or "blocking A052 towards 141 Telnitz")."""
        p = _obj(pos)
        lid = _int(p.get("locale")) or 0
        app = _str(p.get("approach"))
        if not app:
            return lid, RESERVE
        try:
            there = self.board.other_locale(app, lid)
        except (KeyError, ValueError):
            return lid, T("blocking {approach}", approach=app)
        return lid, T("blocking {approach} towards {place}", approach=app, place=self.place(there))

    def commander(self, cid: JSON) -> str:
        c = self.board.commanders.get(_str(cid))
        return c.name if c is not None else _str(cid)


# ------------------------------------------------------------------------------- pieces


def _unit(u: dict[str, JSON]) -> str:
    face = _obj(u.get("face"))
    text = _str(u.get("id"))
    if face:
        text += f" {_str(face.get('type'))}{_int(face.get('strength'))}"
    if u.get("fixed_battery") is True:
        text = T("{unit} (fixed battery)", unit=text)
    return text


def _group(units: Sequence[dict[str, JSON]], commanders: Sequence[str], names: Names) -> str:
    """The pieces at one position: each commander with his corps' units there, then the units of
    no corps (or of a corps whose commander stands elsewhere)."""
    parts: list[str] = []
    placed: set[int] = set()
    for cid in commanders:
        mine = [i for i, u in enumerate(units) if u.get("corps") == cid]
        placed.update(mine)
        listed = ", ".join(_unit(units[i]) for i in mine)
        parts.append(_led(names.commander(cid), listed) if listed else names.commander(cid))
    for i, u in enumerate(units):
        if i not in placed:
            corps = u.get("corps")
            parts.append(
                T("{unit} (corps {commander})", unit=_unit(u), commander=names.commander(corps))
                if isinstance(corps, str)
                else _unit(u)
            )
    return ", ".join(parts)


def _labelled(label: str, items: str) -> str:
    """`items` under a label: a position's pieces ("reserve: ..."), a seat's corps."""
    return T("{label}: {items}", label=label, items=items)


def _led(commander: str, units: str) -> str:
    """A commander with the units of his corps beside him: "Bagration [A01 INF2, A02 CAV1]"."""
    return T("{commander} [{units}]", commander=commander, units=units)


def _forces(
    units: Sequence[dict[str, JSON]], commanders: Sequence[dict[str, JSON]], names: Names
) -> list[str]:
    """One line per locale: its positions (reserve, blocking) with their pieces."""
    at: dict[int, dict[str, tuple[list[dict[str, JSON]], list[str]]]] = {}
    for u in units:
        lid, where = names.position(u.get("position"))
        at.setdefault(lid, {}).setdefault(where, ([], []))[0].append(u)
    for c in commanders:
        if c.get("status") != "map":
            continue
        lid, where = names.position(c.get("position"))
        at.setdefault(lid, {}).setdefault(where, ([], []))[1].append(_str(c.get("id")))
    lines = []
    for lid in sorted(at):
        spots = at[lid]
        order = sorted(spots, key=lambda w: (w != "reserve", w))
        text = "; ".join(_labelled(w, _group(*spots[w], names)) for w in order)
        lines.append(T("  {place}: {positions}", place=names.place(lid), positions=text))
    return lines


def _offmap(side: str, entries: JSON, own: bool, names: Names) -> str | None:
    parts = []
    for e in _list(entries):
        d = _obj(e)
        units = d.get("units")
        if isinstance(units, list):
            listed = ", ".join(_unit(_obj(u)) for u in units)
            parts.append(_led(names.commander(d.get("commander")), listed))
        else:
            commander = names.commander(d.get("commander"))
            parts.append(T("{commander} ({n} blocks)", commander=commander, n=_int(units)))
    if not parts:
        return None
    pieces = "; ".join(parts)
    if own:
        return T("  Your reinforcements: {pieces}", pieces=pieces)
    if side == "AL":
        return T("  Allied army off the map: {pieces}", pieces=pieces)
    if side == "F":
        return T("  French army off the map: {pieces}", pieces=pieces)
    return f"  {side} off the map: {pieces}"


# ------------------------------------------------------------------------------- sections


def _head(view: dict[str, JSON]) -> list[str]:
    viewer = _obj(view.get("viewer"))
    side = _str(viewer.get("side"))
    rd = _obj(view.get("round"))
    hour = _int(rd.get("hour"))
    when = "night" if rd.get("night") is True else (f"{hour}:00" if hour is not None else "")
    morale = _obj(view.get("morale"))
    you = {"scenario": _str(view.get("scenario")), "role": _str(viewer.get("role"))}
    if side == "AL":
        title = T("Napoleon's Triumph, {scenario}: you are {role} (Allied army).", **you)
    elif side == "F":
        title = T("Napoleon's Triumph, {scenario}: you are {role} (French army).", **you)
    elif side.startswith("@"):
        title = T("Napoleon's Triumph, {scenario}: you are {role} (spectator).", **you)
    else:
        title = T("Napoleon's Triumph, {scenario}: you are {role} (umpire).", **you)
    now = {
        "round": _int(rd.get("index")),
        "of": _int(rd.get("of")),
        "day": _int(rd.get("day")),
        "hour": when,
        "phase": _str(view.get("phase")),
        "side": _side(view.get("active")),
    }
    if when == "night":
        clock = T("Round {round} of {of}, day {day}, night. Phase: {phase}. Active: {side}.", **now)
    elif when:
        clock = T(
            "Round {round} of {of}, day {day}, {hour}. Phase: {phase}. Active: {side}.", **now
        )
    else:
        clock = T("Round {round} of {of}, day {day}. Phase: {phase}. Active: {side}.", **now)
    lines = [
        title,
        clock,
        T(
            "Morale: French {french}, Allies {allies}.",
            french=_int(morale.get("F")),
            allies=_int(morale.get("AL")),
        ),
    ]
    pending = _obj(view.get("pending"))
    if pending:
        lines.append(
            T(
                "Waiting for the {side}: the {decision} decision.",
                side=_side(pending.get("side")),
                decision=_str(pending.get("decision")),
            )
        )
    used = _obj(view.get("commands_this_turn"))
    if view.get("phase") == "turn":
        lines.append(
            T(
                "Commands this turn: {independent} independent, {corps} Allied corps.",
                independent=_int(used.get("independent")),
                corps=_int(used.get("allied_corps")),
            )
        )
    result = _obj(view.get("result"))
    if result:
        lines.append(
            T(
                "Game over: {side} win ({kind}: {reason}).",
                side=_side(result.get("winner")),
                kind=_result_kind(result.get("kind")),
                reason=_str(result.get("reason")),
            )
        )
    auction = _obj(view.get("auction"))
    if auction:
        lines.append(
            T(
                "Auction: high bid {bid} (at most {most}), to bid: {role}.",
                bid=_int(auction.get("high_bid")),
                most=_int(auction.get("max_bid")),
                role=_str(auction.get("to_bid")) or "-",
            )
        )
    return lines


def _armies(view: dict[str, JSON], names: Names) -> list[str]:
    viewer = _str(_obj(view.get("viewer")).get("side"))
    commanders = [_obj(c) for c in _list(view.get("commanders"))]
    units = [_obj(u) for u in _list(view.get("units"))] + [
        _obj(u) for u in _list(view.get("enemy_units"))
    ]
    offmap = _obj(view.get("offmap"))
    sides = ["AL", "F"] if viewer != "F" else ["F", "AL"]
    lines: list[str] = []
    for side in sides:
        mine = [u for u in units if u.get("side") == side]
        chiefs = [c for c in commanders if c.get("side") == side]
        own = side == viewer
        seen = sum(1 for u in mine if u.get("face") is not None)
        if own:
            lines.append(T("Your army ({n} units on the map):", n=len(mine)))
        elif viewer == "":
            lines.append(
                T("Allied army ({n} units on the map):", n=len(mine))
                if side == "AL"
                else T("French army ({n} units on the map):", n=len(mine))
            )
        elif side == "AL":
            lines.append(
                T(
                    "Allied army as you see it ({n} blocks on the map, {seen} shown face up):",
                    n=len(mine),
                    seen=seen,
                )
            )
        else:
            lines.append(
                T(
                    "French army as you see it ({n} blocks on the map, {seen} shown face up):",
                    n=len(mine),
                    seen=seen,
                )
            )
        lines += _forces(mine, chiefs, names)
        off = _offmap(side, offmap.get(side), own, names)
        if off is not None:
            lines.append(off)
    pool = [_obj(u) for u in _list(view.get("pool"))]
    if pool:
        lines.append(T("Not yet placed: {units}", units=", ".join(_unit(u) for u in pool)))
    return lines


def _listed(d: dict[str, JSON], key: str) -> str:
    return ", ".join(_str(x) for x in _list(d.get(key))) or "-"


def _fight(view: dict[str, JSON], names: Names) -> list[str]:
    lines: list[str] = []
    atk = _obj(view.get("attack"))
    if atk:
        start, into = names.place(atk.get("attack_locale")), names.place(atk.get("defense_locale"))
        fight = {
            "side": _side(atk.get("attacker")),
            "start": start,
            "into": into,
            "approach": _str(atk.get("approach")),
            "step": _str(atk.get("step")),
            "named": _listed(atk, "named"),
            "attackers": _listed(atk, "attackers"),
        }
        if "committed_leading" in atk:  # the defender's own view only
            text = T(
                "Attack by the {side} from {start} into {into} across {approach} (step {step}): "
                "defenders {named}; attackers {attackers}; your committed leading units {leading}.",
                **fight,
                leading=_listed(atk, "committed_leading"),
            )
        else:
            text = T(
                "Attack by the {side} from {start} into {into} across {approach} (step {step}): "
                "defenders {named}; attackers {attackers}.",
                **fight,
            )
        lines.append(text)
    ride = _obj(view.get("ride_on"))
    if ride:
        lines.append(
            T(
                "Ride-on open ({side}): {units} at {place}, {n} road locales left.",
                side=_side(ride.get("side")),
                units=_listed(ride, "units"),
                place=names.place(ride.get("locale")),
                n=_int(ride.get("road_left")),
            )
        )
    plans = _obj(view.get("standing_instructions"))
    if plans:
        scopes = sorted(plans, key=lambda k: (k != "default", len(k), k))
        named = ", ".join(
            T("default") if k == "default" else T("locale {locale}", locale=k) for k in scopes
        )
        lines.append(T("Standing instructions filed for: {scopes}.", scopes=named))
    return lines


def _decision(prompt: Prompt | None) -> list[str]:
    if prompt is None:
        return [T("Nothing is asked of you now.")]
    lines = [T("Your decision: {prompt}", prompt=prompt.text)]
    for kind in prompt.kinds:
        form = TEXT_FORM.get(kind)
        lines.append(
            f"  {form}   ({kind})"
            if form is not None
            else T("  no text form: use the web page or the API   ({kind})", kind=kind)
        )
    return lines


def _teams(view: dict[str, JSON], names: Names) -> list[str]:
    team = _obj(view.get("team"))
    if not team:
        return []
    role = _str(_obj(view.get("viewer")).get("role"))
    lines = [
        T(
            "Team play: phase {phase}; acting seat {acting}; deciding seat {deciding}.",
            phase=_str(team.get("phase")),
            acting=_str(team.get("acting")) or "-",
            deciding=_str(team.get("decider")) or "-",
        )
    ]
    mine: dict[str, JSON] = {}
    for t in (_obj(x) for x in _list(team.get("teams"))):
        members = [_str(m) for m in _list(t.get("members"))]
        ranks = [_str(r) for r in _list(t.get("ranks"))]
        corps = _obj(t.get("corps"))
        seats = []
        for i, r in enumerate(ranks or members):
            led = ", ".join(names.commander(c) for c, who in sorted(corps.items()) if who == r)
            label = T("rank {rank} {seat}", rank=i + 1, seat=r) if ranks else r
            if ranks and i == 0:
                label = T("{seat} (commander-in-chief)", seat=label)
            seats.append(_labelled(label, led) if led else label)
        conf = _str(t.get("conference"))
        lines.append(_team_line(_str(t.get("side")), conf, "; ".join(seats)))
        if role in members:
            mine = t
    budget = _obj(team.get("budget"))
    if budget and team.get("phase") == "play":
        lines.append(
            T(
                "  Shared limits left ({side}): {independent} independent, {corps} corps commands.",
                side=_side(budget.get("side")),
                independent=_int(budget.get("independent_left")),
                corps=_int(budget.get("corps_left")),
            )
        )
    return lines + _written(view, team, mine, role)


def _team_line(side: str, conf: str, seats: str) -> str:
    """A team's seats, with its open conference (initial or night)."""
    if side == "AL" and conf in ("", "initial", "night"):
        if conf == "initial":
            return T("  Allied army [initial conference open]: {seats}", seats=seats)
        if conf == "night":
            return T("  Allied army [night conference open]: {seats}", seats=seats)
        return T("  Allied army: {seats}", seats=seats)
    if side == "F" and conf in ("", "initial", "night"):
        if conf == "initial":
            return T("  French army [initial conference open]: {seats}", seats=seats)
        if conf == "night":
            return T("  French army [night conference open]: {seats}", seats=seats)
        return T("  French army: {seats}", seats=seats)
    note = f" [{conf} conference open]" if conf else ""
    return f"  {ARMY_NAME.get(side, '?')}{note}: {seats}"


def _order_text(order: JSON) -> str:
    o = _obj(order)
    de, en = _str(o.get("text_de")), _str(o.get("text_en"))
    return f"{de} ({en})" if de and en and de != en else de or en


def _written(
    view: dict[str, JSON], team: dict[str, JSON], mine: dict[str, JSON], role: str
) -> list[str]:
    """The written-order block (team digest 3.8): the CinC's drafts of this turn, or the order
    delivered to this seat at its team's turn start of this round (NT-TEAM-22)."""
    members = _list(mine.get("members"))
    ranks = [_str(r) for r in _list(mine.get("ranks"))]
    if len(members) < 2 or not ranks:
        return []
    if ranks[0] == role:
        drafts = _obj(team.get("drafts"))
        if not drafts:
            return [
                T(
                    "Written orders: none drafted this turn (write them in your part: ORDER "
                    "<rank>: ...; sealed at your first command or end part, NT-TEAM-18)."
                )
            ]
        out = [T("Written orders drafted this turn (sealed at your first command or end part):")]
        for r in ranks[1:]:
            if r in drafts:
                out.append(f"  ORDER {ranks.index(r) + 1} ({r}): {_order_text(drafts[r])}")
        return out
    current = _int(_obj(view.get("round")).get("index"))
    for item in (_obj(x) for x in _list(team.get("inbox"))):
        if item.get("recipient") != role or item.get("readable_from_turn") != current:
            continue
        text = _order_text(item.get("order"))
        if text:
            return [
                T(
                    "Written order from your commander-in-chief (written in round {round}): "
                    "{order}",
                    round=_int(item.get("turn")),
                    order=text,
                )
            ]
    return [T("No written order was delivered to you this round.")]


# ------------------------------------------------------------------------------- the report


def report(view: JSON, prompt: Prompt | None, board: Board) -> str:
    """The role's view in words: plain text lines ("" for a view that is not an object)."""
    if not isinstance(view, dict):
        return ""
    names = Names(board)
    sections = [
        _head(view),
        _armies(view, names),
        _fight(view, names),
        _teams(view, names),
        _decision(prompt),
    ]
    blocks = ["\n".join(w for line in s for w in wrap(line)) for s in sections if s]
    return "\n\n".join(blocks) + "\n"
