"""Which ledger streams belong to a gaming day (registered with the ledger,
``audit.providers``): the table days, counts and time charges name their day in
their stream id (``table:<table>:<day>``, ``count:<table>:<day>``,
``timecharge:<table>:<day>``), the rounds, poker
hands and slips in their opening event's ``gaming_day``. A day's seal covers these
streams up to the close's cutoff, whenever their events were recorded.
Everything is read from the ledger itself, never from a read model."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterator

from django.db import connection

from audit.providers import DayStreams, register_day_streams
from audit.storage import each_row
from tables.count import COUNT_STREAM_KIND
from tables.poker_hands import POKER_HAND_STREAM_KIND
from tables.round_events import ROUND_STREAM_KIND
from tables.table_day import (
    CREDIT_REQUESTED,
    FILL_REQUESTED,
    SLIP_STREAM_KIND,
    TABLE_STREAM_KIND,
)
from tables.time_charges import TIME_CHARGE_KIND
from tables.verification import RoundSelection

#: Kinds whose stream id ends with ``:<gaming day>``.
_KEYED = (TABLE_STREAM_KIND, COUNT_STREAM_KIND, TIME_CHARGE_KIND)
#: Kinds whose first event names the gaming day, and that event's types.
_OPENED = {ROUND_STREAM_KIND: ("round.opened",), POKER_HAND_STREAM_KIND: ("poker.hand_opened",),
           SLIP_STREAM_KIND: (FILL_REQUESTED, CREDIT_REQUESTED)}  # fmt: skip
_BATCH = 500
_OPENED_BATCH = 20_000
#: The gaming day an opening event names. The LIMIT keeps the subquery a nested loop
#: of index probes: joined plainly, a planner short of statistics hashes every opening
#: of the ledger.
_OPENED_DAYS = (
    "SELECT s.stream_id, o.day FROM ledger_stream s JOIN LATERAL (SELECT "
    "e.payload ->> 'gaming_day' AS day FROM ledger_event e WHERE e.stream_id = s.stream_id "
    "AND e.day_key = s.day_key AND e.version = 1 AND e.event_type = ANY(%s) LIMIT 1) o "
    "ON true WHERE s.stream_id = ANY(%s)"
)


def _gaming_day(column: str) -> str:
    if connection.vendor == "postgresql":
        return f"{column} ->> 'gaming_day'"
    return f"json_extract({column}, '$.gaming_day')"


@functools.lru_cache(maxsize=64)
def _date(text: str) -> datetime.date:
    """One date object a day: a busy day maps 200,000 streams to it."""
    return datetime.date.fromisoformat(text)


def _keyed_day(stream_id: str) -> datetime.date | None:
    kind, _, key = stream_id.partition(":")
    if kind not in _KEYED:
        return None
    try:
        return datetime.date.fromisoformat(key.rpartition(":")[2])
    except ValueError:
        return None


def streams_of_day(day: datetime.date) -> Iterator[str]:
    """The day's streams, as they come (a busy day has 200,000: the seal's
    membership takes them a chunk at a time, asking of each chunk as they come)."""
    where, params = RoundSelection(gaming_day=day).where()
    # One branch per kind, so PostgreSQL seeks each prefix in the index (0008).
    keyed = "".join(" UNION SELECT stream_id FROM ledger_event WHERE version = 1 "
                    "AND stream_id LIKE %s" for _ in _KEYED)  # fmt: skip
    sql = (
        f"SELECT o.stream_id FROM ledger_event o WHERE o.version = 1 AND {where} "
        "UNION SELECT stream_id FROM ledger_event WHERE version = 1 "
        f"AND event_type IN (%s, %s) AND {_gaming_day('payload')} = %s "
        "UNION SELECT stream_id FROM ledger_event WHERE version = 1 "
        f"AND event_type = 'poker.hand_opened' AND {_gaming_day('payload')} = %s{keyed}"
    )
    params += [FILL_REQUESTED, CREDIT_REQUESTED, day.isoformat(), day.isoformat()]
    params += [f"{kind}:%:{day.isoformat()}" for kind in _KEYED]
    return (stream_id for (stream_id,) in each_row(sql, params, apart=True)
            if _keyed_day(stream_id) in (None, day))  # fmt: skip


def days_of_streams(stream_ids: list[str]) -> dict[str, datetime.date]:
    days: dict[str, datetime.date] = {}
    opened: list[str] = []
    for stream_id in stream_ids:
        kind = stream_id.partition(":")[0]
        keyed = _keyed_day(stream_id)
        if keyed is not None:
            days[stream_id] = keyed
        elif kind in _OPENED:
            opened.append(stream_id)
    types = sorted({t for kinds in _OPENED.values() for t in kinds})
    if connection.vendor == "postgresql":
        # One probe of the (stream, version) index per stream, in its own partition.
        for at in range(0, len(opened), _OPENED_BATCH):
            with connection.cursor() as cursor:
                cursor.execute(_OPENED_DAYS, [types, opened[at : at + _OPENED_BATCH]])
                days.update((stream_id, _date(day)) for stream_id, day in cursor if day)
        return days
    for at in range(0, len(opened), _BATCH):
        batch = opened[at : at + _BATCH]
        sql = (
            f"SELECT stream_id, {_gaming_day('payload')} FROM ledger_event WHERE version = 1 "
            f"AND event_type IN ({', '.join(['%s'] * len(types))}) "
            f"AND stream_id IN ({', '.join(['%s'] * len(batch))})"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*types, *batch])
            for stream_id, day in cursor.fetchall():
                if day:
                    days[stream_id] = _date(day)
    return days


def tables_of_streams(stream_ids: list[str]) -> dict[str, str]:
    """The table of each stream that has one, as ``tables.read_scope.
    stream_table_day`` finds it (from the id where it names the table, else
    the first event's ``table_id``; a finding's review from its round's),
    in one query per batch rather than one per stream."""
    from tables.configuration import TABLE_CONFIG_KIND
    from tables.reviews import FINDING_STREAM_KIND

    tables: dict[str, str] = {}
    opened: dict[str, str] = {}  # the stream whose first event names the table
    for stream_id in stream_ids:
        kind, _, key = stream_id.partition(":")
        if kind in _KEYED:
            if _keyed_day(stream_id) is not None and key.rpartition(":")[0]:
                tables[stream_id] = key.rpartition(":")[0]
        elif kind == TABLE_CONFIG_KIND:
            tables[stream_id] = key
        elif kind == FINDING_STREAM_KIND:
            opened[stream_id] = f"{ROUND_STREAM_KIND}:{key.rsplit(':', 3)[0]}"
        else:
            opened[stream_id] = stream_id
    field = ("payload ->> 'table_id'" if connection.vendor == "postgresql"
             else "json_extract(payload, '$.table_id')")  # fmt: skip
    wanted = sorted(set(opened.values()))
    first: dict[str, str] = {}
    for at in range(0, len(wanted), _BATCH):
        batch = wanted[at : at + _BATCH]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT stream_id, {field} FROM ledger_event WHERE version = 1 AND "
                           f"stream_id IN ({', '.join(['%s'] * len(batch))})", batch)  # fmt: skip
            first.update((s, t) for s, t in cursor.fetchall() if isinstance(t, str))
    tables.update((s, first[o]) for s, o in opened.items() if o in first)
    return tables


register_day_streams(DayStreams(of_day=streams_of_day, days_of=days_of_streams,
                                tables_of=tables_of_streams))  # fmt: skip


# --- the streams of a day's rows in each projection (``verify_projections --gaming-day``) ---


def streams_of_kinds(day: datetime.date, *kinds: str) -> list[str]:
    """The day's streams (``streams_of_day``) of the given kinds."""
    return [s for s in streams_of_day(day) if s.partition(":")[0] in kinds]


def _first_events(condition: str, params: list) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT stream_id FROM ledger_event e WHERE e.version = 1 AND "
                       f"{condition} ORDER BY stream_id", params)  # fmt: skip
        return [row[0] for row in cursor.fetchall()]


