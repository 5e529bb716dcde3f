"""The beat sweeps: due games found by one indexed query, reminders once per head, stuck
intakes re-enqueued, and a poison row never stopping the others."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pbem.notify import services as notify_services
from pbem.play import hooks, tasks
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.services.deadlines import deadline_start
from pbem.play.services.orders import order_submit
from pbem.play.services.sweeps import (
    deadlines_sweep,
    games_due,
    intakes_stuck,
    reminders_sweep,
    stuck_turns_sweep,
)
from tests.pbem.deadlines.dl_helpers import T0, new_game, play_setup

H = timedelta(hours=1)


@pytest.fixture
def games(u1: User, u2: User, clock: time_machine.Coordinates) -> dict[str, Game]:
    """Five games: due, due later, due but paused, due but finished, without a deadline."""
    out = {name: new_game(u1, u2) for name in ("due", "later", "paused", "finished", "none")}
    for name, hours in (("due", 1), ("later", 100), ("paused", 1), ("finished", 1)):
        Game.objects.filter(pk=out[name].pk).update(deadline_at=T0 + hours * H)
    Game.objects.filter(pk=out["paused"].pk).update(status=Game.Status.PAUSED)
    Game.objects.filter(pk=out["finished"].pk).update(status=Game.Status.FINISHED)
    return out


def test_the_sweep_query_finds_only_due_games_in_one_query(
    games: dict[str, Game],
    clock: time_machine.Coordinates,
    django_assert_num_queries: Any,
) -> None:
    clock.move_to(T0 + 2 * H)
    with django_assert_num_queries(1):
        due = games_due(now=T0 + 2 * H)
    assert due == [(games["due"].pk, games["due"].head_seq)]


def test_the_sweep_query_uses_the_deadline_index(games: dict[str, Game]) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("EXPLAIN QUERY PLAN is SQLite's")
    with CaptureQueriesContext(connection) as ctx:
        games_due(now=T0 + 2 * H)
    sql = ctx.captured_queries[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "deadline_at" in plan
    assert "INDEX" in plan.upper()


def test_the_sweep_enqueues_each_due_game_and_skips_a_poison_row(
    games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    second = games["later"]
    Game.objects.filter(pk=second.pk).update(deadline_at=T0 + 2 * H)
    sent: list[tuple[str, int]] = []

    def delay(game_id: str, after_seq: int) -> None:
        if game_id == str(games["due"].pk):
            raise RuntimeError("poison")
        sent.append((game_id, after_seq))

    monkeypatch.setattr(tasks.turn_resolve_task, "delay", delay)
    assert deadlines_sweep(now=T0 + 3 * H) == 1
    assert sent == [(str(second.pk), second.head_seq)]


def test_beat_task_resolves_a_due_game_end_to_end(
    game: Game, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 72 * H)
    tasks.deadlines_sweep_task()  # eager: turn_resolve runs at once
    tasks.deadlines_sweep_task()  # the next minute: nothing is due any more
    assert Event.objects.filter(game=game, kind=".deadline").count() == 1
    tasks.turn_resolve_task(str(game.pk), game.head_seq, unexpected="ignored")
    assert Event.objects.filter(game=game, kind=".deadline").count() == 1


def test_the_beat_schedule_names_the_sweeps() -> None:
    from django.conf import settings

    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"play.deadlines_sweep", "play.reminders_sweep", "play.stuck_turns_sweep"} <= names


def test_reminders_are_recorded_once_per_head_and_notify_if_offered(
    game: Game, clock: time_machine.Coordinates, monkeypatch: pytest.MonkeyPatch
) -> None:
    deadline_start(game=game)
    calls: list[tuple[Game, list[str]]] = []

    def notify_deadline_soon(*, game: Game, roles: list[str]) -> None:
        calls.append((game, roles))

    # notify's receiver of hooks.REMINDER_DUE calls this service
    monkeypatch.setattr(notify_services, "notify_deadline_soon", notify_deadline_soon)
    clock.move_to(T0 + 59 * H)  # 13 hours left: too early
    assert reminders_sweep() == 0
    clock.move_to(T0 + 61 * H)  # 11 hours left
    assert reminders_sweep() == 1
    assert reminders_sweep() == 0
    assert [(g.pk, roles) for g, roles in calls] == [(game.pk, ["allied"])]
    game.refresh_from_db()
    assert game.reminder_sent_for_seq == game.head_seq


def test_reminders_without_a_hook_receiver_are_still_recorded(
    game: Game, clock: time_machine.Coordinates, monkeypatch: pytest.MonkeyPatch
) -> None:
    deadline_start(game=game)
    monkeypatch.setattr(hooks.REMINDER_DUE, "receivers", [])  # nobody listens
    clock.move_to(T0 + 70 * H)
    assert tasks.reminders_sweep_task() == 1
    assert reminders_sweep() == 0


def test_stuck_sweep_reenqueues_a_received_intake(
    game: Game, u1: User, clock: time_machine.Coordinates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # inside the test transaction on_commit never runs: the intake stays `received`, as if
    # its task had been lost
    intake = order_submit(
        game=game, user=u1, role="allied", kind="end_turn", payload={}, source="api"
    )
    assert intake.status == OrderIntake.Status.RECEIVED
    clock.move_to(T0 + timedelta(minutes=4))
    assert intakes_stuck(now=T0 + timedelta(minutes=4)) == []
    sent: list[str] = []
    monkeypatch.setattr(tasks.order_apply_task, "delay", sent.append)
    clock.move_to(T0 + timedelta(minutes=6))
    assert stuck_turns_sweep() == 1
    assert sent == [str(intake.pk)]


def test_stuck_sweep_finishes_the_turn_end_to_end(
    game: Game, u1: User, clock: time_machine.Coordinates
) -> None:
    intake = order_submit(
        game=game, user=u1, role="allied", kind="end_turn", payload={}, source="api"
    )
    head = game.head_seq
    clock.move_to(T0 + timedelta(minutes=6))
    tasks.stuck_turns_sweep_task()
    tasks.stuck_turns_sweep_task()
    intake.refresh_from_db()
    assert intake.status == OrderIntake.Status.APPLIED
    game.refresh_from_db()
    assert game.head_seq == head + 1
    assert Event.objects.filter(game=game, source_ref=f"intake:{intake.pk}").count() == 1


def test_stuck_sweep_leaves_paused_games_alone(
    game: Game, u1: User, clock: time_machine.Coordinates
) -> None:
    order_submit(game=game, user=u1, role="allied", kind="end_turn", payload={}, source="api")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PAUSED)
    assert intakes_stuck(now=T0 + timedelta(minutes=10)) == []


def test_sweep_on_the_set_up_game_does_not_loop(
    u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    game = new_game(u1, u2)
    deadline_start(game=game)
    clock.move_to(T0 + 73 * H)
    tasks.deadlines_sweep_task()
    assert games_due(now=T0 + 73 * H) == []  # extended, not retried every minute
    play_setup(game)
    assert Event.objects.filter(game=game, kind=".deadline").count() == 0
