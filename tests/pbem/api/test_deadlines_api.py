"""The deadline endpoints: the clock, its settings, pause and resume by common
consent, a seat's substitute, and absences. Alice (allied, the creator) and Bob (french) play;
Mallory holds no seat."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from rest_framework.test import APIClient

from pbem.notify.models import Notification
from pbem.play.models import Absence, Game, PauseRequest, Seat

T0 = datetime(2030, 3, 4, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def url(game: dict[str, Any], tail: str) -> str:
    return f"/api/v1/games/{game['id']}/{tail}"


def row(game: dict[str, Any]) -> Game:
    return Game.objects.get(pk=game["id"])


@pytest.fixture
def frozen(time_machine: time_machine.TimeMachineFixture) -> time_machine.TimeMachineFixture:
    """The clock stands at T0 (and moves only when a test shifts it)."""
    time_machine.move_to(T0, tick=False)
    return time_machine


# --- GET /games/{id}/deadline -------------------------------------------------------------------


def test_a_seated_player_reads_the_running_clock(
    frozen: time_machine.TimeMachineFixture,
    game: dict[str, Any],
    alice_client: APIClient,
    bob_client: APIClient,
) -> None:
    response = bob_client.get(url(game, "deadline"))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["game"] == game["id"]
    assert body["status"] == "active"
    assert body["turn_hours"] == 72
    assert body["missed_turn_policy"] == "apply_defaults"
    assert datetime.fromisoformat(body["deadline_at"]) == T0 + 72 * HOUR
    assert body["deadline_roles"] == ["allied"]
    assert body["paused_at"] is None
    assert body["paused_remaining_seconds"] is None
    assert body["pause_requested_by"] == []
    assert body["pause_waiting_for"] == []
    assert alice_client.get(url(game, "deadline")).json() == body


def test_a_player_without_a_seat_may_not_read_the_clock(
    game: dict[str, Any], mallory_client: APIClient
) -> None:
    response = mallory_client.get(url(game, "deadline"))

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


@pytest.mark.parametrize("game_id", [str(uuid.UUID(int=7)), "not-a-uuid"])
def test_the_clock_of_an_unknown_game_is_404(
    game_id: str, alice_client: APIClient, db: None
) -> None:
    response = alice_client.get(f"/api/v1/games/{game_id}/deadline")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_clock_needs_a_token(game: dict[str, Any]) -> None:
    assert APIClient().get(url(game, "deadline")).status_code == 401


# --- PATCH /games/{id}/deadline -----------------------------------------------------------------


def test_the_creator_sets_the_time_per_turn_and_the_policy(
    game: dict[str, Any], alice_client: APIClient
) -> None:
    body = {"turn_hours": 24, "missed_turn_policy": "extend_once"}

    response = alice_client.patch(url(game, "deadline"), body, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["turn_hours"] == 24
    assert response.json()["missed_turn_policy"] == "extend_once"
    stored = row(game)
    assert (stored.turn_hours, stored.missed_turn_policy) == (24, "extend_once")


def test_a_time_per_turn_of_zero_stops_the_clock(
    game: dict[str, Any], alice_client: APIClient
) -> None:
    response = alice_client.patch(url(game, "deadline"), {"turn_hours": 0}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["deadline_at"] is None
    stored = row(game)
    assert stored.turn_hours == 0
    assert stored.deadline_at is None
    assert stored.missed_turn_policy == "apply_defaults"  # left out: unchanged


def _clock_mails() -> list[Any]:
    return [m for m in mail.outbox if "turn clock changed" in m.subject]


def test_a_new_time_per_turn_moves_the_running_deadline_and_tells_the_other_players(
    frozen: time_machine.TimeMachineFixture,
    game: dict[str, Any],
    alice_client: APIClient,
    bob: User,
) -> None:
    """Alice's turn began at T0 with 72 hours; 10 hours later the creator sets 24: the deadline
    is the turn's start + 24 hours, and Bob (seated, not the creator) is told."""
    frozen.shift(10 * HOUR)
    mail.outbox.clear()

    response = alice_client.patch(url(game, "deadline"), {"turn_hours": 24}, format="json")

    assert response.status_code == 200, response.content
    assert datetime.fromisoformat(response.json()["deadline_at"]) == T0 + 24 * HOUR
    stored = row(game)
    assert stored.deadline_at == T0 + 24 * HOUR
    assert stored.deadline_started_at == T0  # the same turn's clock, not a new one
    assert stored.deadline_budget_seconds == 24 * 3600
    (sent,) = _clock_mails()
    assert sent.to == [bob.email]
    assert sent.subject == "[Austerlitz] The turn clock changed: 24 hours per turn"
    assert "You play French army (french)." in sent.body
    assert "Time per turn: 24 hours; at a missed deadline: apply_defaults." in sent.body
    assert "The running deadline is now 2030-03-05 12:00 UTC for Allied army (allied)." in (
        sent.body
    )
    assert f"http://localhost:8000/api/v1/games/{game['id']}/view" in sent.body
    rows = Notification.objects.filter(game_id=game["id"], kind="deadline_changed")
    assert {(n.user.username, n.role) for n in rows} == {("bob", "french")}


