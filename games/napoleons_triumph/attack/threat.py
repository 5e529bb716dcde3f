"""Step (1), the attack threat (NT-70): the attacker names the attack approach and may announce a
Guard attack, showing one Guard unit (NT-124, NT-125, NT-127). Refused in the night round (NT-117),
across an approach closed this turn (NT-100), and when no legal attack could back it (AMB-17): an
attack from the attack locale or a road attack of cavalry (NT-68), told only at the announcement.
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph import road_attack
from games.napoleons_triumph.attack.attackers import (
    attack_options,
    options_moving,
    spec_barred,
    vacate_options,
)
from games.napoleons_triumph.attack.common import ask
from games.napoleons_triumph.context import Ctx, U, line
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.pieces import occupant
from games.napoleons_triumph.state import MAP, Attack, other
from games.napoleons_triumph.turns import is_night


def threaten(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """Step (1), NT-70: the attacker names the approach (and may announce a Guard attack)."""
    state, board = ctx.state, ctx.board
    require(not is_night(ctx), "NT-117", T("no attacks take place in the night round"))
    att_loc = P.req_int(p, "attack_locale")
    app = P.req_str(p, "approach")
    require(
        att_loc in board.locales,
        "NT-64",
        T("locale {locale} does not exist", locale=att_loc),
        "/attack_locale",
    )
    require(
        app in board.approaches_of(att_loc),
        "NT-64",
        T("{approach} is not an approach of locale {locale}", approach=app, locale=att_loc),
        "/approach",
    )
    require(
        not board.approaches[app].impassable,
        "NT-46",
        T("{approach} is impassable", approach=app),
        "/approach",
    )
    def_loc = board.other_locale(app, att_loc)
    require(
        occupant(state, def_loc) == other(side),
        "NT-64",
        T("locale {locale} holds no enemy pieces", locale=def_loc),
        "/approach",
    )
    require(
        app not in state.turn.closed,
        "NT-100",
        T(
            "after a feint or a failed attack no further attack crosses {approach} this turn",
            approach=app,
        ),
        "/approach",
    )
    guard = P.boolean(p, "guard_attack")
    shown = P.string(p, "show_guard", required=False)
    if guard:
        require(
            not state.guard_banned[side],
            "NT-127",
            T("after a failed Guard attack no more Guard attacks"),
            "/guard_attack",
        )
        require(
            not board.side(app, att_loc).obstructed,
            "NT-125",
            T("a Guard attack cannot be made across an obstructed attack approach"),
            "/guard_attack",
        )
        g = state.units.get(shown or "")
        require(
            g is not None
            and g.side == side
            and g.type == "GUARD"
            and g.where == MAP
            and g.loc == att_loc
            and g.app in (None, app)
            and not g.fixed
            and g.moves < (2 if g.arrived and side == "F" else 1),
            "NT-124",
            T("show one Guard unit that can attack across this approach"),
            "/show_guard",
        )
        require(
            bool(options_moving(ctx, side, att_loc, app, str(shown))),
            "NT-124",
            T("no command left could carry {unit} into this attack (AMB-31)", unit=shown),
            "/show_guard",
        )
        require(
            any(
                not spec_barred(ctx, side, def_loc, spec)
                for spec in options_moving(ctx, side, att_loc, app, str(shown))
            ),
            "NT-54" if def_loc not in state.turn.conquered else "NT-101",
            T(
                "a Guard attack is never a feint (NT-125) and, if it won, would have to advance "
                "into locale {locale}, which no piece of yours may enter this turn",
                locale=def_loc,
            ),
            "/guard_attack",
        )
    else:
        require(
            shown is None, "NT-124", T("a Guard is shown only for a Guard attack"), "/show_guard"
        )

    # AMB-17: the threat must be backed by a legal attack command (on A's own knowledge),
    # whether the defender stands or vacates: an attack from the attack locale, or a road attack
    # of cavalry (NT-68), a feint if he stands. Which one is told only at the announcement
    # (NT-70, L335): nothing here depends on it. (AMB-31 for the Guard shown: checked above.)
    def by_road() -> bool:
        return not guard and bool(road_attack.road_attacks(ctx, side, att_loc, app, enter=True))

    if occupant(state, att_loc) != side:
        require(
            by_road(),
            "NT-64",
            T(
                "you have no pieces in locale {locale}, and no cavalry of yours could attack "
                "across {approach} from it by road (NT-68)",
                locale=att_loc,
                approach=app,
            ),
            "/attack_locale",
        )
    elif (
        not (attack_options(ctx, side, att_loc, app) and vacate_options(ctx, side, att_loc, app))
        and not by_road()
    ):
        require(
            bool(attack_options(ctx, side, att_loc, app)),
            "NT-70",
            T("no piece of yours could carry out an attack across this approach (AMB-17)"),
            "/approach",
        )
        raise Illegal(
            "NT-70",
            T(
                "if the defender vacated, no piece of yours could enter locale {locale} this turn "
                "(NT-54, NT-101) and no artillery attack is possible (AMB-17)",
                locale=def_loc,
            ),
            "/approach",
        )
    atk = Attack(
        id=state.next_attack_id,
        attacker=side,
        att_locale=att_loc,
        def_locale=def_loc,
        approach=app,
        step="defense",
        guard_attack=guard,
        guard_shown=shown,
    )
    state.next_attack_id += 1
    state.attack = atk
    state.turn.commands.append(
        {"kind": "threaten", "attack": atk.id, "approach": app, "from": att_loc}
    )
    where = {"attack": atk.id, "start": att_loc, "target": def_loc, "approach": app}
    if side == "F":
        threat = (
            T(
                "Attack {attack}: French threat from locale {start} against locale {target} "
                "across {approach} (Guard attack).",
                **where,
            )
            if guard
            else T(
                "Attack {attack}: French threat from locale {start} against locale {target} "
                "across {approach}.",
                **where,
            )
        )
    else:
        threat = (
            T(
                "Attack {attack}: Allied threat from locale {start} against locale {target} "
                "across {approach} (Guard attack).",
                **where,
            )
            if guard
            else T(
                "Attack {attack}: Allied threat from locale {start} against locale {target} "
                "across {approach}.",
                **where,
            )
        )
    ctx.log(threat)
    if guard and shown:
        state.units[shown].revealed = True
        ctx.log(*line(T("Guard shown: {unit}."), unit=U(shown, face=True)))
    ask(ctx, other(side), "defend", {"attack": atk.id})
