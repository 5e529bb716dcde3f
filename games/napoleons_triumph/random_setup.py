"""Drawing a random set-up for one side: the army organised into corps and placed (NT-19..NT-24).

Used by the random player (randomplay.py) and by the set-up choices offered to clients
(choices.py), which keep the draws `validate` accepts.
"""

from __future__ import annotations

from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.state import AL, F


def draw_setup(ctx: Ctx, side: str, rng: Rng) -> dict[str, JSON]:
    """A random organisation and placement of `side`'s army (NT-19..NT-24): corps filled to
    their minimum, then at random up to their locale's capacity; for the French, a few
    detachments and the fixed battery. Not always legal: callers keep what `validate` accepts."""
    board, state = ctx.board, ctx.state
    cmds = [c for c in board.commanders.values() if c.side == side]
    units = sorted(u.id for u in state.units.values() if u.side == side)
    rng.shuffle(units)
    sdef = board.scenarios[state.scenario]
    on_map_ids = {c.id for c in cmds if not c.reinforcement}
    if side == AL and sdef.allied_start != "all_corps_on_board":
        on_map_ids = set(rng.sample(sorted(on_map_ids), 2))
    cap = {
        c.id: (
            min(8, board.locales[c.setup_locale].capacity)
            if c.id in on_map_ids and c.setup_locale is not None
            else 8
        )
        for c in cmds
    }
    groups: dict[str, list[str]] = {c.id: [] for c in cmds}
    if side == F:  # each reinforcement corps gets a unit that is not INF2 first (NT-22)
        for c in cmds:
            if c.reinforcement:
                pick = next(
                    u for u in units if (state.units[u].type, state.units[u].strength) != ("INF", 2)
                )
                units.remove(pick)
                groups[c.id].append(pick)
    for c in cmds:
        while len(groups[c.id]) < c.min_units and units:
            groups[c.id].append(units.pop())
    order = [c.id for c in cmds]
    while units:
        open_ = [cid for cid in order if len(groups[cid]) < cap[cid]]
        if not open_:
            break
        groups[rng.choice(open_)].append(units.pop())
    corps: list[JSON] = []
    for c in cmds:
        off = c.id not in on_map_ids
        app: str | None = None
        if not off and c.setup_locale is not None and rng.chance(1, 4):
            apps = [
                a for a in board.approaches_of(c.setup_locale) if not board.approaches[a].impassable
            ]
            app = rng.choice(apps)
        corps.append(
            {"commander": c.id, "units": list(groups[c.id]), "approach": app, "off_map": off}
        )
    out: dict[str, JSON] = {"corps": corps}
    if side == F:
        dets: list[JSON] = []
        placed: dict[str, str] = {}
        for entry in corps:
            assert isinstance(entry, dict)
            if entry["off_map"]:
                continue
            us = entry["units"]
            assert isinstance(us, list)
            for u in us:
                placed[str(u)] = str(entry["commander"])
        battery = next((u for u in sorted(placed) if state.units[u].type == "ART"), None)
        for _ in range(rng.below(4)):
            uid = rng.choice(sorted(placed))
            cid = placed[uid]
            origin = board.commanders[cid].setup_locale
            if uid == battery or origin is None:
                continue
            near = [loc for loc, d in board.distances_from(origin).items() if d <= 2]
            loc = rng.choice(sorted(near))
            dets.append({"unit": uid, "position": {"locale": loc, "approach": None}})
            del placed[uid]
        out["detachments"] = dets
        if battery is not None:
            home = board.commanders[placed[battery]].setup_locale
            assert home is not None
            apps = [a for a in board.approaches_of(home) if not board.approaches[a].impassable]
            on_santon = bool(state.options.get("santon")) and home == board.santon
            out["fixed_battery"] = {
                "unit": battery,
                "approach": None if on_santon else rng.choice(apps),
            }
        else:
            out["fixed_battery"] = None
    return out