def test_a_longer_time_per_turn_moves_the_deadline_later(
    frozen: time_machine.TimeMachineFixture, game: dict[str, Any], alice_client: APIClient
) -> None:
    frozen.shift(70 * HOUR)

    response = alice_client.patch(url(game, "deadline"), {"turn_hours": 100}, format="json")

    assert response.status_code == 200, response.content
    assert row(game).deadline_at == T0 + 100 * HOUR


def test_a_shorter_time_per_turn_never_puts_the_deadline_in_the_past(
    frozen: time_machine.TimeMachineFixture, game: dict[str, Any], alice_client: APIClient
) -> None:
    """30 hours into the turn, 1 hour per turn would have ended it 29 hours ago: the deadline
    is an hour from now instead (the grace minimum)."""
    frozen.shift(30 * HOUR)

    response = alice_client.patch(url(game, "deadline"), {"turn_hours": 1}, format="json")

    assert response.status_code == 200, response.content
    assert row(game).deadline_at == T0 + 31 * HOUR
    assert row(game).turn_hours == 1


def test_the_grace_minimum_comes_from_settings(
    frozen: time_machine.TimeMachineFixture,
    game: dict[str, Any],
    alice_client: APIClient,
    settings: Any,
) -> None:
    settings.PBEM = {**settings.PBEM, "DEADLINE_CHANGE_GRACE_MINUTES": 180}
    frozen.shift(30 * HOUR)

    alice_client.patch(url(game, "deadline"), {"turn_hours": 1}, format="json")

    assert row(game).deadline_at == T0 + 33 * HOUR


def test_a_paused_games_remaining_time_moves_by_the_difference(
    frozen: time_machine.TimeMachineFixture,
    game: dict[str, Any],
    alice_client: APIClient,
    bob_client: APIClient,
) -> None:
    frozen.shift(10 * HOUR)  # 62 of 72 hours left
    alice_client.post(url(game, "pause"))
    bob_client.post(url(game, "pause"))
    assert row(game).paused_remaining_seconds == 62 * 3600

    response = alice_client.patch(url(game, "deadline"), {"turn_hours": 48}, format="json")

    assert response.status_code == 200, response.content
    assert row(game).paused_remaining_seconds == 38 * 3600  # 48 - 10 hours used
    frozen.shift(5 * HOUR)
    bob_client.post(url(game, "resume"))
    assert row(game).deadline_at == T0 + 15 * HOUR + 38 * HOUR


def test_setting_the_same_values_again_tells_nobody(
    frozen: time_machine.TimeMachineFixture, game: dict[str, Any], alice_client: APIClient
) -> None:
    mail.outbox.clear()
    body = {"turn_hours": 72, "missed_turn_policy": "apply_defaults"}

    response = alice_client.patch(url(game, "deadline"), body, format="json")

    assert response.status_code == 200, response.content
    assert row(game).deadline_at == T0 + 72 * HOUR
    assert _clock_mails() == []
    assert not Notification.objects.filter(kind="deadline_changed").exists()


def test_two_changes_in_one_turn_are_two_notes_with_their_own_message_ids(
    frozen: time_machine.TimeMachineFixture, game: dict[str, Any], alice_client: APIClient
) -> None:
    mail.outbox.clear()
    alice_client.patch(url(game, "deadline"), {"turn_hours": 24}, format="json")
    frozen.shift(HOUR)
    alice_client.patch(url(game, "deadline"), {"missed_turn_policy": "extend_once"}, format="json")

    first, second = _clock_mails()
    assert "at a missed deadline: extend_once" in second.body
    ids = {first.extra_headers["Message-ID"], second.extra_headers["Message-ID"]}
    assert len(ids) == 2
    assert all(i.startswith(f"<{game['id']}.1.french.deadline_changed.") for i in ids)


