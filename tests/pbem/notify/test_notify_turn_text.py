"""Whose turn, told truthfully: over random games, every "your turn" goes only
to the users of the roles the engine prompts after the event, every newly prompted seat gets
exactly one, and its text names the recipient's role and whose turn it is by the names of the
ruleset's roles() ("French army"), never by side codes: a mail to the French asked to answer an
attack in the Allied turn once said `active: AL`."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from pbem.notify.content import notification_content, summary_in_names
from pbem.notify.models import Notification
from pbem.play.models import Event, Game, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.pbem.notify.nf_helpers import nt_game, play

pytestmark = pytest.mark.django_db

NAMES = {"allied": "Allied army", "french": "French army"}
SIDE_CODE = re.compile(r"(?<![\w-])(AL|F)(?![\w-])")  # a bare side code as a word
SEEDS = [1, 2, 3, 4]


def label(role: str) -> str:
    return f"{NAMES[role]} ({role})"


def prompted_at(game: Game, seq: int) -> list[str]:
    return sorted(ruleset_get(game.ruleset_id).prompts(state_at(game, seq, verify=False)))


def _check_your_turn(n: Notification) -> None:
    game = n.game
    prompted = prompted_at(game, n.event.seq)
    holder = Seat.objects.get(game=game, role=n.role).user_id
    assert n.role in prompted, (n.event.seq, n.role, prompted)
    assert n.user_id == holder

    content = notification_content(n)
    (other,) = set(NAMES) - {n.role}
    assert f"It is your turn as {label(n.role)}" in content.text
    assert f"your turn as {NAMES[other]}" not in content.text
    assert f"as {NAMES[n.role]} (event" in content.subject
    waiting = ", ".join(label(r) for r in prompted)
    assert f"Waiting for: {waiting} (that is you)" in content.text
    assert f"<b>{label(n.role)}</b>" in content.html
    summary = content.text.split("Where the game stands (as you see it):", 1)[-1]
    summary = summary.split("What happened:", 1)[0]
    for line in summary.splitlines():
        if line.startswith("  active: ") or line.startswith("  morale: "):
            assert not SIDE_CODE.search(line.split(": ", 1)[1]), line


@pytest.mark.parametrize("seed", SEEDS)
def test_every_your_turn_goes_to_the_prompted_seats_and_names_them(
    seed: int, alice: User, bob: User
) -> None:
    game = nt_game(alice, bob, title=f"turn text {seed}")
    events = play(game, 100, seed=seed, until_turn_ends=7)
    assert sum(e.turn_ended for e in events) >= 5  # set-ups and a few turns: many prompts

    rows = list(Notification.objects.filter(game=game, kind="your_turn", channel="email"))
    assert rows
    for n in rows:
        _check_your_turn(n)

    # every seat newly prompted by an event (the game's start included), except the actor, was
    # told exactly once about that event, and nobody else was
    told = sorted((n.event.seq, n.role) for n in rows)
    expected = [(1, r) for r in prompted_at(game, 1)]
    before = prompted_at(game, 1)
    for event in events:
        after = prompted_at(game, event.seq)
        expected += [(event.seq, r) for r in sorted(set(after) - set(before)) if r != event.role]
        before = after
    assert told == sorted(expected)


def test_the_french_asked_in_the_allied_turn_are_told_it_is_their_decision(
    alice: User, bob: User
) -> None:
    """The reported mail: French prompted to answer an attack while the Allied side is active.
    It names the French army as the one waited for, and the active side by its name."""
    ruleset = ruleset_get("napoleons_triumph")
    found: list[Notification] = []
    for seed in [*SEEDS, 5, 6, 7, 8]:
        game = nt_game(alice, bob, title=f"decision {seed}")
        play(game, 120, seed=seed, until_turn_ends=6)
        for n in Notification.objects.filter(
            game=game, kind="your_turn", role="french", channel="email"
        ):
            state = state_at(game, n.event.seq, verify=False)
            if getattr(state, "active", None) == "AL":
                found.append(n)
        if found:
            break
    assert found, "random play reached no French decision in an Allied turn"
    for n in found:
        _check_your_turn(n)
        text = notification_content(n).text
        assert "active: Allied army" in text
        assert "active: AL" not in text
        assert ruleset.prompts(state_at(n.game, n.event.seq))["french"].text in text


def test_side_codes_in_a_summary_become_names() -> None:
    words = {"AL": "Allied army", "F": "French army", "allied": "Allied army"}
    summary = [
        ("active", "AL"),
        ("morale", "AL=5, F=6"),
        ("phase", "commands"),
        ("result", "winner=F, kind=decisive"),
        ("note", "a, b"),
    ]
    assert summary_in_names(summary, words) == [
        ("active", "Allied army"),
        ("morale", "Allied army=5, French army=6"),
        ("phase", "commands"),
        ("result", "winner=French army, kind=decisive"),
        ("note", "a, b"),
    ]


def test_events_of_a_game_are_numbered_from_its_start(alice: User, bob: User) -> None:
    """The start notification hangs on event 1 (`.setup`), which nobody played."""
    game = nt_game(alice, bob)
    (n,) = Notification.objects.filter(game=game)
    assert n.event == Event.objects.get(game=game, seq=1)
    assert n.event.kind == ".setup"
    _check_your_turn(n)
