"""The test oracle of the Commands & Colors browser game: the engine, run on the state read from
the database, says which seat is prompted and chooses its order with its own random player
(`random_legal_action`, as tests/integration/test_ccn_api_game.py does over the API), and says
how the page's order form can express it: picked among the legal choices the form lists, or
written into the kind's JSON payload box. The players enter that; the pages never learn
anything from here.

It also answers the test's checks from the engine: the rule ids a refused order carries, the
position of the newest event a seat's log shows, and the cards of the other hand that a seat
must never see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from games.commands_colors_napoleonics.cards_data import BASE
from games.commands_colors_napoleonics.state import GameState
from games.core.protocol import JSON, Action, random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import numbering_for
from pbem.play.services.log import state_at

RULESET = "commands_colors_napoleonics"
SCENARIO = "example-ford-of-santa-clara"
SIDES = ("top", "bottom")


def form_value(payload: JSON) -> str:
    """A payload as the order form writes a listed choice's value (pbem.web.order_entry)."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def head_state(game_id: str) -> tuple[Game, GameState]:
    game = Game.objects.get(pk=game_id)
    state = state_at(game, game.head_seq, verify=False)
    assert isinstance(state, GameState)
    return game, state


def head_seq(game_id: str) -> int:
    return int(Game.objects.values_list("head_seq", flat=True).get(pk=game_id))


def prompted(game_id: str) -> list[str]:
    """The roles the engine prompts at the head, sorted."""
    _game, state = head_state(game_id)
    return sorted(ruleset_get(RULESET).prompts(state))


def log_position(game_id: str, role: str) -> int:
    """The number the newest event carries in `role`'s log at the head (0: none yet); a page
    that lists it shows the head."""
    game = Game.objects.get(pk=game_id)
    return int(numbering_for(game, [role]).role_seq(game.head_seq))


@dataclass(frozen=True, slots=True)
class Order:
    role: str
    kind: str
    payload: JSON
    listed: bool  # among the legal choices the form lists for the kind

    @property
    def value(self) -> str:
        return form_value(self.payload)


def listed_choices(state: GameState, role: str) -> dict[str, set[str]]:
    """kind -> the form values of the choices the engine lists for it (as the form does)."""
    out: dict[str, set[str]] = {}
    for spec in ruleset_get(RULESET).actions(state, role):
        choices = spec.choices
        payloads = choices.get("payloads") if isinstance(choices, dict) else None
        out[spec.kind] = {form_value(p) for p in payloads} if isinstance(payloads, list) else set()
    return out


@dataclass
class Oracle:
    """Chooses each order (the engine's random player) and remembers what was played."""

    game_id: str
    rng: Rng
    played: list[Order] = field(default_factory=list)

    def choose(self) -> Order | None:
        """The order of the first prompted seat, None when nobody is prompted."""
        _game, state = head_state(self.game_id)
        ruleset = ruleset_get(RULESET)
        roles = sorted(ruleset.prompts(state))
        if not roles:
            return None
        role = roles[0]
        action = random_legal_action(ruleset, state, role, self.rng)
        assert action is not None, f"{role} is prompted but the engine offers nothing"
        listed = form_value(action.payload) in listed_choices(state, role).get(action.kind, ())
        return Order(role, action.kind, action.payload, listed)

    def record(self, order: Order) -> None:
        self.played.append(order)


def refusal(game_id: str, role: str, kind: str, payload: JSON) -> list[str]:
    """The rule ids the engine refuses this order with at the head (empty: it is legal)."""
    _game, state = head_state(game_id)
    return [r.rule for r in ruleset_get(RULESET).validate(state, Action(role, kind, payload))]


def hand(game_id: str, role: str) -> list[str]:
    _game, state = head_state(game_id)
    return list(state.deck.hands[role])


def card_not_in_hand(game_id: str, role: str) -> str:
    """A card code of the deck that `role` does not hold (to be refused playing it)."""
    held = set(hand(game_id, role))
    return next(code for code in BASE.cards if code not in held)


@dataclass(frozen=True, slots=True)
class Secret:
    """What `role` must not read: the codes and names of the other hand's cards that nothing
    public shows (a copy of the same card in the role's own hand, face up, or played before and
    named in the log, is not a secret)."""

    codes: frozenset[str]
    names: frozenset[str]


def secret_of(game_id: str, role: str) -> Secret:
    _game, state = head_state(game_id)
    seen = json.dumps(ruleset_get(RULESET).view(state, role))
    played = {
        str(p.get("card"))
        for p in Event.objects.filter(game_id=game_id, kind="play_card").values_list(
            "payload", flat=True
        )
        if isinstance(p, dict)
    }
    others = [c for side in SIDES if side != role for c in state.deck.hands[side]]
    codes = frozenset(c for c in others if f'"{c}"' not in seen and c not in played)
    names: set[str] = set()
    for code in codes:
        card = BASE.cards[code]
        names.update(n for n in (card.name, card.name_de) if n)
    return Secret(codes, frozenset(names))
