"""The head state's text column (pbem.play.json_text): what is written is read back exactly, and
what orjson could not read back exactly is refused, not stored."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.play.json_text import JSONTextField, dumps, loads
from pbem.play.models import Game, HeadState

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_a_value_reads_back_as_written(value: object) -> None:
    assert loads(dumps(value)) == value
    field = JSONTextField()
    assert field.from_db_value(field.get_prep_value(value), None, None) == value


@pytest.mark.parametrize("bad", [{"n": 2**64}, {1: "a non-string key"}, [object()]])
def test_what_orjson_cannot_read_back_is_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        dumps(bad)


@pytest.mark.django_db
def test_the_head_state_row_round_trips(nt_game: Game) -> None:
    row = HeadState.objects.get(game=nt_game)
    assert isinstance(row.state, dict)
    assert "units" in row.state
    state = {"units": {"F01": {"strength": 3}}, "text": "Übergang über die Brücke"}
    HeadState.objects.filter(pk=row.pk).update(state=state)
    assert HeadState.objects.get(pk=row.pk).state == state
    assert HeadState.objects.filter(pk=row.pk).values_list("state", flat=True)[0] == state
