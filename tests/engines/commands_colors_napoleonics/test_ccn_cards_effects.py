"""What the cards order and add (digest 2.2, 3.22; card_effects.py, section_orders.py): section
quotas with the dual hex, Counter-attack's mirror, the tactic cards' eligible units, move rules
and dice, Élan and Rally faces."""

from __future__ import annotations

from collections.abc import Mapping

from games.commands_colors_napoleonics.board import Section
from games.commands_colors_napoleonics.card_effects import (
    EFFECTS,
    After,
    MoveRule,
    Piece,
    card_bonus,
    elan_orders,
    fallback_applies,
    may_order,
    move_rules,
    rally_blocks,
)
from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.dice import Face
from games.commands_colors_napoleonics.section_orders import (
    assign_sections,
    check_charges,
    max_section_orders,
    section_quotas,
)
from games.commands_colors_napoleonics.terrain import Combat, UnitClass

L, C, R = Section.LEFT, Section.CENTER, Section.RIGHT
INF, CAV, ART = UnitClass.INF, UnitClass.CAV, UnitClass.ART
RANGED, MELEE = Combat.RANGED, Combat.MELEE

# Digest 9.1: the example scenario's pieces and their sections, in the owner's perspective.
FRENCH: Mapping[str, frozenset[Section]] = {
    "F-LN1": frozenset({C, R}),
    "F-LN2": frozenset({C}),
    "F-L1": frozenset({C}),  # attached to F-LN2; its own piece when it detaches
    "F-LN3": frozenset({L}),
    "F-LT1": frozenset({R}),
    "F-LC1": frozenset({L}),
    "F-FA1": frozenset({R}),
}
BRITISH: Mapping[str, frozenset[Section]] = {
    "B-LN1": frozenset({L}),
    "B-LN2": frozenset({C}),
    "B-L1": frozenset({C}),
    "B-RI1": frozenset({R}),
    "P-LN1": frozenset({C, R}),
    "B-HC1": frozenset({R}),
    "B-FA1": frozenset({C}),
    "P-L1": frozenset({C}),
}


def quotas(code: str, command_value: int = 0, *, mirrored: bool = False) -> dict[Section, int]:
    return section_quotas(BASE.cards[code].section_orders(), command_value, mirrored=mirrored)


def fr(piece: str, section: Section) -> bool:
    return section in FRENCH[piece]


def br(piece: str, section: Section) -> bool:
    return section in BRITISH[piece]


def test_tc34_tc44_dual_hex_orders_by_either_section() -> None:
    """TC-34: F-LN1 (CENTER + RIGHT for the French) may be ordered by Probe Center or Probe
    Right, not Probe Left. TC-44: French Attack Right orders F-LN1, F-LT1, F-FA1; French Probe
    Left orders F-LN3 and F-LC1; British Attack Right orders B-RI1, P-LN1, B-HC1."""
    assert assign_sections(["F-LN1"], quotas("PROBE_CENTER"), fr) == {"F-LN1": C}
    assert assign_sections(["F-LN1"], quotas("PROBE_RIGHT"), fr) == {"F-LN1": R}
    assert assign_sections(["F-LN1"], quotas("PROBE_LEFT"), fr) is None
    assert assign_sections(["F-LN1", "F-LT1", "F-FA1"], quotas("ATTACK_RIGHT"), fr) is not None
    assert assign_sections(["F-LN3", "F-LC1"], quotas("PROBE_LEFT"), fr) == {
        "F-LN3": L,
        "F-LC1": L,
    }
    assert max_section_orders(list(FRENCH), quotas("PROBE_LEFT"), fr) == 2
    assert assign_sections(["B-RI1", "P-LN1", "B-HC1"], quotas("ATTACK_RIGHT"), br) is not None
    assert max_section_orders(list(BRITISH), quotas("ATTACK_RIGHT"), br) == 3


