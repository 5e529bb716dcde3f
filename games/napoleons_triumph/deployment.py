"""Set-up (rulebook chapter 6): corps, detachments, the fixed battery (NT-19..NT-24)."""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.context import Ctx, U, line
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.pieces import occupant, units_in
from games.napoleons_triumph.state import AL, DEAD, MAP, OFFMAP, F

MAX_CORPS = 8  # NT-29
MAX_DETACHMENTS = 6  # NT-23
FORBIDDEN_STARS = frozenset({"red", "green", "black"})  # NT-23


def _organise(ctx: Ctx, side: str, p: dict[str, JSON]) -> list[str]:
    """Secret corps organisation (NT-21.1, NT-22): returns the commanders placed on the map."""
    board, state = ctx.board, ctx.state
    corps = P.objects(p, "corps", required=True)
    mine = [c for c in board.commanders.values() if c.side == side]
    seen_cmd: set[str] = set()
    seen_units: set[str] = set()
    on_map: list[str] = []
    for i, entry in enumerate(corps):
        path = f"/corps/{i}"
        cid = P.req_str(entry, "commander", path)
        require(
            cid in board.commanders and board.commanders[cid].side == side,
            "NT-21",
            T("{commander} is not one of your commanders", commander=repr(cid)),
            f"{path}/commander",
        )
        require(
            cid not in seen_cmd,
            "NT-21",
            T("{commander} is organised twice", commander=cid),
            f"{path}/commander",
        )
        seen_cmd.add(cid)
        cdef = board.commanders[cid]
        units = P.strings(entry, "units", path, required=True)
        for uid in units:
            require(
                uid in state.units and state.units[uid].side == side,
                "NT-21",
                T("{unit} is not one of your units", unit=repr(uid)),
                f"{path}/units",
            )
            require(
                uid not in seen_units,
                "NT-21",
                T("{unit} is given to two corps", unit=uid),
                f"{path}/units",
            )
            seen_units.add(uid)
        require(
            cdef.min_units <= len(units) <= MAX_CORPS,
            "NT-21",
            T(
                "{commander} needs {low} to {high} units, not {n}",
                commander=cdef.name,
                low=cdef.min_units,
                high=MAX_CORPS,
                n=len(units),
            ),
            f"{path}/units",
        )
        off = P.boolean(entry, "off_map", path)
        if side == F:
            require(
                off == cdef.reinforcement,
                "NT-22",
                T("{commander} is a reinforcement and must start off the map", commander=cdef.name)
                if cdef.reinforcement
                else T(
                    "{commander} is not a reinforcement and may not start off the map",
                    commander=cdef.name,
                ),
                f"{path}/off_map",
            )
            if cdef.reinforcement:
                require(
                    any(
                        not (state.units[u].type == "INF" and state.units[u].strength == 2)
                        for u in units
                    ),
                    "NT-22",
                    T(
                        "{commander} needs a unit that is not an infantry unit of strength 2",
                        commander=cdef.name,
                    ),
                    f"{path}/units",
                )
        app = P.string(entry, "approach", path, required=False)
        cmd = state.commanders[cid]
        if off:
            require(
                app is None,
                "NT-21",
                T("a corps off the map blocks no approach"),
                f"{path}/approach",
            )
            cmd.where, cmd.loc, cmd.app = OFFMAP, None, None
            for uid in units:
                u = state.units[uid]
                u.where, u.loc, u.app, u.corps = OFFMAP, None, None, cid
            continue
        loc = cdef.setup_locale  # NT-12: the locale labelled with his name
        require(
            loc is not None,
            "NT-21",
            T("{commander} has no set-up locale on this board", commander=cdef.name),
            path,
        )
        assert loc is not None
        if app is not None:
            require(
                app in board.approaches_of(loc) and not board.approaches[app].impassable,
                "NT-21",
                T(
                    "{approach} is not a passable approach of locale {locale}",
                    approach=app,
                    locale=loc,
                ),
                f"{path}/approach",
            )
        cmd.where, cmd.loc, cmd.app = MAP, loc, app
        for uid in units:
            u = state.units[uid]
            u.where, u.loc, u.app, u.corps = MAP, loc, app, cid
        on_map.append(cid)
    missing_cmd = [c.id for c in mine if c.id not in seen_cmd]
    require(
        not missing_cmd,
        "NT-21",
        T("commanders without a corps: {commanders}", commanders=", ".join(missing_cmd)),
        "/corps",
    )
    missing = sorted(
        u.id for u in state.units.values() if u.side == side and u.id not in seen_units
    )
    require(
        not missing,
        "NT-21",
        T("every unit must join a corps; missing: {units}", units=", ".join(missing)),
        "/corps",
    )
    return on_map


