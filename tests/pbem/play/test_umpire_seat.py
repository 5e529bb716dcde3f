"""The umpire seat on the server (issue 17 item 1): a game may seat an umpire, who reads the
omniscient view, every event and every seat's orders; a ruling is an event its audience alone
knows of (the others' numbering, counts and lines are as if it did not exist); the log with a
ruling replays and verifies; the umpire sends no player's order, a player sends no ruling; the
queue lists the games waiting for the umpire."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from games.core.protocol import JSON, OMNISCIENT
from games.core.rng import Rng
from games.core.umpire import CORRECTION_KIND, RULING_KIND, UMPIRE
from pbem.play.errors import NotYourSeat, OrderRejected
from pbem.play.models import Event, Game, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import events_for, numbering_for, umpire_queue, view_for
from pbem.play.services.games import BadGameRequest, OneSeatPerUser, seat_join
from pbem.play.services.log import state_at
from pbem.play.services.verify import game_verify
from tests.support.umpired import submit_applied, umpired_game

pytestmark = pytest.mark.django_db
Play = Callable[..., list[Event]]


@pytest.fixture
def ursula(db: None) -> User:
    return User.objects.create_user("ursula_t", "ursula@example.com")


@pytest.fixture
def umpired(alice: User, bob: User, ursula: User) -> Game:
    return umpired_game(alice, bob, ursula, title="umpired")


def test_the_umpire_seat_is_created_and_reads_all(umpired: Game, ursula: User, play: Play) -> None:
    assert Seat.objects.get(game=umpired, role=UMPIRE).user == ursula
    play(umpired, 3)
    seen = view_for(umpired, ursula)
    assert seen.role == UMPIRE
    state = state_at(umpired, umpired.head_seq)
    assert seen.view == ruleset_get(umpired.ruleset_id).inner.view(state, OMNISCIENT)  # type: ignore[attr-defined]
    events = events_for(umpired, ursula)
    assert [e.seq for e in events] == list(range(1, umpired.head_seq + 1))
    orders = [e for e in events if e.role in ("allied", "french")]
    assert orders
    assert all(e.payload is not None for e in orders)  # every seat's orders


def test_a_ruling_exists_only_for_its_audience(
    umpired: Game, alice: User, bob: User, ursula: User, play: Play
) -> None:
    play(umpired, 2)
    french_before = [(e.seq, e.kind, e.lines) for e in events_for(umpired, bob)]
    french_head = numbering_for(umpired, ["french"]).role_seq(umpired.head_seq)
    payload: JSON = {
        "text": "The Goldbach is fordable here.",
        "rule": "NT-9",
        "audience": ["allied"],
    }
    intake = submit_applied(umpired, ursula, UMPIRE, RULING_KIND, payload)
    assert intake.status == OrderIntake.Status.APPLIED, intake.errors
    event = Event.objects.get(game=umpired, seq=umpired.head_seq)
    assert event.kind == RULING_KIND
    assert event.role == UMPIRE
    allied_lines = [line for e in events_for(umpired, alice) for line in e.lines]
    assert "Umpire's ruling on NT-9: The Goldbach is fordable here." in allied_lines
    assert [(e.seq, e.kind, e.lines) for e in events_for(umpired, bob)] == french_before
    assert numbering_for(umpired, ["french"]).role_seq(umpired.head_seq) == french_head
    assert numbering_for(umpired, ["allied"]).role_seq(umpired.head_seq) == umpired.head_seq
    public = submit_applied(umpired, ursula, UMPIRE, RULING_KIND, {"text": "Play on."})
    assert public.status == OrderIntake.Status.APPLIED
    assert "Umpire's ruling: Play on." in [
        line for e in events_for(umpired, bob) for line in e.lines
    ]
    report = game_verify(game=umpired)
    assert report.ok, report.messages
    play(umpired, 2)  # the game goes on after rulings


def test_what_the_umpire_and_the_players_may_not_send(
    umpired: Game, alice: User, ursula: User
) -> None:
    ruleset = ruleset_get(umpired.ruleset_id)
    state = state_at(umpired, umpired.head_seq)
    order = ruleset.random_action(state, "allied", Rng(2))
    assert order is not None
    head = umpired.head_seq
    with pytest.raises(NotYourSeat):
        submit_applied(umpired, ursula, "allied", order.kind, order.payload)
    with pytest.raises(OrderRejected) as refused:
        submit_applied(umpired, ursula, UMPIRE, order.kind, order.payload)
    assert [r.rule for r in refused.value.rejections] == ["UMP-4"]
    with pytest.raises(OrderRejected) as refused:
        submit_applied(umpired, alice, "allied", RULING_KIND, {"text": "I rule"})
    assert [r.rule for r in refused.value.rejections] == ["UMP-2"]
    with pytest.raises(OrderRejected) as refused:
        submit_applied(
            umpired, ursula, UMPIRE, RULING_KIND, {"text": "x", "audience": ["prussian"]}
        )
    assert [r.rule for r in refused.value.rejections] == ["UMP-1"]
    with pytest.raises(OrderRejected) as refused:
        submit_applied(umpired, ursula, UMPIRE, CORRECTION_KIND, {"reason": "tape"})
    assert [r.rule for r in refused.value.rejections] == ["UMP-3"]
    assert umpired.head_seq == head


@pytest.mark.parametrize("hot_seat", [False, True])
def test_the_umpire_plays_no_seat(alice: User, bob: User, hot_seat: bool) -> None:
    with pytest.raises(BadGameRequest, match="UMP-5"):
        umpired_game(alice, bob, bob, hot_seat=hot_seat)
    open_seat = umpired_game(alice, None, bob, hot_seat=hot_seat)
    with pytest.raises(OneSeatPerUser, match="UMP-5"):
        seat_join(game=open_seat, role="french", user=bob)


def test_the_queue_lists_the_games_waiting_for_the_umpire(
    umpired: Game, ursula: User, alice: User
) -> None:
    assert umpire_queue(ursula) == []  # Napoleon's Triumph never prompts an umpire
    Game.objects.filter(pk=umpired.pk).update(active_roles=[UMPIRE])
    assert [g.pk for g in umpire_queue(ursula)] == [umpired.pk]
    assert umpire_queue(alice) == []  # a player's games are not an umpire's queue
