"""Step (1), the attack threat (NT-70): the attacker names the attack approach and may announce a
Guard attack, showing one Guard unit (NT-124, NT-125, NT-127). Refused in the night round (NT-117),
across an approach closed this turn (NT-100), and when no legal attack could back it (AMB-17): an
attack from the attack locale or a road attack of cavalry (NT-68), told only at the announcement.
"""

from __future__ import annotations

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
from games.napoleons_triumph.context import Ctx, U
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.pieces import occupant
from games.napoleons_triumph.state import MAP, Attack, other
from games.napoleons_triumph.turns import is_night


def threaten(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """Step (1), NT-70: the attacker names the approach (and may announce a Guard attack)."""
    state, board = ctx.state, ctx.board
    require(not is_night(ctx), "NT-117", "no attacks take place in the night round")
    att_loc = P.req_int(p, "attack_locale")
    app = P.req_str(p, "approach")
    require(att_loc in board.locales, "NT-64", f"locale {att_loc} does not exist", "/attack_locale")
    require(
        app in board.approaches_of(att_loc),
        "NT-64",
        f"{app} is not an approach of locale {att_loc}",
        "/approach",
    )
    require(not board.approaches[app].impassable, "NT-46", f"{app} is impassable", "/approach")
    def_loc = board.other_locale(app, att_loc)
    require(
        occupant(state, def_loc) == other(side),
        "NT-64",
        f"locale {def_loc} holds no enemy pieces",
        "/approach",
    )
    require(
        app not in state.turn.closed,
        "NT-100",
        f"after a feint or a failed attack no further attack crosses {app} this turn",
        "/approach",
    )
    guard = P.boolean(p, "guard_attack")
    shown = P.string(p, "show_guard", required=False)
    if guard:
        require(
            not state.guard_banned[side],
            "NT-127",
            "after a failed Guard attack no more Guard attacks",
            "/guard_attack",
        )
        require(
            not board.side(app, att_loc).obstructed,
            "NT-125",
            "a Guard attack cannot be made across an obstructed attack approach",
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
            "show one Guard unit that can attack across this approach",
            "/show_guard",
        )
        require(
            bool(options_moving(ctx, side, att_loc, app, str(shown))),
            "NT-124",
            f"no command left could carry {shown} into this attack (AMB-31)",
            "/show_guard",
        )
        require(
            any(
                not spec_barred(ctx, side, def_loc, spec)
                for spec in options_moving(ctx, side, att_loc, app, str(shown))
            ),
            "NT-54" if def_loc not in state.turn.conquered else "NT-101",
            f"a Guard attack is never a feint (NT-125) and, if it won, would have to advance into "
            f"locale {def_loc}, which no piece of yours may enter this turn",
            "/guard_attack",
        )
    else:
        require(shown is None, "NT-124", "a Guard is shown only for a Guard attack", "/show_guard")

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
            f"you have no pieces in locale {att_loc}, and no cavalry of yours could attack "
            f"across {app} from it by road (NT-68)",
            "/attack_locale",
        )
    elif (
        not (attack_options(ctx, side, att_loc, app) and vacate_options(ctx, side, att_loc, app))
        and not by_road()
    ):
        require(
            bool(attack_options(ctx, side, att_loc, app)),
            "NT-70",
            "no piece of yours could carry out an attack across this approach (AMB-17)",
            "/approach",
        )
        raise Illegal(
            "NT-70",
            f"if the defender vacated, no piece of yours could enter locale {def_loc} this turn "
            "(NT-54, NT-101) and no artillery attack is possible (AMB-17)",
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
    ctx.log(
        f"Attack {atk.id}: {'French' if side == 'F' else 'Allied'} threat from locale {att_loc} "
        f"against locale {def_loc} across {app}{' (Guard attack)' if guard else ''}."
    )
    if guard and shown:
        state.units[shown].revealed = True
        ctx.log("Guard shown: ", U(shown, face=True), ".")
    ask(ctx, other(side), "defend", {"attack": atk.id})