def _check_capacity(ctx: Ctx, side: str, rule: str) -> None:
    """AMB-8: capacity holds after all set-up steps."""
    for loc in sorted(
        {
            u.loc
            for u in ctx.state.units.values()
            if u.where == MAP and u.side == side and u.loc is not None
        }
    ):
        n = len(units_in(ctx.state, loc, side))
        cap = ctx.board.locales[loc].capacity
        require(
            n <= cap,
            rule,
            T(
                "locale {locale} would hold {n} units, its capacity is {capacity}",
                locale=loc,
                n=n,
                capacity=cap,
            ),
            "/corps",
        )


def allied_setup(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-21: the Allies organise secretly and place their corps first."""
    state = ctx.state
    require(
        state.phase == "setup_AL" and side == AL,
        "NT-19",
        T("the Allied set-up comes first, by the Allies"),
    )
    on_map = _organise(ctx, AL, p)
    sdef = ctx.board.scenarios[state.scenario]
    if sdef.allied_start == "all_corps_on_board":
        offs = [c.id for c in state.commanders.values() if c.side == AL and c.where == OFFMAP]
        require(
            not offs,
            "NT-21",
            T("in this scenario every Allied corps starts on the map ({corps})", corps=offs),
        )
    else:
        require(
            len(on_map) == 2,
            "NT-21",
            T("exactly 2 Allied corps start on the map, not {n}", n=len(on_map)),
        )
    _check_capacity(ctx, AL, "NT-21")
    ctx.log(
        T(
            "The Allies have set up: {corps}",
            corps=", ".join(
                f"{c} ({len([u for u in state.units.values() if u.corps == c])} units)"
                for c in sorted(on_map)
            ),
        )
    )
    state.phase = "setup_F"
    state.active = F


def french_setup(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """NT-22..NT-24: French corps, up to 6 detachments, the fixed battery."""
    board, state = ctx.board, ctx.state
    require(
        state.phase == "setup_F" and side == F, "NT-19", T("the French set up after the Allies")
    )
    _organise(ctx, F, p)
    dets = P.objects(p, "detachments")
    require(
        len(dets) <= MAX_DETACHMENTS,
        "NT-23",
        T("at most 6 set-up detachments, not {n}", n=len(dets)),
        "/detachments",
    )
    for i, d in enumerate(dets):
        path = f"/detachments/{i}"
        uid = P.req_str(d, "unit", path)
        require(
            uid in state.units and state.units[uid].side == F,
            "NT-23",
            T("{unit} is not your unit", unit=repr(uid)),
            f"{path}/unit",
        )
        u = state.units[uid]
        require(
            u.where == MAP and u.corps is not None,
            "NT-23",
            T("{unit} is not in a corps on the map", unit=uid),
            f"{path}/unit",
        )
        cid = u.corps
        assert cid is not None
        require(
            len([x for x in state.units.values() if x.corps == cid]) > 1,
            "NT-32",
            T("{commander} cannot detach his last unit", commander=cid),
            f"{path}/unit",
        )
        loc, app = P.position(d, "position", path)
        require(
            loc in board.locales,
            "NT-23",
            T("locale {locale} does not exist", locale=loc),
            f"{path}/position",
        )
        origin = board.commanders[cid].setup_locale
        assert origin is not None
        dist = board.distances_from(origin).get(loc)
        require(
            dist is not None and dist <= 2,
            "NT-23",
            T(
                "locale {locale} is more than 2 locales from {commander}'s set-up locale {origin}",
                locale=loc,
                commander=cid,
                origin=origin,
            ),
            path,
        )
        near = (loc, *board.neighbours(loc))
        bad = [n for n in near if board.locales[n].stars & FORBIDDEN_STARS]
        require(
            not bad,
            "NT-23",
            T(
                "locale {locale} is in or next to a red, green or black objective ({objective})",
                locale=loc,
                objective=bad[0] if bad else "",
            ),
            path,
        )
        require(
            occupant(state, loc) != AL,
            "NT-23",
            T("locale {locale} is held by the Allies", locale=loc),
            path,
        )
        if app is not None:
            require(
                app in board.approaches_of(loc) and not board.approaches[app].impassable,
                "NT-46",
                T(
                    "{approach} is not a passable approach of locale {locale}",
                    approach=app,
                    locale=loc,
                ),
                f"{path}/position",
            )
        u.corps, u.loc, u.app = None, loc, app
    fb = p.get("fixed_battery")
    arts = [u for u in state.units.values() if u.side == F and u.where == MAP and u.type == "ART"]
    if fb is None:
        require(
            not arts,
            "NT-24",
            T("the French must reveal one artillery unit as the fixed battery"),
            "/fixed_battery",
        )
    else:
        fbo = P.obj(fb, "/fixed_battery")
        uid = P.req_str(fbo, "unit", "/fixed_battery")
        require(
            uid in state.units
            and state.units[uid].side == F
            and state.units[uid].type == "ART"
            and state.units[uid].where == MAP,
            "NT-24",
            T("{unit} is not a French artillery unit on the map", unit=repr(uid)),
            "/fixed_battery/unit",
        )
        u = state.units[uid]
        assert u.loc is not None
        app = P.string(fbo, "approach", "/fixed_battery", required=False)
        on_santon = bool(state.options.get("santon")) and u.loc == board.santon
        if on_santon:
            require(
                app is None and u.app is None,
                "NT-138",
                T("the fixed battery on the Santon is set up in reserve"),
                "/fixed_battery/approach",
            )
        elif u.app is None:
            require(
                app is not None
                and app in board.approaches_of(u.loc)
                and not board.approaches[app].impassable,
                "NT-24",
                T(
                    "the fixed battery must block a passable approach of locale {locale}",
                    locale=u.loc,
                ),
                "/fixed_battery/approach",
            )
            u.app = app
        else:
            require(
                app in (None, u.app),
                "NT-24",
                T("a blocking battery stays where it is"),
                "/fixed_battery/approach",
            )
        if u.corps is not None and u.app != state.commanders[u.corps].app:
            # AMB-10: it leaves its corps' position and becomes detached; NT-32 (L203): never
            # his last unit. A battery already blocking with its corps stays in it, even alone.
            require(
                len([x for x in state.units.values() if x.corps == u.corps]) > 1,
                "NT-32",
                T(
                    "{commander} cannot give up his last unit as the fixed battery",
                    commander=u.corps,
                ),
                "/fixed_battery",
            )
            u.corps = None
        u.fixed = True
        u.revealed = True
    _check_capacity(ctx, F, "NT-23")
    for c in state.commanders.values():
        if c.side == F and c.where == MAP:
            members = [x for x in state.units.values() if x.corps == c.id and x.where != DEAD]
            c.loc, c.app = members[0].loc, members[0].app
    ctx.log(T("The French have set up."))
    battery = [u for u in state.units.values() if u.fixed]
    if battery:
        b = battery[0]
        ctx.log(
            *line(
                T("Fixed battery: {unit} at locale {locale} blocking {approach}."),
                unit=U(b.id, face=True),
                locale=b.loc,
                approach=b.app,
            )
        )
    state.phase = "turn"
