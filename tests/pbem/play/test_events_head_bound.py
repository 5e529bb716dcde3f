"""The log as a role reads it ends at the head loaded with the game: an event appended while the
read runs (another side's secret standing instruction, say) is not in the numbering that read
computed, so it must not be listed either (it would show an event the reader may not know of)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.contrib.auth.models import User

from games.core.protocol import JSON, Action
from pbem.play import selectors
from pbem.play.models import Game
from pbem.play.services.commit import action_commit

pytestmark = pytest.mark.django_db
PLAN: JSON = {"scope": {"default": True}, "on_threat": {"mode": "ask"}}


def test_an_event_appended_during_a_read_is_not_listed(
    nt_game: Game, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    numbering_for = selectors.numbering_for

    def then_a_secret_event(game: Game, roles: Iterable[str]) -> selectors.Numbering:
        numbering = numbering_for(game, roles)
        plan = Action("french", "set_defense_plan", PLAN)
        done = action_commit(
            game=Game.objects.get(pk=game.pk), action=plan, source="api", source_ref="p"
        )
        assert done.event is not None
        return numbering

    monkeypatch.setattr(selectors, "numbering_for", then_a_secret_event)
    read = Game.objects.get(pk=nt_game.pk)
    assert [e.kind for e in selectors.events_for(read, alice)] == [".setup"]
    monkeypatch.setattr(selectors, "numbering_for", numbering_for)
    fresh = Game.objects.get(pk=nt_game.pk)
    assert [e.kind for e in selectors.events_for(fresh, alice)] == [".setup"]
    assert [e.kind for e in selectors.events_for(fresh, bob)] == [".setup", "set_defense_plan"]
