"""A ruling for some seats leaks to no other seat (games.core.umpire), a property over random
games: twin games A and B are created alike (the same secret seed, users, seats and frozen
clock) and played with the same random orders, but in B the umpire issues rulings for the Allies
at random points. After every step the French seat and a spectator read, in both games, the
view, the events, the game's detail and the intake of their own orders; the bodies must be equal
once A's game id is renamed B's, the ETags must change at the same steps, and the notification
rows (and their rendered mails) planned for the French must be the same. A control checks that
the Allies do see the difference."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import time_machine
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from games.core.umpire import RULING_KIND, UMPIRE
from pbem.notify.content import notification_content
from pbem.notify.models import Notification
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services import games as games_service
from pbem.play.services.log import state_at
from tests.pbem.api.conftest import client_for
from tests.pbem.notify.nf_helpers import reply_addresses_named

pytestmark = pytest.mark.django_db
SEED = bytes(range(32))
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
STEPS = 40
SEEDS = (1, 2, 3)


def _create(creator: APIClient, names: dict[str, str]) -> str:
    body = {
        "ruleset": "napoleons_triumph",
        "scenario": "DEC2",
        "options": {"board": "austerlitz"},
        "seats": names,
        "title": "twins",
    }
    with pytest.MonkeyPatch.context() as mp:  # the same secret seed for A and B
        mp.setattr(games_service, "secrets", SimpleNamespace(token_bytes=lambda n: SEED[:n]))
        created = creator.post("/api/v1/games", body, format="json")
    assert created.status_code == 201, created.content
    return str(created.json()["id"])


def _reads(client: APIClient, gid: str, role: str | None) -> tuple[str, list[str]]:
    """What `client` reads of game `gid`: the bodies (as one text) and the ETags."""
    q = f"?role={role}" if role else ""
    bodies, tags = [], []
    for path in (f"/api/v1/games/{gid}/view{q}", f"/api/v1/games/{gid}/events{q}"):
        answer = client.get(path)
        assert answer.status_code == 200, answer.content
        bodies.append(answer.content.decode())
        tags.append(answer.headers.get("ETag", ""))
    detail = client.get(f"/api/v1/games/{gid}")
    assert detail.status_code == 200
    bodies.append(detail.content.decode())
    return "\n".join(bodies), tags


def _french_mail(gid: str) -> list[tuple[str, str, str, str]]:
    rows = Notification.objects.filter(game_id=gid, role="french").order_by("pk")
    out = []
    for n in rows:
        content = notification_content(n)
        text = reply_addresses_named(content.text, [gid])
        out.append((n.kind, n.role, content.subject, text))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ruling_for_the_allies_changes_nothing_the_french_read(seed: int) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        anna = User.objects.create_user(f"rl-anna-{seed}", "anna@example.org")
        bruno = User.objects.create_user(f"rl-bruno-{seed}", "bruno@example.org")
        ulla = User.objects.create_user(f"rl-ulla-{seed}", "ulla@example.org")
        spectator = User.objects.create_user(f"rl-watcher-{seed}", "w@example.org")
        names = {"allied": anna.username, "french": bruno.username, UMPIRE: ulla.username}
        clients = {u.pk: client_for(u) for u in (anna, bruno, ulla, spectator)}
        a, b = _create(clients[anna.pk], names), _create(clients[anna.pk], names)
        for gid in (a, b):
            for user, role in ((bruno, "french"), (ulla, UMPIRE)):
                accepted = clients[user.pk].post(f"/api/v1/games/{gid}/seats/{role}/accept")
                assert accepted.status_code == 200, accepted.content
        holders = {"allied": anna, "french": bruno}
        rng, rulings, compared, tags_before = Rng(seed), 0, 0, None
        allied_saw = False
        ruleset = ruleset_get("napoleons_triumph")
        for step in range(STEPS):
            clock.shift(timedelta(minutes=7))
            if rng.below(3) == 0:  # in B only: a ruling for the Allies
                ruled = clients[ulla.pk].post(
                    f"/api/v1/games/{b}/actions",
                    {
                        "role": UMPIRE,
                        "kind": RULING_KIND,
                        "payload": {"text": f"ruling {step}", "audience": ["allied"]},
                    },
                    format="json",
                )
                assert ruled.status_code == 201, ruled.content
                rulings += 1
            game = Game.objects.get(pk=a)
            state = state_at(game, game.head_seq)
            prompts = ruleset.prompts(state)
            if not prompts:
                break
            role = sorted(prompts)[rng.below(len(prompts))]
            action = random_legal_action(ruleset, state, role, rng)
            assert action is not None
            body = {"role": role, "kind": action.kind, "payload": action.payload}
            answers = [
                clients[holders[role].pk].post(f"/api/v1/games/{g}/actions", body, format="json")
                for g in (a, b)
            ]
            assert answers[0].status_code == answers[1].status_code == 201, answers[1].content
            if role == "french":  # the actor's own answer: its event numbered alike
                assert answers[0].json()["event"] == answers[1].json()["event"]
            for user, as_role in ((bruno, "french"), (spectator, None)):
                body_a, tags_a = _reads(clients[user.pk], a, as_role)
                body_b, tags_b = _reads(clients[user.pk], b, as_role)
                assert body_a.replace(a, b) == body_b, f"step {step}: {as_role} reads a ruling"
                if user is bruno:
                    pattern = [x != y for x, y in zip(tags_a, tags_b, strict=True)]
                    changed = tags_before is not None and [
                        t != u for t, u in zip(tags_a, tags_before[0], strict=True)
                    ] != [t != u for t, u in zip(tags_b, tags_before[1], strict=True)]
                    assert not changed, f"step {step}: an ETag moved for the French in B only"
                    tags_before = (tags_a, tags_b)
                    assert all(pattern) or not any(pattern)
                compared += 1
            allied_a, _ = _reads(clients[anna.pk], a, "allied")
            allied_b, _ = _reads(clients[anna.pk], b, "allied")
            allied_saw = allied_saw or allied_a.replace(a, b) != allied_b
        mails_a = [(k, r, s.replace(a, b), t.replace(a, b)) for k, r, s, t in _french_mail(a)]
        mails_b = _french_mail(b)
        assert mails_a == mails_b
        assert rulings > 0
        assert compared >= 2 * 10
        assert allied_saw, "control: the Allies never read a ruling"
        print(f"\nruling leaks seed {seed}: {compared} reads compared, {rulings} rulings")  # noqa: T201
