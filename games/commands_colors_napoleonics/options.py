"""The ambiguities of the digest (section 6) as ruleset options: a scenario's `ruleset_options`
may set any of these keys (8.2); an unset key takes the default, the digest's most plausible
reading. This slice reads only `rocky_hill_is_hill` (hill groups); the others are recorded for
the rules that come with later slices.

The game's own options (`GAME_OPTIONS`, checked by `game_option_problems`) are different: the
only one is `scenario_document`, a whole scenario file given as text (bounded)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.core.protocol import SCENARIO_DOCUMENT as SCENARIO_DOCUMENT  # the option's name

OptionValue = bool | str


@dataclass(frozen=True, slots=True)
class AmbOption:
    key: str
    amb: str
    default: OptionValue
    choices: tuple[OptionValue, ...] = (True, False)


AMB_OPTIONS: Mapping[str, AmbOption] = {
    o.key: o
    for o in (
        AmbOption("grenadier_ranged_bonus", "AMB-1", True),  # the rulebook, L389
        AmbOption("rifle_ranged_bonus", "AMB-2", False),
        AmbOption("bombard_bonus_melee", "AMB-3", True),
        AmbOption("terrain_in_out_cumulative", "AMB-4", True),
        AmbOption("hill_to_hill_scope", "AMB-5", "any_hill", ("any_hill", "separate_groups")),
        AmbOption("fieldworks_vertex_protects", "AMB-6", True),
        AmbOption("retreat_into_leader_with_leader", "AMB-7", False),
        AmbOption("retreat_path_must_maximise", "AMB-8", False),
        AmbOption("leader_check_once_per_attack", "AMB-9", True),
        AmbOption("escape_includes_card_bonus", "AMB-10", False),
        AmbOption("leader_retreat_through_enemy_leader", "AMB-11", False),
        AmbOption("rocky_hill_is_hill", "AMB-12", False),
        AmbOption("los_blocked_by_board_edge", "AMB-13", True),
        AmbOption("ca_artillery_adjacent_allowed", "AMB-14", False),
        AmbOption("ca_lost_counts_as_battled", "AMB-14", True),
        AmbOption("square_battle_back_after_cav", "AMB-15", False),
        AmbOption("sand_quarry_battle_on_entry", "AMB-17", True),
        AmbOption("fallback_gets_card_effects", "AMB-18", False),
        AmbOption("counter_attack_copies_first_strike", "AMB-19", False),
        AmbOption("scout_discard_public", "AMB-20", True),
        AmbOption("elan_shuffle_timing", "AMB-21", "phase_5", ("phase_5", "on_play")),
        AmbOption("force_march_other_move2_battle", "AMB-22", False),
        AmbOption("cold_steel_bonus_plus1", "AMB-23", False),
        AmbOption("short_supply_overflow", "AMB-24", "next_row", ("next_row", "no_effect")),
        AmbOption("square_and_first_strike", "AMB-25", False),
        AmbOption("retire_ignores_terrain", "AMB-26", True),
        AmbOption("square_cap_before_terrain", "AMB-27", True),
        AmbOption("cav_downhill_minus1", "AMB-29", True),
        AmbOption(
            "fieldworks_replace_scope", "AMB-33", "any_terrain", ("any_terrain", "hill_only")
        ),
    )
}


def default_options() -> dict[str, OptionValue]:
    return {key: option.default for key, option in AMB_OPTIONS.items()}


# --- the game's own options (GameConfig.options), not the scenario's AMB options -------------

MAX_DOCUMENT_BYTES = 256 * 1024  # a whole ccn-scenario/1 YAML text, UTF-8
GAME_OPTIONS: Mapping[str, str] = {
    SCENARIO_DOCUMENT: "a whole ccn-scenario/1 YAML document, at most 256 KiB UTF-8 (8.2)",
}


def game_option_problems(options: Mapping[str, JSON]) -> list[Rejection]:
    """What is wrong with a game's options: an unknown key (AMB options belong in the scenario
    file, §6), a `scenario_document` that is not a text or is over `MAX_DOCUMENT_BYTES` (§8.2)."""
    out: list[Rejection] = []
    for key in sorted(options):
        if key not in GAME_OPTIONS:
            out.append(
                Rejection(
                    "§6",
                    T(
                        "unknown option {key}; set ruleset options in the scenario file",
                        key=repr(key)[:40],
                    ),
                    "/options",
                )
            )
    text = options.get(SCENARIO_DOCUMENT)
    path = f"/options/{SCENARIO_DOCUMENT}"
    if SCENARIO_DOCUMENT in options and not isinstance(text, str):
        out.append(Rejection("§8.2", T("the scenario document is a YAML text"), path))
    elif isinstance(text, str):
        size = len(text.encode("utf-8", errors="surrogatepass"))
        if size > MAX_DOCUMENT_BYTES:
            out.append(
                Rejection(
                    "§8.2",
                    T(
                        "the scenario document has {size} bytes; at most {limit} are allowed",
                        size=size,
                        limit=MAX_DOCUMENT_BYTES,
                    ),
                    path,
                )
            )
    return out
