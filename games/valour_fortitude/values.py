"""Values the rules compute from a unit alone: formation classes, movement allowances, the
modifier pipeline (VF-2), shaken (VF-100), hit tests with rerolls (VF-3, VF-94)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.valour_fortitude.state import Formation, Unit


def is_cavalry(unit: Unit) -> bool:
    return unit.category.value == "cavalry"


def is_infantry(unit: Unit) -> bool:
    return unit.category.value == "infantry"


def is_artillery(unit: Unit) -> bool:
    return unit.category.value == "artillery"


def has(unit: Unit, rule: str) -> bool:
    return rule in unit.stats.special_rules


def in_march_column(unit: Unit) -> bool:
    """VF-9, VF-11: march column, and limbered artillery counts as one."""
    return unit.formation is Formation.MARCH_COLUMN or bool(unit.limbered)


def shaken(unit: Unit) -> bool:
    """VF-100."""
    return unit.casualties >= unit.stats.morale


def allowance(unit: Unit) -> int:
    """VF-57, with square (VF-141: 3), open order (VF-146: infantry 9, cavalry 18) and company
    column (VF-152: 8); horse and heavy artillery are not built (refused where they arise)."""
    if unit.formation is Formation.OPEN_ORDER:
        return 18 if is_cavalry(unit) else 9
    if is_cavalry(unit):
        return 18
    if is_artillery(unit):
        return 12 if unit.limbered else 3
    if unit.formation is Formation.SQUARE:
        return 3
    if unit.formation is Formation.COMPANY_COLUMN:
        return 8
    if unit.formation in (Formation.MARCH_COLUMN, Formation.ATTACK_COLUMN):
        return 12
    return 8


def pipeline(base: int, halvings: int, additions: Sequence[int]) -> int:
    """VF-2: halve first (at most once), then add; never below 1 for a value that was 1 or
    more (AMB-2)."""
    value = base // 2 if halvings else base
    value += sum(additions)
    return max(value, 1) if base >= 1 else max(value, 0)


def hit_tests(
    roll: Callable[[int], list[int]],
    dice: int,
    modifier: int,
    reroll_ones: bool,
) -> tuple[list[int], int]:
    """VF-94, VF-3: `dice` D6, rerolling natural 1s once when a rule allows it (VF-153..155),
    each hitting on 4+ after the modifier (natural 6 hits, natural 1 misses). Returns the
    final faces and the hits."""
    faces = roll(dice)
    if reroll_ones:
        faces = [roll(1)[0] if f == 1 else f for f in faces]
    hits = 0
    for f in faces:
        if f == 6 or (f != 1 and f + modifier >= 4):
            hits += 1
    return faces, hits
