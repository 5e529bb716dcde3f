"""Setting a game up (digest 3.1, CCN-1..6): the scenario's units with their blocks, leaders,
the shuffled deck and the hands, banners, the first player. A scenario that does not load, or
that needs an unknown value (a gap), is refused with a SetupError naming it."""

from __future__ import annotations

from collections.abc import Mapping

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.deck import setup_deck
from games.commands_colors_napoleonics.errors import DataError
from games.commands_colors_napoleonics.illegal import SetupRefused
from games.commands_colors_napoleonics.state import GameState, Leader, Turn, Unit
from games.commands_colors_napoleonics.victory import start_of_turn
from games.commands_colors_napoleonics.world import check_profiles, scenario_of
from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.core.rng import Rng


def load_or_refuse(name: str) -> object:
    try:
        return scenario_of(name)
    except DataError as e:
        raise SetupRefused(
            [
                Rejection(
                    p.rule,
                    T("scenario {name}: {problem}", name=name[:40], problem=p.message),
                    p.path,
                )
                for p in e.problems
            ][:20]
            or [Rejection("§8.2", T("scenario {name} does not load", name=name[:40]))]
        ) from None


def new_game(name: str, options: Mapping[str, JSON], rng: Rng) -> GameState:
    if options:
        key = sorted(options)[0]
        raise SetupRefused(
            Rejection(
                "§6",
                T(
                    "unknown option {key}; set ruleset options in the scenario file",
                    key=repr(key)[:40],
                ),
                "/options",
            )
        )
    load_or_refuse(name)
    s = scenario_of(name)
    bad = check_profiles(s)
    if bad:
        raise SetupRefused(
            [
                Rejection(
                    e.gap,
                    T(
                        "{path} needs an unknown value: {what} ({gap})",
                        path=path,
                        what=e.what,
                        gap=e.gap,
                    ),
                    path,
                )
                for path, e in bad
            ]
        )
    if s.deck is not None:  # a fixed deal (tests)
        raise SetupRefused(Rejection("§8.2", T("fixed deals are not supported yet"), "/deck"))
    units = {
        u.id: Unit(u.id, u.side.value, u.nation, u.type, u.hex, u.blocks, u.blocks) for u in s.units
    }
    leaders = {ld.id: Leader(ld.id, ld.side.value, ld.nation, ld.name, ld.hex) for ld in s.leaders}
    for u in s.units:
        if u.in_square is not None:
            raise SetupRefused(
                Rejection("CCN-121", T("units in square at set-up are not supported"), u.path)
            )
    sizes = {side.value: s.sides[side].hand_size for side in sorted(s.sides, key=str)}  # CCN-3
    deck = setup_deck(BASE, rng, sizes)
    state = GameState(
        scenario=s.id,
        units=units,
        leaders=leaders,
        deck=deck,
        banners={side.value: s.sides[side].starting_banners for side in s.sides},  # CCN-5
        held={o.id: 0 for o in s.objectives},
        active=s.first_player.value,  # CCN-6
        turn_no=1,
        phase="card",
        turn=Turn(),
    )
    start_of_turn(state)
    return state
