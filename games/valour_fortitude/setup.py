"""Setting a game up (VF-20..VF-25, VF-247..VF-251): the starter scenario's example set-up as its
data gives it (armies, terrain, objectives, deployment, the attacker), the options, the fate
decks shuffled (VF-25), and the initiative roll (VF-251) whose winner chooses who begins.
With the option `scenario_document` the scenario is that document's (`documents.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from games.core.i18n import T
from games.core.protocol import JSON, SCENARIO_DOCUMENT, GameConfig, Rejection, SetupError
from games.core.rng import Rng
from games.valour_fortitude import documents
from games.valour_fortitude import match as m
from games.valour_fortitude.reserves import ReserveRules, hold
from games.valour_fortitude.scenario_model import Scenario
from games.valour_fortitude.state import FateState

SCENARIOS = ("starter",)
CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # VF-25
TURN_LIMIT_MAX = 20

# digest 7: each ambiguity's option key; only the default reading is built
AMB_OPTIONS = {
    "scale_15mm_scope": "AMB-1", "min_one_floor_scope": "AMB-2", "round_scope_effects": "AMB-3",
    "halved_casualties_min_one": "AMB-4", "three_rank_formation": "AMB-5",
    "objective_artillery_figures": "AMB-6", "objective_count_rule": "AMB-7",
    "nearest_tie_choice": "AMB-8", "leaders_count_as_units_geometry": "AMB-9",
    "skirmish_support_allows_action": "AMB-10", "auto_activation_first_only": "AMB-11",
    "messenger_distance_from": "AMB-12", "rotation_cost": "AMB-13", "doubling_order": "AMB-14",
    "strike_back_support": "AMB-15", "bg_moves_if_failed": "AMB-16", "tie_break_order": "AMB-17",
    "militia_restriction": "AMB-18", "cavalry_fallback_scope": "AMB-19",
    "line_bonus_basis": "AMB-20", "obscured_count_unit": "AMB-21",
    "canister_melee_support": "AMB-22", "brigade_support_scope": "AMB-23",
    "fresh_bonus_scope": "AMB-24", "auto_flee_attacker": "AMB-25",
    "broken_brigade_resolve": "AMB-26", "resolve_pooled": "AMB-27",
    "reserve_half_rounding": "AMB-28", "mixed_cover": "AMB-29", "occupant_obscured": "AMB-30",
    "occupied_charge_contact": "AMB-31", "allied_contingent_rules": "AMB-32",
    "square_flankable": "AMB-33", "square_change_is_action": "AMB-34",
    "skirmish_support_mixing": "AMB-35", "open_order_single_rank": "AMB-36",
    "acw_heavy_art_move": "AMB-37", "unpredictable_timing": "AMB-38",
    "rocket_support_penalty": "AMB-39", "double_casualty_roll": "AMB-40",
    "veteran_march": "AMB-41", "reroll_order": "AMB-42", "grand_assault_duration": "AMB-43",
    "breakthrough_card": "AMB-44", "brigade_distance_from": "AMB-45",
    "understrength_rounding": "AMB-46", "meeting_light_def": "AMB-47",
    "assault_objective_spacing": "AMB-48", "reserve_entry_timing": "AMB-49",
}  # fmt: skip
OPTIONS = (
    "auto_geometry", "turn_limit", "visibility", "scale_profile", "variant", SCENARIO_DOCUMENT,
)  # fmt: skip


def option_problems(scenario: str, options: Mapping[str, JSON]) -> list[Rejection]:
    out: list[Rejection] = documents.option_problems(options)
    if scenario not in SCENARIOS and SCENARIO_DOCUMENT not in options:
        out.append(
            Rejection("VF-21", T("unknown scenario {name}", name=repr(scenario)), "/scenario")
        )
    for key, value in options.items():
        where = f"/options/{key}"
        if key in AMB_OPTIONS:
            message = T("only the default reading of {amb} is built", amb=AMB_OPTIONS[key])
            out.append(Rejection(AMB_OPTIONS[key], message, where))
        elif key == "auto_geometry" and not isinstance(value, bool):
            out.append(Rejection("4.1", T("auto_geometry is true or false"), where))
        elif key == "turn_limit" and (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 1 <= value <= TURN_LIMIT_MAX
        ):
            out.append(
                Rejection(
                    "VF-24", T("the turn limit is 1 to {n} turns per side", n=TURN_LIMIT_MAX), where
                )
            )
        elif key == "visibility" and value not in ("open", "umpire_filtered"):
            out.append(Rejection("4.6", T("visibility is open or umpire_filtered"), where))
        elif key == "scale_profile" and value != "28mm":
            out.append(Rejection("AMB-1", T("only the 28mm scale profile is built"), where))
        elif key == "variant" and value != "standard":
            out.append(
                Rejection("VF-253", T("the starter scenario's variants are not built"), where)
            )
        elif key not in OPTIONS:
            out.append(Rejection("VF-21", T("unknown option {key}", key=repr(key)), where))
    return out


def _scenario(name: str) -> Scenario:
    """A shipped scenario's set-up (read and checked once per process)."""
    return documents.shipped(name)


def resolve(config: GameConfig) -> tuple[Scenario, m.ScenarioDocument | None]:
    """The scenario of a new game, shipped or from the option `scenario_document`."""
    problems = option_problems(config.scenario, config.options)
    if problems:
        raise SetupError(problems)
    return documents.resolve(config.scenario, config.options)


def new_match(config: GameConfig, rng: Rng) -> m.Match:
    scenario, document = resolve(config)
    game = scenario.state
    limit = config.options.get("turn_limit")
    turn = replace(game.turn, turn_limit=limit if isinstance(limit, int) else game.turn.turn_limit)
    sides = []
    for side in game.sides:  # VF-25: each deck shuffled with the game's dice
        deck = list(CARDS)
        rng.shuffle(deck)
        sides.append(replace(side, fate=FateState(tuple(deck))))
    game = replace(game, turn=turn, sides=tuple(sides))
    attacker = next(s.id for s in game.sides if s.scenario_role == "attacker")
    roll = rng.d6()  # VF-251: the attacker's CinC rolls; 4+ he decides who begins
    decider = attacker if roll >= 4 else m.other(attacker)
    rules = scenario.rules  # VF-122: the scenario's reserve rules
    reserve_rules = ReserveRules(
        rules.reserve_earliest_round, rules.reserve_share, rules.reserve_entry
    )
    flow: dict[str, JSON] = {
        "stage": m.INITIATIVE,
        "auto_geometry": bool(config.options.get("auto_geometry", False)),
        "visibility": str(config.options.get("visibility", "open")),  # 4.6 (view.py)
        "initiative": {"attacker": attacker, "roll": roll, "decider": decider},
        "sheet": None,
        "queue": [],
        "facts": {},
        "pending": None,
        "attacked": [],
        "result": None,
    }
    game = hold(game, flow, {}, reserve_rules)  # the starter example holds no reserves
    return m.Match(game, flow, document=document)
