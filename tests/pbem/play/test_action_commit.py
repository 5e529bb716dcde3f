"""action_commit: the one way an action becomes the log's next event (orders, deadlines, system
steps): validated at the head, appended once per source_ref, never at a head it has left."""

from __future__ import annotations

import pytest

from games.core.protocol import DEADLINE_KIND, SETUP_KIND, SYSTEM, Action, random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game, HeadState, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services.commit import action_commit
from pbem.play.services.log import state_at

pytestmark = pytest.mark.django_db


def _setup_action(game: Game, seed: int) -> Action:
    state = state_at(game, game.head_seq)
    action = random_legal_action(ruleset_get(game.ruleset_id), state, "allied", Rng(seed))
    assert action is not None
    return action


def test_a_legal_action_is_appended_once_per_source_ref(nt_game: Game) -> None:
    action = _setup_action(nt_game, 1)

    first = action_commit(game=nt_game, action=action, source="api", source_ref="test:1")
    again = action_commit(game=nt_game, action=action, source="api", source_ref="test:1")

    assert first.event is not None
    assert (first.event.seq, first.existed) == (2, False)
    assert again.event is not None
    assert (again.event.pk, again.existed) == (first.event.pk, True)
    assert Event.objects.filter(game=nt_game).count() == 2


def test_an_illegal_action_is_refused_with_the_rule_and_appends_nothing(nt_game: Game) -> None:
    action = _setup_action(nt_game, 2)
    assert action_commit(game=nt_game, action=action, source="api", source_ref="a").event

    commit = action_commit(game=nt_game, action=action, source="api", source_ref="b")

    assert commit.event is None
    assert commit.rejections
    assert all(r.rule for r in commit.rejections)
    assert Event.objects.filter(game=nt_game).count() == 2


def test_an_action_meant_for_a_head_the_game_left_commits_nothing(nt_game: Game) -> None:
    action = _setup_action(nt_game, 3)
    assert action_commit(game=nt_game, action=action, source="api", source_ref="a").event

    late = Action(SYSTEM, DEADLINE_KIND, {})
    commit = action_commit(game=nt_game, action=late, source="worker", source_ref="d", at_seq=1)

    assert (commit.event, commit.rejections, commit.existed) == (None, (), False)
    assert Event.objects.filter(game=nt_game).count() == 2


def test_event_one_is_the_set_up_with_its_snapshot_and_head_state(nt_game: Game) -> None:
    event = Event.objects.get(game=nt_game, seq=1)
    assert (event.role, event.kind, event.source) == (SYSTEM, SETUP_KIND, "system")
    assert event.payload == {"scenario": nt_game.scenario, "options": nt_game.options}
    assert "seed" not in str(event.payload)
    assert event.state_hash == nt_game.head_hash
    assert Snapshot.objects.get(game=nt_game, seq=1).state_hash == event.state_hash
    assert HeadState.objects.get(game=nt_game).seq == 1
