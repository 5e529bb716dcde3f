"""Clock arithmetic for deadlines: pure datetime, no Django.

A turn's clock is a *budget* of present time counted from a start; it does not run while a
prompted player is on a declared absence. All values are aware UTC datetimes; an absence is whole
local days in the player's time zone, converted to UTC with zoneinfo (a local day is 23 or 25
hours long across a daylight-saving change).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

Interval = tuple[datetime, datetime]


class UnknownTimeZone(ValueError):
    """A name that is not an IANA time zone known to this system."""


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone `name`; UnknownTimeZone for an unknown or malformed name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise UnknownTimeZone(f"unknown time zone {name!r}") from None


def local_days_utc(starts_on: date, ends_on: date, tz: str) -> Interval:
    """Whole local days `starts_on`..`ends_on` (inclusive) in zone `tz`, as a UTC interval
    [first local midnight, the local midnight after the last day)."""
    zone = zone_of(tz)
    start = datetime.combine(starts_on, time(0), tzinfo=zone).astimezone(UTC)
    end = datetime.combine(ends_on + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)
    return start, end


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, non-overlapping union of intervals (empty ones dropped)."""
    out: list[Interval] = []
    for a, b in sorted(i for i in intervals if i[1] > i[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def intersect(a: Sequence[Interval], b: Sequence[Interval]) -> list[Interval]:
    """The times in both of two merged, sorted interval lists (merged, sorted)."""
    out: list[Interval] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            out.append((lo, hi))
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return out


def clock_deadline(start: datetime, budget: timedelta, absent: Sequence[Interval]) -> datetime:
    """The moment `budget` of present time has passed since `start`, the clock stopping during
    the (merged, sorted) `absent` intervals: each absence overlapping the running clock extends
    the deadline by the overlap, including absences the extension itself reaches."""
    remaining, t = budget, start
    for a, b in absent:
        if b <= t:
            continue
        if a > t:
            gap = a - t
            if gap >= remaining:
                return t + remaining
            remaining -= gap
        t = b
    return t + remaining


def present_time(start: datetime, end: datetime, absent: Sequence[Interval]) -> timedelta:
    """Time between `start` and `end` outside the (merged) `absent` intervals."""
    if end <= start:
        return timedelta(0)
    total = end - start
    for a, b in absent:
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            total -= hi - lo
    return total
