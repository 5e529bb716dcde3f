"""turn_resolve at a deadline: the engine default exactly once, extend_once, substitutes, the
set-up without a default, and the clock set when whose turn it is changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from games.core.rng import Rng
from pbem.play.errors import NotYourSeat
from pbem.play.models import Event, Game, MissedTurnPolicy, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.absences import BadDeadlineRequest
from pbem.play.services.deadlines import (
    deadline_on_event,
    deadline_settings_set,
    deadline_start,
    seat_substitute_set,
)
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply, order_submit
from pbem.play.services.turns import turn_resolve
from tests.pbem.deadlines.dl_helpers import T0, new_game

H = timedelta(hours=1)


def _deadlines(game: Game) -> int:
    return Event.objects.filter(game=game, kind=".deadline").count()


def test_not_due_does_nothing(game: Game) -> None:
    deadline_start(game=game)
    assert turn_resolve(game_id=game.pk, after_seq=game.head_seq) is None
    assert _deadlines(game) == 0


def test_the_engine_default_is_applied_exactly_once(
    game: Game, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    head = game.head_seq
    clock.move_to(T0 + 72 * H)
    event = turn_resolve(game_id=game.pk, after_seq=head)
    assert event is not None
    assert (event.seq, event.kind, event.role) == (head + 1, ".deadline", "@system")
    assert event.source == "worker"
    assert event.source_ref == f".deadline@{head}"
    assert turn_resolve(game_id=game.pk, after_seq=head) is None  # a duplicate message
    assert turn_resolve(game_id=str(game.pk), after_seq=head) is None
    assert _deadlines(game) == 1
    game.refresh_from_db()
    assert game.head_seq == head + 1
    # NT: a .deadline with nothing open ends the turn; the French now have a fresh clock
    assert game.active_roles == ["french"]
    assert game.deadline_roles == ["french"]
    assert game.deadline_at == T0 + 144 * H
    assert game.deadline_set_at_seq == head + 1


def test_a_stale_or_unknown_message_does_nothing(
    game: Game, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 80 * H)
    assert turn_resolve(game_id=game.pk, after_seq=game.head_seq - 1) is None
    assert turn_resolve(game_id="00000000-0000-0000-0000-000000000000", after_seq=1) is None
    assert _deadlines(game) == 0


def test_extend_once_then_apply_defaults_on_the_second_miss(
    game: Game, clock: time_machine.Coordinates
) -> None:
    Game.objects.filter(pk=game.pk).update(missed_turn_policy=MissedTurnPolicy.EXTEND_ONCE)
    deadline_start(game=game)
    head = game.head_seq
    clock.move_to(T0 + 73 * H)
    assert turn_resolve(game_id=game.pk, after_seq=head) is None  # first miss: extended
    assert turn_resolve(game_id=game.pk, after_seq=head) is None  # not due any more
    game.refresh_from_db()
    assert game.deadline_at == T0 + 144 * H
    assert _deadlines(game) == 0
    clock.move_to(T0 + 144 * H)
    event = turn_resolve(game_id=game.pk, after_seq=head)  # second miss: the defaults
    assert event is not None
    assert event.kind == ".deadline"
    assert _deadlines(game) == 1
    game.refresh_from_db()
    assert game.deadline_at == T0 + 216 * H  # the next turn may be extended once again
    assert game.extended_once_at_seq == head


def test_substitute_takes_the_seat_over(
    game: Game, u1: User, u3: User, clock: time_machine.Coordinates
) -> None:
    Game.objects.filter(pk=game.pk).update(missed_turn_policy=MissedTurnPolicy.SUBSTITUTE)
    seat_substitute_set(game=game, user=u1, role="allied", substitute=u3)
    deadline_start(game=game)
    head = game.head_seq
    clock.move_to(T0 + 75 * H)
    assert turn_resolve(game_id=game.pk, after_seq=head) is None
    seat = Seat.objects.get(game=game, role="allied")
    assert seat.user == u3
    assert seat.substitute is None
    assert _deadlines(game) == 0
    game.refresh_from_db()
    assert game.deadline_at == T0 + 75 * H + 72 * H
    # the substitute plays on: their order is accepted
    ruleset = ruleset_get(game.ruleset_id)
    action = ruleset.random_action(state_at(game, head), "allied", Rng(3))
    assert action is not None
    intake = order_submit(
        game=game, user=u3, role="allied", kind=action.kind, payload=action.payload, source="api"
    )
    assert intake.status in (OrderIntake.Status.RECEIVED, OrderIntake.Status.APPLIED)
    with pytest.raises(NotYourSeat):
        order_submit(
            game=game,
            user=u1,
            role="allied",
            kind=action.kind,
            payload=action.payload,
            source="api",
        )


def test_substitute_policy_without_a_substitute_applies_the_defaults(
    game: Game, clock: time_machine.Coordinates
) -> None:
    Game.objects.filter(pk=game.pk).update(missed_turn_policy=MissedTurnPolicy.SUBSTITUTE)
    deadline_start(game=game)
    clock.move_to(T0 + 72 * H)
    event = turn_resolve(game_id=game.pk, after_seq=game.head_seq)
    assert event is not None
    assert event.kind == ".deadline"


def test_a_substitute_must_be_someone_else(game: Game, u1: User, u2: User) -> None:
    with pytest.raises(BadDeadlineRequest):
        seat_substitute_set(game=game, user=u1, role="allied", substitute=u1)
    with pytest.raises(BadDeadlineRequest):
        seat_substitute_set(game=game, user=u1, role="allied", substitute=u2)
    with pytest.raises(NotYourSeat):
        seat_substitute_set(game=game, user=u2, role="allied", substitute=None)


def test_set_up_has_no_default_so_the_deadline_is_extended(
    u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    game = new_game(u1, u2)
    deadline_start(game=game)
    game.refresh_from_db()
    assert game.deadline_at == T0 + 72 * H
    clock.move_to(T0 + 72 * H)
    assert turn_resolve(game_id=game.pk, after_seq=game.head_seq) is None
    assert _deadlines(game) == 0
    game.refresh_from_db()
    assert game.deadline_at == T0 + 144 * H  # NT-19: no engine default during set-up


def test_paused_or_finished_games_are_not_resolved(
    game: Game, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 80 * H)
    for status in (Game.Status.PAUSED, Game.Status.FINISHED):
        Game.objects.filter(pk=game.pk).update(status=status)
        assert turn_resolve(game_id=game.pk, after_seq=game.head_seq) is None
    assert _deadlines(game) == 0


def _non_ending_order(game: Game) -> tuple[str, object]:
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    for seed in range(200):
        action = ruleset.random_action(state, "allied", Rng(seed))
        if action is None or action.kind == "end_turn":
            continue
        step = ruleset.apply(state, action, Rng(0))
        if not step.turn_ended and sorted(ruleset.prompts(step.state)) == ["allied"]:
            return action.kind, action.payload
    raise AssertionError("no order that keeps the turn")


def test_the_clock_runs_on_within_a_turn_and_restarts_when_it_changes(
    game: Game, u1: User, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    clock.move_to(T0 + 5 * H)
    kind, payload = _non_ending_order(game)
    intake = order_submit(
        game=game,
        user=u1,
        role="allied",
        kind=kind,
        payload=payload,  # type: ignore[arg-type]
        source="api",
    )
    event = order_apply(intake_id=intake.pk)
    assert event is not None
    assert deadline_on_event(game=game, event=event) == T0 + 72 * H  # same turn: same clock
    clock.move_to(T0 + 6 * H)
    intake = order_submit(
        game=game, user=u1, role="allied", kind="end_turn", payload={}, source="api"
    )
    event = order_apply(intake_id=intake.pk)
    assert event is not None
    assert event.turn_ended
    assert deadline_on_event(game=game, event=event) == T0 + 6 * H + 72 * H
    assert deadline_on_event(game=game, event=event) == T0 + 6 * H + 72 * H  # idempotent
    game.refresh_from_db()
    assert game.deadline_roles == ["french"]


def test_the_creator_sets_turn_hours_and_policy(
    game: Game, u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    deadline_start(game=game)
    with pytest.raises(NotYourSeat):
        deadline_settings_set(game=game, user=u2, turn_hours=24)
    with pytest.raises(BadDeadlineRequest):
        deadline_settings_set(game=game, user=u1, missed_turn_policy="shrug")
    game = deadline_settings_set(game=game, user=u1, turn_hours=0)
    assert game.deadline_at is None
    game = deadline_settings_set(
        game=game, user=u1, turn_hours=24, missed_turn_policy=MissedTurnPolicy.EXTEND_ONCE
    )
    assert game.deadline_at == T0 + 24 * H
    assert game.missed_turn_policy == MissedTurnPolicy.EXTEND_ONCE


def test_new_games_default_to_72_hours(u1: User, u2: User, clock: time_machine.Coordinates) -> None:
    game = new_game(u1, u2)
    assert game.turn_hours == 72
    assert game.missed_turn_policy == MissedTurnPolicy.APPLY_DEFAULTS