def test_tc44_british_attack_center_any_three() -> None:
    """TC-44: British Attack Center: any 3 of B-LN2 (its leader goes with it on one order),
    P-LN1, B-FA1 and P-L1, or B-L1 on its own order to detach; never 4."""
    centre = ["B-LN2", "P-LN1", "B-FA1", "P-L1"]
    for left_out in centre:
        chosen = [p for p in centre if p != left_out]
        assert assign_sections(chosen, quotas("ATTACK_CENTER"), br) is not None
    assert assign_sections(["B-LN2", "B-L1", "P-LN1"], quotas("ATTACK_CENTER"), br) is not None
    assert assign_sections(centre, quotas("ATTACK_CENTER"), br) is None
    assert max_section_orders(list(BRITISH), quotas("ATTACK_CENTER"), br) == 3


def test_tc08_attack_center_with_a_detached_leader() -> None:
    """TC-08: Attack Center (3 orders): the grenadiers G, their leader L detaching (1 order)
    and the heavy cavalry H, all in the centre."""
    centre = {"G": frozenset({C}), "L": frozenset({C}), "H": frozenset({C}), "X": frozenset({C})}

    def in_centre(piece: str, section: Section) -> bool:
        return section in centre[piece]

    assert assign_sections(["G", "L", "H"], quotas("ATTACK_CENTER"), in_centre) is not None
    assert assign_sections(["G", "L", "H", "X"], quotas("ATTACK_CENTER"), in_centre) is None


def test_a_dual_hex_moves_to_the_section_with_room() -> None:
    """2.2, CCN-188: each section's quota is separate and a dual hex fills either; the matching
    moves an early dual-hex piece to make room (Coordinated Advance: 1 left, 2 centre,
    1 right)."""
    where = {
        "dual": frozenset({L, C}),
        "left": frozenset({L}),
        "c1": frozenset({C}),
        "c2": frozenset({C}),
        "right": frozenset({R}),
    }

    def in_section(piece: str, section: Section) -> bool:
        return section in where[piece]

    card = quotas("COORDINATED_ADVANCE")
    assert card == {L: 1, C: 2, R: 1}
    assert assign_sections(["dual", "left", "c1"], card, in_section) == {
        "left": L,
        "dual": C,
        "c1": C,
    }
    assert assign_sections(["dual", "left", "c1", "c2"], card, in_section) is None
    assert max_section_orders(["dual", "left", "c1", "c2", "right"], card, in_section) == 4
    assert assign_sections(["dual", "dual"], card, in_section) is None  # one order each


def test_charges_checked_against_sections_and_quotas() -> None:
    """CCN-14, CCN-188: the player's charges: each piece in the section it is charged to, no
    quota exceeded."""
    card = quotas("FLANK_ATTACK")
    assert check_charges({"F-LN1": R, "F-LT1": R}, card, fr) == []
    wrong = check_charges({"F-LN2": L}, card, fr)
    assert [r.rule for r in wrong] == ["CCN-14"]
    over = check_charges({"F-LN1": R, "F-LT1": R, "F-FA1": R}, card, fr)
    assert [r.rule for r in over] == ["CCN-188"]


def test_tc23_assault_orders_the_command_value() -> None:
    """CCN-187, TC-23: Assault Center with a command value of 5: up to 5 in the centre."""
    assert quotas("ASSAULT_CENTER", 5) == {L: 0, C: 5, R: 0}


def test_tc33_counter_attack_mirrors_the_section() -> None:
    """CCN-193, TC-33: the top player's last card was Attack Left; the bottom player's
    Counter-attack works as Attack Right, the same part of the board."""
    assert BASE.mirrored("ATTACK_LEFT") == "ATTACK_RIGHT"
    assert quotas("ATTACK_LEFT", mirrored=True) == {L: 0, C: 0, R: 3}
    assert quotas("COORDINATED_ADVANCE", mirrored=True) == {L: 1, C: 2, R: 1}


# --- tactic cards -----------------------------------------------------------------------------

LINE = Piece("line", "line_infantry", INF)
OLD_GUARD = Piece("og", "old_guard", INF)
LIGHT_CAV = Piece("lc", "light_cavalry", CAV)
HEAVY = Piece("hc", "cuirassier", CAV)
FOOT_ART = Piece("fa", "foot_artillery", ART)
HORSE_ART = Piece("ha", "horse_artillery", ART)
LEADER = Piece("ldr")


