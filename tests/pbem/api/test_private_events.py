"""A side's standing instructions are its secret.

Whether and when a side filed `set_defense_plan` must not show in another role's events, counts
(the numbering of events, `head_seq`, verify's `events_checked`), views or notifications. The
tests compare everything the other role (and a spectator) receives before and after the secret
event: a property over random points of random games, not one hand-picked state."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.core.protocol import JSON, Action
from pbem.notify.models import Notification
from pbem.play.models import Event, Game
from pbem.play.selectors import Numbering

pytestmark = pytest.mark.django_db

PLAN: JSON = {"scope": {"default": True}, "on_threat": {"mode": "ask"}}


def _received(client: APIClient, game_id: str, role: str | None) -> dict[str, Any]:
    """Everything a caller can read about the game, minus wall-clock times."""
    query = f"?role={role}" if role else ""
    events = client.get(f"/api/v1/games/{game_id}/events{query}").json()
    for e in events:
        e.pop("created_at")
    detail = client.get(f"/api/v1/games/{game_id}").json()
    view = client.get(f"/api/v1/games/{game_id}/view{query}").json()
    cache.clear()  # verify is rate-limited per user
    verify = client.get(f"/api/v1/games/{game_id}/verify").json()
    return {
        "events": events,
        "head_seq": detail["head_seq"],
        "view": view,
        "verify": {k: verify[k] for k in ("events_checked", "first_mismatch", "messages", "ok")},
        "listing": [g["head_seq"] for g in client.get("/api/v1/games").json()],
    }


def _quiet_side(game_id: str) -> str:
    """A side that is not prompted now (it may file a plan without changing whose turn it is)."""
    active = Game.objects.get(pk=game_id).active_roles
    return "french" if "allied" in active else "allied"


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.integers(min_value=0, max_value=30))
def test_a_plan_changes_nothing_the_other_side_or_a_spectator_receives(
    steps: int,
    api: Any,
    alice_client: APIClient,
    bob_client: APIClient,
    mallory_client: APIClient,
    bob: User,
) -> None:
    game = api.create_game(alice_client, {"allied": "alice", "french": "bob"})
    gid = game["id"]
    clients = {"allied": alice_client, "french": bob_client}
    api.play(clients, gid, steps)
    if Game.objects.get(pk=gid).status != Game.Status.ACTIVE:
        return
    planner = _quiet_side(gid)
    other = "allied" if planner == "french" else "french"
    before = {other: _received(clients[other], gid, other), "spectator": None}
    before["spectator"] = _received(mallory_client, gid, None)
    outbox_before = Notification.objects.count()

    head = Game.objects.get(pk=gid).head_seq
    answer = api.submit(clients[planner], gid, Action(planner, "set_defense_plan", PLAN))
    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=gid).head_seq == head + 1  # the plan is an event in the log

    assert _received(clients[other], gid, other) == before[other]
    assert _received(mallory_client, gid, None) == before["spectator"]
    assert Notification.objects.count() == outbox_before  # nobody was told anything

    # the planner sees their own event, numbered without gaps
    planner_events = clients[planner].get(f"/api/v1/games/{gid}/events?role={planner}").json()
    assert planner_events[-1]["kind"] == "set_defense_plan"
    assert [e["seq"] for e in planner_events] == list(range(1, len(planner_events) + 1))


def test_numbering_after_the_secret_event_has_no_gap(
    api: Any, game: dict[str, Any], alice_client: APIClient, bob_client: APIClient
) -> None:
    """The French file a plan during the Allies' set-up; the Allies then set up: to the Allies the
    log reads 1, 2 with `after` counted their way, to the French 1, 2, 3."""
    gid = game["id"]
    plan = Action("french", "set_defense_plan", PLAN)
    assert api.submit(bob_client, gid, plan).status_code == 201
    setup = api.random_action(gid, "allied")
    assert api.submit(alice_client, gid, setup).status_code == 201

    allied = alice_client.get(f"/api/v1/games/{gid}/events").json()
    assert [(e["seq"], e["kind"]) for e in allied] == [(1, ".setup"), (2, "allied_setup")]
    after1 = alice_client.get(f"/api/v1/games/{gid}/events?after=1").json()
    assert [(e["seq"], e["kind"]) for e in after1] == [(2, "allied_setup")]
    assert alice_client.get(f"/api/v1/games/{gid}").json()["head_seq"] == 2

    french = bob_client.get(f"/api/v1/games/{gid}/events").json()
    kinds = [(e["seq"], e["kind"]) for e in french]
    assert kinds == [(1, ".setup"), (2, "set_defense_plan"), (3, "allied_setup")]
    assert bob_client.get(f"/api/v1/games/{gid}").json()["head_seq"] == 3
    assert Event.objects.filter(game_id=gid).count() == 3


@given(
    hidden=st.lists(st.integers(min_value=1, max_value=200), unique=True, max_size=20),
    seq=st.integers(min_value=0, max_value=250),
)
def test_numbering_maps_both_ways(hidden: list[int], seq: int) -> None:
    n = Numbering(tuple(sorted(hidden)))
    visible = [s for s in range(1, 251) if s not in hidden]
    assert n.role_seq(seq) == len([s for s in visible if s <= seq])
    assert n.is_visible(seq) == (seq not in hidden)
    if 0 < seq <= len(visible):
        assert n.global_seq(seq) == visible[seq - 1]
    assert n.global_seq(0) == 0
