"""Replaying rounds from the ledger: the bridge between stored events and the
pure rules engine, used by the rounds projection and ``manage.py replay``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from audit.ledger import RecordedEvent
from audit.projections import batch_gc
from audit.storage import EventFacts
from tables.rules import replay as engine_replay
from tables.rules.engine import RuleViolation
from tables.rules.events import (
    ROUND_EVENT_TYPES,
    DealerCollected,
    DealerPaid,
    Decision,
    Event,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    StubCounted,
    WagerPlaced,
    WagerReturned,
)

if TYPE_CHECKING:
    from tables.rounds import RoundState

#: A stored event as verification reads it: in full (projections) or just the facts.
StoredEvent = RecordedEvent | EventFacts


@dataclass(frozen=True)
class VerifiedRound:
    stream_id: str
    recorded: tuple[StoredEvent, ...]
    result: engine_replay.ReplayResult | None
    violation: RuleViolation | None

    @property
    def opened(self) -> RoundOpened:
        return self.result.events[0] if self.result else None  # type: ignore[return-value]


def verify_round(stream_id: str, recorded: Iterable[StoredEvent]) -> VerifiedRound:
    """Replay a round's stored events. One whose payload no longer builds its
    event (the ledger accepted it, so it was changed in the database since:
    the seal's walk names that) refuses the round, as a rule it breaks would."""
    recorded = tuple(e for e in recorded if e.event_type in ROUND_EVENT_TYPES)
    events = []
    for stored in recorded:
        try:
            events.append(ROUND_EVENT_TYPES[stored.event_type].from_payload(stored.payload))
        except ValueError as malformed:
            violation = RuleViolation(stored.event_type, f"version {stored.version}: {malformed}",
                                      "payload")  # fmt: skip
            return VerifiedRound(stream_id, recorded, None, violation)
    try:
        result = engine_replay.replay(events)
    except RuleViolation as violation:  # only possible for events stored before a rule change
        return VerifiedRound(stream_id, recorded, None, violation)
    return VerifiedRound(stream_id, recorded, result, None)


def replay_built(events: Sequence[Event]) -> engine_replay.ReplayResult | None:
    """``verify_round`` for a reader that has built a round's events from
    their payloads itself (``operations.day_read``): the replay, or None where
    the rules refuse an event."""
    try:
        return engine_replay.replay(events)
    except RuleViolation:
        return None


def rounds_of(events: Iterable[StoredEvent]) -> Iterator[tuple[str, list[StoredEvent]]]:
    """Group events that arrive ordered by (stream_id, version) into rounds."""
    current: str | None = None
    bucket: list[StoredEvent] = []
    for event in events:
        if event.stream_id != current:
            if bucket:
                yield current, bucket  # type: ignore[misc]
            current, bucket = event.stream_id, []
        bucket.append(event)
    if bucket:
        yield current, bucket  # type: ignore[misc]


def round_row(entry: RoundState) -> dict[str, Any]:
    """The Round read-model fields for one round as the rounds service holds it."""
    return _row(entry.stream_id, entry.events, entry.settlement, len(entry.findings),
                entry.opened_at, entry.last_event_at, entry.last_position)  # fmt: skip


def replayed_row(verified: VerifiedRound) -> dict[str, Any]:
    """The same fields for a round ``verify_round`` replayed (whole, from
    its stored round events): ``verify_projections``' rows of the rounds."""
    result, first, last = verified.result, verified.recorded[0], verified.recorded[-1]
    assert result is not None
    return _row(verified.stream_id, result.events, result.settlement, len(result.findings),
                first.occurred_at, last.occurred_at, last.position)  # fmt: skip


#: What an event means to a round's row, by the event's class: the total its
#: amount goes to, "voided", "stub" or nothing (filled as classes are met:
#: this runs for every event a check replays, and a class lookup is cheaper
#: than a chain of isinstance).
_ROLE_OF: dict[type, str | None] = {}


def _role_of(kind: type) -> str | None:
    # A decision that puts chips down (a Play Wager) is wagered too.
    for cls, role in ((WagerPlaced | Decision, "wagered"), (DealerPaid, "paid"),
                      (DealerCollected, "collected"), (WagerReturned, "returned"),
                      (RoundVoided, "voided"), (StubCounted, "stub")):  # fmt: skip
        if issubclass(kind, cls):
            return role
    return None


def _row(stream_id: str, events: tuple[Any, ...], settlement: Any, findings: int,
         opened_at: Any, last_event_at: Any, last_position: int) -> dict[str, Any]:  # fmt: skip
    opened = events[0]
    status = "in_progress"
    totals = {"wagered": 0, "paid": 0, "collected": 0, "returned": 0}
    seen: set[str] = set()
    for event in events:
        kind = type(event)
        role = _ROLE_OF.get(kind, "")
        if role == "":
            role = _ROLE_OF[kind] = _role_of(kind)
        if role in totals:
            totals[role] += event.amount_cents or 0
        elif role is not None:
            seen.add(role)
    if "voided" in seen:
        status = "voided"
    elif isinstance(events[-1], RoundClosed):
        status = "closed"
    return {
        "stream_id": stream_id,
        "round_id": opened.round_id,
        "table_id": opened.table_id,
        "game": opened.game,
        "ruleset_id": opened.ruleset_id,
        "gaming_day": opened.gaming_day,
        "status": status,
        "opened_at": opened_at,
        "last_event_at": last_event_at,
        "seats": len(opened.seats),
        "event_count": len(events),
        "wagered_cents": totals["wagered"],
        "required_paid_cents": settlement.total_paid_cents,
        "required_collected_cents": settlement.total_collected_cents,
        "recorded_paid_cents": totals["paid"],
        "recorded_collected_cents": totals["collected"],
        "recorded_returned_cents": totals["returned"],
        "finding_count": findings,
        "stub_counted": "stub" in seen,
        "options_applied": dict(settlement.options_applied),
        "computed_at_position": last_position,
    }


# --- streaming the ledger's rounds -------------------------------------------


@dataclass(frozen=True)
class RoundSelection:
    """Which rounds to replay: by gaming day and table (from ``round.opened``),
    and optionally a range of stream ids [``stream_from``, ``stream_to``) so a
    day can be split among workers."""

    gaming_day: Any = None
    table_id: str | None = None
    stream_from: str | None = None
    stream_to: str | None = None
    #: Only events up to this ledger position (the close's cutoff).
    upto_position: int | None = None
    #: Only these streams: a query of their ids (SQL, no parameters; a
    #: temporary table's, as ``verify_projections`` passes a day's or a part's).
    streams: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """SQL over the ``round.opened`` rows aliased ``o``. The JSON keys are
        written literally so PostgreSQL can use the index on the gaming day."""
        from django.db import connection

        def field(key: str) -> str:
            if connection.vendor == "postgresql":
                return f"o.payload ->> '{key}'"
            return f"json_extract(o.payload, '$.{key}')"

        conditions, params = ["o.event_type = 'round.opened'"], []
        if self.gaming_day is not None:
            conditions.append(f"{field('gaming_day')} = %s")
            params.append(str(self.gaming_day))
        if self.table_id is not None:
            conditions.append(f"{field('table_id')} = %s")
            params.append(self.table_id)
        if self.stream_from is not None:
            conditions.append("o.stream_id >= %s")
            params.append(self.stream_from)
        if self.stream_to is not None:
            conditions.append("o.stream_id < %s")
            params.append(self.stream_to)
        if self.upto_position is not None:
            conditions.append("o.position <= %s")
            params.append(self.upto_position)
        if self.streams is not None:
            conditions.append(f"o.stream_id IN ({self.streams})")
        return " AND ".join(conditions), params


def count_rounds(selection: RoundSelection) -> int:
    from django.db import connection

    where, params = selection.where()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM ledger_event o WHERE {where}", params)
        return cursor.fetchone()[0]


def iter_round_events(selection: RoundSelection, *, rounds_per_page: int = 250
                      ) -> Iterator[EventFacts]:  # fmt: skip
    """Every event of the selected rounds, ordered by (stream_id, version).

    Pages by whole rounds: each query takes the next ``rounds_per_page``
    ``round.opened`` rows after the last round read (an index range scan) and
    all their events, so a page costs its own rows however long the day, and
    memory stays flat. Only the facts replay needs are read (no metadata, no
    hashes: the hash chains are verify_ledger's and the seal's business).
    """
    from audit.storage import fact_columns, select_facts

    where, params = selection.where()
    upto, upto_params = "", []
    if selection.upto_position is not None:
        upto, upto_params = " AND e.position <= %s", [selection.upto_position]
    sql = (
        f"SELECT {fact_columns('e')} FROM ledger_event e WHERE e.stream_id IN ("
        f" SELECT o.stream_id FROM ledger_event o WHERE {where} AND o.stream_id > %s"
        f" ORDER BY o.stream_id LIMIT %s){upto}"
        " ORDER BY e.stream_id, e.version"
    )
    after = ""
    while True:
        rows = select_facts(sql, [*params, after, rounds_per_page, *upto_params])
        yield from rows
        if not rows or len({row.stream_id for row in rows}) < rounds_per_page:
            return
        after = rows[-1].stream_id


@dataclass
class ReplaySummary:
    rounds: int = 0
    events: int = 0
    findings: dict[str, int] = dataclasses.field(default_factory=dict)
    refused: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    rounds_with_findings: int = 0

    def to_payload(self) -> dict[str, Any]:
        """As JSON, for a part replayed by a Celery task."""
        return dataclasses.asdict(self)

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ReplaySummary:
        return cls(payload["rounds"], payload["events"], dict(payload["findings"]),
                   [(stream, reason) for stream, reason in payload["refused"]],
                   payload["rounds_with_findings"])  # fmt: skip

    def merge(self, other: ReplaySummary) -> ReplaySummary:
        """Add another shard's summary to this one (for workers)."""
        self.rounds += other.rounds
        self.events += other.events
        self.rounds_with_findings += other.rounds_with_findings
        self.refused.extend(other.refused)
        for kind, count in other.findings.items():
            self.findings[kind] = self.findings.get(kind, 0) + count
        return self


def replay_rounds(selection: RoundSelection, *, on_round: Any = None) -> ReplaySummary:
    """Replay every matching round from the ledger; ``on_round(verified)`` is
    called for each (progress bars, collecting findings)."""
    summary = ReplaySummary()
    with batch_gc():
        for stream_id, events in rounds_of(iter_round_events(selection)):
            verified = verify_round(stream_id, events)
            summary.rounds += 1
            summary.events += len(events)
            if verified.result is None:
                summary.refused.append((stream_id, str(verified.violation)))
            elif verified.result.findings:
                summary.rounds_with_findings += 1
                for finding in verified.result.findings:
                    kind = finding.kind.value
                    summary.findings[kind] = summary.findings.get(kind, 0) + 1
            if on_round is not None:
                on_round(verified)
    return summary


def tables_of(selection: RoundSelection) -> dict[str, int]:
    """The tables of the selected rounds, with how many rounds each."""
    from django.db import connection

    where, params = selection.where()
    table = ("o.payload ->> 'table_id'" if connection.vendor == "postgresql"
             else "json_extract(o.payload, '$.table_id')")  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {table}, count(*) FROM ledger_event o WHERE {where} "
                       f"GROUP BY {table}", params)  # fmt: skip
        return dict(cursor.fetchall())


def split_tables(tables: dict[str, int], parts: int) -> list[list[str]]:
    """Tables into at most ``parts`` lists of about equal rounds (the largest
    table first into the lightest list).

    >>> split_tables({"A": 5, "B": 3, "C": 2, "D": 1}, 2)
    [['A'], ['B', 'C', 'D']]
    """
    bins: list[tuple[int, list[str]]] = [(0, []) for _ in range(max(1, min(parts, len(tables))))]
    for table_id in sorted(tables, key=lambda t: (-tables[t], t)):
        bins.sort(key=lambda b: b[0])
        bins[0] = (bins[0][0] + tables[table_id], [*bins[0][1], table_id])
    return sorted(sorted(part) for _, part in bins if part)


def replay_tables(selection: RoundSelection, table_ids: Iterable[str]) -> ReplaySummary:
    """The selected rounds of these tables replayed (one part of a fan-out)."""
    summary = ReplaySummary()
    for table_id in table_ids:
        summary.merge(replay_rounds(dataclasses.replace(selection, table_id=table_id)))
    return summary
