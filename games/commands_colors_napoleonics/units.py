"""The unit-type catalogue of the rulebook (digest 2.5): what the seed says of each type, before
any national card (2.6, the nations file) changes it. A scenario unit whose (nation, type) is
missing from the nations file but states its `blocks` uses these values with no national
modifiers (digest 8.2).

Sources: movement CCN-31 [L275-290]; ranges CCN-51 [L370-373]; infantry ranged bonus CCN-56
[L389]; melee bonuses CCN-62, CCN-64, CCN-65 [L481, L492, L500]; sabres CCN-63 [L482]; retreat
CCN-83 [L602, L610]; flags CCN-94 [L623-625]; forest CCN-152 [L924].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.commands_colors_napoleonics.terrain import UnitClass


@dataclass(frozen=True, slots=True)
class UnitType:
    code: str
    unit_class: UnitClass
    max_move: int  # CCN-31
    battle_max_moved: int  # battle only after moving at most this far (-1: see sources)
    ranged_range: int | None  # CCN-51; None: never fires (cavalry, CCN-49)
    ranged_type_bonus: int | None  # CCN-56; None: artillery uses the range table (GAP-1)
    melee_type_bonus: int  # CCN-62, CCN-64, CCN-65
    sabre_hits: bool  # CCN-63
    retreat_per_flag: int  # CCN-83
    ignore_flags: int | None  # CCN-94; None: 1 or 2 per the national card (guard, L625)
    light_infantry: bool  # may battle in the turn it enters a forest (CCN-152)
    sources: str


def _infantry(
    code: str,
    *,
    light: bool = False,
    ranged: int = 0,
    melee: int = 0,
    flags: int | None = 0,
    sabres: bool = True,
    retreat: int = 1,
    range_: int = 2,
    sources: str,
) -> UnitType:
    move, battle = (2, 1) if light else (1, 1)
    return UnitType(
        code,
        UnitClass.INF,
        move,
        battle,
        range_,
        ranged,
        melee,
        sabres,
        retreat,
        flags,
        light,
        sources,
    )


def _cavalry(code: str, *, heavy: bool, flags: int | None = 0, sources: str) -> UnitType:
    move = 2 if heavy else 3
    return UnitType(
        code,
        UnitClass.CAV,
        move,
        move,
        None,
        None,
        1 if heavy else 0,
        True,
        1,
        flags,
        False,
        sources,
    )


def _artillery(
    code: str,
    *,
    move: int,
    battle: int,
    range_: int,
    melee: int = 0,
    flags: int | None = 0,
    sources: str,
) -> UnitType:
    return UnitType(
        code, UnitClass.ART, move, battle, range_, None, melee, True, 1, flags, False, sources
    )


UNIT_TYPES: Mapping[str, UnitType] = {
    t.code: t
    for t in (
        _infantry("line_infantry", sources="L277, L384, L478"),
        _infantry("light_infantry", light=True, ranged=1, sources="L278, L389, L924"),
        # AMB-2: the rifle's +1 ranged die is not given by default
        _infantry(
            "rifle_light_infantry",
            light=True,
            range_=3,
            sabres=False,
            sources="L278, L371, L482, AMB-2",
        ),
        _infantry(
            "grenadier", ranged=1, melee=1, flags=1, sources="L277, L389 (AMB-1), L481, L623"
        ),
        _infantry(
            "guard_grenadier", ranged=1, melee=1, flags=None, sources="L277, L389, L481, L625"
        ),
        _infantry("old_guard", ranged=1, melee=2, flags=None, sources="L277, L389, L481, L625"),
        _infantry(
            "young_guard",
            light=True,
            ranged=1,
            melee=1,
            flags=None,
            sources="L278, L389, L481, L625, L924",
        ),
        _infantry("militia_infantry", sabres=False, retreat=3, sources="L277, L482, L602, L610"),
        _cavalry("light_cavalry", heavy=False, sources="L282, L490"),
        _cavalry("heavy_cavalry", heavy=True, sources="L283, L490-492"),
        _cavalry("cuirassier", heavy=True, flags=1, sources="L283, L492, L624"),
        _cavalry("guard_heavy_cavalry", heavy=True, flags=None, sources="L283, L492, L625"),
        # foot artillery: move 1 and not battle, or stay and battle (CCN-57)
        _artillery(
            "foot_artillery", move=1, battle=0, range_=5, sources="L287, L372, L398-400, L496-499"
        ),
        _artillery(
            "guard_foot_artillery",
            move=1,
            battle=0,
            range_=5,
            melee=1,
            flags=None,
            sources="L287, L372, L500, L625",
        ),
        # horse artillery: battle after moving 1 (not at range 4), never after 2; a 1-block
        # unit never moves and battles in one turn (CCN-57)
        _artillery(
            "horse_artillery", move=2, battle=1, range_=4, sources="L288, L373, L404-408, L502-508"
        ),
    )
}

# Named in the seed, but their data belongs to expansions (GAP-10): refused with the gap named.
EXPANSION_TYPES = frozenset(
    {
        "reserve_infantry",
        "guard_light_infantry",
        "guard_light_cavalry",
        "light_lancer_cavalry",
        "militia_lancer_cavalry",
        "cossack_cavalry",
    }
)
