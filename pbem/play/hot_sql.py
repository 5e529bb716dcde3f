"""The order path's SQL, written once per process from the models' metadata: the read of a game
(its row, its head state and its seats, in two statements) and the insert of a row (the intake).

Why not the ORM here: compiling the two querysets of `game_find(head=True)` (the game joined to
its head state, then the seats) and building their instances cost 2.1 ms of a 6.4 ms order
(bench/order_path.py, idle machine; the bare insert it is measured against is 2.1 ms). The same
rows read by these statements cost 0.8 ms. Everything else on the order path stays ORM.

The rows become model instances the way the ORM builds them: each value passes through its
field's database converters (JSON decoding, SQLite's dates) and then `Model.from_db`. The head
state is cached on the game as `select_related("headstate")` would, and the seats as
`prefetch_related("seats")` would, in `Seat.Meta.ordering`. A test holds the result equal to
the ORM's, field by field, on SQLite and on PostgreSQL.

`insert_row(obj)` stores a new instance as `obj.save(force_insert=True)` would for a model with
a client-side primary key (a UUID default) and no save signals: each field's `pre_save`
(auto_now_add, defaults) and `get_db_prep_save`, one INSERT; 0.1 ms less than the ORM's.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

from pbem.play.models import Game, HeadState, Seat

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Columns:
    """A model's concrete fields, their attribute names and their database converters."""

    fields: tuple[Field[Any, Any], ...]
    attnames: tuple[str, ...]
    converters: tuple[tuple[Converter, ...], ...]

    def build(self, model: type[M], values: Sequence[Any]) -> M:
        converted = []
        for field, convs, value in zip(self.fields, self.converters, values, strict=True):
            for convert in convs:
                value = convert(value, field, connection)
            converted.append(value)
        return model.from_db(connection.alias, list(self.attnames), converted)

    def select_list(self, alias: str) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)


def _field_converters(field: Field[Any, Any]) -> list[Converter]:
    converters: list[Converter] = field.get_db_converters(connection)  # type: ignore[attr-defined]
    return converters


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return connection.ops.quote_name(field.column)


def _columns(model: type[Model]) -> _Columns:
    fields = tuple(model._meta.concrete_fields)
    table = model._meta.db_table
    converters = tuple(
        tuple(connection.ops.get_db_converters(f.get_col(table)) + _field_converters(f))
        for f in fields
    )
    return _Columns(fields, tuple(f.attname for f in fields), converters)


@dataclass(frozen=True)
class _Plan:
    vendor: str
    game: _Columns
    head: _Columns
    seat: _Columns
    game_sql: str
    seats_sql: str


_plans: dict[str, _Plan] = {}  # by connection alias
_inserts: dict[tuple[str, str, type[Model]], tuple[tuple[Field[Any, Any], ...], str]] = {}


def _plan() -> _Plan:
    plan = _plans.get(connection.alias)
    if plan is not None and plan.vendor == connection.vendor:
        return plan
    quote = connection.ops.quote_name
    game, head, seat = _columns(Game), _columns(HeadState), _columns(Seat)
    head_fk, seat_fk, game_pk = (
        _column(HeadState, "game"),
        _column(Seat, "game"),
        _column(Game, "id"),
    )
    order = ", ".join(
        f"s.{_column(Seat, name.lstrip('-'))}" + (" DESC" if name.startswith("-") else "")
        for name in Seat._meta.ordering or ()
        if isinstance(name, str)
    )
    game_sql = (
        f"SELECT {game.select_list('g')}, {head.select_list('h')}"  # noqa: S608 (names, not input)
        f" FROM {quote(Game._meta.db_table)} g"
        f" LEFT JOIN {quote(HeadState._meta.db_table)} h ON h.{head_fk} = g.{game_pk}"
        f" WHERE g.{game_pk} = %s"
    )
    seats_sql = (
        f"SELECT {seat.select_list('s')} FROM {quote(Seat._meta.db_table)} s"  # noqa: S608
        f" WHERE s.{seat_fk} = %s" + (f" ORDER BY {order}" if order else "")
    )
    plan = _Plan(connection.vendor, game, head, seat, game_sql, seats_sql)
    _plans[connection.alias] = plan
    return plan


def game_with_head(pk: uuid.UUID) -> Game | None:
    """The game with its head state (or none stored) and its seats (without their users), as
    `Game.objects.select_related("headstate").prefetch_related("seats")` gives it; None when
    there is no such game."""
    plan = _plan()
    key = Game._meta.get_field("id").get_db_prep_value(pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(plan.game_sql, [key])
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(plan.seats_sql, [key])
        seat_rows = cursor.fetchall()
    width = len(plan.game.fields)
    game = plan.game.build(Game, row[:width])
    head = None if row[width] is None else plan.head.build(HeadState, row[width:])
    Game.headstate.related.set_cached_value(game, head)
    if head is not None:
        HeadState.game.field.set_cached_value(head, game)
    seats = [plan.seat.build(Seat, r) for r in seat_rows]
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    queryset = game.seats.all()
    queryset._result_cache = seats  # what prefetch_related stores: a done queryset
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]
    return game


def insert_row(obj: M) -> M:
    """INSERT `obj` (a new instance whose primary key is set by its default, e.g. uuid4) in one
    statement; it comes back saved, as from `Model.objects.create`. For models without save
    signals (none are connected for the order path's intake: a test checks)."""
    model = type(obj)
    key = (connection.alias, connection.vendor, model)
    found = _inserts.get(key)
    if found is None:
        quote = connection.ops.quote_name
        fields = tuple(model._meta.concrete_fields)
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
        found = _inserts[key] = (fields, sql)
    fields, sql = found
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj
