"""The rounds projection: every round replayed through the rules engine, its
totals and findings stored with the ledger position they were computed at."""

from __future__ import annotations

from django.db import connection

from audit.ledger import RecordedEvent, read_streams
from audit.projections import Projection, register, upsert
from tables.models import Finding, Round
from tables.rules.events import ROUND_EVENT_TYPES
from tables.verification import round_row, rounds_of, verify_round


def _apply_rounds(batch: list[RecordedEvent]) -> None:
    touched = sorted({e.stream_id for e in batch if e.stream_id.startswith("round:")})
    if not touched:
        return
    upto = batch[-1].position
    rows, findings = [], []
    for stream_id, events in rounds_of(read_streams(touched)):
        # Only what the projection has reached: later events come in later batches.
        events = [e for e in events if e.position <= upto]
        verified = verify_round(stream_id, events)
        if verified.result is None:
            continue
        row = round_row(verified)
        rows.append(Round(**row))
        opened = verified.result.events[0]
        findings.extend(
            Finding(
                round_id=stream_id,
                table_id=opened.table_id,
                gaming_day=opened.gaming_day,
                kind=f.kind.value,
                seat=f.seat,
                wager=str(f.wager),
                expected_cents=f.expected_cents,
                recorded_cents=f.recorded_cents,
                section=f.section,
                detail=f.detail,
                computed_at_position=row["computed_at_position"],
            )
            for f in verified.result.findings
        )
    Finding.objects.filter(round_id__in=touched).delete()
    upsert(Round, rows)
    Finding.objects.bulk_create(findings)


def _clear() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Finding._meta.db_table}")
        cursor.execute(f"DELETE FROM {Round._meta.db_table}")


ROUNDS = register(
    Projection(
        name="tables.rounds",
        description="Every round replayed through the rules engine: totals, required "
        "settlement and findings.",
        event_types=frozenset(ROUND_EVENT_TYPES),
        apply=_apply_rounds,
        clear=_clear,
    )
)