def test_a_player_who_did_not_create_the_game_may_not_set_its_clock(
    game: dict[str, Any], bob_client: APIClient, mallory_client: APIClient
) -> None:
    for client in (bob_client, mallory_client):
        response = client.patch(url(game, "deadline"), {"turn_hours": 1}, format="json")

        assert response.status_code == 403
        assert response.json()["code"] == "not_your_seat"
    assert row(game).turn_hours == 72


@pytest.mark.parametrize(
    "body",
    [
        {"turn_hours": -1},
        {"turn_hours": 24 * 365 + 1},
        {"turn_hours": "many"},
        {"turn_hours": None},
        {"missed_turn_policy": "shrug"},
        {"missed_turn_policy": 3},
        [1, 2],
    ],
)
def test_bad_clock_settings_are_400(
    game: dict[str, Any], alice_client: APIClient, body: Any
) -> None:
    response = alice_client.patch(url(game, "deadline"), body, format="json")

    assert response.status_code == 400, response.content
    stored = row(game)
    assert (stored.turn_hours, stored.missed_turn_policy) == (72, "apply_defaults")


def test_malformed_json_is_400(game: dict[str, Any], alice_client: APIClient) -> None:
    response = alice_client.generic(
        "PATCH", url(game, "deadline"), "{turn_hours: 5", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_setting_the_clock_of_an_unknown_game_is_404(alice_client: APIClient, db: None) -> None:
    response = alice_client.patch(
        f"/api/v1/games/{uuid.UUID(int=9)}/deadline", {"turn_hours": 5}, format="json"
    )

    assert response.status_code == 404


# --- pause, withdraw, resume --------------------------------------------------------------------


def test_a_pause_needs_every_seated_player_and_a_resume_restarts_the_clock(
    frozen: time_machine.TimeMachineFixture,
    api: Any,
    game: dict[str, Any],
    alice_client: APIClient,
    bob_client: APIClient,
) -> None:
    frozen.shift(10 * HOUR)  # 62 of Alice's 72 hours are left

    first = alice_client.post(url(game, "pause"))

    assert first.status_code == 200, first.content
    assert first.json()["paused"] is False
    assert first.json()["pause_requested_by"] == ["alice"]
    assert first.json()["pause_waiting_for"] == ["bob"]
    assert row(game).status == Game.Status.ACTIVE
    assert PauseRequest.objects.filter(game_id=game["id"]).count() == 1

    second = bob_client.post(url(game, "pause"))

    assert second.status_code == 200, second.content
    assert second.json()["paused"] is True
    assert second.json()["status"] == "paused"
    stored = row(game)
    assert stored.status == Game.Status.PAUSED
    assert stored.deadline_at is None
    assert stored.paused_remaining_seconds == 62 * 3600
    assert stored.paused_at == T0 + 10 * HOUR

    order = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    assert order.status_code == 409
    assert order.json()["code"] == "game_not_active"
    again = alice_client.post(url(game, "pause"))
    assert again.status_code == 409
    assert again.json()["code"] == "game_not_active"

    frozen.shift(100 * HOUR)
    resumed = bob_client.post(url(game, "resume"))

    assert resumed.status_code == 200, resumed.content
    assert resumed.json()["status"] == "active"
    stored = row(game)
    assert stored.status == Game.Status.ACTIVE
    assert stored.paused_at is None
    assert stored.deadline_at == T0 + 110 * HOUR + 62 * HOUR
    order = api.submit(alice_client, game["id"], api.random_action(game["id"], "allied"))
    assert order.status_code == 201, order.content


def test_resuming_a_game_that_is_not_paused_is_409(
    game: dict[str, Any], alice_client: APIClient
) -> None:
    response = alice_client.post(url(game, "resume"))

    assert response.status_code == 409
    assert response.json()["code"] == "game_not_paused"
    assert row(game).status == Game.Status.ACTIVE


def test_a_player_without_a_seat_may_not_pause_withdraw_or_resume(
    game: dict[str, Any],
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
) -> None:
    assert mallory_client.post(url(game, "pause")).status_code == 403
    assert mallory_client.delete(url(game, "pause")).status_code == 403
    alice_client.post(url(game, "pause"))
    bob_client.post(url(game, "pause"))

    response = mallory_client.post(url(game, "resume"))

    assert response.status_code == 403
    assert response.json()["code"] == "not_your_seat"
    assert row(game).status == Game.Status.PAUSED
    assert not PauseRequest.objects.filter(game_id=game["id"], user__username="mallory").exists()


def test_a_player_withdraws_a_request_to_pause(
    game: dict[str, Any], alice: User, alice_client: APIClient, bob_client: APIClient
) -> None:
    alice_client.post(url(game, "pause"))

    response = alice_client.delete(url(game, "pause"))

    assert response.status_code == 204
    assert not PauseRequest.objects.filter(game_id=game["id"], user=alice).exists()
    assert bob_client.post(url(game, "pause")).json()["paused"] is False
    assert row(game).status == Game.Status.ACTIVE


def test_pausing_an_unknown_game_is_404(alice_client: APIClient, db: None) -> None:
    for method, tail in (("post", "pause"), ("delete", "pause"), ("post", "resume")):
        response = getattr(alice_client, method)(f"/api/v1/games/{uuid.UUID(int=3)}/{tail}")
        assert response.status_code == 404, (method, tail)


# --- PUT /games/{id}/seats/{role}/substitute ----------------------------------------------------


def test_a_seat_holder_names_and_clears_a_substitute(
    game: dict[str, Any], alice_client: APIClient, mallory: User
) -> None:
    response = alice_client.put(
        url(game, "seats/allied/substitute"), {"username": "mallory"}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json() == {
        "game": game["id"],
        "role": "allied",
        "username": "alice",
        "substitute": "mallory",
    }
    assert Seat.objects.get(game_id=game["id"], role="allied").substitute == mallory

    cleared = alice_client.put(
        url(game, "seats/allied/substitute"), {"username": None}, format="json"
    )

    assert cleared.status_code == 200, cleared.content
    assert cleared.json()["substitute"] is None
    assert Seat.objects.get(game_id=game["id"], role="allied").substitute is None


def test_an_unknown_substitute_is_400_with_a_clear_message(
    game: dict[str, Any], alice_client: APIClient
) -> None:
    response = alice_client.put(
        url(game, "seats/allied/substitute"), {"username": "nobody"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"rule": "invalid", "message": "no user named 'nobody'", "path": "/username"}
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "bob"}, "bad_deadline_request"),  # already holds a seat here
        ({"username": "alice"}, "bad_deadline_request"),  # oneself
        ({"username": 5}, None),
        ({}, None),
    ],
)
def test_a_bad_substitute_is_400(
    game: dict[str, Any], alice_client: APIClient, body: dict[str, Any], code: str | None
) -> None:
    response = alice_client.put(url(game, "seats/allied/substitute"), body, format="json")

    assert response.status_code == 400, response.content
    if code is not None:
        assert response.json()["code"] == code
    assert Seat.objects.get(game_id=game["id"], role="allied").substitute is None


