"""Recompute every hash chain and check the global order has no gaps.

Walks the ledger in (stream_id, version) order with keyset pagination, so
memory stays flat however large the ledger is. Reports the first broken
event of each stream: a recomputed hash that differs from the stored one
(content altered), a ``prev_hash`` that does not match the previous event's
hash, or a version that skips (an event removed).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from audit.hashing import GENESIS_HASH, event_hash


@dataclass(frozen=True)
class Break:
    stream_id: str
    version: int
    position: int
    problem: str

    def __str__(self) -> str:
        return (
            f"stream {self.stream_id}: first broken event is version {self.version} "
            f"(position {self.position}): {self.problem}"
        )


@dataclass
class Report:
    events: int = 0
    streams: int = 0
    breaks: list[Break] = field(default_factory=list)
    position_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.position_problems


def _time(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _rows(page: int) -> Iterator[tuple[Any, ...]]:
    sql = (
        "SELECT stream_id, version, position, event_type, schema_version, payload, metadata, "
        "occurred_at, recorded_at, prev_hash, hash FROM ledger_event "
    )
    after: tuple[str, int] | None = None
    with connection.cursor() as cursor:
        while True:
            if after is None:
                cursor.execute(sql + "ORDER BY stream_id, version LIMIT %s", [page])
            else:
                cursor.execute(
                    sql + "WHERE stream_id > %s OR (stream_id = %s AND version > %s) "
                    "ORDER BY stream_id, version LIMIT %s",
                    [after[0], after[0], after[1], page],
                )
            rows = cursor.fetchall()
            yield from rows
            if len(rows) < page:
                return
            after = (rows[-1][0], rows[-1][1])


def verify(*, progress: Callable[[int], None] | None = None, page: int = 5000) -> Report:
    report = Report()
    stream_id: str | None = None
    expected_version = 0
    prev_hash = GENESIS_HASH
    broken = False
    loads = json.loads
    for count, row in enumerate(_rows(page), start=1):
        (
            row_stream,
            version,
            position,
            event_type,
            schema_version,
            payload,
            metadata,
            occurred_at,
            recorded_at,
            stored_prev,
            stored_hash,
        ) = row
        if row_stream != stream_id:
            stream_id, expected_version, prev_hash, broken = row_stream, 0, GENESIS_HASH, False
            report.streams += 1
        report.events += 1
        if progress is not None and count % 1000 == 0:
            progress(1000)
        expected_version += 1
        if broken:
            continue
        problem = ""
        if version != expected_version:
            problem = (
                f"version {expected_version} is missing (found {version}): an event was removed"
            )
        elif stored_prev != prev_hash:
            problem = (
                f"prev_hash {stored_prev[:12]}… does not match the previous hash {prev_hash[:12]}…"
            )
        else:
            recomputed = event_hash(
                stream_id=row_stream,
                version=version,
                event_type=event_type,
                schema_version=schema_version,
                payload=loads(payload) if isinstance(payload, str) else payload,
                metadata=loads(metadata) if isinstance(metadata, str) else metadata,
                occurred_at=_time(occurred_at),
                recorded_at=_time(recorded_at),
                prev_hash=stored_prev,
            )
            if recomputed != stored_hash:
                problem = (
                    f"content altered: stored hash {stored_hash[:12]}…, "
                    f"recomputed {recomputed[:12]}…"
                )
        if problem:
            report.breaks.append(Break(row_stream, version, position, problem))
            broken = True
        prev_hash = stored_hash
        expected_version = version
    if progress is not None:
        progress(report.events % 1000)
    report.position_problems = _position_problems()
    return report


def _position_problems() -> list[str]:
    """Global positions must run 1..head with no gap and no duplicate."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT position FROM ledger_head WHERE id = 1")
        head = cursor.fetchone()[0]
        cursor.execute("SELECT count(*), coalesce(max(position), 0) FROM ledger_event")
        count, highest = cursor.fetchone()
        if count == head and highest == head:
            return []
        cursor.execute(
            "SELECT a.position + 1 FROM ledger_event a LEFT JOIN ledger_event b "
            "ON b.position = a.position + 1 WHERE b.position IS NULL AND a.position < %s "
            "ORDER BY 1 LIMIT 10",
            [head],
        )
        gaps = [row[0] for row in cursor.fetchall()]
    problems = [f"the ledger head says {head} events were appended; {count} are stored"]
    if gaps:
        problems.append("missing global positions from: " + ", ".join(map(str, gaps)))
    return problems
