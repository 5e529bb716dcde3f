"""Formations and formation changes (digest 3.2 and 3.8; VF-8, VF-9, VF-11, VF-60, VF-141,
VF-146, VF-152; GAP-12 for limbering).

A formation change is ordered with an action of the sheet (`formation_before` with a Move,
`formation_after` with a Move or a Withdraw, digest 4.5), as
`{formation, files, ranks, facing?, pivot?, gap_in?}`: the target formation, the figures across
the new front rank and deep (VF-9 classifies the block; the engine checks that it matches), the
new facing (default: the present one), the pivot (index of a middle base of the front rank,
counted from the left; default: the left one of the middle) and, for open order, the gap between
bases (1/4 to 1/2 in, default 1/4).

The bases are the blocks a unit is built from: each base keeps its figures (`per_base`), so a
new block is `across` bases wide, where `files` is `across` times the files of a base. The pivot
base stays where it is and turns to the new facing; the rest of the unit is set up around it
(VF-60). Where exactly is a geometric judgement: `build` proposes the bases and the umpire
confirms or shifts them (`measures.reform_place`).

Artillery (VF-11, GAP-12) changes between unlimbered (line: the gun is the front rank, the limber
within 1 in behind it) and limbered (march column: the limber leads, its rear touching the rear
of the gun, which faces back; the front is the limber's). `bases[0]` is the gun, `bases[1]` the
limber.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal

from games.core.i18n import T
from games.core.protocol import JSON
from games.valour_fortitude.geometry import axes
from games.valour_fortitude.state import BaseRect, Formation, Unit, exact
from games.valour_fortitude.values import has, is_artillery, is_infantry

BLOCKS = (
    Formation.LINE,
    Formation.ATTACK_COLUMN,
    Formation.MARCH_COLUMN,
    Formation.OPEN_ORDER,
    Formation.COMPANY_COLUMN,
)
FIRING = (  # NONE: an occupant shoots in any direction (VF-196)
    *BLOCKS[:2],
    Formation.SQUARE,
    Formation.OPEN_ORDER,
    Formation.COMPANY_COLUMN,
    Formation.NONE,
)
OPEN_GAP_MIN, OPEN_GAP_MAX = Decimal("0.25"), Decimal("0.5")  # VF-146
ARTILLERY_GAP_IN = Decimal("0.5")  # VF-11: within 1 in; proposed as the scenario example's
KEEP_CLEAR_IN = 3.0  # VF-60: more than 3 in from enemy units
MILITIA = ("miliz", "landwehr", "stoisch")  # VF-158, VF-159, AMB-18


class Refused(Exception):
    """A formation change the rules do not allow: its rule and why."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Spec:
    """A formation change as the sheet orders it."""

    formation: Formation
    files: int
    ranks: int
    facing: Decimal | None = None
    pivot: int | None = None
    gap_in: Decimal = OPEN_GAP_MIN


def spec_of(raw: JSON) -> Spec:
    """The sheet's `{formation, files, ranks, facing, pivot, gap_in}` (schema-checked)."""
    assert isinstance(raw, dict)
    facing = raw.get("facing")
    gap = raw.get("gap_in")
    pivot = raw.get("pivot")
    return Spec(
        Formation(str(raw["formation"])),
        int(str(raw.get("files", 0))),
        int(str(raw.get("ranks", 0))),
        None if facing is None else exact(str(facing)) % 360,
        None if pivot is None else int(str(pivot)),
        OPEN_GAP_MIN if gap is None else exact(str(gap)),
    )


# --- classification (VF-9) and the block rules (VF-8) ---


def classify(files: int, ranks: int) -> Formation:
    """VF-9: march column when at most 3 files wide with more ranks than files; else line with
    1 or 2 ranks; else attack column (more than 3 ranks; exactly 3 ranks: AMB-5, default
    attack column)."""
    if files <= 3 and ranks > files:
        return Formation.MARCH_COLUMN
    if ranks <= 2:
        return Formation.LINE
    return Formation.ATTACK_COLUMN


