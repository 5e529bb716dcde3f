"""game_create answers a ruleset's SetupError (games.core.protocol) with a 400 naming the rule,
and catches nothing else: an engine's other exceptions are bugs, not bad requests."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.core.protocol import GameConfig, SetupError
from games.core.rng import Rng
from pbem.play.models import Game
from pbem.play.services import games as services
from pbem.play.services.games import BadGameRequest, game_create


def _create(alice: User, bob: User, options: dict[str, object]) -> Game:
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options=options,  # type: ignore[arg-type]
        seats={"allied": alice, "french": bob},
        creator=alice,
        accepted=True,
    )


def test_a_refused_option_is_a_bad_request_naming_the_rule(alice: User, bob: User) -> None:
    with pytest.raises(BadGameRequest) as err:
        _create(alice, bob, {"colour": "red"})
    assert str(err.value) == (
        "the game cannot be set up: NT-19 (/options/colour): unknown option 'colour'"
    )
    assert not Game.objects.exists()


class _Refusing:
    """The real ruleset, whose set-up raises what it is told to."""

    def __init__(self, error: Exception) -> None:
        from games.napoleons_triumph import RULESET

        self._real, self._error = RULESET, error

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)

    def setup(self, config: GameConfig, rng: Rng) -> object:
        raise self._error


def test_any_ruleset_setup_error_is_a_bad_request(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    refusing = _Refusing(SetupError.of("X-7", "no such weather", "/options/weather"))
    monkeypatch.setattr(services, "ruleset_get", lambda ruleset_id: refusing)
    with pytest.raises(BadGameRequest, match=r"set up: X-7 \(/options/weather\): no such weather"):
        _create(alice, bob, {})


def test_another_engine_exception_is_not_a_bad_request(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    refusing = _Refusing(KeyError("an engine bug"))
    monkeypatch.setattr(services, "ruleset_get", lambda ruleset_id: refusing)
    with pytest.raises(KeyError, match="an engine bug"):
        _create(alice, bob, {})
    assert not Game.objects.exists()