@pytest.mark.parametrize("role", ["allied", "nonsense"])
def test_only_the_seat_holder_names_its_substitute(
    game: dict[str, Any], bob_client: APIClient, mallory: User, role: str
) -> None:
    response = bob_client.put(
        url(game, f"seats/{role}/substitute"), {"username": "mallory"}, format="json"
    )

    assert response.status_code == 403
    assert response.json()["code"] == "not_your_seat"
    assert not Seat.objects.filter(game_id=game["id"], substitute=mallory).exists()


def test_a_substitute_in_an_unknown_game_is_404(alice_client: APIClient, db: None) -> None:
    response = alice_client.put(
        f"/api/v1/games/{uuid.UUID(int=4)}/seats/allied/substitute",
        {"username": None},
        format="json",
    )

    assert response.status_code == 404


# --- absences -----------------------------------------------------------------------------------


def test_a_player_declares_lists_and_cancels_an_absence(
    frozen: time_machine.TimeMachineFixture,
    alice: User,
    alice_client: APIClient,
    bob_client: APIClient,
) -> None:
    body = {"starts_on": "2030-03-10", "ends_on": "2030-03-12", "tz": "Europe/Paris"}

    created = alice_client.post("/api/v1/absences", body, format="json")

    assert created.status_code == 201, created.content
    out = created.json()
    assert {k: out[k] for k in body} == body
    stored = Absence.objects.get(pk=out["id"])
    assert (str(stored.starts_on), str(stored.ends_on), stored.tz, stored.user) == (
        "2030-03-10",
        "2030-03-12",
        "Europe/Paris",
        alice,
    )
    bob_client.post("/api/v1/absences", {"starts_on": "2030-04-01", "ends_on": "2030-04-01"})

    listed = alice_client.get("/api/v1/absences")

    assert listed.status_code == 200
    assert [a["id"] for a in listed.json()] == [out["id"]]
    assert [a["tz"] for a in bob_client.get("/api/v1/absences").json()] == ["UTC"]

    deleted = alice_client.delete(f"/api/v1/absences/{out['id']}")

    assert deleted.status_code == 204
    assert not Absence.objects.filter(pk=out["id"]).exists()
    assert alice_client.get("/api/v1/absences").json() == []