def test_which_units_a_tactic_card_may_order() -> None:
    """CCN-190..202: each card's unit classes and conditions. Named: CCN-136 (no square for La
    Grande Manoeuvre), CCN-195, CCN-198, CCN-199, CCN-200."""
    assert may_order("bayonet_charge", LINE)
    assert not may_order("bayonet_charge", LIGHT_CAV)
    assert not may_order("bayonet_charge", LEADER)
    assert may_order("bombard", FOOT_ART)
    assert not may_order("bombard", LINE)
    assert may_order("cavalry_charge", HEAVY)
    assert may_order("cavalry_charge", HORSE_ART)
    assert not may_order("cavalry_charge", FOOT_ART)
    assert may_order("fire_and_hold", FOOT_ART)
    assert may_order("fire_and_hold", LINE)
    assert not may_order("fire_and_hold", Piece("x", "line_infantry", INF, adjacent_enemy=True))
    assert not may_order("fire_and_hold", LIGHT_CAV)
    assert may_order("cold_steel", Piece("x", "light_cavalry", CAV, adjacent_enemy=True))
    assert not may_order("cold_steel", LIGHT_CAV)
    assert may_order("leadership", LEADER)
    assert may_order("leadership", Piece("x", "line_infantry", INF, has_leader=True))
    assert not may_order("leadership", LINE)
    assert may_order("la_grande_manoeuvre", LEADER)
    assert may_order("la_grande_manoeuvre", LINE)
    assert not may_order("la_grande_manoeuvre", Piece("x", "line_infantry", INF, in_square=True))
    assert may_order("elan", LEADER)  # through a flag
    for reaction in ("first_strike", "short_supply", "counter_attack"):
        assert not may_order(reaction, LINE)
    assert EFFECTS["bombard"].count == 4
    assert EFFECTS["cavalry_charge"].count == 4


def test_fallback_only_without_any_unit_of_the_kind() -> None:
    """CCN-189: "if you have no X units, order 1 unit of your choice": only with none anywhere
    (an infantry unit next to an enemy still counts for Fire and Hold)."""
    assert fallback_applies("bayonet_charge", [LIGHT_CAV, FOOT_ART])
    assert not fallback_applies("bayonet_charge", [LIGHT_CAV, LINE])
    near = Piece("x", "line_infantry", INF, adjacent_enemy=True)
    assert not fallback_applies("fire_and_hold", [near])
    assert fallback_applies("leadership", [LINE])
    assert not fallback_applies("leadership", [LINE, LEADER])
    assert not fallback_applies("cold_steel", [])  # no fallback on that card


def bonus(effect: str, piece: Piece, combat: Combat, **kw: object) -> int:
    assert piece.unit_type is not None
    assert piece.unit_class is not None
    return card_bonus(
        effect,
        unit_type=piece.unit_type,
        unit_class=piece.unit_class,
        combat=combat,
        **kw,  # type: ignore[arg-type]
    ).dice


