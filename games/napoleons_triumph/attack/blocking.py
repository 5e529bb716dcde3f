"""The defender's named reserve pieces block the defense approach: after a feint (step (3), NT-78)
and after the defender won (step (11), NT-95); the duty lapses when nothing may move (NT-142). A
split corps detaches the units not with their commander, and a commander never stays alone
(NT-32, AMB-18). A feint then closes the approach (NT-100).
"""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.attack.common import ask, close, current, end_attack, names
from games.napoleons_triumph.context import Ctx, line, shown_as
from games.napoleons_triumph.errors import require
from games.napoleons_triumph.pieces import commanders_in, corps_units
from games.napoleons_triumph.state import MAP, Attack, other


def hold_candidates(ctx: Ctx, atk: Attack) -> tuple[list[str], list[str]]:
    """Named units still in the defense reserve that may move, and named commanders there."""
    state = ctx.state
    units = [
        x
        for x in atk.named
        if x in state.units
        and state.units[x].where == MAP
        and state.units[x].loc == atk.def_locale
        and state.units[x].app is None
        and not state.units[x].fixed
        and not _last_of_unnamed(ctx, atk, x)
    ]
    cmds = [
        x
        for x in atk.named
        if x in state.commanders
        and state.commanders[x].where == MAP
        and state.commanders[x].app is None
    ]
    return units, cmds


def _last_of_unnamed(ctx: Ctx, atk: Attack, uid: str) -> bool:
    """AMB-18 (option commander_follow_requires_named, the default): a commander who was not
    named stays in reserve, and a commander never stays without a unit of his corps (NT-32), so
    the last unit of an unnamed commander's corps cannot block."""
    cid = ctx.state.units[uid].corps
    if cid is None or cid in atk.named:
        return False
    return [u.id for u in corps_units(ctx.state, cid) if u.where == MAP] == [uid]


def default_hold(ctx: Ctx, atk: Attack) -> list[str]:
    """The default answer (digest 4.7): every named reserve unit that may block, and the named
    commanders; one unit stays with each unnamed commander whose units would all go (AMB-18):
    the one first in the attacker's names, so the choice follows no hidden id."""
    state = ctx.state
    units, cmds = hold_candidates(ctx, atk)
    stay: set[str] = set()
    for c in commanders_in(state, atk.def_locale, other(atk.attacker)):
        members = [u.id for u in corps_units(state, c.id) if u.where == MAP]
        if c.app is None and c.id not in atk.named and members and set(members) <= set(units):
            stay.add(min(members, key=lambda x: shown_as(state, atk.attacker, x)))
    return [*(u for u in units if u not in stay), *cmds]


def hold_or_ask(ctx: Ctx, atk: Attack, kind: str) -> None:
    units, cmds = hold_candidates(ctx, atk)
    if not units:  # NT-142: nothing that may move; the duty lapses
        after_hold(ctx, atk, kind)
        return
    if len(units) == 1 and not cmds:  # forced by public facts (who was named is public)
        do_hold(ctx, atk, units)
        after_hold(ctx, atk, kind)
        return
    atk.step = kind
    ask(ctx, other(atk.attacker), kind, {"attack": atk.id})


def hold(ctx: Ctx, side: str, p: dict[str, JSON]) -> None:
    """feint_hold / hold: named reserve pieces that block the defense approach (NT-78, NT-95)."""
    atk = current(ctx)
    units, cmds = hold_candidates(ctx, atk)
    pieces = P.strings(p, "pieces", required=True)
    for x in pieces:
        require(
            x in units or x in cmds,
            "NT-78",
            T("{piece} is not a named piece in the defense reserve", piece=x),
            "/pieces",
        )
    moving = [x for x in pieces if x in units]
    require(
        bool(moving),
        "NT-78",
        T("block the defense approach with at least one named unit"),
        "/pieces",
    )
    kind = atk.step
    do_hold(ctx, atk, pieces)
    after_hold(ctx, atk, kind)


def do_hold(ctx: Ctx, atk: Attack, pieces: list[str]) -> None:
    """Move named reserve pieces to block; a split corps detaches the units not with their
    commander, and a commander never stays behind alone (NT-32)."""
    state = ctx.state
    moving_units = {x for x in pieces if x in state.units}
    moving_cmds = {x for x in pieces if x in state.commanders}
    for c in commanders_in(state, atk.def_locale, other(atk.attacker)):
        if c.app is not None:
            continue
        members = {u.id for u in corps_units(state, c.id) if u.where == MAP}
        if members and members <= moving_units:
            require(
                c.id in atk.named,
                "NT-32",
                T(
                    "{commander} was not named, so he stays in reserve (AMB-18), and a commander "
                    "is never left without a unit of his corps: keep one of his units with him",
                    commander=c.id,
                ),
                "/pieces",
            )
            moving_cmds.add(c.id)  # all his units go: the named commander goes with them
        require(
            c.id not in moving_cmds or bool(members & moving_units),
            "NT-32",
            T("{commander} cannot block without a unit of his corps", commander=c.id),
            "/pieces",
        )
    for uid in sorted(moving_units):
        u = state.units[uid]
        u.app = atk.approach
        if u.corps is not None and u.corps not in moving_cmds:
            u.corps = None
    for cid in sorted(moving_cmds):
        c = state.commanders[cid]
        c.app = atk.approach
        for u in corps_units(state, cid):
            if u.where == MAP and u.app is None and u.loc == atk.def_locale:
                u.corps = None
    ctx.log(
        *line(
            T("Attack {attack}: the defender blocks {approach} with {units}."),
            attack=atk.id,
            approach=atk.approach,
            units=names(sorted(moving_units)),
        )
    )


def after_hold(ctx: Ctx, atk: Attack, kind: str) -> None:
    if kind == "feint_hold":
        finish_feint(ctx, atk)
    else:
        end_attack(ctx, atk)


def finish_feint(ctx: Ctx, atk: Attack) -> None:
    close(ctx, atk)  # NT-100
    end_attack(ctx, atk)