def close_streams(day: datetime.date) -> list[str]:
    return _first_events("e.stream_id = %s", [f"close:{day.isoformat()}"])


def compliance_streams(day: datetime.date) -> list[str]:
    """Compliance findings raised for ``day`` (their first event names it)."""
    from tables.compliance import COMPLIANCE_STREAM_KIND

    return _first_events(f"e.stream_id LIKE %s AND {_gaming_day('e.payload')} = %s",
                         [f"{COMPLIANCE_STREAM_KIND}:%", day.isoformat()])  # fmt: skip


def finding_review_streams(day: datetime.date) -> list[str]:
    """The reviews of the findings of ``day``'s rounds (their first event
    names the round)."""
    from tables.reviews import FINDING_STREAM_KIND

    where, params = RoundSelection(gaming_day=day).where()
    field = ("e.payload ->> 'round_stream'" if connection.vendor == "postgresql"
             else "json_extract(e.payload, '$.round_stream')")  # fmt: skip
    return _first_events(f"e.stream_id LIKE %s AND {field} IN (SELECT o.stream_id FROM "
                         f"ledger_event o WHERE o.version = 1 AND {where})",
                         [f"{FINDING_STREAM_KIND}:%", *params])  # fmt: skip


def variance_review_streams(day: datetime.date) -> list[str]:
    from tables.variance_reviews import VARIANCE_STREAM_KIND

    return _first_events("e.stream_id LIKE %s", [f"{VARIANCE_STREAM_KIND}:{day.isoformat()}:%"])
