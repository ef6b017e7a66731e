"""The ledger's partitions (PostgreSQL; the embedded SQLite keeps one plain table).

``ledger_event`` is range-partitioned on ``day_key``: the gaming day its
*stream* began on, fixed when the stream is created (``ledger_stream``
records it, one row per stream) and carried by every later event of the
stream. So a stream lives in one partition whole, and:

* **(stream, version) stays unique across partitions.** The unique index is
  (stream_id, version, day_key), which PostgreSQL can enforce per partition;
  every append of an existing stream takes the day key from the stream's
  head, so two writers of the same version meet in the same partition, and
  two writers creating the same stream meet on ``ledger_stream``'s primary
  key (whatever gaming day each of them thought it was).
* **Retention takes whole streams.** A partition detached takes every event
  of its streams, so no hash chain is ever cut at the archive boundary: what
  the archive holds verifies from genesis on its own, and what stays does too.
  Only global positions have gaps afterwards, each covered by a recorded
  ``ledger.retained`` event (``audit.retention``).
* **Long-lived streams do not pin old partitions.** Stream kinds declared
  ``lasting`` (the table and casino configurations, the export download
  records, the retention records) get the key ``LASTING_KEY`` and live in
  ``ledger_event_lasting``, which retention never touches; any other stream
  still written to inside the retention window makes retention refuse its
  partition, naming it.

A partition spans ``LEDGER_PARTITION_MONTHS`` months of day keys (one by
default; ``bench/partitions.py`` measures why not one day). Partitions are
made ahead (``ensure_partitions``: the migration, then the daily
``audit.tasks.prepare_partitions``); a stream whose period has no partition
yet lands in ``ledger_event_default`` and nothing fails.

The append-only triggers: the row trigger on the partitioned table is cloned
onto every partition by PostgreSQL; the TRUNCATE trigger, a statement
trigger, is not, so ``ensure_partitions`` adds it to each partition it makes.
Detaching a partition is DDL, like dropping a trigger: only the owner can,
and ``verify_ledger`` names any position gap no ``ledger.retained`` covers.
"""

from __future__ import annotations

import datetime
import re
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

from audit.registry import REGISTRY

#: The day key of a lasting stream: below every real gaming day.
LASTING_KEY = datetime.date(1, 1, 1)
LASTING_PARTITION = "ledger_event_lasting"
DEFAULT_PARTITION = "ledger_event_default"
#: Day keys below this go to the lasting partition.
LASTING_BELOW = datetime.date(1900, 1, 1)
_PREFIX = "ledger_event_p"
_BOUNDS = re.compile(r"FROM \('(?P<start>[0-9-]+)'\) TO \('(?P<end>[0-9-]+)'\)")
#: The gaming-day calendar is read from the database at most this often.
_CALENDAR_SECONDS = 60.0
_calendar_cache: tuple[float, Any] = (0.0, None)


def partitioned() -> bool:
    """Whether the ledger is partitioned here (PostgreSQL, from migration 0016)."""
    return connection.vendor == "postgresql"


def _calendar() -> Any:
    """The registered gaming-day calendar, cached; None when there is none yet
    (no casino configured): day keys are then UTC dates."""
    global _calendar_cache
    at, calendar = _calendar_cache
    if time.monotonic() - at < _CALENDAR_SECONDS:
        return calendar
    from django.core.exceptions import ImproperlyConfigured, ObjectDoesNotExist

    from audit import providers

    try:
        calendar = providers.calendar()
    except (ImproperlyConfigured, ObjectDoesNotExist):
        calendar = None
    _calendar_cache = (time.monotonic(), calendar)
    return calendar


def forget_calendar() -> None:
    """Read the calendar again on the next append (tests, a changed casino)."""
    global _calendar_cache
    _calendar_cache = (0.0, None)


def gaming_day(moment: datetime.datetime) -> datetime.date:
    calendar = _calendar()
    if calendar is None:
        return moment.astimezone(datetime.UTC).date()
    from zoneinfo import ZoneInfo

    local = moment.astimezone(ZoneInfo(calendar.time_zone))
    day = local.date()
    return day - datetime.timedelta(days=1) if local.time() < calendar.gaming_day_starts_at else day


def lasting_kinds() -> list[str]:
    return sorted(name for name, kind in REGISTRY.stream_kinds.items() if kind.lasting)


def day_key(stream_id: str, recorded_at: datetime.datetime) -> datetime.date:
    """The day key of a new stream whose first event is recorded at ``recorded_at``."""
    kind = REGISTRY.stream_kind_of(stream_id)
    if kind is not None and kind.lasting:
        return LASTING_KEY
    return gaming_day(recorded_at)


def period(day: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The [start, end) day keys of the partition holding ``day``."""
    months = settings.LEDGER_PARTITION_MONTHS
    index = (day.year * 12 + day.month - 1) // months * months
    start = datetime.date(index // 12, index % 12 + 1, 1)
    index += months
    return start, datetime.date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class Partition:
    name: str
    start: datetime.date
    end: datetime.date


def day_partitions(cursor: Any = None) -> list[Partition]:
    """The attached partitions of gaming days, oldest first (not the lasting
    nor the default one)."""
    sql = (
        "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
        "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'ledger_event'::regclass"
    )
    if cursor is None:
        with connection.cursor() as own:
            own.execute(sql)
            rows = own.fetchall()
    else:
        cursor.execute(sql)
        rows = cursor.fetchall()
    found = []
    for name, bound in rows:
        match = _BOUNDS.search(bound)
        if name.startswith(_PREFIX) and match:
            found.append(Partition(name, datetime.date.fromisoformat(match["start"]),
                                   datetime.date.fromisoformat(match["end"])))  # fmt: skip
    return sorted(found, key=lambda p: p.start)


def append_only(cursor: Any, table: str) -> None:
    """The TRUNCATE trigger on one partition (the row trigger is inherited)."""
    cursor.execute(
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change()"
    )


def ensure_partitions(first: datetime.date, last: datetime.date, cursor: Any = None) -> list[str]:
    """Make the partitions of every day from ``first`` to ``last`` that has
    none; returns the names made. A period whose day keys already sit in the
    default partition is left to it (its rows cannot move: the ledger is
    append-only), and said so in the returned list."""
    if not partitioned():
        return []
    if cursor is None:
        with connection.cursor() as own:
            return ensure_partitions(first, last, own)
    have = day_partitions(cursor)
    made = []
    start, _ = period(first)
    while start <= last:
        begin, end = period(start)
        # A period already covered, even by partitions of another length
        # (LEDGER_PARTITION_MONTHS changed since), is left as it is.
        if not any(p.start < end and begin < p.end for p in have):
            cursor.execute(
                f"SELECT 1 FROM {DEFAULT_PARTITION} WHERE day_key >= %s AND day_key < %s LIMIT 1",
                [begin, end],
            )
            if cursor.fetchone() is not None:
                made.append(f"(none for {begin}..{end}: its streams are in {DEFAULT_PARTITION})")
            else:
                name = f"{_PREFIX}{begin:%Y%m%d}"
                cursor.execute(
                    f"CREATE TABLE {name} PARTITION OF ledger_event "
                    f"FOR VALUES FROM ('{begin.isoformat()}') TO ('{end.isoformat()}')"
                )
                append_only(cursor, name)
                made.append(name)
        start = end
    return made
