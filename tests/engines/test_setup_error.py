"""games.core.protocol.SetupError: the one set-up exception of the engine protocol, and Napoleon's
Triumph raising it (as SetupRefused, also its own Illegal) for every refused option."""

from __future__ import annotations

import pytest

from games.core.protocol import GameConfig, Rejection, SetupError
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.errors import Illegal, SetupRefused


def test_carries_its_rejections() -> None:
    a, b = Rejection("X-1", "bad board", "/options/board"), Rejection("X-2", "bad roles")
    e = SetupError([a, b])
    assert isinstance(e, ValueError)
    assert e.rejections == (a, b)
    assert e.rejection == a
    assert str(e) == "X-1: bad board; X-2: bad roles"


def test_of_one_rule() -> None:
    e = SetupError.of("X-3", "no such scenario", "/scenario")
    assert e.rejections == (Rejection("X-3", "no such scenario", "/scenario"),)


def test_names_at_least_one_rejection() -> None:
    with pytest.raises(ValueError, match="at least one rejection"):
        SetupError([])


@pytest.mark.parametrize(
    ("scenario", "options", "rule", "path"),
    [
        ("DEC2", {"board": "nowhere"}, "NT-19", "/options/board"),
        ("DEC2", {"colour": "red"}, "NT-19", "/options/colour"),
        ("DEC9", {}, "NT-16", "/scenario"),
        ("DEC2", {"roles": {"a": "AL", "b": "AL"}}, "NT-140", "/options/roles"),
        ("DEC2", {"balance": {"side": "F", "reduce": 99}}, "NT-135", ""),
    ],
)
def test_napoleons_triumph_refuses_set_up_with_a_setup_error(
    scenario: str, options: dict[str, object], rule: str, path: str
) -> None:
    with pytest.raises(SetupError) as err:
        RULESET.setup(GameConfig(scenario, options), Rng(1))  # type: ignore[arg-type]
    assert isinstance(err.value, SetupRefused)
    assert isinstance(err.value, Illegal)  # the engine's own tests still catch Illegal
    assert (err.value.rejection.rule, err.value.rejection.path) == (rule, path)
    assert err.value.rejections == (err.value.rejection,)
    assert str(err.value).startswith(f"{rule}: ")
