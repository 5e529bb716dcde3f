"""Morale (rulebook chapter 13), elite units (chapter 15) and the night recovery (NT-118)."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.i18n import T
from games.napoleons_triumph.context import Ctx, Us, line
from games.napoleons_triumph.pieces import elite_kind
from games.napoleons_triumph.state import SIDES, Unit

ELITE_COST = {"heavy_cav": 2, "guard": 4}  # NT-120, NT-122
ELITE_ORDER = tuple(ELITE_COST)
# the morale reason of an elite kind's first use (a phrase of its own: translated as a value)
_FIRST_USE = {"heavy_cav": T("first use of heavy cav"), "guard": T("first use of guard")}


class GameOver(Exception):
    pass


def lose_morale(ctx: Ctx, side: str, points: int, reason: str, floor: int = 0) -> None:
    """Lower a side's morale; `floor` 1 for elite extras and artillery attacks (NT-114, NT-120)."""
    if points <= 0:
        return
    state = ctx.state
    before = state.morale[side]
    after = max(before - points, min(floor, before))
    state.morale[side] = after
    state.morale_lost[side] += before - after  # gross losses (AMB-2)
    ctx.log(_morale_line(side, before, after, reason))
    if after == 0:
        from games.napoleons_triumph.victory import decisive

        decisive(ctx, loser=side)  # NT-113, NT-128
        raise GameOver


def gain_morale(ctx: Ctx, side: str, points: int, reason: str) -> None:
    before = ctx.state.morale[side]
    ctx.state.morale[side] = before + points
    ctx.log(_morale_line(side, before, before + points, reason))


def _morale_line(side: str, before: int, after: int, reason: str) -> str:
    if side == "F":
        return T(
            "French morale {before} -> {after} ({reason}).",
            before=before,
            after=after,
            reason=reason,
        )
    return T(
        "Allied morale {before} -> {after} ({reason}).", before=before, after=after, reason=reason
    )


def commit_elite(ctx: Ctx, units: Iterable[Unit], trigger: str) -> None:
    """NT-120 / NT-122: the first use of heavy cavalry costs 2, of the Guard 4; never below 1.
    The line names every unit of the kind in `units` (in each reader's order), and the kinds go
    in a fixed order, so nothing follows the hidden server ids."""
    by_kind: dict[tuple[str, str], list[str]] = {}
    for u in units:
        kind = elite_kind(u)
        if kind is not None and kind not in ctx.state.elite_committed[u.side]:
            by_kind.setdefault((u.side, kind), []).append(u.id)
    for (side, kind), ids in sorted(by_kind.items(), key=lambda kv: ELITE_ORDER.index(kv[0][1])):
        ctx.state.elite_committed[side].append(kind)
        one = len(ids) == 1
        if kind == "guard":
            template = (
                T("{units} commits the guard ({trigger}).")
                if one
                else T("{units} commit the guard ({trigger}).")
            )
        else:
            template = (
                T("{units} commits the heavy cav ({trigger}).")
                if one
                else T("{units} commit the heavy cav ({trigger}).")
            )
        ctx.log(*line(template, units=Us.of(ids, face=True), trigger=trigger))
        lose_morale(ctx, side, ELITE_COST[kind], _FIRST_USE[kind], floor=1)


def night_recovery(ctx: Ctx) -> None:
    """NT-118: half the morale lost so far, rounded up, at most 4 (gross losses, AMB-2)."""
    for side in SIDES:
        lost = ctx.state.morale_lost[side]
        gain = min(4, (lost + 1) // 2)
        if gain:
            gain_morale(ctx, side, gain, T("night recovery"))