def block_problem(figures: int, formation: Formation, files: int, ranks: int) -> Refused | None:
    """Whether `figures` can stand as a block of `files` x `ranks` in `formation` (VF-8, VF-9,
    VF-146, VF-152)."""
    if files < 1 or ranks < 1:
        return Refused("VF-8", T("a block has at least one file and one rank"))
    if not (ranks - 1) * files < figures <= ranks * files:
        return Refused(
            "VF-8",
            T(
                "{figures} figures do not fill {files} files by {ranks} ranks (only the last "
                "rank may be shorter)",
                figures=figures,
                files=files,
                ranks=ranks,
            ),
        )
    if formation is Formation.OPEN_ORDER:
        if ranks > 4:
            return Refused("VF-146", T("open order is 1 to 4 ranks deep"))
        return None  # AMB-36: the two-rank rule of VF-8 does not apply
    if figures > 6 and ranks < 2:
        return Refused("VF-8", T("a unit of more than 6 figures needs at least 2 ranks"))
    if formation is Formation.COMPANY_COLUMN:
        return None if ranks in (5, 6) else Refused("VF-152", T("company column is 5 or 6 ranks"))
    found = classify(files, ranks)
    if found is not formation:
        return Refused(
            "VF-9",
            T(
                "{files} files by {ranks} ranks is {found}, not {formation}",
                files=files,
                ranks=ranks,
                found=found.value,
                formation=formation.value,
            ),
        )
    return None


def may_adopt(unit: Unit, formation: Formation) -> Refused | None:
    """The special rules that give or bar a formation (VF-11, VF-141, VF-146..VF-148, VF-152,
    VF-155, VF-156)."""
    if is_artillery(unit):
        if formation in (Formation.LINE, Formation.MARCH_COLUMN):
            return None
        return Refused("VF-11", T("artillery is limbered or unlimbered only"))
    if formation is Formation.SQUARE and not (has(unit, "karree") and is_infantry(unit)):
        return Refused("VF-141", T("{unit} cannot form square", unit=unit.id))
    if formation is Formation.OPEN_ORDER and not open_order_allowed(unit):
        return Refused("VF-146", T("{unit} has no open order", unit=unit.id))
    if formation is Formation.COMPANY_COLUMN and (
        not has(unit, "masse") or unit.upgrades.understrength
    ):
        return Refused("VF-152", T("{unit} cannot form company column", unit=unit.id))
    if formation is Formation.ATTACK_COLUMN:
        for rule, vf in (("disziplinierte_schuetzen", "VF-155"), ("diszipliniert", "VF-156")):
            if has(unit, rule):
                return Refused(vf, T("{unit} may not adopt attack column", unit=unit.id))
    if formation is Formation.NONE:
        return Refused("VF-195", T("occupying a feature is not a formation change"))
    return None


def open_order_allowed(unit: Unit) -> bool:
    """VF-146; light infantry and light cavalry have open order (VF-147, VF-148)."""
    return any(
        has(unit, r) for r in ("offene_formation", "leichte_infanterie", "leichte_kavallerie")
    )


def change_problem(unit: Unit, action: str, when: str, spec: Spec, moves: bool) -> Refused | None:
    """Whether the sheet may order this change with this action (VF-60, VF-65, VF-141, VF-152,
    VF-156, VF-158, VF-172, VF-173); `when` is "before" or "after"; `moves`: the action has a
    path."""
    if action == "MOVE" or (action == "WITHDRAW" and when == "after"):
        pass
    elif (
        action == "MARCH"
        and when == "after"
        and (has(unit, "diszipliniert") or has(unit, "veteran"))
    ):
        pass  # VF-156, VF-173 (AMB-41: after a March)
    else:
        return Refused(
            "VF-60",
            T(
                "a formation change is made only before or after a Move or after a Withdraw, "
                "not {when} a {action}",
                when=when,
                action=action,
            ),
        )
    if action != "MOVE" and any(has(unit, r) for r in MILITIA):
        return Refused(
            "VF-158", T("{unit} changes formation only with a Move (AMB-18)", unit=unit.id)
        )
    square = Formation.SQUARE in (unit.formation, spec.formation)
    column = Formation.COMPANY_COLUMN in (unit.formation, spec.formation)
    if moves and square and unit.formation is not spec.formation:
        return Refused("VF-141", T("a unit forming or leaving square may not move"))
    if (moves or action == "WITHDRAW") and column and unit.formation is not spec.formation:
        return Refused("VF-152", T("a unit changing into or out of company column may not move"))
    if moves and has(unit, "unerfahren"):
        return Refused("VF-172", T("{unit} may not move when it changes formation", unit=unit.id))
    if is_artillery(unit):
        return may_adopt(unit, spec.formation)
    return may_adopt(unit, spec.formation) or block_or_square_problem(unit, spec)


