"""Movement (rulebook chapter 10): ordinary moves, road moves and their locks (NT-45..NT-55)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.board import Entry, RoadStep
from games.napoleons_triumph.commands import MovePlan, plan_move, spend
from games.napoleons_triumph.context import Ctx, U, Us, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.pieces import enemy_corps_adjacent, occupant, units_in
from games.napoleons_triumph.state import MAP, GameState, other

MAIN_ROAD_REACH, LOCAL_ROAD_REACH = 3, 2  # NT-51


def ordinary_targets(ctx: Ctx, loc: int, app: str | None) -> list[tuple[int, str | None]]:
    """NT-48 / NT-49: where a piece may go without a road move."""
    board = ctx.board
    if app is None:
        out: list[tuple[int, str | None]] = [(n, None) for n in board.passable_neighbours(loc)]
        out += [(loc, a) for a in board.approaches_of(loc) if not board.approaches[a].impassable]
        return out
    return [(loc, None), (board.other_locale(app, loc), None)]


def pieces_of(plan: MovePlan) -> list[str]:
    """The pieces a command moves: its units and, in a Corps Move, the commander."""
    cmd = [plan.commander] if plan.kind == "corps_move" and plan.commander else []
    return [*plan.units, *cmd]


def kept_out(state: GameState, loc: int, pieces: Sequence[str]) -> bool:
    """NT-54(b), L287: a corps that marched by road into or through `loc` keeps every *other*
    piece out for the rest of the turn ("kein anderer Spielstein"); the pieces of that corps
    themselves are not kept out. No `pieces` means some other piece."""
    if loc not in state.turn.road_locked:
        return False
    owners = state.turn.road_lockers.get(str(loc), [])
    return not pieces or not set(pieces) <= set(owners)


def entry_barred(state: GameState, loc: int, pieces: Sequence[str]) -> str | None:
    """Why these pieces may not move into `loc` this turn: "NT-54" (road lock, L287), "NT-101"
    (won by attack, L459), or None. Enemy occupation (NT-47) and capacity are not judged here."""
    if kept_out(state, loc, pieces):
        return "NT-54"
    if loc in state.turn.conquered:
        return "NT-101"
    return None


def check_entry(
    ctx: Ctx, plan: MovePlan, loc: int, moving: int, final: bool, corps: bool, path: str
) -> None:
    """What every locale a move enters must allow (NT-50: NT-10, NT-47, NT-54(b), NT-55, NT-101)."""
    state, board = ctx.state, ctx.board
    require(loc in board.locales, "NT-7", T("locale {locale} does not exist", locale=loc), path)
    require(
        occupant(state, loc) != other(plan.side),
        "NT-47",
        T("locale {locale} is held by the enemy: announce an attack with 'threaten'", locale=loc),
        path,
    )
    require(
        not kept_out(state, loc, pieces_of(plan)),
        "NT-54",
        T(
            "a corps marched by road through locale {locale} this turn; no other piece may enter "
            "it",
            locale=loc,
        ),
        path,
    )
    require(
        loc not in state.turn.conquered,
        "NT-101",
        T(
            "locale {locale} was won by attack this turn; only the attackers may enter it",
            locale=loc,
        ),
        path,
    )
    here = len(units_in(state, loc, plan.side))
    cap = board.locales[loc].capacity
    if final:
        require(
            here + moving <= cap,
            "NT-10",
            T("locale {locale} holds at most {capacity} units", locale=loc, capacity=cap),
            path,
        )
    elif corps:
        require(
            here < cap,
            "NT-55",
            T("locale {locale} is full; a corps may not pass through it (AMB-14)", locale=loc),
            path,
        )
    else:
        require(
            here + moving <= cap,
            "NT-55",
            T(
                "passing through locale {locale} would exceed its capacity {capacity}",
                locale=loc,
                capacity=cap,
            ),
            path,
        )


def place(ctx: Ctx, plan: MovePlan, loc: int, app: str | None) -> None:  # NT-45: together
    state = ctx.state
    if (
        app is None
        and (loc != plan.loc or plan.app is not None)
        and loc not in state.turn.reserve_entered
    ):
        state.turn.reserve_entered.append(loc)  # NT-54(a)
    for uid in plan.units:
        u = state.units[uid]
        u.where, u.loc, u.app = MAP, loc, app
    if plan.kind == "corps_move" and plan.commander is not None:
        c = state.commanders[plan.commander]
        c.where, c.loc, c.app = MAP, loc, app


def ordinary_move(ctx: Ctx, plan: MovePlan, loc: int, app: str | None, path: str) -> None:
    assert plan.loc is not None
    require(
        (loc, app) in ordinary_targets(ctx, plan.loc, plan.app),
        "NT-48" if plan.app is None else "NT-49",
        _why_not(plan, loc, app),
        path,
    )
    if loc != plan.loc:
        check_entry(ctx, plan, loc, len(plan.units), True, False, path)


def _why_not(plan: MovePlan, loc: int, app: str | None) -> str:
    if plan.app is None:
        return T(
            "from reserve a piece moves to the reserve of an adjacent locale or blocks a passable "
            "approach of its own locale; ({locale}, {approach}) is neither",
            locale=loc,
            approach=app,
        )
    return T(
        "a blocking piece moves to its own reserve or to the reserve beyond {blocked}; "
        "({locale}, {approach}) is neither",
        blocked=plan.app,
        locale=loc,
        approach=app,
    )


@dataclass(frozen=True, slots=True)
class Route:
    steps: tuple[RoadStep, ...]
    main_only: bool


def routes(
    ctx: Ctx, starts: list[tuple[int, int]], path: list[int], first_class: str | None
) -> list[Route]:
    """All strand-respecting road routes through `path` (NT-52)."""
    found: list[Route] = []

    def walk(node: tuple[int, int], i: int, taken: tuple[RoadStep, ...]) -> None:
        if i == len(path):
            classes = {s.road_class for s in taken} | ({first_class} if first_class else set())
            found.append(Route(taken, classes <= {"main"}))
            return
        for step in ctx.board.road_steps(*node):
            if step.to_locale == path[i]:
                walk((step.to_locale, step.to_strand), i + 1, (*taken, step))

    for start in starts:
        walk(start, 0, ())
    return found


@dataclass(frozen=True, slots=True)
class RoadEnd:
    """Where a road move ended on the road network, for a ride-on (NT-98)."""

    strand: int
    main_only: bool
    entered: int


def road_move(
    ctx: Ctx,
    plan: MovePlan,
    path_locs: list[int],
    end_app: str | None,
    path: str,
    entry: Entry | None = None,
    start: tuple[int, int] | None = None,
    before: int = 0,
    main_before: bool = True,
) -> RoadEnd:
    """NT-51..NT-55 (and NT-60 for reinforcements entering at `entry`). `start`, `before` and
    `main_before` continue a road move already under way (the ride-on of NT-98)."""
    board, state = ctx.board, ctx.state
    require(
        plan.kind != "detach_move",
        "NT-40",
        T("units of a detachment move cannot move by road"),
        path,
    )
    # A continued road move (the ride-on, NT-98) may end where it stands, blocking (NT-53, L282).
    require(
        bool(path_locs) or (start is not None and end_app is not None),
        "NT-51",
        T("a road move enters at least one locale"),
        f"{path}/path",
    )
    if start is not None:
        starts, rest, first_class = [start], path_locs, None
    elif entry is None:
        require(plan.app is None, "NT-53", T("a road move must start in reserve"), path)
        assert plan.loc is not None
        starts = [(plan.loc, s) for s in board.strands(plan.loc)]
        rest, first_class = path_locs, None
    else:
        require(
            path_locs[0] == entry.locale,
            "NT-60",
            T("the path must begin with the entry locale {locale}", locale=entry.locale),
            f"{path}/path",
        )
        starts = [(entry.locale, entry.strand)]
        rest, first_class = path_locs[1:], entry.road_class
    found = routes(ctx, starts, rest, first_class)
    require(
        bool(found),
        "NT-52",
        T("no connected road leads along {path}", path=str(path_locs)),
        f"{path}/path",
    )
    n = len(path_locs)  # AMB-15: the entry locale counts as the first locale
    fits = [
        r
        for r in found
        if before + n <= (MAIN_ROAD_REACH if r.main_only and main_before else LOCAL_ROAD_REACH)
    ]
    require(
        bool(fits),
        "NT-51",
        T(
            "a road move reaches 3 locales on main roads only, else 2; this one enters {n}",
            n=before + n,
        ),
        f"{path}/path",
    )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    for i, loc in enumerate(path_locs):
        final = i == n - 1
        check_entry(
            ctx, plan, loc, len(plan.units), final, plan.kind == "corps_move", f"{path}/path/{i}"
        )
        if multi:
            require(
                loc not in state.turn.reserve_entered,
                "NT-54",
                T(
                    "pieces moved into locale {locale}'s reserve this turn; no corps enters it by "
                    "road",
                    locale=loc,
                ),
                f"{path}/path/{i}",
            )
            if not final:
                require(
                    not enemy_corps_adjacent(board, state, loc, plan.side),
                    "NT-54",
                    T(
                        "locale {locale} is next to an enemy corps of 2+ units; the march stops "
                        "there",
                        locale=loc,
                    ),
                    f"{path}/path/{i}",
                )
    last = path_locs[-1] if path_locs else starts[0][0]
    if end_app is not None:
        require(
            all(state.units[u].type == "CAV" for u in plan.units),
            "NT-53",
            T("only cavalry may end a road move blocking an approach"),
            f"{path}/end_approach",
        )
        ok = any(
            s.approach == end_app
            for r in fits
            for s in board.road_steps(last, r.steps[-1].to_strand if r.steps else starts[0][1])
        )
        require(
            ok and end_app in board.approaches_of(last),
            "NT-53",
            T("{approach} is not crossed by a road connected to the road used", approach=end_app),
            f"{path}/end_approach",
        )
    place(ctx, plan, last, end_app)
    if multi:
        for loc in path_locs:
            if loc not in state.turn.road_locked:
                state.turn.road_locked.append(loc)  # NT-54(b)
                state.turn.road_lockers[str(loc)] = pieces_of(plan)
    if end_app is not None:
        for uid in plan.units:
            state.units[uid].revealed = True  # NT-53: briefly shown to be cavalry
        ctx.log(*line(T("Cavalry shown: {units}"), units=_names(plan.units, face=True)))
    best = max(fits, key=lambda r: r.main_only)
    strand = best.steps[-1].to_strand if best.steps else starts[0][1]
    return RoadEnd(strand, best.main_only and main_before, before + n)


def _names(ids: list[str], face: bool) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=face, empty="")]


def describe(ctx: Ctx, plan: MovePlan) -> dict[str, object]:
    """The fields naming a command's pieces in a log line (`line`): {unit} of a Unit Move, else
    {commander} and his {units}."""
    if plan.kind == "unit_move":
        return {"unit": U(plan.units[0])}
    return {"commander": plan.commander, "units": _names(plan.units, face=False)}


def record(plan: MovePlan, extra: dict[str, JSON] | None = None) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "kind": plan.kind,
        "commander": plan.commander,
        "units": list(plan.units),
        "from": plan.loc,
    }
    if extra:
        out.update(extra)
    return out


def move_command(ctx: Ctx, side: str, kind: str, p: dict[str, JSON]) -> None:
    """A corps_move, detach_move or unit_move that enters no enemy locale."""
    plan = plan_move(ctx, side, kind, p)
    start = plan.loc
    if P.boolean(p, "road"):
        path_locs = P.ints(p, "path", required=True)
        end_app = P.string(p, "end_approach", required=False)
        road_move(ctx, plan, path_locs, end_app, "")
    else:
        loc, app = P.position(p, "to")
        ordinary_move(ctx, plan, loc, app, "/to")
        place(ctx, plan, loc, app)
    spend(ctx, plan, record(plan))
    first = plan.units[0]
    u = ctx.state.units[first]
    if plan.kind == "unit_move":
        template = (
            T("Unit Move: {unit} from locale {start} to locale {end} blocking {approach}.")
            if u.app
            else T("Unit Move: {unit} from locale {start} to locale {end} (reserve).")
        )
    elif plan.kind == "corps_move":
        template = (
            T(
                "Corps Move: {commander} with {units} from locale {start} to locale {end} "
                "blocking {approach}."
            )
            if u.app
            else T(
                "Corps Move: {commander} with {units} from locale {start} to locale {end} "
                "(reserve)."
            )
        )
    else:
        template = (
            T(
                "Detachment Move: {commander} with {units} from locale {start} to locale {end} "
                "blocking {approach}."
            )
            if u.app
            else T(
                "Detachment Move: {commander} with {units} from locale {start} to locale {end} "
                "(reserve)."
            )
        )
    ctx.log(
        *line(template, **describe(ctx, plan), start=start, end=u.loc, approach=u.app),
    )
