"""The view in words, for turn-report emails (built only from a role's view and prompt)."""

from __future__ import annotations

from games.core.i18n import T
from games.core.protocol import JSON, Prompt


def report(view: JSON, prompt: Prompt | None) -> str:
    assert isinstance(view, dict)
    game = view["game"]
    assert isinstance(game, dict)
    turn = game["turn"]
    assert isinstance(turn, dict)
    lines = [
        T(
            "Valour & Fortitude, round {round}, phase {phase}, side {side} active",
            round=turn["round"],
            phase=turn["phase"],
            side=turn["active_side"],
        )
    ]
    sides = game["sides"]
    assert isinstance(sides, list)
    for side in sides:
        assert isinstance(side, dict)
        fate = side["fate"]
        assert isinstance(fate, dict)
        lines.append(
            T(
                "Side {side} ({army}): {setbacks} setbacks, {hand} fate cards in hand",
                side=side["id"],
                army=side["army_list"],
                setbacks=side["setbacks"],
                hand=fate["hand_count"],
            )
        )
        hand = fate.get("hand")
        if isinstance(hand, list):
            cards = ", ".join(str(c) for c in hand) or "-"
            lines.append(T("Your fate cards: {cards}", cards=cards))
    units = game["units"]
    assert isinstance(units, list)
    for unit in units:
        assert isinstance(unit, dict)
        where = T("fled") if unit["fled"] else str(unit["formation"])
        lines.append(
            T(
                "{unit} (side {side}, {profile}): {where}, {casualties} casualties",
                unit=unit["id"],
                side=unit["side"],
                profile=unit["profile"],
                where=where,
                casualties=unit["casualties"],
            )
        )
    hidden = view.get("hidden_units")
    if isinstance(hidden, list) and hidden:  # 4.6 umpire_filtered
        lines.append(T("Out of your sight (4.6): {n} enemy units", n=len(hidden)))
    objectives = game["objectives"]
    assert isinstance(objectives, list)
    for obj in objectives:
        assert isinstance(obj, dict)
        holder = obj["controller"] or "-"
        lines.append(T("Objective {objective}: held by {side}", objective=obj["id"], side=holder))
    result = view.get("result")
    if isinstance(result, dict):
        lines.append(str(result.get("summary")))
    if prompt is not None:
        lines.append(prompt.text)
        lines += _how_to_write(view, prompt)
    return "\n".join(lines)


def _how_to_write(view: dict[str, JSON], prompt: Prompt) -> list[str]:
    """How to answer by text (order_text.py), with a short example when it is the reader's
    turn."""
    from games.valour_fortitude.kinds import CONFIRM, FIRST_SIDE, PLAY_FATE, TURN_ORDERS
    from games.valour_fortitude.order_text import example

    if TURN_ORDERS in prompt.kinds:
        head = T(
            "Write your orders one a line (a # starts a comment; points are x,y in inches),"
            " for example:"
        )
        return [head, *(f"    {line}" for line in example(view, prompt.role))]
    if FIRST_SIDE in prompt.kinds:
        return [T("Write: first A, or first B")]
    if PLAY_FATE in prompt.kinds:  # V-01
        return [T("Write: play none, or one line a card: play <card> [unit <unit>]")]
    if CONFIRM in prompt.kinds:
        lines = [T("Write: confirm, or one line a fact: correct <fact> <value> because <reason>")]
        pending = view.get("pending")
        for fact in pending if isinstance(pending, list) else []:
            assert isinstance(fact, dict)
            lines.append(
                T(
                    "    {key}: {fact}, proposed {value} ({rule})",
                    key=fact["key"],
                    fact=fact["fact"],
                    value=repr(fact["value"]),
                    rule=fact["rule"],
                )
            )
        return lines
    return []
