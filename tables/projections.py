"""The rounds projection: every round's state from the rounds service (which
advances the round it holds by the batch's events, or replays it from the
ledger), its totals and findings stored with the ledger position they were
computed at."""

from __future__ import annotations

from audit.ledger import RecordedEvent
from audit.projections import Projection, ReadModel, emptying, register, upsert
from tables import rounds as round_states
from tables.models import Finding, Round
from tables.rules.events import ROUND_EVENT_TYPES
from tables.verification import round_row


def _apply_rounds(batch: list[RecordedEvent]) -> None:
    # Each round as of its last event in the batch: later events come in later batches.
    rounds = round_states.SERVICE.following(e for e in batch if e.stream_id.startswith("round:"))
    if not rounds:
        return
    touched = sorted(rounds)
    rows, findings = [], []
    for stream_id in touched:
        entry = rounds[stream_id]
        if entry.state is None:  # not replayable (only for events stored before a rule change)
            continue
        row = round_row(entry)
        rows.append(Round(**row))
        opened = entry.opened
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
            for f in entry.findings
        )
    Finding.objects.filter(round_id__in=touched).delete()
    upsert(Round, rows)
    Finding.objects.bulk_create(findings)


def _day_streams(day):
    from tables.day_streams import streams_of_kinds

    return streams_of_kinds(day, "round")


ROUNDS = register(
    Projection(
        name="tables.rounds",
        description="Every round replayed through the rules engine: totals, required "
        "settlement and findings.",
        event_types=frozenset(ROUND_EVENT_TYPES),
        apply=_apply_rounds,
        clear=emptying(Finding, Round),
        # A round's findings have no key of their own (a round may repeat one).
        read_models=(ReadModel(Round), ReadModel(Finding, key=("round_id", "seat", "wager",
                                                               "kind"))),  # fmt: skip
        day_streams=_day_streams,
    )
)
