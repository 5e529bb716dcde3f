"""A simple text notation for orders by mail, and the view in words (`report`).

    play ATTACK_CENTER                 order F-LN1 F-LN2 leaders F-L1   (also: section LEFT,
    order mode strategic F-LN1         move F-LN1 2,4 3,4               mode one_unit)
    exit F-LC1 8,9                     end                              (ends moves or battles)
    melee F-LN1 B-LN2                  fire F-LT1 B-RI1
    retreat 1 5,6 6,6                  leader 2,3 1,3 [off]
    advance [r,c] | stay               bonus B-LN2 [F-FA1 ...] | bonus none
    back yes | back no                 keep ATTACK_LEFT
    policy always | policy never | policy ask

Hexes are `row,col`. Several orders may be given on separate lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.commands_colors_napoleonics.state import GameState
from games.core.i18n import T
from games.core.protocol import JSON, Action, Prompt, Rejection, Role


def _hex(word: str) -> list[JSON]:
    row, col = word.split(",")
    return [int(row), int(col)]


def _line(state: GameState, role: Role, words: list[str]) -> Action:
    head, rest = words[0].lower(), words[1:]
    if head == "play" and len(rest) == 1:
        return Action(role, "play_card", {"card": rest[0].upper()})
    if head == "order":
        payload: dict[str, JSON] = {}
        units: list[JSON] = []
        leaders: list[JSON] = []
        target = units
        i = 0
        while i < len(rest):
            w = rest[i]
            if w.lower() in ("section", "mode") and i + 1 < len(rest):
                value = rest[i + 1]
                payload[w.lower()] = value.upper() if w.lower() == "section" else value.lower()
                i += 2
                continue
            if w.lower() == "leaders":
                target = leaders
            else:
                target.append(w)
            i += 1
        if units:
            payload["units"] = units
        if leaders:
            payload["leaders"] = leaders
        return Action(role, "give_orders", payload)
    if head in ("move", "exit") and rest:
        payload = {"piece": rest[0], "path": [_hex(w) for w in rest[1:]]}
        if head == "exit":
            payload["exit"] = True
        return Action(role, "move", payload)
    if head == "end":
        return Action(role, "end_moves" if state.phase == "move" else "end_battles", {})
    if head in ("melee", "fire") and len(rest) == 2:
        kind = "melee" if head == "melee" else "ranged"
        return Action(role, "battle", {"unit": rest[0], "target": rest[1], "combat": kind})
    if head == "retreat" and rest:
        return Action(role, "retreat", {"flags": int(rest[0]), "path": [_hex(w) for w in rest[1:]]})
    if head == "leader":
        off = bool(rest) and rest[-1].lower() == "off"
        hexes = rest[:-1] if off else rest
        return Action(role, "leader_retreat", {"path": [_hex(w) for w in hexes], "off": off})
    if head == "advance":
        extra = _hex(rest[0]) if rest else None
        return Action(role, "take_ground", {"advance": True, "extra": extra})
    if head == "stay":
        return Action(role, "take_ground", {"advance": False, "extra": None})
    if head == "bonus" and rest:
        if rest[0].lower() == "none" and len(rest) == 1:
            return Action(role, "bonus_melee", {"target": None})
        bonus: dict[str, JSON] = {"target": rest[0]}
        if rest[1:]:  # combined arms (CCN-145)
            bonus["artillery"] = list[JSON](rest[1:])
        return Action(role, "bonus_melee", bonus)
    if head == "back" and len(rest) == 1:
        return Action(role, "battle_back", {"battle": rest[0].lower() in ("yes", "y", "true")})
    if head == "keep" and len(rest) == 1:
        return Action(role, "scout_keep", {"card": rest[0].upper()})
    if head == "policy" and len(rest) == 1:
        return Action(role, "set_policy", {"battle_back": rest[0].lower()})
    raise ValueError(head)


def parse(state: GameState, role: Role, text: str) -> Sequence[Action] | Rejection:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        words = line.split("#")[0].split()
        if not words:
            continue
        try:
            out.append(_line(state, role, words))
        except (ValueError, IndexError):
            return Rejection(
                "text", T("line {n}: not understood: {line}", n=n, line=line.strip()[:60])
            )
    if not out:
        return Rejection("text", T("no orders found"))
    return out


def report(view: JSON, prompt: Prompt | None) -> str:
    """The view in words: banners, phase, the own hand, the units and leaders, what is asked."""
    assert isinstance(view, dict)
    lines = [
        T(
            "{title}: turn {turn}, {active} to play, phase {phase}.",
            title=str(view["title"]),
            turn=str(view["turn"]),
            active=str(view["active"]),
            phase=str(view["phase"]),
        )
    ]
    sides = view["sides"]
    assert isinstance(sides, dict)
    for side, info in sides.items():
        assert isinstance(info, dict)
        lines.append(
            T(
                "{army} ({side}): {n} of {target} banners.",
                army=str(info["army"]),
                side=side,
                n=str(info["banners"]),
                target=str(info["victory_banners"]),
            )
        )
    deck = view["deck"]
    assert isinstance(deck, dict)
    seats = deck["seats"]
    assert isinstance(seats, dict)
    role = view["role"]
    if isinstance(role, str) and isinstance(seats.get(role), dict):
        hand = seats[role].get("hand", [])  # type: ignore[union-attr]
        lines.append(T("Your hand: {cards}.", cards=", ".join(str(c) for c in hand) or "-"))  # type: ignore[union-attr]
    m = view["map"]
    assert isinstance(m, dict)
    for u in m["units"]:  # type: ignore[union-attr]
        assert isinstance(u, dict)
        lines.append(
            T(
                "{id} ({side}, {type}) at {hex}: {blocks} blocks.",
                id=str(u["id"]),
                side=str(u["side"]),
                type=str(u["type"]),
                hex=str(u["hex"]),
                blocks=str(u["blocks"]),
            )
        )
    for ld in m["leaders"]:  # type: ignore[union-attr]
        assert isinstance(ld, dict)
        lines.append(
            T(
                "Leader {id} ({side}) at {hex}.",
                id=str(ld["id"]),
                side=str(ld["side"]),
                hex=str(ld["hex"]),
            )
        )
    rolled = view.get("last_roll")
    if isinstance(rolled, list):
        for roll in rolled:
            assert isinstance(roll, dict)
            faces = roll.get("faces")
            lines.append(
                T(
                    "Last dice, {by} for {purpose}: {faces}.",
                    by=str(roll.get("by")),
                    purpose=str(roll.get("purpose")),
                    faces=", ".join(str(f) for f in faces) if isinstance(faces, list) else "",
                )
            )
    if prompt is not None:
        lines.append(T("Asked of you: {kinds}.", kinds=", ".join(prompt.kinds)))
    return "\n".join(lines)
