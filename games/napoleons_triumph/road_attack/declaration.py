"""The road attack's command, announced in step (3), where it must be a feint (NT-76, NT-77), or
after a vacate (NT-75): cavalry only (NT-68), along a road that crosses the attack approach
within the road distance (NT-47, NT-51, NT-52; NT-141 for a corps), or as cavalry reinforcements
enter (NT-145, NT-60, AMB-15). The threat names only the approach (NT-70, L335), so the road is
checked here; after a vacate the cavalry enter the defense locale and may ride on (`ride`).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.board import Entry
from games.napoleons_triumph.commands import plan_move, spend
from games.napoleons_triumph.context import Ctx, U, Us, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.movement import (
    LOCAL_ROAD_REACH,
    MAIN_ROAD_REACH,
    entry_barred,
    pieces_of,
    record,
    road_move,
    routes,
)
from games.napoleons_triumph.pieces import enemy_corps_adjacent, occupant
from games.napoleons_triumph.reinforcements import arrive, entering_plan
from games.napoleons_triumph.road_attack.ride import close_ride, open_ride, ride_group, start_nodes
from games.napoleons_triumph.state import Attack, other


def is_road(raw: list[dict[str, JSON]]) -> bool:
    """Whether an announcement names a road attack (a command with `"road": true`)."""
    return any(spec.get("road") is True for spec in raw)


def check_road(ctx: Ctx, side: str, atk: Attack, src: int, path: list[int], where: str) -> None:
    """The road of a road attack (NT-68, NT-47, NT-51, NT-52): from the reserve of `src` along
    `path` (ending with the attack locale) across the attack approach within the road distance.
    Checked when the road is named: at the announcement (the threat names only the approach)."""
    state = ctx.state
    att_loc, app, def_loc = atk.att_locale, atk.approach, atk.def_locale
    require(
        (path[-1] if path else src) == att_loc,
        "NT-68",
        T(
            "the road ends in the attack locale {locale}: path lists the locales entered up to "
            "it (empty when the cavalry start there)",
            locale=att_loc,
        ),
        f"{where}/path",
    )
    for i, loc in enumerate(path):
        require(
            occupant(state, loc) != other(side),
            "NT-47",
            T("locale {locale} on the road is held by the enemy", locale=loc),
            f"{where}/path/{i}",
        )
    starts, before, main = start_nodes(ctx, src)
    found = routes(ctx, starts, [*path, def_loc], None)
    n = before + len(path) + 1
    require(
        any(n <= (MAIN_ROAD_REACH if r.main_only and main else LOCAL_ROAD_REACH) for r in found),
        "NT-68",
        T(
            "no road from locale {locale} through {path} crosses {approach} within the road "
            "distance",
            locale=src,
            path=str(path),
            approach=app,
        ),
        f"{where}/path",
    )


def check_entry_road(
    ctx: Ctx, side: str, atk: Attack, entry: Entry, path: list[int], where: str
) -> None:
    """The road of a road attack made as the cavalry enter (NT-145, NT-60, AMB-15): from the
    entry area along `path` (the entry locale first, ending with the attack locale) across the
    attack approach within the road distance; the entry locale counts as the first locale."""
    require(
        bool(path) and path[0] == entry.locale,
        "NT-60",
        T("the path must begin with the entry locale {locale}", locale=entry.locale),
        f"{where}/path",
    )
    require(
        path[-1] == atk.att_locale,
        "NT-68",
        T("the road ends in the attack locale {locale}", locale=atk.att_locale),
        f"{where}/path",
    )
    for i, loc in enumerate(path):
        require(
            occupant(ctx.state, loc) != other(side),
            "NT-47",
            T("locale {locale} on the road is held by the enemy", locale=loc),
            f"{where}/path/{i}",
        )
    found = routes(
        ctx, [(entry.locale, entry.strand)], [*path[1:], atk.def_locale], entry.road_class
    )
    n = len(path) + 1
    require(
        any(n <= (MAIN_ROAD_REACH if r.main_only else LOCAL_ROAD_REACH) for r in found),
        "NT-68",
        T(
            "no road from entry area {entry} through {path} crosses {approach} within the road "
            "distance",
            entry=entry.id,
            path=str(path),
            approach=atk.approach,
        ),
        f"{where}/path",
    )


def declare(ctx: Ctx, atk: Attack, p: dict[str, JSON], feint: bool) -> None:
    """The road attack's command, announced in step (3) (a feint) or after a vacate (NT-68, NT-75,
    NT-77): only now does the attacker name the pieces and the road (NT-70, L335)."""
    state = ctx.state
    raw = P.objects(p, "commands", required=True)
    require(len(raw) == 1, "NT-68", T("a road attack is made by one command (AMB-37)"), "/commands")
    require(
        not atk.guard_attack,
        "NT-124",
        T("the Guard shown must attack (AMB-31); a road attack is made by cavalry (NT-68)"),
        "/commands/0",
    )
    spec = raw[0]
    kind = P.req_str(spec, "kind", "/commands/0")
    require(
        kind in ("unit_move", "corps_move"),
        "NT-68",
        T("a road attack is a Unit Move or a Corps Move"),
        "/commands/0/kind",
    )
    path = P.ints(spec, "path", "/commands/0", required=True)
    ride = ride_group(ctx)
    entry: Entry | None = None
    if spec.get("entry") is not None:  # NT-145: cavalry reinforcements attack as they enter
        plan, entry = entering_plan(ctx, atk.attacker, kind, spec, "/commands/0")
        src, continuing = entry.locale, False
    elif ride is not None and ride.side == atk.attacker:
        named = spec.get("unit") if kind == "unit_move" else spec.get("commander")
        continuing = kind == ride.kind and named in (*ride.units, ride.commander)
    else:
        continuing = False
    if entry is not None:
        pass
    elif continuing:
        assert ride is not None
        plan = ride
        src = int(str(ride.loc))
    else:
        plan = plan_move(ctx, atk.attacker, kind, spec, "/commands/0")
        require(
            plan.loc is not None and plan.app is None,
            "NT-68",
            T("a road attack starts in a reserve area, not blocking an approach"),
            "/commands/0",
        )
        assert plan.loc is not None
        src = plan.loc
        require(
            ride is None or ride.loc != src,
            "NT-98",
            T("a ride-on continues the same command with the same pieces"),
            "/commands/0",
        )
    units = [state.units[u] for u in plan.units]
    require(
        all(u.type == "CAV" for u in units),
        "NT-68",
        T("a road attack is made by cavalry only (with commanders)"),
        "/commands/0",
    )
    if entry is not None:
        check_entry_road(ctx, atk.attacker, atk, entry, path, "/commands/0")
    else:
        check_road(ctx, atk.attacker, atk, src, path, "/commands/0")
    if not feint:
        barred = entry_barred(state, atk.def_locale, pieces_of(plan))
        require(
            barred is None,
            barred or "NT-54",
            T(
                "these pieces may not enter locale {locale} this turn (NT-54: another corps "
                "marched through it by road; NT-101: it was won by attack)",
                locale=atk.def_locale,
            ),
            "/commands/0",
        )
        cap = ctx.board.locales[atk.def_locale].capacity
        require(
            len(plan.units) <= cap,
            "NT-10",
            T(
                "locale {locale} holds at most {capacity} units",
                locale=atk.def_locale,
                capacity=cap,
            ),
            "/commands/0",
        )
    multi = plan.kind == "corps_move" and len(plan.units) >= 2
    require(
        not (
            multi and path and enemy_corps_adjacent(ctx.board, state, atk.att_locale, atk.attacker)
        ),
        "NT-141",
        T(
            "a corps of 2+ units must halt on entering the attack locale, so it cannot attack by "
            "road"
        ),
        "/commands/0",
    )
    if not continuing:
        close_ride(ctx)  # NT-143: another command ends an open ride-on
    atk.road_from, atk.road_path, atk.ride = src, list(path), continuing
    for u in units:
        u.revealed = True
    if entry is not None and path:
        template = T(
            "Attack {attack}: road attack entering at {entry} via {path} by cavalry {units}."
        )
    elif entry is not None:
        template = T("Attack {attack}: road attack entering at {entry} by cavalry {units}.")
    elif path:
        template = T(
            "Attack {attack}: road attack from locale {locale} via {path} by cavalry {units}."
        )
    else:
        template = T("Attack {attack}: road attack from locale {locale} by cavalry {units}.")
    ctx.log(
        *line(
            template,
            attack=atk.id,
            entry=entry.id if entry is not None else "",
            locale=src,
            path=", ".join(map(str, path)),
            units=_faces(plan.units),
        )
    )
    starts, before, main = start_nodes(ctx, src) if entry is None else ([], 0, True)
    if feint:
        end = P.req_str(p, "end")
        require(end in ("block", "reserve"), "NT-77", T("end is 'block' or 'reserve'"), "/end")
        end_app = atk.approach if end == "block" else None
        if entry is not None:
            road_move(ctx, plan, list(path), end_app, "", entry=entry)
        elif path:
            road_move(
                ctx,
                plan,
                list(path),
                end_app,
                "",
                start=starts[0] if continuing else None,
                before=before,
                main_before=main,
            )
        else:  # the cavalry start in the attack locale: they stay, blocking or in reserve
            for u in units:
                u.app = end_app
            if plan.kind == "corps_move" and plan.commander:
                state.commanders[plan.commander].app = end_app
        state.ride_on = None
    else:
        end_at = road_move(
            ctx,
            plan,
            [*path, atk.def_locale],
            None,
            "",
            entry=entry,
            start=starts[0] if continuing else None,
            before=before,
            main_before=main,
        )
        open_ride(ctx, plan, atk.def_locale, end_at)
    if entry is not None:  # NT-62, NT-63: the arrival steps
        arrive(ctx, plan, entry, {"attack": atk.id, "road": True})
    elif not continuing:
        spend(ctx, plan, record(plan, {"attack": atk.id, "road": True}))
    atk.attackers = sorted(plan.units)
    atk.att_commanders = [plan.commander] if plan.kind == "corps_move" and plan.commander else []
    atk.feint = feint


def road_blocked(ctx: Ctx, atk: Attack) -> None:
    """After a vacate, the defender's retreat may have closed every road (a retreat into a locale
    on the cavalry's path is legal, AMB-13) and no other command can move in: the attacker then
    declares none; nothing moves and no command is spent."""
    ctx.log(T("Attack {attack}: no command can move in; nothing moves.", attack=atk.id))
    close_ride(ctx)


def _faces(ids: list[str]) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=True, empty="")]
