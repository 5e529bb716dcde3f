"""Invitations: a seat named for another user is offered, not imposed; the
clock starts only when every seat is taken and accepted; one user, one seat unless hot seat."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from pbem.notify.models import Notification
from pbem.play.models import Game, Seat
from pbem.play.services.sweeps import games_due


def seat_url(game_id: str, role: str, what: str) -> str:
    return f"/api/v1/games/{game_id}/seats/{role}/{what}"


def invite_bob(api: Any, alice_client: APIClient, **extra: Any) -> dict[str, Any]:
    """Alice creates a game, seats herself as the French and invites Bob to the Allies (who
    move first)."""
    data: dict[str, Any] = api.create_game(
        alice_client, {"allied": "bob", "french": "alice"}, accept=False, **extra
    )
    return data


def test_a_seat_named_for_another_user_is_an_invitation_and_no_clock_runs(
    api: Any, alice_client: APIClient, bob: User
) -> None:
    data = invite_bob(api, alice_client, title="Invite")

    seats = {s["role"]: s for s in data["seats"]}
    assert seats["allied"] == {
        "role": "allied",
        "team": "AL",
        "username": "bob",
        "pending": True,
        "open": False,
    }
    assert seats["french"]["pending"] is False  # the creator seating herself: accepted at once
    assert data["started"] is False
    game = Game.objects.get(pk=data["id"])
    assert game.turn_hours > 0
    assert game.deadline_at is None
    # no missed-turn sweep before the start, however late it runs
    assert game.pk not in {pk for pk, _ in games_due(now=timezone.now() + timedelta(days=999))}


def test_the_invited_user_is_told_at_once_by_email(
    api: Any, alice_client: APIClient, bob: User
) -> None:
    data = invite_bob(api, alice_client, title="Invite")

    rows = Notification.objects.filter(user=bob, kind="invitation")
    assert [(r.role, r.channel) for r in rows] == [("allied", "email")]
    sent = [m for m in mail.outbox if m.to == ["bob@example.org"]]
    assert len(sent) == 1
    assert "invited" in sent[0].subject.lower()
    assert "alice invites you" in sent[0].body
    assert f"/api/v1/games/{data['id']}/seats/allied/accept" in sent[0].body
    assert f"/api/v1/games/{data['id']}/seats/allied/decline" in sent[0].body
    # nothing goes to the creator, whose own seat needed no invitation
    assert not Notification.objects.filter(kind="invitation").exclude(user=bob).exists()


def test_orders_from_a_seat_not_accepted_are_403_invitation_pending(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client)
    action = api.random_action(data["id"], "allied")

    answer = api.submit(bob_client, data["id"], action)

    assert answer.status_code == 403
    assert answer.json()["code"] == "invitation_pending"
    assert Game.objects.get(pk=data["id"]).head_seq == 1


def test_the_last_acceptance_starts_the_game_and_its_clock(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client)
    before = bob_client.get(f"/api/v1/games/{data['id']}").json()
    assert before["your_turn"] is False  # an invitation is nobody's turn yet
    assert not Notification.objects.filter(kind="your_turn").exists()

    response = bob_client.post(seat_url(data["id"], "allied", "accept"))

    assert response.status_code == 200, response.content
    out = response.json()
    assert out["started"] is True
    assert out["your_roles"] == ["allied"]
    assert out["your_turn"] is True
    assert {s["role"]: s["pending"] for s in out["seats"]} == {"allied": False, "french": False}
    game = Game.objects.get(pk=data["id"])
    assert game.deadline_at is not None
    assert game.deadline_roles == ["allied"]
    # the first mover is told at once that the game started and it is their turn
    told = Notification.objects.filter(kind="your_turn", channel="email")
    assert [(n.user.username, n.role) for n in told] == [("bob", "allied")]
    # now Bob's orders go through
    answer = api.submit(bob_client, data["id"], api.random_action(data["id"], "allied"))
    assert answer.status_code == 201, answer.content


def test_accepting_twice_changes_nothing(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client)
    assert bob_client.post(seat_url(data["id"], "allied", "accept")).status_code == 200
    first = Seat.objects.get(game_id=data["id"], role="allied").accepted_at

    again = bob_client.post(seat_url(data["id"], "allied", "accept"))

    assert again.status_code == 200
    assert Seat.objects.get(game_id=data["id"], role="allied").accepted_at == first


def test_turn_hours_changed_before_the_start_apply_when_it_starts(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client)
    patch = alice_client.patch(
        f"/api/v1/games/{data['id']}/deadline", {"turn_hours": 1}, format="json"
    )
    assert patch.status_code == 200, patch.content
    assert patch.json()["deadline_at"] is None  # still not started: no clock
    assert Game.objects.get(pk=data["id"]).deadline_at is None

    started = timezone.now()
    bob_client.post(seat_url(data["id"], "allied", "accept"))

    deadline = Game.objects.get(pk=data["id"]).deadline_at
    assert deadline is not None
    assert started + timedelta(minutes=59) < deadline <= timezone.now() + timedelta(hours=1)


def test_moves_before_every_seat_is_taken_start_no_clock_and_the_last_join_does(
    api: Any, alice_client: APIClient, bob_client: APIClient, alice: User
) -> None:
    data = api.create_game(alice_client, {"allied": "alice", "french": None})
    answer = api.submit(alice_client, data["id"], api.random_action(data["id"], "allied"))
    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=data["id"]).head_seq == 2
    assert Game.objects.get(pk=data["id"]).deadline_at is None

    joined = bob_client.post(seat_url(data["id"], "french", "join"))

    assert joined.status_code == 200
    assert joined.json()["started"] is True
    assert Game.objects.get(pk=data["id"]).deadline_at is not None


def test_declining_frees_the_seat_and_tells_the_creator(
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
    alice: User,
    bob: User,
) -> None:
    data = invite_bob(api, alice_client, title="Declined")

    response = bob_client.post(seat_url(data["id"], "allied", "decline"))

    assert response.status_code == 200, response.content
    seat = Seat.objects.get(game_id=data["id"], role="allied")
    assert seat.user is None
    assert seat.joined_at is None
    assert seat.accepted_at is None
    assert response.json()["your_roles"] == []
    told = Notification.objects.filter(user=alice, kind="invitation_declined")
    assert [(n.role, n.channel) for n in told] == [("allied", "email")]
    note = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    assert len(note) == 1
    assert "declined" in note[0].subject
    # Bob's seat is gone: he cannot accept any more; anyone may join it now
    late = bob_client.post(seat_url(data["id"], "allied", "accept"))
    assert late.status_code == 403
    assert late.json()["code"] == "not_invited"
    joined = mallory_client.post(seat_url(data["id"], "allied", "join"))
    assert joined.status_code == 200
    assert joined.json()["started"] is True


def test_an_accepted_seat_cannot_be_declined(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client)
    bob_client.post(seat_url(data["id"], "allied", "accept"))

    response = bob_client.post(seat_url(data["id"], "allied", "decline"))

    assert response.status_code == 409
    assert response.json()["code"] == "already_accepted"
    assert Seat.objects.get(game_id=data["id"], role="allied").user is not None


def test_only_the_invited_user_answers_an_invitation(
    api: Any, alice_client: APIClient, mallory_client: APIClient, bob: User
) -> None:
    data = invite_bob(api, alice_client)

    for what in ("accept", "decline"):
        for client in (mallory_client, alice_client):
            response = client.post(seat_url(data["id"], "allied", what))
            assert response.status_code == 403, (what, response.content)
            assert response.json()["code"] == "not_invited"
    unknown_role = mallory_client.post(seat_url(data["id"], "emperor", "accept"))
    assert unknown_role.status_code == 400
    unknown_game = mallory_client.post(
        seat_url("00000000-0000-0000-0000-000000000000", "allied", "accept")
    )
    assert unknown_game.status_code == 404
    assert APIClient().post(seat_url(data["id"], "allied", "accept")).status_code == 401
    assert Seat.objects.get(game_id=data["id"], role="allied").accepted_at is None


def test_invitations_lists_the_seats_offered_to_you(
    api: Any, alice_client: APIClient, bob_client: APIClient
) -> None:
    data = invite_bob(api, alice_client, title="Listed")

    listed = bob_client.get("/api/v1/invitations")

    assert listed.status_code == 200
    [row] = listed.json()
    assert row["game"] == data["id"]
    assert row["role"] == "allied"
    assert row["title"] == "Listed"
    assert row["invited_by"] == "alice"
    assert row["invited_at"] is not None
    assert alice_client.get("/api/v1/invitations").json() == []
    bob_client.post(seat_url(data["id"], "allied", "accept"))
    assert bob_client.get("/api/v1/invitations").json() == []


def test_a_pending_invitee_gets_no_game_news_until_accepting(
    api: Any, alice_client: APIClient, bob_client: APIClient, bob: User
) -> None:
    # Alice (allied, moves first) invites Bob to the French; she sets up while he has not answered
    data = api.create_game(alice_client, {"allied": "alice", "french": "bob"}, accept=False)
    for i in range(30):
        game = Game.objects.get(pk=data["id"])
        if "french" in game.active_roles:
            break
        answer = api.submit(alice_client, data["id"], api.random_action(data["id"], "allied", i))
        assert answer.status_code == 201, answer.content
    assert "french" in Game.objects.get(pk=data["id"]).active_roles
    assert Game.objects.get(pk=data["id"]).deadline_at is None
    news = Notification.objects.filter(user=bob).exclude(kind="invitation")
    assert not news.exists()

    bob_client.post(seat_url(data["id"], "french", "accept"))

    assert Game.objects.get(pk=data["id"]).deadline_roles == ["french"]
    assert Notification.objects.filter(user=bob, kind="your_turn", role="french").exists()


# --- one user, one seat (hot seat only when the creator enabled it) --------------------------


def test_one_user_in_two_seats_is_400_unless_hot_seat(
    api: Any, alice_client: APIClient, alice: User
) -> None:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": api.scenario,
        "options": api.options,
        "seats": {"allied": "alice", "french": "alice"},
    }
    refused = alice_client.post("/api/v1/games", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "one_seat_per_user"
    assert "hot_seat" in refused.json()["detail"]
    assert not Game.objects.exists()

    allowed = alice_client.post("/api/v1/games", {**body, "hot_seat": True}, format="json")
    assert allowed.status_code == 201
    assert allowed.json()["hot_seat"] is True
    assert allowed.json()["your_roles"] == ["allied", "french"]
    assert allowed.json()["started"] is True


def test_joining_a_second_seat_is_409_unless_hot_seat(
    api: Any, alice_client: APIClient, bob_client: APIClient, bob: User
) -> None:
    data = api.create_game(alice_client, {"allied": None, "french": None})
    assert bob_client.post(seat_url(data["id"], "allied", "join")).status_code == 200

    second = bob_client.post(seat_url(data["id"], "french", "join"))

    assert second.status_code == 409
    assert second.json()["code"] == "one_seat_per_user"
    assert Seat.objects.get(game_id=data["id"], role="french").user is None

    hot = api.create_game(alice_client, {"allied": None, "french": None}, hot_seat=True)
    assert bob_client.post(seat_url(hot["id"], "allied", "join")).status_code == 200
    both = bob_client.post(seat_url(hot["id"], "french", "join"))
    assert both.status_code == 200
    assert both.json()["your_roles"] == ["allied", "french"]


def test_an_invited_user_cannot_also_join_another_seat(
    api: Any, alice_client: APIClient, bob_client: APIClient, bob: User
) -> None:
    data = api.create_game(alice_client, {"allied": "bob", "french": None}, accept=False)

    response = bob_client.post(seat_url(data["id"], "french", "join"))

    assert response.status_code == 409
    assert response.json()["code"] == "one_seat_per_user"


# --- games created before invitations (migration 0007) -----------------------------------------


def test_the_migration_accepts_the_seats_of_existing_games(
    api: Any, alice_client: APIClient, alice: User, bob: User
) -> None:
    migration = importlib.import_module("pbem.play.migrations.0007_seat_invitations_hot_seat")
    two = api.create_game(alice_client, {"allied": "alice", "french": "bob"}, accept=False)
    shared = api.create_game(alice_client, {"allied": None, "french": None}, hot_seat=True)
    Seat.objects.filter(game_id=shared["id"]).update(user=alice)
    Game.objects.filter(pk=shared["id"]).update(hot_seat=False)
    Seat.objects.update(accepted_at=None)  # as before the migration

    migration.seats_accepted(apps, None)

    assert not Seat.objects.filter(user__isnull=False, accepted_at__isnull=True).exists()
    assert Game.objects.get(pk=shared["id"]).hot_seat is True
    assert Game.objects.get(pk=two["id"]).hot_seat is False
