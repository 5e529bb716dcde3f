"""Deadline arithmetic: the clock, local days across time zones and daylight-saving changes,
and absences extending the deadlines of the prompted players."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User

from pbem.play.clock import clock_deadline, local_days_utc, merge, present_time
from pbem.play.models import Absence, Game
from pbem.play.services.absences import BadDeadlineRequest, absence_cancel, absence_declare
from pbem.play.services.deadlines import deadline_compute, deadline_start
from tests.pbem.deadlines.dl_helpers import T0, new_game, play_setup

H = timedelta(hours=1)
START = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)


def test_clock_without_absences_is_start_plus_budget() -> None:
    assert clock_deadline(START, 72 * H, []) == START + 72 * H


def test_absence_outside_the_clock_changes_nothing() -> None:
    before = (START - 48 * H, START - 24 * H)
    after = (START + 80 * H, START + 100 * H)
    assert clock_deadline(START, 72 * H, merge([before, after])) == START + 72 * H


def test_absence_inside_the_clock_extends_by_the_overlap() -> None:
    absent = [(START + 10 * H, START + 34 * H)]
    assert clock_deadline(START, 72 * H, absent) == START + 96 * H


def test_absence_running_at_the_start_counts_only_its_rest() -> None:
    absent = [(START - 5 * H, START + 5 * H)]
    assert clock_deadline(START, 72 * H, absent) == START + 77 * H


def test_extension_reaching_a_later_absence_is_extended_again() -> None:
    first = (START + 60 * H, START + 84 * H)  # overlaps the first 72 hours by 12
    second = (START + 90 * H, START + 100 * H)  # reached only because of the extension
    deadline = clock_deadline(START, 72 * H, merge([second, first]))
    assert deadline == START + 72 * H + 24 * H + 10 * H
    assert present_time(START, deadline, merge([first, second])) == 72 * H


def test_merge_joins_overlapping_and_touching_intervals() -> None:
    a, b, c = (START, START + 2 * H), (START + H, START + 3 * H), (START + 3 * H, START + 4 * H)
    assert merge([c, a, b]) == [(START, START + 4 * H)]


@pytest.mark.parametrize(
    ("tz", "day", "start", "hours"),
    [
        ("Europe/Berlin", date(2026, 3, 29), datetime(2026, 3, 28, 23, 0, tzinfo=UTC), 23),
        ("Europe/Berlin", date(2026, 10, 25), datetime(2026, 10, 24, 22, 0, tzinfo=UTC), 25),
        ("Europe/Berlin", date(2026, 7, 1), datetime(2026, 6, 30, 22, 0, tzinfo=UTC), 24),
        ("America/New_York", date(2026, 3, 8), datetime(2026, 3, 8, 5, 0, tzinfo=UTC), 23),
        ("America/New_York", date(2026, 11, 1), datetime(2026, 11, 1, 4, 0, tzinfo=UTC), 25),
        ("Asia/Tokyo", date(2026, 3, 29), datetime(2026, 3, 28, 15, 0, tzinfo=UTC), 24),
        ("UTC", date(2026, 3, 29), datetime(2026, 3, 29, 0, 0, tzinfo=UTC), 24),
    ],
)
def test_a_local_day_in_utc_across_dst(tz: str, day: date, start: datetime, hours: int) -> None:
    a, b = local_days_utc(day, day, tz)
    assert a == start
    assert b - a == hours * H
    assert a.tzinfo is not None
    assert a.utcoffset() == timedelta(0)


def test_several_local_days_across_the_spring_change() -> None:
    a, b = local_days_utc(date(2026, 3, 28), date(2026, 3, 30), "Europe/Berlin")
    assert b - a == 71 * H  # 24 + 23 + 24


def _game_at(u1: User, u2: User) -> Game:
    game = new_game(u1, u2)
    play_setup(game)
    game.refresh_from_db()
    assert game.active_roles == ["allied"]
    return game


def test_deadline_is_72_real_hours_across_the_autumn_change(u1: User, u2: User) -> None:
    now = datetime(2026, 10, 23, 8, 0, tzinfo=UTC)  # Friday 10:00 in Berlin (CEST)
    with time_machine.travel(now, tick=False):
        game = _game_at(u1, u2)
        deadline = deadline_compute(game=game, now=now)
    assert deadline == datetime(2026, 10, 26, 8, 0, tzinfo=UTC)  # Monday 09:00 in Berlin (CET)


def test_no_deadline_when_turn_hours_is_zero(u1: User, u2: User) -> None:
    with time_machine.travel(START, tick=False):
        game = _game_at(u1, u2)
        game.turn_hours = 0
        assert deadline_compute(game=game, now=START) is None


def test_berlin_absence_on_the_short_day_extends_by_23_hours(u1: User, u2: User) -> None:
    now = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        game = _game_at(u1, u2)
        absence_declare(
            user=u1, starts_on=date(2026, 3, 29), ends_on=date(2026, 3, 29), tz="Europe/Berlin"
        )
        deadline = deadline_compute(game=game, now=now)
    assert deadline == now + 72 * H + 23 * H


def test_berlin_absence_on_the_long_day_extends_by_25_hours(u1: User, u2: User) -> None:
    now = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    with time_machine.travel(now, tick=False):
        game = _game_at(u1, u2)
        absence_declare(
            user=u1, starts_on=date(2026, 10, 25), ends_on=date(2026, 10, 25), tz="Europe/Berlin"
        )
        deadline = deadline_compute(game=game, now=now)
    assert deadline == now + 72 * H + 25 * H


def test_new_york_absence_over_the_spring_change(u1: User, u2: User) -> None:
    now = datetime(2026, 3, 6, 15, 0, tzinfo=UTC)  # Friday 10:00 in New York (EST)
    with time_machine.travel(now, tick=False):
        game = _game_at(u1, u2)
        absence_declare(
            user=u1, starts_on=date(2026, 3, 7), ends_on=date(2026, 3, 8), tz="America/New_York"
        )
        deadline = deadline_compute(game=game, now=now)
    # present time: Fri 15:00Z .. Sat 05:00Z = 14 h; absent 47 h (24 + 23) until Mon 04:00Z;
    # then the remaining 58 h: Wednesday 14:00Z.
    assert deadline == datetime(2026, 3, 11, 14, 0, tzinfo=UTC)
    assert deadline == now + 72 * H + 47 * H


def test_absence_of_the_player_not_prompted_changes_nothing(u1: User, u2: User) -> None:
    with time_machine.travel(START, tick=False):
        game = _game_at(u1, u2)
        absence_declare(user=u2, starts_on=date(2026, 5, 5), ends_on=date(2026, 5, 6), tz="UTC")
        assert deadline_compute(game=game, now=START) == START + 72 * H


def test_declaring_an_absence_extends_the_running_deadline(u1: User, u2: User) -> None:
    with time_machine.travel(START, tick=False):
        game = _game_at(u1, u2)
        assert deadline_start(game=game) == START + 72 * H
        absence = absence_declare(
            user=u1, starts_on=date(2026, 5, 5), ends_on=date(2026, 5, 5), tz="Europe/Berlin"
        )
        game.refresh_from_db()
        assert game.deadline_at == START + 96 * H
        absence_cancel(user=u1, absence_id=absence.pk)
        game.refresh_from_db()
        assert game.deadline_at == START + 72 * H


def test_an_absence_declared_today_never_counts_the_hours_already_gone(u1: User, u2: User) -> None:
    with time_machine.travel(START, tick=False):  # 12:00 UTC
        game = _game_at(u1, u2)
        absence_declare(user=u1, starts_on=date(2026, 5, 4), ends_on=date(2026, 5, 4), tz="UTC")
        assert deadline_compute(game=game, now=START) == START + 72 * H + 12 * H


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "tz"),
    [
        (date(2026, 5, 6), date(2026, 5, 5), "UTC"),  # ends before it starts
        (date(2026, 2, 27), date(2026, 3, 1), "UTC"),  # already over (now is 2026-03-02)
        (date(2026, 5, 6), date(2026, 5, 7), "Mars/Olympus_Mons"),
        (date(2026, 5, 6), date(2026, 5, 7), "../etc/passwd"),
    ],
)
def test_bad_absences_are_refused(
    u1: User, starts_on: date, ends_on: date, tz: str, clock: time_machine.Coordinates
) -> None:
    with pytest.raises(BadDeadlineRequest) as e:
        absence_declare(user=u1, starts_on=starts_on, ends_on=ends_on, tz=tz)
    assert e.value.status == 400


def test_a_stored_unknown_zone_counts_as_utc_and_never_raises(
    u1: User, u2: User, clock: time_machine.Coordinates
) -> None:
    from pbem.play.models import Absence

    game = _game_at(u1, u2)
    Absence.objects.create(
        user=u1, starts_on=date(2026, 3, 3), ends_on=date(2026, 3, 3), tz="Nowhere/Atlantis"
    )
    assert deadline_compute(game=game, now=T0) == T0 + 96 * H


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "tz"),
    [
        (date(2026, 5, 5), date(9999, 12, 31), "UTC"),  # the day after overflows
        (date(2026, 5, 5), date(9999, 12, 30), "UTC"),  # the extended clock overflows
        (date(1, 1, 1), date(2026, 5, 5), "Asia/Tokyo"),  # before year 1 in UTC
    ],
)
def test_an_absence_with_far_dates_is_refused_and_stores_nothing(
    u1: User, u2: User, starts_on: date, ends_on: date, tz: str
) -> None:
    with time_machine.travel(START, tick=False):
        game = _game_at(u1, u2)
        deadline_start(game=game)
        with pytest.raises(BadDeadlineRequest, match="between 2000-01-01 and 2999-12-31"):
            absence_declare(user=u1, starts_on=starts_on, ends_on=ends_on, tz=tz)
    assert not Absence.objects.filter(user=u1).exists()