def test_an_absence_extends_the_running_clock(
    frozen: time_machine.TimeMachineFixture, game: dict[str, Any], alice_client: APIClient
) -> None:
    assert row(game).deadline_at == T0 + 72 * HOUR
    body = {"starts_on": "2030-03-05", "ends_on": "2030-03-05", "tz": "UTC"}

    response = alice_client.post("/api/v1/absences", body, format="json")

    assert response.status_code == 201, response.content
    assert row(game).deadline_at == T0 + 96 * HOUR
    alice_client.delete(f"/api/v1/absences/{response.json()['id']}")
    assert row(game).deadline_at == T0 + 72 * HOUR


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"starts_on": "2030-03-10", "ends_on": "2030-03-12", "tz": "Mars/Olympus"}, "detail"),
        ({"starts_on": "2030-03-10", "ends_on": "2030-03-12", "tz": "../etc/passwd"}, "detail"),
        ({"starts_on": "2030-03-10", "ends_on": "2030-03-12", "tz": 1}, "tz"),
        ({"starts_on": "2030-03-12", "ends_on": "2030-03-10"}, "detail"),  # ends before it starts
        ({"starts_on": "2030-01-01", "ends_on": "2030-01-02"}, "detail"),  # over already
        ({"starts_on": "next week", "ends_on": "2030-03-12"}, "starts_on"),
        ({"starts_on": 5, "ends_on": "2030-03-12"}, "starts_on"),
        ({"starts_on": "2030-03-10"}, "ends_on"),
        ({"starts_on": "2030-03-10", "ends_on": "9999-12-31"}, "ends_on"),
        ({"starts_on": "0001-01-01", "ends_on": "2030-03-12"}, "starts_on"),
    ],
)
def test_a_bad_absence_is_400_with_a_clear_message(
    frozen: time_machine.TimeMachineFixture,
    alice_client: APIClient,
    body: dict[str, Any],
    field: str,
) -> None:
    response = alice_client.post("/api/v1/absences", body, format="json")

    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["detail"]
    if field != "detail":  # a field error names the field as a JSON pointer
        assert f"/{field}" in {e["path"] for e in answer["errors"]}, answer
    assert not Absence.objects.exists()


def test_a_malformed_absence_body_is_400(alice_client: APIClient, db: None) -> None:
    response = alice_client.generic(
        "POST", "/api/v1/absences", '{"starts_on": ', content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


@pytest.mark.parametrize("absence_id", ["999", "abc", str(2**70), "-1", "0"])
def test_cancelling_an_unknown_absence_is_404(
    alice_client: APIClient, db: None, absence_id: str
) -> None:
    response = alice_client.delete(f"/api/v1/absences/{absence_id}")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_nobody_cancels_someone_elses_absence(
    frozen: time_machine.TimeMachineFixture, alice_client: APIClient, mallory_client: APIClient
) -> None:
    body = {"starts_on": "2030-03-10", "ends_on": "2030-03-12"}
    absence_id = alice_client.post("/api/v1/absences", body, format="json").json()["id"]

    response = mallory_client.delete(f"/api/v1/absences/{absence_id}")

    assert response.status_code == 404
    assert Absence.objects.filter(pk=absence_id).exists()
    assert mallory_client.get("/api/v1/absences").json() == []