def block_or_square_problem(unit: Unit, spec: Spec) -> Refused | None:
    layout = per_base(unit)
    if layout is None:
        return Refused(
            "GAP-10",
            T(
                "the figures of {unit} do not sit on its bases evenly: no block can be built",
                unit=unit.id,
            ),
        )
    fpr, rpb = layout
    n = len(unit.bases)
    if spec.formation is Formation.SQUARE:
        if n < 4:
            return Refused("VF-141", T("a square needs a base on each of its four faces"))
        return None
    if spec.formation is Formation.OPEN_ORDER and not OPEN_GAP_MIN <= spec.gap_in <= OPEN_GAP_MAX:
        return Refused("VF-146", T("open order leaves 1/4 to 1/2 in between bases"))
    problem = block_problem(unit.figures, spec.formation, spec.files, spec.ranks)
    if problem is not None:
        return problem
    across, rows = spec.files // fpr, spec.ranks // rpb
    if spec.files % fpr or spec.ranks % rpb or across > n:
        return Refused(
            "VF-4",
            T(
                "{files} files by {ranks} ranks cannot be made of bases of {fpr} by {rpb}",
                files=spec.files,
                ranks=spec.ranks,
                fpr=fpr,
                rpb=rpb,
            ),
        )
    if rows != math.ceil(n / across) or (rpb > 1 and n % across):
        return Refused(
            "VF-8",
            T("{n} bases do not make {rows} full rows of {across}", n=n, rows=rows, across=across),
        )
    return None


# --- the bases ---


def facing_of(unit: Unit) -> Decimal:
    """The facing of the unit's front: its first front-rank base's."""
    front = [b for b in unit.bases if b.front_rank] or list(unit.bases)
    return front[0].facing_deg


def front_face(unit: Unit) -> list[BaseRect]:
    """The front rank (for a square, its front face), from left to right."""
    facing = facing_of(unit)
    front = [b for b in unit.bases if b.front_rank and b.facing_deg == facing]
    _, (rx, ry) = axes(facing)
    return sorted(front, key=lambda b: float(b.x) * rx + float(b.y) * ry)


def per_base(unit: Unit) -> tuple[int, int] | None:
    """(files, ranks) of figures on one base, read from the unit's present block."""
    n, front = len(unit.bases), len(front_face(unit))
    if not n or not front or unit.figures % n or unit.files % front:
        return None
    fpb, fpr = unit.figures // n, unit.files // front
    if not fpr or fpb % fpr:
        return None
    return fpr, fpb // fpr


