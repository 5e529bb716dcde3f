"""A JSON value stored as text and (de)coded by orjson: for the head state, read on every order
and written with every event.

Why not Django's JSONField (jsonb on PostgreSQL) there: the head state is a cache the database
never queries into, ~22 KB for a Napoleon's Triumph game. Sending it out of jsonb costs the
server a conversion to text, and Python's json module decodes it at about a third of orjson's
speed; together 0.2 ms of an order's 4.5 ms (bench/order_path.py). The value read back is the
value written: orjson refuses to write an integer beyond 64 bits or a non-string key (TypeError:
the caller's transaction fails), and the head state's writer has already hashed the same value
with games.core.canonical (allow_nan=False), which refuses NaN and infinities before it gets here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson
from django.db import models


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


if TYPE_CHECKING:
    _Text = models.TextField[Any, Any]  # typed as holding any JSON value, not a str
else:
    _Text = models.TextField


class JSONTextField(_Text):
    """A JSON value (dict, list, str, number, bool; not None: use null=True for SQL NULL) kept
    as its text."""

    if TYPE_CHECKING:  # django-stubs: the value set and read is any JSON value, not a str
        _pyi_private_set_type: Any
        _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else loads(value)

    def to_python(self, value: Any) -> Any:
        return loads(value) if isinstance(value, str | bytes) else value

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else dumps(value)

    def value_to_string(self, obj: models.Model) -> str:
        return dumps(self.value_from_object(obj))
