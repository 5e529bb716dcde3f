"""Several umpires in one game (issue 17 item 1: "a game may have one or more umpires"): each
umpire holds a seat of the role `@umpire`, reads all and may rule; one user holds one umpire
seat at most and umpires no game they play (UMP-5); open umpire seats are joined one at a time;
an invited co-umpire accepts or declines their own seat only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.core.umpire import RULING_KIND, UMPIRE
from pbem.play.errors import SeatTaken
from pbem.play.models import Event, Game, OrderIntake, Seat
from pbem.play.selectors import events_for, view_for
from pbem.play.services.games import (
    MAX_UMPIRES,
    BadGameRequest,
    OneSeatPerUser,
    OneSeatPerUserAtCreate,
    game_create,
    seat_accept,
    seat_decline,
    seat_join,
)
from tests.pbem.api.conftest import client_for
from tests.support.umpired import submit_applied, umpired_game

pytestmark = pytest.mark.django_db


def _user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com")


@pytest.fixture
def umpires(db: None) -> list[User]:
    return [_user(f"ump_{i}") for i in range(MAX_UMPIRES + 1)]


def test_every_umpire_of_a_game_reads_all_and_rules(
    alice: User, bob: User, umpires: list[User]
) -> None:
    chief, deputy, third = umpires[:3]
    game = umpired_game(alice, bob, chief, co_umpires=[deputy, third])
    held = sorted(s.user.username for s in Seat.objects.filter(game=game, role=UMPIRE) if s.user)
    assert held == ["ump_0", "ump_1", "ump_2"]
    assert game.all_seats_accepted()
    for umpire in (chief, deputy, third):
        seen = view_for(game, umpire)
        assert seen.role == UMPIRE
        assert seen.view == view_for(game, chief).view
    intake = submit_applied(game, deputy, UMPIRE, RULING_KIND, {"text": "Deputy's ruling."})
    assert intake.status == OrderIntake.Status.APPLIED, intake.errors
    event = Event.objects.get(game=game, seq=game.head_seq)
    assert (event.kind, event.role, event.actor_id) == (RULING_KIND, UMPIRE, deputy.pk)
    for reader in (alice, bob, chief, third):
        lines = [line for e in events_for(game, reader) for line in e.lines]
        assert "Umpire's ruling: Deputy's ruling." in lines


def test_umpire_seats_are_refused_when_named_twice_played_or_too_many(
    alice: User, bob: User, umpires: list[User]
) -> None:
    chief, deputy = umpires[:2]
    with pytest.raises(OneSeatPerUserAtCreate, match="ump_0 is named for two umpire seats"):
        umpired_game(alice, bob, chief, co_umpires=[chief])
    with pytest.raises(BadGameRequest, match=r"alice_t cannot umpire a game they play \(UMP-5\)"):
        umpired_game(alice, bob, chief, co_umpires=[deputy, alice])
    with pytest.raises(BadGameRequest, match=f"at most {MAX_UMPIRES} umpires"):
        umpired_game(alice, bob, chief, co_umpires=umpires[1:])
    assert not Game.objects.exists()  # nothing was created by a refused request


def test_open_umpire_seats_are_joined_one_each(
    alice: User, bob: User, umpires: list[User]
) -> None:
    chief, first, second, late = umpires[:4]
    game = umpired_game(alice, bob, chief, co_umpires=[None, None])
    assert not game.all_seats_accepted()  # open umpire seats hold the start back
    seat = seat_join(game=game, role=UMPIRE, user=first)
    assert seat.user == first
    with pytest.raises(OneSeatPerUser, match="umpire seat of this game already"):
        seat_join(game=game, role=UMPIRE, user=first)
    with pytest.raises(OneSeatPerUser, match="UMP-5"):
        seat_join(game=game, role=UMPIRE, user=alice)
    seat_join(game=game, role=UMPIRE, user=second)
    assert game.all_seats_accepted()
    with pytest.raises(SeatTaken):
        seat_join(game=game, role=UMPIRE, user=late)
    holders = {s.user_id for s in Seat.objects.filter(game=game, role=UMPIRE)}
    assert holders == {chief.pk, first.pk, second.pk}


def test_an_invited_co_umpire_answers_for_their_own_seat(
    alice: User, bob: User, umpires: list[User]
) -> None:
    chief, invited, declining = umpires[:3]
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob, UMPIRE: chief},
        creator=alice,
        co_umpires=[invited, declining],
    )
    Seat.objects.filter(game=game).exclude(role=UMPIRE).update(accepted_at=game.created_at)
    Seat.objects.filter(game=game, user=chief).update(accepted_at=game.created_at)
    seat = seat_accept(game=game, role=UMPIRE, user=invited)
    assert (seat.user, seat.accepted_at is not None) == (invited, True)
    declined = seat_decline(game=game, role=UMPIRE, user=declining)
    assert declined.user is None
    mine = {s.user_id: s.accepted_at is not None for s in Seat.objects.filter(game=game)}
    assert mine[invited.pk]
    assert mine[chief.pk]
    assert Seat.objects.filter(game=game, role=UMPIRE, user__isnull=True).count() == 1


def test_co_umpires_over_the_api(alice: User, bob: User, umpires: list[User]) -> None:
    alice_client = client_for(alice)
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz"},
        "seats": {"allied": alice.username, "french": bob.username, UMPIRE: "ump_0"},
        "co_umpires": ["ump_1", None],
    }
    made = alice_client.post("/api/v1/games", body, format="json")
    assert made.status_code == 201, made.content
    roles = sorted(s["role"] for s in made.json()["seats"])
    assert roles == sorted(["allied", "french", UMPIRE, UMPIRE, UMPIRE])
    deputy = client_for(umpires[1])
    game_id = made.json()["id"]
    assert deputy.post(f"/api/v1/games/{game_id}/seats/{UMPIRE}/accept").status_code == 200
    assert deputy.get(f"/api/v1/games/{game_id}/view").json()["role"] == UMPIRE
    too_many = {**body, "co_umpires": [None] * MAX_UMPIRES}
    refused = alice_client.post("/api/v1/games", too_many, format="json")
    assert refused.status_code == 400
    assert "4 umpires" in refused.content.decode()
    unknown = alice_client.post("/api/v1/games", {**body, "co_umpires": ["nobody"]}, format="json")
    assert unknown.status_code == 400
    assert "nobody" in unknown.content.decode()
