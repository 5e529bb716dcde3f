"""Fixtures for the deadline tests: two players, a Napoleon's Triumph game on the small board,
its set-up played through the real order path, and a clock started at a known moment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine
from django.contrib.auth.models import User

from pbem.play.models import Game
from tests.pbem.deadlines.dl_helpers import T0, new_game, play_setup


@pytest.fixture
def clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def u1(db: None) -> User:
    return User.objects.create_user("dl_allied", "allied@example.com")


@pytest.fixture
def u2(db: None) -> User:
    return User.objects.create_user("dl_french", "french@example.com")


@pytest.fixture
def u3(db: None) -> User:
    return User.objects.create_user("dl_sub", "sub@example.com")


@pytest.fixture
def game(u1: User, u2: User, clock: time_machine.Coordinates) -> Game:
    """An NT game past its set-up, with no clock running yet."""
    g = new_game(u1, u2)
    play_setup(g)
    return g
