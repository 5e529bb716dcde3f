"""The open decisions of digest 4.1 (D-10..D-17 built here): answering one, and its default when
the deadline passes (digest 4.4's conservative defaults)."""

from __future__ import annotations

from collections.abc import Mapping

from games.commands_colors_napoleonics import combat, turn
from games.commands_colors_napoleonics.state import GameState, hex_of
from games.commands_colors_napoleonics.world import scen, unit_at
from games.core.i18n import T
from games.core.protocol import JSON, LogEntry


def answer(
    state: GameState, side: str, kind: str, p: Mapping[str, JSON], log: list[LogEntry]
) -> None:
    if kind == "supply_place":
        from games.commands_colors_napoleonics import supply

        supply.place(state, dict(p))
        log.append(LogEntry(T("The unit goes back towards its baseline (Short Supply).")))
        return
    if kind == "scout_keep":
        turn.keep(state, side, p.get("card"))
        log.append(LogEntry(T("{side} keeps one of the two cards drawn.", side=side)))
        return
    if kind == "retreat":
        combat.do_retreat(state, p)
        log.append(LogEntry(T("Flags accepted: {n}.", n=str(p.get("flags")))))
    elif kind == "leader_retreat":
        combat.do_leader_retreat(state, p)
        log.append(LogEntry(T("The leader retreats.")))
    elif kind == "take_ground":
        combat.do_advance(state, p)
        log.append(LogEntry(T("Take ground: {yes}.", yes="yes" if p.get("advance") else "no")))
    elif kind == "bonus_melee":
        combat.do_bonus(state, p)
        log.append(LogEntry(T("Bonus melee: {target}.", target=str(p.get("target") or "none"))))
    elif kind == "melee_response":
        combat.do_response(state, p)
        log.append(LogEntry(T("Answer to the melee: {answer}.", answer=str(p.get("response")))))
    elif kind == "retire":
        combat.do_retire(state, p)
        log.append(LogEntry(T("The cavalry retires and reforms.")))
    elif kind == "battle_back":
        combat.do_battle_back(state, p)
        log.append(LogEntry(T("Battle back: {yes}.", yes="yes" if p.get("battle") else "no")))
    combat.proceed(state)


def _enemies_on(state: GameState, option: Mapping[str, JSON], side: str) -> int:
    path = option.get("path")
    assert isinstance(path, list)
    n = 0
    for h in path:
        u = unit_at(state, hex_of(h))
        n += u is not None and u.side != side
    return n


def default(state: GameState) -> tuple[str, dict[str, JSON]]:
    """D-10/D-11 ignore the most flags, the path losing fewest blocks; D-13 the longest retreat
    avoiding enemies (not off the board if it can stay); D-14 stay; D-15 none; D-16 battle
    back; D-17 keep the first card."""
    pend = state.pending
    assert pend is not None
    kind = str(pend["kind"])
    if kind == "retreat":
        assert state.combat is not None
        options = combat.retreat_options(state, state.combat)
        low = min(int(str(o["flags"])) for o in options)
        unit = state.units[str(pend["unit"])]
        from games.commands_colors_napoleonics.retreat import losses_of
        from games.commands_colors_napoleonics.world import retreat_per_flag

        per = retreat_per_flag(state, unit)
        best = min(
            (o for o in options if o["flags"] == low),
            key=lambda o: losses_of(state, unit, low * per, [hex_of(h) for h in o["path"]]),  # type: ignore[union-attr]
        )
        return kind, dict(best)
    if kind == "leader_retreat":
        lid = str(pend["leader"])
        side = state.leaders[lid].side
        options = combat.leader_choices(state, lid)

        def rank(o: dict[str, JSON]) -> tuple[int, bool, int]:
            path = o["path"]
            assert isinstance(path, list)
            return (-_enemies_on(state, o, side), not o["off"], len(path))

        best = max(options, key=rank)
        return kind, dict(best)
    if kind == "take_ground":
        return kind, {"advance": False, "extra": None}
    if kind == "melee_response":
        return kind, {"response": "none"}
    if kind == "supply_place":
        from games.commands_colors_napoleonics import supply

        return kind, supply.choices(state)[0]
    if kind == "retire":
        return kind, combat.retire_choices(state)[0]
    if kind == "bonus_melee":
        return kind, {"target": None}
    if kind == "battle_back":
        return kind, {"battle": True}
    pair = state.deck.scout.get(str(pend["side"]), ())
    assert scen(state) is not None
    return "scout_keep", {"card": pair[0]}
