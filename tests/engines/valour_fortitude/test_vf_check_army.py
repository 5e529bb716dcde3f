"""Building an army (digest 3.18, VF-230..VF-240): `check_army` names each problem's place, the
list entry and the rule; `army_points` is the cost; `unit_stats` the values after upgrades."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.valour_fortitude.armies import army_list, army_points, check_army
from games.valour_fortitude.bought_units import BoughtUnit, unit_stats
from games.valour_fortitude.problems import UnknownValueError


def army(
    list_id: str, *brigades: list[dict[str, Any]], limit: int = 250, **cinc: object
) -> dict[str, Any]:
    return {
        "army_list": list_id,
        "points_limit": limit,
        "cinc": {"id": "L-0", **cinc},
        "brigades": [
            {"id": f"BR-{i}", "bg": {"id": f"L-{i}"}, "units": units}
            for i, units in enumerate(brigades, start=1)
        ],
    }


def u(ident: str, profile: str, figures: int, **more: object) -> dict[str, Any]:
    return {"id": ident, "profile": profile, "figures": figures, **more}


def rules_of(problems: list[Any]) -> list[tuple[str, str]]:
    return [(p.path, p.rule) for p in problems]


FRENCH_T38 = army(
    "france_1812_1815",
    [
        u("U1", "linieninfanterie", 24),
        u("U2", "linieninfanterie", 24),
        u("U3", "grenadiere", 24, elite=["melee"]),
        u("U4", "fussartillerie", 1),
    ],
    [
        u("U5", "husaren_jaeger", 12),
        u("U6", "husaren_jaeger", 12),
        u("U7", "linieninfanterie", 12, understrength=True),
    ],
    named_general="napoleon",
)


def test_t38_a_french_army_of_187_points_is_legal() -> None:
    """VF-T38 (VF-233, VF-234, VF-240): Napoleon 25, 2 x line 46, elite grenadiers 27, 2 x
    hussars 44, foot artillery 27, understrength line 18 (12-18 figures) = 187 <= 250."""
    france = army_list("france_1812_1815")
    assert check_army(france, FRENCH_T38) == []
    assert army_points(france, FRENCH_T38) == 187


def test_t38_the_same_characteristic_twice_is_refused() -> None:
    """VF-T38, VF-233: each characteristic may be improved only once."""
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][0]["units"][2]["elite"] = ["melee", "melee"]
    (problem,) = check_army(army_list("france_1812_1815"), doc)
    assert (problem.path, problem.rule) == ("brigades[0].units[2].elite[1]", "VF-233")
    assert "Grenadiere (france_1812_1815.grenadiere)" in problem.message


def test_the_points_limit() -> None:
    """VF-230: the cost may not exceed the agreed limit."""
    france = army_list("france_1812_1815")
    problems = check_army(france, {**FRENCH_T38, "points_limit": 186})
    assert rules_of(problems) == [("points_limit", "VF-230")]
    assert "costs 187 points, more than the limit 186" in problems[0].message
    assert check_army(france, {**FRENCH_T38, "points_limit": 187}) == []


def test_cautious_generals_raise_the_budget() -> None:
    """VF-237: +10 per cautious BG, +20 for a cautious CinC (where the list offers it)."""
    austria = army_list("austria_1809_1815")
    doc = army(
        "austria_1809_1815",
        [u("U1", "grenadiere", 24), u("U2", "grenadiere", 24)],
        [u("U3", "kuerassiere", 9), u("U4", "kuerassiere", 9)],
        limit=86,
    )
    assert army_points(austria, doc) == 116
    assert rules_of(check_army(austria, doc)) == [("points_limit", "VF-230")]
    doc["cinc"]["cautious"] = True
    doc["brigades"][0]["bg"]["cautious"] = True
    assert check_army(austria, doc) == []


def test_lists_without_cautious_generals_refuse_them() -> None:
    """VF-205/VF-237: France offers no "Vorsichtig"."""
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][1]["bg"]["cautious"] = True
    (problem,) = check_army(army_list("france_1812_1815"), doc)
    assert (problem.path, problem.rule) == ("brigades[1].bg.cautious", "VF-237")


def test_named_generals_come_from_the_list() -> None:
    """VF-236: Wellington is British, not French; the Bavarian list has none (GAP-7)."""
    doc = {**FRENCH_T38, "cinc": {"id": "L-0", "named_general": "wellington"}}
    (problem,) = check_army(army_list("france_1812_1815"), doc)
    assert (problem.path, problem.rule) == ("cinc.named_general", "VF-236")
    assert "offered: napoleon, ney, murat, marschall_des_kaiserreichs" in problem.message
    bavarian = army(
        "bavaria_1809_1815",
        [u("U1", "linieninfanterie_1809", 24), u("U2", "linieninfanterie_1809", 24)],
        named_general="napoleon",
    )
    assert rules_of(check_army(army_list("bavaria_1809_1815"), bavarian)) == [
        ("cinc.named_general", "GAP-7")
    ]


def test_brigades_have_two_to_eight_units() -> None:
    """VF-231 (VF-13): a brigade has 2-8 units (VF-246: the starter scenario's brigades)."""
    france = army_list("france_1812_1815")
    lone = army("france_1812_1815", [u("U1", "wehrpflichtige", 24)])
    assert rules_of(check_army(france, lone)) == [("brigades[0].units", "VF-231")]
    crowd = army("france_1812_1815", [u(f"U{i}", "nationalgarde", 24) for i in range(9)])
    assert rules_of(check_army(france, crowd)) == [("brigades[0].units", "VF-231")]
    eight = army("france_1812_1815", [u(f"U{i}", "nationalgarde", 24) for i in range(8)])
    assert check_army(france, eight) == []
    assert rules_of(check_army(france, {**eight, "brigades": []})) == [("brigades", "VF-231")]


def test_figures_within_the_profile() -> None:
    """VF-232: 24-36 figures; understrength halves the range, rounding down (AMB-46) (VF-7:
    the figure bounds come from the army list)."""
    france = army_list("france_1812_1815")
    doc = army("france_1812_1815", [u("U1", "linieninfanterie", 37), u("U2", "husaren_jaeger", 8)])
    assert rules_of(check_army(france, doc)) == [
        ("brigades[0].units[0].figures", "VF-232"),
        ("brigades[0].units[1].figures", "VF-232"),
    ]
    halved = army(
        "france_1812_1815",
        [
            u("U1", "husaren_jaeger", 4, understrength=True),
            u("U2", "husaren_jaeger", 7, understrength=True),
        ],
    )
    assert check_army(france, halved) == []  # 9-14 halved: 4-7
    assert army_points(france, halved) == 2 * (22 - 5)


def test_understrength_is_not_for_detachments_or_artillery() -> None:
    """VF-234: infantry and cavalry except detachments; Austria: infantry only."""
    france = army_list("france_1812_1815")
    doc = army(
        "france_1812_1815",
        [
            u("U1", "infanterieabteilung", 3, understrength=True),
            u("U2", "fussartillerie", 1, understrength=True),
        ],
    )
    assert rules_of(check_army(france, doc)) == [
        ("brigades[0].units[0].understrength", "VF-234"),
        ("brigades[0].units[1].understrength", "VF-234"),
    ]
    austria = army(
        "austria_1809_1815",
        [u("U1", "dragoner", 4, understrength=True), u("U2", "landwehr", 15, understrength=True)],
    )
    assert rules_of(check_army(army_list("austria_1809_1815"), austria)) == [
        ("brigades[0].units[0].understrength", "VF-234")
    ]


def test_militia_pay_less_when_understrength() -> None:
    """VF-234: militia (Austrian Landwehr) lose only 1 point and 1 melee."""
    austria = army_list("austria_1809_1815")
    doc = army(
        "austria_1809_1815",
        [u("U1", "landwehr", 15, understrength=True), u("U2", "grenadiere", 24)],
    )
    assert army_points(austria, doc) == (12 - 1) + 30
    stats = unit_stats(
        austria, BoughtUnit("U1", "austria_1809_1815", "landwehr", 15, understrength=True)
    )
    landwehr = austria.profile("landwehr")
    assert landwehr is not None
    assert (stats.melee, stats.morale) == (landwehr.melee - 1, landwehr.morale)  # type: ignore[operator]
    assert "masse" not in stats.special_rules  # Austrian understrength units lose Masse


def test_large_austrian_cavalry() -> None:
    """VF-235: cavalry, except detachments, double figures, +1 melee, +2 morale, +8 points."""
    austria = army_list("austria_1809_1815")
    doc = army(
        "austria_1809_1815",
        [u("U1", "dragoner", 18, large=True), u("U2", "grenadiere", 24, large=True)],
    )
    assert rules_of(check_army(austria, doc)) == [("brigades[0].units[1].large", "VF-235")]
    assert army_points(austria, doc) == 22 + 8 + 30
    stats = unit_stats(austria, BoughtUnit("U1", "austria_1809_1815", "dragoner", 18, large=True))
    assert (stats.melee, stats.morale) == (5 + 1, 3 + 2)
    france = army("france_1812_1815", [u("U1", "dragoner", 18, large=True), u("U2", "dragoner", 9)])
    assert rules_of(check_army(army_list("france_1812_1815"), france)) == [
        ("brigades[0].units[0].large", "VF-235")
    ]


def test_elite_ranged_is_for_infantry_and_artillery() -> None:
    """VF-233: +1 ranged costs 3 for infantry and 9 for artillery; cavalry cannot buy it."""
    france = army_list("france_1812_1815")
    doc = army(
        "france_1812_1815",
        [
            u("U1", "linieninfanterie", 24, elite=["ranged", "morale"]),
            u("U2", "fussartillerie", 1, elite=["ranged"]),
            u("U3", "dragoner", 9, elite=["ranged"]),
        ],
    )
    assert rules_of(check_army(france, doc)) == [("brigades[0].units[2].elite[0]", "VF-233")]
    assert army_points(france, doc) == (23 + 3 + 4) + (27 + 9) + 22
    bavarian = army(
        "bavaria_1809_1815", [u("U1", "garde", 24, elite=["melee"]), u("U2", "garde", 24)]
    )
    assert rules_of(check_army(army_list("bavaria_1809_1815"), bavarian)) == [
        ("brigades[0].units[0].elite", "GAP-7")
    ]


def test_list_options() -> None:
    """VF-239: Allied disciplined musketry (not militia, +2), 1806 battalion guns (not Jäger),
    Union weapons (one of them)."""
    allied = army(
        "allied_french_british",
        [
            u("U1", "garde", 24, options=["disciplined_musketry", "unpredictable"]),
            u("U2", "miliz", 24, options=["disciplined_musketry"]),
        ],
    )
    assert rules_of(check_army(army_list("allied_french_british"), allied)) == [
        ("brigades[0].units[1].options[0]", "VF-239")
    ]
    saxony = army(
        "prussia_saxony_1806",
        [
            u("U1", "musketiere", 24, options=["battalion_guns"]),
            u("U2", "jaeger_schuetzen", 24, options=["battalion_guns"]),
        ],
    )
    assert rules_of(check_army(army_list("prussia_saxony_1806"), saxony)) == [
        ("brigades[0].units[1].options[0]", "VF-239")
    ]
    assert army_points(army_list("prussia_saxony_1806"), saxony) == 23 + 6 + 29
    union = army(
        "acw_union",
        [
            u("U1", "infanterie_erfahren", 24, options=["repeaters", "breech_loaders"]),
            u("U2", "leichte_artillerie", 1, options=["smoothbore_muskets"]),
            u("U3", "infanterie_erfahren", 24, options=["bayonets"]),
        ],
    )
    problems = check_army(army_list("acw_union"), union)
    assert rules_of(problems) == [
        ("brigades[0].units[0].options[1]", "VF-239"),
        ("brigades[0].units[1].options[0]", "VF-239"),
        ("brigades[0].units[2].options[0]", "VF-239"),
    ]
    assert "exclude each other" in problems[0].message
    assert "rifled musket or carbine" in problems[1].message


def test_option_stats() -> None:
    """VF-239: repeaters +1 ranged and Schnellfeuer; smoothbore muskets cut the range by a
    third (18 -> 12); 1806 reservists -1 morale."""
    union = army_list("acw_union")
    repeaters = unit_stats(
        union, BoughtUnit("U", "acw_union", "infanterie_erfahren", 24, options=("repeaters",))
    )
    assert (repeaters.ranged, repeaters.special_rules[-1]) == (3 + 1, "schnellfeuer")
    smooth = unit_stats(
        union,
        BoughtUnit("U", "acw_union", "infanterie_erfahren", 24, options=("smoothbore_muskets",)),
    )
    assert smooth.range_in == 12
    saxony = army_list("prussia_saxony_1806")
    reservists = unit_stats(
        saxony,
        BoughtUnit(
            "U", "prussia_saxony_1806", "musketiere", 24, options=("reservists",), elite=("melee",)
        ),
    )
    assert (reservists.melee, reservists.morale) == (3 + 1, 4 - 1)


def test_unknown_values_are_refused_by_their_gap() -> None:
    """GAP-15: a Union smoothbore battery can be bought (30 points) but not fielded."""
    union = army_list("acw_union")
    doc = army("acw_union", [u("U1", "glattrohrartillerie", 1), u("U2", "leichte_artillerie", 1)])
    assert check_army(union, doc) == []
    with pytest.raises(UnknownValueError, match="GAP-15") as info:
        unit_stats(union, BoughtUnit("U1", "acw_union", "glattrohrartillerie", 1))
    assert info.value.what == "acw_union.glattrohrartillerie.ranged"


def test_allied_contingents_join_british_and_french_armies_only() -> None:
    """VF-238: the Allied list may join British or French armies; other mixes: GAP-8."""
    british = army(
        "britain_1807_1815",
        [
            u("U1", "linieninfanterie", 24),
            u("U2", "grenadiere", 24, list="allied_french_british", elite=["melee"]),
        ],
    )
    assert check_army(army_list("britain_1807_1815"), british) == []
    assert army_points(army_list("britain_1807_1815"), british) == 24 + 20 + 2
    austrian = army(
        "austria_1809_1815",
        [u("U1", "grenadiere", 24), u("U2", "grenadiere", 24, list="allied_french_british")],
    )
    assert rules_of(check_army(army_list("austria_1809_1815"), austrian)) == [
        ("brigades[0].units[1].list", "GAP-8")
    ]


def test_profiles_and_ids() -> None:
    """VF-240: a profile must be in the list; every id is used once."""
    france = army_list("france_1812_1815")
    doc = army("france_1812_1815", [u("U1", "old_guard", 24), u("L-0", "alte_garde", 24)])
    assert rules_of(check_army(france, doc)) == [
        ("brigades[0].units[0].profile", "VF-240"),
        ("brigades[0].units[1].id", "VF-240"),
    ]
    assert rules_of(check_army(france, {**FRENCH_T38, "army_list": "britain_1807_1815"})) == [
        ("army_list", "VF-14")
    ]


def test_malformed_documents_name_the_place() -> None:
    france = army_list("france_1812_1815")
    assert rules_of(check_army(france, [])) == [("", "format")]
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][0]["units"][0]["figures"] = "24"
    doc["brigades"][0]["units"][1]["elite"] = ["speed"]
    doc["brigades"][0]["units"][1]["horses"] = 3
    del doc["brigades"][1]["bg"]
    assert rules_of(check_army(france, doc)) == [
        ("brigades[0].units[0].figures", "format"),
        ("brigades[0].units[1].horses", "format"),
        ("brigades[0].units[1].elite[0]", "format"),
        ("brigades[1].bg", "format"),
    ]
