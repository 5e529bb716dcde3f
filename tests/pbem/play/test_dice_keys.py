"""Dice keys (services/log.py dice_key): an event's dice never depend on events hidden from
anyone. Two games with the same seed that differ only by a side's secret standing instruction
give every later public event the same dice key; no two events of a game share a key; replay and
verification use the stored key."""

from __future__ import annotations

import secrets

import pytest
from django.contrib.auth.models import User

from games.core.protocol import JSON, Action, random_legal_action
from games.core.rng import Rng
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services import games as games_service
from pbem.play.services.commit import action_commit
from pbem.play.services.log import PRIVATE_DICE, PUBLIC_DICE, rng_of, state_at
from pbem.play.services.verify import game_verify

pytestmark = pytest.mark.django_db
ASK: JSON = {  # a standing instruction that answers nothing: it changes no state but its own
    "scope": {"default": True},
    "on_threat": {"mode": "ask"},
    "counter": {"policy": "ask"},
    "hold": "ask",
    "retreat": {"mode": "ask"},
}


def twin(monkeypatch: pytest.MonkeyPatch, alice: User, bob: User) -> Game:
    monkeypatch.setattr(secrets, "token_bytes", lambda n: b"\x07" * n)
    return games_service.game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
        accepted=True,
    )


def commit(game: Game, action: Action, ref: str) -> Event:
    done = action_commit(game=game, action=action, source="api", source_ref=ref)
    assert done.event is not None, done.rejections
    return done.event


def test_a_secret_event_moves_no_later_public_dice_key(
    monkeypatch: pytest.MonkeyPatch, alice: User, bob: User
) -> None:
    a, b = twin(monkeypatch, alice, bob), twin(monkeypatch, alice, bob)
    ruleset = ruleset_get("napoleons_triumph")
    rng = Rng(3)
    for i in range(40):
        state = state_at(a, a.head_seq)
        role = sorted(ruleset.prompts(state))[0]
        action = random_legal_action(ruleset, state, role, rng)
        assert action is not None
        if action.kind == "set_defense_plan":
            continue
        if i in (3, 17):  # in game b only: the side that is not moving files a secret plan
            other = "french" if role == "allied" else "allied"
            commit(b, Action(other, "set_defense_plan", ASK), f"plan{i}")
        commit(a, action, f"a{i}")
        commit(b, action, f"b{i}")
    private = ruleset.private_kinds()
    keys_a = list(
        Event.objects.filter(game=a, seq__gt=1).order_by("seq").values_list("rng_key", flat=True)
    )
    public_b = Event.objects.filter(game=b, seq__gt=1).exclude(kind__in=private).order_by("seq")
    assert keys_a == list(public_b.values_list("rng_key", flat=True))
    assert all(k is not None and PUBLIC_DICE < k < PRIVATE_DICE for k in keys_a)
    hidden = Event.objects.filter(game=b, kind__in=private)
    assert hidden.count() == 2
    assert all(k is not None and k > PRIVATE_DICE for k in hidden.values_list("rng_key", flat=True))
    all_b = list(Event.objects.filter(game=b, seq__gt=1).values_list("rng_key", flat=True))
    assert len(set(all_b)) == len(all_b)  # no two events share their dice
    b.refresh_from_db()
    assert b.private_events == 2
    assert game_verify(game=b).ok
    last = Event.objects.filter(game=b).order_by("-seq").first()
    assert last is not None
    assert rng_of(b, last).next64() == Rng.for_event(bytes(b.seed), last.rng_key or 0).next64()
