"""The order path's game read (pbem.play.hot_sql) against the ORM's, field by field: used by
the unit tests (SQLite) and the integration tests (PostgreSQL)."""

from __future__ import annotations

import uuid

from django.db.models import Model

from pbem.play.hot_sql import game_with_head
from pbem.play.models import Game, HeadState, Seat


def _fields(obj: object, model: type[Model]) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields}


def assert_read_as_orm(pk: uuid.UUID) -> Game:
    """game_with_head(pk) gives what select_related/prefetch_related give, with the same caches
    filled (head state, seats in order, each seat's game): no query left to run."""
    orm = Game.objects.select_related("headstate").prefetch_related("seats").get(pk=pk)
    hot = game_with_head(pk)
    assert hot is not None
    assert _fields(hot, Game) == _fields(orm, Game)
    orm_head = getattr(orm, "headstate", None)
    assert Game.headstate.is_cached(hot)
    hot_head = getattr(hot, "headstate", None)
    if orm_head is None:
        assert hot_head is None
    else:
        assert isinstance(hot_head, HeadState)
        assert _fields(hot_head, HeadState) == _fields(orm_head, HeadState)
        assert hot_head.game is hot
    orm_seats = [_fields(s, Seat) for s in orm.seats.all()]
    hot_seats = list(hot.seats.all())
    assert [_fields(s, Seat) for s in hot_seats] == orm_seats
    assert all(s.game is hot for s in hot_seats)
    assert not hot._state.adding
    assert hot._state.db == orm._state.db
    return hot
