"""What every step of an attack shares (rulebook chapter 11, digest 4.3): the attack in progress
(NT-64), the pending decision each step opens for one side, the approach sides, unit lists in log
lines, the Santon battery (NT-138), closing an approach (NT-100) and the end of an attack (NT-96).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph.board import ApproachSide
from games.napoleons_triumph.context import Ctx, U, Us
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.pieces import is_infantry
from games.napoleons_triumph.state import Attack, Pending, Unit
from games.napoleons_triumph.turns import hide_all


def current(ctx: Ctx) -> Attack:
    atk = ctx.state.attack
    require(atk is not None, "NT-64", T("no attack is in progress"))
    assert atk is not None
    return atk


def ask(ctx: Ctx, side: str, kind: str, data: dict[str, JSON] | None = None) -> None:
    ctx.state.pending = Pending(side, kind, data or {})


def def_side_of(ctx: Ctx, atk: Attack) -> ApproachSide:
    return ctx.board.side(atk.approach, atk.def_locale)


def att_side_of(ctx: Ctx, atk: Attack) -> ApproachSide:
    return ctx.board.side(atk.approach, atk.att_locale)


def names(ids: list[str], face: bool = False) -> list[str | U | Us]:
    """A list of units in a log line, in each reader's own order (never server-id order)."""
    return [Us.of(ids, face=face)]


def same_type(a: Unit, b: Unit, guard_with_inf: bool) -> bool:
    if a.type == b.type:
        return True
    return guard_with_inf and is_infantry(a) and is_infantry(b)


def santon_battery(ctx: Ctx, u: Unit) -> bool:
    """NT-138: the fixed battery standing on the Santon (option)."""
    return bool(ctx.state.options.get("santon")) and u.fixed and u.loc == ctx.board.santon


def close(ctx: Ctx, atk: Attack) -> None:
    if atk.approach not in ctx.state.turn.closed:
        ctx.state.turn.closed.append(atk.approach)


def end_attack(ctx: Ctx, atk: Attack) -> None:
    """NT-96: all units are hidden again; the attack is over."""
    hide_all(ctx)
    ctx.state.attack = None
    ctx.state.pending = None
    ctx.log(T("Attack {attack} is over.", attack=atk.id))
