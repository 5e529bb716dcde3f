"""Setting a game up (digest 3.1, CCN-1..6): the scenario's units with their blocks, leaders,
the shuffled deck and the hands (or the scenario's fixed deal), units that start in square with
their track cards, banners, the first player. The scenario is a shipped one by name or the
game option `scenario_document` (documents.py). A scenario that does not load, or that needs an
unknown value (a gap), is refused with a SetupError naming it."""

from __future__ import annotations

from collections.abc import Mapping

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.deck import (
    DeckError,
    DeckState,
    fixed_deck,
    setup_deck,
    square_at_setup,
)
from games.commands_colors_napoleonics.documents import document_scenario
from games.commands_colors_napoleonics.errors import DataError
from games.commands_colors_napoleonics.illegal import SetupRefused
from games.commands_colors_napoleonics.options import SCENARIO_DOCUMENT, game_option_problems
from games.commands_colors_napoleonics.scenario_model import Scenario
from games.commands_colors_napoleonics.state import (
    GameState,
    Leader,
    ScenarioDocument,
    Turn,
    Unit,
)
from games.commands_colors_napoleonics.victory import start_of_turn
from games.commands_colors_napoleonics.world import check_profiles, scenario_of
from games.core.i18n import T
from games.core.protocol import JSON, Rejection
from games.core.rng import Rng


def _refusals(e: DataError, name: str) -> SetupRefused:
    return SetupRefused(
        [
            Rejection(
                p.rule,
                T("scenario {name}: {problem}", name=name[:40], problem=p.message),
                p.path,
            )
            for p in e.problems
        ][:20]
        or [Rejection("§8.2", T("scenario {name} does not load", name=name[:40]))]
    )


def load_or_refuse(name: str) -> object:
    try:
        return scenario_of(name)
    except DataError as e:
        raise _refusals(e, name) from None


def resolve(name: str, options: Mapping[str, JSON]) -> tuple[Scenario, ScenarioDocument | None]:
    """The scenario of a new game: the shipped one named `name`, or the option
    `scenario_document` (read by the same loader and checks; its `id` must be `name`)."""
    bad = game_option_problems(options)
    if bad:
        raise SetupRefused(bad)
    text = options.get(SCENARIO_DOCUMENT)
    if not isinstance(text, str):
        load_or_refuse(name)
        return scenario_of(name), None
    doc = ScenarioDocument.of(text)
    try:
        s = document_scenario(doc)
    except DataError as e:
        raise _refusals(e, name) from None
    if s.id != name:
        raise SetupRefused(
            Rejection(
                "§8.2",
                T(
                    "the scenario document is {doc_id}, not the game's scenario {name}",
                    doc_id=repr(s.id)[:60],
                    name=repr(name)[:60],
                ),
                f"/options/{SCENARIO_DOCUMENT}",
            )
        )
    return s, doc


def _deck(s: Scenario, rng: Rng) -> DeckState:
    """The deal (CCN-3): shuffled, or the scenario's fixed deal (8.2 `deck`); then a card from
    the hand under the marker of each unit that starts in square (CCN-123, CCN-124)."""
    sizes = {side.value: s.sides[side].hand_size for side in sorted(s.sides, key=str)}
    try:
        if s.deck is None:
            deck = setup_deck(BASE, rng, sizes)
        else:
            hands = {side.value: s.deck.hands[side] for side in sorted(s.deck.hands, key=str)}
            deck = fixed_deck(BASE, rng, s.deck.order, hands)
        for u in sorted(s.units, key=lambda u: (u.side.value, u.in_square or 0)):
            if u.in_square is not None:
                deck = square_at_setup(deck, u.side.value, u.in_square, rng)
    except DeckError as e:  # the loader's checks make this unreachable; kept as a refusal
        raise SetupRefused(
            Rejection(e.rule, T("the scenario's deal and squares do not fit the deck"))
        ) from None
    return deck


def new_game(name: str, options: Mapping[str, JSON], rng: Rng) -> GameState:
    s, doc = resolve(name, options)
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
    units = {
        u.id: Unit(u.id, u.side.value, u.nation, u.type, u.hex, u.blocks, u.blocks, u.in_square)
        for u in s.units
    }
    leaders = {ld.id: Leader(ld.id, ld.side.value, ld.nation, ld.name, ld.hex) for ld in s.leaders}
    state = GameState(
        scenario=s.id,
        units=units,
        leaders=leaders,
        deck=_deck(s, rng),
        banners={side.value: s.sides[side].starting_banners for side in s.sides},  # CCN-5
        held={o.id: 0 for o in s.objectives},
        active=s.first_player.value,  # CCN-6
        turn_no=1,
        phase="card",
        turn=Turn(),
        document=doc,
    )
    start_of_turn(state)
    return state
