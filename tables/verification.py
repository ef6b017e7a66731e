"""Replaying rounds from the ledger: the bridge between stored events and the
pure rules engine, used by the rounds projection and ``manage.py replay``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from audit.ledger import RecordedEvent
from tables.rules import replay as engine_replay
from tables.rules.engine import RuleViolation
from tables.rules.events import (
    ROUND_EVENT_TYPES,
    DealerCollected,
    DealerPaid,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    StubCounted,
    WagerPlaced,
    WagerReturned,
)


@dataclass(frozen=True)
class VerifiedRound:
    stream_id: str
    recorded: tuple[RecordedEvent, ...]
    result: engine_replay.ReplayResult | None
    violation: RuleViolation | None

    @property
    def opened(self) -> RoundOpened:
        return self.result.events[0] if self.result else None  # type: ignore[return-value]


def verify_round(stream_id: str, recorded: Iterable[RecordedEvent]) -> VerifiedRound:
    recorded = tuple(e for e in recorded if e.event_type in ROUND_EVENT_TYPES)
    events = [ROUND_EVENT_TYPES[e.event_type].from_payload(e.payload) for e in recorded]
    try:
        result = engine_replay.replay(events)
    except RuleViolation as violation:  # only possible for events stored before a rule change
        return VerifiedRound(stream_id, recorded, None, violation)
    return VerifiedRound(stream_id, recorded, result, None)


def rounds_of(events: Iterable[RecordedEvent]) -> Iterator[tuple[str, list[RecordedEvent]]]:
    """Group events that arrive ordered by (stream_id, version) into rounds."""
    current: str | None = None
    bucket: list[RecordedEvent] = []
    for event in events:
        if event.stream_id != current:
            if bucket:
                yield current, bucket  # type: ignore[misc]
            current, bucket = event.stream_id, []
        bucket.append(event)
    if bucket:
        yield current, bucket  # type: ignore[misc]


def round_row(verified: VerifiedRound) -> dict[str, Any]:
    """The Round read-model fields for one replayed round."""
    result = verified.result
    assert result is not None
    opened = result.events[0]
    status = "in_progress"
    if any(isinstance(e, RoundVoided) for e in result.events):
        status = "voided"
    elif isinstance(result.events[-1], RoundClosed):
        status = "closed"
    totals = {"wagered": 0, "paid": 0, "collected": 0, "returned": 0}
    for event in result.events:
        if isinstance(event, WagerPlaced):
            totals["wagered"] += event.amount_cents
        elif isinstance(event, DealerPaid):
            totals["paid"] += event.amount_cents
        elif isinstance(event, DealerCollected):
            totals["collected"] += event.amount_cents
        elif isinstance(event, WagerReturned):
            totals["returned"] += event.amount_cents
    settlement = result.settlement
    return {
        "stream_id": verified.stream_id,
        "round_id": opened.round_id,
        "table_id": opened.table_id,
        "game": opened.game,
        "ruleset_id": opened.ruleset_id,
        "gaming_day": opened.gaming_day,
        "status": status,
        "opened_at": verified.recorded[0].occurred_at,
        "last_event_at": verified.recorded[-1].occurred_at,
        "seats": len(opened.seats),
        "event_count": len(verified.recorded),
        "wagered_cents": totals["wagered"],
        "required_paid_cents": settlement.total_paid_cents,
        "required_collected_cents": settlement.total_collected_cents,
        "recorded_paid_cents": totals["paid"],
        "recorded_collected_cents": totals["collected"],
        "recorded_returned_cents": totals["returned"],
        "finding_count": len(result.findings),
        "stub_counted": any(isinstance(e, StubCounted) for e in result.events),
        "options_applied": dict(settlement.options_applied),
        "computed_at_position": verified.recorded[-1].position,
    }


# --- streaming the ledger's rounds -------------------------------------------


def _opened_filter(gaming_day: Any, table_id: str | None) -> tuple[str, list[Any]]:
    """SQL restricting to rounds whose round.opened matches the filters."""
    from django.db import connection

    conditions, params = [], []
    if connection.vendor == "postgresql":
        field = "o.payload ->> %s"
    else:
        field = "json_extract(o.payload, '$.' || %s)"
    if gaming_day is not None:
        conditions.append(f"{field} = %s")
        params.extend(["gaming_day", str(gaming_day)])
    if table_id is not None:
        conditions.append(f"{field} = %s")
        params.extend(["table_id", table_id])
    return " AND ".join(conditions), params


def count_rounds(*, gaming_day: Any = None, table_id: str | None = None) -> int:
    from django.db import connection

    where, params = _opened_filter(gaming_day, table_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM ledger_event o WHERE o.event_type = 'round.opened'"
            + (f" AND {where}" if where else ""),
            params,
        )
        return cursor.fetchone()[0]


def iter_round_events(
    *, gaming_day: Any = None, table_id: str | None = None, page: int = 10000
) -> Iterator[RecordedEvent]:
    """Every event of the matching rounds, ordered by (stream_id, version),
    fetched page by page so memory stays flat however long the day."""
    from audit.storage import read_columns, select_events

    where, params = _opened_filter(gaming_day, table_id)
    columns = read_columns("e")
    base = (
        f"SELECT {columns} FROM ledger_event e "
        "JOIN ledger_event o ON o.stream_id = e.stream_id AND o.version = 1 "
        "AND o.event_type = 'round.opened'"
        + (f" AND {where}" if where else "")
        + " WHERE e.stream_id LIKE 'round:%%'"
    )
    after: tuple[str, int] | None = None
    while True:
        if after is None:
            rows = select_events(
                base + " ORDER BY e.stream_id, e.version LIMIT %s", [*params, page]
            )
        else:
            rows = select_events(
                base + " AND (e.stream_id > %s OR (e.stream_id = %s AND e.version > %s))"
                " ORDER BY e.stream_id, e.version LIMIT %s",
                [*params, after[0], after[0], after[1], page],
            )
        yield from rows
        if len(rows) < page:
            return
        after = (rows[-1].stream_id, rows[-1].version)


@dataclass
class ReplaySummary:
    rounds: int = 0
    events: int = 0
    findings: dict[str, int] | None = None
    refused: list[tuple[str, str]] | None = None
    rounds_with_findings: int = 0

    def __post_init__(self) -> None:
        self.findings = self.findings or {}
        self.refused = self.refused or []


def replay_rounds(
    *, gaming_day: Any = None, table_id: str | None = None, on_round: Any = None
) -> ReplaySummary:
    """Replay every matching round from the ledger; ``on_round(verified)`` is
    called for each (progress bars, collecting findings)."""
    summary = ReplaySummary()
    for stream_id, events in rounds_of(iter_round_events(gaming_day=gaming_day, table_id=table_id)):
        verified = verify_round(stream_id, events)
        summary.rounds += 1
        summary.events += len(events)
        if verified.result is None:
            summary.refused.append((stream_id, str(verified.violation)))
        elif verified.result.findings:
            summary.rounds_with_findings += 1
            for finding in verified.result.findings:
                summary.findings[finding.kind.value] = (
                    summary.findings.get(finding.kind.value, 0) + 1
                )
        if on_round is not None:
            on_round(verified)
    return summary