def test_card_dice() -> None:
    """3.22: Bayonet Charge +1 melee for guard infantry only; Bombard +2 (+3 guard) when it did
    not move, in melee too (AMB-3); Cavalry Charge +1 (+2 guard) for cavalry, nothing for horse
    artillery; Fire and Hold +1 fire only; Cold Steel +1 melee, not in the bonus melee
    (AMB-23); Leadership and Élan +1; nothing for a fallback order (AMB-18). CCN-69, CCN-191,
    CCN-195."""
    assert (bonus("bayonet_charge", LINE, MELEE), bonus("bayonet_charge", OLD_GUARD, MELEE)) == (
        0,
        1,
    )
    assert bonus("bayonet_charge", OLD_GUARD, RANGED) == 0
    assert bonus("bombard", FOOT_ART, RANGED) == 2
    assert bonus("bombard", Piece("g", "guard_foot_artillery", ART), RANGED) == 3
    assert bonus("bombard", FOOT_ART, RANGED, moved=1) == 0
    assert bonus("bombard", FOOT_ART, MELEE) == 2
    assert bonus("bombard", FOOT_ART, MELEE, options={"bombard_bonus_melee": False}) == 0
    assert bonus("cavalry_charge", LIGHT_CAV, MELEE) == 1
    assert bonus("cavalry_charge", Piece("g", "guard_heavy_cavalry", CAV), MELEE) == 2
    assert bonus("cavalry_charge", LIGHT_CAV, MELEE, bonus_melee=True) == 1  # whole turn
    assert bonus("cavalry_charge", HORSE_ART, RANGED) == 0
    charge = card_bonus("cavalry_charge", unit_type="cuirassier", unit_class=CAV, combat=MELEE)
    assert charge.void_in_buildings
    assert (bonus("fire_and_hold", LINE, RANGED), bonus("fire_and_hold", LINE, MELEE)) == (1, 0)
    assert bonus("cold_steel", LINE, MELEE) == 1
    assert bonus("cold_steel", LIGHT_CAV, MELEE, bonus_melee=True) == 0
    on = {"cold_steel_bonus_plus1": True}
    assert bonus("cold_steel", LIGHT_CAV, MELEE, bonus_melee=True, options=on) == 1
    assert bonus("cold_steel", LINE, RANGED) == 0
    assert bonus("leadership", FOOT_ART, RANGED) == 1
    assert bonus("elan", HEAVY, MELEE) == 1
    assert bonus("bayonet_charge", OLD_GUARD, MELEE, fallback=True) == 0
    assert (
        bonus("elan", HEAVY, MELEE, fallback=True, options={"fallback_gets_card_effects": True})
        == 1
    )
    for none in ("force_march", "rally", "la_grande_manoeuvre", "first_strike", "counter_attack"):
        assert bonus(none, LINE, MELEE) == 0


def test_move_rules() -> None:
    """CCN-190..200: Bayonet Charge infantry 2 and melee; Cavalry Charge heavy cavalry 3 and
    battle; Force March fast infantry 2 and battle, others 1 and battle or 2 without (AMB-22;
    the literal L1246 as the option); La Grande Manoeuvre 4 and no battle. CCN-197."""
    assert move_rules("bayonet_charge", LINE) == (MoveRule("infantry", 2, After.MELEE),)
    assert move_rules("cavalry_charge", HEAVY) == (MoveRule("heavy_cavalry", 3, After.ANY),)
    assert move_rules("cavalry_charge", LIGHT_CAV) == ()
    fast = {
        (r.hexes, r.after) for r in move_rules("force_march", Piece("l", "light_infantry", INF))
    }
    assert (2, After.ANY) in fast
    led = Piece("x", "line_infantry", INF, has_leader=True)
    assert (2, After.ANY) in {(r.hexes, r.after) for r in move_rules("force_march", led)}
    slow = {(r.hexes, r.after) for r in move_rules("force_march", LINE)}
    assert slow == {(1, After.ANY), (2, After.NONE)}
    literal = move_rules("force_march", LINE, {"force_march_other_move2_battle": True})
    assert {(r.hexes, r.after) for r in literal} == {(1, After.ANY), (2, After.ANY)}
    assert move_rules("la_grande_manoeuvre", LEADER) == (MoveRule("leader", 4, After.NONE),)
    assert EFFECTS["la_grande_manoeuvre"].forbids == {"battle"}


def test_elan_and_rally_faces() -> None:
    """CCN-194: each class face orders a unit of that class, a flag any unit or leader, a sabre
    nothing. CCN-201: each class face gives back a block of that class."""
    faces = [Face.INF, Face.INF, Face.CAV, Face.FLAG, Face.SABRE, Face.ART]
    assert elan_orders(faces) == {"INF": 2, "CAV": 1, "ART": 1, "ANY": 1}
    assert rally_blocks(faces) == {INF: 2, CAV: 1, ART: 1}
    assert EFFECTS["elan"].reshuffle
    assert not EFFECTS["rally"].reshuffle
    assert not EFFECTS["first_strike"].phase_one
