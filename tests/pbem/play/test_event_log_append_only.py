"""The event log is append-only: the model refuses changes and the database trigger refuses bulk
UPDATE and DELETE; the seq is gapless."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import DatabaseError, transaction

from pbem.play.models import AppendOnlyError, Event, Game

Play = Callable[..., list[Event]]

pytestmark = pytest.mark.django_db


def test_saving_an_existing_event_is_refused(nt_game: Game) -> None:
    event = Event.objects.get(game=nt_game, seq=1)
    event.kind = "forged"

    with pytest.raises(AppendOnlyError):
        event.save()

    assert Event.objects.get(game=nt_game, seq=1).kind == ".setup"


def test_deleting_an_event_is_refused(nt_game: Game) -> None:
    event = Event.objects.get(game=nt_game, seq=1)

    with pytest.raises(AppendOnlyError):
        event.delete()

    assert Event.objects.filter(game=nt_game, seq=1).exists()


def test_a_queryset_update_is_refused_by_the_database(nt_game: Game) -> None:
    before = Event.objects.get(game=nt_game, seq=1)

    with pytest.raises(DatabaseError), transaction.atomic():  # IntegrityError on SQLite
        Event.objects.filter(game=nt_game).update(kind="forged", state_hash="0" * 64)

    after = Event.objects.get(pk=before.pk)
    assert (after.kind, after.state_hash, after.payload) == (
        before.kind,
        before.state_hash,
        before.payload,
    )


def test_a_queryset_delete_is_refused_by_the_database(nt_game: Game) -> None:
    count = Event.objects.filter(game=nt_game).count()

    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(game=nt_game).delete()

    assert Event.objects.filter(game=nt_game).count() == count == 1


def test_seq_is_gapless_and_the_head_is_the_last_event(nt_game: Game, play: Play) -> None:
    play(nt_game, 12)

    seqs = list(Event.objects.filter(game=nt_game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 14))
    last = Event.objects.get(game=nt_game, seq=13)
    assert (nt_game.head_seq, nt_game.head_hash) == (13, last.state_hash)
