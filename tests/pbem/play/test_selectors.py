"""Who may read what (pbem.play.selectors): the reader role, the acting role, private games, the
log-audience filter and the numbering, read the same way by the API and the notifications."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.core.protocol import JSON, OBSERVER, OMNISCIENT
from pbem.notify.content import LOG_MAX, visible_log
from pbem.play.errors import InvalidField, ReadForbidden
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.selectors import (
    Numbering,
    acting_role,
    event_lines_for,
    event_read,
    events_for,
    game_find,
    games_for,
    line_readable,
    may_read_clock,
    may_read_game,
    numbering_for,
    reader_role,
    reader_roles,
    view_for,
)
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at

pytestmark = pytest.mark.django_db

Play = Callable[..., list[Event]]


@pytest.fixture
def mallory(db: None) -> User:
    return User.objects.create_user("mallory_t", "mallory@example.com")


def _game(seats: dict[str, User | None], creator: User, **extra: Any) -> Game:
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats=seats,
        creator=creator,
        accepted=True,
        **extra,
    )
    found = game_find(game.pk)
    assert found is not None
    return found


def _public_or(role: str, entry: JSON) -> bool:
    """The rule as the engine states it: a line is for everyone (null) or for the roles listed."""
    assert isinstance(entry, dict)
    audience = entry["audience"]
    return audience is None or (isinstance(audience, list) and role in audience)


def _private_lines(game: Game) -> list[dict[str, Any]]:
    return [
        entry
        for e in Event.objects.filter(game=game).order_by("seq")
        for entry in e.log
        if isinstance(entry, dict) and entry["audience"] is not None
    ]


def _audiences(entries: list[dict[str, Any]]) -> list[list[str]]:
    return [list(entry["audience"]) for entry in entries]


def _text(entry: JSON) -> str:
    assert isinstance(entry, dict)
    return str(entry["text"])


# --- the reader role and the view ----------------------------------------------------------------


def test_a_seat_reads_its_own_view_and_no_other(nt_game: Game, alice: User) -> None:
    game = game_find(nt_game.pk)
    assert game is not None
    seat_view = view_for(game, alice)
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, game.head_seq)
    assert seat_view.role == "allied"
    assert seat_view.view == ruleset.view(state, "allied")
    assert seat_view.seq == game.head_seq
    assert [a["kind"] for a in seat_view.actions] == [
        a.kind for a in ruleset.actions(state, "allied")
    ]
    with pytest.raises(ReadForbidden, match="you do not hold the seat 'french'"):
        view_for(game, alice, "french")


def test_a_non_member_reads_as_observer_unless_the_game_is_private(
    alice: User, bob: User, mallory: User
) -> None:
    public = _game({"allied": alice, "french": bob}, alice)
    assert reader_role(public, mallory) == OBSERVER
    assert reader_roles(public, mallory) == [OBSERVER]
    assert view_for(public, mallory).role == OBSERVER
    may_read_game(public, mallory)
    private = _game({"allied": alice, "french": bob}, alice, spectators=False)
    with pytest.raises(ReadForbidden, match="admits no spectators"):
        reader_role(private, mallory)
    with pytest.raises(ReadForbidden, match="admits no spectators"):
        may_read_game(private, mallory)
    with pytest.raises(ReadForbidden, match="only the players"):
        may_read_clock(private, mallory)
    may_read_game(private, bob)
    may_read_clock(private, bob)


def test_several_seats_must_name_one_to_read_and_to_act_unless_one_is_prompted(
    alice: User, mallory: User
) -> None:
    game = _game({"allied": alice, "french": alice}, alice, hot_seat=True)
    with pytest.raises(InvalidField) as err:
        reader_role(game, alice)
    assert err.value.field == "role"
    assert reader_role(game, alice, "french") == "french"
    # acting: the only prompted role is the one meant
    assert len(game.active_roles) == 1
    assert acting_role(game, alice) == game.active_roles[0]
    assert acting_role(game, alice, "allied") == "allied"  # named: the order service checks it
    with pytest.raises(ReadForbidden, match="you hold no seat"):
        acting_role(game, mallory)


def test_games_for_lists_own_games_and_with_open_seats_the_joinable_ones(
    alice: User, bob: User, mallory: User
) -> None:
    mine = _game({"allied": alice, "french": bob}, alice)
    joinable = _game({"allied": bob, "french": None}, bob)
    assert [g.pk for g in games_for(alice)] == [mine.pk]
    assert [g.pk for g in games_for(mallory)] == []
    assert [g.pk for g in games_for(mallory, open_seats=True)] == [joinable.pk]


# --- the log ----------------------------------------------------------------------------------


def test_an_observer_and_a_non_member_read_only_public_lines_a_seat_reads_its_own(
    nt_game: Game, play: Play, alice: User, mallory: User
) -> None:
    play(nt_game, 40)
    private = _private_lines(nt_game)
    assert any("french" in aud and "allied" not in aud for aud in _audiences(private))
    assert any(OBSERVER not in aud for aud in _audiences(private))
    game = game_find(nt_game.pk)
    assert game is not None
    for user, role in ((mallory, OBSERVER), (alice, "allied")):
        read = {e.seq: e.lines for e in events_for(game, user)}
        numbering = numbering_for(game, [role])
        for event in Event.objects.filter(game=game):
            rule = [_text(x) for x in event.log if _public_or(role, x)]
            assert event_lines_for(event, role) == rule
            if numbering.is_visible(event.seq):
                assert read[numbering.role_seq(event.seq)] == rule


def test_the_omniscient_reader_sees_every_event_and_every_fact(nt_game: Game, play: Play) -> None:
    """A post-game review reads as `@omniscient`: no event is hidden from it, it reads every line
    for everyone and every side's private line, and of a line written once per reader (hidden
    units named differently for each) its own copy, so never fewer lines than any role."""
    play(nt_game, 40)
    for event in Event.objects.filter(game=nt_game):
        lines = event_lines_for(event, OMNISCIENT)
        for entry in event.log:
            assert isinstance(entry, dict)
            audience = entry["audience"]
            if audience is None or (OBSERVER not in audience and len(audience) > 1):
                assert _text(entry) in lines
        for role in ("allied", "french", OBSERVER):
            assert len(lines) >= len(event_lines_for(event, role))
    assert numbering_for(nt_game, [OMNISCIENT]).hidden == ()


@pytest.mark.parametrize("who", ["alice", "bob", "mallory"])
def test_the_api_and_a_notification_give_a_user_the_same_lines(
    who: str, nt_game: Game, play: Play, alice: User, bob: User, mallory: User
) -> None:
    play(nt_game, 40)
    user = {"alice": alice, "bob": bob, "mallory": mallory}[who]
    game = game_find(nt_game.pk)
    assert game is not None
    role = reader_role(game, user)
    client = APIClient()
    client.force_authenticate(user)
    answer = client.get(f"/api/v1/games/{game.pk}/events")
    assert answer.status_code == 200
    by_seq = {e["seq"]: e["lines"] for e in answer.json()}
    numbering = numbering_for(game, [role])
    shown = 0
    for event in Event.objects.filter(game=game).order_by("seq"):
        if not numbering.is_visible(event.seq):
            continue
        api_lines = by_seq[numbering.role_seq(event.seq)]
        assert visible_log(event, role) == [line for line in api_lines if line][:LOG_MAX]
        shown += len(api_lines)
    assert shown > 0


ROLES = ("allied", "french", OBSERVER, OMNISCIENT)
ENTRY = st.fixed_dictionaries(
    {
        "text": st.text(min_size=1, max_size=8),
        "audience": st.none() | st.lists(st.sampled_from(ROLES), unique=True, max_size=3),
        "data": st.none(),
    }
)


@given(log=st.lists(ENTRY, max_size=12), role=st.sampled_from(ROLES), own=st.booleans())
def test_every_path_filters_a_log_by_its_audience_alike(
    log: list[dict[str, Any]], role: str, own: bool
) -> None:
    """The API's event lines, a notification's lines and the engine's stated rule agree."""
    event = Event(seq=3, kind="move", role="allied", log=log, payload={"x": 1})
    expected = [e["text"] for e in log if e["audience"] is None or role in e["audience"]]
    read = event_read(event, role, ["allied"] if own else [], Numbering(()))
    assert read.lines == expected
    assert visible_log(event, role) == expected[:LOG_MAX]
    assert [e["text"] for e in log if line_readable(e, role)] == expected
    assert read.payload == ({"x": 1} if own else None)
