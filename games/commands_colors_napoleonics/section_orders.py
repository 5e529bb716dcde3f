"""The section cards' orders (digest 2.2, CCN-14, CCN-15, CCN-185..188; rulebook L57, L195,
L226): a card's quotas per section, and the rule that a hex on a section line may fill either
section's quota, as functions over a predicate "is this piece in section S", so they need no
board.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TypeVar

from games.commands_colors_napoleonics.board import Section
from games.core.protocol import Rejection

P = TypeVar("P", bound=Hashable)
COMMAND = "command"  # a quota equal to the command value (CCN-10, CCN-187)
SECTION_ORDER: tuple[Section, ...] = (Section.LEFT, Section.CENTER, Section.RIGHT)


def section_quotas(
    orders: Mapping[Section, int | str], command_value: int, *, mirrored: bool = False
) -> dict[Section, int]:
    """A section card's quotas, "command" resolved to the command value (CCN-187); `mirrored`
    swaps left and right, for a Counter-attack copying a section card (CCN-193)."""
    out = dict.fromkeys(SECTION_ORDER, 0)
    for section, quota in orders.items():
        value = command_value if quota == COMMAND else quota
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"bad quota {quota!r} for {section}")
        out[section.mirrored if mirrored else section] = value
    return out


def _matcher(
    quotas: Mapping[Section, int], in_section: Callable[[P, Section], bool]
) -> tuple[dict[Section, list[P]], Callable[[P], bool]]:
    holders: dict[Section, list[P]] = {s: [] for s in SECTION_ORDER}

    def place(piece: P, seen: set[Section]) -> bool:
        for section in SECTION_ORDER:
            if section in seen or quotas.get(section, 0) <= 0 or not in_section(piece, section):
                continue
            seen.add(section)
            if len(holders[section]) < quotas[section]:
                holders[section].append(piece)
                return True
            for other in list(holders[section]):  # move one holder to another section
                holders[section].remove(other)
                if place(other, seen):
                    holders[section].append(piece)
                    return True
                holders[section].append(other)
        return False

    return holders, lambda piece: place(piece, set())


def assign_sections(
    pieces: Sequence[P],
    quotas: Mapping[Section, int],
    in_section: Callable[[P, Section], bool],
) -> dict[P, Section] | None:
    """A section for every piece within the quotas, a dual-hex piece in either of its sections
    (2.2); None when the pieces cannot all be ordered by these quotas."""
    holders, place = _matcher(quotas, in_section)
    if len(set(pieces)) != len(pieces) or not all(place(p) for p in pieces):
        return None
    return {p: s for s, held in holders.items() for p in held}


def max_section_orders(
    pieces: Sequence[P],
    quotas: Mapping[Section, int],
    in_section: Callable[[P, Section], bool],
) -> int:
    """How many of `pieces` the quotas can order at most (unused orders are lost, CCN-15)."""
    _, place = _matcher(quotas, in_section)
    return sum(1 for p in dict.fromkeys(pieces) if place(p))


def check_charges(
    charges: Mapping[P, Section],
    quotas: Mapping[Section, int],
    in_section: Callable[[P, Section], bool],
) -> list[Rejection]:
    """The player's charges (piece -> the section its order is charged to) against the quotas:
    each piece in its section (a dual hex in either, CCN-14), no quota exceeded (CCN-188)."""
    problems = [
        Rejection("CCN-14", f"{piece} is not in the {section.value} section")
        for piece, section in charges.items()
        if not in_section(piece, section)
    ]
    for section in SECTION_ORDER:
        used = sum(1 for s in charges.values() if s is section)
        if used > quotas.get(section, 0):
            problems.append(
                Rejection(
                    "CCN-188",
                    f"{used} orders in the {section.value} section, the card allows "
                    f"{quotas.get(section, 0)}",
                )
            )
    return problems
