"""Recovery of accepted orders that no worker took (a broker outage lost their messages): found
in the database, sent again once per game, applied per game in the order they were accepted."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from pbem.play import tasks
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services import orders, recovery
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_submit
from pbem.play.services.recovery import game_intakes_apply, intakes_recover

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Accepted orders whose message never reaches a worker; the recovery's sends, recorded."""
    monkeypatch.setattr(orders, "_enqueue", lambda intake_id: None)
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(recovery, "enqueue", lambda name, *args: sent.append((name, args)))
    return sent


def _accept(game: Game, user: User, seed: int) -> OrderIntake:
    state = state_at(game, game.head_seq)
    action = random_legal_action(ruleset_get(game.ruleset_id), state, "allied", Rng(seed))
    assert action is not None
    intake = order_submit(
        game=game,
        user=user,
        role="allied",
        kind=action.kind,
        payload=action.payload,
        source="api",
    )
    assert intake.status == OrderIntake.Status.RECEIVED
    return intake


def _second_game(alice: User, bob: User) -> Game:
    return game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
        title="second",
        accepted=True,
    )


def test_one_apply_per_game_is_sent_in_the_order_of_their_oldest_order(
    nt_game: Game, alice: User, bob: User, stranded: list[tuple[str, tuple[Any, ...]]]
) -> None:
    other = _second_game(alice, bob)
    first = _accept(other, alice, 1)
    _accept(nt_game, alice, 2)
    _accept(other, alice, 3)

    assert intakes_recover() == 2
    assert stranded == [
        ("play.game_intakes_apply", (str(other.pk),)),
        ("play.game_intakes_apply", (str(nt_game.pk),)),
    ]
    first.refresh_from_db()
    assert first.resent_at is not None
    assert not OrderIntake.objects.filter(resent_at__isnull=True).exists()


def test_beat_takes_only_orders_waiting_longer_than_the_age_and_spaces_its_resends(
    nt_game: Game, alice: User, stranded: list[tuple[str, tuple[Any, ...]]]
) -> None:
    _accept(nt_game, alice, 4)
    now = timezone.now()
    assert intakes_recover(min_age_seconds=10, resend_gap_seconds=60, now=now) == 0  # too young
    later = now + timedelta(seconds=11)
    assert intakes_recover(min_age_seconds=10, resend_gap_seconds=60, now=later) == 1
    soon = later + timedelta(seconds=30)
    assert intakes_recover(min_age_seconds=10, resend_gap_seconds=60, now=soon) == 0  # sent
    # a reconnection asks with no age and no gap: it is sent again at once
    assert intakes_recover(now=soon) == 1
    again = soon + timedelta(seconds=61)
    assert intakes_recover(min_age_seconds=10, resend_gap_seconds=60, now=again) == 1
    assert len(stranded) == 3


def test_the_beat_task_spaces_resends_and_the_reconnection_task_does_not(
    nt_game: Game, alice: User, stranded: list[tuple[str, tuple[Any, ...]]]
) -> None:
    intake = _accept(nt_game, alice, 5)
    OrderIntake.objects.filter(pk=intake.pk).update(
        created_at=timezone.now() - timedelta(seconds=30)
    )
    assert tasks.intakes_recover_task(min_age_seconds=10) == 1  # beat's run
    assert tasks.intakes_recover_task(min_age_seconds=10) == 0  # within RESEND_GAP_SECONDS
    assert tasks.intakes_recover_task() == 1  # on a (re)connection


def test_a_paused_game_keeps_its_orders_until_it_resumes(
    nt_game: Game, alice: User, stranded: list[tuple[str, tuple[Any, ...]]]
) -> None:
    _accept(nt_game, alice, 6)
    Game.objects.filter(pk=nt_game.pk).update(status=Game.Status.PAUSED)
    assert intakes_recover() == 0
    Game.objects.filter(pk=nt_game.pk).update(status=Game.Status.ACTIVE)
    assert intakes_recover() == 1


@pytest.mark.parametrize("older", ["first", "second"])
def test_a_games_orders_are_applied_in_the_order_they_were_accepted(
    nt_game: Game, alice: User, stranded: list[tuple[str, tuple[Any, ...]]], older: str
) -> None:
    # two different set-ups, both legal at event 1: whichever was accepted first is applied,
    # the other is refused because the game moved on
    first, second = _accept(nt_game, alice, 7), _accept(nt_game, alice, 8)
    winner, loser = (first, second) if older == "first" else (second, first)
    OrderIntake.objects.filter(pk=winner.pk).update(
        created_at=timezone.now() - timedelta(seconds=5)
    )

    assert game_intakes_apply(game_id=nt_game.pk) == 2

    winner.refresh_from_db()
    loser.refresh_from_db()
    assert winner.status == OrderIntake.Status.APPLIED
    assert Event.objects.get(game=nt_game, seq=2).source_ref == f"intake:{winner.pk}"
    assert loser.status == OrderIntake.Status.REJECTED
    assert loser.errors[0]["rule"] == "game_moved_on"
    assert "accepted at event 1 and checked again at event 2" in loser.errors[0]["message"]
    assert len(loser.errors) > 1  # the engine's own reasons follow
    assert game_intakes_apply(game_id=nt_game.pk) == 0  # nothing left: nothing happens


def test_an_order_left_waiting_holds_back_the_younger_ones(
    nt_game: Game,
    alice: User,
    stranded: list[tuple[str, tuple[Any, ...]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = _accept(nt_game, alice, 9), _accept(nt_game, alice, 10)
    tried: list[str] = []
    monkeypatch.setattr(recovery, "order_apply", lambda intake_id: tried.append(str(intake_id)))

    assert game_intakes_apply(game_id=nt_game.pk) == 0  # the oldest stayed received (busy)
    assert tried == [str(first.pk)]
    assert OrderIntake.objects.get(pk=second.pk).status == OrderIntake.Status.RECEIVED
