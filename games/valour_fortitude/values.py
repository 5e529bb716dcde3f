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
    """VF-57, with square (VF-141: 3), open order (VF-146: infantry 9, cavalry 18), company
    column (VF-152: 8), horse artillery (VF-149: 18/9), heavy artillery (VF-150: 6/1),
    Schnell (VF-160: +6) and the ACW option "extra horses" (+6 limbered)."""
    extra = 6 if has(unit, "schnell") else 0  # VF-160
    if unit.limbered and "extra_horses" in unit.upgrades.options:
        extra += 6  # VF-239: the ACW option "extra horses" (seed L2240, L2415)
    return _base_allowance(unit) + extra


def _base_allowance(unit: Unit) -> int:
    if unit.formation is Formation.OPEN_ORDER:
        return 18 if is_cavalry(unit) else 9
    if is_cavalry(unit):
        return 18
    if is_artillery(unit):
        if has(unit, "artillerie_zu_pferd"):
            return 18 if unit.limbered else 9  # VF-149
        if has(unit, "schwere_artillerie") and not unit.army_list.startswith("acw_"):
            return 6 if unit.limbered else 1  # VF-150 (AMB-37: ACW heavy artillery 12/3)
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
    reroll_failed: bool = False,
) -> tuple[list[int], int]:
    """VF-94, VF-3: `dice` D6, rerolling natural 1s once when a rule allows it (VF-153..155),
    each hitting on 4+ after the modifier (natural 6 hits, natural 1 misses); with
    `reroll_failed` (Ney, VF-208) the failed dice not yet rerolled are rerolled once (a die is
    never rerolled twice, VF-T40). Returns the final faces and the hits."""
    faces = roll(dice)
    rerolled = [False] * len(faces)
    if reroll_ones:
        for i, f in enumerate(faces):
            if f == 1:
                faces[i], rerolled[i] = roll(1)[0], True
    if reroll_failed:
        for i, f in enumerate(faces):
            if not rerolled[i] and not hits_on(f, modifier):
                faces[i], rerolled[i] = roll(1)[0], True
    return faces, sum(1 for f in faces if hits_on(f, modifier))


def hits_on(face: int, modifier: int) -> bool:
    """VF-94, VF-3: 4+ after the modifier; a natural 6 hits, a natural 1 misses."""
    return face == 6 or (face != 1 and face + modifier >= 4)


def double_hits(faces: Sequence[int], modifier: int, threshold: int) -> int:
    """VF-170, VF-171 (AMB-40: the modified roll; a natural 6 always counts): the hits among
    `faces` whose roll reaches `threshold` and so cause a second casualty; a threshold above
    6 means none does."""
    if threshold > 6:
        return 0
    return sum(
        1
        for f in faces
        if hits_on(f, modifier) and (f == 6 or (f != 1 and f + modifier >= threshold))
    )