def middle_pivots(unit: Unit) -> list[int]:
    """VF-60: the base(s) of the middle of the front rank (two when they are equally near)."""
    n = len(front_face(unit))
    return sorted({(n - 1) // 2, n // 2})


def pivot_base(unit: Unit, spec: Spec) -> BaseRect:
    front = front_face(unit)
    middle = middle_pivots(unit)
    index = middle[0] if spec.pivot is None else spec.pivot
    if index not in middle:
        raise Refused("VF-60", T("the pivot must be a base from the middle of the front rank"))
    return front[index]


def _at(
    px: float,
    py: float,
    facing: Decimal,
    offset: tuple[float, float],
    size: BaseRect,
    front: bool,
    turn: int = 0,
) -> BaseRect:
    """A base of `size`'s width and depth, `offset` (ahead, right) from (px, py) in the frame
    of `facing`, facing `turn` degrees to the right of it."""
    (fx, fy), (rx, ry) = axes(facing)
    ahead, right = offset
    x, y = px + fx * ahead + rx * right, py + fy * ahead + ry * right
    turned = exact((facing + turn) % 360)
    return BaseRect(
        exact(repr(round(x, 3))), exact(repr(round(y, 3))), turned, size.width, size.depth, front
    )


def build(unit: Unit, spec: Spec) -> tuple[BaseRect, ...]:
    """The proposed bases after the change (VF-60): the pivot stays and turns, the rest is set
    up around it. Raises `Refused` for a pivot that is not in the middle of the front rank."""
    if is_artillery(unit):
        return _artillery(unit, spec)
    pivot = pivot_base(unit, spec)
    facing = pivot.facing_deg if spec.facing is None else spec.facing
    others = [b for b in unit.bases if b is not pivot]
    if spec.formation is Formation.SQUARE:
        slots = _square_slots(len(unit.bases), float(pivot.width), float(pivot.depth))
    else:
        gap = float(spec.gap_in) if spec.formation is Formation.OPEN_ORDER else 0.0
        layout = per_base(unit)
        assert layout is not None
        across = spec.files // layout[0]
        slots = _block_slots(len(unit.bases), across, float(pivot.width), float(pivot.depth), gap)
    # slots: (ahead, right, turn, front) around the pivot's slot, which comes first
    px, py = float(pivot.x), float(pivot.y)
    out = []
    for base, (ahead, right, turn, front) in zip([pivot, *others], slots, strict=True):
        out.append(_at(px, py, facing, (ahead, right), base, front, turn))
    return tuple(out)


Slot = tuple[float, float, int, bool]


def _block_slots(n: int, across: int, w: float, d: float, gap: float) -> list[Slot]:
    """Rows of `across` bases (the last one centred), the pivot's slot first: the middle of
    the front row (the left one of two)."""
    rows = math.ceil(n / across)
    slots: list[Slot] = []
    for row in range(rows):
        count = min(across, n - row * across)
        for col in range(count):
            right = (col - (count - 1) / 2) * (w + gap)
            slots.append((-row * (d + gap), right, 0, row == 0))
    pivot = (across - 1) // 2
    px = slots[pivot][1]
    moved = [(a, r - px, t, f) for a, r, t, f in slots]
    return [moved[pivot], *moved[:pivot], *moved[pivot + 1 :]]


def _square_slots(n: int, w: float, d: float) -> list[Slot]:
    """VF-141: four faces of bases facing outwards, a closed pinwheel of side
    ceil(n/4)*w + d (digest 5.2); the front face first, the pivot in its middle."""
    k = math.ceil(n / 4)
    side = k * w + d
    h = side / 2
    counts = [n // 4 + (1 if i < n % 4 else 0) for i in range(4)]
    faces: list[list[Slot]] = [[], [], [], []]
    for i in range(k):
        along = -h + w / 2 + i * w
        faces[0].append((h - d / 2, along, 0, True))  # front, facing ahead
        faces[1].append((h - w / 2 - i * w, h - d / 2, 90, True))  # right side
        faces[2].append((-h + d / 2, h - w / 2 - i * w, 180, True))  # rear
        faces[3].append((-h + w / 2 + i * w, -h + d / 2, 270, True))  # left side
    slots = [s for face, c in zip(faces, counts, strict=True) for s in face[:c]]
    pivot = (counts[0] - 1) // 2
    pa, pr = slots[pivot][0], slots[pivot][1]
    moved = [(a - pa, r - pr, t, f) for a, r, t, f in slots]
    return [moved[pivot], *moved[:pivot], *moved[pivot + 1 :]]


def _artillery(unit: Unit, spec: Spec) -> tuple[BaseRect, ...]:
    """VF-11, GAP-12: the front-rank base is the pivot. Limbering: the limber leads, facing
    the new way, its rear touching the rear of the gun, which faces back. Unlimbering: the gun
    faces the new way, the limber 0.5 in behind it."""
    if len(unit.bases) != 2:
        raise Refused("VF-11", T("an artillery unit is two bases: a gun and a limber"))
    gun, limber = unit.bases
    pivot = gun if gun.front_rank else limber
    facing = facing_of(unit) if spec.facing is None else spec.facing
    px, py = float(pivot.x), float(pivot.y)
    reach = float(gun.depth + limber.depth) / 2
    if spec.formation is Formation.MARCH_COLUMN:  # limbered: the limber leads
        start = 0.0 if pivot is gun else -reach
        new_gun = _at(px, py, facing, (start, 0), gun, False, 180)
        new_limber = _at(px, py, facing, (start + reach, 0), limber, True)
    else:  # unlimbered: the gun in front, the limber 0.5 in behind it
        apart = reach + float(ARTILLERY_GAP_IN)
        start = 0.0 if pivot is gun else apart
        new_gun = _at(px, py, facing, (start, 0), gun, True)
        new_limber = _at(px, py, facing, (start - apart, 0), limber, False)
    return new_gun, new_limber


def changed(unit: Unit, spec: Spec, bases: tuple[BaseRect, ...]) -> Unit:
    """The unit in its new formation on `bases`."""
    flags = replace(unit.turn_flags, changed_formation_this_round=True)
    if is_artillery(unit):
        limbered = spec.formation is Formation.MARCH_COLUMN
        return replace(
            unit, formation=spec.formation, limbered=limbered, bases=bases, turn_flags=flags
        )
    files, ranks = spec.files, spec.ranks
    if spec.formation is Formation.SQUARE:
        layout = per_base(unit)
        assert layout is not None
        face = sum(1 for b in bases if b.facing_deg == bases[0].facing_deg)
        files, ranks = face * layout[0], layout[1]
    return replace(
        unit, formation=spec.formation, files=files, ranks=ranks, bases=bases, turn_flags=flags
    )


def choices(unit: Unit) -> list[Spec]:
    """The formations the unit could be ordered into from its present bases (random play)."""
    if is_artillery(unit):
        return [Spec(Formation.MARCH_COLUMN if not unit.limbered else Formation.LINE, 0, 0)]
    layout = per_base(unit)
    if layout is None:
        return []
    fpr, rpb = layout
    n = len(unit.bases)
    out = []
    for across in range(1, n + 1):
        rows = math.ceil(n / across)
        if rpb > 1 and n % across:
            continue
        files, ranks = across * fpr, rows * rpb
        kinds = [classify(files, ranks), Formation.OPEN_ORDER, Formation.COMPANY_COLUMN]
        for formation in kinds:
            spec = Spec(formation, files, ranks)
            if may_adopt(unit, formation) is None and block_or_square_problem(unit, spec) is None:
                out.append(spec)
    if may_adopt(unit, Formation.SQUARE) is None and n >= 4:
        out.append(Spec(Formation.SQUARE, 0, 0))
    return out


def spec_json(spec: Spec) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "formation": spec.formation.value,
        "files": spec.files,
        "ranks": spec.ranks,
    }
    if spec.facing is not None:
        out["facing"] = str(spec.facing)
    return out


# --- what a formation does (VF-57, VF-141, VF-146, VF-152) ---


def ranged_halved(unit: Unit) -> bool:
    """VF-141 square, VF-152 company column, VF-146 open order 3 or 4 ranks deep."""
    if unit.occupying is not None:
        return is_infantry(unit)  # VF-199
    if unit.formation in (Formation.SQUARE, Formation.COMPANY_COLUMN):
        return True
    return unit.formation is Formation.OPEN_ORDER and unit.ranks >= 3


def melee_bonus(unit: Unit, in_cover: bool) -> int:
    """VF-141, VF-152: +1 in square or company column; VF-146: -1 in open order out of
    cover."""
    if unit.formation in (Formation.SQUARE, Formation.COMPANY_COLUMN):
        return 1
    if unit.formation is Formation.OPEN_ORDER and not in_cover:
        return -1
    return 0


def shooting_casualties(unit: Unit, hits: int, in_cover: bool) -> tuple[int, str | None]:
    """VF-146 open order, VF-147 light infantry in cover: casualties of the shooting phase
    halved, once only (VF-2), never below 1 (AMB-4). Returns the casualties and the rule."""
    rule = None
    if unit.formation is Formation.OPEN_ORDER:
        rule = "VF-146"
    elif in_cover and has(unit, "leichte_infanterie"):
        rule = "VF-147"
    if rule is None or hits <= 0:
        return hits, None
    return max(1, hits // 2), rule


def square_test_outcome(face: int, modifier: int) -> str:
    """VF-142: "loss" (1 casualty and withdraw) on 1-3, "withdraw" on 4-5, "stay" on 6+; a
    natural 6 always stays and a natural 1 always fails (VF-3)."""
    if face == 1:
        return "loss"
    total = 6 if face == 6 else face + modifier
    return "loss" if total <= 3 else "withdraw" if total <= 5 else "stay"


def square_like(unit: Unit, attacking: bool) -> bool:
    """VF-142: a square; VF-152: a company column counts as one for attacking cavalry."""
    if unit.formation is Formation.SQUARE:
        return True
    return attacking and unit.formation is Formation.COMPANY_COLUMN
