"""The order path: a legal order appends exactly one event, a duplicate task delivery appends
nothing, an intake that became illegal before the worker ran is rejected, a stale head raises."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest
from django.contrib.auth.models import User

from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng
from pbem.play import tasks
from pbem.play.errors import StaleHead
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services import orders
from pbem.play.services.log import event_append, rng_for, state_at
from pbem.play.services.orders import order_apply, order_submit

pytestmark = pytest.mark.django_db
CaptureOnCommit = Callable[..., AbstractContextManager[list[Callable[[], object]]]]


def _setup_action(game: Game, seed: int) -> Action:
    """A random legal Allied set-up at the game's head (the first thing the game asks for)."""
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    action = random_legal_action(ruleset, state, "allied", Rng(seed))
    assert action is not None, "no set-up found"
    return action


def test_a_legal_order_appends_exactly_one_event(
    nt_game: Game,
    alice: User,
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    action = _setup_action(nt_game, 1)

    with django_capture_on_commit_callbacks(execute=True):
        intake = order_submit(
            game=nt_game,
            user=alice,
            role="allied",
            kind=action.kind,
            payload=action.payload,
            source="api",
        )

    intake.refresh_from_db()
    nt_game.refresh_from_db()
    assert intake.status == OrderIntake.Status.APPLIED
    assert Event.objects.filter(game=nt_game).count() == 2
    event = Event.objects.get(game=nt_game, seq=2)
    assert intake.event_id == event.pk
    assert (event.kind, event.role, event.source_ref) == (
        action.kind,
        "allied",
        f"intake:{intake.pk}",
    )
    assert nt_game.head_seq == 2


def test_a_duplicate_delivery_appends_nothing(
    nt_game: Game,
    alice: User,
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    action = _setup_action(nt_game, 2)
    with django_capture_on_commit_callbacks(execute=True):
        intake = order_submit(
            game=nt_game,
            user=alice,
            role="allied",
            kind=action.kind,
            payload=action.payload,
            source="api",
        )

    assert order_apply(intake_id=intake.pk) is None
    tasks.order_apply_task.delay(str(intake.pk))  # the broker delivers the task a second time

    assert Event.objects.filter(game=nt_game).count() == 2
    intake.refresh_from_db()
    assert intake.status == OrderIntake.Status.APPLIED


def test_an_intake_that_became_illegal_is_rejected_not_appended(
    nt_game: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The hand-off to the worker does nothing: both intakes wait, pre-checked at the same head.
    monkeypatch.setattr(orders, "_enqueue", lambda intake_id: None)
    first_action, second_action = _setup_action(nt_game, 3), _setup_action(nt_game, 4)
    first = order_submit(
        game=nt_game,
        user=alice,
        role="allied",
        kind=first_action.kind,
        payload=first_action.payload,
        source="api",
    )
    second = order_submit(
        game=nt_game,
        user=alice,
        role="allied",
        kind=second_action.kind,
        payload=second_action.payload,
        source="api",
    )
    assert first.status == second.status == OrderIntake.Status.RECEIVED
    assert first.head_seq == second.head_seq == 1  # both pre-checked at the same head

    applied = order_apply(intake_id=first.pk)
    refused = order_apply(intake_id=second.pk)

    assert applied is not None
    assert applied.seq == 2
    assert refused is None
    second.refresh_from_db()
    assert second.status == OrderIntake.Status.REJECTED
    assert second.errors
    assert {"rule", "message", "path"} <= set(second.errors[0])
    assert second.event_id is None
    assert Event.objects.filter(game=nt_game).count() == 2


def test_event_append_with_a_stale_head_raises(nt_game: Game) -> None:
    ruleset = ruleset_get(nt_game.ruleset_id)
    action = _setup_action(nt_game, 5)
    state = state_at(nt_game, 1)
    step = ruleset.apply(state, action, rng_for(nt_game, 2))

    with pytest.raises(StaleHead):
        event_append(game=nt_game, after_seq=0, action=action, step=step, source="api")

    assert Event.objects.filter(game=nt_game).count() == 1
    event = event_append(game=nt_game, after_seq=1, action=action, step=step, source="api")
    assert event.seq == 2
    with pytest.raises(StaleHead):  # the same head cannot be extended twice
        event_append(game=nt_game, after_seq=1, action=action, step=step, source="api")
    assert list(Event.objects.filter(game=nt_game).values_list("seq", flat=True)) == [1, 2]


def test_an_order_accepted_while_the_broker_is_down_stays_received(
    nt_game: Game,
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    """The intake is committed before the task is sent: a broker outage leaves it `received`
    (no exception reaches the client) for the stuck-turns sweep to enqueue later."""
    from kombu.exceptions import OperationalError

    def broker_down(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.order_apply_task, "delay", broker_down)
    action = _setup_action(nt_game, 3)

    with django_capture_on_commit_callbacks(execute=True):
        intake = order_submit(
            game=nt_game,
            user=alice,
            role="allied",
            kind=action.kind,
            payload=action.payload,
            source="api",
        )

    intake.refresh_from_db()
    assert intake.status == OrderIntake.Status.RECEIVED
    assert Event.objects.filter(game=nt_game).count() == 1
    monkeypatch.undo()
    assert order_apply(intake_id=intake.pk) is not None  # what the sweep's task does later
    assert Event.objects.filter(game=nt_game).count() == 2


def _submit_allied(game: Game, user: User, action: Action) -> OrderIntake:
    """The Allied order `action`, submitted over the API path."""
    return order_submit(
        game=game,
        user=user,
        role="allied",
        kind=action.kind,
        payload=action.payload,
        source="api",
    )


def _counting_validate(monkeypatch: pytest.MonkeyPatch, game: Game) -> list[Action]:
    """Record every `validate` call of the game's ruleset (and still validate)."""
    ruleset = ruleset_get(game.ruleset_id)
    calls: list[Action] = []
    real = ruleset.validate

    def counting(state: object, action: Action) -> object:
        calls.append(action)
        return real(state, action)

    monkeypatch.setattr(ruleset, "validate", counting)
    return calls


def test_the_worker_does_not_validate_again_at_the_head_it_was_checked_at(
    nt_game: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(orders, "_enqueue", lambda intake_id: None)
    action = _setup_action(nt_game, 6)
    intake = _submit_allied(nt_game, alice, action)
    version = ruleset_get(nt_game.ruleset_id).version
    assert (intake.head_seq, intake.checked_engine_version) == (1, version)
    calls = _counting_validate(monkeypatch, nt_game)

    event = order_apply(intake_id=intake.pk)

    assert event is not None
    assert event.seq == 2
    assert calls == []  # same head, same engine: the submission's check stands


@pytest.mark.parametrize("why", ["the head moved", "another engine version checked it"])
def test_the_worker_validates_when_the_check_may_not_hold(
    nt_game: Game, alice: User, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    monkeypatch.setattr(orders, "_enqueue", lambda intake_id: None)
    first_action, second_action = _setup_action(nt_game, 3), _setup_action(nt_game, 4)
    first = _submit_allied(nt_game, alice, first_action)
    second = _submit_allied(nt_game, alice, second_action)
    if why == "the head moved":
        assert order_apply(intake_id=first.pk) is not None  # the game is now at event 2
    else:
        OrderIntake.objects.filter(pk=second.pk).update(checked_engine_version=0)
    calls = _counting_validate(monkeypatch, nt_game)

    outcome = order_apply(intake_id=second.pk)

    assert len(calls) == 1
    second.refresh_from_db()
    if why == "the head moved":  # a second set-up is illegal now: refused, not appended
        assert outcome is None
        assert second.status == OrderIntake.Status.REJECTED
    else:
        assert outcome is not None
        assert second.status == OrderIntake.Status.APPLIED
